r"""Arithmetic in ``K(sqrt(d))`` for any coefficient ring ``K``: the quadratic fields of the derivations.

The closed forms of the two-label evaluators are derived in a quadratic extension of a field
of rational functions (:mod:`~evalgebra.codegen.closed_forms` on SymPy expressions,
:mod:`~evalgebra.codegen.hui_walter` on python-flint polynomials). A
:class:`QuadraticExtension` does that arithmetic once, on triples ``(x, y, z)`` meaning
``(x + y*sqrt(d)) / z``: the fraction-free form
:class:`~evalgebra.numbers.quadratic_field.QuadraticElement` tunes for Python integers, here
for coefficients of any type with ``+``, ``-`` and ``*``. A quotient multiplies by the
conjugate, ``1 / (X + Y sqrt d) = (X - Y sqrt d) / (X^2 - d Y^2)``. Two optional functions
keep the coefficients small: ``normal`` is applied to every coefficient of every result
(SymPy's ``cancel``), ``reduce`` to every quotient instead (a common factor divided out).

Examples
--------
>>> from fractions import Fraction
>>> field = QuadraticExtension(5)
>>> golden = (Fraction(1, 2), Fraction(1, 2), 1)                 # (1 + sqrt 5) / 2
>>> square = field.mul(golden, golden)
>>> field.same(field.sub(square, golden), (1, 0, 1))             # golden^2 - golden = 1
True
>>> field.same(field.divide((1, 0, 1), golden), field.sub(golden, (1, 0, 1)))
True
>>> field.same(field.evaluate([1, -1, -1], golden, 0, 1), (0, 0, 1))   # x^2 - x - 1 at golden
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["QuadraticExtension", "Triple"]

#: ``(x, y, z)``: the element ``(x + y*sqrt(d)) / z``.
Triple = tuple[Any, Any, Any]


class QuadraticExtension:
    r"""``K(sqrt(d))``: exact arithmetic on triples ``(x, y, z) = (x + y*sqrt(d)) / z``, ``x, y, z`` in ``K``.

    Parameters
    ----------
    d : coefficient
        The radicand, an element of ``K`` that is not a square there (not checked).
    normal : callable, optional
        Applied to each coefficient of every result (for SymPy, ``sympy.cancel``); none by default.
    reduce : callable, optional
        Applied to the triple of every quotient (instead of ``normal``), to divide out a common
        factor; none by default.

    Notes
    -----
    The representation is not canonical: compare with :meth:`same`, never the triples.
    :meth:`divide` raises ``ZeroDivisionError`` when the divisor's norm ``X^2 - d Y^2`` is
    zero (``== 0`` after ``normal``).

    Examples
    --------
    >>> field = QuadraticExtension(2)
    >>> field.mul((1, 1, 1), (1, -1, 1)), field.norm((1, 1, 1))       # (1 + sqrt 2)(1 - sqrt 2)
    ((-1, 0, 1), -1)
    """

    __slots__ = ("d", "_normal", "_reduce")

    def __init__(
        self,
        d: Any,
        *,
        normal: Callable[[Any], Any] | None = None,
        reduce: Callable[[Triple], Triple] | None = None,
    ) -> None:
        self.d = d
        self._normal = normal
        self._reduce = reduce

    def _out(self, x: Any, y: Any, z: Any) -> Triple:
        normal = self._normal
        return (x, y, z) if normal is None else (normal(x), normal(y), normal(z))

    def add(self, u: Triple, v: Triple) -> Triple:
        """``u + v``."""
        return self._out(u[0] * v[2] + v[0] * u[2], u[1] * v[2] + v[1] * u[2], u[2] * v[2])

    def sub(self, u: Triple, v: Triple) -> Triple:
        """``u - v``."""
        return self._out(u[0] * v[2] - v[0] * u[2], u[1] * v[2] - v[1] * u[2], u[2] * v[2])

    def mul(self, u: Triple, v: Triple) -> Triple:
        """``u * v``."""
        return self._out(u[0] * v[0] + u[1] * v[1] * self.d, u[0] * v[1] + u[1] * v[0], u[2] * v[2])

    def conjugate(self, u: Triple) -> Triple:
        """``(x - y*sqrt(d)) / z``."""
        return u[0], -u[1], u[2]

    def norm(self, u: Triple) -> Any:
        """``(x^2 - d y^2) / z^2`` times ``z^2``: the norm of the numerator ``x + y*sqrt(d)``."""
        value = u[0] * u[0] - u[1] * u[1] * self.d
        return value if self._normal is None else self._normal(value)

    def divide(self, u: Triple, v: Triple) -> Triple:
        """``u / v``: ``(x + y sqrt d)(X - Y sqrt d) Z / (z (X^2 - d Y^2))``; ``ZeroDivisionError`` for
        ``v = 0``.
        """
        norm = self.norm(v)
        if norm == 0:
            raise ZeroDivisionError("division by zero in the quadratic field")
        x = u[0] * v[0] - u[1] * v[1] * self.d
        y = u[1] * v[0] - u[0] * v[1]
        if self._reduce is not None:
            return self._reduce((x * v[2], y * v[2], u[2] * norm))
        return self._out(x * v[2], y * v[2], u[2] * norm)

    def evaluate(self, coefficients: Iterable[Any], at: Triple, zero: Any, one: Any) -> Triple:
        """A polynomial with coefficients in ``K`` (the leading one first) at ``at``, by Horner's rule.

        ``zero`` and ``one`` are those of ``K`` (``0`` and ``1`` for numbers and SymPy).
        """
        value: Triple = (zero, zero, one)
        for c in coefficients:
            value = self.add(self.mul(value, at), (c, zero, one))
        return value

    @staticmethod
    def same(u: Triple, v: Triple) -> bool:
        """Whether ``u`` and ``v`` are the same element (cross-multiplied: ``x Z = X z`` and
        ``y Z = Y z``).
        """
        return bool(u[0] * v[2] - v[0] * u[2] == 0) and bool(u[1] * v[2] - v[1] * u[2] == 0)
