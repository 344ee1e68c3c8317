"""The Gröbner runner: time limits, and nothing (no engine, no scratch folder) outlives its caller."""

from __future__ import annotations

import io
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from evalgebra.errors import SpecError
from evalgebra.groebner import available_backends, containing_variety, runner
from evalgebra.groebner.backends import BACKENDS, FlintBackend, register_backend
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.runner import (
    DEFAULT_TIME_LIMIT,
    PROGRESS_VARIABLE,
    TIME_LIMIT_VARIABLE,
    GroebnerTimeout,
    default_progress,
    default_time_limit,
    run_backend,
    stderr_progress,
)
from evalgebra.testing.processes import HAS_PROC, marked_processes, wait_for

ROOT = Path(__file__).resolve().parents[2]

# cyclic-n: a classic hard system; these sizes run for minutes on each engine
HARD = {"flint": (6, "degrevlex"), "singular": (7, "lex"), "msolve": (8, "degrevlex")}


def _cyclic(n: int, ordering: str) -> tuple[PolyRing, list]:
    names = [f"x{i}" for i in range(n)]
    ring = PolyRing(names, ordering)
    polys = [
        ring.parse(" + ".join("*".join(names[(i + k) % n] for k in range(d)) for i in range(n)))
        for d in range(1, n)
    ]
    polys.append(ring.parse("*".join(names) + " - 1"))
    return ring, polys


def test_run_backend_times_out_and_cleans_up(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    ring, polys = _cyclic(*HARD["flint"])
    start = time.perf_counter()
    with pytest.raises(GroebnerTimeout, match="within 0.5 s"):
        run_backend("flint", "groebner", ring, polys, time_limit=0.5)
    assert time.perf_counter() - start < 10
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find processes")
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
        assert wait_for(lambda: len(marked_processes(marker)) >= expected, 30), (
            "the computation did not start"
        )
        if backend != "flint":
            assert wait_for(lambda: any(scratch.rglob("*")), 10), "the engine wrote no scratch folder"
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
        assert wait_for(lambda: not marked_processes(marker), 10), f"survivors: {marked_processes(marker)}"
        assert wait_for(lambda: not any(scratch.iterdir()), 10), f"left behind: {list(scratch.rglob('*'))}"
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
        caller.kill()
        caller.wait()


def test_containing_variety_takes_a_time_limit():
    with pytest.raises(GroebnerTimeout):
        containing_variety(5, time_limit=0.01)
    assert containing_variety(3, time_limit=60).generators == containing_variety(3).generators


# -- the default time limit, progress lines and the long-lived child ----------------------------------
SMALL = [
    (("x", "y"), "lex", ["x^2 - y", "x*y - 1"]),
    (("x", "y", "z"), "degrevlex", ["x + y + z", "x*y + y*z + z*x", "x*y*z - 1"]),
    (("a", "b"), "deglex", ["a^3 - b^2", "a*b - 2", "b^3 - a + 1"]),
]


def test_default_time_limit_reads_the_environment(monkeypatch):
    monkeypatch.delenv(TIME_LIMIT_VARIABLE, raising=False)
    assert default_time_limit() == DEFAULT_TIME_LIMIT == 600
    for text, seconds in (("12.5", 12.5), (" 3 ", 3.0), ("none", None), ("OFF", None), ("inf", None)):
        monkeypatch.setenv(TIME_LIMIT_VARIABLE, text)
        assert default_time_limit() == seconds
    for text in ("0", "-1", "nan", "ten", "1e999999x"):
        monkeypatch.setenv(TIME_LIMIT_VARIABLE, text)
        with pytest.raises(SpecError, match=TIME_LIMIT_VARIABLE):
            default_time_limit()


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "10"])
def test_run_backend_refuses_a_limit_that_is_not_positive_seconds(limit):
    ring = PolyRing(("x",), "lex")
    with pytest.raises(SpecError, match="time_limit"):
        run_backend("flint", "groebner", ring, [ring.parse("x - 1")], time_limit=limit)


def test_the_default_limit_ends_a_long_call_and_says_how_to_raise_it(monkeypatch, tmp_path):
    monkeypatch.setenv(TIME_LIMIT_VARIABLE, "0.5")
    ring, polys = _cyclic(*HARD["flint"])
    start = time.perf_counter()
    with pytest.raises(GroebnerTimeout, match=f"within 0.5 s .*{TIME_LIMIT_VARIABLE}.*--time-limit"):
        run_backend("flint", "groebner", ring, polys)
    assert time.perf_counter() - start < 10
    monkeypatch.delenv(TIME_LIMIT_VARIABLE)
    small = PolyRing(("x", "y"), "lex")  # the next call gets a fresh child
    _, basis = run_backend("flint", "groebner", small, [small.parse("x^2 - y")])
    assert [small.text(p) for p in basis] == ["x^2 - y"]


@pytest.mark.parametrize("names, ordering, texts", SMALL)
@pytest.mark.parametrize("backend", ["flint", "sympy"])
def test_every_route_gives_the_same_basis(backend, names, ordering, texts):
    """In the caller (no limit), in the long-lived child (default limit), in a child of its own
    (own limit), with progress: one reduced basis."""
    ring = PolyRing(names, ordering)
    polys = [ring.parse(t) for t in texts]
    routes = [
        run_backend(backend, "groebner", ring, polys, time_limit=math.inf),
        run_backend(backend, "groebner", ring, polys),
        run_backend(backend, "groebner", ring, polys, time_limit=60),
        run_backend(backend, "groebner", ring, polys, progress=lambda *_: None),
    ]
    texts_out = [[out_ring.text(p) for p in basis] for out_ring, basis in routes]
    assert all(t == texts_out[0] for t in texts_out)
    eliminated = [
        run_backend(backend, "eliminate", ring, polys, [names[0]], time_limit=limit)
        for limit in (math.inf, None)
    ]
    assert [[r.text(p) for p in b] for r, b in eliminated][0] == [
        [r.text(p) for p in b] for r, b in eliminated
    ][1]


def test_calls_under_the_default_limit_share_one_child(monkeypatch):
    monkeypatch.delenv(TIME_LIMIT_VARIABLE, raising=False)
    ring = PolyRing(("x", "y"), "lex")
    run_backend("flint", "groebner", ring, [ring.parse("x - y")])
    worker = runner._WORKERS.worker
    assert worker is not None and worker[1].is_alive()
    for _ in range(5):
        run_backend("flint", "groebner", ring, [ring.parse("x^2 - y")])
    assert runner._WORKERS.worker is worker


def test_a_backend_registered_later_runs_in_a_child_of_its_own(monkeypatch):
    monkeypatch.delenv(TIME_LIMIT_VARIABLE, raising=False)
    ring = PolyRing(("x", "y"), "lex")
    run_backend("flint", "groebner", ring, [ring.parse("x - y")])  # the shared child exists

    class Renamed(FlintBackend):
        name = f"flint_{uuid.uuid4().hex[:8]}"

    register_backend(Renamed())
    try:
        out_ring, basis = run_backend(
            Renamed.name, "groebner", ring, [ring.parse("x^2 - y"), ring.parse("y - 4")]
        )
        assert [out_ring.text(p) for p in basis] == ["x^2 - 4", "y - 4"]
    finally:
        BACKENDS.pop(Renamed.name)


def test_progress_lines_name_the_stage_when_asked(monkeypatch, capfd):
    ring, polys = _cyclic(*HARD["flint"])
    monkeypatch.setenv(PROGRESS_VARIABLE, "1")
    with pytest.raises(GroebnerTimeout):
        run_backend("flint", "groebner", ring, polys, time_limit=1.6, interval=0.5)
    lines = capfd.readouterr().err.splitlines()
    assert len(lines) >= 2 and all(
        line.startswith("[evalgebra] groebner with flint: still running after ") for line in lines
    )
    monkeypatch.setenv(PROGRESS_VARIABLE, "0")
    with pytest.raises(GroebnerTimeout):
        run_backend("flint", "groebner", ring, polys, time_limit=1.1, interval=0.5)
    assert capfd.readouterr().err == ""


def test_progress_is_off_without_a_terminal_and_on_with_one(monkeypatch):
    monkeypatch.delenv(PROGRESS_VARIABLE, raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert default_progress() is None

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert default_progress() is stderr_progress


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find processes")
def test_the_shared_child_dies_with_a_killed_caller(tmp_path):
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_runner import _cyclic
        from evalgebra.groebner.runner import run_backend
        ring, polys = _cyclic(6, "degrevlex")
        print("started", flush=True)
        run_backend("flint", "groebner", ring, polys)
    """)
    env = dict(os.environ, TMPDIR=str(scratch), **{marker: "1"})
    env.pop(TIME_LIMIT_VARIABLE, None)
    caller = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert caller.stdout is not None and caller.stdout.readline().strip() == "started"
        assert wait_for(lambda: len(marked_processes(marker)) >= 2, 30), "the computation did not start"
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
        assert wait_for(lambda: not marked_processes(marker), 10), f"survivors: {marked_processes(marker)}"
        assert wait_for(lambda: not any(scratch.iterdir()), 10), f"left behind: {list(scratch.rglob('*'))}"
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
        caller.kill()
        caller.wait()
