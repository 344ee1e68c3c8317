"""Larger ensembles trio by trio: the trios are aligned on their shared classifiers before they are
combined, so an exactly independent test gives its truth (or one renaming of it) exactly, never an
average of renamings; trios that cannot be aligned are reported, not averaged."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.independent.abstention import evaluate_abstentions
from evalgebra.evaluators.independent.algebraic import evaluate_independent
from evalgebra.evaluators.many_labels.solve import DETAIL_UNDECIDED, evaluate_counts_many_labels
from evalgebra.evaluators.trio_alignment import (
    combine_trios,
    combined_evaluation,
    least_assignment,
    relabel,
    total_accuracy_assignment,
)
from evalgebra.results import Estimate, Evaluation
from evalgebra.spec import EnsembleSpec


def _renamings(point: Estimate, truth: EvaluationPoint) -> list[tuple[int, ...]]:
    """Every renaming of the truth's labels that ``point`` equals exactly on its defined values."""
    labels, answers = truth.spec.labels, truth.spec.responses
    prevalence = truth.prevalence_of()
    found = []
    for perm in itertools.permutations(range(len(labels))):
        name = {labels[k]: labels[perm[k]] for k in range(len(labels))}  # true label -> its name in point
        same = all(point.prevalence[name[t]] == prevalence[t] for t in labels)
        for c in truth.spec.classifiers:
            rows = point.response_rows()[c]
            same = same and all(
                rows[name[t]][a] is None or rows[name[t]][a] == truth.response_rate(c, a, t)
                for t in labels
                for a in answers
            )
        if same:
            found.append(perm)
    return found


def _exact(point: Estimate) -> bool:
    rows = point.response_rows()
    values = [
        *point.prevalence.values(),
        *(
            v
            for by_truth in rows.values()
            for row in by_truth.values()
            for v in row.values()
            if v is not None
        ),
    ]
    return all(isinstance(v, Fraction) for v in values)


def _regression_truth(seed: int = 1) -> EvaluationPoint:
    """Five classifiers, four labels, prevalences 1/7, 1/7, 4/7, 1/7, exact random response rows."""
    rng = random.Random(seed)
    spec = EnsembleSpec(5, 4)
    labels = spec.labels

    def row() -> list[Fraction]:
        weights = [rng.randint(1, 5) for _ in labels]
        return [Fraction(w, sum(weights)) for w in weights]

    response = {c: {t: dict(zip(labels, row())) for t in labels} for c in spec.classifiers}
    prevalence = dict(zip(labels, [Fraction(1, 7), Fraction(1, 7), Fraction(4, 7), Fraction(1, 7)]))
    return EvaluationPoint.from_values(spec, prevalence, response=response)


# -- the finding of issue 21 ----------------------------------------------------------------------
def test_trios_of_five_classifiers_four_labels_give_the_truth_or_one_renaming():
    """Regression: every trio held the truth, several decoded other renamings, and the chosen point
    was the mean of all ten (prevalences 13/70, 13/70, 31/70, 13/70): an evaluation of nothing."""
    truth = _regression_truth()
    result = evaluate_independent(expected_sketch(truth).unlabelled())
    decoded = {tuple(t.point.prevalence.values()) for t in result.trios}
    assert len(result.trios) == 10 and len(decoded) > 1  # the trios decode different renamings
    for trio in result.trios:  # every trio holds the truth
        assert _renamings(trio.point, truth.restrict(list(trio.classifiers)))
    assert result.chosen == 0 and result.alarms == ()
    assert len(_renamings(result.point, truth)) == 1 and _exact(result.point)
    assert sorted(result.point.prevalence.values()) == sorted(truth.prevalence_of().values())


def test_trios_of_binary_classifiers_that_decode_both_sides_give_the_truth_or_its_mirror():
    """Two labels: the label swap is the only renaming; trios of classifiers worse than chance
    decode the other side, and the combination is still the truth or its mirror, exactly."""
    accuracy = {
        0: {"a": "3/4", "b": "2/3"},
        1: {"a": "4/5", "b": "3/5"},
        2: {"a": "1/5", "b": "1/3"},
        3: {"a": "1/4", "b": "2/5"},
        4: {"a": "1/6", "b": "1/4"},
    }
    truth = EvaluationPoint.from_values(EnsembleSpec(5, 2), {"a": "1/3"}, accuracy=accuracy)
    result = evaluate_independent(expected_sketch(truth).unlabelled())
    assert {t.point.prevalence["a"] for t in result.trios} == {Fraction(1, 3), Fraction(2, 3)}
    assert "trio_disagreement" not in result.alarm_kinds()
    assert len(_renamings(result.point, truth)) == 1 and _exact(result.point)


# -- the property ---------------------------------------------------------------------------------
@st.composite
def independent_points(draw: st.DrawFn, abstain: bool = False) -> EvaluationPoint:
    """An exactly independent rational point: N in 4..6, R in 2..4, every prevalence and rate
    positive, each row integer weights 1..6 normalised (abstentions, when asked for, on a coin
    flip: one abstention)."""
    n, r = draw(st.integers(4, 6)), draw(st.integers(2, 4))
    n = min(n, 5) if r == 4 else n  # 4^6 patterns are slow to build from a point
    spec = EnsembleSpec(n, r, abstain=["x"] if abstain and draw(st.booleans()) else None)

    def row(size: int, top: int) -> list[Fraction]:
        weights = draw(st.lists(st.integers(1, top), min_size=size, max_size=size))
        return [Fraction(w, sum(weights)) for w in weights]

    prevalence = row(r, 4)
    rows = [[row(spec.n_responses, 6) for _ in range(r)] for _ in range(n)]
    return EvaluationPoint(spec, [prevalence], rows, {})


SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


def _check_renamings(result: Evaluation, truth: EvaluationPoint) -> None:
    """Every point reported is the truth under one renaming of its labels, exactly; a point is
    reported whenever every trio is an exact independent evaluation."""
    for point in result.points:
        assert len(_renamings(point, truth)) >= 1, point
        assert _exact(point)
    clean = all(t.points and t.alarm_kinds() <= {"undecided", "outside_unit_cube"} for t in result.trios)
    if clean:
        assert result.points and "trio_disagreement" not in result.alarm_kinds()


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(independent_points())
def test_combined_trios_are_the_truth_or_one_renaming(truth):
    _check_renamings(evaluate_independent(expected_sketch(truth).unlabelled()), truth)


def _abstaining_coin_and_three() -> EvaluationPoint:
    """Four binary classifiers that may abstain ('x'), prevalences 1/2: c0 answers a, b, x with 1/3 each
    whatever the truth; c1..c3 answer a and b alike under both labels, only their abstentions tell."""
    third, quarter = Fraction(1, 3), Fraction(1, 4)
    spec = EnsembleSpec(4, 2, abstain=["x"])
    coin = [[third] * 3, [third] * 3]
    rows = [coin] + [[[third] * 3, [quarter, quarter, Fraction(1, 2)]] for _ in range(3)]
    return EvaluationPoint(spec, [[Fraction(1, 2)] * 2], rows, {})


@settings(max_examples=15, deadline=None, suppress_health_check=SLOW)
@given(independent_points(abstain=True))
@example(_abstaining_coin_and_three())  # found by Hypothesis: floats in an exact evaluation
def test_abstention_combined_trios_are_the_truth_or_one_renaming(truth):
    sketch = expected_sketch(truth).unlabelled()
    evaluate = evaluate_abstentions if truth.spec.abstain else evaluate_independent
    _check_renamings(evaluate(sketch), truth)


def test_abstention_rows_stay_exact_beside_a_classifier_no_trio_fixes():
    """Regression: every trio with c0 is a blind spot, so c0's collapsed rows are undefined in the
    combination; that None made the abstention step switch to floats for every classifier. Now the
    point is exact, c0's abstention rows are fixed by its pairs with c1..c3 (1/3 under each label),
    and its label rows are None with a blind_spot alarm naming it."""
    truth = _abstaining_coin_and_three()
    result = evaluate_abstentions(expected_sketch(truth).unlabelled())
    assert [t.classifiers for t in result.trios if not t.alarms] == [("c1", "c2", "c3")]
    assert len(_renamings(result.point, truth)) == 1 and _exact(result.point)
    rows = result.point.response_rows()
    assert rows["c0"] == {t: {"a": None, "b": None, "x": Fraction(1, 3)} for t in ("a", "b")}
    assert rows["c1"]["b"] == {"a": Fraction(1, 4), "b": Fraction(1, 4), "x": Fraction(1, 2)}
    assert any(
        a.kind == "blind_spot" and a.classifiers == ("c0",) and "no trio" in a.detail for a in result.alarms
    )


# -- trios that cannot be aligned are reported, not averaged ---------------------------------------
def _trio(names: tuple[str, ...], prevalence: dict[str, str], rows: dict[str, dict[str, str]]) -> Evaluation:
    point = EvaluationPoint.from_values(EnsembleSpec(3, 3), prevalence, response={i: rows for i in range(3)})
    return evaluate_counts_many_labels(expected_sketch(point).count_vector().tolist(), ("a", "b", "c"), names)


def test_exact_trios_that_disagree_are_not_combined():
    """Two trios, each an exact independent evaluation of its own counts, whose shared classifiers
    have different rows under every renaming: no point, an alarm that says so."""
    rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    other = {"a": {"a": "3/5", "b": "1/5"}, "b": {"a": "1/5", "b": "7/10"}, "c": {"a": "1/10", "b": "1/5"}}
    trios = [
        _trio(("c0", "c1", "c2"), {"a": "1/2", "b": "3/10"}, rows),
        _trio(("c0", "c1", "c3"), {"a": "1/2", "b": "3/10"}, other),
    ]
    assert all(t.alarms == () for t in trios)
    labels = ("a", "b", "c")
    result = combined_evaluation(
        trios,
        labels,
        ("c0", "c1", "c2", "c3"),
        lambda point: total_accuracy_assignment(point, labels),
        DETAIL_UNDECIDED,
    )
    assert result.points == () and result.chosen is None
    [alarm] = [a for a in result.alarms if a.kind == "trio_disagreement"]
    assert "not combined" in alarm.detail and "no independent evaluation" in alarm.detail
    assert result.trios == tuple(trios)


def test_sampled_sketch_with_rational_trios_that_disagree_is_not_combined():
    """Four binary classifiers on 14 items: every usable trio is rational (an exact independent
    evaluation of its counts), and no choice of sides makes them agree (brute force)."""
    sketch = Sketch.from_counts(
        {"aaaa": 1, "aaab": 3, "aaba": 3, "abab": 1, "baaa": 4, "baba": 1, "bbab": 1}, labels=["a", "b"]
    )
    result = evaluate_independent(sketch)
    usable = [t for t in result.trios if not {"blind_spot", "complex"} & t.alarm_kinds()]
    assert len(usable) >= 2 and all(_exact(p) for t in usable for p in t.points)
    agree = []
    for sides in itertools.product((0, 1), repeat=len(usable)):
        points = [t.points[s] for t, s in zip(usable, sides)]
        agree.append(
            all(
                p.prevalence == q.prevalence
                and all(p.accuracy[c] == q.accuracy[c] for c in p.accuracy if c in q.accuracy)
                for p, q in itertools.combinations(points, 2)
            )
        )
    assert not any(agree)
    assert result.points == () and any(
        a.kind == "trio_disagreement" and "not combined" in a.detail for a in result.alarms
    )


def test_trios_whose_best_renaming_is_tied_are_not_combined():
    """A trio that shares one classifier with the others, whose rows (and the prevalences) do not
    tell two labels apart: either renaming fits, so nothing is averaged."""
    labels = ("a", "b")
    blind = {"a": 0.5, "b": 0.5}

    def trio(names, accuracy):
        point = Estimate({"a": 0.5, "b": 0.5}, {c: row for c, row in zip(names, accuracy)})
        return Evaluation(method="algebraic", labels=labels, classifiers=names, points=(point,), chosen=0)

    trios = [
        trio(("c0", "c1", "c2"), [blind, {"a": 0.9, "b": 0.7}, {"a": 0.8, "b": 0.6}]),
        trio(("c0", "c3", "c4"), [blind, {"a": 0.6, "b": 0.9}, {"a": 0.7, "b": 0.8}]),
    ]
    combination = combine_trios(trios, labels, ("c0", "c1", "c2", "c3", "c4"))
    assert combination.point is None and combination.relabellings[1] is None
    [alarm] = combination.alarms
    assert alarm.kind == "trio_disagreement" and "c0, c3, c4" in alarm.detail


def test_sampled_trios_that_differ_are_aligned_then_averaged_with_an_alarm():
    """Not exact (floats): the trios differ, the combination is their aligned mean and says so."""
    labels = ("a", "b")

    def trio(names, p, accuracy):
        point = Estimate({"a": p, "b": 1 - p}, dict(zip(names, accuracy)))
        return Evaluation(method="algebraic", labels=labels, classifiers=names, points=(point,), chosen=0)

    first = trio(("c0", "c1", "c2"), 0.25, [{"a": 0.75, "b": 0.65}] * 3)
    second = trio(("c0", "c1", "c3"), 0.77, [{"a": 0.36, "b": 0.24}] * 3)  # the other side, a little off
    result = combined_evaluation(
        [first, second],
        labels,
        ("c0", "c1", "c2", "c3"),
        lambda point: total_accuracy_assignment(point, labels),
        "tie",
    )
    assert result.point.prevalence["a"] == pytest.approx((0.25 + 0.23) / 2)
    assert result.point.accuracy["c3"] == {"a": pytest.approx(0.76), "b": pytest.approx(0.64)}
    assert result.point.accuracy["c0"] == {"a": pytest.approx(0.755), "b": pytest.approx(0.645)}
    assert "trio_disagreement" in result.alarm_kinds()


# -- the pieces -------------------------------------------------------------------------------------
@given(
    st.lists(st.lists(st.fractions(-3, 3, max_denominator=4), min_size=4, max_size=4), min_size=4, max_size=4)
)
def test_least_assignment_matches_brute_force(cost):
    totals = {perm: sum(cost[k][perm[k]] for k in range(4)) for perm in itertools.permutations(range(4))}
    best = min(totals.values())
    winners = [perm for perm, total in totals.items() if total == best]
    perm, value = least_assignment(cost)
    assert value == best and isinstance(value, Fraction)
    assert perm == (winners[0] if len(winners) == 1 else None)


@given(independent_points(), st.data())
def test_relabel_is_a_group_action(truth, data):
    labels = truth.spec.labels
    names = truth.spec.classifiers
    point = Estimate(
        truth.prevalence_of(),
        {c: {t: truth.accuracy(c, t) for t in labels} for c in names},
        response={c: {t: {a: truth.response_rate(c, a, t) for a in labels} for t in labels} for c in names},
    )
    first = tuple(data.draw(st.permutations(range(len(labels)))))
    second = tuple(data.draw(st.permutations(range(len(labels)))))
    composed = tuple(second[first[k]] for k in range(len(labels)))
    assert relabel(relabel(point, first, labels), second, labels) == relabel(point, composed, labels)
    assert relabel(point, tuple(range(len(labels))), labels) == point
    assert _renamings(relabel(point, first, labels), truth) != []
