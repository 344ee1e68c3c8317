"""Soundness of the logical alarm on random labelled tests whose members meet the specification.

Each case draws a labelled test (2-5 classifiers, 2-4 labels, 4-400 items, accuracies mostly
above the threshold) and a specification (one threshold, per-label thresholds, a total
accuracy, strict or not), finds from the answer key which classifiers meet it, and asks the
alarm, from the counts alone, about those members together and about the whole ensemble.
The members' subset must be quiet, never firing nor undecided, with a witness that re-checks
exactly; the ensemble's verdict, whatever it is, must carry evidence that re-checks (a
witness, or a certificate checked in exact rational arithmetic).

The normal suite runs 300 cases from a fixed seed; the 10^4-case run is marked ``slow``.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from evalgebra.alarm.certificates import check_certificate, check_witness
from evalgebra.alarm.logical import logical_alarm
from evalgebra.alarm.program import build_program
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch

THRESHOLDS = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(2, 3)]


def _spec(rng: random.Random, labels: str) -> SafetySpec:
    kind = rng.choice(["label", "label", "by_label", "total", "both"])
    strict = rng.random() < 0.7
    theta = rng.choice(THRESHOLDS) if kind in ("label", "by_label", "both") else None
    tau = rng.choice(THRESHOLDS[1:4]) if kind in ("total", "both") else None
    by_label = {rng.choice(labels): rng.choice(THRESHOLDS)} if kind == "by_label" else None
    return SafetySpec(theta, tau, strict, by_label=by_label)


def _meets(spec, name, labels, truth, answers) -> bool:
    q = len(truth)
    right = [sum(1 for t, a in zip(truth, answers) if t == a == ell) for ell in range(len(labels))]
    sizes = [truth.count(ell) for ell in range(len(labels))]
    for ell, label in enumerate(labels):
        t = spec.threshold(name, label)
        if t is not None:
            margin = right[ell] * t.denominator - t.numerator * sizes[ell]
            if margin < 0 or (spec.strict and margin == 0):
                return False
    tau = spec.total_threshold(name)
    if tau is not None:
        margin = sum(right) * tau.denominator - tau.numerator * q
        if margin < 0 or (spec.strict and margin == 0):
            return False
    return True


def _case(rng: random.Random) -> tuple[Sketch, SafetySpec, list[int]] | None:
    n, r = rng.randint(2, 5), rng.choice([2, 2, 3, 4])
    labels = "abcd"[:r]
    q = rng.choice([rng.randint(4, 30), rng.randint(30, 400)])
    prevalence = [rng.random() + 0.2 for _ in range(r)]
    truth = rng.choices(range(r), weights=prevalence, k=q)
    accuracy = [rng.uniform(0.5, 0.98) for _ in range(n)]
    answers = [[t if rng.random() < accuracy[i] else rng.randrange(r) for t in truth] for i in range(n)]
    spec = _spec(rng, labels)
    names = [f"c{i}" for i in range(n)]
    good = [i for i in range(n) if _meets(spec, names[i], labels, truth, answers[i])]
    if not good:
        return None
    counts: dict[str, int] = {}
    for k in range(q):
        key = "".join(labels[answers[i][k]] for i in range(n))
        counts[key] = counts.get(key, 0) + 1
    return Sketch.from_counts(counts, labels=list(labels)), spec, good


def _program(sketch: Sketch, spec: SafetySpec, members):
    labels = tuple(sketch.labels)
    patterns = [tuple(labels.index(x) for x in p) for p in sketch.counts()]
    return build_program(
        patterns,
        list(sketch.counts().values()),
        len(labels),
        tuple(members),
        spec,
        sketch.classifiers,
        labels,
    )


def _check_soundness(cases: int, seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    while checked < cases:
        case = _case(rng)
        if case is None:
            continue
        sketch, spec, good = case
        everyone = list(range(sketch.n_classifiers))
        subsets = [good] if good == everyone else [good, everyone]
        report = logical_alarm(sketch, spec, subsets, prevalences=False)
        members = report.subsets[0]
        assert members.verdict == "quiet", (sketch.counts(), spec, good, members.reason)
        assert check_witness(_program(sketch, spec, good), members.witness), (sketch.counts(), spec, good)
        for subset, result in zip(subsets, report.subsets):
            program = _program(sketch, spec, subset)
            if result.verdict == "quiet":
                assert check_witness(program, result.witness)
            elif result.verdict == "fires":
                assert check_certificate(program, result.certificate)
        checked += 1
    return checked


def test_logical_alarm_is_sound_on_random_labelled_tests():
    """300 labelled tests (fixed seed): the members meeting the spec are never caught."""
    assert _check_soundness(300, seed=2024) == 300


def test_soundness_check_can_fail():
    """The check catches a member that misses the spec (a firing pair is not 'quiet')."""
    never = Sketch.from_counts({"ab": 6, "ba": 4}, labels=["a", "b"])
    result = logical_alarm(never, SafetySpec(), [[0, 1]], prevalences=False).subsets[0]
    assert result.verdict == "fires" and check_certificate(
        _program(never, SafetySpec(), (0, 1)), result.certificate
    )


@pytest.mark.slow
def test_logical_alarm_is_sound_on_ten_thousand_labelled_tests():
    assert _check_soundness(10_000, seed=12) == 10_000
