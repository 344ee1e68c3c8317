"""Uniform draws of labelled tests (evalgebra.alarm.sampling) against a plain enumeration.

``_all_splits`` lists every split ``n[d, l]`` of the observed counts (the product of each
pattern's compositions) and keeps those ``check_witness`` accepts: the set the sampler must
draw from uniformly. The uniformity tests compare draw frequencies with that set by a
chi-square statistic at a fixed seed (derandomized; the bound is the 0.9999 quantile).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from evalgebra.alarm.certificates import Witness, check_witness
from evalgebra.alarm.program import build_program
from evalgebra.alarm.safety import SafetySpec
from evalgebra.alarm.sampling import count_labelled_tests, sample_labelled_tests, sample_program
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError


def _compositions(total, parts):
    return [c for c in itertools.product(range(total + 1), repeat=parts) if sum(c) == total]


def _all_splits(program):
    for split in itertools.product(*(_compositions(n, program.n_labels) for n in program.counts)):
        witness = Witness(program.members, program.patterns, tuple(split))
        if check_witness(program, witness):
            yield witness


def _program(counts, labels, members, spec):
    sketch = Sketch.from_counts(counts, labels=list(labels))
    patterns = [tuple(labels.index(x) for x in p) for p in sketch.counts()]
    return build_program(
        patterns,
        list(sketch.counts().values()),
        len(labels),
        members,
        spec,
        sketch.classifiers,
        tuple(labels),
    )


def _chi_square_ok(draws, population):
    seen = Counter(w.split for w in draws)
    assert set(seen) <= {w.split for w in population}
    expected = len(draws) / len(population)
    statistic = sum((seen.get(w.split, 0) - expected) ** 2 / expected for w in population)
    return statistic < chi2.ppf(0.9999, len(population) - 1), statistic


@pytest.mark.parametrize("method", ["exact", "rejection"])
def test_sample_program_is_uniform_on_a_small_case(method):
    program = _program({"aa": 3, "ab": 2, "ba": 1, "bb": 3}, "ab", (0, 1), SafetySpec("1/2", strict=False))
    population = list(_all_splits(program))
    assert len(population) > 10
    draw = sample_program(program, 40 * len(population), seed=7, method=method)
    assert draw.method == method and len(draw.witnesses) == 40 * len(population)
    ok, statistic = _chi_square_ok(draw.witnesses, population)
    assert ok, statistic
    assert {w.split for w in draw.witnesses} == {w.split for w in population}  # every test reachable


def test_sample_program_is_uniform_with_three_labels():
    program = _program({"ab": 2, "ca": 1, "cc": 2, "bb": 1}, "abc", (0, 1), SafetySpec("1/3"))
    population = list(_all_splits(program))
    draw = sample_program(program, 30 * len(population), seed=3, method="exact")
    assert draw.count == len(population)
    ok, statistic = _chi_square_ok(draw.witnesses, population)
    assert ok, statistic


def test_chi_square_check_can_fail():
    """The uniformity check rejects a sampler that favours one labelled test."""
    program = _program({"aa": 3, "ab": 2, "ba": 1, "bb": 3}, "ab", (0, 1), SafetySpec("1/2", strict=False))
    population = list(_all_splits(program))
    draws = sample_program(program, 20 * len(population), seed=1).witnesses + (population[0],) * 40
    assert not _chi_square_ok(draws, population)[0]


@st.composite
def _cases(draw):
    n, r = draw(st.sampled_from([(1, 2), (2, 2), (3, 2), (2, 3)]))
    labels = "abc"[:r]
    items = draw(st.lists(st.tuples(*[st.sampled_from(labels)] * n), min_size=1, max_size=7))
    counts = Counter("".join(i) for i in items)
    theta = draw(st.sampled_from([None, Fraction(1, 3), Fraction(1, 2), Fraction(3, 5)]))
    tau = draw(st.sampled_from([None, Fraction(1, 2)]))
    return dict(counts), labels, tuple(range(n)), SafetySpec(theta, tau, draw(st.booleans()))


@settings(max_examples=60, deadline=None)
@given(_cases())
def test_count_labelled_tests_matches_enumeration(case):
    program = _program(*case)
    population = list(_all_splits(program))
    assert count_labelled_tests(program) == len(population)
    draw = sample_program(program, 5, seed=0)
    assert draw.method == "exact" and (len(draw.witnesses) == 5 if population else not draw.witnesses)
    assert all(check_witness(program, w) for w in draw.witnesses)


def test_sample_labelled_tests_large_counts_use_rejection():
    sketch = Sketch.from_counts({"aa": 10**12, "ab": 3 * 10**11, "bb": 10**12}, labels=["a", "b"])
    draw = sample_labelled_tests(sketch, spec=SafetySpec("1/2"), size=20, seed=5)
    assert draw.method == "rejection" and draw.count is None
    assert len(draw.witnesses) == 20 and all(check_witness(draw.program, w) for w in draw.witnesses)
    labelled = draw.witnesses[0].to_sketch(sketch.classifiers, sketch.labels)
    assert labelled.Q == sketch.Q


def test_sample_labelled_tests_short_when_nothing_meets_the_spec():
    never = Sketch.from_counts({"ab": 6, "ba": 4}, labels=["a", "b"])
    exact = sample_labelled_tests(never, size=3)
    assert exact.count == 0 and exact.witnesses == ()
    rejected = sample_labelled_tests(never, size=3, method="rejection")
    assert rejected.witnesses == () and rejected.tries == 600


def test_sample_labelled_tests_rejects_bad_input():
    sketch = Sketch.from_counts({"aa": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match="method"):
        sample_labelled_tests(sketch, method="mcmc")
    with pytest.raises(SpecError, match="size"):
        sample_labelled_tests(sketch, size=-1)
    with pytest.raises(SpecError, match="max_states"):
        sample_program(
            _program({"aa": 30, "ab": 30, "ba": 30, "bb": 30}, "ab", (0, 1), SafetySpec()),
            1,
            method="exact",
            max_states=10,
        )
    assert random.Random(0).random() == random.Random(0).random()


# -- accuracy ranges carry evidence that re-checks exactly -------------------------------------
def test_accuracy_ranges_evidence_rechecks():
    from evalgebra import datasets
    from evalgebra.alarm.ranges import accuracy_ranges, check_ratio_optimum

    graders = datasets.load("bigbench_mistake")
    labels = tuple(graders.labels)
    patterns = [tuple(labels.index(x) for x in p) for p in graders.counts()]
    program = build_program(
        patterns, list(graders.counts().values()), 2, (0, 2), SafetySpec(), graders.classifiers, labels
    )
    for (i, ell), (lo, hi, (least, most)) in accuracy_ranges(program).items():
        top, bottom = ((("correct", i, ell), 1),), ((("count", ell), 1),)
        assert lo == least.value and check_ratio_optimum(program, top, bottom, least)
        negated = ((("correct", i, ell), -1),)
        assert hi == -most.value and check_ratio_optimum(program, negated, bottom, most)
        wrong = type(least)(least.value + Fraction(1, 10**6), least.witness, least.certificate)
        assert not check_ratio_optimum(program, top, bottom, wrong)
