"""The documentation, built once per test session into a temporary folder.

The build is Sphinx's own command line, run the way a maintainer runs it (from the
repository root, configuration in ``docs/``), with every warning an error (``-W``) and all
warnings reported before failing (``--keep-going``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Seconds the whole build may take (it takes about 20 s on one core).
BUILD_BUDGET = 300


@dataclass(frozen=True)
class DocsBuild:
    """Where the HTML went, what Sphinx said, and how long it took."""

    html: Path
    returncode: int
    output: str
    seconds: float


@pytest.fixture(scope="session")
def docs_build(tmp_path_factory: pytest.TempPathFactory) -> DocsBuild:
    pytest.importorskip("sphinx", reason="the docs extra is part of the test extra: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("docs")
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        "html",
        "-c",
        str(ROOT / "docs"),
        "-d",
        str(out / "doctrees"),
        str(ROOT),
        str(out / "html"),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=BUILD_BUDGET)
    seconds = time.perf_counter() - start
    print(f"\ndocs build: {seconds:.1f} s")
    return DocsBuild(out / "html", done.returncode, done.stdout + done.stderr, seconds)


@pytest.fixture(scope="session")
def built_html(docs_build: DocsBuild) -> Path:
    """The HTML folder of a build that succeeded (tests that read pages use this)."""
    if docs_build.returncode != 0:
        pytest.fail(f"the docs build failed, so its pages cannot be checked:\n{docs_build.output}")
    return docs_build.html
