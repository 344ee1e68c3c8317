"""Tests of evalgebra.data.point: exact sample statistics, equivariance, JSON form."""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError, SketchError
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import labelled_tests, rational_points, specs


def _single_population(test):
    """The sketch of one population of a LabelledTest, chosen by the test's own data."""
    sketch = test.sketch()
    return sketch.population(sketch.populations[-1])


# -- the statistics themselves --------------------------------------------------------------
@given(labelled_tests(specs(max_patterns=256, max_populations=2, named=None)))
def test_evaluation_point_equals_item_averages(test):
    """Rates and correlations equal their definitions, averaged item by item
    (their definitions as sample statistics)."""
    s = len(test.populations) - 1
    rows = test.population == s
    decisions, truth = test.decisions[rows], test.truth[rows]
    point = evaluation_point(_single_population(test), structure="complete")
    n, r_count = len(test.classifiers), len(test.labels)
    assert point.Q == len(truth)
    for ell in range(r_count):
        items = decisions[truth == ell]
        q_ell = len(items)
        assert point.prevalence[0][ell] == Fraction(q_ell, len(truth))
        if q_ell == 0:
            assert all(point.response[i][ell] is None for i in range(n))
            assert all(point.correlation[t][ell] is None for t in point.spec.structure)
            continue
        rates = [[Fraction(int((items[:, i] == r).sum()), q_ell) for r in range(r_count)] for i in range(n)]
        assert [list(point.response[i][ell]) for i in range(n)] == rates
        # centred indicators x_i(r) = 1[ans_i = r] - P_{i,r|ell}, one row per item
        centred = [
            [[Fraction(int(item[i] == r)) - rates[i][r] for r in range(r_count)] for i in range(n)]
            for item in items.tolist()
        ]
        for subset in point.spec.structure:
            for responses in itertools.product(range(r_count), repeat=len(subset)):
                total = sum(
                    (np.prod([x[i][r] for i, r in zip(subset, responses)]) for x in centred), Fraction(0)
                )
                assert point.correlation[subset][ell][responses] == total / q_ell


@given(labelled_tests(specs(max_populations=2, named=None)))
def test_expected_frequencies_reproduce_the_sketch(test):
    """The point's own tensor computation of the model is complete too."""
    sketch = _single_population(test)
    point = evaluation_point(sketch, structure="complete")
    frequencies = point.expected_frequencies()
    observed = sketch.frequencies()
    assert {p: v for p, v in frequencies.items() if v} == observed
    assert sum(frequencies.values()) == 1


@given(labelled_tests(specs(max_populations=2, named=None)), st.data())
def test_evaluation_point_structure_selects_stored_correlations(test, data):
    sketch = _single_population(test)
    complete = evaluation_point(sketch, structure="complete")
    spec = EnsembleSpec(
        test.classifiers, test.labels, data.draw(st.sampled_from(["independent", "complete"]))
    )
    point = evaluation_point(sketch, structure=spec.structure)
    assert point.prevalence == complete.prevalence and point.response == complete.response
    assert point.correlation == {t: complete.correlation[t] for t in spec.structure}


# -- equivariance -------------------------------------------------------------------------------
@given(labelled_tests(specs(max_patterns=256, max_populations=2, named=None)), st.data())
def test_evaluation_point_commutes_with_marginalise(test, data):
    sketch = test.sketch()
    n = len(test.classifiers)
    keep = list(data.draw(st.permutations(range(n))))[: data.draw(st.integers(1, n))]
    spec = EnsembleSpec(
        test.classifiers, test.labels, data.draw(st.sampled_from(["complete", "independent"]))
    )
    population = data.draw(st.sampled_from(test.populations))
    whole = evaluation_point(sketch, structure=spec.structure, population=population)
    part = evaluation_point(
        sketch.marginalise(keep), structure=spec.restrict(keep).structure, population=population
    )
    assert whole.restrict(keep) == part
    assert whole.restrict([test.classifiers[k] for k in keep]) == part


@given(labelled_tests(specs(max_patterns=256, max_populations=2, named=None)), st.data())
def test_evaluation_point_commutes_with_label_order(test, data):
    sketch = test.sketch()
    perm = list(data.draw(st.permutations(test.labels)))
    structure = data.draw(st.sampled_from(["complete", "independent"]))
    population = data.draw(st.sampled_from(test.populations))
    point = evaluation_point(sketch, structure=structure, population=population)
    relabelled = evaluation_point(sketch.with_label_order(perm), structure=structure, population=population)
    assert point.with_label_order(perm) == relabelled
    assert relabelled.with_label_order(test.labels) == point


@given(rational_points(specs(max_patterns=256, named=None), correlated=True), st.data())
def test_expected_frequencies_commute_with_restrict_and_relabel(point, data):
    """Marginalising the model's frequencies equals the model of the restricted point."""
    n = point.spec.n_classifiers
    keep = list(data.draw(st.permutations(range(n))))[: data.draw(st.integers(1, n))]
    perm = list(data.draw(st.permutations(point.spec.labels)))
    full = point.expected_frequencies()
    marginal = {}
    for pattern, value in full.items():
        key = tuple(pattern[k] for k in keep)
        marginal[key] = marginal.get(key, 0) + value
    assert point.restrict(keep).expected_frequencies() == marginal
    assert point.with_label_order(perm).expected_frequencies() == full


# -- accessors and JSON -----------------------------------------------------------------------
@given(rational_points(specs(max_patterns=256, named=None), correlated=True), st.data())
def test_correlation_value_ignores_classifier_order(point, data):
    spec = point.spec
    for subset in spec.structure:
        order = list(data.draw(st.permutations(list(subset))))
        ell = data.draw(st.sampled_from(spec.labels))
        responses = data.draw(
            st.lists(st.sampled_from(spec.labels), min_size=len(subset), max_size=len(subset))
        )
        named = dict(zip(subset, responses))
        assert point.correlation_value(
            [spec.classifiers[i] for i in order], ell, [named[i] for i in order]
        ) == point.correlation_value(subset, ell, responses)
    outside = [t for t in itertools.combinations(range(spec.n_classifiers), 2) if t not in spec.structure]
    for subset in outside:
        assert point.correlation_value(subset, spec.labels[0], spec.labels[:1] * 2) == 0


def _check_dict(point):
    data = point.to_dict()
    assert json.loads(point.to_json()) == data
    assert data["format"] == "evalgebra.point/1" and data["Q"] == point.Q
    spec = point.spec

    checked = []

    def same(text, value):
        if value is None:
            assert text is None
            return
        assert isinstance(text, str)
        assert Fraction(text) == value
        if len(checked) < 30 or value.denominator > 1 and len(checked) < 60:  # sympify is slow
            checked.append(text)
            assert sympy.sympify(text) == sympy.Rational(value.numerator, value.denominator)

    if spec.n_populations == 1:
        for label, text in data["prevalence"].items():
            same(text, point.prevalence_of()[label])
    else:
        for s, pop in enumerate(spec.populations):
            assert data["populations"][pop]["Q"] == point.sizes[s]
            for label, text in data["populations"][pop]["prevalence"].items():
                same(text, point.prevalence_of(pop)[label])
        for ell, label in enumerate(spec.labels):
            pooled = sum(Fraction(q) * row[ell] for q, row in zip(point.sizes, point.prevalence)) / point.Q
            same(data["prevalence"][label], pooled)
    for i, classifier in enumerate(spec.classifiers):
        for ell, label in enumerate(spec.labels):
            row = data["response"][classifier][label]
            if point.response[i][ell] is None:
                assert row is None
                continue
            for response, text in row.items():
                same(text, point.response_rate(classifier, response, label))
    expected_entries = sum(spec.n_labels ** (len(t) + 1) for t in spec.structure)
    assert len(data["correlation"]) == expected_entries
    for entry in data["correlation"]:
        value = point.correlation_value(entry["classifiers"], entry["true_label"], entry["responses"])
        same(entry["value"], value)


@given(labelled_tests(specs(max_patterns=81, named=None)))
def test_to_dict_values_are_exact_strings_for_points_of_sketches(test):
    _check_dict(evaluation_point(_single_population(test), structure="complete"))


@given(rational_points(specs(max_patterns=81, named=None), correlated=True))
def test_to_dict_values_are_exact_strings_for_chosen_points(point):
    _check_dict(point)


@given(
    rational_points(specs(max_patterns=81, min_classifiers=2, max_populations=3, named=None), correlated=True)
)
def test_to_dict_values_are_exact_strings_for_several_populations(point):
    _check_dict(evaluation_point(expected_sketch(point), structure=point.spec.structure))


def test_to_dict_of_a_chosen_point_with_several_populations():
    spec = EnsembleSpec(2, 2, populations=["p", "q"])
    point = EvaluationPoint.from_values(
        spec, {"p": {"a": "1/2"}, "q": {"a": "1/4"}}, accuracy={0: {"a": 1, "b": 1}, 1: {"a": 1, "b": 1}}
    )
    data = point.to_dict()
    assert data["populations"]["q"]["prevalence"]["a"] == "1/4"


# -- from_values -------------------------------------------------------------------------------
def test_from_values_accuracy_and_response_forms_agree():
    spec = EnsembleSpec(2, ["yes", "no"], "complete")
    by_accuracy = EvaluationPoint.from_values(
        spec,
        {"yes": "1/3"},
        accuracy={"c0": {"yes": "3/4", "no": "1/2"}, 1: {"yes": 1, "no": "2/3"}},
        correlation={("c1", "c0"): {"yes": "1/16", "no": Fraction(-1, 12)}},
    )
    by_response = EvaluationPoint.from_values(
        spec,
        {"yes": Fraction(1, 3), "no": "2/3"},
        response={
            0: {"yes": {"no": "1/4"}, "no": {"no": "1/2", "yes": "1/2"}},
            1: {"yes": {"yes": 1}, "no": {"yes": "1/3"}},
        },
        correlation={(0, 1): {"yes": {("yes", "yes"): "1/16"}, "no": {("no", "no"): "-1/12"}}},
    )
    assert by_accuracy == by_response
    assert by_accuracy.correlation_value((0, 1), "yes", ("no", "yes")) == Fraction(-1, 16)
    assert by_accuracy.correlation_value((0, 1), "no", ("no", "no")) == Fraction(-1, 12)
    assert by_accuracy.response_rate(0, "no", "yes") == Fraction(1, 4)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"prevalence": {"a": 0.5}},
            r"prevalence 'a': 0.5 is not exact; give an int, a Fraction or a 'p/q' string",
        ),
        ({"prevalence": {"a": True}}, r"True is not exact"),
        ({"prevalence": {"a": "half"}}, r"prevalence 'a': cannot read 'half' as a rational"),
        ({"prevalence": {"a": "1/0"}}, r"cannot read '1/0' as a rational"),
        (
            {"prevalence": {"a": "1/2", "b": "1/3"}},
            r"prevalences of population 'all' must be 2 non-negative rationals summing to 1, "
            r"got \['1/2', '1/3'\]",
        ),
        ({"prevalence": {"a": "3/2"}}, r"non-negative rationals summing to 1, got \['3/2', '-1/2'\]"),
        ({"prevalence": {"b": "1/2"}}, r"give all prevalences, or all but the last label's"),
        ({"accuracy": {0: {"a": 0.75, "b": 1}, 1: {"a": 1, "b": 1}}}, r"response c0/a\|a: 0.75 is not exact"),
        (
            {"accuracy": {0: {"a": "3/2", "b": 1}, 1: {"a": 1, "b": 1}}},
            r"response row of classifier 'c0', true label 'a' must be 2 non-negative rationals summing to 1, "
            r"got \['3/2', '-1/2'\]",
        ),
        (
            {
                "accuracy": None,
                "response": {
                    0: {"a": {"a": "1/2", "b": "1/3"}, "b": {"b": 1}},
                    1: {"a": {"a": 1}, "b": {"b": 1}},
                },
            },
            r"summing to 1, got \['1/2', '1/3'\]",
        ),
        ({"accuracy": {0: {"a": 1, "b": 1}}}, r"no response rows for classifier 'c1'"),
        ({"accuracy": {0: {"a": 1, "b": 1}, 1: {"a": 1}}}, r"no row for classifier 'c1', true label 'b'"),
        (
            {"response": {0: {"a": {"a": 1}, "b": {"b": 1}}, 1: {"a": {"a": 1}, "b": {"b": 1}}}},
            r"give exactly one of response= or accuracy=",
        ),
        ({"correlation": {(0, 1): {"a": "1/8"}}}, r"subset \(0, 1\) is not in the structure \(\)"),
        (
            {"correlation": {(0, 1): {"a": 0.125}}, "structure": "complete"},
            r"correlation \(0, 1\): 0.125 is not exact",
        ),
        (
            {"correlation": {(0, 1): {"a": {("a", "a"): "1/8", ("a", "b"): "1/8"}}}, "structure": "complete"},
            r"correlation value 1/8 at responses \(0, 1\) contradicts the free values \(they imply -1/8\)",
        ),
    ],
)
def test_from_values_rejects_bad_values(kwargs, message):
    kwargs = dict(kwargs)
    spec = EnsembleSpec(2, 2, kwargs.pop("structure", "independent"))
    arguments = {
        "prevalence": {"a": "1/2"},
        "accuracy": {0: {"a": "1/2", "b": "1/2"}, 1: {"a": "1/2", "b": "1/2"}},
    }
    arguments.update(kwargs)
    arguments = {k: v for k, v in arguments.items() if v is not None}
    with pytest.raises(PointError, match=message):
        EvaluationPoint.from_values(spec, **arguments)


def test_from_values_rejects_shapes_for_other_label_counts():
    spec = EnsembleSpec(2, 3, "complete")
    rows = {i: {ell: {r: int(r == ell) for r in "abc"} for ell in "abc"} for i in range(2)}
    with pytest.raises(PointError, match=r"accuracy= describes rows only for two labels; use response="):
        EvaluationPoint.from_values(spec, {"a": "1/3", "b": "1/3"}, accuracy={0: {"a": 1}})
    with pytest.raises(PointError, match=r"a single correlation value needs two labels"):
        EvaluationPoint.from_values(
            spec, {"a": "1/3", "b": "1/3"}, response=rows, correlation={(0, 1): {"a": "1/9"}}
        )
    with pytest.raises(
        PointError, match=r"row of classifier 'c0', true label 'a': give every response, or all but one"
    ):
        EvaluationPoint.from_values(
            spec, {"a": "1/3", "b": "1/3"}, response={0: {"a": {}, "b": {"b": 1}, "c": {"c": 1}}, 1: rows[1]}
        )
    with pytest.raises(PointError, match=r"no prevalences for population 'q'"):
        EvaluationPoint.from_values(
            EnsembleSpec(1, 2, populations=["p", "q"]), {"p": {"a": 1}}, accuracy={0: {"a": 1, "b": 1}}
        )


def test_EvaluationPoint_rejects_inconsistent_tables():
    spec = EnsembleSpec(2, 2, "complete")
    rows = [[[Fraction(1, 2)] * 2] * 2] * 2
    bad = {
        (0, 1): [
            {
                (0, 0): Fraction(1, 8),
                (0, 1): Fraction(1, 8),
                (1, 0): Fraction(-1, 8),
                (1, 1): Fraction(-1, 8),
            },
            None,
        ]
    }
    with pytest.raises(
        PointError,
        match=r"correlations of \(0, 1\) on label 'a' must sum to 0 over each classifier's response; "
        r"they sum to 1/4",
    ):
        EvaluationPoint(spec, [[Fraction(1, 2)] * 2], rows, bad)
    with pytest.raises(
        PointError, match=r"correlations must be given for exactly the subsets of the structure"
    ):
        EvaluationPoint(spec, [[Fraction(1, 2)] * 2], rows, {})
    with pytest.raises(PointError, match=r"need prevalences for 1 population"):
        EvaluationPoint(spec, [], rows, {(0, 1): [None, None]})
    with pytest.raises(PointError, match=r"need response rows for 2 classifiers"):
        EvaluationPoint(spec, [[Fraction(1, 2)] * 2], rows[:1], {(0, 1): [None, None]})


def test_accessors_report_undefined_statistics():
    point = evaluation_point(Sketch.from_decisions([["a", "b"]], labels=["a", "b"], truth=["a"]))
    assert point.accuracy(0, "b") is None and point.correlation_value((0, 1), "b", ("a", "a")) is None
    with pytest.raises(PointError, match=r"label 'b' has no items: its rows are undefined"):
        point.pattern_distribution("b")
    with pytest.raises(PointError, match=r"correlations need two or more classifiers"):
        point.correlation_value((0,), "a", ("a",))
    chosen = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": 1}, accuracy={0: {"a": 1, "b": 1}})
    assert chosen.Q is None
    with pytest.raises(PointError, match=r"R-space values need the test size; this point has none"):
        chosen.free_values("R")


def test_evaluation_point_needs_labels_and_shared_rows():
    sketch = Sketch.from_decisions([["a", "b"], ["b", "b"]], labels=["a", "b"])
    with pytest.raises(
        SketchError, match=r"the evaluation point needs an answer key: this sketch is unlabelled"
    ):
        evaluation_point(sketch)
    strata = Sketch.from_decisions([["a"], ["b"]], labels=["a", "b"], truth=["a", "a"], population=["p", "q"])
    with pytest.raises(
        SketchError,
        match=r"the populations differ in the response rows of 'c0' on 'a': the shared-rows "
        r"model does not hold",
    ):
        evaluation_point(strata)
    assert evaluation_point(strata, population="q").accuracy(0, "a") == 0


def test_evaluation_point_of_populations_with_an_absent_label():
    spec = EnsembleSpec(2, 2, populations=["p", "q"])
    half = {"a": "1/2", "b": "1/2"}
    point = EvaluationPoint.from_values(spec, {"p": {"a": "1/2"}, "q": {"a": 0}}, accuracy={0: half, 1: half})
    shared = evaluation_point(expected_sketch(point), structure="independent")
    assert shared.prevalence == point.prevalence and shared.response == point.response
