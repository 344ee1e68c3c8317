r"""Error-independent classifiers with two labels: the closed form and what is built on it.

================  ===================================================================================
module            what it holds
================  ===================================================================================
``closed_form``   three binary classifiers, exact, one count vector (``evaluate_counts``)
``batch``         the same closed form vectorised over many count vectors (``evaluate_batch``)
``algebraic``     the algebraic method on a sketch; trios combined for larger ensembles
``abstention``    classifiers that may abstain: collapse, evaluate, then split the abstentions
``distance``      distance of an estimate to the containing variety of the independent model
================  ===================================================================================

The modules are imported by name; the package itself imports nothing, so that loading one
method does not load the others.
"""

__all__: list[str] = []
