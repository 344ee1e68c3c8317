r"""Hui-Walter beyond the closed form: the Gibbs sampler on counts and the online evaluator.

=========== ===========================================================================
module      what it holds
=========== ===========================================================================
``gibbs``   :func:`gibbs_hui_walter` and its :class:`GibbsResult` (any number of tests)
``online``  :class:`OnlineHuiWalter`: the closed form re-evaluated after every batch
=========== ===========================================================================

The closed-form evaluator itself is :mod:`evalgebra.evaluators.hui_walter`.
"""

from evalgebra.hui_walter.gibbs import GibbsResult, gibbs_hui_walter
from evalgebra.hui_walter.online import OnlineHuiWalter, OnlineStep

__all__ = ["GibbsResult", "gibbs_hui_walter", "OnlineHuiWalter", "OnlineStep"]
