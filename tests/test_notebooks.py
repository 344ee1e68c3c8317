"""The teaching notebooks: committed with outputs stripped, and they run.

Every ``notebooks/NN_<topic>.ipynb`` is executed top to bottom in a fresh kernel of *this*
interpreter (the venv's Python, whatever kernelspecs the machine has installed), with the
notebook folder as working directory and a hard time budget per notebook. The notebooks
assert their own key results, so a failing assertion fails the test with the cell's
traceback.

A code cell tagged ``expect-<mime type>`` (e.g. ``expect-text/html``) must produce a rich
output of that type in the real kernel: how results show themselves in Jupyter (HTML
tables, LaTeX, PNG plots without ``%matplotlib``) is checked on the executed outputs.
"""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager  # noqa: E402
from jupyter_client.manager import AsyncKernelManager  # noqa: E402
from traitlets import default  # noqa: E402

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
#: Seconds one notebook may take, kernel start-up included (each aims at under 15 s).
BUDGET = 90.0
#: Seconds allowed for the kernel to start and answer.
STARTUP = 60.0


class _ThisInterpreterSpecs(KernelSpecManager):
    """Every kernel name resolves to an IPython kernel of the running interpreter."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name=f"Python 3 ({sys.executable})",
            language="python",
            metadata={"debugger": False},
        )


class _ThisInterpreterKernel(AsyncKernelManager):
    """A kernel manager that never picks up a kernelspec installed elsewhere on the machine."""

    @default("kernel_spec_manager")
    def _default_kernel_spec_manager(self) -> KernelSpecManager:
        return _ThisInterpreterSpecs()


def _kernel_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["IPYTHONDIR"] = str(tmp_path / "ipython")  # no history or profile in the user's home
    env["MPLCONFIGDIR"] = str(tmp_path / "matplotlib")
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env.pop("MPLBACKEND", None)  # the kernel's inline backend renders the figures
    return env


#: Executed notebooks of this session: each notebook runs once for all tests that read it.
_EXECUTED: dict[Path, tuple[object, float]] = {}


def _executed(path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[object, float]:
    if path not in _EXECUTED:
        _EXECUTED[path] = _run(path, tmp_path_factory.mktemp(path.stem))
    return _EXECUTED[path]


def _expected_mime_types(cell: object) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])  # type: ignore[attr-defined]
    return [tag.removeprefix("expect-") for tag in tags if tag.startswith("expect-")]


def _run(path: Path, tmp_path: Path) -> tuple[object, float]:
    """Execute a notebook cell by cell within :data:`BUDGET` seconds; return it and the time."""
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        kernel_manager_class=_ThisInterpreterKernel,
        timeout=math.ceil(BUDGET),
        startup_timeout=math.ceil(STARTUP),
        allow_errors=False,
        record_timing=False,
        extra_arguments=["--InteractiveShell.colors=nocolor"],  # plain tracebacks in the test log
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.monotonic()
    with client.setup_kernel(env=_kernel_env(tmp_path)):
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            left = BUDGET - (time.monotonic() - start)
            if left <= 0:
                pytest.fail(f"{path.name}: over its {BUDGET:.0f} s budget before cell {index}")
            client.timeout = max(1, math.ceil(left))
            client.execute_cell(cell, index)
    return notebook, time.monotonic() - start


def test_notebooks_present():
    names = [p.name for p in NOTEBOOKS]
    assert names, f"no notebooks in {NOTEBOOK_DIR}"
    for name in names:
        stem = name.split("_", 1)
        assert len(stem) == 2 and stem[0].isdigit() and len(stem[0]) == 2, f"{name}: not NN_<topic>.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_committed_stripped(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.get("kernelspec", {}).get("name") == "python3"
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: cell {index} has outputs"
            assert cell.execution_count is None, f"{path.name}: cell {index} has an execution count"
        assert "execution" not in cell.get("metadata", {}), f"{path.name}: cell {index} keeps timing metadata"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path_factory):
    notebook, seconds = _executed(path, tmp_path_factory)
    errors = [
        o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors
    assert seconds < BUDGET


DISPLAY = NOTEBOOK_DIR / "07_display.ipynb"


def test_notebook_display_is_tagged():
    """The display notebook names every kind of result it shows, and sets no plotting backend."""
    notebook = nbformat.read(DISPLAY, as_version=4)
    expected = [m for cell in notebook.cells if cell.cell_type == "code" for m in _expected_mime_types(cell)]
    assert expected.count("text/html") >= 4 and "text/latex" in expected and "image/png" in expected
    sources = [
        line.strip()
        for cell in notebook.cells
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
    ]
    assert not [
        line
        for line in sources
        if line.startswith("%matplotlib") or "matplotlib.use" in line or "pyplot" in line
    ]


def test_notebook_display_outputs(tmp_path_factory):
    """Executed in a real kernel, every tagged cell's result carries its expected mime type."""
    notebook, _ = _executed(DISPLAY, tmp_path_factory)
    missing = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        produced = {
            mime
            for output in cell.outputs
            if output.output_type in ("execute_result", "display_data")
            for mime in output.get("data", {})
        }
        last = cell.source.strip().splitlines()[-1]
        missing += [
            f"cell {index} ({last}): no {mime}, got {sorted(produced)}"
            for mime in _expected_mime_types(cell)
            if mime not in produced
        ]
    assert not missing, "\n".join(missing)
