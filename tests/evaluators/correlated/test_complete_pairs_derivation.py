"""derivations/d13_complete_pairs.py: the committed result is what the script computes (byte for byte)."""

from __future__ import annotations

import pytest

from evalgebra.testing.scripts import DERIVATIONS, load_derivation


@pytest.mark.slow
def test_d13_complete_pairs_matches_committed_result():
    assert load_derivation("d13_complete_pairs").main(["--check"]) == 0


def test_d13_result_records_every_check_passing():
    text = (DERIVATIONS / "results" / "d13_complete_pairs.txt").read_text(encoding="utf-8")
    assert ": NO" not in text and "NO" not in text.split("## the variety")[1]
    assert text.count("equal (*): yes") == 6 and text.count("vanishes identically after (*): yes") == 6
    assert (
        text.count("eliminant degree 404") == 2 and text.count("every rate and correlation exact: yes") == 2
    )
