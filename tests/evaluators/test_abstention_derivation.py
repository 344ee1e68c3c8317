"""derivations/d11_abstention.py: the committed result is what the script computes (byte for byte)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DERIVATIONS = Path(__file__).resolve().parents[2] / "derivations"


def _load():
    spec = importlib.util.spec_from_file_location("d11_abstention", DERIVATIONS / "d11_abstention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_d11_abstention_matches_committed_result():
    assert _load().main(["--check"]) == 0


def test_d11_abstention_result_records_every_check_passing():
    text = (DERIVATIONS / "results" / "d11_abstention.txt").read_text(encoding="utf-8")
    assert ": NO" not in text
    assert text.count("equals the truth: yes") == 5 and text.count(": yes") >= 16
