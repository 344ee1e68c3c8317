r"""Evaluators: the methods, one subpackage per family, and one dispatcher.

===================== ===============================================================
module or package     what it holds
===================== ===============================================================
``independent``       error-independent binary classifiers: the closed form (one count
                      vector, exact), its vectorised batch, the algebraic method on a
                      sketch, abstentions, the distance to the containing variety
``many_labels``       error-independent classifiers with ``R >= 3`` labels: the eliminant
``correlated``        correlated structures: a generated eliminant, every point exact; K5
``hui_walter``        two binary tests on two or more populations: the closed form, the
                      Gibbs sampler, the online evaluator
``majority``          the answer key imputed by majority vote (one idea, one module)
``fitted``            maximum likelihood on the model, started from the exact points
``intervals``         bootstrap and delta-method intervals, shared by the families
``trio_alignment``    larger ensembles trio by trio, shared by ``independent``,
                      ``many_labels`` and the crowd
``stream``            evaluation of a stream of batches, with checkpoints (any method)
``dispatch``          :func:`evaluate`, the one entry point, and its table of methods
===================== ===============================================================

Every function that evaluates a sketch is named ``evaluate_<family or variant>``
(``evaluate_independent``, ``evaluate_many_labels``, ``evaluate_structured``,
``evaluate_hui_walter``, ``evaluate_hui_walter_gibbs``, ``evaluate_majority``,
``evaluate_abstentions``; ``evaluate_counts`` and ``evaluate_batch`` for count vectors, exact
and vectorised), every class that evaluates batch after batch ``<What>Evaluator``.

What the methods return (:class:`~evalgebra.results.evaluation.Evaluation`,
:class:`~evalgebra.results.estimates.Estimate`, :class:`~evalgebra.results.alarms.Alarm`, how they show
themselves) lives in :mod:`evalgebra.results`, the number types in :mod:`evalgebra.numbers`.
(Their old re-exports here still work for one release and warn.)

Examples
--------
>>> from evalgebra.evaluators import METHODS, evaluate
>>> METHODS
('algebraic', 'majority', 'hui_walter')
"""

import importlib

from evalgebra.deprecation import warn_moved
from evalgebra.evaluators.dispatch import METHODS, evaluate

__all__ = ["METHODS", "evaluate"]

#: Re-exports of the previous release, kept one release: ``name: its home``.
_MOVED = {
    "Evaluation": "evalgebra.results",
    "Estimate": "evalgebra.results",
    "Alarm": "evalgebra.results",
    "QuadraticNumber": "evalgebra.numbers",
}


def __getattr__(name: str) -> object:
    """The old re-exports, with a warning naming their home."""
    if name in _MOVED:
        warn_moved(f"evalgebra.evaluators.{name}", f"{_MOVED[name]}.{name}")
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module 'evalgebra.evaluators' has no attribute {name!r}")
