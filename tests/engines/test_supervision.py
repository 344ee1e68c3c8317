"""Supervised engine runs: results come back, and nothing a run starts or writes outlives it.

The engine here is a Python script that starts a grandchild and sleeps, so "the whole group" is
tested, not only the process the run started. Survivors are found by a marker in their
environment (:mod:`evalgebra.testing.processes`); the scratch folders by pointing ``TMPDIR`` (or
``tempfile.tempdir``) at an empty folder of the test's.
"""

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

from evalgebra.engines import (
    EngineTimeout,
    ExternalEngineError,
    release_reaper,
    run_engine,
    start_reaper,
    watch_group,
)
from evalgebra.testing.processes import HAS_PROC, marked_processes, wait_for

ROOT = Path(__file__).resolve().parents[2]
NEEDS_PROC = pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find processes")

#: An engine that starts a grandchild, says so in a file of its folder, and sleeps.
SLEEPER = textwrap.dedent("""
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open("started", "w") as handle:
        handle.write(f"{os.getpid()} {child.pid}")
    time.sleep(120)
""")


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    return folder


def test_run_engine_writes_inputs_reads_outputs_and_removes_its_folder(scratch):
    script = (
        "import sys; open('out.txt', 'w').write(open('in.txt').read()[::-1]); print(sys.stdin.read().upper())"
    )
    run = run_engine(
        [sys.executable, "-c", script],
        stdin="abc",
        inputs={"in.txt": "12345"},
        outputs=("out.txt",),
        time_limit=60,
    )
    assert run.stdout == "ABC\n" and run.files == {"out.txt": "54321"}
    assert list(scratch.iterdir()) == []


def test_run_engine_failure_names_the_exit_status_and_the_error_text(scratch):
    with pytest.raises(ExternalEngineError, match=r"failed \(exit 3\): broken input"):
        run_engine([sys.executable, "-c", "import sys; sys.stderr.write('broken input\\n'); sys.exit(3)"])
    with pytest.raises(ExternalEngineError, match="without writing out.txt"):
        run_engine([sys.executable, "-c", "pass"], outputs=("out.txt",))
    with pytest.raises(ExternalEngineError, match="cannot start"):
        run_engine([str(scratch / "no-such-engine")])
    assert list(scratch.iterdir()) == []


@NEEDS_PROC
def test_run_engine_time_limit_ends_the_whole_group(scratch, monkeypatch):
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    monkeypatch.setenv(marker, "1")  # the engine and its grandchild inherit it
    start = time.perf_counter()
    with pytest.raises(EngineTimeout, match=r"did not finish within 1.5 s \(raise it\)"):
        run_engine([sys.executable, "-c", SLEEPER], time_limit=1.5, hint="raise it")
    assert time.perf_counter() - start < 10
    assert wait_for(lambda: not marked_processes(marker), 5), f"survivors: {marked_processes(marker)}"
    assert list(scratch.iterdir()) == []


def test_a_released_reaper_leaves_everything_and_an_abandoned_one_cleans_up(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    engine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], process_group=0)
    try:
        reaper, pipe = start_reaper(str(folder))
        watch_group(pipe, engine.pid)
        release_reaper(reaper, pipe)  # the caller cleaned up itself: the reaper touches nothing
        assert folder.is_dir() and engine.poll() is None
        reaper, pipe = start_reaper(str(folder))
        watch_group(pipe, engine.pid)
        os.close(pipe)  # what the kernel does when the caller dies
        os.waitpid(reaper, 0)
        assert engine.wait(timeout=10) == -signal.SIGKILL
        assert not folder.exists()
    finally:
        engine.kill()
        engine.wait()


@NEEDS_PROC
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_a_killed_caller_leaves_no_engine_and_no_folder(signum, tmp_path):
    marker = f"EVALGEBRA_TEST_{uuid.uuid4().hex}"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    caller_script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from evalgebra.engines import run_engine
        run_engine([sys.executable, "-c", {SLEEPER!r}], time_limit=600)
    """)
    env = dict(os.environ, TMPDIR=str(scratch), **{marker: "1"})
    caller = subprocess.Popen(
        [sys.executable, "-c", caller_script], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert wait_for(lambda: any(scratch.glob("evalgebra-engine-*/started")), 30), (
            "the engine did not start"
        )
        assert len(marked_processes(marker)) >= 4  # caller, reaper, engine, grandchild
        os.kill(caller.pid, signum)
        _, err = caller.communicate(timeout=30)
        assert caller.returncode != 0
        if signum == signal.SIGINT:
            assert "KeyboardInterrupt" in err
        assert wait_for(lambda: not marked_processes(marker), 10), f"survivors: {marked_processes(marker)}"
        assert wait_for(lambda: not any(scratch.iterdir()), 10), f"left behind: {list(scratch.rglob('*'))}"
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
        caller.kill()
        caller.wait()
