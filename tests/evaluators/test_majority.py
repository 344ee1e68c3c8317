"""Tests of evalgebra.evaluators.majority: the majority-voting evaluator."""

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra import datasets
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.majority import evaluate_majority, majority_vote_counts
from evalgebra.testing import labelled_tests, specs

from_counts = Sketch.from_counts  # the constructor as a plain function

tests_ = labelled_tests(specs(max_populations=3, named=None))
rules = st.sampled_from(["split", "drop", "prefer"])


def _ties(rule, labels, data):
    """A ``ties`` argument: a rule word or a drawn label preference order."""
    if rule != "prefer":
        return rule
    order = data.draw(st.permutations(list(labels)))
    return order[: data.draw(st.integers(1, len(order)))]


def _brute_force(decisions, labels, classifiers, ties, abstain=()):
    """Majority vote item by item, straight from the definition, in exact fractions.

    An answer in ``abstain`` is no vote; an item without a vote is imputed nothing.
    """
    imputed = {lab: Fraction(0) for lab in labels}
    agreed = {c: {lab: Fraction(0) for lab in labels} for c in classifiers}
    share_of = {}
    for row in decisions:
        votes = Counter(answer for answer in row if answer not in abstain)
        if not votes:
            continue
        top = max(votes.values())
        tied = [lab for lab in labels if votes.get(lab, 0) == top]
        if len(tied) == 1:
            shares = {tied[0]: Fraction(1)}
        elif ties == "split":
            shares = {lab: Fraction(1, len(tied)) for lab in tied}
        elif ties == "drop":
            shares = {}
        else:
            order = list(ties) + [lab for lab in labels if lab not in ties]
            shares = {min(tied, key=order.index): Fraction(1)}
        for lab, share in shares.items():
            imputed[lab] += share
            share_of[tuple(row), lab] = share_of.get((tuple(row), lab), 0) + share
            for name, answer in zip(classifiers, row):
                if answer == lab:
                    agreed[name][lab] += share
    total = sum(imputed.values())
    prevalence = {lab: (imputed[lab] / total if total else None) for lab in labels}
    accuracy = {
        c: {lab: (agreed[c][lab] / imputed[lab] if imputed[lab] else None) for lab in labels}
        for c in classifiers
    }
    responses = list(labels) + list(abstain)
    patterns = sorted({tuple(row) for row in decisions}, key=lambda p: [responses.index(x) for x in p])
    partition = {lab: [(p, Fraction(share_of.get((p, lab), 0))) for p in patterns] for lab in labels}
    return prevalence, accuracy, partition


@given(tests_, rules, st.data())
def test_majority_vote_equals_item_by_item_brute_force(test, rule, data):
    ties = _ties(rule, test.labels, data)
    ev = evaluate_majority(test.sketch(), ties=ties)
    prevalence, accuracy, partition = _brute_force(
        test.decision_names().tolist(), list(test.labels), list(test.classifiers), ties
    )
    assert ev.method == "majority" and ev.chosen == 0 and len(ev.points) == 1
    assert ev.point.prevalence == prevalence
    assert ev.point.accuracy == accuracy
    assert ev.partition == partition
    undefined = [lab for lab in test.labels if accuracy[test.classifiers[0]][lab] is None]
    assert {a.kind for a in ev.alarms} <= {"blind_spot"}
    assert (len(ev.alarms) == len(undefined)) or all(v is None for v in prevalence.values())
    assert all(isinstance(v, Fraction) and 0 <= v <= 1 for v in ev.point.values() if v is not None)


def _seed_002_closed_form(n):
    """Algebraic Evaluation Theorems, S1-S8, written out for classifiers i, j, k = c0, c1, c2 and A = 'a'."""
    q = sum(n.values())
    f = {p: Fraction(c, q) for p, c in n.items()}
    p_a = f["aaa"] + f["aab"] + f["aba"] + f["baa"]  # S1
    p_b = f["bbb"] + f["bba"] + f["bab"] + f["abb"]  # S2

    def ratio(top, bottom):
        return top / bottom if bottom else None

    accuracy = {
        "c0": {
            "a": ratio(f["aaa"] + f["aab"] + f["aba"], p_a),  # S3
            "b": ratio(f["bbb"] + f["bba"] + f["bab"], p_b),
        },  # S4
        "c1": {
            "a": ratio(f["aaa"] + f["aab"] + f["baa"], p_a),  # S5
            "b": ratio(f["bbb"] + f["bba"] + f["abb"], p_b),
        },  # S6
        "c2": {
            "a": ratio(f["aaa"] + f["aba"] + f["baa"], p_a),  # S7
            "b": ratio(f["bbb"] + f["bab"] + f["abb"], p_b),
        },  # S8
    }
    return {"a": p_a, "b": p_b}, accuracy


@given(st.lists(st.integers(0, 40), min_size=8, max_size=8).filter(any), st.integers(0, 2**32 - 1))
def test_majority_vote_matches_seed_002_closed_form_s1_s8(values, seed):
    names = ["".join(p) for p in itertools.product("ab", repeat=3)]
    n = dict(zip(names, values))
    # per-item route: one row per item, shuffled, counted by from_decisions
    rows = np.repeat(np.array([list(p) for p in names], dtype=object), values, axis=0)
    rows = rows[np.random.default_rng(seed).permutation(len(rows))]
    sketch = Sketch.from_decisions(rows, labels=["a", "b"])
    prevalence, accuracy = _seed_002_closed_form(n)
    ev = evaluate_majority(sketch)
    assert ev.point.prevalence == prevalence
    assert ev.point.accuracy == accuracy
    assert len(ev.alarms) == sum(v is None for v in accuracy["c0"].values())


def test_majority_vote_reproduces_seed_002_table_1_mv_columns():
    # Algebraic Evaluation Theorems, Table 1, "MV" columns, rows in the table's order
    table = {
        "aaa": (568, 0),
        "aab": (553, 0),
        "aba": (649, 0),
        "baa": (1813, 0),
        "bba": (0, 3534),
        "bab": (0, 3607),
        "abb": (0, 1068),
        "bbb": (0, 8208),
    }
    ev = evaluate_majority(datasets.load("acs_employment"))
    for ell, label in enumerate("ab"):
        got = {"".join(p): c for p, c in ev.partition[label]}
        assert got == {p: counts[ell] for p, counts in table.items()}
    assert ev.point.prevalence == {"a": Fraction(3583, 20000), "b": Fraction(16417, 20000)}
    assert ev.point.accuracy["c1"] == {"a": Fraction(1770, 3583), "b": Fraction(15349, 16417)}
    assert ev.alarms == ()  # MV never alarms, though the true prevalence of a is 2000/20000


@given(tests_, rules, st.data())
def test_majority_vote_equivariant_under_permuting_classifiers(test, rule, data):
    sketch = test.sketch()
    ties = _ties(rule, test.labels, data)
    order = data.draw(st.permutations(range(len(test.classifiers))))
    ev = evaluate_majority(sketch, ties=ties)
    moved = evaluate_majority(sketch.marginalise(order), ties=ties)
    assert moved.classifiers == tuple(test.classifiers[i] for i in order)
    assert moved.point.prevalence == ev.point.prevalence
    assert moved.point.accuracy == {c: ev.point.accuracy[c] for c in moved.classifiers}
    for label in test.labels:
        expected = {tuple(p[i] for i in order): c for p, c in ev.partition[label]}
        assert dict(moved.partition[label]) == expected
    assert moved.alarms == ev.alarms


@given(tests_, rules, st.data())
def test_majority_vote_equivariant_under_permuting_labels(test, rule, data):
    labels = list(test.labels)
    sigma = data.draw(st.permutations(range(len(labels))))
    ties = _ties(rule, labels, data)
    renamed = Sketch.from_decisions(
        np.array(sigma, dtype=np.int64)[test.decisions], labels=labels, classifiers=test.classifiers
    )
    # a partial preference continues in the sketch's label order, so the image of the
    # tie rule is the image of the complete order it stands for
    full = ties if rule != "prefer" else list(ties) + [lab for lab in labels if lab not in ties]
    moved_ties = full if rule != "prefer" else [labels[sigma[labels.index(x)]] for x in full]
    ev = evaluate_majority(test.sketch(), ties=ties)
    moved = evaluate_majority(renamed, ties=moved_ties)
    image = {lab: labels[sigma[k]] for k, lab in enumerate(labels)}
    assert moved.point.prevalence == {image[k]: v for k, v in ev.point.prevalence.items()}
    for c in test.classifiers:
        assert moved.point.accuracy[c] == {image[k]: v for k, v in ev.point.accuracy[c].items()}
    for label in labels:
        expected = {tuple(image[x] for x in p): v for p, v in ev.partition[label]}
        assert dict(moved.partition[image[label]]) == expected
    # listing the same labels in another order changes nothing but dictionary order
    reordered = evaluate_majority(test.sketch().with_label_order([labels[k] for k in sigma]), ties=full)
    assert reordered.point.prevalence == ev.point.prevalence
    assert reordered.point.accuracy == ev.point.accuracy
    assert {k: dict(v) for k, v in reordered.partition.items()} == {
        k: dict(v) for k, v in ev.partition.items()
    }


@given(tests_, rules, st.data())
def test_majority_vote_perfect_ensemble_gives_the_truth(test, rule, data):
    perfect = Sketch.from_decisions(
        np.repeat(test.truth[:, None], len(test.classifiers), axis=1),
        labels=test.labels,
        classifiers=test.classifiers,
        truth=test.truth,
    )
    ev = evaluate_majority(perfect, ties=_ties(rule, test.labels, data))
    q_ell = perfect.label_counts()
    assert ev.point.prevalence == {lab: Fraction(q, perfect.Q) for lab, q in q_ell.items()}
    for row in ev.point.accuracy.values():
        assert row == {lab: (Fraction(1) if q else None) for lab, q in q_ell.items()}
    by_truth = perfect.by_true_label()
    for label in test.labels:
        assert {p: c for p, c in ev.partition[label] if c} == by_truth[label]
    assert [a.kind for a in ev.alarms] == ["blind_spot"] * sum(q == 0 for q in q_ell.values())


@given(tests_, rules, st.data())
def test_majority_vote_strict_majority_of_perfect_members_gives_true_statistics(test, rule, data):
    n = len(test.classifiers)
    decisions = test.decisions.copy()
    decisions[:, : n // 2 + 1] = test.truth[:, None]  # a strict majority always right
    labelled = Sketch.from_decisions(
        decisions, labels=test.labels, classifiers=test.classifiers, truth=test.truth
    )
    truth = evaluation_point(labelled, structure="independent")
    ev = evaluate_majority(labelled, ties=_ties(rule, test.labels, data))
    assert ev.point.prevalence == truth.prevalence_of()
    for c in test.classifiers:
        assert ev.point.accuracy[c] == {lab: truth.accuracy(c, lab) for lab in test.labels}


@given(tests_, rules, st.data())
def test_majority_vote_ignores_truth_and_pools_populations(test, rule, data):
    ties = _ties(rule, test.labels, data)
    sketch = test.sketch()
    ev = evaluate_majority(sketch, ties=ties)
    assert evaluate_majority(sketch.unlabelled(), ties=ties) == ev
    assert evaluate_majority(sketch.pooled(), ties=ties) == ev
    assert evaluate(sketch, method="majority", ties=ties) == ev


def test_majority_vote_tie_rules_on_two_disagreeing_classifiers():
    sketch = from_counts({"ab": 3, "ba": 1, "aa": 2}, labels=["a", "b"])
    split = evaluate_majority(sketch)
    assert split.point.prevalence == {"a": Fraction(4, 6), "b": Fraction(2, 6)}
    assert split.point.accuracy["c0"] == {"a": Fraction(7, 2) / 4, "b": Fraction(1, 2) / 2}
    assert dict(split.partition["b"]) == {
        ("a", "a"): 0,
        ("a", "b"): Fraction(3, 2),
        ("b", "a"): Fraction(1, 2),
    }
    drop = evaluate_majority(sketch, ties="drop")
    assert drop.point.prevalence == {"a": 1, "b": 0}
    assert drop.point.accuracy["c1"] == {"a": 1, "b": None}
    assert [a.kind for a in drop.alarms] == ["blind_spot"] and "'b'" in drop.alarms[0].detail
    prefer_b = evaluate_majority(sketch, ties="b")
    assert prefer_b.point.prevalence == {"a": Fraction(2, 6), "b": Fraction(4, 6)}
    assert prefer_b.point.accuracy["c0"] == {"a": 1, "b": Fraction(1, 4)}
    assert evaluate_majority(sketch, ties=["b", "a"]) == prefer_b


def test_majority_vote_drop_with_every_item_tied_is_a_blind_spot():
    ev = evaluate_majority(from_counts({"ab": 3, "ba": 1}, labels=["a", "b"]), ties="drop")
    assert ev.point.prevalence == {"a": None, "b": None}
    assert all(v is None for v in ev.point.values())
    assert [a.kind for a in ev.alarms] == ["blind_spot"] and "4 items" in ev.alarms[0].detail


def test_majority_vote_split_shares_three_way_ties_exactly():
    sketch = from_counts({"abc": 5, "aab": 1}, labels=["a", "b", "c"])
    ev = evaluate_majority(sketch)
    assert ev.point.prevalence == {
        "a": Fraction(5, 3 * 6) + Fraction(1, 6),
        "b": Fraction(5, 18),
        "c": Fraction(5, 18),
    }
    assert dict(ev.partition["c"])[("a", "b", "c")] == Fraction(5, 3)
    assert ev.point.accuracy["c2"]["c"] == 1 and ev.point.accuracy["c2"]["a"] == Fraction(0)


def test_majority_vote_words_name_rules_and_lists_name_labels():
    sketch = from_counts({("split", "x"): 2, ("x", "x"): 1}, labels=["split", "x"])
    assert evaluate_majority(sketch, ties="split").point.prevalence == {
        "split": Fraction(1, 3),
        "x": Fraction(2, 3),
    }
    assert evaluate_majority(sketch, ties=["split"]).point.prevalence == {
        "split": Fraction(2, 3),
        "x": Fraction(1, 3),
    }


def test_majority_vote_single_classifier_is_its_own_key():
    ev = evaluate_majority(from_counts({"a": 3, "c": 1}, labels=["a", "b", "c"]))
    assert ev.point.prevalence == {"a": Fraction(3, 4), "b": 0, "c": Fraction(1, 4)}
    assert ev.point.accuracy["c0"] == {"a": 1, "b": None, "c": 1}


@pytest.mark.parametrize("ties", ["z", ["a", "a"], None, b"a", 0, ["a", "q"]])
def test_majority_vote_rejects_bad_tie_rules(ties):
    sketch = from_counts({"ab": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match="ties"):
        evaluate_majority(sketch, ties=ties)


def test_majority_vote_rejects_non_sketches():
    with pytest.raises(SketchError, match="needs a Sketch"):
        evaluate_majority({("a", "b"): 1})


def test_majority_vote_evaluation_serialises():
    text = evaluate_majority(datasets.load("acs_employment")).to_json()
    assert '"method": "majority"' in text and '"3583/20000"' in text


@given(st.lists(tests_, min_size=1, max_size=4), st.data())
def test_majority_vote_counts_agrees_with_majority_vote(tests, data):
    n = len(tests[0].classifiers)
    r = len(tests[0].labels)
    same = [t for t in tests if len(t.classifiers) == n and len(t.labels) == r]
    rule = data.draw(rules)
    ties = rule if rule != "prefer" else data.draw(st.permutations(range(r)))[: data.draw(st.integers(1, r))]
    sketches = [Sketch.from_decisions(t.decisions, labels=r) for t in same]
    prevalence, accuracy = majority_vote_counts(np.array([s.count_vector() for s in sketches]), n, r, ties)
    assert prevalence.shape == (len(same), r) and accuracy.shape == (len(same), n, r)
    label_ties = ties if rule != "prefer" else [sketches[0].labels[k] for k in ties]
    for k, sketch in enumerate(sketches):
        ev = evaluate_majority(sketch, ties=label_ties)
        for ell, lab in enumerate(sketch.labels):
            exact = ev.point.prevalence[lab]
            assert (
                math.isnan(prevalence[k, ell]) if exact is None else math.isclose(prevalence[k, ell], exact)
            )
            for i, c in enumerate(sketch.classifiers):
                exact = ev.point.accuracy[c][lab]
                assert (
                    math.isnan(accuracy[k, i, ell])
                    if exact is None
                    else math.isclose(accuracy[k, i, ell], exact)
                )


def test_majority_vote_counts_checks_shapes():
    prevalence, accuracy = majority_vote_counts(np.array([0, 2, 1, 0]), 2, 2)
    assert prevalence.tolist() == [0.5, 0.5] and accuracy.shape == (2, 2)
    with pytest.raises(SketchError, match="shape"):
        majority_vote_counts(np.zeros((2, 5), dtype=int), 2, 2)
    with pytest.raises(SketchError, match="non-negative"):
        majority_vote_counts(np.array([0, -1, 1, 0]), 2, 2)


@pytest.mark.parametrize("n_classifiers, n_labels", [("3", 2), (10**9, 2), (3, 0), (True, 2), (3, 2.0)])
def test_majority_vote_counts_refuses_wrong_sizes_quickly(n_classifiers, n_labels):
    with pytest.raises(SketchError, match=r"must be a positive integer|more than 64-bit codes hold"):
        majority_vote_counts([1] * 8, n_classifiers, n_labels)


def test_majority_vote_names_huge_or_array_ties_without_failing():
    sketch = Sketch.from_counts({"aa": 2, "ab": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match=r"unknown \[an integer of 16610 bits\]"):
        evaluate_majority(sketch, ties=[10**5000])
    with pytest.raises(SpecError, match=r"ties: .* must be 'split', 'drop', a label or a sequence of labels"):
        evaluate_majority(sketch, ties=[np.array([])])
    with pytest.raises(SketchError, match=r"majority voting needs at least 2 labels, got 1"):
        majority_vote_counts([1], 2**63, np.int64(1))


# -- abstentions do not vote (issue 21: evaluate_majority raised a bare ValueError) -----------------------
@st.composite
def abstaining_items(draw):
    """Items of N classifiers, R labels and one or two abstentions; some items all abstentions."""
    n, r, k = draw(st.integers(1, 5)), draw(st.integers(2, 4)), draw(st.integers(1, 2))
    labels, abstain = ["yes", "no", "maybe", "other"][:r], ["?", "n/a"][:k]
    answers = st.sampled_from(labels + abstain)
    rows = draw(st.lists(st.lists(answers, min_size=n, max_size=n), min_size=1, max_size=40))
    if draw(st.booleans()):
        rows.append([abstain[0]] * n)
    return rows, labels, abstain, [f"c{i}" for i in range(n)]


@given(abstaining_items(), rules, st.data())
def test_majority_vote_with_abstentions_equals_item_by_item_brute_force(items, rule, data):
    rows, labels, abstain, classifiers = items
    ties = _ties(rule, labels, data)
    sketch = Sketch.from_decisions(rows, labels=labels, abstain=abstain)
    ev = evaluate_majority(sketch, ties=ties)
    prevalence, accuracy, partition = _brute_force(rows, labels, classifiers, ties, abstain)
    assert ev.point.prevalence == prevalence and ev.point.accuracy == accuracy
    assert {lab: dict(cells) for lab, cells in ev.partition.items()} == {
        lab: dict(cells) for lab, cells in partition.items()
    }
    # response rates, item by item: P(answer | imputed label), abstentions included;
    # accuracy is their diagonal
    shares = _shares(rows, labels, ties, abstain)
    for i, c in enumerate(classifiers):
        for lab in labels:
            mine = [(row, share[lab]) for row, share in shares if lab in share]
            total = sum(w for _, w in mine)
            for answer in labels + abstain:
                hits = sum(w for row, w in mine if row[i] == answer)
                assert ev.point.response[c][lab][answer] == (hits / total if total else None)
            assert ev.point.response[c][lab][lab] == accuracy[c][lab]
    assert {a.kind for a in ev.alarms} <= {"blind_spot"}
    assert set(json.loads(ev.to_json())["points"][0]["response"][classifiers[0]][labels[0]]) == set(
        labels + abstain
    )


def _shares(rows, labels, ties, abstain):
    """``[(item, {label: share})]``: the imputed shares of every item that has a vote."""
    out = []
    for row in rows:
        votes = Counter(a for a in row if a not in abstain)
        if not votes:
            continue
        tied = [lab for lab in labels if votes.get(lab, 0) == max(votes.values())]
        if len(tied) == 1:
            out.append((row, {tied[0]: Fraction(1)}))
        elif ties == "split":
            out.append((row, {lab: Fraction(1, len(tied)) for lab in tied}))
        elif ties != "drop":
            order = list(ties) + [lab for lab in labels if lab not in ties]
            out.append((row, {min(tied, key=order.index): Fraction(1)}))
    return out


def test_majority_vote_items_without_a_vote_are_left_out():
    sketch = Sketch.from_decisions([["a", "?"], ["?", "?"], ["b", "b"]], labels=["a", "b"], abstain=["?"])
    for ties in ("split", "drop", "b", ["a", "b"]):
        ev = evaluate_majority(sketch, ties=ties)
        assert ev.point.prevalence == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
        assert ev.point.accuracy["c1"] == {"a": 0, "b": 1}
        assert ev.point.response["c1"]["a"] == {"a": 0, "b": 0, "?": 1}
    nothing = evaluate_majority(Sketch.from_decisions([["?", "?"]], labels=["a", "b"], abstain=["?"]))
    assert all(v is None for v in nothing.point.values())
    assert [a.kind for a in nothing.alarms] == ["blind_spot"] and "no vote" in nothing.alarms[0].detail


def test_majority_vote_intervals_with_abstentions_resample_the_abstaining_sketch():
    from evalgebra.evaluators.intervals.confidence import confidence_intervals

    sketch = Sketch.from_decisions(
        [["a", "b", "?"], ["a", "a", "a"], ["b", "?", "b"], ["?", "?", "?"]] * 5,
        labels=["a", "b"],
        abstain=["?"],
    )
    ev = evaluate_majority(sketch)
    boot = confidence_intervals(ev, sketch, "bootstrap", n_boot=200, seed=1)
    assert boot.intervals.failed == {}
    for c, row in ev.point.accuracy.items():
        for lab, value in row.items():
            low, high = boot.point.interval["accuracy"][c][lab]
            assert low <= value <= high
    # every draw is an abstaining sketch evaluated exactly: c1 never says 'a' on an item imputed 'b'
    assert boot.point.interval["accuracy"]["c1"]["b"][1] < 1
    with pytest.raises(SpecError, match=r"intervals='delta' is not derived for abstentions \['\?'\]"):
        confidence_intervals(ev, sketch, "delta")
