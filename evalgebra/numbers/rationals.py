r"""Rationals from user input, with bounded size: ints, Fractions, ``"p/q"`` text; one parser.

:class:`fractions.Fraction` expands a decimal exponent before anything can look at the
size of the result (``Fraction("0e99999999")`` computes ``10**99999999``), and ``int``
refuses strings of more than 4,300 digits with a ``ValueError`` of its own. Every rational
evalgebra reads from text (the API, the command line, ``QuadraticNumber("1/3")``, alarm
thresholds) goes through :func:`parse_rational`, the one parser, which checks the digits and
the exponent against :data:`MAX_DIGITS` and :data:`MAX_EXPONENT` *before* calling ``Fraction``,
and raises one of the project's errors (the caller's choice) with a one-line message.

The grammar is Python's for ``Fraction`` with ASCII digits only: an optional sign, then
``p/q`` or a decimal with an optional exponent (``0.25``, ``.5``, ``25e-2``), underscores
between digits, surrounding blanks ignored. ``nan``, ``inf``, ``0x10`` and digits of other
scripts (``'٣'``) are refused.

Examples
--------
>>> parse_rational(" 3/12 ", "x")
Fraction(1, 4)
>>> parse_rational("2.5e-1", "x")
Fraction(1, 4)
>>> parse_rational("0e99999999", "threshold")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
evalgebra.errors.SketchError: threshold: exponent 99999999 of '0e99999999' is out of range; accepted:
exponents of at most 1000 in absolute value
>>> from evalgebra.errors import PointError
>>> exact_rational(1.5, "x", PointError)
Traceback (most recent call last):
...
evalgebra.errors.PointError: x: 1.5 is not exact; give an int, a Fraction or a 'p/q' string
"""

from __future__ import annotations

import re
import reprlib
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import EvalgebraError, SketchError

__all__ = [
    "parse_rational",
    "exact_rational",
    "show_int",
    "short_repr",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "MAX_BITS",
    "RATIONAL_BOUNDS",
    "ErrorType",
]

#: Digits a rational written as text may have (numerator, decimals and denominator together).
MAX_DIGITS = 1000
#: Largest absolute decimal exponent of a rational written as text (``1e1000`` is accepted).
MAX_EXPONENT = 1000
#: Bits the numerator and denominator of any rational read may have (about 2,400 digits: what
#: the text limits allow, and every such number still prints).
MAX_BITS = 8000
#: What every message about a rational's size says is accepted.
RATIONAL_BOUNDS = f"at most {MAX_DIGITS} digits and an exponent within ±{MAX_EXPONENT}"

# The grammar Fraction accepts, ASCII digits only: sign, digits (underscores between them),
# then "/denominator" or ".decimals" and an exponent.
_RATIONAL = re.compile(
    r"""
    (?P<sign>[-+]?)
    (?=[0-9]|\.[0-9])
    (?P<num>[0-9]*|[0-9]+(?:_[0-9]+)*)
    (?:
        /(?P<denom>[0-9]+(?:_[0-9]+)*)
      | (?:\.(?P<decimal>[0-9]*|[0-9]+(?:_[0-9]+)*))?
        (?:[eE](?P<exp>[-+]?[0-9]+(?:_[0-9]+)*))?
    )
    """,
    re.VERBOSE,
)

ErrorType = type[EvalgebraError]


def parse_rational(text: str, where: str, error: ErrorType = SketchError) -> Fraction:
    r"""An exact rational from text (``"3"``, ``"-1/4"``, ``"0.25"``, ``"25e-2"``), size-checked first.

    Parameters
    ----------
    text : str
        What :class:`fractions.Fraction` reads, surrounding blanks ignored.
    where : str
        What the value is, for the start of the message (``""``: the message starts with the value).
    error : type
        The project error to raise (:class:`~evalgebra.errors.SketchError` by default).

    Returns
    -------
    Fraction

    Raises
    ------
    error
        Not a rational, a zero denominator, more than :data:`MAX_DIGITS` digits or an
        exponent over :data:`MAX_EXPONENT`.

    Examples
    --------
    >>> parse_rational("-6/8", "x")
    Fraction(-3, 4)
    """
    if not isinstance(text, str):
        raise error(f"{_at(where)}expected a rational as text, got {type(text).__name__}")
    shown = text if len(text) <= 40 else text[:40] + "..."
    stripped = text.strip()
    found = _RATIONAL.fullmatch(stripped) if len(stripped) <= 4 * MAX_DIGITS else None
    if found is None:
        raise error(
            f"{_at(where)}cannot read {shown!r} as a rational; accepted: an integer, 'p/q' or a decimal "
            f"such as '0.25' (ASCII digits), with {RATIONAL_BOUNDS}"
        )
    digits = sum(len((found[k] or "").replace("_", "")) for k in ("num", "denom", "decimal"))
    if digits > MAX_DIGITS:
        raise error(f"{_at(where)}{shown!r} has {digits} digits; accepted: at most {MAX_DIGITS}")
    exponent = (found["exp"] or "0").replace("_", "")
    if len(exponent.lstrip("+-").lstrip("0")) > len(str(MAX_EXPONENT)) or abs(int(exponent)) > MAX_EXPONENT:
        raise error(
            f"{_at(where)}exponent {exponent.lstrip('+')} of {shown!r} is out of range; accepted: exponents "
            f"of at most {MAX_EXPONENT} in absolute value"
        )
    try:
        return _bounded(Fraction(stripped), where, error)
    except ZeroDivisionError:
        raise error(f"{_at(where)}cannot read {shown!r} as a rational (zero denominator)") from None


def _at(where: str) -> str:
    return f"{where}: " if where else ""


def _bounded(value: Fraction, where: str, error: ErrorType) -> Fraction:
    if max(abs(value.numerator), value.denominator).bit_length() > MAX_BITS:
        raise error(
            f"{_at(where)}{show_int(value.numerator)}/{show_int(value.denominator)} is too large; accepted: "
            f"numerators and denominators of at most {MAX_BITS} bits"
        )
    return value


def show_int(number: int) -> str:
    """An integer for a message: in full when short, else its size (huge ints do not print).

    Examples
    --------
    >>> show_int(12), show_int(10**500)
    ('12', 'an integer of 1661 bits')
    """
    return str(number) if number.bit_length() <= 256 else f"an integer of {number.bit_length()} bits"


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        return show_int(x)


_SHORT = _ShortRepr()
_SHORT.maxstring = _SHORT.maxother = 40


def short_repr(value: Any) -> str:
    """A bounded ``repr`` for messages: long containers cut, huge ints by their size.

    Examples
    --------
    >>> short_repr([1, 2, 3, 4, 5, 6, 7, 10**5000])
    '[1, 2, 3, 4, 5, 6, ...]'
    >>> short_repr((10**5000,))
    '(an integer of 16610 bits,)'
    """
    try:
        return _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - a message must never fail on the value it shows
        return f"<{type(value).__name__}>"


def exact_rational(value: Any, where: str, error: ErrorType = SketchError) -> Fraction:
    r"""An exact rational from an int, Fraction, finite Decimal, sympy/flint rational or text.

    Floats and booleans are refused (not exact); text goes through :func:`parse_rational`.

    Examples
    --------
    >>> import numpy as np
    >>> exact_rational(np.int64(3), "x"), exact_rational("1/3", "x")
    (Fraction(3, 1), Fraction(1, 3))
    """
    if isinstance(value, (bool, float, np.bool_, np.floating)):
        raise error(f"{_at(where)}{value!r} is not exact; give an int, a Fraction or a 'p/q' string")
    if isinstance(value, (int, np.integer)):
        return _bounded(Fraction(int(value)), where, error)
    if isinstance(value, Fraction):
        return _bounded(value, where, error)
    if isinstance(value, str):
        return parse_rational(value, where, error)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise error(f"{_at(where)}{value} is not a finite rational")
        return parse_rational(str(value), where, error)
    numerator, denominator = getattr(value, "p", None), getattr(value, "q", None)
    if isinstance(numerator, (int, np.integer)) or hasattr(numerator, "__index__"):
        try:
            top, bottom = int(numerator), int(denominator)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass
        else:
            if bottom != 0:
                return _bounded(Fraction(top, bottom), where, error)
    raise error(
        f"{_at(where)}cannot read {short_repr(value)} as an exact rational; give an int, a Fraction "
        "or a 'p/q' string"
    )
