r"""Peer side of ``benchmarks/bench_crowd_cli.py``: crowd-kit and judgepanel on crowd files, JSON out.

Runs inside the peer environment (``benchmarks/.peers-venv``, Python 3.12 for judgepanel), never
in the project's own, and does not import evalgebra. For every ``--crowd ANSWERS.csv[:GOLD.csv]``
(columns ``task, worker, label``; gold ``task, label``, written by the benchmark outside the
timing) it times, best of ``--repeat`` calls (CPU time of this process),

* crowd-kit ``DawidSkene()`` with its defaults (``n_iter=100, tol=1e-5``), and with the gold as
  its ``true_labels`` when given;
* judgepanel ``fit_dawid_skene(Panel)`` with its defaults (no gold: it takes none),

and prints each model's per-task labels and every worker's confusion rows
``{worker: {truth: {answer: rate}}}``.

Usage::

    benchmarks/.peers-venv/bin/python benchmarks/peers/run_crowd_cli_peers.py --crowd A.csv[:G.csv] ...
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd


def best_cpu(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return best, result


def crowdkit_rows(model: Any) -> dict[str, dict[str, dict[str, float]]]:
    errors = model.errors_  # rows (worker, answered), columns the true label
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (worker, answered), row in errors.iterrows():
        for truth, rate in row.items():
            out.setdefault(str(worker), {}).setdefault(str(truth), {})[str(answered)] = float(rate)
    return out


def run(spec: str, repeat: int) -> dict[str, Any]:
    from crowdkit.aggregation import DawidSkene
    from judgepanel import Panel, fit_dawid_skene

    path, _, gold_path = spec.partition(":")
    answers = pd.read_csv(path, dtype=str, keep_default_na=False)
    out: dict[str, Any] = {"answers": path, "models": []}
    seconds, model = best_cpu(lambda: DawidSkene(n_iter=100, tol=1e-5).fit(answers), repeat)
    out["models"].append(
        {
            "name": "crowd-kit DawidSkene (defaults)",
            "seconds": seconds,
            "labels": {str(k): str(v) for k, v in model.labels_.items()},
            "rows": crowdkit_rows(model),
        }
    )
    if gold_path:
        gold = pd.read_csv(gold_path, dtype=str, keep_default_na=False).set_index("task")["label"]
        seconds, model = best_cpu(
            lambda: DawidSkene(n_iter=100, tol=1e-5).fit(answers, true_labels=gold), repeat
        )
        out["models"].append(
            {
                "name": "crowd-kit DawidSkene (defaults), gold",
                "seconds": seconds,
                "labels": {str(k): str(v) for k, v in model.labels_.items()},
                "rows": crowdkit_rows(model),
            }
        )
    records = list(answers[["task", "worker", "label"]].itertuples(index=False, name=None))

    def judgepanel() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its warning for fewer than three judges
            return fit_dawid_skene(Panel.from_records(records))

    seconds, result = best_cpu(judgepanel, repeat)
    rows = {
        judge: {
            truth: {answer: float(result.confusion[j, a, b]) for b, answer in enumerate(result.classes)}
            for a, truth in enumerate(result.classes)
        }
        for j, judge in enumerate(result.judges)
    }
    out["models"].append(
        {
            "name": "judgepanel fit_dawid_skene (defaults)",
            "seconds": seconds,
            "labels": dict(zip(result.items, result.labels())),
            "rows": rows,
        }
    )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crowd", nargs="+", required=True)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    versions = {p: importlib.metadata.version(p) for p in ("crowd-kit", "judgepanel", "pandas", "numpy")}
    runs = []
    for spec in args.crowd:
        print(f"[crowd peers] {spec}", file=sys.stderr, flush=True)
        runs.append(run(spec, args.repeat))
    json.dump({"versions": versions, "runs": runs}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
