r"""Search a pool of classifiers for nearly error-independent trios.

=========== ============================================================================
module      what it holds
=========== ============================================================================
``trios``   :func:`search_trios`: compatibility graph, candidate trios, their counts
``rank``    the ranking criteria and their vectorised scores
``result``  :class:`TrioResult`, :class:`TrioSearch`: the ranked results and their display
``failure`` :func:`subsample`, :func:`failure_profile`: failure rates against test size
=========== ============================================================================
"""

from evalgebra.search.failure import FailureProfile, failure_profile, subsample
from evalgebra.search.result import TrioResult, TrioSearch
from evalgebra.search.trios import search_trios

__all__ = ["search_trios", "TrioSearch", "TrioResult", "FailureProfile", "failure_profile", "subsample"]
