r"""Evaluators: one module per method, one dispatcher.

====================== ===============================================================
module                 what it holds
====================== ===============================================================
``closed_form``        three binary classifiers, exact, one count vector (``evaluate_counts``)
``batch``              the same closed form vectorised over many count vectors (``evaluate_batch``)
``algebraic``          the algebraic method on a sketch; trios combined for larger ensembles
``majority``           the answer key imputed by majority vote
``hui_walter``         the closed form for two binary tests on two or more populations
``distance``           distance of an estimate to the containing variety
``stream``             evaluation of a stream of batches, with checkpoints
``structured``         correlated structures: a generated eliminant, every point exact
``structure_lookup``   which generated module evaluates a structure (the atlas, the cache)
``structured_batch``   the same in floating point over many count vectors
``dispatch``           :func:`evaluate`, the one entry point
``deprecation``        the old names, kept one release, that warn
====================== ===============================================================

What the methods return (:class:`Evaluation`, :class:`Estimate`, :class:`Alarm`, how they
show themselves) lives in :mod:`evalgebra.results`; the three are re-exported here.
"""

from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.results import Alarm, Estimate, Evaluation

__all__ = ["METHODS", "evaluate", "Evaluation", "Estimate", "Alarm", "QuadraticNumber"]
