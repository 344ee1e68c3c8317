r"""The interface every Gröbner backend implements, and the backend registry.

A backend computes *reduced* Gröbner bases over the rationals. Results are returned in
canonical form (:func:`~evalgebra.groebner.polys.canonical_basis`: monic, sorted by
leading monomial), so bases from two backends compare with ``==`` on their text.

Examples
--------
>>> {"flint", "sympy"} <= set(available_backends())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from evalgebra.engines import die_with_parent, start_engine  # re-exported: the supervision moved there
from evalgebra.errors import SpecError
from evalgebra.groebner.polys import PolyRing, canonical_basis

__all__ = [
    "Backend",
    "BACKENDS",
    "register_backend",
    "get_backend",
    "available_backends",
    "start_engine",
    "die_with_parent",
]


class Backend:
    """A Gröbner engine. Subclasses set ``name`` and implement :meth:`groebner`."""

    name: ClassVar[str] = ""
    orderings: ClassVar[tuple[str, ...]] = ("lex", "deglex", "degrevlex")
    #: True for engines that run as processes of their own: they always run supervised
    #: (:func:`~evalgebra.groebner.runner.run_backend`), so that none outlives its caller.
    runs_processes: ClassVar[bool] = False

    def available(self) -> bool:
        """True when the engine can run on this machine."""
        return True

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        """The reduced Gröbner basis of ``polys`` in ``ring``'s ordering, canonical form."""
        raise NotImplementedError

    def eliminate(
        self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]
    ) -> tuple[PolyRing, list[Any]]:
        """Reduced lex basis of the ideal intersected with the ring of the other variables.

        The default computes a lex basis with ``variables`` first and keeps the
        polynomials free of them (the elimination theorem).
        """
        drop = [n for n in ring.names if n in set(variables)]
        keep = [n for n in ring.names if n not in set(variables)]
        if len(drop) != len(set(variables)):
            raise SpecError(
                f"cannot eliminate variables the ring lacks: {sorted(set(variables) - set(drop))}"
            )
        full = PolyRing(drop + keep, "lex")
        basis = self.groebner(full, [full.convert(p, ring) for p in polys])
        rest = PolyRing(keep, "lex")
        kept = [p for p in basis if not any(p.degrees()[: len(drop)])]
        return rest, canonical_basis(rest.convert(p, full) for p in kept)

    def __repr__(self) -> str:
        return f"<{self.name} backend>"


BACKENDS: dict[str, Backend] = {}


def register_backend(backend: Backend) -> Backend:
    """Add a backend to the registry under its name."""
    BACKENDS[backend.name] = backend
    return backend


def get_backend(name: str | Backend) -> Backend:
    """A registered backend by name; raises :class:`SpecError` if unknown or unavailable."""
    if isinstance(name, Backend):
        return name
    if name not in BACKENDS:
        raise SpecError(f"unknown Gröbner backend {name!r}; known: {sorted(BACKENDS)}")
    backend = BACKENDS[name]
    if not backend.available():
        raise SpecError(f"the {name} backend is not available on this machine")
    return backend


def available_backends() -> list[str]:
    """Names of the backends that can run here."""
    return [name for name, backend in BACKENDS.items() if backend.available()]
