r"""Peer side of ``benchmarks/bench_crowd.py``: crowd-kit on sparse crowds, one JSON document out.

Runs inside the peer environment (``benchmarks/.peers-venv``, made by ``make bench-peers``
from ``requirements-peers.txt``), never in the project's own environment, and does not
import evalgebra. For every ``--answers`` CSV (columns ``task, worker, label``; written by
the benchmark outside the timing) it times

* ``DawidSkene(n_iter=100, tol=1e-5).fit`` (crowd-kit's defaults),
* ``DawidSkene(n_iter=--ds-max-iter, tol=--ds-tol).fit`` (run to convergence: EM stops when
  the evidence lower bound per answer gains less than ``tol``),
* ``MajorityVote().fit``,

best of ``--repeat`` calls (wall and CPU time), and prints each model's per-task labels, priors and every
worker's accuracy on every label (``errors_.loc[(worker, label), label]``).

Usage::

    benchmarks/.peers-venv/bin/python benchmarks/peers/run_crowd_peers.py --answers A.csv [B.csv ...]
        [--repeat 3] [--ds-max-iter 10000] [--ds-tol 1e-10]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd


def best_time(function: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Best wall time and best CPU time (this process) of ``repeat`` calls, and the last result."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(max(1, repeat)):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        best = min(best, time.perf_counter() - start)
    return best, best_cpu, result


def run(path: str, repeat: int, max_iter: int, tol: float) -> dict[str, Any]:
    from crowdkit.aggregation import DawidSkene, MajorityVote

    answers = pd.read_csv(path, dtype=str)
    out: dict[str, Any] = {"answers": path, "models": []}
    settings = (
        ("DawidSkene, defaults", lambda: DawidSkene(n_iter=100, tol=1e-5)),
        ("DawidSkene, converged", lambda: DawidSkene(n_iter=max_iter, tol=tol)),
        ("MajorityVote", lambda: MajorityVote()),
    )
    for name, make in settings:
        print(f"[crowd peers] {name} on {path} ({len(answers)} answers)", file=sys.stderr, flush=True)
        seconds, cpu, model = best_time(lambda: make().fit(answers), repeat)
        row: dict[str, Any] = {
            "name": name,
            "seconds": seconds,
            "cpu": cpu,
            "labels": {str(k): str(v) for k, v in model.labels_.items()},
        }
        if hasattr(model, "errors_") and model.errors_ is not None:
            errors = model.errors_
            labels = [str(x) for x in errors.columns]
            row["accuracy"] = {
                str(w): {
                    ell: float(errors.loc[(w, ell), ell]) if (w, ell) in errors.index else None
                    for ell in labels
                }
                for w in errors.index.get_level_values(0).unique()
            }
            row["priors"] = {str(k): float(v) for k, v in model.priors_.items()}
            row["iterations"] = len(getattr(model, "loss_history_", []))
        out["models"].append(row)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", nargs="+", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ds-max-iter", type=int, default=10000)
    parser.add_argument("--ds-tol", type=float, default=1e-10)
    args = parser.parse_args(argv)
    versions = {p: importlib.metadata.version(p) for p in ("crowd-kit", "pandas", "numpy")}
    runs = [run(path, args.repeat, args.ds_max_iter, args.ds_tol) for path in args.answers]
    json.dump({"versions": versions, "runs": runs}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
