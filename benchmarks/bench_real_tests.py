r"""Benchmark: ``evaluate()`` on real and sampled tests against converged Dawid-Skene, same run.

The issue's targets ("Real tests: the best evaluation on the model"), per test:

* per-label accuracy MAE (mean over judges and labels of ``|estimate - truth|``, the truth
  being the sample statistics of the held-out answer key) **no worse than the best peer**;
* **at least 20x faster** than the converged runs of the peers;
* **no estimate outside [0, 1]** (every prevalence and response rate of the chosen point).

Peers, run in the peer environment only (``benchmarks/.peers-venv``, ``make bench-peers``;
``benchmarks/peers/run_ds_peers.py`` prints their JSON): crowd-kit's ``DawidSkene`` at its
defaults and to convergence, judgepanel's ``fit_dawid_skene`` at its defaults and to
convergence. evalgebra's side, timed here: ``Sketch.from_decisions`` on the in-memory table,
then ``evaluate(sketch)`` (the exact points, their alarms and the fitted point; the chosen one
scored). The peers' tables are built outside their timing.

Tests:

``acs_employment``      the bundled ACS items: 3 binary classifiers, 20,000 people
``bigbench_mistake``    the bundled BIG-Bench-Mistake table: 3 LLM graders, 281 items
``uci_adult k``         the first ``--uci`` UCI Adult trios ntqr ships (3 binary, ~22k items)
``medqa``               ntqr's medQA table: 4 LLMs, 5 answer labels, 300 questions, a few
                        missing answers (``N``: evalgebra counts them as an abstention, the
                        peers as a missing label)
``sim judges s``        sampled tests of 4 judges, 5 labels, 300 items (seed ``s``; a few
                        missing answers), each answer drawn independently given the truth
``correlated ...``      sampled tests with correlated judges: :data:`CORRELATED_CASES` (rows
                        added with the correlated structures; none yet)

Crowd-kit converged on the ~20,000-item tests takes minutes (its iterations are per item), so
it runs there only with ``--full``; the table says ``-`` otherwise. A converged run that stops
at its cap on iterations is marked ``(cap)``: its time is then a lower bound.

Usage::

    python benchmarks/bench_real_tests.py [--uci 2] [--sim 3] [--full] [--strict]
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from evalgebra import Sketch, datasets, evaluate
from evalgebra.data.patterns import decode

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".peers-venv"
PEER_RUNNER = HERE / "peers" / "run_ds_peers.py"

SPEED_TARGET = 20.0
MAE_SLACK = 1e-4  # "no worse": our MAE at most the best peer's plus this (rounding of converged runs)


@dataclass(frozen=True)
class Case:
    """One test: the judges' answers (label names; ``None`` for a missing answer), the truth."""

    name: str
    answers: pd.DataFrame
    truth: pd.Series
    labels: tuple[str, ...]
    abstain: tuple[str, ...] = ()  # answers evalgebra counts as abstentions (the peers: missing)
    big: bool = False  # ~20,000 items: crowd-kit converged only with --full
    structure: str | None = None  # evaluate(sketch, structure=...): "auto" for the correlated rows


# -- the tests ----------------------------------------------------------------------------------
def sketch_items(sketch: Sketch) -> tuple[pd.DataFrame, pd.Series]:
    """A labelled sketch as items (one row per counted item, in pattern order)."""
    _, truth, code, count = sketch.table()
    answers = decode(code, sketch.n_classifiers, sketch.n_responses)
    names = np.array(sketch.responses, dtype=object)
    rows = np.repeat(answers, count.astype(np.int64), axis=0)
    frame = pd.DataFrame(names[rows], columns=list(sketch.classifiers))
    labels = np.array(sketch.labels, dtype=object)
    return frame, pd.Series(labels[np.repeat(truth, count.astype(np.int64))], name="truth")


def bundled_cases() -> list[Case]:
    table = pd.read_csv(datasets.items_csv("acs_employment"), dtype=str)
    cases = [Case("acs_employment", table[["c1", "c2", "c3"]], table["truth"], ("a", "b"), big=True)]
    frame, truth = sketch_items(datasets.load("bigbench_mistake"))
    cases.append(Case("bigbench_mistake", frame, truth, ("a", "b")))
    return cases


def peer_site_packages() -> Path | None:
    found = sorted(PEER_VENV.glob("lib/python3*/site-packages"))
    return found[0] if found else None


def uci_cases(count: int) -> list[Case]:
    """The first ``count`` UCI Adult trios of ntqr's data module (read as text: ntqr is not imported)."""
    site = peer_site_packages()
    source = site / "ntqr" / "r2" / "uci_adult_20240415.py" if site else None
    if count <= 0 or source is None or not source.exists():
        return []
    tree = ast.parse(source.read_text())
    value = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "data_sketches" for t in node.targets)
    )
    cases = []
    for k, by_label in enumerate(ast.literal_eval(value)[:count]):
        rows, truth = [], []
        for label, counts in sorted(by_label.items()):
            for pattern, n in sorted(counts.items()):
                rows += [list(pattern)] * n
                truth += [label] * n
        frame = pd.DataFrame(rows, columns=["c0", "c1", "c2"])
        cases.append(Case(f"uci_adult {k}", frame, pd.Series(truth), ("a", "b"), big=True))
    return cases


def medqa_case() -> list[Case]:
    site = peer_site_packages()
    source = site / "ntqr" / "notebooks" / "medQA4LLMsQ300.csv" if site else None
    if source is None or not source.exists():
        return []
    table = pd.read_csv(source, dtype=str)
    judges = [c for c in table.columns if c != "gt"]
    return [Case("medqa", table[judges], table["gt"], tuple("ABCDE"), abstain=("N",))]


def simulated_judges(seed: int, n_items: int = 300, n_judges: int = 4, n_labels: int = 5) -> Case:
    """A sampled test: prevalences ~ Dirichlet(3), accuracies U(0.55, 0.9), wrong answers uniform,
    about 1% of answers missing; every answer drawn independently given the truth."""
    rng = np.random.default_rng(seed)
    labels = tuple(chr(ord("A") + k) for k in range(n_labels))
    prevalence = rng.dirichlet(np.full(n_labels, 3.0))
    accuracy = rng.uniform(0.55, 0.9, size=(n_judges, n_labels))
    truth = rng.choice(n_labels, size=n_items, p=prevalence)
    answers = np.empty((n_items, n_judges), dtype=object)
    for i in range(n_judges):
        right = rng.random(n_items) < accuracy[i, truth]
        wrong = (truth + rng.integers(1, n_labels, size=n_items)) % n_labels
        answers[:, i] = np.array(labels, dtype=object)[np.where(right, truth, wrong)]
        answers[rng.random(n_items) < 0.01, i] = "N"
    frame = pd.DataFrame(answers, columns=[f"judge{i}" for i in range(n_judges)])
    return Case(f"sim judges {seed}", frame, pd.Series(np.array(labels, dtype=object)[truth]), labels, ("N",))


#: Sampled tests with correlated judges (the correlated structures' rows): functions of no
#: argument returning a :class:`Case` (with ``structure="auto"``, or the structure to assume).
#: None yet: they come with the correlated structures' fit.
CORRELATED_CASES: list[Callable[[], Case]] = []


# -- scoring ------------------------------------------------------------------------------------
def truth_statistics(case: Case) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Prevalence and per-label accuracy of every judge on the held-out key (abstentions: not right)."""
    truth = case.truth.to_numpy()
    prevalence = {t: float(np.mean(truth == t)) for t in case.labels}
    accuracy = {
        j: {
            t: float(np.mean(case.answers[j].to_numpy()[truth == t] == t))
            for t in case.labels
            if prevalence[t]
        }
        for j in case.answers.columns
    }
    return prevalence, accuracy


def score(case: Case, prevalence: dict[str, Any], accuracy: dict[str, dict[str, Any]]) -> dict[str, Any]:
    true_prevalence, true_accuracy = truth_statistics(case)
    errors = [
        abs(float(accuracy[j][t]) - v) if accuracy[j].get(t) is not None else 1.0
        for j, row in true_accuracy.items()
        for t, v in row.items()
    ]
    values = [*prevalence.values(), *(v for row in accuracy.values() for v in row.values())]
    floats = [float(v) for v in values if v is not None]
    return {
        "mae": float(np.mean(errors)),
        "prevalence_mae": float(np.mean([abs(float(prevalence[t]) - v) for t, v in true_prevalence.items()])),
        "low": min(floats),
        "high": max(floats),
    }


def run_ours(case: Case, repeat: int) -> dict[str, Any]:
    """Sketch and evaluate, best of ``repeat`` (the first call is also the one scored)."""
    best, result = float("inf"), None
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        sketch = Sketch.from_decisions(
            case.answers, labels=list(case.labels), abstain=list(case.abstain) or None
        )
        result = evaluate(sketch) if case.structure is None else evaluate(sketch, structure=case.structure)
        best = min(best, time.perf_counter() - start)
    assert result is not None
    point = result.point
    if point is None:
        return {"method": "evalgebra", "seconds": best, "verdict": result.verdict, "mae": None}
    rows = point.response_rows()
    values = [v for r in rows.values() for row in r.values() for v in row.values()]
    out = {
        "method": "evalgebra",
        "seconds": best,
        "verdict": result.verdict,
        **score(case, dict(point.prevalence), {j: dict(point.accuracy[j]) for j in case.answers.columns}),
    }
    floats = [float(v) for v in values if v is not None]
    out["low"], out["high"] = min(out["low"], *floats), max(out["high"], *floats)
    return out


# -- the run ------------------------------------------------------------------------------------
def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.machine()}"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{system}, {cpu}, {os.cpu_count()} cores, load average {load}, Python {platform.python_version()}"


def run_peers(cases: list[Case], full: bool) -> dict[str, Any] | None:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print(f"no peer environment at {PEER_VENV}: make it with `make bench-peers`; peers skipped")
        return None
    with tempfile.TemporaryDirectory() as folder:
        listing = []
        for k, case in enumerate(cases):
            path = Path(folder) / f"case{k}.csv"
            table = case.answers.where(~case.answers.isin(list(case.abstain)), None)
            table.to_csv(path, index=False)
            listing.append({"name": case.name, "items": str(path), "labels": list(case.labels)})
        cases_json = Path(folder) / "cases.json"
        cases_json.write_text(json.dumps(listing))
        skip = [] if full else [c.name for c in cases if c.big]
        command = [str(python), str(PEER_RUNNER), str(cases_json), "--skip-crowdkit-converged", *skip]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr[-3000:])
        raise SystemExit(f"the peer runner failed (exit {done.returncode})")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--uci", type=int, default=2, help="UCI Adult trios to run (ntqr's first ones)")
    parser.add_argument("--sim", type=int, default=3, help="sampled 4-judge, 5-label tests (seeds 0..)")
    parser.add_argument("--repeat", type=int, default=3, help="evalgebra's calls per test (best taken)")
    parser.add_argument(
        "--full", action="store_true", help="also crowd-kit converged on the ~20,000-item tests"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    print(f"bench_real_tests  {datetime.datetime.now().isoformat(timespec='seconds')}  {machine()}")
    cases = [
        *bundled_cases(),
        *uci_cases(args.uci),
        *medqa_case(),
        *(simulated_judges(seed) for seed in range(args.sim)),
        *(make() for make in CORRELATED_CASES),
    ]
    peers = run_peers(cases, args.full)
    if peers is not None:
        print(
            f"peers: {', '.join(f'{p} {v}' for p, v in peers['versions'].items())} (Python {peers['python']})"
        )
    missed = []
    columns = ("acc MAE", "prev MAE", "range", "seconds", "peer/ours")
    widths = (8, 8, 15, 9, 9)
    header = f"{'test':<18} {'method':<24} " + " ".join(f"{c:>{w}}" for c, w in zip(columns, widths))
    print(header)
    print("-" * len(header))
    for case in cases:
        ours = run_ours(case, args.repeat)
        rows = []
        for run in (peers or {"cases": {}})["cases"].get(case.name, []):
            rows.append({**run, **score(case, run["prevalence"], run["accuracy"])})
        for row in [ours, *rows]:
            mae = "-" if row.get("mae") is None else f"{row['mae']:.4f}"
            prev = "-" if row.get("prevalence_mae") is None else f"{row['prevalence_mae']:.4f}"
            span = "-" if row.get("low") is None else f"[{row['low']:.3f}, {row['high']:.3f}]"
            ratio = "" if row is ours else f"{row['seconds'] / ours['seconds']:,.0f}x"
            name = row["method"] + (f" ({row['verdict']})" if row is ours else "")
            if row is not ours and "converged" in row["method"] and not row["converged"]:
                name += " (cap)"
            print(
                f"{case.name:<18} {name:<22} {mae:>8} {prev:>8} {span:>13} {row['seconds']:>9.3f} {ratio:>9}"
            )
        if ours.get("mae") is None:
            missed.append(f"{case.name}: no estimate")
            continue
        if not (0.0 <= ours["low"] and ours["high"] <= 1.0):
            missed.append(f"{case.name}: an estimate outside [0, 1]")
        converged = [r for r in rows if "converged" in r["method"]]
        if converged:
            best = min(r["mae"] for r in converged)
            if ours["mae"] > best + MAE_SLACK:
                missed.append(f"{case.name}: accuracy MAE {ours['mae']:.4f} > best converged peer {best:.4f}")
            fastest = min(r["seconds"] for r in converged)
            if fastest / ours["seconds"] < SPEED_TARGET:
                missed.append(
                    f"{case.name}: {fastest / ours['seconds']:.1f}x faster than the fastest converged peer "
                    f"(target {SPEED_TARGET:g}x)"
                )
    print()
    print(
        "targets: accuracy MAE <= the best converged peer's, >= 20x faster than every converged peer, "
        "every estimate in [0, 1]"
    )
    print("missed: " + ("; ".join(missed) if missed else "none"))
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
