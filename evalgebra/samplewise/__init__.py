r"""Samplewise consistency metrics between runs of the same classifiers.

============ ===========================================================================
module       what it holds
============ ===========================================================================
``metrics``  :func:`consistency` (the n-ary mean), :func:`consistency_values`,
             :func:`consistency_metrics`
``items``    :func:`item_consistency`: one value per item
``runs``     the input: predictions as label codes, metric names, arity checks
``counting`` per-subset counts, closed forms and the exact arithmetic of the means
============ ===========================================================================
"""

from evalgebra.samplewise.items import item_consistency
from evalgebra.samplewise.metrics import consistency, consistency_metrics, consistency_values

__all__ = ["consistency", "consistency_values", "consistency_metrics", "item_consistency"]
