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
    ("likelihood",),
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
    "likelihood",
    "generated",
    "evaluators",
    "alarm",
    "samplewise",
    "search",
    "crowd",
)
FORBIDDEN = ("evalgebra.groebner", "evalgebra.codegen", "evalgebra.builder", "sympy")
# The evaluators work in label positions: they never build symbols.
HOT_PATH = ("results", "likelihood", "evaluators", "alarm", "samplewise", "search", "crowd")
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


# -- one name, one meaning ------------------------------------------------------------------------
GENERATED_HEADER = "# Generated by evalgebra.codegen"
#: Names that several modules define on purpose: an interface each of them implements, called through
#: the module (``module.run(args)``), never imported by name. ``name: (modules, why)``.
INTERFACES = {
    "register": ("evalgebra.cli.", "a command module adds its subcommand to the parser"),
    "run": ("evalgebra.cli.", "a command module runs its subcommand"),
    "main": ("evalgebra.cli.app evalgebra.codegen.__main__", "the entry point of a command line"),
}


def _hand_written(path: Path) -> bool:
    """Generated modules start with the codegen header; everything else is written by hand."""
    with path.open(encoding="utf-8") as handle:
        return not handle.readline().startswith(GENERATED_HEADER)


def _defined(path: Path) -> dict[str, int]:
    """The public names a module *defines* (``name: line``): module-level ``def``, ``class`` and
    assignment targets without a leading underscore, also inside module-level ``if``/``try``/``with``.

    A re-export is not a definition: names bound by ``import`` statements, and assignments of an
    imported name or of an attribute of one (``MAX_LINE_CHARS = items_csv.MAX_LINE_CHARS``), which
    bind an object defined elsewhere under its home's name.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    found: dict[str, int] = {}

    def root(node: ast.expr) -> str | None:
        while isinstance(node, ast.Attribute):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.setdefault(node.name, node.lineno)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                value = node.value
                if isinstance(value, (ast.Name, ast.Attribute)) and root(value) in imported:
                    continue  # a re-export under another name
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            found.setdefault(name.id, node.lineno)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                walk(node.body)
                walk(getattr(node, "orelse", []))
                walk(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    walk(handler.body)

    walk(tree.body)
    return {name: line for name, line in found.items() if not name.startswith("_")}


def _definitions() -> dict[str, list[str]]:
    where: dict[str, list[str]] = {}
    for path in MODULES:
        if _hand_written(path):
            for name, line in _defined(path).items():
                where.setdefault(name, []).append(f"{_name(path)}:{line}")
    return where


def test_layout_no_public_name_is_defined_twice():
    """One name, one meaning: no two hand-written modules define the same public name."""
    twice = {}
    for name, places in _definitions().items():
        if len(places) < 2:
            continue
        if name in INTERFACES:
            allowed = INTERFACES[name][0].split()
            places = [p for p in places if not any(p.startswith(a) for a in allowed)]
            if not places:
                continue
        twice[name] = places
    assert not twice, f"public names defined in more than one module (rename one, or define it once): {twice}"


def test_layout_the_definition_finder_tells_reexports_apart(tmp_path):
    module = tmp_path / "example.py"
    module.write_text(
        "from os import path\nimport numpy as np\nfrom evalgebra.data import items_csv\n"
        "LIMIT = items_csv.MAX_LINE_CHARS\nSEP = path.sep\nDIGITS = 4\n_PRIVATE = 1\n"
        "def f():\n    INNER = 1\nclass C:\n    FIELD = 2\n"
        "if True:\n    FLAG = np.int64(1)\ntry:\n    X = 1\nexcept ImportError:\n    X = 2\n",
        encoding="utf-8",
    )
    assert set(_defined(module)) == {"DIGITS", "f", "C", "FLAG", "X"}
    assert _hand_written(module)
    module.write_text(GENERATED_HEADER + " from x. DO NOT EDIT.\nY = 1\n", encoding="utf-8")
    assert not _hand_written(module)
