r"""One entry point for every evaluator: ``evaluate(sketch, method=...)``.

========== ==============================================================================
method     what it does
========== ==============================================================================
algebraic  the error-independent closed form (N = 3, R = 2; every trio for N > 3), exact
majority   impute the answer key by majority vote (any N, R), exact
hui_walter two binary tests on two or more populations, the closed form of seed 004, exact
========== ==============================================================================

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.evaluators.dispatch import evaluate, METHODS
>>> METHODS
('algebraic', 'majority', 'hui_walter')
"""

from __future__ import annotations

from typing import Any

from evalgebra.errors import SpecError
from evalgebra.evaluators.result import Evaluation
from evalgebra.data.sketch import Sketch

__all__ = ["METHODS", "evaluate"]

METHODS = ("algebraic", "majority", "hui_walter")


def evaluate(sketch: Sketch, method: str = "algebraic", **options: Any) -> Evaluation:
    r"""Evaluate an ensemble from its sketch with the named method.

    Parameters
    ----------
    sketch : Sketch
        Labelled or not; true labels are ignored. Populations are pooled, except by
        ``hui_walter``, which needs them.
    method : {"algebraic", "majority", "hui_walter"}
    **options
        Passed to the method's function.

    Returns
    -------
    Evaluation
    """
    if method == "algebraic":
        from evalgebra.evaluators.algebraic import evaluate_algebraic

        return evaluate_algebraic(sketch, **options)
    if method == "majority":
        from evalgebra.evaluators.majority import majority_vote

        return majority_vote(sketch, **options)
    if method == "hui_walter":
        from evalgebra.evaluators.hui_walter import evaluate_hui_walter

        return evaluate_hui_walter(sketch, **options)
    raise SpecError(f"unknown evaluation method {method!r}; known: {', '.join(METHODS)}")
