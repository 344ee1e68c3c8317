"""The folder tree is the pipeline: imports flow one way, modules stay small, names stay private.

Every check reads the source with :mod:`ast`, so imports inside functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "evalgebra"

# The pipeline, in order: a module may import from its own stage and from earlier ones only.
STAGES = (
    ("errors", "deprecation", "fileio", "display", "engines", "numbers"),
    ("structures",),
    ("spec",),
    ("variables",),
    ("data",),
    ("results",),
    ("builder",),
    ("groebner",),
    ("codegen",),
    ("generated",),
    ("evaluators",),
    ("alarm",),
    ("samplewise", "search", "crowd", "datasets"),
    ("distributed",),
    ("plots",),
    ("cli", "testing", "__init__", "__main__"),
)
RANK = {name: rank for rank, names in enumerate(STAGES) for name in names}
# The runtime: what a practitioner's evaluation runs. It never touches the algebra stages.
RUNTIME = (
    "data",
    "results",
    "generated",
    "evaluators",
    "alarm",
    "samplewise",
    "search",
    "crowd",
)
FORBIDDEN = ("evalgebra.groebner", "evalgebra.codegen", "evalgebra.builder", "sympy")
# The evaluators work in label positions: they never build symbols.
HOT_PATH = ("results", "evaluators", "alarm", "samplewise", "search", "crowd")
# A backstop, not the rule: a module is one idea, split by topic when it grows past it, never squeezed
# under a count. Formatted by ruff (110 columns), a module past this has surely grown past one idea.
MAX_LINES = 800

MODULES = sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


NAMES = {_name(path) for path in MODULES}


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """``(module, imported names, line)`` of every import statement, anywhere in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names], node.lineno))
    return found


def _targets(module: str, names: list[str]) -> set[str]:
    """The project modules an import statement loads (``from pkg import submodule`` included)."""
    targets = {module} if module in NAMES else set()
    targets.update(f"{module}.{name}" for name in names if f"{module}.{name}" in NAMES)
    return targets


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in MODULES:
        source = _name(path)
        graph.add_node(source)
        for module, names, _ in _imports(path):
            for target in _targets(module, names):
                if target != source and not source.startswith(target + "."):
                    graph.add_edge(source, target)
    return graph


def test_layout_has_no_import_circles():
    cycles = list(nx.simple_cycles(_graph()))
    assert not cycles, f"import circles: {cycles[:5]}"


def test_layout_every_top_level_module_has_a_stage():
    stages = {_stage(name) for name in NAMES}
    assert stages <= set(RANK), f"add to STAGES: {sorted(stages - set(RANK))}"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_layout_imports_flow_one_way(path):
    source = _name(path)
    rank = RANK[_stage(source)]
    late = [
        f"{module} (line {line})"
        for module, _, line in _imports(path)
        if module.startswith("evalgebra.") and RANK.get(_stage(module), -1) > rank
    ]
    assert not late, f"{source} imports later stages: {late}"


@pytest.mark.parametrize("path", [p for p in MODULES if _stage(_name(p)) in RUNTIME], ids=_name)
def test_layout_runtime_imports_no_algebra(path):
    bad = sorted({module for module, _, _ in _imports(path) if module.startswith(FORBIDDEN)})
    assert not bad, f"{_name(path)} imports {bad}"


@pytest.mark.parametrize("path", [p for p in MODULES if _stage(_name(p)) in HOT_PATH], ids=_name)
def test_layout_evaluators_do_not_build_symbols(path):
    assert "evalgebra.variables" not in {module for module, _, _ in _imports(path)}


@pytest.mark.parametrize("path", [p for p in MODULES if _stage(_name(p)) != "generated"], ids=_name)
def test_layout_modules_stay_small(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{_name(path)} has {lines} lines: split it by topic (backstop {MAX_LINES})"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_layout_no_private_name_crosses_modules(path):
    private = [
        f"{module}.{name} (line {line})"
        for module, names, line in _imports(path)
        if module.startswith("evalgebra")
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not private, f"{_name(path)} imports private names: {private}"


def test_layout_tests_mirror_the_package():
    tests = PACKAGE.parent / "tests"
    for sub in sorted(p for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()):
        if sub.name in ("generated", "datasets", "testing"):
            continue  # checked through their users (codegen, test_datasets, every property test)
        assert (tests / sub.name).is_dir(), f"tests/{sub.name}/ is missing"


def test_layout_test_modules_have_distinct_names():
    """pytest imports test modules by basename (no packages under tests/): two alike stop the whole run."""
    names = [path.name for path in (PACKAGE.parent / "tests").rglob("test_*.py")]
    assert not sorted({n for n in names if names.count(n) > 1}), "rename the test module so basenames differ"
