r"""Confidence intervals for the points of every method (independent, many labels, majority, Hui-Walter).

==============  =====================================================================================
module          what it holds
==============  =====================================================================================
``confidence``  the seeded multinomial bootstrap and the delta method (``confidence_intervals``)
``vectorised``  every method's statistics on many resampled count vectors at once
==============  =====================================================================================

Shared by the families, so a package of its own. The modules are imported by name; the
package itself imports nothing.
"""

__all__: list[str] = []
