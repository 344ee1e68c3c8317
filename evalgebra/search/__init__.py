r"""Search a pool of classifiers for nearly error-independent trios."""

from evalgebra.search.trios import search_trios

__all__ = ["search_trios"]
