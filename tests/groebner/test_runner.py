"""The Gröbner runner: time limits, and nothing (no engine, no scratch folder) outlives its caller."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from evalgebra.groebner import available_backends, containing_variety
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.runner import GroebnerTimeout, run_backend

ROOT = Path(__file__).resolve().parents[2]

# cyclic-n: a classic hard system; these sizes run for minutes on each engine
HARD = {"flint": (6, "degrevlex"), "singular": (7, "lex"), "msolve": (8, "degrevlex")}


def _cyclic(n: int, ordering: str) -> tuple[PolyRing, list]:
    names = [f"x{i}" for i in range(n)]
    ring = PolyRing(names, ordering)
    polys = [ring.parse(" + ".join("*".join(names[(i + k) % n] for k in range(d)) for i in range(n)))
             for d in range(1, n)]
    polys.append(ring.parse("*".join(names) + " - 1"))
    return ring, polys


def _marked(marker: str) -> list[int]:
    """Processes whose environment holds ``marker`` (children inherit it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


def _wait_for(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_run_backend_times_out_and_cleans_up(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    ring, polys = _cyclic(*HARD["flint"])
    start = time.perf_counter()
    with pytest.raises(GroebnerTimeout, match="within 0.5 s"):
        run_backend("flint", "groebner", ring, polys, time_limit=0.5)
    assert time.perf_counter() - start < 10
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc to find processes")
@pytest.mark.parametrize("backend", sorted(HARD))
def test_run_backend_engines_die_with_a_killed_caller(backend, tmp_path):
    if backend not in available_backends():
        pytest.skip(f"{backend} is not installed")
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    n, ordering = HARD[backend]
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_runner import _cyclic
        from evalgebra.groebner.runner import run_backend
        ring, polys = _cyclic({n}, {ordering!r})
        print("started", flush=True)
        run_backend({backend!r}, "groebner", ring, polys, time_limit=600)
    """)
    env = dict(os.environ, TMPDIR=str(scratch), **{marker: "1"})
    caller = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert caller.stdout is not None and caller.stdout.readline().strip() == "started"
        expected = 3 if backend != "flint" else 2  # caller, supervised child (, engine)
        assert _wait_for(lambda: len(_marked(marker)) >= expected, 30), "the computation did not start"
        if backend != "flint":
            assert _wait_for(lambda: any(scratch.rglob("*")), 10), "the engine wrote no scratch folder"
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
        assert _wait_for(lambda: not _marked(marker), 10), f"survivors: {_marked(marker)}"
        assert _wait_for(lambda: not any(scratch.iterdir()), 10), f"left behind: {list(scratch.rglob('*'))}"
    finally:
        for pid in _marked(marker):
            os.kill(pid, signal.SIGKILL)
        caller.kill()
        caller.wait()


def test_containing_variety_takes_a_time_limit():
    with pytest.raises(GroebnerTimeout):
        containing_variety(5, time_limit=0.01)
    assert containing_variety(3, time_limit=60).generators == containing_variety(3).generators
