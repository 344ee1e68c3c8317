"""Derivation d07 (three independent classifiers, R >= 3): the committed result reproduces."""

from __future__ import annotations

import pytest

from evalgebra.groebner.backends import available_backends
from evalgebra.testing.scripts import load_derivation


@pytest.mark.slow
def test_d07_matches_committed_result():
    if "singular" not in available_backends():
        pytest.skip("d07's Gröbner part was produced with Singular, which is not installed here")
    assert load_derivation("d07_many_labels").main(["--check"]) == 0
