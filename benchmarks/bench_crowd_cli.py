r"""Benchmark: ``evalgebra crowd`` against crowd-kit's DawidSkene and judgepanel, in the same run.

On every crowd below, with its truth known, it prints per method the number of tasks labelled
correctly (and the difference to crowd-kit's ``DawidSkene`` with its defaults), the
worker-confusion error (the mean over workers, true labels and answers of ``|estimated
P_{w,r|l} - realised P_{w,r|l}|``, the realised rate from the answer key), and CPU seconds
(best of ``--repeat``). evalgebra's labels and rows are read from the files ``evalgebra crowd
ANSWERS -o labels.csv --workers workers.csv`` writes (run as a subprocess: its wall time,
start-up included, is shown too); its CPU seconds are those of ``crowd_fit`` in this process.
Then the same with a tenth of the tasks given as gold (``--gold``; crowd-kit's
``true_labels``; judgepanel takes none): correct labels on the *other* tasks.

Crowds (the sets used, all offline):

* generated, Dawid-Skene simulated: ``sparse_crowd`` seeds 0-4 (3 labels, 40 workers of varied
  quality, spammers among them, 3,000 tasks, 5 answers each) and seeds 0-2 with 15% hard tasks
  (a decoy label every worker gives half the time: correlated errors); ``llm_judges`` (five
  judges, pass/fail, two abstaining: ``unsure``, and a missing verdict written ``unsure`` too);
* real, bundled: ``bigbench_mistake`` (three LLM graders, 281 items) and ``acs_employment``
  (three classifiers, 20,000 people), as crowds by ``sketch_crowd``;
* real, shipped by the ntqr package in the peer environment: ``medQA4LLMsQ300.csv`` (four LLMs
  answering 300 MedQA questions, options A-E, ``N`` for no answer), when present.

Crowds with an abstention (``unsure``, ``N``) are given to every method as they are (the
abstention a label like the others), and to evalgebra once more with ``--abstain``.

Targets (issue 25): evalgebra's per-task correct count at least crowd-kit's (defaults) less
1.5 on every real crowd; with gold, the other tasks never below the run without gold on the
generated crowds and at most half a point below on the real ones. ``--strict`` makes a missed
target exit 1.

Usage::

    python benchmarks/bench_crowd_cli.py [--repeat 2] [--strict]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evalgebra.crowd.fit import crowd_fit
from evalgebra.datasets.crowd import CrowdData, sketch_crowd, sparse_crowd
from evalgebra.datasets.judges import llm_judges

ROOT = Path(__file__).resolve().parent
PEERS = ROOT / ".peers-venv" / "bin" / "python"
REAL_SLACK_TASKS = 1.5
GOLD_REAL_SLACK = 0.005


class Crowd:
    """A crowd with its truth: ``(task, worker, label)`` rows, ``{task: label}``, an abstention."""

    def __init__(
        self, name: str, kind: str, rows: list[tuple[str, str, str]], truth: dict[str, str], abstain=None
    ):
        self.name, self.kind, self.rows, self.truth, self.abstain = name, kind, rows, truth, abstain
        tasks = list(dict.fromkeys(t for t, _, _ in rows))
        self.gold = {t: truth[t] for t in tasks[::10]}


def _from_data(name: str, kind: str, data: CrowdData) -> Crowd:
    truth = dict(zip(data.tasks, np.array(data.labels, dtype=object)[data.truth].tolist()))
    return Crowd(name, kind, data.records(), truth)


def _judges() -> Crowd:
    data = llm_judges(n_items=3000, seed=0)
    rows = [
        (f"i{k:04d}", judge, "unsure" if verdict is None else str(verdict))
        for k, item in enumerate(data.verdicts.tolist())
        for judge, verdict in zip(data.judges, item)
    ]
    truth = {f"i{k:04d}": str(x) for k, x in enumerate(data.truth.tolist())}
    return Crowd("llm_judges (abstentions)", "generated", rows, truth, "unsure")


def _medqa() -> Crowd | None:
    if not PEERS.exists():
        return None
    found = subprocess.run(
        [str(PEERS), "-c", "import ntqr, os; print(os.path.dirname(ntqr.__file__))"],
        capture_output=True,
        text=True,
        check=False,
    )
    path = Path(found.stdout.strip()) / "notebooks" / "medQA4LLMsQ300.csv"
    if found.returncode != 0 or not path.exists():
        return None
    with open(path, newline="") as handle:
        records = list(csv.DictReader(handle))
    judges = [k for k in records[0] if k != "gt"]
    rows = [(f"q{k:03d}", j, r[j]) for k, r in enumerate(records) for j in judges]
    truth = {f"q{k:03d}": r["gt"] for k, r in enumerate(records)}
    return Crowd("medQA (ntqr), 4 LLMs", "real", rows, truth, "N")


def crowds() -> list[Crowd]:
    out = [_from_data(f"sparse_crowd seed {s}", "generated", sparse_crowd(seed=s)) for s in range(5)]
    out += [
        _from_data(f"sparse_crowd seed {s}, 15% hard", "generated", sparse_crowd(seed=s, hard=0.15))
        for s in range(3)
    ]
    out.append(_judges())
    out += [_from_data(n, "real", sketch_crowd(n)) for n in ("bigbench_mistake", "acs_employment")]
    medqa = _medqa()
    if medqa is not None:
        out.append(medqa)
    return out


def realised(crowd: Crowd) -> dict[str, dict[str, dict[str, float]]]:
    counts: dict[str, dict[str, dict[str, float]]] = {}
    for task, worker, label in crowd.rows:
        row = counts.setdefault(worker, {}).setdefault(crowd.truth[task], {})
        row[label] = row.get(label, 0.0) + 1.0
    for rows in counts.values():
        for row in rows.values():
            total = sum(row.values())
            for answer in row:
                row[answer] /= total
    return counts


def scores(crowd: Crowd, labels: dict[str, str], rows: dict | None, skip=()) -> tuple[int, int, float | None]:
    tasks = [t for t in crowd.truth if t not in skip]
    correct = sum(labels.get(t) == crowd.truth[t] for t in tasks)
    if rows is None:
        return correct, len(tasks), None
    real = realised(crowd)
    answers = sorted({r for _, _, r in crowd.rows})
    errors = [
        abs(rows.get(w, {}).get(truth, {}).get(a, 0.0) - real[w][truth].get(a, 0.0))
        for w in real
        for truth in real[w]
        for a in answers
    ]
    return correct, len(tasks), float(np.mean(errors))


def write(crowd: Crowd, folder: Path) -> tuple[Path, Path]:
    answers, gold = folder / "answers.csv", folder / "gold.csv"
    with open(answers, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["task", "worker", "label"])
        writer.writerows(crowd.rows)
    with open(gold, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["task", "label"])
        writer.writerows(crowd.gold.items())
    return answers, gold


def cli(answers: Path, folder: Path, options: Sequence[str]) -> tuple[dict, dict, float]:
    labels, workers = folder / "labels.csv", folder / "workers.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT.parent)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "evalgebra", "crowd", str(answers), "-o", str(labels),
         "--workers", str(workers), *options],
        check=True, capture_output=True, env=env,
    )  # fmt: skip
    wall = time.perf_counter() - start
    with open(labels, newline="") as handle:
        got = {r["task"]: r["label"] for r in csv.DictReader(handle)}
    rows: dict[str, dict[str, dict[str, float]]] = {}
    with open(workers, newline="") as handle:
        for r in csv.DictReader(handle):
            rows.setdefault(r["worker"], {})[r["truth"]] = {
                k[2:]: float(v) for k, v in r.items() if k.startswith("p_")
            }
    return got, rows, wall


def cpu(crowd: Crowd, repeat: int, **options: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        crowd_fit(crowd.rows, **options)
        best = min(best, time.process_time() - start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    sets = crowds()
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as root:
        specs = []
        for k, crowd in enumerate(sets):
            folder = Path(root) / f"c{k}"
            folder.mkdir()
            answers, gold = write(crowd, folder)
            specs.append(f"{answers}:{gold}")
        peer = None
        if PEERS.exists():
            done = subprocess.run(
                [str(PEERS), str(ROOT / "peers" / "run_crowd_cli_peers.py"), "--crowd", *specs,
                 "--repeat", str(args.repeat)],
                stdout=subprocess.PIPE, text=True, check=False,
            )  # fmt: skip
            peer = json.loads(done.stdout) if done.returncode == 0 else None
        if peer is None:
            print(
                f"(peer environment {PEERS.parent.parent} missing or failed: `make bench-peers`; ours only)"
            )
        else:
            print("peers: " + ", ".join(f"{k} {v}" for k, v in peer["versions"].items()))
        print(
            f"{'crowd':<34} {'method':<44} {'correct':>13} {'vs ck':>6} {'worker err':>10} {'CPU s':>7} "
            f"{'CLI s':>6}"
        )
        gold_rows = []
        for k, crowd in enumerate(sets):
            folder = Path(root) / f"c{k}"
            answers, gold = folder / "answers.csv", folder / "gold.csv"
            lines: list[tuple[str, int, int, float | None, float, float | None]] = []
            models = {} if peer is None else {m["name"]: m for m in peer["runs"][k]["models"]}
            for name, model in models.items():
                if name.endswith("gold"):
                    continue
                lines.append((name, *scores(crowd, model["labels"], model["rows"]), model["seconds"], None))
            variants = [("evalgebra crowd", [], {})]
            if crowd.abstain:
                variants.append(
                    (
                        f"evalgebra crowd --abstain {crowd.abstain}",
                        ["--abstain", crowd.abstain],
                        {"abstain": [crowd.abstain]},
                    )
                )
            for name, options, kwargs in variants:
                labels, rows, wall = cli(answers, folder, options)
                lines.append((name, *scores(crowd, labels, rows), cpu(crowd, args.repeat, **kwargs), wall))
                given, _, _ = cli(answers, folder, [*options, "--gold", str(gold)])
                with_gold = scores(crowd, given, None, crowd.gold)[0]
                without = scores(crowd, labels, None, crowd.gold)[0]
                gold_rows.append((crowd, name, without, with_gold, len(crowd.truth) - len(crowd.gold)))
            ck_name = "crowd-kit DawidSkene (defaults)"
            if ck_name in models:
                ck_plain = scores(crowd, models[ck_name]["labels"], None, crowd.gold)[0]
                ck_gold = scores(crowd, models[ck_name + ", gold"]["labels"], None, crowd.gold)[0]
                gold_rows.append((crowd, ck_name, ck_plain, ck_gold, len(crowd.truth) - len(crowd.gold)))
            base = next((line[1] for line in lines if line[0] == ck_name), None)
            for name, correct, total, err, seconds, wall in lines:
                diff = "" if base is None else f"{correct - base:+d}"
                print(
                    f"{crowd.name:<34} {name:<44} {f'{correct}/{total}':>13} {diff:>6} "
                    f"{'-' if err is None else f'{err:.4f}':>10} {seconds:>7.3f} "
                    f"{'' if wall is None else f'{wall:.2f}':>6}"
                )
                if crowd.kind == "real" and base is not None and name == "evalgebra crowd":
                    best = max(c for n, c, *_ in lines if n.startswith("evalgebra"))
                    if best < base - REAL_SLACK_TASKS:
                        misses.append(f"{crowd.name}: {best} correct, crowd-kit {base}")
    print("\nwith a tenth of the tasks as gold: correct on the other tasks")
    print(f"{'crowd':<34} {'method':<44} {'no gold':>8} {'gold':>8} {'change':>7}")
    for crowd, name, without, with_gold, n in gold_rows:
        print(f"{crowd.name:<34} {name:<44} {without:>8} {with_gold:>8} {with_gold - without:>+7d}   of {n}")
        if name.startswith("evalgebra"):
            if crowd.kind == "generated" and with_gold < without:
                misses.append(f"gold, {crowd.name} ({name}): {with_gold} < {without} without gold")
            if crowd.kind == "real" and with_gold < without - GOLD_REAL_SLACK * n:
                misses.append(f"gold, {crowd.name} ({name}): more than half a point below")
    print("targets: " + ("met" if not misses else "MISSED"))
    for miss in misses:
        print(f"  missed: {miss}")
    return 1 if (misses and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
