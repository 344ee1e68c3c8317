r"""Gröbner bases, elimination ideals, axioms, containing varieties, identifiability, invariants.

Every computation takes a spec (or generating set), runs on a backend (python-flint by
default; SymPy as the reference; Singular and msolve when installed) with an optional time
limit and progress report, and returns an :class:`Ideal` that prints as text and LaTeX
and records the backend, ordering, coordinates and wall time.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.groebner import eliminate, evaluation_ideal
>>> quadratic = eliminate(evaluation_ideal(EnsembleSpec(3, 2), coordinates="moments"), "accuracy")
>>> quadratic.backend, quadratic.coordinates, len(quadratic)
('flint', 'moments', 1)
"""

from evalgebra.groebner.backends import available_backends, get_backend
from evalgebra.groebner.containing import containing_variety
from evalgebra.groebner.coordinates import frequencies_of, moments_of, sketch_moments
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis, saturate
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.invariants import ModelInvariants, model_invariants
from evalgebra.groebner.polys import PolyRing, normal_form
from evalgebra.groebner.runner import GroebnerTimeout, stderr_progress
from evalgebra.groebner.solving import (
    point_count,
    rational_roots,
    real_point_count,
    univariate_eliminant,
)

__all__ = [
    "evaluation_ideal",
    "groebner_basis",
    "eliminate",
    "saturate",
    "containing_variety",
    "Ideal",
    "model_invariants",
    "ModelInvariants",
    "PolyRing",
    "normal_form",
    "moments_of",
    "frequencies_of",
    "sketch_moments",
    "available_backends",
    "get_backend",
    "GroebnerTimeout",
    "stderr_progress",
    "point_count",
    "real_point_count",
    "rational_roots",
    "univariate_eliminant",
]
