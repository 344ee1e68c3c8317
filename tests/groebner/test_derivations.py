"""The derivation scripts reproduce their committed results byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from evalgebra.testing.scripts import DERIVATIONS, ROOT, load_derivation

FAST = ["d01_axioms", "d02_three_independent", "d03_containing_varieties"]


@pytest.mark.parametrize("name", FAST)
def test_derivation_matches_committed_result(name):
    assert load_derivation(name).main(["--check"]) == 0


@pytest.mark.parametrize("name", FAST)
def test_derivation_result_is_written_atomically_and_identically(name, tmp_path):
    out = tmp_path / f"{name}.txt"
    assert load_derivation(name).main(["--out", str(out)]) == 0
    assert out.read_bytes() == (DERIVATIONS / "results" / f"{name}.txt").read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_derivation_independent_of_hash_seed(tmp_path):
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / f"d02_{seed}.txt"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [sys.executable, str(DERIVATIONS / "d02_three_independent.py"), "--out", str(out)],
            check=True,
            env=env,
            cwd=ROOT,
        )
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def test_derivation_check_reports_stale_result(tmp_path, capsys):
    stale = tmp_path / "stale.txt"
    stale.write_text("# an old result\n", encoding="utf-8")
    assert load_derivation("d01_axioms").main(["--check", "--out", str(stale)]) == 1
    assert "is stale" in capsys.readouterr().out
