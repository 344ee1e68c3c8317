r"""python-flint backend: Buchberger over the integers, then autoreduction.

flint's ``fmpz_mpoly_vec.buchberger_naive`` works with integer coefficients and returns
an unreduced basis; polynomials are made primitive first and the basis is reduced with
``autoreduction(groebner=True)``. For elimination only the polynomials free of the
eliminated variables are reduced, which is all that is needed and much cheaper.

Examples
--------
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "lex")
>>> basis = FlintBackend().groebner(ring, [ring.parse("x^2 - y"), ring.parse("x^3*y - x")])
>>> [ring.text(p) for p in basis]
['x^2 - y', 'x*y^2 - x', 'y^3 - y']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flint

from evalgebra.groebner.backends.base import Backend, register_backend
from evalgebra.groebner.polys import PolyRing, canonical_basis

__all__ = ["FlintBackend"]


class FlintBackend(Backend):
    """Exact Gröbner bases with python-flint (the default engine)."""

    name = "flint"

    def _unreduced(self, ring: PolyRing, polys: Sequence[Any]) -> Any:
        ints = [ring.primitive(p) for p in polys if p.coeffs()]
        return flint.fmpz_mpoly_vec(ints, ring.z).buchberger_naive()

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        basis = self._unreduced(ring, polys)
        reduced = basis.autoreduction(groebner=True)
        return canonical_basis(ring.rational(p) for p in reduced)

    def eliminate(
        self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]
    ) -> tuple[PolyRing, list[Any]]:
        drop = [n for n in ring.names if n in set(variables)]
        keep = [n for n in ring.names if n not in set(variables)]
        full = PolyRing(drop + keep, "lex")
        basis = self._unreduced(full, [full.convert(p, ring) for p in polys])
        rest = PolyRing(keep, "lex")
        kept = [rest.convert(full.rational(p), full) for p in basis if not any(p.degrees()[: len(drop)])]
        if not kept:
            return rest, []
        vec = flint.fmpz_mpoly_vec([rest.primitive(p) for p in kept], rest.z)
        return rest, canonical_basis(rest.rational(p) for p in vec.autoreduction(groebner=True))


register_backend(FlintBackend())
