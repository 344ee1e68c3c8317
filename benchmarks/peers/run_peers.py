r"""Peer side of ``benchmarks/bench_peers.py``: time the peers and print one JSON document.

Runs inside the peer environment (``benchmarks/.peers-venv``, made by ``make
bench-peers`` from ``requirements-peers.txt``), never in the project's own environment,
so the peers are never dependencies of evalgebra. It does not import evalgebra.

What it times, each on the peer's own inputs:

``evaluator``
    ``ntqr.r2.evaluators.ErrorIndependentEvaluation(TrioVoteCounts(counts))``: the exact
    algebraic evaluation of three error-independent binary classifiers from the eight
    decision-pattern counts. Its constructor computes both points of the variety
    (``evaluation_exact``: SymPy numbers; ``evaluation_float``), ordered with the smaller
    prevalence of ``a`` first; it decodes nothing and raises no alarm. Cases: the example
    ntqr ships (``ntqr.r2.examples.uciadult_label_counts``, used by its tutorial and by
    ``ntqr/r2/evaluators.py``'s demonstration), the two round-trip sketches printed in its
    notebook ``ExactAlgebraicSolutionErrorIndependent.ipynb``, and any ``--counts`` given.
    Per-call time: best of ``--repeat`` calls (the first call, which warms SymPy's
    caches, is reported apart).
``evaluator_batch``
    The same evaluator over the 100 labelled UCI Adult sketches ntqr ships
    (``ntqr.r2.uci_adult_20240415.data_sketches``), as its tutorial does: one pass,
    total time.
``alarm``
    ``ntqr.alarms.SingleClassifierAxiomsAlarm`` (single-classifier axioms, binary
    ``ntqr.r2`` classes) with ``LabelsSafetySpecification([2, 2])`` (every member's
    correct count on label ``l`` exceeds ``Q_l / 2`` whenever ``Q_l > 0``) and
    ``are_misaligned(responses)``: for every ``Q_a`` in ``0..Q``, is some member unable to
    meet the specification? The alarm fires when that holds at every ``Q_a``. Inputs: the
    test size ``Q`` and each member's response counts ``(R_a, R_b)``. Cases: the two
    binary examples of its notebook ``LogicalAlarmsMisalignedClassifiers.ipynb``
    (``Q = 10``, responses ``(2, 8), (8, 2)``: fires; ``(2, 8), (3, 7)``: does not), and
    the same responses scaled by each ``--alarm-scales`` factor above 1. A call builds
    the axioms and the alarm and runs ``are_misaligned``; best of ``--repeat`` calls
    within ``--budget`` seconds.
``dawid_skene``
    crowd-kit's ``DawidSkene(n_iter, tol).fit(long)`` on the per-item decisions of
    ``--items`` (long format ``task, worker, label``; built outside the timing), once
    with crowd-kit's defaults (``n_iter=100, tol=1e-5``) and once run to convergence
    (``--ds-max-iter``, ``--ds-tol``: EM stops when the evidence lower bound per answer
    rises by less than ``tol``). Reports the prior of each label (``priors_``) and each
    worker's accuracy on each label (``errors_.loc[(worker, label), label]``).

Usage::

    benchmarks/.peers-venv/bin/python benchmarks/peers/run_peers.py --items ITEMS.csv
        [--counts NAME=n_aaa,...,n_bbb ...] [--repeat 5] [--budget 20]
        [--alarm-scales 1,2] [--ds-max-iter 100000] [--ds-tol 1e-10] [--skip-ds]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import itertools
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

PATTERNS = list(itertools.product("ab", repeat=3))  # aaa, aab, ..., bbb

# The two sketches printed by ntqr's notebook ExactAlgebraicSolutionErrorIndependent.ipynb
# (pattern order aaa .. bbb): independent classifiers built from rational statistics, so
# one point of the variety is the statistics drawn there.
NOTEBOOK_SKETCHES = {
    "ntqr notebook round trip 1": [270313, 395007, 247567, 242313, 356527, 531753, 221593, 294927],
    "ntqr notebook round trip 2": [464853, 247797, 437647, 824703, 593472, 328878, 616528, 1486122],
}

# ntqr's notebook LogicalAlarmsMisalignedClassifiers.ipynb, binary part.
ALARM_EXAMPLES = {
    "ntqr notebook misaligned pair": (10, [(2, 8), (8, 2)]),
    "ntqr notebook undecided pair": (10, [(2, 8), (3, 7)]),
}
ALARM_FACTORS = [2, 2]


def log(message: str) -> None:
    print(f"[peers] {message}", file=sys.stderr, flush=True)


def best_time(function: Callable[[], Any], repeat: int, budget: float) -> tuple[float, float, int, Any]:
    """``(best, first, calls, last result)`` of up to ``repeat`` calls, stopping after ``budget`` s."""
    best = first = float("inf")
    result = None
    calls = 0
    spent = 0.0
    while calls < max(repeat, 1):
        start = time.perf_counter()
        result = function()
        elapsed = time.perf_counter() - start
        if calls == 0:
            first = elapsed
        best = min(best, elapsed)
        calls += 1
        spent += elapsed
        if spent > budget:
            break
    return best, first, calls, result


def version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


# -- the error-independent evaluator ------------------------------------------------------------
def _statistic_values(solution: dict[str, Any]) -> list[Any]:
    """P_a, then P_{i,a}, P_{i,b} for i = 0, 1, 2."""
    values = [solution["prevalence"]["a"]]
    for row in solution["accuracy"]:
        values += [row["a"], row["b"]]
    return values


def _float(value: Any) -> float | None:
    try:
        number = complex(value.evalf(30)) if hasattr(value, "evalf") else complex(value)
    except (TypeError, ValueError):
        return None
    if number.imag != 0 or number.real != number.real:
        return None
    return number.real


def ntqr_points(evaluation: Any, exact: bool = True) -> list[dict[str, Any]]:
    """Both points of an ``ErrorIndependentEvaluation`` as exact text and floats."""
    points = []
    for solution in evaluation.evaluation_exact:
        values = _statistic_values(solution)
        point: dict[str, Any] = {"float": [_float(v) for v in values]}
        if exact:
            point["exact"] = [str(v) for v in values]
        points.append(point)
    return points


def run_evaluator(cases: dict[str, dict[str, Any]], repeat: int, budget: float) -> list[dict[str, Any]]:
    from ntqr.r2.datasketches import TrioVoteCounts
    from ntqr.r2.evaluators import ErrorIndependentEvaluation

    rows = []
    for name, case in cases.items():
        counts = case["counts"]
        vote_counts = dict(zip(PATTERNS, counts))
        log(f"evaluator: {name}")
        best, first, calls, evaluation = best_time(
            lambda: ErrorIndependentEvaluation(TrioVoteCounts(vote_counts)), repeat, budget
        )
        rows.append(
            {
                **case,
                "name": name,
                "seconds": best,
                "first_seconds": first,
                "calls": calls,
                "points": ntqr_points(evaluation),
            }
        )
    return rows


def _label_vectors(label_counts: dict[str, dict[tuple[str, ...], int]]) -> dict[str, list[int]]:
    return {label: [int(label_counts.get(label, {}).get(p, 0)) for p in PATTERNS] for label in ("a", "b")}


def evaluator_cases(extra: Sequence[str]) -> dict[str, dict[str, Any]]:
    from ntqr.r2.examples import uciadult_label_counts

    by_label = _label_vectors(uciadult_label_counts)
    cases: dict[str, dict[str, Any]] = {
        "ntqr uciadult example": {
            "source": "ntqr.r2.examples.uciadult_label_counts",
            "counts": [a + b for a, b in zip(by_label["a"], by_label["b"])],
            "by_true_label": by_label,
        }
    }
    for name, counts in NOTEBOOK_SKETCHES.items():
        cases[name] = {
            "source": "ntqr notebooks/ExactAlgebraicSolutionErrorIndependent.ipynb",
            "counts": counts,
            "by_true_label": None,
        }
    for item in extra:
        name, _, text = item.partition("=")
        counts = [int(x) for x in text.split(",")]
        if len(counts) != 8:
            raise SystemExit(f"--counts {item!r}: need NAME=8 comma-separated counts")
        cases[name] = {"source": "--counts", "counts": counts, "by_true_label": None}
    return cases


def run_evaluator_batch(passes: int) -> dict[str, Any]:
    from ntqr.r2.datasketches import TrioLabelVoteCounts
    from ntqr.r2.evaluators import ErrorIndependentEvaluation
    from ntqr.r2.uci_adult_20240415 import data_sketches

    log(f"evaluator batch: {len(data_sketches)} UCI Adult sketches, {passes} pass(es)")
    vote_counts = [TrioLabelVoteCounts(sketch).to_TrioVoteCounts() for sketch in data_sketches]
    best = float("inf")
    evaluations: list[Any] = []
    for _ in range(max(passes, 1)):
        start = time.perf_counter()
        evaluations = [ErrorIndependentEvaluation(vc) for vc in vote_counts]
        best = min(best, time.perf_counter() - start)
    return {
        "name": "ntqr UCI Adult tutorial sketches",
        "source": "ntqr.r2.uci_adult_20240415.data_sketches",
        "counts": [[int(vc.vote_counts[p]) for p in PATTERNS] for vc in vote_counts],
        "by_true_label": [_label_vectors(sketch) for sketch in data_sketches],
        "seconds": best,
        "passes": max(passes, 1),
        "points": [[p["float"] for p in ntqr_points(e, exact=False)] for e in evaluations],
    }


# -- the logical alarm --------------------------------------------------------------------------
def run_alarm(scales: Sequence[int], repeat: int, budget: float) -> list[dict[str, Any]]:
    import ntqr.alarms
    import ntqr.r2.evaluations
    import ntqr.r2.raxioms

    labels = ["a", "b"]

    def make_alarm(q: int, n_members: int) -> Any:
        axioms = [ntqr.r2.raxioms.SingleClassifierAxioms(labels, name) for name in "ijklm"[:n_members]]
        alarm = ntqr.alarms.SingleClassifierAxiomsAlarm(
            q, axioms, ntqr.r2.evaluations.SingleClassifierEvaluations
        )
        alarm.set_safety_specification(ALARM_FACTORS)
        return alarm

    rows = []
    for scale in scales:
        for name, (q, responses) in ALARM_EXAMPLES.items():
            q_scaled = q * scale
            scaled = [tuple(r * scale for r in pair) for pair in responses]
            label = name if scale == 1 else f"{name} x{scale}"
            log(f"alarm: {label} (Q = {q_scaled})")
            best, first, calls, fired = best_time(
                lambda: make_alarm(q_scaled, len(scaled)).are_misaligned(scaled), repeat, budget
            )
            trace = make_alarm(q_scaled, len(scaled)).misalignment_trace(scaled)
            source = "ntqr notebooks/LogicalAlarmsMisalignedClassifiers.ipynb"
            rows.append(
                {
                    "name": label,
                    "source": source if scale == 1 else f"{source}, scaled x{scale}",
                    "scale": scale,
                    "Q": q_scaled,
                    "responses": [list(r) for r in scaled],
                    "factors": ALARM_FACTORS,
                    "fired": bool(fired),
                    "admissible_qa": sorted(qs[0] for qs, misaligned in trace if not misaligned),
                    "seconds": best,
                    "first_seconds": first,
                    "calls": calls,
                }
            )
    return rows


# -- Dawid-Skene --------------------------------------------------------------------------------
def run_dawid_skene(
    items: str, settings: Sequence[tuple[str, int, float]], repeat: int
) -> list[dict[str, Any]]:
    import pandas as pd
    from crowdkit.aggregation import DawidSkene

    table = pd.read_csv(items, dtype=str)
    workers = [c for c in table.columns if c != "truth"]
    long = (
        table[workers]
        .rename_axis("task")
        .reset_index()
        .melt(id_vars="task", var_name="worker", value_name="label")
    )
    rows = []
    for name, n_iter, tol in settings:
        log(f"DawidSkene {name}: n_iter={n_iter}, tol={tol:g} on {len(table)} items x {len(workers)} workers")
        best, first, calls, model = best_time(
            lambda: DawidSkene(n_iter=n_iter, tol=tol).fit(long), repeat, 0.0
        )
        history = list(model.loss_history_)
        errors = model.errors_
        labels = sorted(str(x) for x in model.priors_.index)
        rows.append(
            {
                "name": name,
                "n_iter": n_iter,
                "tol": tol,
                "iterations": len(history),
                "converged": len(history) < n_iter,
                "last_elbo_change": history[-1] - history[-2] if len(history) > 1 else None,
                "items": len(table),
                "workers": workers,
                "seconds": best,
                "calls": calls,
                "prevalence": {label: float(model.priors_[label]) for label in labels},
                "accuracy": {
                    w: {label: float(errors.loc[(w, label), label]) for label in labels} for w in workers
                },
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", help="per-item CSV (classifier columns and 'truth') for DawidSkene")
    parser.add_argument(
        "--counts",
        action="append",
        default=[],
        metavar="NAME=n_aaa,...,n_bbb",
        help="an extra evaluator case (pattern order aaa .. bbb)",
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--budget", type=float, default=20.0, help="stop repeating a call after this many seconds"
    )
    parser.add_argument("--batch-passes", type=int, default=1)
    parser.add_argument("--alarm-scales", default="1,2")
    parser.add_argument("--ds-max-iter", type=int, default=100_000)
    parser.add_argument("--ds-tol", type=float, default=1e-10)
    parser.add_argument("--ds-repeat", type=int, default=1)
    parser.add_argument("--skip-ds", action="store_true")
    parser.add_argument(
        "--skip-default-ds", action="store_true", help="skip the run with crowd-kit's defaults"
    )
    args = parser.parse_args(argv)
    scales = [int(s) for s in args.alarm_scales.split(",") if s.strip()]

    out: dict[str, Any] = {
        "versions": {
            "python": platform.python_version(),
            **{p: version(p) for p in ("ntqr", "crowd-kit", "sympy", "pandas", "numpy")},
        },
        "repeat": args.repeat,
        "budget": args.budget,
    }
    out["evaluator"] = run_evaluator(evaluator_cases(args.counts), args.repeat, args.budget)
    out["evaluator_batch"] = run_evaluator_batch(args.batch_passes)
    out["alarm"] = run_alarm(scales, args.repeat, args.budget)
    if args.items and not args.skip_ds:
        settings = [] if args.skip_default_ds else [("crowd-kit defaults", 100, 1e-5)]
        settings.append(("to convergence", args.ds_max_iter, args.ds_tol))
        out["dawid_skene"] = run_dawid_skene(args.items, settings, args.ds_repeat)
    else:
        out["dawid_skene"] = []
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
