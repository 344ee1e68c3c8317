"""The wheel carries what the package needs at run time and says how it is licensed.

Built the way a release is (``pip wheel``, no dependencies, in the test's interpreter, no
build isolation so no network), into a temporary folder.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--quiet",
        "--wheel-dir",
        str(out),
        str(ROOT),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"pip wheel failed:\n{done.stdout}\n{done.stderr}"
    (found,) = out.glob("evalgebra-*.whl")
    return found


def test_wheel_contains_the_generated_manifest(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "evalgebra/generated/MANIFEST.json" in names
    assert {"evalgebra/py.typed", "evalgebra/datasets/acs_employment.json"} <= names
    # the committed invariants model_invariants reads at run time (derivation d14)
    assert "evalgebra/groebner/invariants/derived.json" in names


def test_wheel_declares_the_mit_license(wheel):
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    text = archive.read(metadata).decode()
    assert "License-Expression: MIT" in text
    assert "Classifier: License" not in text  # the SPDX expression replaces the classifier
    assert any(n.endswith("licenses/LICENSE") for n in archive.namelist())
    for extra in ("plots", "engines", "docs", "test"):
        assert f"Provides-Extra: {extra}" in text
