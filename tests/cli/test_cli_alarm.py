"""``evalgebra alarm``: the exact verdicts in words, the witness file, the exit gates, the help.

Every test runs the real command line (``main``) on a sketch written by the test and reads
back what it printed or wrote.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from fractions import Fraction

import pytest

from evalgebra import datasets
from evalgebra.alarm.report import AlarmReport
from evalgebra.cli import FIRES_LINE, QUIET_LINE, build_parser
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch

#: The issue's trio the pairwise conditions missed: no labelled test lets all three be above 1/3.
TRIO = {"abb": 1, "bab": 1, "bba": 1, "bbb": 3}


def _sketch(tmp_path, counts, labels=("a", "b"), name="sketch.json"):
    path = tmp_path / name
    Sketch.from_counts(counts, labels=list(labels)).write_json(path)
    return path


def _one_error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalgebra: error: "), err
    return lines[0]


def test_alarm_trio_fires_in_words_and_fail_on_fires_exits_1(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/3")
    assert status == 0
    trio = next(line for line in out.splitlines() if line.startswith("  c0, c1, c2"))
    assert "FIRES" in trio and "feasible Q_a: none" in trio
    assert FIRES_LINE in out and QUIET_LINE not in out
    assert "smallest firing subsets: c0, c1, c2" in out
    for flags in (("--fail-on", "fires"), ("--strict",), ("--fail-on", "undecided,fires")):
        assert cli("alarm", path, "--min-accuracy", "1/3", *flags)[0] == 1
    assert cli("alarm", path, "--min-accuracy", "1/3", "--fail-on", "undecided")[0] == 0


def test_alarm_json_carries_verdict_certificate_witness_and_minimal_firing(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/3", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["format"] == "evalgebra.alarm/1"
    assert (
        doc["minimal_firing"] == [["c0", "c1", "c2"]] and doc["undecided"] is False and doc["fires"] is True
    )
    by_members = {tuple(s["classifiers"]): s for s in doc["subsets"]}
    trio = by_members[("c0", "c1", "c2")]
    assert trio["verdict"] == "fires" and trio["certificate"] is not None and trio["witness"] is None
    assert trio["feasible_Qa"] == []
    for members, entry in by_members.items():
        if len(members) < 3:
            assert entry["verdict"] == "quiet" and entry["certificate"] is None
            assert entry["witness"]["classifiers"] == list(members)


def _accuracies(sketch):
    point = evaluation_point(sketch)
    return {(c, label): point.accuracy(c, label) for c in sketch.classifiers for label in sketch.labels}


@pytest.mark.parametrize("labels", [("a", "b"), ("a", "b", "c")])
def test_alarm_witness_is_a_labelled_sketch_meeting_the_spec_exactly(cli, tmp_path, labels):
    counts = {
        "".join(p): 3 + 5 * (len(set(p)) == 1) + (k % 3)
        for k, p in enumerate(itertools.product(labels, repeat=3))
    }
    path = _sketch(tmp_path, counts, labels)
    witness_path = tmp_path / "witness.json"
    status, out, err = cli("alarm", path, "--min-accuracy", "1/3", "--witness", witness_path)
    assert status == 0 and "c0, c1, c2" in out and QUIET_LINE in out
    assert f"wrote {witness_path}" in err
    witness = Sketch.read_json(witness_path)
    original = Sketch.read_json(path)
    assert witness.is_labelled and witness.classifiers == original.classifiers
    # the same counts, an answer key added
    assert witness.unlabelled().count_vector().tolist() == original.count_vector().tolist()
    for (c, label), value in _accuracies(witness).items():
        assert value is not None and value > Fraction(1, 3), (c, label, value)


def test_alarm_witness_of_the_first_subsets_entry(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    witness_path = tmp_path / "pair.json"
    status, _, _ = cli(
        "alarm", path, "--min-accuracy", "1/3", "--subsets", "c2,c0;c0,c1,c2", "--witness", witness_path
    )
    assert status == 0
    witness = Sketch.read_json(witness_path)
    assert list(witness.classifiers) == ["c0", "c2"]
    assert (
        witness.unlabelled().count_vector().tolist()
        == Sketch.read_json(path).marginalise(["c0", "c2"]).count_vector().tolist()
    )
    assert all(v is not None and v > Fraction(1, 3) for v in _accuracies(witness).values())


def test_alarm_witness_of_a_firing_subset_exits_2_with_one_line(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    witness_path = tmp_path / "none.json"
    status, out, err = cli("alarm", path, "--min-accuracy", "1/3", "--witness", witness_path)
    assert status == 2 and FIRES_LINE in out
    assert "FIRES" in _one_error_line(err) and "--subsets" in err
    assert not witness_path.exists()
    status, _, err = cli("alarm", path, "--subsets", "c0,c9", "--witness", witness_path)
    assert status == 2 and "c9" in _one_error_line(err)


def test_alarm_is_quiet_in_words_that_do_not_promise_the_spec(cli):
    status, out, _ = cli(
        "alarm", datasets.path("bigbench_mistake"), "--subsets", "claude_haiku,gpt4_turbo;claude_haiku"
    )
    assert status == 0 and QUIET_LINE in out and "may still be unmet" in out and "FIRES" not in out


def test_alarm_verdicts_only_and_accuracy_ranges(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/3", "--verdicts-only")
    assert status == 0 and "not computed" in out and "FIRES" in out
    doc = json.loads(cli("alarm", path, "--min-accuracy", "1/3", "--verdicts-only", "--json")[1])
    quiet = [s for s in doc["subsets"] if s["verdict"] == "quiet"]
    assert quiet and all(s["feasible_Qa"] is None and s["feasible_Qa_progressions"] is None for s in quiet)
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/3", "--accuracy", "--subsets", "c0,c1")
    assert (
        status == 0 and "c0 accuracy: on a [1/2, 1/2]   on b [1, 1]" in out and "c1 accuracy: on a [" in out
    )
    doc = json.loads(
        cli("alarm", path, "--min-accuracy", "1/3", "--accuracy", "--json", "--subsets", "c0,c1")[1]
    )
    ranges = doc["subsets"][0]["accuracy_ranges"]
    assert set(ranges) == {"c0", "c1"}
    for row in ranges.values():
        for lo, hi in row.values():
            assert Fraction(1, 3) < Fraction(lo) <= Fraction(hi) <= 1


def test_alarm_three_labels_shows_label_count_ranges(cli, tmp_path):
    counts = {"".join(p): 1 + (k * 7) % 5 for k, p in enumerate(itertools.product("abc", repeat=2))}
    path = _sketch(tmp_path, counts, ("a", "b", "c"))
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/4")
    assert status == 0 and "Q_b " in out and "Q_c " in out
    doc = json.loads(cli("alarm", path, "--min-accuracy", "1/4", "--json")[1])
    assert doc["labels"] == ["a", "b", "c"]
    for entry in doc["subsets"]:
        if entry["verdict"] == "quiet":
            assert set(entry["label_ranges"]) == {"a", "b", "c"}


def test_alarm_undecided_is_said_and_fail_on_undecided_exits_1(cli, tmp_path, monkeypatch):
    import evalgebra.alarm.logical as logical  # the command imports it when it runs

    real = logical.logical_alarm

    def with_one_undecided(*args, **kwargs):
        report = real(*args, **kwargs)
        first = dataclasses.replace(
            report.subsets[0],
            fires=False,
            verdict="undecided",
            feasible=None,
            witness=None,
            certificate=None,
            reason="no evidence within the budget",
        )
        return AlarmReport(
            report.Q, report.spec, (first, *report.subsets[1:]), report.classifiers, report.labels
        )

    monkeypatch.setattr(logical, "logical_alarm", with_one_undecided)
    path = _sketch(tmp_path, {"aa": 5, "ab": 1, "ba": 1, "bb": 3})
    status, out, _ = cli("alarm", path)
    assert status == 0 and "UNDECIDED (no evidence within the budget)" in out
    assert "undecided on 1 subsets: no witness or certificate could be checked" in out
    assert QUIET_LINE not in out  # one subset could not be decided: quiet is not claimed
    assert cli("alarm", path, "--fail-on", "undecided")[0] == 1
    assert cli("alarm", path, "--strict")[0] == 0
    status, _, err = cli("alarm", path, "--witness", tmp_path / "w.json", "--subsets", "c0")
    assert status == 2 and "UNDECIDED" in _one_error_line(err)


def test_fail_on_refuses_unknown_names_on_one_line(cli, tmp_path):
    path = _sketch(tmp_path, TRIO)
    status, _, err = cli("alarm", path, "--fail-on", "fires,sometimes")
    assert status == 2 and "'sometimes' not known" in _one_error_line(err) and "fires, undecided" in err
    status, _, err = cli("evaluate", path, "--fail-on", "irrational,nope")
    assert status == 2 and "below_spec" in _one_error_line(err)


def test_every_option_of_every_command_has_help():
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name, command in commands.items():
        for action in command._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, f"{name} {action.option_strings[0]} has no help text"


def test_alarm_json_patterns_are_lists_so_a_bar_in_a_label_reads_back(cli, tmp_path):
    """Issue 21: witness keys were ``"a|b|c"``, ambiguous when a label holds ``|``."""
    labels = ("x|y", "y", "x")
    counts = {p: 2 + 3 * (len(set(p)) == 1) for p in itertools.product(labels, repeat=2)}
    path = tmp_path / "bars.json"
    Sketch.from_counts(counts, labels=list(labels)).write_json(path)
    status, out, _ = cli("alarm", path, "--min-accuracy", "1/4", "--json")
    assert status == 0
    doc = json.loads(out)
    pair = next(s for s in doc["subsets"] if len(s["classifiers"]) == 2)
    witness = pair["witness"]
    assert witness is not None
    read = {
        (tuple(cell["decisions"]), label): cell["count"]
        for label, cells in witness["by_true_label"].items()
        for cell in cells
    }
    assert all(len(decisions) == 2 and set(decisions) <= set(labels) for decisions, _ in read)
    observed = {}
    for (decisions, _), count in read.items():
        observed[decisions] = observed.get(decisions, 0) + count
    assert observed == {p: c for p, c in counts.items() if c}


def test_alarm_takes_abstentions_and_answered_only_asks_the_other_question(cli, tmp_path):
    rows = [
        ["a", "a", "?"],
        ["a", "a", "?"],
        ["b", "b", "?"],
        ["b", "a", "b"],
        ["a", "b", "a"],
        ["b", "b", "?"],
    ]
    path = tmp_path / "panel.json"
    Sketch.from_decisions(rows, labels=["a", "b"], abstain=["?"]).write_json(path)
    status, out, _ = cli("alarm", path, "--fail-on", "fires")
    assert status == 1 and "smallest firing subsets: c2" in out  # abstains on 4 of 6 items
    witness_path = tmp_path / "key.json"
    status, out, _ = cli("alarm", path, "--answered-only", "--json", "--witness", witness_path)
    doc = json.loads(out)
    assert status == 0 and not doc["fires"] and doc["spec"]["answered_only"] is True
    assert doc["abstain"] == ["?"]
    key = Sketch.read_json(witness_path)
    assert key.is_labelled and key.abstain == ("?",) and key.Q == 6
    _, help_text, _ = cli("alarm", "--help")
    assert "--answered-only" in help_text and "among the items a member answered" in " ".join(
        help_text.split()
    )
