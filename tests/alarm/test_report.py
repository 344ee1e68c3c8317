"""Tests of evalgebra.alarm.report: the verdicts as a JSON document, plain text and HTML."""

from __future__ import annotations

import json

from evalgebra import datasets
from evalgebra.alarm.logical import logical_alarm
from evalgebra.alarm.report import ALARM_FORMAT, QUIET_TEXT, AlarmReport, SubsetResult
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch


def test_alarmreport_to_dict_has_exact_format():
    report = logical_alarm(datasets.load("bigbench_mistake"), SafetySpec("1/2", "3/5"))
    data = report.to_dict()
    # the original keys unchanged and first; then which label Q_a counts, the classifiers and
    # the overall verdict (regression: the document did not say which label Q_a counts)
    assert list(data)[:7] == ["format", "Q", "spec", "subsets", "labels", "classifiers", "fires"]
    assert list(data)[7:] == ["undecided", "minimal_firing"]  # added keys come after (issue 12)
    firing = [set(e["classifiers"]) for e in data["subsets"] if e["fires"]]
    assert data["minimal_firing"] == [
        e["classifiers"]
        for e in data["subsets"]
        if e["fires"] and not any(f < set(e["classifiers"]) for f in firing)
    ]
    assert data["minimal_firing"] and data["undecided"] is False
    assert data["labels"] == ["a", "b"]
    assert (
        data["classifiers"] == list(report.classifiers) == list(datasets.load("bigbench_mistake").classifiers)
    )
    assert data["fires"] is report.fires is any(entry["fires"] for entry in data["subsets"])
    assert data["format"] == ALARM_FORMAT == "evalgebra.alarm/1"
    assert data["Q"] == 281
    assert data["spec"] == {"min_accuracy": "1/2", "min_total_accuracy": "3/5", "strict": True}
    for entry in data["subsets"]:
        assert list(entry)[:3] == ["classifiers", "fires", "feasible_Qa"]
        assert entry["verdict"] == ("fires" if entry["fires"] else "quiet")
        assert (entry["witness"] is None) == entry["fires"] and (entry["certificate"] is None) != entry[
            "fires"
        ]
        assert all(isinstance(v, list) and len(v) == 2 for v in entry["feasible_Qa"])
    assert json.loads(report.to_json()) == data


def test_alarmreport_to_dict_names_the_counted_label_and_overall_verdict():
    sketch = Sketch.from_counts(
        {("yes", "no", "no"): 6, ("no", "yes", "yes"): 4}, labels=["yes", "no"], classifiers=["x", "y", "z"]
    )
    data = json.loads(logical_alarm(sketch).to_json())
    assert data["labels"] == ["yes", "no"] and data["classifiers"] == ["x", "y", "z"]
    assert data["fires"] is True
    quiet = json.loads(logical_alarm(Sketch.from_counts({"aaa": 6, "bbb": 4}, labels=["a", "b"])).to_json())
    assert quiet["fires"] is False and not any(entry["fires"] for entry in quiet["subsets"])


# -- display ------------------------------------------------------------------------------------
def test_alarmreport_repr_is_short_and_names_firing_subsets():
    report = logical_alarm(datasets.load("bigbench_mistake"))
    text = repr(report)
    assert text == (
        "AlarmReport(Q=281, accuracy > 1/2 on each label, 7 subsets, fires on 2: "
        "[('mistral_large', 'gpt4_turbo'), ('claude_haiku', 'mistral_large', 'gpt4_turbo')])"
    )
    many = AlarmReport(10, SafetySpec(), tuple(SubsetResult((f"c{i}",), True, ()) for i in range(50)))
    assert len(repr(many)) < 200 and "47 more" in repr(many)
    quiet = logical_alarm(Sketch.from_counts({"aaa": 6, "bbb": 4}, labels=["a", "b"]))
    assert repr(quiet).endswith("7 subsets, quiet)")


def test_alarmreport_summary_says_what_quiet_means():
    report = logical_alarm(datasets.load("bigbench_mistake"))
    text = report.summary()
    lines = text.splitlines()
    assert lines[0] == "Logical alarm on 281 items (Q_a counts items of true label 'a')"
    assert lines[1] == "specification: accuracy > 1/2 on each label"
    assert lines[2].startswith("fires on 2 of 7 subsets: provably at least one of these misses")
    assert lines[3:5] == ["  mistral_large, gpt4_turbo", "  claude_haiku, mistral_large, gpt4_turbo"]
    assert lines[5] == f"quiet on 5 subsets: {QUIET_TEXT}"
    assert "cannot prove a violation" in text and "specification is met" not in text
    assert f"  {'claude_haiku':<27}  feasible Q_a: 12..280" in lines


def test_alarmreport_html_is_compact_and_honest():
    report = logical_alarm(datasets.load("bigbench_mistake"))
    page = report._repr_html_()
    assert page.startswith('<div class="evalgebra">') and "Logical alarm: fires on 2 of 7 subsets" in page
    assert "accuracy &gt; 1/2 on each label" in page
    assert page.count("<tr>") == 1 + 2  # header and one line per firing subset
    assert "<td>mistral_large, gpt4_turbo</td>" in page
    assert "Quiet on 5 subsets (3 of size 1, 2 of size 2)" in page
    assert "these counts cannot prove a violation" in page and "is met" not in page
    quiet = logical_alarm(Sketch.from_counts({"aaa": 6, "bbb": 4}, labels=["a", "b"]))._repr_html_()
    assert "quiet on all 7 subsets" in quiet and "<table" not in quiet


def test_alarmreport_html_escapes_names_and_shortens():
    sketch = Sketch.from_counts(
        {("<y>", "n&o"): 6, ("n&o", "<y>"): 4}, labels=["<y>", "n&o"], classifiers=["<script>", "b&b"]
    )
    page = logical_alarm(sketch)._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;, b&amp;b" in page
    assert "&#x27;&lt;y&gt;&#x27;" in page
    many = AlarmReport(10, SafetySpec(), tuple(SubsetResult((f"c{i}",), True, ()) for i in range(50)))
    assert "… and 30 more" in many._repr_html_() and "... and 30 more" in many.summary()
