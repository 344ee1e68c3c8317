r"""Hui-Walter: two or more binary tests on two or more populations, no answer key.

=========== ===========================================================================
module      what it holds
=========== ===========================================================================
``exact``   :func:`evaluate_hui_walter`: the exact closed form for two binary tests
``gibbs``   :func:`gibbs_hui_walter` and its :class:`GibbsResult` (any number of tests)
``online``  :class:`OnlineHuiWalter`: the closed form re-evaluated after every batch
=========== ===========================================================================
"""

from evalgebra.evaluators.hui_walter.gibbs import GibbsResult, gibbs_hui_walter
from evalgebra.evaluators.hui_walter.online import OnlineHuiWalter, OnlineStep

__all__ = ["GibbsResult", "gibbs_hui_walter", "OnlineHuiWalter", "OnlineStep"]
