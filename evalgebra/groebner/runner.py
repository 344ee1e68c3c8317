r"""Running a Gröbner computation with a time limit and progress reports.

With a time limit or a progress callback the computation runs in a forked child
process: the parent reports the elapsed time every ``interval`` seconds and, when the
limit passes, ends the child and raises :class:`GroebnerTimeout`. Results come back as
plain data (:func:`~evalgebra.groebner.polys.dump`), so a killed or failed run leaves
nothing half-made behind. Without either, the call runs in-process.

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
import signal
import sys
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


def _child(conn: Any, backend: str, task: str, data: Any, variables: Sequence[str]) -> None:
    os.setpgrp()  # its own process group: a time-out ends engines it started too
    try:
        ring, polys = load(data)
        out_ring, result = _compute(backend, task, ring, polys, variables)
        conn.send(("ok", dump(out_ring, result)))
    except BaseException as exc:  # report every failure to the parent
        conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"))
    finally:
        conn.close()


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
    get_backend(backend)  # fail early, in the parent, on unknown or missing engines
    if time_limit is None and progress is None:
        return _compute(backend, task, ring, polys, variables)
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(child, backend, task, dump(ring, polys), tuple(variables)), daemon=True)
    start = time.perf_counter()
    process.start()
    child.close()
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
        if process.is_alive():
            _end_group(process.pid)
        process.join()
        parent.close()
    if status != "ok":
        raise EvalgebraError(f"{label} failed: {payload}")
    return load(payload)
