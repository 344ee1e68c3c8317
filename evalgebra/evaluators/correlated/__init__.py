r"""Binary classifiers whose errors correlate on a chosen structure, K5 (every pair) included.

===========================  ========================================================================
module                       what it holds
===========================  ========================================================================
``structured``               a generated eliminant in the prevalence, every point exact
``structured_points``        its points: exact values, the generating-set check, the partition
``structured_batch``         the same in floating point over many count vectors
``structure_lookup``         which generated module evaluates a structure (the atlas, the cache)
``structure_freedom``        whether the counts determine a structure's correlations
``complete_pairs``           five classifiers, every pair correlated (K5): the variety per sketch
``complete_pairs_system``    the six K5 equations as a linear map of monomial features
``complete_pairs_tracking``  K5 by certified path tracking
===========================  ========================================================================

The modules are imported by name; the package itself imports nothing.
"""

__all__: list[str] = []
