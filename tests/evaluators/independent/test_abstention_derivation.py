"""derivations/d11_abstention.py: the committed result is what the script computes (byte for byte)."""

from __future__ import annotations

from evalgebra.testing.scripts import DERIVATIONS, load_derivation


def test_d11_abstention_matches_committed_result():
    assert load_derivation("d11_abstention").main(["--check"]) == 0


def test_d11_abstention_result_records_every_check_passing():
    text = (DERIVATIONS / "results" / "d11_abstention.txt").read_text(encoding="utf-8")
    assert ": NO" not in text
    assert text.count("equals the truth: yes") == 5 and text.count(": yes") >= 16
