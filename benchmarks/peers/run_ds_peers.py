r"""Peer side of ``benchmarks/bench_real_tests.py``: Dawid-Skene by crowd-kit and judgepanel, as JSON.

Runs inside the peer environment (``benchmarks/.peers-venv``, made by ``make bench-peers``
from ``requirements-peers.txt``), never in the project's own; it does not import evalgebra.

Input: a JSON file naming the cases, each ``{"name", "items", "labels"}`` with ``items`` a CSV
of one column per judge and one row per item, every cell a label name or empty (a missing
answer: both peers take it as "this judge did not label this item"). For every case and
setting it fits the model once, timed (the long table and the label matrix are built outside
the timing), and prints each judge's accuracy on each label (the diagonal of its confusion
matrix), the prior of each label, the seconds, the iterations and whether the run stopped by
its tolerance (``converged``) or by its cap on iterations.

Settings:

``crowd-kit defaults``     ``DawidSkene(n_iter=100, tol=1e-5)``
``crowd-kit converged``    ``DawidSkene(n_iter=--ck-max-iter, tol=--ck-tol)`` (``tol``: the gain
                           of the evidence lower bound per answer below which EM stops)
``judgepanel defaults``    ``fit_dawid_skene(panel)`` (``max_iter=1000, tol=1e-7, smoothing=0.01``)
``judgepanel converged``   ``fit_dawid_skene(panel, max_iter=--jp-max-iter, tol=--jp-tol)`` (``tol``:
                           the change of the log-likelihood per item below which EM stops)

Usage::

    benchmarks/.peers-venv/bin/python benchmarks/peers/run_ds_peers.py CASES.json
        [--ck-max-iter 3000] [--ck-tol 1e-10] [--jp-max-iter 100000] [--jp-tol 1e-12]
        [--skip-crowdkit-converged NAME ...]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import sys
import time
import warnings
from collections.abc import Sequence
from typing import Any


def log(message: str) -> None:
    print(f"[peers] {message}", file=sys.stderr, flush=True)


def version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def crowdkit_runs(table: Any, labels: list[str], settings: Sequence[tuple[str, int, float]]) -> list[dict]:
    from crowdkit.aggregation import DawidSkene

    judges = list(table.columns)
    long = (
        table.rename_axis("task")
        .reset_index()
        .melt(id_vars="task", var_name="worker", value_name="label")
        .dropna(subset=["label"])
        .reset_index(drop=True)
    )
    out = []
    for name, n_iter, tol in settings:
        log(f"{name}: n_iter={n_iter}, tol={tol:g}, {len(table)} items x {len(judges)} judges")
        start = time.perf_counter()
        model = DawidSkene(n_iter=n_iter, tol=tol).fit(long)
        seconds = time.perf_counter() - start
        errors = model.errors_
        iterations = len(model.loss_history_)
        seen = {str(x) for x in model.priors_.index}

        def rate(judge: str, label: str) -> float | None:
            if label not in seen:
                return None
            try:
                return float(errors.loc[(judge, label), label])
            except KeyError:  # the judge never gave this answer
                return 0.0

        out.append(
            {
                "method": name,
                "seconds": seconds,
                "iterations": iterations,
                "converged": iterations < n_iter,
                "prevalence": {t: float(model.priors_[t]) if t in seen else None for t in labels},
                "accuracy": {j: {t: rate(j, t) for t in labels} for j in judges},
            }
        )
    return out


def judgepanel_runs(table: Any, labels: list[str], settings: Sequence[tuple[str, int, float]]) -> list[dict]:
    import numpy as np
    from judgepanel import MISSING, Panel, fit_dawid_skene

    judges = list(table.columns)
    index = {t: k for k, t in enumerate(labels)}
    matrix = np.full(table.shape, MISSING, dtype=np.int64)
    for j, judge in enumerate(judges):
        column = table[judge]
        for i, value in enumerate(column):
            if isinstance(value, str) and value in index:
                matrix[i, j] = index[value]
    panel = Panel(matrix, tuple(str(i) for i in range(len(table))), tuple(judges), tuple(labels))
    out = []
    for name, max_iter, tol in settings:
        log(f"{name}: max_iter={max_iter}, tol={tol:g}, {len(table)} items x {len(judges)} judges")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.perf_counter()
            result = fit_dawid_skene(panel, max_iter=max_iter, tol=tol)
            seconds = time.perf_counter() - start
        out.append(
            {
                "method": name,
                "seconds": seconds,
                "iterations": int(result.n_iter),
                "converged": bool(result.converged),
                "prevalence": {t: float(result.class_prior[k]) for t, k in index.items()},
                "accuracy": {
                    j: {t: float(result.confusion[jj, k, k]) for t, k in index.items()}
                    for jj, j in enumerate(judges)
                },
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cases")
    parser.add_argument("--ck-max-iter", type=int, default=3000)
    parser.add_argument("--ck-tol", type=float, default=1e-10)
    parser.add_argument("--jp-max-iter", type=int, default=100_000)
    parser.add_argument("--jp-tol", type=float, default=1e-12)
    parser.add_argument(
        "--skip-crowdkit-converged",
        nargs="*",
        default=[],
        help="cases on which crowd-kit is run at its defaults only",
    )
    args = parser.parse_args(argv)
    import pandas as pd

    cases = json.loads(open(args.cases).read())
    out: dict[str, Any] = {
        "python": platform.python_version(),
        "versions": {p: version(p) for p in ("crowd-kit", "judgepanel", "numpy", "pandas")},
        "cases": {},
    }
    for case in cases:
        table = pd.read_csv(case["items"], dtype=str, keep_default_na=False, na_values=[""])
        labels = list(case["labels"])
        ck = [("crowd-kit defaults", 100, 1e-5)]
        if case["name"] not in args.skip_crowdkit_converged:
            ck.append(("crowd-kit converged", args.ck_max_iter, args.ck_tol))
        jp = [("judgepanel defaults", 1000, 1e-7), ("judgepanel converged", args.jp_max_iter, args.jp_tol)]
        log(f"case {case['name']}")
        out["cases"][case["name"]] = crowdkit_runs(table, labels, ck) + judgepanel_runs(table, labels, jp)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
