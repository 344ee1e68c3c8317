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
``deprecation``       the old names, kept one release, that warn
===================== ===============================================================

What the methods return (:class:`Evaluation`, :class:`Estimate`, :class:`Alarm`, how they
show themselves) lives in :mod:`evalgebra.results`; the three are re-exported here.
"""

from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.results import Alarm, Estimate, Evaluation

__all__ = ["METHODS", "evaluate", "Evaluation", "Estimate", "Alarm", "QuadraticNumber"]
