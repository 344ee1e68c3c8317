"""The runtime imports generated code only: never the Gröbner module, the code generator or SymPy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[2] / "evalgebra" / "runtime"
FORBIDDEN = ("evalgebra.groebner", "evalgebra.codegen", "evalgebra.builder", "sympy")
HOT_PATH = ("algebraic", "alarm", "alarm_intervals", "majority", "distance", "stream", "evaluate", "evaluation",
            "hui_walter", "consistency", "search", "search_rank")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(RUNTIME.glob("*.py")), ids=lambda p: p.stem)
def test_runtime_module_imports_no_earlier_heavy_stage(path):
    bad = {name for name in _imports(path) if name.startswith(FORBIDDEN)}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("stem", HOT_PATH)
def test_evaluators_do_not_build_symbols(stem):
    assert "evalgebra.variables" not in _imports(RUNTIME / f"{stem}.py")
