"""Derivation d07 (three independent classifiers, R >= 3): the committed result reproduces."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from evalgebra.groebner.backends import available_backends

DERIVATIONS = Path(__file__).resolve().parents[2] / "derivations"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, DERIVATIONS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_d07_matches_committed_result():
    if "singular" not in available_backends():
        pytest.skip("d07's Gröbner part was produced with Singular, which is not installed here")
    assert _load("d07_many_labels").main(["--check"]) == 0
