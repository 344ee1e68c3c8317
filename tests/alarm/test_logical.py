"""Tests of evalgebra.alarm.logical: the logical alarm of A. Corrada-Emmanuel and I. Parker,
"A logical alarm for misaligned binary classifiers".

Two brute-force routes, written here independently of the module's corner formulas:

* ``split_feasible``: every labelled test consistent with a sketch, i.e. every lattice
  point of by-label counts ``0 <= alpha_d <= n_d`` (true-``a`` items with pattern ``d``);
  the ``Q_a`` at which all members meet the specification. This is the definition of
  "can meet the specification" (small ``Q`` only).
* ``lattice_feasible``: for each ``Q_a``, every lattice point ``(R_{a_i,a}, R_{a_j,a})``
  of the pair's square, kept when the axiom's ``R_{b_i,b}`` is in range, both meet the
  specification, and some joint-correct count ``R_{a_i a_j,a}`` makes the eight by-label
  parts of the logical-alarm paper eqs. 25-28 non-negative and within their cells (vectorised per
  ``Q_a``; used up to ``Q`` in the hundreds, Table 2 included).

The specification is checked here with fractions: a label without items fails a strict
per-label threshold and meets a non-strict one (the module's documented convention).

The module has two routes to the same intervals: residue classes of ``Q_a`` (the default,
work independent of ``Q``) and the per-``Q_a`` scan (the reference, and the route for
thresholds with large denominators). Both are checked against the brute-force routes;
the residue route is checked against the scan on random sketches and specifications
(``Q`` up to ~10^5, thresholds with denominators up to 40, Python-integer arithmetic
forced or not, classes solved in chunks of every size), and at ``Q`` of 10^9 to 2^61, where
no scan of ``0..Q`` is possible, against the scan on windows around every interval end
and at random ``Q_a``.
"""

from __future__ import annotations

import contextlib
import itertools
import random as random_module
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from evalgebra import datasets
from evalgebra.alarm import intervals as alarm_intervals
from evalgebra.alarm import logical as alarm_module
from evalgebra.alarm.logical import alarm_as_alarms, axiom_segments, feasible_qa, logical_alarm
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.results import ALARM_KINDS, Alarm
from evalgebra.testing.strategies import budget, labelled_tests, specs

# -- the logical-alarm paper, Table 2 (L372-381): pattern (Claude Haiku, Mistral Large, GPT4-Turbo) ->
#    (count with true label A, count with true label B); A = "incorrect", B = "correct"
TABLE2 = {
    "aaa": (12, 0),
    "aab": (0, 0),
    "aba": (113, 8),
    "baa": (14, 0),
    "bba": (72, 15),
    "bab": (0, 1),
    "abb": (11, 2),
    "bbb": (15, 18),
}
GRADERS = ("claude_haiku", "mistral_large", "gpt4_turbo")


# -- the specification, independently -------------------------------------------------------
def meets(spec: SafetySpec, correct_a: int, correct_b: int, q_a: int, q_b: int) -> bool:
    """Whether accuracies ``correct_a/q_a``, ``correct_b/q_b`` meet ``spec`` (fractions)."""

    def above(value: Fraction, threshold: Fraction) -> bool:
        return value > threshold if spec.strict else value >= threshold

    if spec.min_accuracy is not None:
        for correct, size in ((correct_a, q_a), (correct_b, q_b)):
            if size == 0:
                if spec.strict:
                    return False
            elif not above(Fraction(correct, size), spec.min_accuracy):
                return False
    if spec.min_total_accuracy is not None:
        return above(Fraction(correct_a + correct_b, q_a + q_b), spec.min_total_accuracy)
    return True


def point_meets(point, classifier: int, spec: SafetySpec) -> bool:
    """Whether a classifier's true accuracies (from ``evaluation_point``) meet ``spec``."""
    prevalence = point.prevalence_of()
    accuracy = {label: point.accuracy(classifier, label) for label in point.spec.labels}

    def above(value: Fraction, threshold: Fraction) -> bool:
        return value > threshold if spec.strict else value >= threshold

    if spec.min_accuracy is not None:
        for value in accuracy.values():
            if value is None:  # a label no item has
                if spec.strict:
                    return False
            elif not above(value, spec.min_accuracy):
                return False
    if spec.min_total_accuracy is not None:
        defined = [(prevalence[label], value) for label, value in accuracy.items() if value is not None]
        total = sum((weight * value for weight, value in defined), Fraction(0))
        return above(total, spec.min_total_accuracy)
    return True


# -- brute force ----------------------------------------------------------------------------
def split_feasible(sketch: Sketch, members, spec: SafetySpec) -> set[int]:
    """``Q_a`` of the labelled tests consistent with the members' counts where all meet ``spec``."""
    counts = list(sketch.marginalise(list(members)).counts().items())
    q = sketch.Q
    found = set()
    for alpha in itertools.product(*(range(c + 1) for _, c in counts)):
        q_a = sum(alpha)
        if q_a in found:
            continue
        ok = True
        for k in range(len(members)):
            x = sum(a for (pattern, _), a in zip(counts, alpha) if pattern[k] == sketch.labels[0])
            y = sum(c - a for (pattern, c), a in zip(counts, alpha) if pattern[k] == sketch.labels[1])
            if not meets(spec, x, y, q_a, q - q_a):
                ok = False
                break
        if ok:
            found.add(q_a)
    return found


def _spec_mask(spec: SafetySpec, x: np.ndarray, y: np.ndarray, q_a: int, q_b: int) -> np.ndarray:
    ok = np.ones(np.broadcast(x, y).shape, dtype=bool)

    def above(count: np.ndarray, threshold: Fraction, size: int) -> np.ndarray:
        value = count * threshold.denominator - threshold.numerator * size
        return value > 0 if spec.strict else value >= 0

    if spec.min_accuracy is not None:
        ok &= above(x, spec.min_accuracy, q_a) & above(y, spec.min_accuracy, q_b)
    if spec.min_total_accuracy is not None:
        ok &= above(x + y, spec.min_total_accuracy, q_a + q_b)
    return ok


def lattice_feasible(sketch: Sketch, i: int, j: int | None, spec: SafetySpec) -> set[int]:
    """``Q_a`` where the single (``j=None``) or pair has a lattice point meeting ``spec``."""
    said_a = {
        k: sketch.marginalise([k]).counts().get((sketch.labels[0],), 0) for k in (i, j) if k is not None
    }
    q = sketch.Q
    found = set()
    if j is not None:
        table = sketch.marginalise([i, j]).counts()
        a, b = sketch.labels
        n_aa, n_ab, n_ba, n_bb = (table.get(p, 0) for p in ((a, a), (a, b), (b, a), (b, b)))
    for q_a in range(q + 1):
        q_b = q - q_a
        xi = np.arange(q_a + 1)[:, None]
        xj = np.arange(q_a + 1)[None, :] if j is not None else np.zeros((1, 1), dtype=np.int64)
        yi = q_b - said_a[i] + xi
        ok = (yi >= 0) & (yi <= q_b) & _spec_mask(spec, xi, yi, q_a, q_b)
        if j is not None:
            yj = q_b - said_a[j] + xj
            ok = ok & (yj >= 0) & (yj <= q_b) & _spec_mask(spec, xj, yj, q_a, q_b)
            # eqs. 25-28: z = R_{a_i a_j,a}; parts z, xi - z, xj - z, q_a - xi - xj + z in [0, cell]
            z_lo = np.maximum(np.maximum(0, xi - n_ab), np.maximum(xj - n_ba, xi + xj - q_a))
            z_hi = np.minimum(np.minimum(n_aa, xi), np.minimum(xj, xi + xj - q_a + n_bb))
            ok = ok & (z_lo <= z_hi)
        if ok.any():
            found.add(q_a)
    return found


def expand(intervals) -> set[int]:
    return {q for lo, hi in intervals for q in range(lo, hi + 1)}


def canonical(intervals) -> bool:
    """Disjoint, increasing, non-adjacent closed intervals."""
    return all(lo <= hi for lo, hi in intervals) and all(
        b[0] > a[1] + 1 for a, b in zip(intervals, intervals[1:])
    )


@contextlib.contextmanager
def patched(**values):
    """Set the solvers' tuning constants (in ``alarm_intervals``) for the block, then restore them."""
    saved = {name: getattr(alarm_intervals, name) for name in values}
    try:
        for name, value in values.items():
            setattr(alarm_intervals, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(alarm_intervals, name, value)


def by_route(route, sketch: Sketch, spec: SafetySpec, subsets=None):
    """Intervals of every subset by one private route (``_solve_residues`` or ``_scan``)."""
    observed = alarm_module._observe(sketch)
    return route(observed, spec, alarm_module._subset_indices(sketch, subsets))


def residues(sketch: Sketch, spec: SafetySpec, subsets=None):
    """The residue-class route, whatever ``L`` and ``Q`` (``logical_alarm`` may scan)."""
    return by_route(alarm_module._solve_residues, sketch, spec, subsets)


def scan(sketch: Sketch, spec: SafetySpec, subsets=None):
    """The per-``Q_a`` scan (the reference route)."""
    return by_route(alarm_module._scan, sketch, spec, subsets)


# -- strategies -----------------------------------------------------------------------------
@st.composite
def safety_specs(draw: st.DrawFn) -> SafetySpec:
    strict = draw(st.booleans())
    per_label = [None, Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(3, 4)]
    total = [None, Fraction(1, 2), Fraction(3, 5), Fraction(4, 5)]
    if not strict:
        per_label.append(Fraction(1))
    return SafetySpec(draw(st.sampled_from(per_label)), draw(st.sampled_from(total)), strict)


@st.composite
def small_sketches(draw: st.DrawFn, max_classifiers: int = 3, max_items: int = 9) -> Sketch:
    """Pattern counts of a binary ensemble drawn directly (degenerate members included)."""
    n = draw(st.integers(1, max_classifiers))
    patterns = ["".join(p) for p in itertools.product("ab", repeat=n)]
    q = draw(st.integers(1, max_items))
    chosen = draw(st.lists(st.sampled_from(patterns), min_size=q, max_size=q))
    return Sketch.from_counts({p: chosen.count(p) for p in set(chosen)}, labels=["a", "b"])


@st.composite
def thresholds(draw: st.DrawFn, strict: bool) -> Fraction | None:
    """None, or ``p/q`` with ``q`` up to 40: 0, 1 (not strict) and near-1 included."""
    if draw(st.booleans()):
        return None
    q = draw(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 10, 12, 13, 40]))
    p = draw(st.integers(0, q - 1 if strict else q))
    return Fraction(p, q)


@st.composite
def rational_specs(draw: st.DrawFn) -> SafetySpec:
    """Per-label and total thresholds of various denominators, strict or not."""
    strict = draw(st.booleans())
    return SafetySpec(draw(thresholds(strict)), draw(thresholds(strict)), strict)


@st.composite
def count_sketches(draw: st.DrawFn, max_classifiers: int = 4) -> Sketch:
    """Pattern counts drawn directly, sparse or dense, from a few items to ~10^5."""
    n = draw(st.integers(1, max_classifiers))
    largest = draw(st.sampled_from([2, 5, 40, 3000, 6000]))
    counts = draw(st.lists(st.integers(0, largest) | st.just(0), min_size=2**n, max_size=2**n))
    counts[0] += sum(counts) == 0
    patterns = ["".join(p) for p in itertools.product("ab", repeat=n)]
    return Sketch.from_counts({p: c for p, c in zip(patterns, counts) if c}, labels=["a", "b"])


binary_tests = labelled_tests(
    specs(min_labels=2, max_labels=2, max_classifiers=4, max_populations=2, named=None), max_items=60
)


# -- SafetySpec -----------------------------------------------------------------------------
def test_safetyspec_reads_exact_thresholds():
    assert SafetySpec("1/2") == SafetySpec(Fraction(1, 2)) == SafetySpec(" 2/4 ")
    assert SafetySpec(np.int64(0)).min_accuracy == 0
    assert SafetySpec(0, "3/5").min_total_accuracy == Fraction(3, 5)
    assert SafetySpec(1, strict=False).min_accuracy == 1
    assert SafetySpec(None, None).describe() == "no condition"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"min_accuracy": 0.5}, "not exact"),
        ({"min_accuracy": "half"}, "cannot read"),
        ({"min_accuracy": "1e5000"}, "exponent 5000"),  # was a bare ValueError (int's 4,300-digit limit)
        ({"min_accuracy": "0e99999999"}, "exponent 99999999"),  # took 7 s building 10**99999999
        ({"min_accuracy": "1/0"}, "zero denominator"),
        ({"min_accuracy": "-1/2"}, "out of range"),
        ({"min_accuracy": 1}, r"0 <= threshold < 1 \(strict\)"),
        ({"min_total_accuracy": "3/2", "strict": False}, "out of range"),
        ({"min_accuracy": [1, 2]}, "give an int"),
        ({"strict": "yes"}, "strict must be True or False"),
    ],
)
def test_safetyspec_rejects_bad_thresholds(kwargs, message):
    with pytest.raises(SpecError, match=message):
        SafetySpec(**kwargs)


@given(safety_specs(), st.integers(0, 8), st.integers(0, 8), st.data())
def test_safetyspec_met_by_agrees_with_fractions(spec, q_a, q_b, data):
    if q_a + q_b == 0:
        q_b = 1
    x, y = data.draw(st.integers(0, q_a)), data.draw(st.integers(0, q_b))
    assert spec.met_by(x, y, q_a, q_b) == meets(spec, x, y, q_a, q_b)


# -- agreement with the brute-force routes ---------------------------------------------------
@given(small_sketches(), safety_specs())
def test_logical_alarm_matches_split_enumeration(sketch, spec):
    """Every subset is exact (issue 12); the interval method is exact for singles and pairs and a
    superset for larger subsets."""
    note(repr(sketch.counts()))
    report = logical_alarm(sketch, spec)
    exact: dict[tuple[str, ...], set[int]] = {}
    for result in report.subsets:
        members = result.classifiers
        assert canonical(result.feasible_Qa)
        assert result.fires == (not result.feasible_Qa)
        found = expand(result.feasible_Qa)
        exact[members] = split_feasible(sketch, members, spec)
        if len(members) == 1:
            assert len(result.feasible_Qa) <= 1  # every single condition is monotone in Q_a
        assert found == exact[members], members
        if len(members) > 2:
            pairwise = set.intersection(*(exact[p] for p in itertools.combinations(members, 2)))
            assert exact[members] <= pairwise  # the pairwise conditions are necessary: sound
    intervals = [list(r.feasible_Qa) for r in report.subsets]
    small = [k for k, r in enumerate(report.subsets) if len(r.classifiers) <= 2]
    routes = residues(sketch, spec), scan(sketch, spec)
    assert routes[0] == routes[1]  # both routes, any L and Q
    assert [routes[0][k] for k in small] == [intervals[k] for k in small]


@given(small_sketches(max_classifiers=2, max_items=40), safety_specs())
def test_feasible_qa_matches_lattice_enumeration(sketch, spec):
    note(repr(sketch.counts()))
    n = sketch.n_classifiers
    for i in range(n):
        assert expand(feasible_qa(sketch, [i], spec)) == lattice_feasible(sketch, i, None, spec)
    if n == 2:
        assert expand(feasible_qa(sketch, [0, 1], spec)) == lattice_feasible(sketch, 0, 1, spec)
        assert feasible_qa(sketch, [1, 0], spec) == feasible_qa(sketch, [0, 1], spec)
    assert residues(sketch, spec) == [list(r.feasible_Qa) for r in logical_alarm(sketch, spec).subsets]


def test_feasible_qa_pair_can_be_several_intervals():
    """Rounding ties a pair to the parity of Q_a: here only odd Q_a are feasible."""
    sketch = Sketch.from_counts({"aa": 1, "ab": 2, "ba": 2, "bb": 1}, labels=["a", "b"])
    intervals = feasible_qa(sketch, ["c0", "c1"])
    assert intervals == ((1, 1), (3, 3), (5, 5))
    assert expand(intervals) == split_feasible(sketch, ("c0", "c1"), SafetySpec())
    assert feasible_qa(sketch, ["c0"]) == feasible_qa(sketch, ["c1"]) == ((1, 5),)


@given(small_sketches(max_classifiers=3, max_items=12), safety_specs())
def test_logical_alarm_same_across_blocks(sketch, spec):
    expected = residues(sketch, spec)
    small = [k for k, r in enumerate(logical_alarm(sketch, spec).subsets) if len(r.classifiers) <= 2]
    assert [expected[k] for k in small] == [
        list(r.feasible_Qa) for r in logical_alarm(sketch, spec).subsets if len(r.classifiers) <= 2
    ]
    with patched(_BLOCK=2):
        assert scan(sketch, spec) == expected
    with patched(_RESIDUES=1):
        assert residues(sketch, spec) == expected


@given(small_sketches(max_classifiers=2, max_items=12), st.booleans())
def test_logical_alarm_huge_thresholds_use_exact_integers(sketch, strict):
    """Thresholds whose products overflow int64 take the Python-integer path, same answers."""
    theta = Fraction(2**70 - 1, 2**71)  # just below 1/2
    spec = SafetySpec(theta, theta, strict=strict)
    report = logical_alarm(sketch, spec)
    for result in report.subsets:
        assert expand(result.feasible_Qa) == split_feasible(sketch, result.classifiers, spec)


# -- residue classes against the scan -----------------------------------------------------------
@budget(1.5)
@given(count_sketches(), rational_specs(), st.sampled_from([1, 2, 3, 1 << 14]), st.booleans())
def test_residue_classes_match_the_scan(sketch, spec, chunk, python_ints):
    """Same intervals, isolated points included, on every subset (any chunk, any arithmetic)."""
    note(repr(sketch.counts()))
    expected = scan(sketch, spec)
    with patched(_RESIDUES=chunk, _INT64_SAFE=0 if python_ints else alarm_intervals._INT64_SAFE):
        assert residues(sketch, spec) == expected
    report = logical_alarm(sketch, spec)
    for result, found in zip(report.subsets, expected):
        if len(result.classifiers) <= 2:
            assert list(result.feasible_Qa) == found
        else:  # exact: inside the pairwise superset
            assert expand(result.feasible_Qa) <= expand(found)
    assert all(canonical(found) for found in expected)


@pytest.mark.parametrize(
    "spec",
    [
        SafetySpec(0),
        SafetySpec(0, strict=False),
        SafetySpec(1, strict=False),
        SafetySpec(1, 1, strict=False),
        SafetySpec(None, 0),
        SafetySpec(None, 0, strict=False),
        SafetySpec(None, 1, strict=False),
        SafetySpec("12/13", "39/40"),
        SafetySpec("1/13", "1/40", strict=False),
        SafetySpec(None, None),
    ],
    ids=str,
)
@pytest.mark.parametrize(
    "counts",
    [
        {"aa": 7},
        {"bb": 7},
        {"ab": 5},
        {"ab": 3, "ba": 4},
        {"aa": 2, "bb": 5},
        {"aa": 1, "ab": 2, "ba": 2, "bb": 3},
    ],
)
def test_residue_classes_extreme_thresholds(spec, counts):
    """Thresholds 0 and 1, labels with no items (Q_a = 0 or Q): both routes, and by splitting."""
    sketch = Sketch.from_counts(counts, labels=["a", "b"])
    found = residues(sketch, spec)
    assert found == scan(sketch, spec)
    for result, intervals in zip(logical_alarm(sketch, spec).subsets, found):
        assert list(result.feasible_Qa) == intervals
        assert expand(intervals) == split_feasible(sketch, result.classifiers, spec)
        if spec.strict and spec.min_accuracy is not None:  # 0 > 0 is false on an empty label
            assert not {0, sketch.Q} & expand(intervals)


def test_residue_classes_parity_at_scale():
    """The logical-alarm paper's rounding at Q = 4002: the pair is feasible at odd Q_a only,
    point by point."""
    m = 1000
    sketch = Sketch.from_counts({"aa": 1, "ab": 2 * m, "ba": 2 * m, "bb": 1}, labels=["a", "b"])
    assert feasible_qa(sketch, ["c0"]) == ((1, 4 * m + 1),)
    pair = feasible_qa(sketch, ["c0", "c1"])
    assert pair == tuple((q, q) for q in range(1, 4 * m + 2, 2))
    assert residues(sketch, SafetySpec()) == scan(sketch, SafetySpec())


def test_residue_period():
    period = alarm_module._period
    assert period(SafetySpec(None, None)) == 1 and period(SafetySpec(None, "3/5")) == 2
    assert period(SafetySpec("2/3")) == 3 and period(SafetySpec("2/3", "3/5")) == 6
    assert period(SafetySpec("3/4", "1/7")) == 4 and period(SafetySpec(1, strict=False)) == 1


def window_scan(sketch: Sketch, spec: SafetySpec, subset: tuple[int, ...], start: int, stop: int) -> set[int]:
    """The scan's feasible ``Q_a`` in ``start..stop-1`` only."""
    observed = alarm_module._observe(sketch)
    mask = alarm_module._masks(observed, spec, [subset], start, stop)[0]
    return {start + int(k) for k in np.flatnonzero(mask)}


@budget(0.5)
@given(
    st.integers(1, 4),
    st.sampled_from([10**9, 10**9 + 7, 2**52 + 3, 2**61 - 1]),
    st.integers(0, 2**32 - 1),
    rational_specs(),
)
def test_residue_classes_at_huge_q(n, q, seed, spec):
    """Q up to 2^61 (exact Python integers past 2^60): the scan agrees on windows around every
    interval end (two periods each side) and at random Q_a; label swap reflects Q_a."""
    rng = np.random.default_rng(seed)
    patterns = ["".join(p) for p in itertools.product("ab", repeat=n)]
    counts = rng.multinomial(q, rng.dirichlet(np.ones(len(patterns))))
    sketch = Sketch.from_counts({p: int(c) for p, c in zip(patterns, counts) if c}, labels=["a", "b"])
    assert sketch.Q == q
    # the residue classes decide singles and pairs; trios at this size are the solver's (test_exact)
    small = [s for s in alarm_module._subset_indices(sketch, None) if len(s) <= 2]
    report = logical_alarm(sketch, spec, subsets=small)
    period = alarm_module._period(spec)
    draw = random_module.Random(seed)
    for result, subset in zip(report.subsets, small):
        intervals = result.feasible_Qa
        assert canonical(intervals) and all(0 <= lo and hi <= q for lo, hi in intervals)
        assert len(intervals) <= 2 * period  # generic counts: no rounding pattern over the whole range
        ends = {0, q, *(draw.randint(0, q) for _ in range(8))}
        ends |= {end for interval in intervals for end in interval}
        for end in ends:
            start, stop = max(0, end - 2 * period - 2), min(q + 1, end + 2 * period + 3)
            inside = {v for lo, hi in intervals for v in range(max(lo, start), min(hi, stop - 1) + 1)}
            if len(subset) <= 2:
                assert window_scan(sketch, spec, subset, start, stop) == inside, (result.classifiers, end)
            else:  # exact ends, interior inside the pairwise superset
                assert inside <= window_scan(sketch, spec, subset, start, stop), (result.classifiers, end)
    swapped = logical_alarm(sketch.with_label_order(["b", "a"]), spec, subsets=small)
    for one, other in zip(report.subsets, swapped.subsets):
        if (
            one.feasible.exact and other.feasible.exact
        ):  # past 2^53 the solver may leave a trio's interior open
            assert other.feasible_Qa == tuple((q - hi, q - lo) for lo, hi in reversed(one.feasible_Qa))


# -- soundness on labelled tests ---------------------------------------------------------------
@given(binary_tests, safety_specs())
def test_logical_alarm_never_fires_when_members_meet_spec(test, spec):
    sketch = test.sketch().pooled()
    point = evaluation_point(sketch, structure="independent")
    q_a = sketch.label_counts()[sketch.labels[0]]
    good = {name for k, name in enumerate(sketch.classifiers) if point_meets(point, k, spec)}
    report = logical_alarm(sketch.unlabelled(), spec)
    for result in report.subsets:
        if set(result.classifiers) <= good:
            assert not result.fires, result
            assert q_a in expand(result.feasible_Qa), result
    for alarm in alarm_as_alarms(report, minimal=False):
        assert not set(alarm.classifiers) <= good


@given(binary_tests)
def test_axiom_segments_hold_the_true_counts(test):
    sketch = test.sketch().pooled()
    split = sketch.by_true_label()
    a, b = sketch.labels
    q_a = sketch.label_counts()[a]
    for k, name in enumerate(sketch.classifiers):
        correct_a = sum(c for p, c in split[a].items() if p[k] == a)
        lo, hi = axiom_segments(sketch.unlabelled(), name)
        assert lo[q_a] <= correct_a <= hi[q_a]
        assert bool(np.all(lo <= hi))  # the axiom alone never empties a segment


@given(binary_tests)
def test_logical_alarm_without_conditions_never_excludes_a_qa(test):
    """Any Q_a items can be the a-items: the axioms alone rule out no Q_a."""
    sketch = test.sketch()
    report = logical_alarm(sketch, SafetySpec(None, None))
    assert all(r.feasible_Qa == ((0, sketch.Q),) for r in report.subsets)
    assert not report.fires and alarm_as_alarms(report) == ()


# -- equivariance and input handling ----------------------------------------------------------
@given(small_sketches(max_classifiers=3, max_items=30), safety_specs())
def test_logical_alarm_label_swap_reflects_qa(sketch, spec):
    q = sketch.Q
    report = logical_alarm(sketch, spec)
    swapped = logical_alarm(sketch.with_label_order(["b", "a"]), spec)
    for one, other in zip(report.subsets, swapped.subsets):
        assert other.classifiers == one.classifiers and other.fires == one.fires
        assert other.feasible_Qa == tuple((q - hi, q - lo) for lo, hi in reversed(one.feasible_Qa))


@given(small_sketches(max_classifiers=3, max_items=30), safety_specs(), st.randoms())
def test_logical_alarm_classifier_permutation_equivariant(sketch, spec, random):
    order = list(sketch.classifiers)
    random.shuffle(order)
    report = logical_alarm(sketch, spec)
    permuted = logical_alarm(sketch.marginalise(order), spec)
    for result in report.subsets:
        other = permuted.result(*result.classifiers)
        assert (other.fires, other.feasible_Qa) == (result.fires, result.feasible_Qa)


@given(binary_tests)
def test_logical_alarm_ignores_answer_key_and_populations(test):
    sketch = test.sketch()
    expected = logical_alarm(sketch.pooled().unlabelled())
    assert logical_alarm(sketch).to_dict() == expected.to_dict()


def test_logical_alarm_rejects_bad_input():
    three = Sketch.from_counts({"ab": 1, "cc": 2}, labels=["a", "b", "c"])
    assert len(logical_alarm(three).subsets) == 3  # any number of labels (issue 12)
    with pytest.raises(SketchError, match=r"binary classifiers \(R = 2\)"):
        axiom_segments(three, 0)
    with pytest.raises(SketchError, match="needs a Sketch"):
        logical_alarm({"aa": 3})
    sketch = Sketch.from_counts({"aab": 2, "bba": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match="spec must be a SafetySpec"):
        logical_alarm(sketch, "1/2")
    for subsets, message in [
        ([[]], "one or more distinct"),
        ([["c0", 0]], "one or more distinct"),
        ([["c7"]], "c7"),
        (["c0"], "collection of classifier"),
        ("c0", "list of classifier collections"),
    ]:
        with pytest.raises(SpecError, match=message):
            logical_alarm(sketch, subsets=subsets)
    many = Sketch.from_counts({"a" * 13: 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match="pass subsets"):
        logical_alarm(many)
    assert len(logical_alarm(many, subsets=[[0, 12]]).subsets) == 1
    with pytest.raises(SpecError, match=r"e\.g\. \['c0'\]"):
        feasible_qa(sketch, "c0")


def test_logical_alarm_subsets_in_requested_order():
    sketch = Sketch.from_counts({"aab": 2, "bba": 1, "abb": 3}, labels=["a", "b"])
    report = logical_alarm(sketch, subsets=[["c2", "c0"], [1], ("c0", "c1", "c2")])
    assert [r.classifiers for r in report.subsets] == [("c0", "c2"), ("c1",), ("c0", "c1", "c2")]
    default = logical_alarm(sketch)
    assert [len(r.classifiers) for r in default.subsets] == [1, 1, 1, 2, 2, 2, 3]
    with pytest.raises(SpecError, match="no subset"):
        report.result("c0", "c1")


# -- output -------------------------------------------------------------------------------------
def test_alarm_as_alarms_minimal_subsets():
    sketch = Sketch.from_counts({"abb": 6, "baa": 4}, labels=["a", "b"])  # c0 never agrees with c1, c2
    report = logical_alarm(sketch)
    firing = [r.classifiers for r in report.subsets if r.fires]
    assert firing == [("c0", "c1"), ("c0", "c2"), ("c0", "c1", "c2")]
    minimal = alarm_as_alarms(report)
    assert [a.classifiers for a in minimal] == [("c0", "c1"), ("c0", "c2")]
    assert all(isinstance(a, Alarm) and a.kind == "misaligned" for a in minimal)
    assert "misaligned" in ALARM_KINDS
    assert len(alarm_as_alarms(report, minimal=False)) == 3


# -- the logical-alarm paper, Table 2 ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bigbench():
    return datasets.load("bigbench_mistake")


def test_load_bigbench_mistake_is_table2(bigbench):
    """The bundled sketch holds the logical-alarm paper Table 2 (L372-381) and its marginals (eqs. 35-40)."""
    assert bigbench.classifiers == GRADERS and bigbench.labels == ("a", "b")
    split = bigbench.by_true_label()
    for pattern, (on_a, on_b) in TABLE2.items():
        assert split["a"].get(tuple(pattern), 0) == on_a
        assert split["b"].get(tuple(pattern), 0) == on_b
    assert bigbench.Q == 281 and bigbench.label_counts() == {"a": 237, "b": 44}
    said_a = [bigbench.marginalise([k]).counts()[("a",)] for k in range(3)]
    assert said_a == [146, 27, 234]  # eqs. 35, 37, 39; and 135, 254, 47 answered b
    built = Sketch.from_counts(
        labels=["a", "b"],
        classifiers=list(GRADERS),
        by_true_label={t: {p: c[k] for p, c in TABLE2.items()} for k, t in enumerate("ab")},
    )
    assert built == bigbench
    assert datasets.path("bigbench_mistake").read_text(encoding="utf-8") == built.to_json()


def test_logical_alarm_table2_fires_for_one_pair_only(bigbench):
    """The logical-alarm paper, L397: only (Mistral Large, GPT4-Turbo) triggers the alarm at every Q_a."""
    sketch = bigbench.unlabelled()
    report = logical_alarm(sketch)  # eq. 1: better than 50% on each label, strictly
    pairs = [r for r in report.subsets if len(r.classifiers) == 2]
    assert [r.classifiers for r in pairs if r.fires] == [("mistral_large", "gpt4_turbo")]
    assert not any(r.fires for r in report.subsets if len(r.classifiers) == 1)
    assert report.result(*GRADERS).fires
    assert [a.classifiers for a in alarm_as_alarms(report)] == [("mistral_large", "gpt4_turbo")]
    singles = {r.classifiers[0]: r.feasible_Qa for r in report.subsets if len(r.classifiers) == 1}
    assert singles == {"claude_haiku": ((12, 280),), "mistral_large": ((1, 53),), "gpt4_turbo": ((188, 280),)}
    assert report.result("claude_haiku", "mistral_large").feasible_Qa == ((12, 53),)
    assert report.result("claude_haiku", "gpt4_turbo").feasible_Qa == ((188, 280),)
    # the brute-force route: lattice points of every single and pair, Q_a = 0..281
    spec = SafetySpec()
    for i, j in [(0, None), (1, None), (2, None), (0, 1), (0, 2), (1, 2)]:
        members = [GRADERS[i]] + ([] if j is None else [GRADERS[j]])
        assert expand(report.result(*members).feasible_Qa) == lattice_feasible(sketch, i, j, spec)


def test_logical_alarm_table2_verdict_matches_truth(bigbench):
    """L397: both members of the firing pair fail the specification on one label."""
    point = evaluation_point(bigbench, structure="independent")
    spec = SafetySpec()
    assert [point_meets(point, k, spec) for k in range(3)] == [True, False, False]
    assert point.accuracy("mistral_large", "a") == Fraction(26, 237)
    assert point.accuracy("gpt4_turbo", "b") == Fraction(21, 44)
    assert 237 in expand(feasible_qa(bigbench, ["claude_haiku"]))


def test_logical_alarm_past_float_range_is_quick_and_honest():
    """Past 2^53 items the solver cannot hold the counts: trios say undecided (never a guess)
    at once, singles and pairs keep the exact interval method's verdicts."""
    import time

    q = 2**61 - 1
    counts = {"aaa": q // 2, "abb": q // 4, "bab": q // 8, "bba": q - q // 2 - q // 4 - q // 8}
    sketch = Sketch.from_counts(counts, labels=["a", "b"])
    start = time.perf_counter()
    report = logical_alarm(sketch)
    assert time.perf_counter() - start < 30  # generous: the point is no solver call at this size
    trio = report.result("c0", "c1", "c2")
    assert trio.verdict == "undecided" and "2^53" in trio.reason
    assert all(r.verdict in ("quiet", "fires") for r in report.subsets if len(r.classifiers) <= 2)


def test_abstentions_taken_by_the_alarm_and_refused_by_the_interval_method():
    """The programs carry abstentions (never a correct answer); the binary interval method refuses them,
    naming the alarm that takes them. Counting the abstentions as the label ``b`` is another test."""
    from evalgebra.data.sketch import Sketch

    rows = [["a", "a", "unsure"], ["b", "a", "b"], ["a", "b", "a"], ["b", "b", "b"], ["a", "a", "a"]]
    sketch = Sketch.from_decisions(rows, abstain=["unsure"])
    with pytest.raises(SketchError, match="logical_alarm takes them"):
        alarm_module.axiom_segments(sketch, "c2")
    assert alarm_module.logical_alarm(sketch).result("c2").verdict == "quiet"
    assert alarm_module.minimal_firing(sketch, SafetySpec("2/3")) == (("c2",),)  # its abstention counts
    collapsed = sketch.collapse_responses({"unsure": "b"})
    assert alarm_module.minimal_firing(collapsed, SafetySpec("2/3")) == (("c0", "c2"), ("c1", "c2"))
    assert alarm_module.logical_alarm(collapsed).result("c0", "c1").verdict in ("fires", "quiet")
