r"""Exceptions raised by evalgebra.

Bad *input* raises one of these, with a message that says what was wrong and what is
accepted. Mathematical failure modes of an evaluation (complex points, irrational
estimates, ...) are results, never exceptions.

Examples
--------
>>> from evalgebra.errors import SpecError
>>> issubclass(SpecError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "EvalgebraError",
    "SpecError",
    "SketchError",
    "PointError",
    "InconsistentIdealError",
]


class EvalgebraError(Exception):
    """Base class of every error evalgebra raises on purpose."""


class SpecError(EvalgebraError, ValueError):
    """An ensemble specification (classifiers, labels, structure, populations) is invalid."""


class SketchError(EvalgebraError, ValueError):
    """Decisions, counts or a sketch file cannot be turned into a valid data sketch."""


class PointError(EvalgebraError, ValueError):
    """An evaluation point is invalid, or no labelled test realises it."""


class InconsistentIdealError(EvalgebraError):
    """An ideal computation met a system with no solution where one was required."""
