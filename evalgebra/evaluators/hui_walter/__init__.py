r"""Hui-Walter: two or more binary tests on two or more populations, no answer key.

=========== ===========================================================================
module      what it holds
=========== ===========================================================================
``exact``   :func:`evaluate_hui_walter`: the exact closed form for two binary tests
``gibbs``   :func:`evaluate_hui_walter_gibbs` and its :class:`GibbsResult` (any number of tests)
``online``  :class:`OnlineHuiWalterEvaluator`: the closed form re-evaluated after every batch
=========== ===========================================================================
"""

from evalgebra.evaluators.hui_walter.gibbs import GibbsResult, evaluate_hui_walter_gibbs
from evalgebra.evaluators.hui_walter.online import OnlineHuiWalterEvaluator, OnlineStep

__all__ = ["GibbsResult", "evaluate_hui_walter_gibbs", "OnlineHuiWalterEvaluator", "OnlineStep"]
