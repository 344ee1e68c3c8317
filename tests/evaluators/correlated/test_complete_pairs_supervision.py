"""K5's msolve fallback runs supervised: a killed ``evalgebra evaluate`` leaves no msolve and no folder.

The sketch is a sampled one (counts drawn at random, not the expected counts of a rational
point): certified tracking finds no rational solution on it and hands over to msolve, which
takes about a minute there, so the command is killed while msolve runs. Survivors are found by a
marker in their environment (:mod:`evalgebra.testing.processes`); scratch folders by pointing
``TMPDIR`` at an empty folder.
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from evalgebra.data.sketch import Sketch
from evalgebra.engines import TIME_LIMIT_VARIABLE
from evalgebra.evaluators.correlated.complete_pairs import PAIRS, msolve_binary
from evalgebra.testing.processes import HAS_PROC, command_line, marked_processes, wait_for

ROOT = Path(__file__).resolve().parents[3]
K5 = ",".join(f"{i}-{j}" for i, j in PAIRS)
pytestmark = [
    pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)"),
    pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find processes"),
]


@pytest.fixture
def sampled(tmp_path):
    """A sampled K5 sketch on which tracking hands over to msolve (about a minute of msolve on one thread)."""
    rng = random.Random(1)
    counts = [rng.randint(5, 60) for _ in range(32)]
    patterns = ["".join(p) for p in itertools.product("ab", repeat=5)]
    path = tmp_path / "sampled.json"
    Sketch.from_counts(dict(zip(patterns, counts)), labels=["a", "b"]).write_json(path)
    return path


def _evaluate(path: Path, scratch: Path, marker: str, **env: str) -> subprocess.Popen[str]:
    environment = dict(os.environ, TMPDIR=str(scratch), PYTHONPATH=str(ROOT), **{marker: "1"}, **env)
    return subprocess.Popen(
        [sys.executable, "-m", "evalgebra", "evaluate", str(path), "--structure", K5],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _msolve_running(marker: str) -> bool:
    return any("msolve" in command_line(pid).split(" ", 1)[0] for pid in marked_processes(marker))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_killing_evaluate_while_msolve_runs_leaves_no_process_and_no_folder(signum, sampled, tmp_path):
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    caller = _evaluate(sampled, scratch, marker)
    try:
        assert wait_for(lambda: _msolve_running(marker), 60), "tracking did not hand over to msolve"
        assert any(scratch.glob("evalgebra-msolve-*/in.ms")), "msolve runs outside its scratch folder"
        os.kill(caller.pid, signum)  # the command alone, as a user's kill or Ctrl-C in a script would
        caller.communicate(timeout=30)
        assert caller.returncode != 0
        assert wait_for(lambda: not marked_processes(marker), 10), (
            f"survivors: {[command_line(pid) for pid in marked_processes(marker)]}"
        )
        assert wait_for(lambda: not any(scratch.iterdir()), 10), f"left behind: {list(scratch.rglob('*'))}"
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
        caller.kill()
        caller.communicate()


def test_the_time_limit_ends_msolve_and_the_answer_says_undecided(sampled, tmp_path):
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    start = time.perf_counter()
    caller = _evaluate(sampled, scratch, marker, **{TIME_LIMIT_VARIABLE: "2"})
    try:
        out, err = caller.communicate(timeout=120)
    finally:
        caller.kill()
    elapsed = time.perf_counter() - start
    assert "[undecided]" in out and f"msolve did not finish within 2 s (raise {TIME_LIMIT_VARIABLE}" in out, (
        out + err
    )
    assert elapsed < 30, f"the 2 s limit took {elapsed:.0f} s"
    assert wait_for(lambda: not marked_processes(marker), 10), (
        f"survivors: {[command_line(pid) for pid in marked_processes(marker)]}"
    )
    assert not any(scratch.iterdir()), f"left behind: {list(scratch.rglob('*'))}"
