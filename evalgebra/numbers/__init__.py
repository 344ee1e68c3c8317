r"""Exact numbers: every number type of evalgebra and the one parser of rationals, free of SymPy.

The bottom of the pipeline, next to :mod:`evalgebra.errors`: every later stage may use it, and
it imports nothing later.

======================= ===================================================================
module                  what it holds
======================= ===================================================================
``rationals``           :func:`parse_rational`, the one parser of rationals from text, with its
                        bounds (``MAX_DIGITS``, ``MAX_EXPONENT``, ``MAX_BITS``); exact rationals
                        from any input; bounded ``repr`` for messages
``seeds``               :func:`check_seed`: random seeds from user input, bounded
``real_algebraic``      :class:`RealAlgebraic`, the family's base; integer-polynomial tools
                        (root isolation, composed sums and products)
``algebraic_numbers``   :class:`AlgebraicNumber` (a root of any degree), :class:`FieldElement`
                        (a number field ``Q(theta)``), :func:`real_roots`
``quadratic``           :class:`QuadraticNumber`, ``p + q*sqrt(d)``: the canonical, hashable value
``quadratic_field``     :class:`QuadraticElement`, the fast working numbers of ``Q(sqrt(d))`` on
                        Python ints (per-sketch solvers)
``quadratic_extension`` :class:`QuadraticExtension`, ``K(sqrt(d))`` for any coefficients (the
                        derivations' fields of rational functions, in codegen)
``symmetric_roots``     :func:`eliminant_roots`: the real roots of an eliminant symmetric under the
                        label swap ``p -> 1 - p``
======================= ===================================================================

The names are imported on first access, so that reading a rational (the data readers, the
command line) does not load python-flint.

Examples
--------
>>> from evalgebra.numbers import QuadraticNumber, parse_rational
>>> QuadraticNumber(parse_rational("1/2", "p"), 1, 2) ** 2
QuadraticNumber(9/4 + sqrt(2))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Where each name lives (imported on first access, PEP 562).
_LAZY = {
    "parse_rational": "evalgebra.numbers.rationals",
    "exact_rational": "evalgebra.numbers.rationals",
    "MAX_DIGITS": "evalgebra.numbers.rationals",
    "MAX_EXPONENT": "evalgebra.numbers.rationals",
    "MAX_BITS": "evalgebra.numbers.rationals",
    "check_seed": "evalgebra.numbers.seeds",
    "RealAlgebraic": "evalgebra.numbers.real_algebraic",
    "AlgebraicNumber": "evalgebra.numbers.algebraic_numbers",
    "FieldElement": "evalgebra.numbers.algebraic_numbers",
    "real_roots": "evalgebra.numbers.algebraic_numbers",
    "QuadraticNumber": "evalgebra.numbers.quadratic",
    "QuadraticElement": "evalgebra.numbers.quadratic_field",
    "QuadraticExtension": "evalgebra.numbers.quadratic_extension",
    "eliminant_roots": "evalgebra.numbers.symmetric_roots",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from evalgebra.numbers.algebraic_numbers import AlgebraicNumber as AlgebraicNumber
    from evalgebra.numbers.algebraic_numbers import FieldElement as FieldElement
    from evalgebra.numbers.algebraic_numbers import real_roots as real_roots
    from evalgebra.numbers.quadratic import QuadraticNumber as QuadraticNumber
    from evalgebra.numbers.quadratic_extension import QuadraticExtension as QuadraticExtension
    from evalgebra.numbers.quadratic_field import QuadraticElement as QuadraticElement
    from evalgebra.numbers.rationals import MAX_BITS as MAX_BITS
    from evalgebra.numbers.rationals import MAX_DIGITS as MAX_DIGITS
    from evalgebra.numbers.rationals import MAX_EXPONENT as MAX_EXPONENT
    from evalgebra.numbers.rationals import exact_rational as exact_rational
    from evalgebra.numbers.rationals import parse_rational as parse_rational
    from evalgebra.numbers.real_algebraic import RealAlgebraic as RealAlgebraic
    from evalgebra.numbers.seeds import check_seed as check_seed
    from evalgebra.numbers.symmetric_roots import eliminant_roots as eliminant_roots


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'evalgebra.numbers' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
