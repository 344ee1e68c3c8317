"""Tests of evalgebra.data.readers: input formats and bad input, through the Sketch.from_* constructors."""

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError
from evalgebra.testing import labelled_tests, specs

tests_ = labelled_tests(specs(max_populations=3, named=None), max_items=40)


def _names(test):
    labels = np.array(test.labels, dtype=object)
    return (
        test.decision_names(),
        labels[test.truth],
        np.array(test.populations, dtype=object)[test.population],
    )


# -- input formats -----------------------------------------------------------------------------
@given(tests_, st.booleans())
def test_from_decisions_input_types_give_the_same_sketch(test, labelled):
    decisions, truth, population = _names(test)
    common = {"labels": test.labels, "classifiers": test.classifiers, "populations": test.populations}
    reference = Sketch.from_decisions(
        test.decisions, truth=test.truth if labelled else None, population=test.population, **common
    )
    as_lists = Sketch.from_decisions(
        decisions.tolist(),
        truth=truth.tolist() if labelled else None,
        population=population.tolist(),
        **common,
    )
    as_strings = Sketch.from_decisions(
        decisions.astype(str),
        truth=truth.astype(str) if labelled else None,
        population=population.astype(str),
        **common,
    )
    frame = pd.DataFrame(decisions, columns=list(test.classifiers))
    as_frame = Sketch.from_decisions(
        frame,
        labels=test.labels,
        truth=pd.Series(truth) if labelled else None,
        population=pd.Series(population),
        populations=test.populations,
    )
    int_frame = Sketch.from_decisions(
        pd.DataFrame(test.decisions, columns=list(test.classifiers)),
        labels=test.labels,
        truth=test.truth if labelled else None,
        population=test.population,
        populations=test.populations,
    )
    assert as_lists == as_strings == as_frame == int_frame == reference
    assert reference.is_labelled == labelled
    if labelled:
        assert reference == test.sketch()


def _csv_text(test, labelled):
    decisions, truth, population = _names(test)
    out = io.StringIO()
    writer = csv.writer(out)
    header = list(test.classifiers)
    extra = []
    if labelled:
        header.append("truth")
        extra.append(truth)
    if len(test.populations) > 1:
        header.append("site")
        extra.append(population)
    writer.writerow(header)
    for k, row in enumerate(decisions.tolist()):
        writer.writerow(row + [column[k] for column in extra])
    return out.getvalue()


@given(tests_, st.booleans())
def test_from_csv_equals_from_decisions(test, labelled):
    text = _csv_text(test, labelled)
    sketch = Sketch.from_csv(
        io.StringIO(text),
        truth="truth" if labelled else None,
        population="site" if len(test.populations) > 1 else None,
        labels=test.labels,
    )
    expected = test.sketch() if labelled else test.sketch().unlabelled()
    assert sketch == expected


def test_from_csv_reads_a_path(tmp_path):
    path = tmp_path / "items.csv"
    path.write_text("m1,m2,y\n a , b ,a\nb,b,b\n\nb,a,a\n", encoding="utf-8")
    sketch = Sketch.from_csv(path, truth="y")
    assert sketch == Sketch.from_decisions(
        [["a", "b"], ["b", "b"], ["b", "a"]], truth=["a", "b", "a"], classifiers=["m1", "m2"]
    )
    assert Sketch.from_csv(str(path), truth="y") == sketch
    assert Sketch.from_csv(path).marginalise(["m1", "m2"]) == sketch.unlabelled()


@given(tests_, st.randoms(), st.booleans())
def test_from_long_equals_from_decisions(test, random, labelled):
    decisions, truth, _ = _names(test)
    rows = [
        (f"task{k}", worker, decisions[k, i])
        for k in range(decisions.shape[0])
        for i, worker in enumerate(test.classifiers)
    ]
    random.shuffle(rows)
    frame = pd.DataFrame(rows, columns=["task", "worker", "label"])
    gold = pd.Series(truth, index=[f"task{k}" for k in range(len(truth))]) if labelled else None
    sketch = Sketch.from_long(frame, labels=test.labels, classifiers=test.classifiers, truth=gold)
    expected = test.sketch().pooled()
    expected = expected if labelled else expected.unlabelled()
    assert sketch == expected
    # default worker order is sorted by name
    default = Sketch.from_long(frame, labels=test.labels, truth=gold)
    assert default == expected.marginalise(sorted(test.classifiers))
    # the same rows as a mapping of columns, and as triples
    as_mapping = Sketch.from_long(
        {
            "task": frame["task"].tolist(),
            "worker": frame["worker"].tolist(),
            "label": frame["label"].tolist(),
        },
        labels=test.labels,
        classifiers=test.classifiers,
        truth=None if gold is None else gold.to_dict(),
    )
    assert as_mapping == sketch
    assert Sketch.from_long(rows, labels=test.labels, classifiers=test.classifiers, truth=gold) == sketch


def test_from_long_crowd_kit_columns():
    frame = pd.DataFrame(
        {
            "item": ["t1", "t1", "t2", "t2"],
            "annotator": ["w1", "w2", "w1", "w2"],
            "answer": ["a", "b", "b", "b"],
        }
    )
    sketch = Sketch.from_long(
        frame,
        task="item",
        worker="annotator",
        label="answer",
        truth=pd.Series({"t1": "a", "t2": "b", "t3": "a"}),
    )
    assert sketch.by_true_label() == {"a": {("a", "b"): 1}, "b": {("b", "b"): 1}}
    assert sketch.classifiers == ("w1", "w2")


def test_from_long_accepts_integer_labels():
    frame = pd.DataFrame(
        {"task": ["t1", "t1", "t2", "t2"], "worker": ["w1", "w2", "w1", "w2"], "label": [0, 1, 1, 1]}
    )
    sketch = Sketch.from_long(frame, truth=pd.Series({"t1": 0, "t2": 1}))
    assert sketch == Sketch.from_decisions(
        np.array([[0, 1], [1, 1]]), truth=np.array([0, 1]), classifiers=["w1", "w2"]
    )


@given(st.dictionaries(st.tuples(*[st.sampled_from("ab")] * 3), st.integers(0, 9), min_size=1), st.data())
def test_from_counts_string_and_tuple_patterns_agree(counts, data):
    assume(any(counts.values()))
    as_tuples = Sketch.from_counts(counts, labels=["a", "b"])
    as_strings = Sketch.from_counts({"".join(p): c for p, c in counts.items()}, labels=["a", "b"])
    assert as_tuples == as_strings
    assert as_tuples.counts() == {p: c for p, c in sorted(counts.items()) if c}
    split = {
        "a": {p: c for p, c in counts.items() if p[0] == "a"},
        "b": {p: c for p, c in counts.items() if p[0] == "b"},
    }
    labelled = Sketch.from_counts(counts, labels=["a", "b"], by_true_label=split)
    assert labelled == Sketch.from_counts(labels=["a", "b"], by_true_label=split)
    assert labelled.unlabelled() == as_tuples


# -- errors: missing answers, unknown labels ---------------------------------------------------------
@pytest.mark.parametrize(
    "decisions, message",
    [
        ([["a", "b"], ["a", None]], r"missing answer at item 1, classifier 'c1'; pass missing='abstain'"),
        (np.array([["a", "b"], ["", "a"]]), r"missing answer at item 1, classifier 'c0'"),
        (np.array([[0.0, 1.0], [1.0, np.nan]]), r"missing answer at item 1, classifier 'c1'"),
        (np.array([["a", "b"], ["a", np.nan]], dtype=object), r"missing answer at item 1, classifier 'c1'"),
        (
            np.array([[0, 1], [1, 0], [-1, 0]]),
            r"missing answer \(negative index\) at item 2, classifier 'c0'",
        ),
        (pd.DataFrame({"x": ["a", "b"], "y": ["a", None]}), r"missing answer at item 1, classifier 'y'"),
        (pd.DataFrame({"x": [0.0, 1.0], "y": [np.nan, 1.0]}), r"missing answer at item 0, classifier 'y'"),
    ],
)
def test_from_decisions_reports_missing_answers_with_position(decisions, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_decisions(decisions)


@pytest.mark.parametrize("truth", [["a", None], ["a", ""], np.array([0, -1])])
def test_from_decisions_reports_missing_truth_with_position(truth):
    decisions = np.array([[0, 1], [1, 1]]) if isinstance(truth, np.ndarray) else [["a", "b"], ["b", "b"]]
    with pytest.raises(SketchError, match=r"missing answer.* at truth of item 1"):
        Sketch.from_decisions(decisions, truth=truth)


@pytest.mark.parametrize(
    "decisions, truth, message",
    [
        ([["a", "b"], ["a", float("nan")]], None, r"missing answer at item 1, classifier 'c1'"),
        ([["a", "b"], ["a", "a"]], ["a", float("nan")], r"missing answer at truth of item 1"),
        ([["a", "b"], [1, "a"]], None, r"label names and integer indices|is not a string"),
    ],
)
def test_from_decisions_rejects_nan_and_ints_among_label_strings(decisions, truth, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_decisions(decisions, truth=truth)


def test_from_decisions_rejects_unknown_labels():
    with pytest.raises(SketchError, match=r"unknown labels \['c'\]; labels are \['a', 'b'\]"):
        Sketch.from_decisions([["a", "c"]], labels=["a", "b"])
    with pytest.raises(SketchError, match=r"unknown labels \['z'\]"):
        Sketch.from_decisions([["a", "b"]], labels=["a", "b"], truth=["z"])
    with pytest.raises(SketchError, match=r"label index 2 out of range for labels \['a', 'b'\]"):
        Sketch.from_decisions(np.array([[0, 2]]), labels=["a", "b"])
    with pytest.raises(SketchError, match=r"only one label seen \(\['a'\]\); pass labels="):
        Sketch.from_decisions([["a", "a"]])


@pytest.mark.parametrize(
    "decisions, kwargs, message",
    [
        (np.array([[True, False]]), {}, r"decisions: booleans are not labels"),
        (np.array([[0.0, 1.0]]), {}, r"decisions must be label names \(str\) or indices \(int\), not floats"),
        ([["a", "b"]], {"truth": [0]}, r"decisions mix label names and integer indices"),
        (["a", "b"], {}, r"decisions must be 2-dimensional \(items x classifiers\), got shape \(2,\)"),
        (np.empty((0, 2), dtype=str), {}, r"empty test: no items"),
        (np.empty((2, 0), dtype=str), {}, r"decisions have no classifier columns"),
        ([["a", "b"]], {"classifiers": ["x"]}, r"1 classifier names for 2 columns"),
        ([["a", "b"]], {"truth": ["a", "b"]}, r"truth has 2 entries for 1 items"),
        ([["a", "b"]], {"population": ["p", "q"]}, r"population has 2 entries for 1 items"),
        ([["a", "b"]], {"populations": ["p", "q"]}, r"several populations named but no per-item population"),
        (
            [["a", "b"]],
            {"population": np.array([2]), "populations": ["p", "q"]},
            r"population index out of range",
        ),
        ([["a", "b"]], {"population": ["r"], "populations": ["p", "q"]}, r"unknown populations \['r'\]"),
        (
            np.array([[1, "b"]], dtype=object),
            {},
            r"decisions: label 1 is not a string; use label names or integer indices",
        ),
    ],
)
def test_from_decisions_rejects_bad_input(decisions, kwargs, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_decisions(decisions, **kwargs)


# -- errors: counts ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "counts, message",
    [
        ({"ab": -1, "aa": 2}, r"counts 'ab': counts must be non-negative integers, got -1"),
        ({"ab": 1.0}, r"counts must be non-negative integers, got 1.0"),
        ({"ab": True}, r"counts must be non-negative integers, got True"),
        ({"ab": "3"}, r"counts must be non-negative integers, got '3'"),
        ({"ab": 0, "aa": 0}, r"empty test: every count is zero"),
        ({}, r"empty test: no patterns"),
        ({"ab": 1, "a": 1}, r"patterns have different lengths \[1, 2\]"),
        ({"az": 1}, r"counts: unknown labels \['z'\] in pattern \('a', 'z'\)"),
        ({("a", "b"): 1, "ab": 2}, r"counts: pattern \('a', 'b'\) listed twice"),
        ({3: 1}, r"pattern 3 is not a sequence of labels"),
    ],
)
def test_from_counts_rejects_bad_counts(counts, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_counts(counts, labels=["a", "b"])


def test_from_counts_rejects_inconsistent_totals_and_bad_splits():
    with pytest.raises(
        SketchError,
        match=r"inconsistent totals: pattern \('a', 'b'\) has count 2 but by_true_label sums to 3",
    ):
        Sketch.from_counts({"ab": 2}, labels=["a", "b"], by_true_label={"a": {"ab": 1}, "b": {"ab": 2}})
    with pytest.raises(
        SketchError,
        match=r"inconsistent totals: pattern \('b', 'b'\) has count 0 but by_true_label sums to 1",
    ):
        Sketch.from_counts({"ab": 2}, labels=["a", "b"], by_true_label={"a": {"ab": 2}, "b": {"bb": 1}})
    with pytest.raises(
        SketchError, match=r"by_true_label\['a'\] 'ab': counts must be non-negative integers, got -2"
    ):
        Sketch.from_counts(labels=["a", "b"], by_true_label={"a": {"ab": -2}})
    with pytest.raises(SketchError, match=r"give counts, by_true_label, or both"):
        Sketch.from_counts(labels=["a", "b"])
    with pytest.raises(SketchError, match=r"strings are accepted only when every label is one character"):
        Sketch.from_counts({"ab": 1}, labels=["a", "bb"])
    with pytest.raises(SketchError, match=r"3 classifier names for patterns of length 2"):
        Sketch.from_counts({"ab": 1}, labels=["a", "b"], classifiers=["x", "y", "z"])


def test_from_counts_rejects_unknown_true_label_with_sketch_error():
    with pytest.raises(SketchError, match=r"by_true_label: unknown true labels \['c'\]"):
        Sketch.from_counts({"ab": 1}, labels=["a", "b"], by_true_label={"c": {"ab": 1}})


# -- errors: long format and CSV -----------------------------------------------------------------
def test_from_long_rejects_missing_and_duplicated_answers():
    rows = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b")]
    with pytest.raises(
        SketchError, match=r"task 't2' has no answer from worker 'w2'; pass missing='abstain'"
    ):
        Sketch.from_long(rows)
    with pytest.raises(
        SketchError, match=r"task 't1' has 2 answers from worker 'w2'; each worker answers each task once"
    ):
        Sketch.from_long(rows + [("t2", "w2", "a"), ("t1", "w2", "a")])
    with pytest.raises(SketchError, match=r"no true label for tasks \['t2'\]"):
        Sketch.from_long(rows + [("t2", "w2", "a")], truth={"t1": "a"})
    with pytest.raises(SketchError, match=r"long table lacks columns \['worker'\]"):
        Sketch.from_long(pd.DataFrame({"task": ["t1"], "annotator": ["w"], "label": ["a"]}))
    with pytest.raises(SketchError, match=r"long table lacks column 'label'"):
        Sketch.from_long({"task": ["t1"], "worker": ["w"]})
    with pytest.raises(SketchError, match=r"long rows must be \(task, worker, label\) triples"):
        Sketch.from_long([("t1", "w1")])
    with pytest.raises(SketchError, match=r"empty test: no rows"):
        Sketch.from_long([])
    with pytest.raises(SketchError, match=r"unknown workers \['w2'\]"):
        Sketch.from_long(rows + [("t2", "w2", "a")], classifiers=["w1"])
    with pytest.raises(SketchError, match=r"missing answer at item 1, classifier 'w2'"):
        Sketch.from_long(rows + [("t2", "w2", None)])


@pytest.mark.parametrize(
    "text, kwargs, message",
    [
        ("", {}, r"CSV is empty: expected a header row"),
        ("x,y\n", {}, r"empty test: the CSV has no items"),
        ("x,y\na,b\n", {"truth": "gold"}, r"CSV has no column 'gold'; columns are \['x', 'y'\]"),
        ("x,y\na,b\nb\n", {}, r"CSV line 3: 1 fields, header has 2"),
        ("x,y\na,b\nb, \n", {}, r"CSV line 3: missing answer in column 'y'; pass missing='abstain'"),
        ("y\na\nb\n", {"truth": "y"}, r"CSV has no classifier columns"),
    ],
)
def test_from_csv_rejects_bad_files(text, kwargs, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_csv(io.StringIO(text), **kwargs)


# -- hardening: every bad input is a SketchError that says what was wrong -----------------------
def test_from_decisions_names_a_cell_that_is_not_one_label():
    with pytest.raises(
        SketchError, match=r"decisions: list \['a'\] at item 1, classifier 'y' is not one label"
    ):
        Sketch.from_decisions([["a", "b"], ["b", ["a"]]], classifiers=["x", "y"])
    with pytest.raises(SketchError, match=r"truth: dict \{\} at truth of item 0 is not one label"):
        Sketch.from_decisions([["a", "b"], ["b", "a"]], truth=[{}, "a"])
    with pytest.raises(SketchError, match=r"population: list"):
        Sketch.from_decisions([["a", "b"], ["b", "a"]], population=[["p"], "q"])


@pytest.mark.parametrize("value", [2**63, 2**64, -(2**63) - 1, 10**40])
def test_from_decisions_refuses_label_codes_outside_64_bits(value):
    with pytest.raises(SketchError, match=rf"decisions: index {value} at position \(0, 1\) is out of range"):
        Sketch.from_decisions([[0, value], [1, 0]])
    with pytest.raises(SketchError, match=r"truth: index"):
        Sketch.from_decisions([[0, 1], [1, 0]], truth=[0, value])
    with pytest.raises(SketchError, match=r"population: index"):
        Sketch.from_decisions([[0, 1], [1, 0]], population=[0, value])


def test_from_decisions_refuses_unbounded_label_and_population_numbers():
    with pytest.raises(SketchError, match=r"labels=1000000000000: give between 2 and 65536 labels"):
        Sketch.from_decisions([[0, 1]], labels=10**12)
    with pytest.raises(SketchError, match=r"labels must be a list of label names"):
        Sketch.from_decisions([[0, 1]], labels=[0, 1])
    with pytest.raises(SketchError, match=r"population index 1000000000 is too large"):
        Sketch.from_decisions([[0, 1]], population=np.array([10**9]))


def test_from_csv_refuses_missing_undecodable_and_odd_files(tmp_path):
    with pytest.raises(SketchError, match=r"cannot read CSV file '.*nope.csv': No such file or directory"):
        Sketch.from_csv(tmp_path / "nope.csv")
    with pytest.raises(SketchError, match=r"cannot read CSV file .*: Is a directory"):
        Sketch.from_csv(tmp_path)
    with pytest.raises(SketchError, match=r"embedded null byte"):
        Sketch.from_csv("a\0b.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("m1,m2\nné,b\n".encode("latin-1"))
    with pytest.raises(
        SketchError,
        match=r"CSV file '.*latin.csv' is not UTF-8 text \(byte 0xe9 at offset 7\); save it as UTF-8",
    ):
        Sketch.from_csv(latin)
    with pytest.raises(SketchError, match=r"CSV line 1: iterator should return strings, not bytes"):
        Sketch.from_csv(io.BytesIO(b"a,b\nx,y\n"))
    with pytest.raises(SketchError, match=r"from_csv reads a path or a text file, got int"):
        Sketch.from_csv(5)


def test_from_csv_refuses_a_file_without_line_breaks_quickly():
    import time

    start = time.perf_counter()
    with pytest.raises(SketchError, match=r"CSV has a line longer than \d+ characters"):
        Sketch.from_csv("/dev/zero")
    assert time.perf_counter() - start < 5


def test_from_csv_refuses_a_cell_over_the_field_limit():
    long_cell = "x" * (csv.field_size_limit() + 1)
    with pytest.raises(
        SketchError, match=rf"CSV line 2: a cell is longer than {csv.field_size_limit()} characters"
    ):
        Sketch.from_csv(io.StringIO(f"a,b\n{long_cell},y\n"))


def test_from_csv_refuses_repeated_columns_that_disagree():
    with pytest.raises(
        SketchError, match=r"CSV has 2 columns named 'y' and they disagree on item 1 \('b' vs 'a'\); keep one"
    ):
        Sketch.from_csv(io.StringIO("m,y,y\na,a,a\nb,b,a\n"), truth="y")
    agreeing = Sketch.from_csv(io.StringIO("m,y,y\na,a,a\nb,b,b\n"), truth="y")
    assert agreeing == Sketch.from_csv(io.StringIO("m,y\na,a\nb,b\n"), truth="y")
    with pytest.raises(SketchError, match=r"CSV repeats the column names \['m'\]"):
        Sketch.from_csv(io.StringIO("m,m\na,b\n"))
    with pytest.raises(SketchError, match=r"truth and population name the same column 'y'"):
        Sketch.from_csv(io.StringIO("m,y\na,a\n"), truth="y", population="y")


def test_from_long_keeps_list_cells_as_cells_and_refuses_them():
    with pytest.raises(
        SketchError, match=r"decisions: list \['a'\] at item 0, classifier 'w1' is not one label"
    ):
        Sketch.from_long([("t1", "w1", ["a"]), ("t1", "w2", "b")])
    with pytest.raises(SketchError, match=r"task: list"):
        Sketch.from_long([(["t1"], "w1", "a")])
    with pytest.raises(SketchError, match=r"worker: names are strings or integers of at most 64 bits"):
        Sketch.from_long([("t1", 10**5000, "a")])
    with pytest.raises(SketchError, match=r"long rows must be \(task, worker, label\) triples, got NoneType"):
        Sketch.from_long(None)
    with pytest.raises(SketchError, match=r"truth must map each task to its true label, got int"):
        Sketch.from_long([("t1", "w1", "a"), ("t2", "w1", "b")], truth=5)
