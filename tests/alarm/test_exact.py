"""The exact logical alarm (issue 12) against an exhaustive enumeration of labelled tests.

``enumerate_feasible`` walks every split ``n[d, l]`` of the observed counts pattern by pattern,
keeping only the distinct partial sums that matter (each member's correct count per label and
each label's count), so it is exhaustive for ``Q <= 12``. It is written here from the
definition, independently of the module's program.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from evalgebra.alarm.certificates import check_certificate, check_witness
from evalgebra.alarm.logical import _Verdicts, logical_alarm, minimal_firing
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _meets(spec: SafetySpec, names, labels, members, correct, sizes) -> bool:
    q = sum(sizes)
    for i in members:
        for ell, label in enumerate(labels):
            t = spec.threshold(names[i], label)
            if t is None:
                continue
            value = correct[(i, ell)] * t.denominator - t.numerator * sizes[ell]
            if not (value > 0 if spec.strict else value >= 0):
                return False
        tau = spec.total_threshold(names[i])
        if tau is not None:
            value = sum(correct[(i, ell)] for ell in range(len(labels))) * tau.denominator - tau.numerator * q
            if not (value > 0 if spec.strict else value >= 0):
                return False
    return True


def enumerate_feasible(sketch: Sketch, members, spec: SafetySpec) -> set[int]:
    """``Q_a`` (items of ``labels[0]``) of every labelled test under which all members meet ``spec``."""
    labels, names = sketch.labels, sketch.classifiers
    r = len(labels)
    keys = [(i, ell) for i in members for ell in range(r)]
    states = {(tuple(0 for _ in keys), tuple(0 for _ in range(r)))}
    for pattern, count in sketch.unlabelled().counts().items():
        index = [labels.index(x) for x in pattern]
        new = set()
        for correct, sizes in states:
            for split in _compositions(count, r):
                c = tuple(v + (split[ell] if index[i] == ell else 0) for v, (i, ell) in zip(correct, keys))
                new.add((c, tuple(a + b for a, b in zip(sizes, split))))
        states = new
    return {
        sizes[0]
        for correct, sizes in states
        if _meets(spec, names, labels, members, dict(zip(keys, correct)), sizes)
    }


@st.composite
def sketches(draw, max_items: int = 12):
    n = draw(st.sampled_from([2, 3, 4]))
    r = draw(st.sampled_from([2, 3]))
    labels = "abc"[:r]
    q = draw(st.integers(1, max_items))
    items = draw(st.lists(st.tuples(*[st.sampled_from(labels)] * n), min_size=q, max_size=q))
    counts: dict[str, int] = {}
    for item in items:
        counts["".join(item)] = counts.get("".join(item), 0) + 1
    return Sketch.from_counts(counts, labels=list(labels))


@st.composite
def specs(draw, labels=("a", "b", "c")):
    strict = draw(st.booleans())
    values = [None, Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(2, 3)]
    theta = draw(st.sampled_from(values))
    tau = draw(st.sampled_from([None, None, Fraction(1, 2), Fraction(3, 5)]))
    by_label = draw(st.sampled_from([None, {"b": Fraction(1, 3)}, {"a": Fraction(2, 3)}]))
    return SafetySpec(theta, tau, strict, by_label=by_label)


def _agrees(sketch: Sketch, spec: SafetySpec) -> None:
    report = logical_alarm(sketch, spec)
    verdicts = _Verdicts(sketch, spec)
    for result in report.subsets:
        members = tuple(sketch.classifiers.index(c) for c in result.classifiers)
        exact = enumerate_feasible(sketch, members, spec)
        assert result.verdict != "undecided", (result.classifiers, result.reason)
        assert result.fires == (not exact), result.classifiers
        assert result.feasible is not None and result.feasible.exact, result.classifiers
        assert set(result.feasible) == exact, (result.classifiers, result.feasible, exact)
        program = verdicts.program(members)
        if result.fires:
            assert result.certificate is None or check_certificate(program, result.certificate)
        elif result.witness is not None:
            assert check_witness(program, result.witness)


@settings(max_examples=40, deadline=None)
@given(sketches(), specs())
def test_logical_alarm_matches_enumeration(sketch, spec):
    """Every subset's verdict and feasible Q_a equal the enumeration; evidence re-checks exactly."""
    note(repr(sketch.counts()))
    _agrees(sketch, spec)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(sketches(), specs())
def test_logical_alarm_matches_enumeration_thorough(sketch, spec):
    _agrees(sketch, spec)


@pytest.mark.parametrize(
    "counts, theta",
    [
        ({"abb": 1, "bab": 1, "bba": 1, "bbb": 3}, "1/3"),
        ({"aaa": 1, "abb": 1, "bab": 2, "bba": 1, "bbb": 1}, "3/5"),
    ],
)
def test_logical_alarm_issue_reproducers_fire(counts, theta):
    """The issue's trios: the pairwise conditions leave Q_a [2, 2] and [3, 3]; no labelled test exists."""
    sketch = Sketch.from_counts(counts, labels=["a", "b"])
    spec = SafetySpec(theta)
    trio = logical_alarm(sketch, spec).result("c0", "c1", "c2")
    assert trio.fires and trio.verdict == "fires" and not trio.feasible
    assert enumerate_feasible(sketch, (0, 1, 2), spec) == set()
    program = _Verdicts(sketch, spec).program((0, 1, 2))
    assert check_certificate(program, trio.certificate)
    assert ("c0", "c1", "c2") in minimal_firing(sketch, spec)


def test_logical_alarm_never_fires_on_members_meeting_spec():
    """Soundness: random labelled tests whose members all meet the spec never fire; witnesses check."""
    rng = random.Random(12)
    spec = SafetySpec("1/2")
    for _ in range(60):
        n, r = rng.choice([2, 3, 4]), rng.choice([2, 3])
        labels = "abc"[:r]
        q = rng.randint(4, 40)
        truth = [rng.randrange(r) for _ in range(q)]
        answers = [[t if rng.random() < 0.8 else rng.randrange(r) for t in truth] for _ in range(n)]
        counts: dict[str, int] = {}
        for k in range(q):
            key = "".join(labels[answers[i][k]] for i in range(n))
            counts[key] = counts.get(key, 0) + 1
        sketch = Sketch.from_counts(counts, labels=list(labels))
        good = [
            i
            for i in range(n)
            if all(
                sum(1 for k in range(q) if truth[k] == ell and answers[i][k] == ell) * 2 > truth.count(ell)
                for ell in range(r)
            )
        ]
        if not good:
            continue
        result = logical_alarm(sketch, spec, [good], prevalences=False).subsets[0]
        assert result.verdict == "quiet", (counts, good)
        assert check_witness(_Verdicts(sketch, spec).program(tuple(good)), result.witness)


def test_parity_pair_is_summarised_not_listed():
    """Issue 15: feasible Q_a alternating in parity over ~10^15 items, as one progression."""
    sketch = Sketch.from_counts(
        {"aa": 107900000000000, "ab": 416100000000000, "ba": 515800000000000}, labels=["a", "b"]
    )
    report = logical_alarm(sketch, SafetySpec(strict=False))
    pair = report.result("c0", "c1")
    assert pair.feasible.to_list() == [[207600000000000, 1039800000000000, 2]]
    data = report.to_dict()["subsets"][2]
    assert data["feasible_Qa"] is None and data["feasible_Qa_progressions"] == [
        [207600000000000, 1039800000000000, 2]
    ]
    assert len(report.to_json()) < 20_000
    assert "207600000000000..1039800000000000 step 2" in report.summary()
    with pytest.raises(SpecError, match="progressions"):
        pair.feasible_Qa  # noqa: B018 (reading the property is what raises)


@pytest.mark.parametrize("subsets", [np.array([]), [], np.empty((0, 2), dtype=int)])
def test_logical_alarm_empty_subsets_raise_spec_error(subsets):
    sketch = Sketch.from_counts({"aab": 2, "bba": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match="subsets is empty"):
        logical_alarm(sketch, subsets=subsets)


def test_logical_alarm_numpy_subsets_are_read():
    sketch = Sketch.from_counts({"aab": 2, "bba": 1}, labels=["a", "b"])
    report = logical_alarm(sketch, subsets=np.array([[0, 1]]))
    assert report.subsets[0].classifiers == ("c0", "c1")


def test_accuracy_ranges_are_exact_on_a_small_test():
    sketch = Sketch.from_counts({"aa": 3, "ab": 1, "bb": 2}, labels=["a", "b"])
    spec = SafetySpec("1/2")
    result = logical_alarm(sketch, spec, [["c0", "c1"]], accuracy=True).subsets[0]
    for name in ("c0", "c1"):
        for ell, label in enumerate("ab"):
            values = set()
            for split in itertools.product(*(range(c + 1) for c in sketch.counts().values())):
                patterns = list(sketch.counts())
                q_a = sum(split)
                sizes = (q_a, sketch.Q - q_a)
                correct = {}
                for i in (0, 1):
                    correct[(i, 0)] = sum(a for p, a in zip(patterns, split) if p[i] == "a")
                    correct[(i, 1)] = sum(
                        c - a for p, a, c in zip(patterns, split, sketch.counts().values()) if p[i] == "b"
                    )
                if _meets(spec, sketch.classifiers, "ab", (0, 1), correct, sizes) and sizes[ell]:
                    values.add(Fraction(correct[(int(name[1]), ell)], sizes[ell]))
            assert result.accuracy[name][label] == (min(values), max(values))


def test_minimal_firing_skips_everything_when_the_ensemble_is_quiet():
    sketch = Sketch.from_counts({"aaaa": 6, "bbbb": 4}, labels=["a", "b"])
    assert minimal_firing(sketch) == ()
    never = Sketch.from_counts({"abb": 6, "baa": 4}, labels=["a", "b"])
    assert minimal_firing(never) == (("c0", "c1"), ("c0", "c2"))


@pytest.mark.parametrize(
    "counts, spec, expected",
    [
        (
            {"aba": 5, "bba": 5, "baa": 3, "bbb": 2, "bab": 2, "abb": 2, "aab": 3},
            SafetySpec("1/3", strict=False),
            "0, 2..22",
        ),
        (
            {"abb": 6, "aba": 8, "aaa": 5, "baa": 7, "aab": 6, "bab": 2, "bbb": 2, "bba": 3},
            SafetySpec("1/2"),
            "12, 14..38",
        ),
        (
            {"aab": 3, "aba": 3, "bab": 3, "bba": 5, "aaa": 3, "abb": 2, "baa": 4, "bbb": 1},
            SafetySpec("1/2"),
            "7..19, 21",
        ),
        (
            {"aaa": 3, "aba": 2, "baa": 5, "bab": 5, "aab": 5, "bba": 1},
            SafetySpec("1/2", strict=False),
            "15..19 step 2",
        ),
    ],
)
def test_exact_qa_set_resolves_holes_beyond_the_budget(counts, spec, expected):
    """Past the candidate budget, blocks (segment witnesses, block certificates) still find every hole."""
    from evalgebra.alarm.ranges import FeasibleSet, Progression, exact_qa_pool, exact_qa_set

    sketch = Sketch.from_counts(counts, labels=["a", "b"])
    program = _Verdicts(sketch, spec).program((0, 1, 2))
    one_by_one = exact_qa_set(program, budget=10**4)
    assert one_by_one.exact and one_by_one.text() == expected
    assert set(one_by_one) == enumerate_feasible(sketch, (0, 1, 2), spec)
    by_blocks = exact_qa_set(program, budget=40)
    assert by_blocks.exact and set(by_blocks) == set(one_by_one), by_blocks.text()
    pool = FeasibleSet((Progression(one_by_one.lo, one_by_one.hi),))
    resolved = exact_qa_pool(program, pool, budget=40)  # the blocks alone, without the witness walks
    assert resolved.exact and set(resolved) == set(one_by_one), resolved.text()
    starved = exact_qa_pool(program, pool, budget=1)  # too few calls: a superset, said so
    assert not starved.exact and set(one_by_one) <= set(starved)


def test_exact_qa_set_large_quiet_trio_by_segments():
    """Q = 670: the trio's 470 candidate Q_a are proved feasible by a few segment witnesses."""
    from evalgebra.alarm.ranges import check_segment, exact_qa_set, segment_witnesses

    sketch = Sketch.from_counts(
        {"abb": 100, "bab": 100, "bba": 100, "bbb": 300, "aaa": 57, "aab": 13}, labels=["a", "b"]
    )
    program = _Verdicts(sketch, SafetySpec("1/3")).program((0, 1, 2))
    found = exact_qa_set(program, budget=64)
    assert found.exact and found.text() == "1..470"
    first, last = segment_witnesses(program, 147, 1, 88)
    assert check_segment(program, first, last, 88)
    assert not check_segment(program, first, last, 89)  # the difference is not 89 times an integer direction
