r"""Invariants of ensemble models: the polynomial relations every test of a model satisfies.

The model of ``N`` classifiers over ``R`` labels is the set of pattern-frequency tables
``f = sum_ell P_ell pi_ell`` it can produce (for independent classifiers a tensor of rank at
most ``R``: the ``R``-th secant variety of a Segre product, cut to the simplex). Its
*invariants* are the polynomials in the frequencies that vanish on all of it: the observable
axioms of the model. They come from

- :mod:`~evalgebra.groebner.invariants.flattenings`: minors of flattenings, proved by rank;
- :mod:`~evalgebra.groebner.invariants.interpolation`: interpolation on exact model points,
  each candidate proved by substitution;
- :mod:`~evalgebra.groebner.invariants.checks`: exact Jacobian ranks and dimensions;
- :mod:`~evalgebra.groebner.invariants.store`: the results committed by derivation d14;
- :mod:`~evalgebra.groebner.invariants.model`: :func:`model_invariants`, the entry point.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.groebner import model_invariants
>>> inv = model_invariants(EnsembleSpec(4, 2, [(0, 1)]))
>>> len(inv.polynomials), inv.model_dimension, inv.ideal
(16, 11, 'generates')
"""

from evalgebra.groebner.invariants.flattenings import flattening_minors, observed_ring, valid_bipartitions
from evalgebra.groebner.invariants.interpolation import interpolate, vanishes_on_model
from evalgebra.groebner.invariants.model import ModelInvariants, derive_invariants, model_invariants

__all__ = [
    "model_invariants",
    "derive_invariants",
    "ModelInvariants",
    "flattening_minors",
    "valid_bipartitions",
    "observed_ring",
    "interpolate",
    "vanishes_on_model",
]
