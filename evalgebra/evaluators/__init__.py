r"""Evaluators: one module per method, a shared result type, one dispatcher.

=============== ===================================================================
module          what it holds
=============== ===================================================================
``result``      :class:`Evaluation`, :class:`Estimate`, :class:`Alarm`, exact numbers
``algebraic``   the error-independent closed form for three binary classifiers
``majority``    the answer key imputed by majority vote
``hui_walter``  the closed form for two binary tests on two or more populations
``distance``    distance of an estimate to the containing variety
``stream``      evaluation of a stream of batches, with checkpoints
``dispatch``    :func:`evaluate`, the one entry point
=============== ===================================================================
"""

from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation, QuadraticNumber

__all__ = ["METHODS", "evaluate", "Evaluation", "Estimate", "Alarm", "QuadraticNumber"]
