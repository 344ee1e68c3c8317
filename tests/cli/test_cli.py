"""The command line: evaluate and alarm JSON formats, exit statuses, errors, the main job."""

from __future__ import annotations

import json
import math

import pytest
import sympy

from evalgebra import datasets
from evalgebra.cli import main
from evalgebra.data.sketch import Sketch


def test_evaluate_json_follows_the_format_and_exact_values_sympify(cli):
    status, out, _ = cli("evaluate", str(datasets.path("acs_employment")), "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["format"] == "evalgebra.evaluation/1"
    assert (
        doc["method"] == "algebraic"
        and doc["labels"] == ["a", "b"]
        and doc["classifiers"] == ["c1", "c2", "c3"]
    )
    assert [p["kind"] for p in doc["points"]] == ["exact", "exact", "fitted"] and doc["chosen"] in (0, 1)
    assert doc["verdict"] == "exact" and doc["fit"]["g2"] == 0  # the counts lie on the model
    for point in doc["points"]:
        for label, text in point["exact"]["prevalence"].items():
            assert math.isclose(float(sympy.sympify(text)), point["prevalence"][label], rel_tol=1e-12)
        for c, row in point["exact"]["accuracy"].items():
            for label, text in row.items():
                assert math.isclose(float(sympy.sympify(text)), point["accuracy"][c][label], rel_tol=1e-12)
    assert [a["kind"] for a in doc["alarms"]] == ["irrational"]
    assert set(doc["partition"]) == {"a", "b"}
    total = sum(row["count"] for rows in doc["partition"].values() for row in rows)
    assert math.isclose(total, 20000)
    assert doc["trios"] == []


def test_evaluate_majority_and_strict_exit(cli, tmp_path):
    status, out, _ = cli("evaluate", str(datasets.path("acs_employment")), "--method", "majority", "--json")
    assert status == 0 and json.loads(out)["method"] == "majority"
    status, _, _ = cli("evaluate", str(datasets.path("acs_employment")), "--strict")
    assert status == 1  # the irrational alarm


def test_evaluate_four_classifiers_lists_trios(cli, tmp_path):
    counts = {}
    import itertools

    for pattern in itertools.product("ab", repeat=4):
        counts[pattern] = 1 + sum(ord(x) for x in pattern) % 7
    path = tmp_path / "four.json"
    Sketch.from_counts(counts, labels=["a", "b"]).write_json(path)
    status, out, _ = cli("evaluate", str(path), "--json")
    doc = json.loads(out)
    assert (
        status == 0 and len(doc["trios"]) == 4 and [p["kind"] for p in doc["points"]] == ["exact", "fitted"]
    )


def test_evaluate_prevalence_range_four_classifiers_chooses_nothing_outside(cli, tmp_path):
    """Regression: with four classifiers an out-of-range point was marked chosen."""
    path = tmp_path / "four.json"
    Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"]).write_json(path)
    status, out, _ = cli("evaluate", str(path), "--prevalence-range", "1/4", "3/4", "--json")
    fitted = json.loads(out)  # the fit is chosen only inside the range
    assert fitted["chosen"] is None or 1 / 4 <= fitted["points"][fitted["chosen"]]["prevalence"]["a"] <= 3 / 4
    status, out, _ = cli("evaluate", str(path), "--prevalence-range", "1/4", "3/4", "--json", "--no-fit")
    doc = json.loads(out)
    assert status == 0 and doc["chosen"] is None
    assert "undecided" in [a["kind"] for a in doc["alarms"] if "classifiers" not in a]
    assert sorted(p["exact"]["prevalence"]["a"] for p in doc["points"]) == ["1/8", "7/8"]
    status, out, _ = cli("evaluate", str(path), "--prevalence-range", "2/3", "1", "--json", "--no-fit")
    doc = json.loads(out)
    assert doc["chosen"] == 0 and doc["points"][0]["exact"]["prevalence"]["a"] == "7/8"
    status, out, _ = cli("evaluate", str(path), "--prevalence-range", "1/4", "3/4", "--no-fit")
    assert "no point chosen" in out and "(chosen)" not in out


def test_alarm_json_follows_the_format(cli):
    status, out, _ = cli("alarm", str(datasets.path("bigbench_mistake")), "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["format"] == "evalgebra.alarm/1" and doc["Q"] == 281
    firing = [s["classifiers"] for s in doc["subsets"] if s["fires"] and len(s["classifiers"]) == 2]
    assert firing == [["mistral_large", "gpt4_turbo"]]
    for s in doc["subsets"]:
        assert all(lo <= hi for lo, hi in s["feasible_Qa"])
    status, _, _ = cli("alarm", str(datasets.path("bigbench_mistake")), "--strict")
    assert status == 1


def test_alarm_thresholds_change_the_verdict(cli):
    status, out, _ = cli(
        "alarm",
        str(datasets.path("bigbench_mistake")),
        "--min-accuracy",
        "none",
        "--min-total-accuracy",
        "1/10",
        "--json",
    )
    assert status == 0
    assert not any(s["fires"] for s in json.loads(out)["subsets"])


def test_cli_bad_input_exits_2(capsys, cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    status, _, err = cli("evaluate", str(bad))
    assert status == 2 and err.startswith("evalgebra: error:")
    with pytest.raises(SystemExit) as stop:  # argparse rejects the value: usage and status 2
        main(["alarm", str(datasets.path("bigbench_mistake")), "--min-accuracy", "half"])
    assert stop.value.code == 2 and "cannot read 'half' as a rational" in capsys.readouterr().err


def test_example_runs_the_main_job(cli):
    status, out, _ = cli("example")
    assert status == 0
    assert "reproduces every pattern frequency exactly: True" in out
    assert "mistral_large, gpt4_turbo" in out and "FIRES" in out


def test_evaluate_hui_walter_prints_each_population(cli, tmp_path):
    first = Sketch.from_counts({"aa": 41, "ab": 49, "ba": 19, "bb": 91}, labels=["a", "b"], population="s0")
    second = Sketch.from_counts({"aa": 43, "ab": 67, "ba": 37, "bb": 253}, labels=["a", "b"], population="s1")
    path = tmp_path / "two_populations.json"
    first.merge(second).write_json(path)
    status, out, _ = cli("evaluate", str(path), "--method", "hui_walter")
    assert status == 0
    assert "in s1: P_a = 1/4" in out and "alarms: none" in out
    status, out, _ = cli("evaluate", str(path), "--method", "hui_walter", "--json")
    assert json.loads(out)["method"] == "hui_walter"


def test_cli_user_errors_exit_2_without_traceback(capsys, cli, tmp_path):
    acs, graders = str(datasets.path("acs_employment")), str(datasets.path("bigbench_mistake"))
    for argv in (
        ["sketch", str(tmp_path / "missing.csv")],
        ["evaluate", acs, "--prevalence-range", "1", "0"],
        ["alarm", graders, "--min-accuracy", "1e1000000"],
    ):
        try:
            status, _, err = cli(*argv)
        except SystemExit as exc:  # argparse rejects the value itself
            status, err = exc.code, capsys.readouterr().err
        assert status == 2, argv
        assert "Traceback" not in err


def test_sketch_rejects_counts_beyond_64_bits(cli, tmp_path):
    path = tmp_path / "huge.json"
    path.write_text(
        json.dumps(
            {
                "format": "evalgebra.sketch/1",
                "labels": ["a", "b"],
                "classifiers": ["c1"],
                "counts": [{"decisions": ["a"], "count": 2**63 - 1}, {"decisions": ["b"], "count": 1}],
            }
        ),
        encoding="utf-8",
    )
    status, _, err = cli("evaluate", str(path), "--method", "majority")
    assert status == 2 and "2^62" in err


def test_alarm_subsets_option_and_sketch_reads_a_bom(cli, tmp_path):
    status, out, _ = cli(
        "alarm",
        str(datasets.path("bigbench_mistake")),
        "--json",
        "--subsets",
        "mistral_large,gpt4_turbo;claude_haiku",
    )
    doc = json.loads(out)
    assert status == 0 and [s["classifiers"] for s in doc["subsets"]] == [
        ["mistral_large", "gpt4_turbo"],
        ["claude_haiku"],
    ]
    csv = tmp_path / "items.csv"
    csv.write_bytes("\ufeffc1,c2,truth\na,b,a\nb,b,b\n".encode("utf-8"))
    out_path = tmp_path / "out.json"
    status, _, _ = cli("sketch", str(csv), "--truth", "truth", "-o", str(out_path))
    assert status == 0 and Sketch.read_json(out_path).classifiers == ("c1", "c2")
    assert out_path.stat().st_mode & 0o044  # readable by others as with a plain open()


def test_structure_argument_reads_names_with_dashes_and_digits():
    from evalgebra.cli import _structure_arg

    assert _structure_arg("gpt-4o-claude-3", ["gpt-4o", "claude-3"]) == [["gpt-4o", "claude-3"]]
    assert _structure_arg("10-20", ["10", "20"]) == [["10", "20"]]
    assert _structure_arg("0-1,1-2") == [[0, 1], [1, 2]]
