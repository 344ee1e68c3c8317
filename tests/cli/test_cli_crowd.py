"""evalgebra crowd: the labels and workers files, gold, JSON lines, messy input, errors in one line."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evalgebra.cli import main
from evalgebra.crowd.fit import crowd_fit
from evalgebra.datasets.crowd import sparse_crowd


@pytest.fixture(scope="module")
def data():
    return sparse_crowd(seed=1, n_tasks=500, n_workers=12, per_task=4)


def _write(path: Path, data, header=("item", "annotator", "answer")) -> Path:
    path.write_text(",".join(header) + "\n" + "".join(f"{t},{w},{r}\n" for t, w, r in data.records()))
    return path


def _table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_crowd_writes_labels_and_workers_whatever_the_columns_are_called(tmp_path, data, capsys):
    answers = _write(tmp_path / "answers.csv", data)
    labels, workers = tmp_path / "labels.csv", tmp_path / "workers.csv"
    options = ["--task", "item", "--worker", "annotator", "--label", "answer"]
    assert main(["crowd", str(answers), *options, "-o", str(labels), "--workers", str(workers)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("Crowd: 500 tasks, 12 workers, 2000 answers") and "converged" in out.out
    rows = _table(labels.read_text())
    assert list(rows[0]) == ["task", "label", "p_a", "p_b", "p_c"] and len(rows) == 500
    fit = crowd_fit(data.records())  # the same fit, from Python
    assert [r["label"] for r in rows] == fit.task_labels()
    assert np.allclose([[float(r[f"p_{x}"]) for x in "abc"] for r in rows], fit.posteriors)
    table = _table(workers.read_text())
    assert list(table[0]) == ["worker", "truth", "tasks", "p_a", "p_b", "p_c", "n_a", "n_b", "n_c"]
    assert len(table) == 12 * 3
    for row in table:  # every row a distribution; its counts add up to its tasks
        assert sum(float(row[f"p_{x}"]) for x in "abc") == pytest.approx(1.0)
        assert sum(float(row[f"n_{x}"]) for x in "abc") == pytest.approx(float(row["tasks"]))
    answered = {w: 0.0 for w in data.workers}
    for row in table:
        answered[row["worker"]] += float(row["tasks"])
    coverage = np.bincount(data.worker, minlength=data.n_workers)
    assert [round(answered[w], 6) for w in data.workers] == coverage.tolist()  # all answers behind rows


def test_crowd_holds_gold_and_says_what_it_ignored_or_added(tmp_path, data, capsys):
    answers = _write(tmp_path / "answers.csv", data, ("task", "worker", "label"))
    truth = {data.tasks[t]: data.labels[data.truth[t]] for t in range(0, data.n_tasks, 10)}
    gold = tmp_path / "gold.csv"
    gold.write_text("task,label\n" + "".join(f"{t},{x}\n" for t, x in truth.items()) + "nowhere,a\nt0001,d\n")
    labels = tmp_path / "labels.csv"
    assert main(["crowd", str(answers), "--gold", str(gold), "-o", str(labels)]) == 0
    err = capsys.readouterr().err
    assert "gold: 1 task(s) not among the answered tasks, ignored (first: 'nowhere')" in err
    assert "gold: label(s) ['d'] no worker answered, added" in err
    rows = {r["task"]: r for r in _table(labels.read_text())}
    assert list(next(iter(rows.values()))) == ["task", "label", "p_a", "p_b", "p_c", "p_d"]
    assert all(rows[t]["label"] == x and float(rows[t][f"p_{x}"]) == 1.0 for t, x in truth.items())
    assert rows["t0001"]["label"] == "d"


def test_crowd_reads_json_lines_with_abstentions_and_writes_to_stdout(tmp_path):
    lines = [
        json.dumps(
            {
                "item": f"q{t}",
                "judge": f"j{j}",
                "verdict": "unsure" if (t + j) % 7 == 0 else "ab"[(t + (j == t % 4)) % 2],
            }
        )
        for t in range(60)
        for j in range(4)
    ]
    log = tmp_path / "judges.jsonl"
    log.write_text("\n".join(lines) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "evalgebra", "crowd", str(log), "--task", "item", "--worker", "judge",
         "--label", "verdict", "--abstain", "unsure", "-o", "-", "--workers", str(tmp_path / "w.csv")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "task,label,p_a,p_b" and len(run.stdout.splitlines()) == 61
    assert "\nCrowd: 60 tasks, 4 workers" in run.stderr  # the summary goes to standard error
    assert run.stderr.startswith("evalgebra: the algebraic start failed: the views' pair tables are singular")
    header = (tmp_path / "w.csv").read_text().splitlines()[0]
    assert header == "worker,truth,tasks,p_a,p_b,p_unsure,n_a,n_b,n_unsure"


def test_crowd_errors_are_one_line_with_what_to_do(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("task,worker,label\nt1,w1,a\nt1,w1,b\nt2,w2,\n")
    for options, message in (
        ([], "missing task, worker or label (first: line 4); drop them"),
        (["--missing", "drop"], "answered more than once (first: worker 'w1' on task 't1', lines 2 and 3)"),
        (["--task", "item"], "no column(s) ['item']"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "evalgebra", "crowd", str(bad), *options],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        assert run.stderr.startswith("evalgebra: error: ") and message in run.stderr


def test_crowd_prints_and_writes_the_panels_agreement(tmp_path, data, capsys):
    from fractions import Fraction

    from evalgebra.crowd.agreement import panel_agreement
    from evalgebra.crowd.table import crowd_table

    answers = _write(tmp_path / "answers.csv", data, ("task", "worker", "label"))
    out = tmp_path / "agreement.json"
    assert main(["crowd", str(answers), "--agreement", str(out)]) == 0
    printed = capsys.readouterr()
    expected = panel_agreement(crowd_table(data.records()))
    assert expected.summary() in printed.out  # 12 workers: 66 pairs, their range
    assert f"wrote {out}: the agreement of 12 workers" in printed.err
    written = json.loads(out.read_text())
    assert written["format"] == "evalgebra.agreement/1"
    assert Fraction(written["krippendorff_alpha"]["exact"]) == expected.alpha
    assert Fraction(written["fleiss_kappa"]["exact"]) == expected.fleiss
    assert written["fleiss_kappa"]["raters"] == 4 and written["fleiss_kappa"]["tasks"] == 500
    assert len(written["cohen_kappa"]) == 66
    assert all(Fraction(p["exact"]) == expected.cohen[tuple(p["workers"])][0] for p in written["cohen_kappa"])


def test_crowd_agreement_counts_abstentions_as_missing(tmp_path, capsys):
    rows = "task,worker,label\n" + "".join(
        f"t{t},w{w},{'unsure' if (t + w) % 7 == 0 else 'ab'[(t + (w == t % 3)) % 2]}\n"
        for t in range(30)
        for w in range(3)
    )
    path = tmp_path / "answers.csv"
    path.write_text(rows)
    assert main(["crowd", str(path), "--abstain", "unsure", "--agreement", "-"]) == 0
    out = capsys.readouterr()
    written = json.loads(out.out)
    abstained = rows.count("unsure")
    assert written["abstentions"] == abstained and written["labels"] == ["a", "b"]
    assert written["krippendorff_alpha"]["values"] == 90 - abstained
    assert f"{abstained} abstention(s) as missing" in out.err  # the summary went to standard error


def test_crowd_refuses_two_files_on_standard_output(tmp_path, data, capsys):
    answers = _write(tmp_path / "answers.csv", data, ("task", "worker", "label"))
    assert main(["crowd", str(answers), "-o", "-", "--agreement", "-"]) == 2
    assert "give one of them a file" in capsys.readouterr().err


def test_crowd_and_alarm_on_judge_preferences_with_abstentions(tmp_path, capsys):
    """The worked example of docs/guide/crowds.md (A / B / tie, abstaining judges), checked by the truth."""
    from collections import Counter
    from fractions import Fraction

    from evalgebra.crowd.agreement import panel_agreement
    from evalgebra.crowd.table import crowd_table
    from evalgebra.datasets.preferences import judge_preferences

    data = judge_preferences(n_items=600, seed=0)
    (tmp_path / "prefs.csv").write_text(data.long())
    (tmp_path / "wide.csv").write_text(data.wide())
    options = ["--task", "item", "--worker", "judge", "--abstain", "unsure"]
    labels, workers, agreed = tmp_path / "labels.csv", tmp_path / "workers.csv", tmp_path / "agreement.json"
    command = ["crowd", str(tmp_path / "prefs.csv"), *options, "-o", str(labels), "--workers", str(workers)]
    assert main([*command, "--agreement", str(agreed)]) == 0
    truth = data.truth.tolist()
    decoded = [row["label"] for row in _table(labels.read_text())]
    assert sum(a == b for a, b in zip(decoded, truth)) >= 0.88 * len(truth)
    # every judge's estimated rows near the realised ones (abstentions a response of their own)
    realised = {
        (judge, ell): Counter(
            "unsure" if v is None else v for v, t in zip(data.verdicts[:, k].tolist(), truth) if t == ell
        )
        for k, judge in enumerate(data.judges)
        for ell in data.labels
    }
    for row in _table(workers.read_text()):
        if row["worker"] == "small_silent":
            continue  # its silences are absent from the long file, not answers
        counts = realised[(row["worker"], row["truth"])]
        for answer in (*data.labels, "unsure"):
            share = counts[answer] / sum(counts.values())
            assert float(row[f"p_{answer}"]) == pytest.approx(share, abs=0.12)
    # the agreement written is that of the answers, abstentions as missing
    expected = panel_agreement(crowd_table(data.records()), abstain=["unsure"])
    written = json.loads(agreed.read_text())
    assert Fraction(written["krippendorff_alpha"]["exact"]) == expected.alpha
    assert written["abstentions"] == sum(v == "unsure" for v in data.verdicts[:, 2].tolist())
    # the alarm: every firing subset holds a judge that truly misses the specification, every quiet
    # one has a witness answer key reproducing the counts under which all its judges meet it
    sketch = tmp_path / "prefs.json"
    assert (
        main(
            ["sketch", str(tmp_path / "wide.csv"), "--ignore", "item", "--abstain", "unsure"]
            + ["--missing", "abstain", "-o", str(sketch)]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["alarm", str(sketch), "--min-accuracy", "7/10", "--verdicts-only", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    index = {judge: k for k, judge in enumerate(data.judges)}
    answers = [["unsure" if v is None else v for v in row] for row in data.verdicts.tolist()]

    def accuracy(judge: str, ell: str) -> Fraction:
        on = [row[index[judge]] for row, t in zip(answers, truth) if t == ell]
        return Fraction(sum(v == ell for v in on), len(on))

    fired = [s["classifiers"] for s in report["subsets"] if s["fires"]]
    assert ["small_unsure", "small_silent"] in fired
    for subset in fired:
        assert any(accuracy(j, ell) <= Fraction(7, 10) for j in subset for ell in data.labels)
    for entry in (s for s in report["subsets"] if not s["fires"]):
        members = entry["classifiers"]
        observed = Counter(tuple(row[index[j]] for j in members) for row in answers)
        key: Counter = Counter()
        for ell, cells in entry["witness"]["by_true_label"].items():
            size = sum(c["count"] for c in cells)
            for c in cells:
                key[tuple(c["decisions"])] += c["count"]
            for m in range(len(members)):
                right = sum(c["count"] for c in cells if c["decisions"][m] == ell)
                assert Fraction(right, size) > Fraction(7, 10)
        assert key == observed
