"""``evalgebra evaluate``: three or more labels, exact text for irrational values, the estimate gate.

Every test runs the real command line (``main``) on a sketch built in the test: for three
labels an exact simulation (an evaluation point, its expected sketch, the answer key dropped),
so the truth is known and must come back exactly.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from evalgebra import datasets
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.engines import msolve_binary
from evalgebra.spec import EnsembleSpec

LABELS = ("a", "b", "c")
PREVALENCE = {"a": Fraction(1, 2), "b": Fraction(3, 10), "c": Fraction(1, 5)}
#: response[classifier][true label][answer]: three different classifiers, each better than chance.
RESPONSE = {
    "c0": {
        "a": {"a": "7/10", "b": "1/5", "c": "1/10"},
        "b": {"a": "1/10", "b": "4/5", "c": "1/10"},
        "c": {"a": "1/5", "b": "1/10", "c": "7/10"},
    },
    "c1": {
        "a": {"a": "3/5", "b": "1/5", "c": "1/5"},
        "b": {"a": "1/5", "b": "7/10", "c": "1/10"},
        "c": {"a": "1/10", "b": "1/10", "c": "4/5"},
    },
    "c2": {
        "a": {"a": "4/5", "b": "1/10", "c": "1/10"},
        "b": {"a": "1/5", "b": "3/5", "c": "1/5"},
        "c": {"a": "1/10", "b": "3/10", "c": "3/5"},
    },
}


@pytest.fixture
def three_labels(tmp_path):
    """The unlabelled expected sketch of :data:`PREVALENCE` and :data:`RESPONSE`."""
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3), PREVALENCE, response={i: RESPONSE[c] for i, c in enumerate(RESPONSE)}
    )
    path = tmp_path / "three_labels.json"
    expected_sketch(truth).unlabelled().write_json(path)
    return path


def test_evaluate_three_labels_recovers_the_truth_exactly(cli, three_labels):
    status, out, _ = cli("evaluate", three_labels)
    assert status == 0 and out.count("(chosen)") == 1 and "alarms: none" in out
    chosen = out[out.index("(chosen)") :].split("\npoint ")[0]
    assert "P_a = 1/2" in chosen and "P_b = 3/10" in chosen and "P_c = 1/5" in chosen
    assert "response rates P(answer | true label):" in chosen
    assert "c1 | true b: a: 1/5 (0.2)   b: 7/10 (0.7)   c: 1/10 (0.1)" in chosen

    status, out, _ = cli("evaluate", three_labels, "--json")
    doc = json.loads(out)
    assert status == 0 and doc["labels"] == list(LABELS) and doc["verdict"] == "exact"
    assert [p["kind"] for p in doc["points"]] == ["exact"] * 6 + [
        "fitted"
    ]  # the fit is the chosen exact point
    assert doc["points"][-1] == doc["points"][doc["chosen"]] | {"kind": "fitted"}
    point = doc["points"][doc["chosen"]]
    assert {k: Fraction(v) for k, v in point["exact"]["prevalence"].items()} == PREVALENCE
    for c, rows in RESPONSE.items():
        for truth, answers in rows.items():
            for answer, value in answers.items():
                assert Fraction(point["exact"]["response"][c][truth][answer]) == Fraction(value)
                assert point["response"][c][truth][answer] == float(Fraction(value))
            assert point["accuracy"][c][truth] == float(Fraction(answers[truth]))  # accuracy kept
    items = int(Sketch.read_json(three_labels).count_vector().sum())
    split = {label: sum(Fraction(row["exact"]) for row in rows) for label, rows in doc["partition"].items()}
    assert split == {label: p * items for label, p in PREVALENCE.items()}  # the counts split by true label


@pytest.mark.parametrize(
    ("flags", "order"),
    [
        (("--prevalence-order", "c,b,a"), ("c", "b", "a")),
        (("--prevalence-order", "b,a,c"), ("b", "a", "c")),
        (("--known-prevalences", "a=1/2,b=3/10,c=1/5"), ("a", "b", "c")),
        (("--known-prevalences", "a=0.2,b=0.3,c=0.5"), ("c", "b", "a")),
    ],
)
def test_evaluate_decodes_by_prevalence_order_or_known_prevalences(cli, three_labels, flags, order):
    status, out, _ = cli("evaluate", three_labels, "--json", *flags)
    doc = json.loads(out)
    assert status == 0 and doc["chosen"] is not None
    prevalence = {k: Fraction(v) for k, v in doc["points"][doc["chosen"]]["exact"]["prevalence"].items()}
    assert sorted(prevalence, key=lambda k: -prevalence[k]) == list(order)
    assert sorted(prevalence.values()) == sorted(PREVALENCE.values())


@pytest.mark.parametrize(
    "flags",
    [
        ("--prevalence-order", "a,b"),
        ("--known-prevalences", "a=1/2,b=1/2,c=1/2"),
        ("--prevalence-order", "a,b,c", "--known-prevalences", "a=1/2,b=3/10,c=1/5"),
        ("--known-prevalences", "a=1/2,a=1/2"),
        ("--known-prevalences", "a"),
        ("--method", "majority", "--prevalence-order", "a,b,c"),
    ],
)
def test_evaluate_bad_decoding_options_exit_2_on_one_line(cli, three_labels, flags):
    status, out, err = cli("evaluate", three_labels, *flags)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("evalgebra: error: ") and not out


def _irrational_three_labels(tmp_path):
    """The exact sketch above with every count raised a little: irrational eliminant roots."""
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3), PREVALENCE, response={i: RESPONSE[c] for i, c in enumerate(RESPONSE)}
    )
    vector = expected_sketch(truth).unlabelled().count_vector().tolist()
    counts = {
        "".join(p): v + (k * 7) % 11
        for k, (p, v) in enumerate(zip(itertools.product(LABELS, repeat=3), vector))
    }
    path = tmp_path / "irrational.json"
    Sketch.from_counts(counts, labels=list(LABELS)).write_json(path)
    return path


def test_evaluate_three_labels_irrational_values_are_exact_text_in_json(cli, tmp_path):
    path = _irrational_three_labels(tmp_path)
    status, out, _ = cli("evaluate", path, "--json")
    doc = json.loads(out)
    assert status == 0 and "irrational" in [a["kind"] for a in doc["alarms"]]
    point = doc["points"][0]
    texts = [(text, point["prevalence"][k]) for k, text in point["exact"]["prevalence"].items()]
    texts += [
        (point["exact"]["response"][c][t][r], point["response"][c][t][r])
        for c in ("c0", "c2")
        for t in LABELS
        for r in LABELS
    ]
    assert any("CRootOf" in text for text, _ in texts)
    for text, number in texts:
        assert math.isclose(float(sympy.sympify(text).evalf(30)), number, rel_tol=1e-12), text
    status, out, _ = cli("evaluate", path)  # text: a short decimal, the exact form in --json
    assert status == 0 and "(algebraic of degree" in out and "CRootOf" not in out
    assert cli("evaluate", path, "--fail-on", "irrational")[0] == 1
    assert cli("evaluate", path, "--fail-on", "complex,blind_spot")[0] == 0


def test_evaluate_two_labels_json_gains_response_rows_and_exact_partition(cli):
    status, out, _ = cli("evaluate", datasets.path("acs_employment"), "--json")
    doc = json.loads(out)
    assert status == 0
    for point in doc["points"]:
        for c, rows in point["exact"]["response"].items():
            for truth, answers in rows.items():
                assert answers[truth] == point["exact"]["accuracy"][c][truth]
                assert sympy.simplify(sum(sympy.sympify(v) for v in answers.values()) - 1) == 0
                assert math.isclose(sum(point["response"][c][truth].values()), 1.0)
    for rows in doc["partition"].values():
        for row in rows:
            assert "sqrt" in row["exact"] or "/" in row["exact"] or row["exact"].isdigit()
            assert math.isclose(float(sympy.sympify(row["exact"])), row["count"], rel_tol=1e-9, abs_tol=1e-9)


def test_evaluate_min_accuracy_gate(cli, three_labels):
    # the chosen point's lowest accuracies are exactly 3/5 (c1 on a, c2 on b and c)
    status, _, err = cli("evaluate", three_labels, "--min-accuracy", "3/5")
    assert status == 1 and err.count("evalgebra: below the specification:") == 3
    assert "c1 accuracy on a = 3/5 (0.6) is not above 3/5" in err
    assert cli("evaluate", three_labels, "--min-accuracy", "3/5", "--non-strict")[0] == 0
    assert cli("evaluate", three_labels, "--min-accuracy", "1/2")[0] == 0
    assert cli("evaluate", three_labels, "--min-accuracy", "3/5", "--fail-on", "below_spec")[0] == 1
    # --fail-on without below_spec: the check is reported, only the named alarm kinds fail
    status, _, err = cli("evaluate", three_labels, "--min-accuracy", "3/5", "--fail-on", "irrational")
    assert status == 0 and "below the specification" in err
    status, _, err = cli("evaluate", three_labels, "--fail-on", "below_spec")
    assert status == 2 and "--min-accuracy" in err


def test_evaluate_gate_on_real_data_is_not_tripped_by_irrational(cli):
    acs = datasets.path("acs_employment")
    assert cli("evaluate", acs, "--strict")[0] == 1  # every alarm, irrational included
    assert cli("evaluate", acs, "--fail-on", "complex,empty_variety,undecided")[0] == 0
    assert cli("evaluate", acs, "--fail-on", "irrational")[0] == 1
    status, _, err = cli("evaluate", acs, "--min-accuracy", "2/5", "--fail-on", "below_spec,complex")
    assert status == 0 and not err
    status, _, err = cli("evaluate", acs, "--min-accuracy", "1/2", "--fail-on", "below_spec,complex")
    assert status == 1 and "c1 accuracy on a" in err


def test_evaluate_gate_fails_closed_when_no_point_is_chosen(cli, tmp_path):
    path = tmp_path / "four.json"
    Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"]).write_json(path)
    status, _, err = cli(
        "evaluate", path, "--prevalence-range", "1/4", "3/4", "--min-accuracy", "0", "--no-fit"
    )
    assert status == 1 and "no point chosen" in err


def test_evaluate_intervals_options(tmp_path, cli):
    """--intervals prints [low, high] beside each statistic and the JSON carries the same
    intervals as the API."""
    from evalgebra.evaluators.dispatch import evaluate

    sketch = datasets.load("acs_employment").unlabelled()
    path = tmp_path / "acs.json"
    path.write_text(sketch.to_json())
    status, out, _ = cli(
        "evaluate", path, "--intervals", "bootstrap", "--seed", "3", "--n-boot", "200", "--json"
    )
    assert status == 0
    document = json.loads(out)
    assert document["intervals"]["kind"] == "bootstrap" and document["intervals"]["seed"] == 3
    api = evaluate(sketch, intervals="bootstrap", seed=3, n_boot=200).to_dict()
    assert document["points"] == api["points"]
    status, out, _ = cli("evaluate", path, "--intervals", "delta")
    delta = evaluate(sketch, intervals="delta")
    low, high = delta.point.interval["prevalence"]["a"]
    assert status == 0 and "95% delta intervals" in out
    assert f"[{float(low):.4g}, {float(high):.4g}]" in out
    status, _, err = cli("evaluate", path, "--seed", "1")
    assert status == 2 and "--intervals" in err


@pytest.mark.parametrize("written, meant", [("0,1", "0-1"), ("(0, 1)", "0-1"), ("[(0,1),(2,3)]", "0-1,2-3")])
def test_evaluate_mistyped_structure_names_the_corrected_option(cli, tmp_path, written, meant):
    """``--structure 0,1`` (four subsets of one) or Python syntax:
    one error line with the corrected option."""
    path = tmp_path / "four.json"
    Sketch.from_counts(
        {"".join(p): 1 + (7 * k) % 11 for k, p in enumerate(itertools.product("ab", repeat=4))},
        labels=["a", "b"],
    ).write_json(path)
    status, out, err = cli("evaluate", path, "--structure", written)
    assert status == 2 and not out and err.count("\n") == 1
    assert err.startswith(f"evalgebra: error: --structure {written!r}: ")
    assert err.rstrip().endswith(f"did you mean --structure {meant}?")
    status, out, err = cli("evaluate", path, "--structure", meant)
    assert "did you mean" not in err and (status == 0 or "not identifiable" in err)


def test_many_points_print_the_chosen_one_and_those_in_the_unit_cube():
    """K5 has 140-210 real points: the text shows the chosen one and those in the unit cube, JSON has all."""
    from fractions import Fraction
    from itertools import combinations

    from evalgebra.cli.evaluate import format_evaluation
    from evalgebra.data.point import EvaluationPoint
    from evalgebra.data.simulate import expected_sketch
    from evalgebra.evaluators.dispatch import evaluate
    from evalgebra.spec import EnsembleSpec

    pairs = list(combinations(range(5), 2))
    accuracy = {
        0: {"a": "3/4", "b": "4/5"},
        1: {"a": "7/10", "b": "3/4"},
        2: {"a": "4/5", "b": "13/20"},
        3: {"a": "17/20", "b": "7/10"},
        4: {"a": "13/20", "b": "9/10"},
    }
    steps = [1, -1, 2, -2, 1, 3, -1, 2, 1, -3]
    correlation = {
        pair: {"a": Fraction(steps[k], 400), "b": Fraction(-steps[-1 - k], 400)}
        for k, pair in enumerate(pairs)
    }
    truth = EvaluationPoint.from_values(
        EnsembleSpec(5, 2, pairs), {"a": "7/20"}, accuracy=accuracy, correlation=correlation
    )
    result = evaluate(expected_sketch(truth).unlabelled(), structure=pairs)
    text = format_evaluation(result, partition=True)
    inside = [
        e
        for e in result.points
        if all(
            0 <= v <= 1
            for v in [*e.prevalence.values(), *(x for r in e.accuracy.values() for x in r.values())]
        )
    ]
    assert (
        f"{len(result.points)} real points; shown: the chosen one and the {len(inside)} inside the unit cube"
        in text
    )
    assert text.count("\npoint ") == len(inside) and f"point {result.chosen} (chosen):" in text
    assert "P_a = 7/20" in text and ".0 " not in text.split("partition of the counts")[1].split("\n")[1]


@pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")
def test_evaluate_certify_reports_the_certificate(cli, tmp_path):
    path = tmp_path / "sampled.json"
    counts = {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 70}
    Sketch.from_counts(counts, labels=["a", "b"]).write_json(path)
    status, out, _ = cli("evaluate", path, "--certify", "--json")
    certificate = json.loads(out)["certificate"]
    assert status == 0 and certificate["global_maximum"] is True and certificate["critical_points"] == 2
    status, out, _ = cli("evaluate", path, "--certify")
    assert status == 0 and "certificate: global maximum proved" in out
    status, _, err = cli("evaluate", path, "--certify", "--no-fit")
    assert status != 0 and "--certify certifies the fitted point" in err


def _judges_sketch(tmp_path, seed=3, n_items=300, n_judges=4, n_labels=5):
    """A sampled test of judges with five labels and a few abstentions, as sketch JSON."""
    rng = np.random.default_rng(seed)
    labels = [chr(ord("A") + k) for k in range(n_labels)]
    truth = rng.integers(0, n_labels, n_items)
    right = rng.random((n_items, n_judges)) < 0.7
    wrong = (truth[:, None] + rng.integers(1, n_labels, (n_items, n_judges))) % n_labels
    answers = np.array(labels, dtype=object)[np.where(right, truth[:, None], wrong)]
    answers[rng.random((n_items, n_judges)) < 0.02] = "N"
    sketch = Sketch.from_decisions(answers, labels=labels, abstain=["N"])
    path = tmp_path / "judges.json"
    sketch.write_json(path)
    return path, sketch


def test_evaluate_many_labels_text_fits_on_a_screen_and_options_show_the_rest(cli, tmp_path):
    path, sketch = _judges_sketch(tmp_path)
    status, out, _ = cli("evaluate", path)
    lines = out.splitlines()
    assert status == 0 and len(lines) <= 40 and max(map(len, lines)) <= 200
    assert "--partition shows it" in out and "(--responses shows them)" in out
    assert "true A:" not in out and "| true A:" not in out
    chosen = out[out.index("(chosen)") :]
    assert chosen.splitlines()[1].count("P_") == 5  # the prevalences on one line
    status, full, _ = cli("evaluate", path, "--partition", "--responses")
    assert status == 0
    partition = [line for line in full.splitlines() if line.startswith("  true ")]
    responses = [line for line in full.splitlines() if line.startswith("    ") and " | true " in line]
    assert len(partition) == 5 and len(responses) == 4 * 5
    # the partition shown is the JSON's, every observed pattern split by true label
    doc = json.loads(cli("evaluate", path, "--json")[1])
    assert all(line.count(": ") - 1 == len(doc["partition"]["A"]) for line in partition)
    for row in responses:  # each row of rates sums to one (to the decimals shown)
        values = [float(cell.split(": ")[1]) for cell in row.split(": ", 1)[1].split("   ")]
        assert abs(sum(values) - 1) < 0.01


def test_evaluate_many_labels_groups_many_alarms_by_kind():
    from evalgebra.cli.evaluate import ALARMS_SHOWN, format_evaluation
    from evalgebra.results import Alarm, Evaluation

    alarms = tuple(Alarm("irrational", f"trio {k}: " + "x" * 300) for k in range(ALARMS_SHOWN + 2))
    text = format_evaluation(
        Evaluation(
            method="algebraic",
            labels=("a", "b", "c"),
            classifiers=("c0", "c1", "c2"),
            points=(),
            chosen=None,
            alarms=alarms,
        )
    )
    assert f"[irrational] ({ALARMS_SHOWN + 2} alarms of this kind) trio 0:" in text
    assert max(map(len, text.splitlines())) < 200 and "--json has every alarm in full" in text
