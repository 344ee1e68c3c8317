"""derivations/d13_complete_pairs.py: the committed result is what the script computes (byte for byte)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

DERIVATIONS = Path(__file__).resolve().parents[2] / "derivations"


def _load():
    spec = importlib.util.spec_from_file_location("d13_complete_pairs", DERIVATIONS / "d13_complete_pairs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_d13_complete_pairs_matches_committed_result():
    assert _load().main(["--check"]) == 0


def test_d13_result_records_every_check_passing():
    text = (DERIVATIONS / "results" / "d13_complete_pairs.txt").read_text(encoding="utf-8")
    assert ": NO" not in text and "NO" not in text.split("## the variety")[1]
    assert text.count("equal (*): yes") == 6 and text.count("vanishes identically after (*): yes") == 6
    assert text.count("eliminant degree 404") == 2 and text.count("every rate and correlation exact: yes") == 2
