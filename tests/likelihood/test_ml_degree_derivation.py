"""derivations/d15_ml_degree.py: the committed quick result is what the script computes (byte for byte)."""

from __future__ import annotations

import pytest

from evalgebra.engines import msolve_binary
from evalgebra.testing.scripts import DERIVATIONS, load_derivation


@pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")
def test_d15_quick_matches_committed_result():
    assert load_derivation("d15_ml_degree").main(["--quick", "--check"]) == 0


def test_d15_result_files_agree_on_three_classifiers():
    quick = (DERIVATIONS / "results" / "d15_ml_degree_quick.txt").read_text(encoding="utf-8")
    full = (DERIVATIONS / "results" / "d15_ml_degree.txt").read_text(encoding="utf-8")
    rows = [line for line in quick.splitlines() if line.startswith(("moments:", "builder:"))]
    assert rows and all(row in full for row in rows)
    assert "three binary, independent, moments: ML degree 2 on 3 data sets" in full
