"""Tests of evalgebra.datasets: the bundled sketches agree with their item files."""

import csv
from collections import Counter
from fractions import Fraction

import pytest

from evalgebra import datasets
from evalgebra.builder import GeneratingSet
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError


@pytest.fixture(scope="module")
def acs():
    return datasets.load("acs_employment")


def test_load_equals_the_items_csv(acs):
    from_items = Sketch.from_csv(datasets.items_csv("acs_employment"), truth="truth")
    assert acs == from_items
    assert acs.classifiers == ("c1", "c2", "c3") and acs.labels == ("a", "b")


def test_items_csv_rows_tally_to_load(acs):
    with open(datasets.items_csv("acs_employment"), newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    tally = Counter((row["truth"], (row["c1"], row["c2"], row["c3"])) for row in rows)
    assert len(rows) == acs.Q
    for label, table in acs.by_true_label().items():
        assert table == {p: c for (t, p), c in tally.items() if t == label}


def test_load_point_prevalence_from_counts(acs):
    point = evaluation_point(acs)
    split = acs.by_true_label()
    q_a = sum(split["a"].values())
    assert q_a + sum(split["b"].values()) == acs.Q
    assert point.prevalence_of()["a"] == Fraction(q_a, acs.Q)
    assert point.Q == acs.Q
    for classifier in range(3):
        correct = sum(c for p, c in split["b"].items() if p[classifier] == "b")
        assert point.accuracy(classifier, "b") == Fraction(correct, sum(split["b"].values()))


def test_load_complete_generating_set_reproduces_frequencies(acs):
    point = evaluation_point(acs, structure="complete")
    gs = GeneratingSet(acs.spec("complete"))
    observed = gs.observed_values(acs)
    assert sum(observed) == 1 and all(isinstance(v, Fraction) for v in observed)
    assert all(r == 0 for r in gs.residuals(point.free_values(), observed))
    rspace = GeneratingSet(acs.spec("complete"), "R")
    assert all(r == 0 for r in rspace.residuals(point.free_values("R"), rspace.observed_values(acs)))
    # the independent set does not: these classifiers are not sample independent
    independent = GeneratingSet(acs.spec())
    free = evaluation_point(acs, structure="independent").free_values()
    assert any(r != 0 for r in independent.residuals(free, independent.observed_values(acs)))


def test_path_json_is_canonical(acs):
    assert datasets.path("acs_employment").read_text(encoding="utf-8") == acs.to_json()
    assert datasets.names() == ("acs_employment", "bigbench_mistake")
    for name in datasets.names():
        assert datasets.path(name).read_text(encoding="utf-8") == datasets.load(name).to_json()


def test_load_rejects_unknown_names():
    with pytest.raises(
        SketchError, match=r"no bundled dataset 'mnist'; available: \['acs_employment', 'bigbench_mistake'\]"
    ):
        datasets.load("mnist")
    with pytest.raises(SketchError, match=r"no per-item CSV for 'mnist'; available: \['acs_employment'\]"):
        datasets.items_csv("mnist")
