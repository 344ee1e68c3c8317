r"""SymPy backend: the reference engine, always present (slow on large systems).

Examples
--------
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "lex")
>>> basis = SympyBackend().groebner(ring, [ring.parse("x^2 - y"), ring.parse("x^3*y - x")])
>>> [ring.text(p) for p in basis]
['x^2 - y', 'x*y^2 - x', 'y^3 - y']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from evalgebra.groebner.backends.base import Backend, register_backend
from evalgebra.groebner.polys import PolyRing, canonical_basis

__all__ = ["SympyBackend"]

_ORDER = {"lex": "lex", "deglex": "grlex", "degrevlex": "grevlex"}


class SympyBackend(Backend):
    """Reduced Gröbner bases with :func:`sympy.groebner` (``method`` f5b or buchberger)."""

    name = "sympy"

    def __init__(self, method: str = "f5b") -> None:
        self.method = method

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        gens = [sympy.Symbol(n) for n in ring.names]
        exprs = [ring.to_sympy(p, gens) for p in polys if p.coeffs()]
        if not exprs:
            return []
        basis = sympy.groebner(exprs, *gens, order=_ORDER[ring.ordering], method=self.method, domain="QQ")
        return canonical_basis(ring.from_sympy(g) for g in basis.exprs)


register_backend(SympyBackend())
