r"""Error-independent classifiers with three or more labels: the generated eliminant, exact.

==========  =========================================================================================
module      what it holds
==========  =========================================================================================
``solve``   three classifiers, ``R >= 3`` labels, exact: the eliminant and its decoding
``tables``  the count tables of three classifiers, as the generated eliminant takes them
``trios``   larger ensembles trio by trio, and the vectorised floating-point path
==========  =========================================================================================

The modules are imported by name; the package itself imports nothing.
"""

__all__: list[str] = []
