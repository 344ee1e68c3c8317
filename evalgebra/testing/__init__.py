"""Hypothesis strategies shared by evalgebra's tests (needs the ``test`` extra).

See :mod:`evalgebra.testing.strategies`.
"""

from evalgebra.testing.strategies import (
    MAX_CLASSIFIERS,
    MAX_LABELS,
    STRUCTURE_KINDS,
    abstaining_points,
    all_subsets,
    budget,
    compositions,
    correlation_bound,
    labelled_tests,
    rational_points,
    specs,
    structures,
)

__all__ = [
    "MAX_CLASSIFIERS",
    "MAX_LABELS",
    "STRUCTURE_KINDS",
    "abstaining_points",
    "all_subsets",
    "budget",
    "compositions",
    "correlation_bound",
    "labelled_tests",
    "rational_points",
    "specs",
    "structures",
]
