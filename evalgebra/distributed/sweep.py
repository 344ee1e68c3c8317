r"""Independent cases (a derivation sweep) run as Dask tasks on a cluster, or one after another.

:func:`run_sweep` maps a function over cases and returns the results in case order with the
wall time: serially in this process (``client=None``), or as one Dask task per case on a
``dask.distributed`` client, the slowest cases first (``cost=``) so that no worker starts a
long case last. :func:`local_cluster` starts a ``LocalCluster`` of worker processes that may
start processes of their own (the Gröbner runner forks its engines).

Examples
--------
>>> result = run_sweep(abs, [-3, 2, -1])
>>> result.values, result.workers
([3, 2, 1], 0)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalgebra.errors import EvalgebraError

__all__ = ["run_sweep", "SweepResult", "local_cluster"]


@dataclass(frozen=True)
class SweepResult:
    """Results of a sweep, in case order.

    Attributes
    ----------
    values : list
        ``function(case)`` for every case, in the cases' order.
    seconds : float
        Wall time of the whole sweep.
    workers : int
        Dask workers used (0: serial, in this process).
    case_seconds : list of float
        Wall time of each case where it ran.
    """

    values: list[Any]
    seconds: float
    workers: int
    case_seconds: list[float] = field(default_factory=list)


def _timed(function: Callable[[Any], Any], case: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    value = function(case)
    return value, time.perf_counter() - start


def run_sweep(
    function: Callable[[Any], Any],
    cases: Sequence[Any],
    *,
    client: Any = None,
    cost: Callable[[Any], float] | None = None,
) -> SweepResult:
    r"""``function(case)`` for every case: serially, or one Dask task per case on ``client``.

    Parameters
    ----------
    function : callable
        A module-level function (pickled to the workers).
    cases : sequence
        Independent inputs; their results do not depend on the order they run in.
    client : dask.distributed.Client, optional
        Run on its workers (``None``: in this process, one case after another).
    cost : callable, optional
        An estimate of each case's cost: the costliest are submitted first.

    Returns
    -------
    SweepResult

    Examples
    --------
    >>> run_sweep(len, ["ab", "c"], cost=len).values
    [2, 1]
    """
    cases = list(cases)
    order = (
        sorted(range(len(cases)), key=lambda k: -cost(cases[k]))
        if cost is not None
        else list(range(len(cases)))
    )
    start = time.perf_counter()
    if client is None:
        done = {k: _timed(function, cases[k]) for k in order}
        workers = 0
    else:
        futures = {
            k: client.submit(_timed, function, cases[k], pure=False, priority=len(order) - rank)
            for rank, k in enumerate(order)
        }
        gathered = client.gather([futures[k] for k in order])
        done = dict(zip(order, gathered))
        workers = len(client.scheduler_info().get("workers", {}))
    seconds = time.perf_counter() - start
    return SweepResult(
        [done[k][0] for k in range(len(cases))], seconds, workers, [done[k][1] for k in range(len(cases))]
    )


@contextlib.contextmanager
def local_cluster(workers: int, memory_limit: str | None = "auto") -> Iterator[Any]:
    r"""A ``dask.distributed`` client of a ``LocalCluster``: ``workers`` processes, one thread each.

    The workers are not daemonic, so a task may start processes (the Gröbner runner's
    child with its time limit). The cluster is closed on exit.
    """
    try:
        import dask
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - dask is in the test extra
        raise EvalgebraError("Dask is not installed: pip install 'evalgebra[dask]'") from exc
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EvalgebraError(f"workers must be a positive integer, got {workers!r}")
    with dask.config.set({"distributed.worker.daemon": False, "distributed.worker.profile.enabled": False}):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            memory_limit=memory_limit,
        )
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()
