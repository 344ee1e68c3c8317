"""The logical alarm with abstentions: soundness on random labelled tests, brute force on small ones.

An abstention is not a correct answer: classifier ``i``'s accuracy on label ``l`` is its correct
answers on the items of ``l`` over all of them, ``P(answer = l | truth = l)``;
``SafetySpec(answered_only=True)`` asks about the accuracy among the items it answered instead.

* Soundness: a labelled test with abstentions is drawn, the members that meet the specification
  are found from its answer key, and the alarm, from the counts alone, must leave them quiet with
  a witness that re-checks exactly (200 cases here, 10^4 marked ``slow``).
* Brute force: on small tests (Q <= 12, N <= 4, R <= 3, one abstention answer) every labelled test
  consistent with the counts is enumerated, by a dynamic programme over the patterns written
  here from the decisions (not from the alarm's programs), and every subset's verdict, and its
  feasible ``Q_a`` and label ranges, must agree (16 tests here, 400 marked ``slow``).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from evalgebra.alarm.certificates import check_certificate, check_witness
from evalgebra.alarm.logical import _patterns, logical_alarm
from evalgebra.alarm.program import build_program
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch

THRESHOLDS = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(2, 3)]
ABSTAIN = "?"


def _meets(spec: SafetySpec, name: str, labels: str, truth: list[int], answers: list[int]) -> bool:
    """From the answer key: ``answers`` index ``labels``, ``len(labels)`` is the abstention."""
    r = len(labels)
    right = [sum(1 for t, a in zip(truth, answers) if t == a == ell) for ell in range(r)]
    base = (
        [sum(1 for t, a in zip(truth, answers) if t == ell and a < r) for ell in range(r)]
        if spec.answered_only
        else [truth.count(ell) for ell in range(r)]
    )
    for ell, label in enumerate(labels):
        t = spec.threshold(name, label)
        if t is not None:
            margin = right[ell] * t.denominator - t.numerator * base[ell]
            if margin < 0 or (spec.strict and margin == 0):
                return False
    tau = spec.total_threshold(name)
    if tau is not None:
        margin = sum(right) * tau.denominator - tau.numerator * sum(base)
        if margin < 0 or (spec.strict and margin == 0):
            return False
    return True


def _spec(rng: random.Random, labels: str) -> SafetySpec:
    kind = rng.choice(["label", "label", "by_label", "total", "both"])
    theta = rng.choice(THRESHOLDS) if kind in ("label", "by_label", "both") else None
    tau = rng.choice(THRESHOLDS[1:4]) if kind in ("total", "both") else None
    by_label = {rng.choice(labels): rng.choice(THRESHOLDS)} if kind == "by_label" else None
    return SafetySpec(theta, tau, rng.random() < 0.7, by_label=by_label, answered_only=rng.random() < 0.3)


def _draw(rng: random.Random, n: int, r: int, q: int) -> tuple[str, list[int], list[list[int]]]:
    labels = "abcd"[:r]
    truth = rng.choices(range(r), weights=[rng.random() + 0.2 for _ in range(r)], k=q)
    accuracy = [rng.uniform(0.5, 0.98) for _ in range(n)]
    abstains = [rng.choice([0.0, 0.05, 0.2, 0.5]) for _ in range(n)]
    answers = [
        [
            r if rng.random() < abstains[i] else (t if rng.random() < accuracy[i] else rng.randrange(r))
            for t in truth
        ]
        for i in range(n)
    ]
    return labels, truth, answers


def _sketch(labels: str, answers: list[list[int]]) -> Sketch:
    responses = list(labels) + [ABSTAIN]
    rows = [[responses[a[k]] for a in answers] for k in range(len(answers[0]))]
    return Sketch.from_decisions(rows, labels=list(labels), abstain=[ABSTAIN])


def _program(sketch: Sketch, spec: SafetySpec, members):
    patterns, counts = _patterns(sketch)
    return build_program(
        patterns, counts, sketch.n_labels, tuple(members), spec, sketch.classifiers, sketch.labels
    )


def _check_soundness(cases: int, seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    while checked < cases:
        n, r = rng.randint(2, 5), rng.choice([2, 2, 3, 4])
        labels, truth, answers = _draw(rng, n, r, rng.choice([rng.randint(4, 30), rng.randint(30, 300)]))
        spec = _spec(rng, labels)
        sketch = _sketch(labels, answers)
        good = [i for i in range(n) if _meets(spec, sketch.classifiers[i], labels, truth, answers[i])]
        if not good:
            continue
        everyone = list(range(n))
        subsets = [good] if good == everyone else [good, everyone]
        report = logical_alarm(sketch, spec, subsets, prevalences=False)
        members = report.subsets[0]
        assert members.verdict == "quiet", (sketch.counts(), spec, good, members.reason)
        assert check_witness(_program(sketch, spec, good), members.witness), (sketch.counts(), spec)
        for subset, result in zip(subsets, report.subsets):
            program = _program(sketch, spec, subset)
            if result.verdict == "quiet":
                assert check_witness(program, result.witness)
            elif result.verdict == "fires":
                assert check_certificate(program, result.certificate)
        checked += 1
    return checked


def test_logical_alarm_with_abstentions_is_sound_on_random_labelled_tests():
    """200 labelled tests with abstentions (fixed seed): members meeting the spec are never caught."""
    assert _check_soundness(200, seed=2025) == 200


@pytest.mark.slow
def test_logical_alarm_with_abstentions_is_sound_on_ten_thousand_labelled_tests():
    assert _check_soundness(10_000, seed=25) == 10_000


# -- brute force ---------------------------------------------------------------------------------
def _brute_force(sketch: Sketch, spec: SafetySpec) -> set[tuple[frozenset[int], tuple[int, ...]]]:
    """Every labelled test consistent with the counts, as (members meeting ``spec``, label counts).

    A dynamic programme over the observed patterns: the state is every member's correct and
    answered count per label and every label's count, all a specification can see.
    """
    labels, n, r = list(sketch.labels), sketch.n_classifiers, sketch.n_labels
    responses = list(sketch.responses)
    start = (tuple([0] * (n * r)), tuple([0] * (n * r)), tuple([0] * r))
    states = {start}
    for pattern, count in sketch.counts().items():
        index = [responses.index(x) for x in pattern]
        splits = [s for s in itertools.product(range(count + 1), repeat=r) if sum(s) == count]
        states = {
            (
                tuple(v + (s[k % r] if index[k // r] == k % r else 0) for k, v in enumerate(right)),
                tuple(v + (s[k % r] if index[k // r] < r else 0) for k, v in enumerate(answered)),
                tuple(a + b for a, b in zip(sizes, s)),
            )
            for right, answered, sizes in states
            for s in splits
        }
    found = set()
    for right, answered, sizes in states:
        good = []
        for i, name in enumerate(sketch.classifiers):
            base = answered[i * r : (i + 1) * r] if spec.answered_only else sizes
            ok = True
            for ell, label in enumerate(labels):
                t = spec.threshold(name, label)
                if t is not None:
                    margin = right[i * r + ell] * t.denominator - t.numerator * base[ell]
                    ok &= margin > 0 if spec.strict else margin >= 0
            tau = spec.total_threshold(name)
            if tau is not None:
                margin = sum(right[i * r : (i + 1) * r]) * tau.denominator - tau.numerator * sum(base)
                ok &= margin > 0 if spec.strict else margin >= 0
            if ok:
                good.append(i)
        found.add((frozenset(good), sizes))
    return found


def _small_case(rng: random.Random) -> tuple[Sketch, SafetySpec]:
    n, r = rng.randint(1, 4), rng.choice([2, 3])
    labels, _, answers = _draw(rng, n, r, rng.randint(2, 12 if r == 2 else 9))
    return _sketch(labels, answers), _spec(rng, labels)


@pytest.mark.parametrize("seed", range(16))
def test_logical_alarm_with_abstentions_agrees_with_brute_force(seed):
    """Verdicts, feasible Q_a and label ranges of every subset, against every labelled test."""
    _check_brute_force(seed)


@pytest.mark.slow
def test_logical_alarm_with_abstentions_agrees_with_brute_force_on_many_tests():
    for seed in range(16, 400):
        _check_brute_force(seed)


def _check_brute_force(seed: int) -> None:
    sketch, spec = _small_case(random.Random(seed))
    tests = _brute_force(sketch, spec)
    report = logical_alarm(sketch, spec)
    for result in report.subsets:
        members = {sketch.classifiers.index(c) for c in result.classifiers}
        allowed = [sizes for good, sizes in tests if members <= good]
        assert result.verdict == ("quiet" if allowed else "fires"), (sketch.counts(), spec, members)
        program = _program(sketch, spec, sorted(members))
        if not allowed:
            assert check_certificate(program, result.certificate)
            continue
        assert check_witness(program, result.witness)
        assert result.feasible.exact and set(result.feasible) == {s[0] for s in allowed}
        if sketch.n_labels > 2:
            expected = {
                label: (min(s[ell] for s in allowed), max(s[ell] for s in allowed))
                for ell, label in enumerate(sketch.labels)
            }
            assert result.label_ranges == expected


def test_brute_force_sees_abstentions():
    """The enumeration is not blind: judges abstaining on half the items miss 1/2, unless answered only."""
    sketch = _sketch("ab", [[2, 2, 0, 1], [2, 2, 1, 0]])
    assert {good for good, _ in _brute_force(sketch, SafetySpec())} == {frozenset()}
    tests = _brute_force(sketch, SafetySpec(answered_only=True))
    assert {good for good, _ in tests} == {frozenset(), frozenset({0}), frozenset({1})}
    report = logical_alarm(sketch, SafetySpec(answered_only=True))
    assert [r.classifiers for r in report.minimal_firing()] == [("c0", "c1")]


# -- a judge that abstains too often ---------------------------------------------------------------
def test_a_judge_abstaining_on_most_items_fires_alone_with_its_certificate():
    rng = random.Random(3)
    truth = rng.choices(range(3), k=60)
    answers = [
        [t if rng.random() < 0.9 else rng.randrange(3) for t in truth],
        [t if rng.random() < 0.85 else rng.randrange(3) for t in truth],
        [3 if k % 3 else t for k, t in enumerate(truth)],  # abstains on two items in three, right otherwise
    ]
    sketch = _sketch("abc", answers)
    report = logical_alarm(sketch, SafetySpec(), prevalences=False)
    assert [r.classifiers for r in report.minimal_firing()] == [("c2",)]
    lone = report.result("c2")
    assert check_certificate(_program(sketch, SafetySpec(), [2]), lone.certificate)
    assert lone.certificate.members == (2,)
    among = logical_alarm(sketch, SafetySpec(answered_only=True), prevalences=False)
    assert not among.fires and check_witness(
        _program(sketch, SafetySpec(answered_only=True), [0, 1, 2]), among.result("c0", "c1", "c2").witness
    )


def test_witness_with_abstentions_reads_back_as_a_labelled_sketch():
    sketch = _sketch("ab", [[0, 0, 1, 2, 1, 0], [0, 2, 1, 1, 1, 0]])
    report = logical_alarm(sketch)
    result = report.result("c0", "c1")
    key = result.witness.restrict([0, 1]).to_sketch(report.classifiers, report.labels, report.abstain)
    assert key.is_labelled and key.abstain == (ABSTAIN,)
    assert key.unlabelled().counts() == sketch.counts()
    doc = report.to_dict()
    assert doc["abstain"] == [ABSTAIN]
    decisions = {
        tuple(cell["decisions"])
        for cells in doc["subsets"][2]["witness"]["by_true_label"].values()
        for cell in cells
    }
    assert ("?", "b") in decisions or ("a", "?") in decisions
