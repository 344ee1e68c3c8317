"""Derivation d14 (model invariants): the committed result regenerates byte for byte."""

from __future__ import annotations

import pytest

from evalgebra.testing.scripts import load_derivation


@pytest.mark.slow
def test_d14_matches_committed_result():
    assert load_derivation("d14_model_invariants").main(["--check"]) == 0
