r"""Benchmark: evalgebra against the peers a user would pick instead, measured in the same run.

The issue's targets:

* ``ntqr`` (the reference implementation of the papers): **100x faster** on its own
  error-independent evaluator and logical alarm examples;
* crowd-kit's ``DawidSkene`` run to convergence on the same items: **1000x faster**, with
  the same or better accuracy.

The peers live only in the peer environment ``benchmarks/.peers-venv`` (``make
bench-peers`` creates it from ``benchmarks/peers/requirements-peers.txt``); their side runs
there as a subprocess (``benchmarks/peers/run_peers.py``, which prints JSON: timings,
results and the example inputs), then this script runs evalgebra's side on the same
inputs in this environment and prints both. Without the peer environment it prints how to
make it and returns 0. A piece of evalgebra that does not exist yet is reported as "not
available yet".

Comparisons
-----------
(a) evaluator
    ``ntqr.r2.evaluators.ErrorIndependentEvaluation(TrioVoteCounts(counts))`` (both points
    of the independent variety, exact SymPy numbers) against
    ``evaluate(Sketch.from_counts(counts))`` (both points, exact, decoded, with
    the failure-mode alarms; ``evaluate_counts(counts)``, the same without the sketch, is
    shown too), per call, on ntqr's own examples (its ``uciadult``
    example and the two round-trip sketches of its notebook) and on ``acs_employment``.
    Both points must agree *exactly* (every statistic, as SymPy numbers); a disagreement
    fails the benchmark. Then the 100 UCI Adult sketches of ntqr's tutorial, one pass of
    ntqr against ``evaluate_batch`` (vectorised, floating point) and against a loop of
    ``evaluate`` (exact); the float results must agree to ``1e-9``.
(b) logical alarm
    ``ntqr.alarms.SingleClassifierAxiomsAlarm`` with ``LabelsSafetySpecification([2, 2])``
    (every member right on more than half the items of each label present) and
    ``are_misaligned``, on the binary examples of ntqr's alarm notebook (``Q = 10``; also
    scaled by ``--alarm-scales``), against ``logical_alarm(sketch, SafetySpec("1/2"))``.
    ntqr's example gives only each member's response counts; the pair sketch given to
    evalgebra is the one with the most agreement those counts allow (``n_aa = min(R_a_i,
    R_a_j)``). ntqr's alarm uses the single-classifier axioms only, which do not depend on
    the joint counts; evalgebra's also uses the pair relation, so it may fire more often,
    never less. The specifications differ only on a label no item has (ntqr: met;
    evalgebra, strict: not met), so ntqr may list ``Q_a = 0`` or ``Q_a = Q`` as feasible
    where evalgebra does not. On these examples the verdicts must agree (a disagreement
    fails the benchmark). Per call: ntqr best of ``--repeat``, evalgebra the mean over many
    calls.
(c) DawidSkene
    crowd-kit's ``DawidSkene(n_iter, tol).fit`` on the 20,000 ACS items (long format, built
    outside the timing), with crowd-kit's defaults and run to convergence (``--ds-tol``:
    EM stops when the evidence lower bound per answer gains less than that; at most
    ``--ds-max-iter`` iterations), against sketching the same items
    (``Sketch.from_decisions`` on the in-memory table) and ``evaluate``.
    Accuracy: mean absolute error over the prevalence of ``a`` and the six per-label
    accuracies, against the truth of the labelled sketch (``evaluation_point``).

Every ratio is peer time / evalgebra time (above 1: evalgebra is faster). ``--strict``
makes a missed target exit 1.

Usage::

    python benchmarks/bench_peers.py [--repeat 5] [--alarm-scales 1,2] [--ds-tol 1e-10]
                                     [--ds-max-iter 100000] [--skip-ds] [--strict]
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import subprocess
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import sympy

import evalgebra
from evalgebra import Sketch, datasets

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".peers-venv"
PEER_RUNNER = HERE / "peers" / "run_peers.py"
PEER_REQUIREMENTS = HERE / "peers" / "requirements-peers.txt"

NTQR_TARGET = 100.0
DS_TARGET = 1000.0
DS_ACCURACY_SLACK = 1e-6  # "same or better": our MAE at most the peer's plus this
FLOAT_AGREEMENT = 1e-9

LABELS = ("a", "b")
PATTERNS = ["".join(p) for p in itertools.product(LABELS, repeat=3)]  # aaa .. bbb
DATASET = "acs_employment"


# -- timing -------------------------------------------------------------------------------------
def per_call(function: Callable[[], Any], repeat: int, min_seconds: float = 0.2) -> tuple[float, Any]:
    """Per-call time: calls batched to at least ``min_seconds``, best of ``repeat`` batches."""
    start = time.perf_counter()
    result = function()
    once = time.perf_counter() - start
    number = max(1, int(min_seconds / max(once, 1e-7)))
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        for _ in range(number):
            result = function()
        best = min(best, (time.perf_counter() - start) / number)
    return best, result


def seconds_text(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def ratio_text(peer: float | None, ours: float | None) -> str:
    if peer is None or ours is None or ours <= 0:
        return "-"
    return f"{peer / ours:,.0f}x" if peer / ours >= 10 else f"{peer / ours:.2g}x"


# -- evalgebra's pieces (some may not exist yet) ------------------------------------------------------
def load_ours() -> dict[str, Any]:
    """The evalgebra functions compared, or a reason each is missing."""
    found: dict[str, Any] = {}
    for name, module, attribute in (
        ("evaluate", "evalgebra.evaluators.dispatch", "evaluate"),
        ("evaluate_batch", "evalgebra.evaluators.independent.batch", "evaluate_batch"),
        ("evaluate_counts", "evalgebra.evaluators.independent.closed_form", "evaluate_counts"),
        ("exact_solution", "evalgebra.evaluators.independent.closed_form", "exact_solution"),
        ("logical_alarm", "evalgebra.alarm.logical", "logical_alarm"),
    ):
        try:
            found[name] = getattr(importlib.import_module(module), attribute)
        except ImportError as exc:
            found[name] = f"not available yet ({module}: {exc})"
        except AttributeError:
            found[name] = f"not available yet ({module} has no {attribute})"
    return found


def missing(ours: dict[str, Any], name: str) -> str | None:
    value = ours[name]
    return value if isinstance(value, str) else None


# -- the peer run -------------------------------------------------------------------------------
def peer_python() -> Path:
    return PEER_VENV / "bin" / "python"


def pinned_versions() -> dict[str, str]:
    pins = {}
    for line in PEER_REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.strip().partition("==")
        if sep and not name.startswith("#"):
            pins[name.lower()] = value
    return pins


def run_peers(args: argparse.Namespace, acs_counts: Sequence[int]) -> dict[str, Any]:
    command = [
        str(peer_python()),
        str(PEER_RUNNER),
        "--items",
        str(datasets.items_csv(DATASET)),
        "--counts",
        f"{DATASET}=" + ",".join(str(int(c)) for c in acs_counts),
        "--repeat",
        str(args.repeat),
        "--budget",
        str(args.budget),
        "--alarm-scales",
        args.alarm_scales,
        "--ds-max-iter",
        str(args.ds_max_iter),
        "--ds-tol",
        repr(args.ds_tol),
    ]
    if args.skip_ds:
        command.append("--skip-ds")
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"the peer run failed (exit {done.returncode}); remake the peer environment with "
            "`make bench-peers` (or delete benchmarks/.peers-venv first)"
        )
    return json.loads(done.stdout)


# -- (a) the evaluator --------------------------------------------------------------------------
def exact_text(value: Any) -> str:
    return value.to_sympy_text() if hasattr(value, "to_sympy_text") else str(value)


def statistics_of(estimate: Any, classifiers: Sequence[str]) -> list[Any]:
    """P_a, then P_{i,a}, P_{i,b} classifier by classifier (ntqr's order)."""
    values = [estimate.prevalence[LABELS[0]]]
    for c in classifiers:
        values += [estimate.accuracy[c][label] for label in LABELS]
    return values


def as_float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def match_points(peer_points: list[list[float | None]], our_points: list[list[Any]]) -> list[tuple[int, int]]:
    """Pairs (peer, ours) of points with the nearest prevalence of ``a``."""
    pairs = []
    used: set[int] = set()
    for k, peer in enumerate(peer_points):
        best, best_gap = None, float("inf")
        for m, point in enumerate(our_points):
            if m in used or peer[0] is None or as_float(point[0]) is None:
                continue
            gap = abs(peer[0] - float(point[0]))
            if gap < best_gap:
                best, best_gap = m, gap
        if best is not None:
            used.add(best)
            pairs.append((k, best))
    return pairs


def compare_points(peer: dict[str, Any], ours: list[list[Any]]) -> tuple[str, float, bool]:
    """``(agreement text, max |float difference|, agrees)`` over both points."""
    peer_points = peer["points"]
    pairs = match_points([p["float"] for p in peer_points], ours)
    if len(pairs) != len(peer_points) or len(peer_points) != len(ours):
        return f"{len(peer_points)} ntqr points, {len(ours)} ours: no match", float("inf"), False
    exact = True
    worst = 0.0
    for k, m in pairs:
        for theirs_text, theirs_float, mine in zip(peer_points[k]["exact"], peer_points[k]["float"], ours[m]):
            mine_float = as_float(mine)
            if theirs_float is None or mine_float is None:
                if (theirs_float is None) != (mine_float is None):
                    return "one side undefined where the other is not", float("inf"), False
                continue
            worst = max(worst, abs(theirs_float - mine_float))
            if mine is None:
                exact = False
                continue
            try:
                difference = sympy.sympify(theirs_text) - sympy.sympify(exact_text(mine))
                same = difference == 0 or sympy.simplify(difference) == 0
            except (sympy.SympifyError, TypeError):
                same = False
            exact = exact and same
    if exact:
        return "exact", worst, True
    agrees = worst <= FLOAT_AGREEMENT
    return ("float only" if agrees else "DISAGREES"), worst, agrees


def our_sketch(counts: Sequence[int]) -> Sketch:
    return Sketch.from_counts(
        dict(zip(PATTERNS, (int(c) for c in counts))), labels=list(LABELS), classifiers=["c0", "c1", "c2"]
    )


def evaluator_rows(peers: dict[str, Any], ours: dict[str, Any], repeat: int) -> list[dict[str, Any]]:
    rows = []
    evaluate = ours["evaluate"]
    for case in peers["evaluator"]:
        row: dict[str, Any] = {
            "case": case["name"],
            "Q": sum(case["counts"]),
            "peer": case["seconds"],
            "peer_first": case["first_seconds"],
            "gated": case["name"].startswith("ntqr"),
        }
        if isinstance(evaluate, str):
            row.update(ours=None, counts_only=None, agreement=evaluate, agrees=True, worst=None, alarms="")
        else:
            counts = case["counts"]
            seconds, result = per_call(lambda: evaluate(our_sketch(counts)), repeat)
            classifiers = list(result.classifiers)
            points = [statistics_of(p, classifiers) for p in result.points]
            text, worst, agrees = compare_points(case, points)
            row.update(
                ours=seconds,
                agreement=text,
                agrees=agrees,
                worst=worst,
                alarms=",".join(sorted(result.alarm_kinds())) or "none",
                counts_only=None,
            )
            if not isinstance(ours["evaluate_counts"], str):
                row["counts_only"], _ = per_call(lambda: ours["evaluate_counts"](counts), repeat)
            if not isinstance(ours["exact_solution"], str):
                # the gated figure: both exact points (what ntqr's call returns), with every
                # failure mode decided exactly and the decoding, from the counts
                seconds_exact, solution = per_call(lambda: ours["exact_solution"](counts), repeat)
                same = [solution.values(j) for j in (0, 1)] == [
                    [v for v in statistics_of(p, classifiers)] for p in result.points
                ]
                row.update(
                    full=row["ours"],
                    ours=seconds_exact,
                    agrees=row["agrees"] and same,
                    agreement=row["agreement"] if same else "exact_solution DIFFERS",
                )
        rows.append(row)
    return rows


def batch_row(peers: dict[str, Any], ours: dict[str, Any], repeat: int) -> dict[str, Any]:
    batch = peers["evaluator_batch"]
    counts = np.array(batch["counts"], dtype=np.int64)
    row: dict[str, Any] = {
        "case": batch["name"],
        "sketches": len(counts),
        "peer": batch["seconds"],
        "many": None,
        "loop": None,
        "worst": None,
        "agrees": True,
        "note": "",
    }
    many = ours["evaluate_batch"]
    if isinstance(many, str):
        row["note"] = "evaluate_batch " + many
    else:
        seconds, out = per_call(lambda: many(counts), repeat)
        row["many"] = seconds
        worst = 0.0
        for k, peer_points in enumerate(batch["points"]):
            mine = []
            for s in range(out["prevalence"].shape[1]):
                point = [out["prevalence"][k, s]]
                point += [out["accuracy"][k, s, i, ell] for i in range(3) for ell in range(2)]
                mine.append(point)
            for a, b in match_points(peer_points, mine):
                worst = max(
                    worst, max(abs(x - float(y)) for x, y in zip(peer_points[a], mine[b]) if x is not None)
                )
        row["worst"] = worst
        row["agrees"] = worst <= FLOAT_AGREEMENT
    evaluate = ours["evaluate"]
    if not isinstance(evaluate, str):
        sketches = [our_sketch(c) for c in counts]
        best = float("inf")
        for _ in range(max(1, min(repeat, 3))):
            start = time.perf_counter()
            for sketch in sketches:
                evaluate(sketch)
            best = min(best, time.perf_counter() - start)
        row["loop"] = best
    return row


# -- (b) the logical alarm ----------------------------------------------------------------------
def pair_sketch(q: int, responses: Sequence[Sequence[int]]) -> Sketch:
    """The two-member sketch with the most agreement the response counts allow."""
    (ra_i, _), (ra_j, _) = responses
    n_aa = min(ra_i, ra_j)
    n_ab = ra_i - n_aa
    n_ba = ra_j - n_aa
    n_bb = q - n_aa - n_ab - n_ba
    return Sketch.from_counts(
        {("a", "a"): n_aa, ("a", "b"): n_ab, ("b", "a"): n_ba, ("b", "b"): n_bb},
        labels=list(LABELS),
        classifiers=["i", "j"],
    )


def alarm_spec() -> Any:
    r"""evalgebra's specification matching ntqr's ``LabelsSafetySpecification([2, 2])``.

    ``SafetySpec("1/2")``: right on more than half the items of each label (strict, as
    ``2 * correct - Q_l > 0``). The two differ only on a label no item has: ntqr counts it
    as met, evalgebra's strict threshold as not met (``0 > 0``), so ntqr may list
    ``Q_a = 0`` or ``Q_a = Q`` as admissible where evalgebra does not.
    """
    from evalgebra.alarm.safety import SafetySpec

    return SafetySpec(Fraction(1, 2))


def intervals_text(
    values: Sequence[int] | None = None, intervals: Sequence[Sequence[int]] | None = None
) -> str:
    """``0..3`` / ``1..3,5..7`` / ``none`` from a sorted list of values or closed intervals."""
    if intervals is None:
        runs: list[list[int]] = []
        for v in values or []:
            if runs and v == runs[-1][1] + 1:
                runs[-1][1] = v
            else:
                runs.append([v, v])
        intervals = runs
    if not intervals:
        return "none"
    return ",".join(f"{lo}..{hi}" if lo != hi else f"{lo}" for lo, hi in intervals)


def alarm_rows(peers: dict[str, Any], ours: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    alarm = ours["logical_alarm"]
    note = alarm if isinstance(alarm, str) else ""
    rows = []
    for case in peers["alarm"]:
        row: dict[str, Any] = {
            "case": case["name"],
            "Q": case["Q"],
            "responses": case["responses"],
            "peer_fired": case["fired"],
            "peer": case["seconds"],
            "peer_feasible": intervals_text(case["admissible_qa"]),
            "ours": None,
            "ours_fired": None,
            "ours_feasible": "-",
            "agrees": True,
            "gated": case.get("scale", 1) == 1,
        }
        if not note:
            sketch = pair_sketch(case["Q"], case["responses"])
            spec = alarm_spec()
            seconds, report = per_call(lambda: alarm(sketch, spec), 3)
            whole = report.result(*sketch.classifiers)
            row.update(
                ours=seconds,
                ours_fired=report.fires,
                ours_feasible=intervals_text(intervals=whole.feasible_Qa),
            )
            row["agrees"] = row["ours_fired"] == row["peer_fired"]
        rows.append(row)
    return rows, note


# -- (c) DawidSkene -----------------------------------------------------------------------------
def truth_statistics() -> tuple[list[Any], list[str]]:
    point = evalgebra.evaluation_point(datasets.load(DATASET))
    classifiers = list(point.spec.classifiers)
    values: list[Any] = [point.prevalence_of()["a"]]
    values += [point.accuracy(c, label) for c in classifiers for label in LABELS]
    return values, classifiers


def errors_against(values: Sequence[Any], truth: Sequence[Any]) -> tuple[float, float]:
    gaps = [abs(float(v) - float(t)) for v, t in zip(values, truth)]
    return float(np.mean(gaps)), max(gaps)


def ds_rows(peers: dict[str, Any], ours: dict[str, Any], repeat: int) -> list[dict[str, Any]]:
    truth, classifiers = truth_statistics()
    rows: list[dict[str, Any]] = [{"method": "truth (labelled sketch)", "values": [float(t) for t in truth]}]
    for run in peers["dawid_skene"]:
        values = [run["prevalence"]["a"]] + [
            run["accuracy"][c][label] for c in classifiers for label in LABELS
        ]
        mae, worst = errors_against(values, truth)
        rows.append(
            {
                "method": f"DawidSkene, {run['name']}",
                "peer": run["seconds"],
                "values": values,
                "mae": mae,
                "max": worst,
                "iterations": run["iterations"],
                "n_iter": run["n_iter"],
                "tol": run["tol"],
                "converged": run["converged"],
                "elbo": run["last_elbo_change"],
                "gated": run["name"] == "to convergence",
            }
        )
    evaluate = ours["evaluate"]
    if isinstance(evaluate, str):
        rows.append({"method": "evalgebra sketch + evaluate", "note": evaluate})
        return rows
    table = pd.read_csv(datasets.items_csv(DATASET), dtype=str)
    decisions = table[classifiers]
    labelled = Sketch.from_decisions(decisions, labels=list(LABELS), truth=table["truth"].to_numpy())
    if labelled != datasets.load(DATASET):
        raise AssertionError(f"the items CSV of {DATASET} does not give its bundled sketch")

    def ours_once() -> Any:
        return evaluate(Sketch.from_decisions(decisions, labels=list(LABELS)))

    seconds, result = per_call(ours_once, repeat)
    row: dict[str, Any] = {
        "method": "evalgebra sketch + evaluate",
        "ours": seconds,
        "alarms": ",".join(sorted(result.alarm_kinds())) or "none",
    }
    if result.point is None:
        row["note"] = "no point chosen"
    else:
        values = [as_float(v) for v in statistics_of(result.point, classifiers)]
        row["values"] = values
        row["mae"], row["max"] = errors_against(values, truth)
    rows.append(row)
    return rows


# -- printing -----------------------------------------------------------------------------------
def verdict(ratio: float | None, target: float, gated: bool) -> str:
    if not gated:
        return "(not gated)"
    if ratio is None:
        return "-"
    return "meets" if ratio >= target else "MISSES"


def print_evaluator(
    rows: list[dict[str, Any]], batch: dict[str, Any], misses: list[str], failures: list[str]
) -> None:
    print(
        "(a) error-independent evaluator, N = 3 binary: ntqr "
        "ErrorIndependentEvaluation(TrioVoteCounts(counts))"
        " vs exact_solution(counts) (both exact points, every failure mode, decoding), per call;"
    )
    print(
        "    not gated: the full Evaluation, evaluate(Sketch.from_counts(counts)) (adds the sketch,"
        " the exact partition by true label and the result objects), and evaluate_counts(counts)"
    )
    for row in rows:
        if row.get("full") is not None:
            print(
                f"    {row['case']:<28} full evaluation {seconds_text(row['full']):>10} "
                f"{ratio_text(row['peer'], row['full']):>9} (not gated)"
            )
    print(
        f"    target: >= {NTQR_TARGET:g}x on ntqr's own examples; ntqr best of its calls, first call (SymPy "
        "caches cold) in brackets; both points compared"
    )
    print(
        f"    {'case':<28} {'Q':>8} {'ntqr':>20} {'evalgebra':>10} {'speed-up':>9} {'':<12} "
        f"{'counts only':>18} {'agreement':<16} {'our alarms'}"
    )
    for row in rows:
        ratio = None if row["ours"] is None else row["peer"] / row["ours"]
        mark = verdict(ratio, NTQR_TARGET, row["gated"])
        if mark == "MISSES":
            misses.append(f"evaluator: {row['case']}")
        if not row["agrees"]:
            failures.append(f"evaluator: {row['case']}: {row['agreement']}")
        worst = "" if row.get("worst") is None else f" ({row['worst']:.1e})"
        peer = f"{seconds_text(row['peer'])} [{seconds_text(row['peer_first'])}]"
        counts_only = (
            "-"
            if row["counts_only"] is None
            else (f"{seconds_text(row['counts_only'])} {ratio_text(row['peer'], row['counts_only'])}")
        )
        print(
            f"    {row['case']:<28} {row['Q']:>8} {peer:>20} {seconds_text(row['ours']):>10} "
            f"{ratio_text(row['peer'], row['ours']):>9} {mark:<12} {counts_only:>18} "
            f"{row['agreement'] + worst:<16} {row.get('alarms', '')}"
        )
    print(
        f"    {batch['case']} ({batch['sketches']} sketches, one ntqr pass as its tutorial does): "
        f"ntqr {seconds_text(batch['peer'])}"
    )
    if batch["many"] is not None:
        ratio = batch["peer"] / batch["many"]
        mark = verdict(ratio, NTQR_TARGET, True)
        if mark == "MISSES":
            misses.append("evaluator: batch (evaluate_batch)")
        if not batch["agrees"]:
            failures.append(f"evaluator batch: evaluate_batch differs from ntqr by {batch['worst']:.2e}")
        print(
            f"      evaluate_batch (vectorised, float) {seconds_text(batch['many']):>10}  "
            f"{ratio_text(batch['peer'], batch['many']):>9} {mark:<8} max |diff| {batch['worst']:.1e}"
        )
    if batch["loop"] is not None:
        print(
            f"      evaluate loop (exact)              {seconds_text(batch['loop']):>10}  "
            f"{ratio_text(batch['peer'], batch['loop']):>9} (not gated)"
        )
    if batch["note"]:
        print(f"      {batch['note']}")


def print_alarm(rows: list[dict[str, Any]], note: str, misses: list[str], failures: list[str]) -> None:
    print(
        "(b) logical alarm, binary pair, every member right on more than half the items of each label: "
        "ntqr SingleClassifierAxiomsAlarm(...).are_misaligned vs logical_alarm(sketch, SafetySpec('1/2')), "
        "per call"
    )
    print(
        f"    target: >= {NTQR_TARGET:g}x on ntqr's own examples (scaled copies not gated); feasible Q_a: "
        "where the pair can meet the specification (ntqr counts a label with no item as met)"
    )
    print(
        f"    {'case':<34} {'Q':>4} {'responses (R_a,R_b)':<20} {'ntqr':>17} {'feasible':<9} "
        f"{'evalgebra':>17} {'feasible':<9} {'speed-up':>9}"
    )
    for row in rows:
        ratio = None if row["ours"] is None else row["peer"] / row["ours"]
        mark = verdict(ratio, NTQR_TARGET, row["gated"])
        if mark == "MISSES":
            misses.append(f"alarm: {row['case']}")
        if not row["agrees"]:
            failures.append(
                f"alarm: {row['case']}: ntqr fires={row['peer_fired']}, evalgebra fires={row['ours_fired']}"
            )
        responses = " ".join(f"({a},{b})" for a, b in row["responses"])
        peer = f"{'fires' if row['peer_fired'] else 'quiet'} {seconds_text(row['peer'])}"
        ours = "-"
        if row["ours"] is not None:
            ours = f"{'fires' if row['ours_fired'] else 'quiet'} {seconds_text(row['ours'])}"
        print(
            f"    {row['case']:<34} {row['Q']:>4} {responses:<20} {peer:>17} {row['peer_feasible']:<9} "
            f"{ours:>17} {row['ours_feasible']:<9} {ratio_text(row['peer'], row['ours']):>9} {mark}"
        )
    if note:
        print(f"    evalgebra: {note}")


def print_ds(rows: list[dict[str, Any]], misses: list[str]) -> None:
    print(f"(c) DawidSkene (crowd-kit) on the {DATASET} items vs sketching them + evaluate")
    print(
        f"    target: >= {DS_TARGET:g}x against the converged run, with a mean absolute error at most "
        f"DawidSkene's (+{DS_ACCURACY_SLACK:g}); MAE / max over P_a and the six accuracies"
    )
    print(f"    {'method':<44} {'iterations':>16} {'seconds':>10} {'P_a':>8} {'MAE':>9} {'max err':>9}")
    ours = next((r for r in rows if "ours" in r), None)
    for row in rows:
        values = row.get("values")
        pa = "-" if not values else f"{values[0]:.5f}"
        mae = "-" if "mae" not in row else f"{row['mae']:.2e}"
        worst = "-" if "max" not in row else f"{row['max']:.2e}"
        iterations = ""
        if "iterations" in row:
            iterations = f"{row['iterations']}" + (" (cap)" if not row["converged"] else "")
            iterations += f" tol {row['tol']:g}"
        seconds = row.get("peer", row.get("ours"))
        print(
            f"    {row['method']:<44} {iterations:>16} {seconds_text(seconds):>10} {pa:>8} {mae:>9} "
            f"{worst:>9}" + (f"  {row['note']}" if row.get("note") else "")
        )
    for row in rows:
        if "peer" not in row:
            continue
        if ours is None or "ours" not in ours:
            print(f"    vs {row['method']}: evalgebra not available yet")
            continue
        ratio = row["peer"] / ours["ours"]
        fast = verdict(ratio, DS_TARGET, row["gated"])
        accurate = "mae?"
        if "mae" in ours:
            accurate = (
                "same or better accuracy"
                if ours["mae"] <= row["mae"] + DS_ACCURACY_SLACK
                else "WORSE accuracy"
            )
            gap = max(abs(a - b) for a, b in zip(ours["values"], row["values"]))
            accurate += f", max |DawidSkene - evalgebra| {gap:.1e}"
        if row["gated"] and (fast == "MISSES" or accurate.startswith("WORSE")):
            misses.append(f"DawidSkene: {row['method']}")
        print(
            f"    vs {row['method']:<41} speed-up {ratio_text(row['peer'], ours['ours']):>9} {fast:<12} "
            f"{accurate}"
        )
    if ours is not None and "alarms" in ours:
        print(f"    evalgebra's alarms on these items: {ours['alarms']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=5, help="timing repeats (ntqr calls; batches of our calls)"
    )
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds after which ntqr calls stop repeating"
    )
    parser.add_argument("--alarm-scales", default="1,2", help="ntqr's alarm examples scaled by these factors")
    parser.add_argument("--ds-max-iter", type=int, default=100_000)
    parser.add_argument(
        "--ds-tol", type=float, default=1e-10, help="DawidSkene convergence: ELBO gain per answer"
    )
    parser.add_argument(
        "--skip-ds", action="store_true", help="skip DawidSkene (its converged run takes minutes)"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be positive")

    if not peer_python().exists():
        print(
            f"bench_peers: skipped: no peer environment at {PEER_VENV.relative_to(HERE.parent)}; "
            "run `make bench-peers` to create it (ntqr and crowd-kit, pinned) and run this benchmark"
        )
        return 0

    ours = load_ours()
    acs_counts = datasets.load(DATASET).unlabelled().count_vector().tolist()
    print(
        f"bench_peers: evalgebra {evalgebra.__version__} against its peers, measured in the same run "
        f"(repeat {args.repeat}); the peers run in {PEER_VENV.relative_to(HERE.parent)}"
    )
    print("running the peers (DawidSkene to convergence takes minutes) ...", flush=True)
    peers = run_peers(args, acs_counts)
    versions = peers["versions"]
    pins = pinned_versions()
    drift = [
        f"{p} {versions[p]} (pinned {pins[p]})"
        for p in ("ntqr", "crowd-kit")
        if versions.get(p) != pins.get(p)
    ]
    print(
        "peers: "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
        + (f"; NOT THE PINNED VERSIONS: {'; '.join(drift)}" if drift else "")
    )
    for name in ("evaluate", "evaluate_batch", "evaluate_counts", "logical_alarm"):
        reason = missing(ours, name)
        if reason:
            print(f"evalgebra {name}: {reason}")
    print()

    misses: list[str] = []
    failures: list[str] = []
    print_evaluator(
        evaluator_rows(peers, ours, args.repeat), batch_row(peers, ours, args.repeat), misses, failures
    )
    print()
    rows, note = alarm_rows(peers, ours)
    print_alarm(rows, note, misses, failures)
    print()
    if args.skip_ds:
        print("(c) DawidSkene: skipped (--skip-ds)")
    else:
        print_ds(ds_rows(peers, ours, args.repeat), misses)
    print()
    print("targets: " + ("all met" if not misses else "MISSED by " + "; ".join(misses)))
    if failures:
        print("RESULTS DISAGREE: " + "; ".join(failures))
        return 1
    return 1 if misses and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
