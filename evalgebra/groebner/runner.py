r"""Running a Gröbner computation with a time limit and progress reports.

With a time limit or a progress callback, and always for engines that run as processes
of their own (Singular, msolve), the computation runs in a forked child process: the parent
reports the elapsed time every ``interval`` seconds and, when the limit passes, ends the
child and raises :class:`GroebnerTimeout`. Results come back as plain data
(:func:`~evalgebra.groebner.polys.dump`), so a killed or failed run leaves nothing half-made
behind. Otherwise the call runs in-process.

Nothing outlives its caller. The child leads a process group of its own, which holds the
engines it starts (each of them is also told by the kernel to die with the child, where the
platform allows); a time-out ends the whole group. Engines write into one scratch folder per
run, removed by the caller on every exit. If the caller itself is killed (even by
``SIGKILL``), a small reaper process sees its pipe close, ends the child's group and removes
the scratch folder.

Examples
--------
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "lex")
>>> out_ring, basis = run_backend("flint", "groebner", ring, [ring.parse("x^2 - y")], time_limit=30)
>>> [out_ring.text(p) for p in basis]
['x^2 - y']
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from evalgebra.errors import EvalgebraError
from evalgebra.groebner.backends import get_backend
from evalgebra.groebner.polys import PolyRing, dump, load

__all__ = ["GroebnerTimeout", "run_backend", "stderr_progress", "Progress"]

Progress = Callable[[str, float], None]


class GroebnerTimeout(EvalgebraError):
    """A Gröbner computation did not finish within its time limit."""


def stderr_progress(label: str, elapsed: float) -> None:
    """A progress callback that prints one line per report on standard error."""
    print(f"[evalgebra] {label}: still running after {elapsed:.0f} s", file=sys.stderr, flush=True)


def _compute(backend: str, task: str, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]) -> tuple[PolyRing, list[Any]]:
    engine = get_backend(backend)
    if task == "groebner":
        return ring, engine.groebner(ring, polys)
    if task == "eliminate":
        return engine.eliminate(ring, polys, variables)
    raise ValueError(f"unknown task {task!r}")


def _child(conn: Any, backend: str, task: str, data: Any, variables: Sequence[str], scratch: str) -> None:
    os.setpgrp()  # its own process group: a time-out ends engines it started too
    tempfile.tempdir = scratch  # every temporary folder of this run lives in the scratch folder
    try:
        ring, polys = load(data)
        out_ring, result = _compute(backend, task, ring, polys, variables)
        conn.send(("ok", dump(out_ring, result)))
    except BaseException as exc:  # report every failure to the parent
        conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"))
    finally:
        conn.close()


def _start_reaper(child: int, scratch: str) -> tuple[int, int]:
    """Fork a small process that cleans up if the caller dies: ``(pid, write end of its pipe)``.

    The reaper waits on a pipe whose only write end the caller holds. A byte means the caller
    cleaned up itself; end of file without a byte means the caller was killed: the reaper
    then ends the child's process group (engines included) and removes the scratch folder.
    It waits in the kernel, so a computation that holds the interpreter cannot delay it.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the reaper, which leaves by os._exit
        try:
            os.setpgrp()  # out of the caller's group, so a signal to the group does not end it
            os.close(write_end)
            if not os.read(read_end, 1):
                _end_group(child)
                shutil.rmtree(scratch, ignore_errors=True)
        finally:
            os._exit(0)
    os.close(read_end)
    return pid, write_end


def _end_group(pid: int) -> None:
    """End a child and everything in its process group (external engines included)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:  # not (yet) a group leader: end the child alone
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # already gone
            pass


def run_backend(
    backend: str,
    task: str,
    ring: PolyRing,
    polys: Sequence[Any],
    variables: Sequence[str] = (),
    time_limit: float | None = None,
    progress: Progress | None = None,
    interval: float = 10.0,
) -> tuple[PolyRing, list[Any]]:
    """Run ``task`` ("groebner" or "eliminate") on a backend, limited in time.

    Returns ``(ring, basis)``: the ring of the result and its reduced basis.
    """
    engine = get_backend(backend)  # fail early, in the parent, on unknown or missing engines
    if time_limit is None and progress is None and not engine.runs_processes:
        return _compute(backend, task, ring, polys, variables)
    scratch = tempfile.mkdtemp(prefix="evalgebra-run-")
    try:
        return _supervise(backend, task, ring, polys, variables, time_limit, progress, interval, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _supervise(backend: str, task: str, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str],
               time_limit: float | None, progress: Progress | None, interval: float,
               scratch: str) -> tuple[PolyRing, list[Any]]:
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_child, daemon=True,
                              args=(child, backend, task, dump(ring, polys), tuple(variables), scratch))
    start = time.perf_counter()
    process.start()
    child.close()
    assert process.pid is not None
    reaper, reaper_pipe = _start_reaper(process.pid, scratch)
    label = f"{task} with {backend}"
    next_report = interval
    try:
        while True:
            elapsed = time.perf_counter() - start
            wait = 0.05 if elapsed < 1 else 0.25
            if parent.poll(wait):
                status, payload = parent.recv()
                break
            elapsed = time.perf_counter() - start
            if time_limit is not None and elapsed > time_limit:
                raise GroebnerTimeout(f"{label} did not finish within {time_limit:g} s")
            if not process.is_alive() and not parent.poll():
                raise EvalgebraError(f"{label} ended without a result (exit code {process.exitcode})")
            if progress is not None and elapsed >= next_report:
                progress(label, elapsed)
                next_report += interval
    finally:
        _end_group(process.pid)  # the child and any engine still in its group
        process.join()
        parent.close()
        os.write(reaper_pipe, b"x")  # the reaper may leave: everything is cleaned up here
        os.close(reaper_pipe)
        os.waitpid(reaper, 0)
    if status != "ok":
        raise EvalgebraError(f"{label} failed: {payload}")
    return load(payload)
