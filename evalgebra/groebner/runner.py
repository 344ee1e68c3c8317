r"""Running a Gröbner computation with a time limit and progress reports.

Every call has a time limit: the caller's ``time_limit`` (seconds; ``math.inf`` for none) or,
when it names none, :func:`default_time_limit`: the environment variable
``EVALGEBRA_TIME_LIMIT`` (seconds, or ``none``) else :data:`DEFAULT_TIME_LIMIT` (10 minutes).
Past it, the computation is ended and :class:`GroebnerTimeout` says which limit was hit and how
to raise it. A long call reports its stage and elapsed time on standard error every ``interval``
seconds (nothing for calls shorter than that) when standard error is a terminal or
``EVALGEBRA_PROGRESS=1`` asks for it (``EVALGEBRA_PROGRESS=0`` silences it), or to the
caller's ``progress`` callback.

The computation runs in a forked child process: the parent waits, reports progress and, when
the limit passes, ends the child. Results come back as plain data
(:func:`~evalgebra.groebner.polys.dump_polys`), so a killed or failed run leaves nothing half-made
behind. A call under the default limit with an in-process engine (flint, sympy) goes to one
long-lived child, forked on first use, so that it costs a pipe round trip, not a fork (a fork
costs tens of milliseconds); a call with its own limit or progress callback, and every call to
an engine that runs as a process of its own (Singular, msolve), gets a child of its own. With
``time_limit=math.inf`` and no progress an in-process engine runs in the caller's process.

Nothing outlives its caller. The child leads a process group of its own; a time-out ends the
whole group. Each engine it starts runs supervised by
:func:`evalgebra.engines.supervision.run_engine` (a group and a folder of its own, ended when the
child ends). Engines write into one scratch folder per run, removed by the caller on every exit.
If the caller itself is killed (even by ``SIGKILL``), a small reaper process
(:func:`evalgebra.engines.supervision.start_reaper`) sees its pipe close, ends the child's group
and removes the scratch folder.

Examples
--------
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "lex")
>>> out_ring, basis = run_backend("flint", "groebner", ring, [ring.parse("x^2 - y")], time_limit=30)
>>> [out_ring.text(p) for p in basis]
['x^2 - y']
"""

from __future__ import annotations

import atexit
import math
import multiprocessing
import numbers
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from evalgebra.engines import (
    DEFAULT_TIME_LIMIT,
    TIME_LIMIT_VARIABLE,
    default_time_limit,
    die_with_parent,
    end_group,
    finite_limit,
    limit_seconds,
    release_reaper,
    start_reaper,
)
from evalgebra.engines.limits import PROGRESS_VARIABLE
from evalgebra.errors import EvalgebraError
from evalgebra.groebner.backends import BACKENDS, get_backend
from evalgebra.groebner.polys import PolyRing, dump_polys, load_polys

__all__ = [
    "GroebnerTimeout",
    "run_backend",
    "run_limited",
    "stderr_progress",
    "StepProgress",
    "DEFAULT_TIME_LIMIT",
    "TIME_LIMIT_VARIABLE",
    "PROGRESS_VARIABLE",
    "default_time_limit",
    "default_progress",
]

StepProgress = Callable[[str, float], None]


class GroebnerTimeout(EvalgebraError):
    """A Gröbner computation did not finish within its time limit."""


def stderr_progress(label: str, elapsed: float) -> None:
    """A progress callback that prints one line per report on standard error."""
    print(f"[evalgebra] {label}: still running after {elapsed:.0f} s", file=sys.stderr, flush=True)


def _limit(time_limit: float | None) -> tuple[float | None, bool]:
    """``(limit in seconds or None, whether it is the default)`` of a caller's ``time_limit``."""
    if time_limit is None:
        return default_time_limit(), True
    if not isinstance(time_limit, numbers.Real) or isinstance(time_limit, bool):
        return limit_seconds(None, f"time_limit={time_limit!r}"), False  # refused: seconds are numbers
    if math.isinf(time_limit) and time_limit > 0:
        return None, False
    return finite_limit(limit_seconds(time_limit, f"time_limit={time_limit!r}")), False


def default_progress() -> StepProgress | None:
    """:func:`stderr_progress` when standard error is a terminal or ``EVALGEBRA_PROGRESS=1``;
    ``None`` when it is not, or ``EVALGEBRA_PROGRESS=0``.

    Examples
    --------
    >>> import os
    >>> os.environ[PROGRESS_VARIABLE] = "0"
    >>> default_progress() is None
    True
    >>> del os.environ[PROGRESS_VARIABLE]
    """
    asked = os.environ.get(PROGRESS_VARIABLE, "").strip().lower()
    if asked in ("1", "on", "yes", "true"):
        return stderr_progress
    if asked in ("0", "off", "no", "false"):
        return None
    try:
        return stderr_progress if sys.stderr is not None and sys.stderr.isatty() else None
    except (AttributeError, ValueError):  # a replaced or closed stream
        return None


def _compute(
    backend: str, task: str, ring: PolyRing, polys: Sequence[Any], variables: Sequence[str]
) -> tuple[PolyRing, list[Any]]:
    engine = get_backend(backend)
    if task == "groebner":
        return ring, engine.groebner(ring, polys)
    if task == "eliminate":
        return engine.eliminate(ring, polys, variables)
    raise ValueError(f"unknown task {task!r}")


def _child(conn: Any, function: Callable[..., Any], args: tuple[Any, ...], scratch: str) -> None:
    os.setpgrp()  # its own process group: a time-out ends engines it started too
    tempfile.tempdir = scratch  # every temporary folder of this run lives in the scratch folder
    try:
        conn.send(("ok", function(*args)))
    except BaseException as exc:  # report every failure to the parent
        conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"))
    finally:
        conn.close()


def _compute_dumped(backend: str, task: str, data: Any, variables: Sequence[str]) -> Any:
    """:func:`_compute` on a dumped ring and polynomials; the result dumped (what a child sends)."""
    ring, polys = load_polys(data)
    return dump_polys(*_compute(backend, task, ring, polys, variables))


def run_backend(
    backend: str,
    task: str,
    ring: PolyRing,
    polys: Sequence[Any],
    variables: Sequence[str] = (),
    time_limit: float | None = None,
    progress: StepProgress | None = None,
    interval: float = 10.0,
) -> tuple[PolyRing, list[Any]]:
    """Run ``task`` ("groebner" or "eliminate") on a backend, limited in time.

    ``time_limit`` is in seconds: ``None`` (default) takes :func:`default_time_limit`,
    ``math.inf`` runs without a limit. ``progress`` is called as ``progress(stage, seconds)``
    every ``interval`` seconds; without it, :func:`default_progress` decides. Returns
    ``(ring, basis)``: the ring of the result and its reduced basis. Raises
    :class:`GroebnerTimeout` when the limit passes.
    """
    engine = get_backend(backend)  # fail early, in the parent, on unknown or missing engines
    limit, by_default = _limit(time_limit)
    report = progress if progress is not None else default_progress()
    if limit is None and report is None and not engine.runs_processes:
        return _compute(backend, task, ring, polys, variables)
    label = f"{task} with {backend if isinstance(backend, str) else engine.name}"  # the stage progress names
    if by_default and progress is None and not engine.runs_processes and isinstance(backend, str):
        found = _WORKERS.run(backend, task, ring, polys, variables, limit, report, interval, label)
        if found is not None:
            return found
    scratch = tempfile.mkdtemp(prefix="evalgebra-run-")
    try:
        return _supervise(
            backend, task, ring, polys, variables, limit, report, interval, scratch, label, by_default
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _timeout(label: str, limit: float, by_default: bool) -> GroebnerTimeout:
    how = (
        f"the default limit: set {TIME_LIMIT_VARIABLE}=SECONDS (or none), pass time_limit=..., "
        "or --time-limit on the command line"
        if by_default
        else "raise time_limit= to give it longer"
    )
    return GroebnerTimeout(f"{label} did not finish within {limit:g} s ({how})")


def _wait(
    conn: Any,
    alive: Callable[[], bool],
    label: str,
    limit: float | None,
    progress: StepProgress | None,
    interval: float,
    by_default: bool,
) -> Any:
    """The message the child sends on ``conn``, reporting progress and keeping the time limit."""
    start = time.perf_counter()
    next_report = interval
    while True:
        elapsed = time.perf_counter() - start
        if conn.poll(0.05 if elapsed < 1 else 0.25):
            return conn.recv()
        elapsed = time.perf_counter() - start
        if limit is not None and elapsed > limit:
            raise _timeout(label, limit, by_default)
        if not alive() and not conn.poll():
            raise EvalgebraError(f"{label} ended without a result")
        if progress is not None and elapsed >= next_report:
            progress(label, elapsed)
            next_report += interval


def _supervise(
    backend: str,
    task: str,
    ring: PolyRing,
    polys: Sequence[Any],
    variables: Sequence[str],
    time_limit: float | None,
    progress: StepProgress | None,
    interval: float,
    scratch: str,
    label: str,
    by_default: bool,
) -> tuple[PolyRing, list[Any]]:
    payload = _call_in_child(
        _compute_dumped,
        (backend, task, dump_polys(ring, polys), tuple(variables)),
        time_limit,
        progress,
        interval,
        scratch,
        label,
        by_default,
    )
    return load_polys(payload)


def _call_in_child(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    time_limit: float | None,
    progress: StepProgress | None,
    interval: float,
    scratch: str,
    label: str,
    by_default: bool,
) -> Any:
    """``function(*args)`` in a forked child guarded by a reaper; its (picklable) result."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_child, daemon=True, args=(child, function, args, scratch))
    process.start()
    child.close()
    assert process.pid is not None
    reaper, reaper_pipe = start_reaper(scratch, process.pid)
    try:
        status, payload = _wait(parent, process.is_alive, label, time_limit, progress, interval, by_default)
    finally:
        end_group(process.pid)  # the child and any engine still in its group
        process.join()
        parent.close()
        release_reaper(reaper, reaper_pipe)  # the reaper may leave: everything is cleaned up here
    if status != "ok":
        raise EvalgebraError(f"{label} failed: {payload}")
    return payload


def run_limited(
    function: Callable[..., Any],
    *args: Any,
    label: str,
    time_limit: float | None = None,
    progress: StepProgress | None = None,
    interval: float = 10.0,
) -> Any:
    """``function(*args)`` in a supervised child process, limited in time like every Gröbner step.

    For a computation that runs in Python (a SymPy derivation) rather than through a backend:
    the same limit (``None``: :func:`default_time_limit`; ``math.inf``: none), the same progress
    lines and the same clean-up on a time-out or an interrupt. The result must be picklable.
    Raises :class:`GroebnerTimeout` past the limit.

    Examples
    --------
    >>> run_limited(pow, 2, 10, label="a power", time_limit=30)
    1024
    """
    limit, by_default = _limit(time_limit)
    report = progress if progress is not None else default_progress()
    scratch = tempfile.mkdtemp(prefix="evalgebra-run-")
    try:
        return _call_in_child(function, args, limit, report, interval, scratch, label, by_default)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _serve(conn: Any, scratch: str) -> None:  # pragma: no cover - runs in the long-lived child
    """The long-lived child: compute each request on ``conn`` until the caller closes it."""
    os.setpgrp()
    die_with_parent()  # a killed caller takes it along (Linux); its reaper removes the scratch folder
    tempfile.tempdir = scratch
    while True:
        try:
            backend, task, data, variables = conn.recv()
        except (EOFError, OSError):
            return
        if backend not in BACKENDS:  # registered after this child was forked: the caller forks afresh
            conn.send(("unknown", None))
            continue
        try:
            ring, polys = load_polys(data)
            conn.send(("ok", dump_polys(*_compute(backend, task, ring, polys, variables))))
        except BaseException as exc:  # report every failure to the caller
            conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"))


class _Workers:
    """The long-lived child of this process: started on first use, replaced after a time-out or a
    failure, ended at exit (or by its reaper if this process is killed)."""

    def __init__(self) -> None:
        self.worker: tuple[int, Any, Any, int, int, str] | None = (
            None  # owner pid, process, conn, reaper, pipe, scratch
        )

    def _start(self) -> tuple[int, Any, Any, int, int, str]:
        context = multiprocessing.get_context("fork")
        conn, child = context.Pipe(duplex=True)
        scratch = tempfile.mkdtemp(prefix="evalgebra-worker-")
        process = context.Process(target=_serve, args=(child, scratch), daemon=True)
        process.start()
        child.close()
        assert process.pid is not None
        reaper, pipe = start_reaper(scratch, process.pid)
        return os.getpid(), process, conn, reaper, pipe, scratch

    def close(self) -> None:
        """End the child (its engines too), its reaper and its scratch folder."""
        worker, self.worker = self.worker, None
        if worker is None or worker[0] != os.getpid():  # none, or a forked copy's: not ours to end
            return
        _, process, conn, reaper, pipe, scratch = worker
        end_group(process.pid)
        process.join()
        conn.close()
        release_reaper(reaper, pipe)
        shutil.rmtree(scratch, ignore_errors=True)

    def run(
        self,
        backend: str,
        task: str,
        ring: PolyRing,
        polys: Sequence[Any],
        variables: Sequence[str],
        limit: float | None,
        progress: StepProgress | None,
        interval: float,
        label: str,
    ) -> tuple[PolyRing, list[Any]] | None:
        """The result from the long-lived child; ``None`` when it does not know the backend."""
        if self.worker is not None and self.worker[0] == os.getpid() and not self.worker[1].is_alive():
            self.close()  # ended meanwhile (e.g. with the thread that started it): start another
        if self.worker is None or self.worker[0] != os.getpid():
            self.worker = self._start()
        process, conn = self.worker[1], self.worker[2]
        try:
            conn.send((backend, task, dump_polys(ring, polys), tuple(variables)))
            status, payload = _wait(conn, process.is_alive, label, limit, progress, interval, True)
        except BaseException:  # a time-out, an interrupt or a broken child: it may be mid-computation
            self.close()
            raise
        if status == "unknown":
            return None
        if status != "ok":
            raise EvalgebraError(f"{label} failed: {payload}")
        return load_polys(payload)


_WORKERS = _Workers()
atexit.register(_WORKERS.close)
