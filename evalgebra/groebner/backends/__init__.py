"""Gröbner engines behind one interface: flint (default), sympy (reference), Singular, msolve."""

from evalgebra.groebner.backends.base import (
    BACKENDS,
    Backend,
    available_backends,
    get_backend,
    register_backend,
)
from evalgebra.groebner.backends.external import ExternalEngineError, MsolveBackend, SingularBackend
from evalgebra.groebner.backends.flint_backend import FlintBackend
from evalgebra.groebner.backends.sympy_backend import SympyBackend

__all__ = [
    "Backend",
    "BACKENDS",
    "register_backend",
    "get_backend",
    "available_backends",
    "FlintBackend",
    "SympyBackend",
    "SingularBackend",
    "MsolveBackend",
    "ExternalEngineError",
]
