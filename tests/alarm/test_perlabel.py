"""One label's range end from its compact program (evalgebra.alarm.perlabel) against the whole program.

The reference is :func:`~evalgebra.alarm.ranges.label_ranges`: the certified optimisation of the whole
program, a separate route. Every end :func:`label_end` gives must agree with it and carry evidence that
checks exactly on the whole program.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.alarm.certificates import Farkas, Split, check_certificate, check_witness
from evalgebra.alarm.perlabel import compact, complete, label_end, translate
from evalgebra.alarm.program import Row, build_program
from evalgebra.alarm.ranges import label_ranges
from evalgebra.alarm.safety import SafetySpec
from evalgebra.alarm.solve import decide, minimise


def _below(ell: int, sign: int, value: int) -> Row:
    return Row(((("count", ell), -sign),), 1 - value, "bound")


@st.composite
def programs(draw):
    n = draw(st.integers(2, 3))
    r = 3
    responses = r + draw(st.integers(0, 1))  # with or without an abstention
    patterns = draw(
        st.lists(st.tuples(*[st.integers(0, responses - 1)] * n), min_size=2, max_size=6, unique=True)
    )
    counts = draw(st.lists(st.integers(1, 4), min_size=len(patterns), max_size=len(patterns)))
    threshold = draw(st.sampled_from([Fraction(1, 3), Fraction(2, 5), Fraction(1, 2)]))
    spec = SafetySpec(threshold, strict=draw(st.booleans()), answered_only=draw(st.booleans()))
    names = tuple(f"c{i}" for i in range(n))
    return build_program(patterns, counts, r, tuple(range(n)), spec, names, "abc")


@settings(max_examples=30, deadline=None)
@given(programs(), st.integers(0, 2), st.sampled_from([1, -1]))
def test_label_end_agrees_with_the_whole_programs_optimum(program, ell, sign):
    verdict = decide(program)
    if verdict.kind != "quiet":
        return
    found = label_end(program, ell, sign, verdict.witness)
    reference = label_ranges(program)[ell][0 if sign > 0 else 1]
    if found is None:  # the caller falls back to the whole program: allowed, never wrong
        return
    assert found.value == reference.value
    assert check_witness(program, found.witness)
    assert sign * found.witness.restrict(program.members).label_counts()[ell] == found.value
    assert check_certificate(program.with_rows(_below(ell, sign, int(found.value))), found.certificate)


def test_compact_patterns_keep_only_label_other_or_abstain():
    patterns = [(0, 1), (0, 2), (1, 1), (2, 3), (1, 3)]
    whole = build_program(patterns, [2, 1, 3, 1, 1], 3, (0, 1), SafetySpec(), ("x", "y"), "abc")
    small = compact(whole, 1)
    assert set(small.program.patterns) <= {(a, b) for a in (1, 2, 3) for b in (1, 2, 3)}
    assert sum(small.program.counts) == whole.Q
    assert all(all(term[2] == 1 for term, _ in row.terms if term[0] != "count") for row in small.program.rows)


def test_translated_branch_tree_checks_on_the_whole_program():
    # three judges, a tight threshold: the compact maximum needs a branch-and-bound tree
    patterns = [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1), (2, 2, 2), (0, 2, 1)]
    whole = build_program(
        patterns, [1, 1, 2, 1, 1, 3, 2], 3, (0, 1, 2), SafetySpec("3/5"), ("x", "y", "z"), "abc"
    )
    small = compact(whole, 0)
    seen = set()
    for sign in (1, -1):
        found = minimise(small.program, ((("count", 0), sign),))
        assert found.certificate is not None
        seen.add(type(found.certificate))
        proof = translate(found.certificate, whole, small)
        assert check_certificate(whole.with_rows(_below(0, sign, int(found.value))), proof)
    assert seen <= {Farkas, Split}


def test_complete_refuses_a_column_the_counts_cannot_hold():
    whole = build_program([(0,), (1,), (2,)], [4, 4, 4], 3, (0,), SafetySpec(), ["c0"], "abc")
    start = decide(whole).witness
    small = compact(whole, 0)
    assert complete(whole, small, np.array([5, 0]), start) is None
    found = complete(whole, small, np.array([3, 0]), start)
    assert found is not None and check_witness(whole, found) and found.label_counts()[0] == 3


def test_label_end_on_a_panel_gives_every_end_the_compact_bound_attains():
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 40)
    answers = np.where(rng.random((40, 3)) < 0.8, truth[:, None], (truth[:, None] + 1) % 3)
    patterns, counts = np.unique(answers, axis=0, return_counts=True)
    names = ("x", "y", "z")
    whole = build_program(patterns.tolist(), counts.tolist(), 3, (0, 1, 2), SafetySpec(), names, "abc")
    start = decide(whole).witness
    reference = label_ranges(whole)
    given = 0
    for ell in range(3):
        for k, sign in enumerate((1, -1)):
            found = label_end(whole, ell, sign, start)
            if found is None:  # the least count of label 1 is 4, not the compact program's 1
                assert (
                    reference[ell][k].value
                    != minimise(compact(whole, ell).program, ((("count", ell), sign),)).value
                )
                continue
            given += 1
            assert found.value == reference[ell][k].value
            assert check_witness(whole, found.witness)
            assert check_certificate(whole.with_rows(_below(ell, sign, int(found.value))), found.certificate)
    assert given == 5


def test_shared_ranges_of_every_subset_agree_with_each_subsets_own_optimum():
    import itertools

    from evalgebra.alarm.shared import SharedRanges

    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 45)
    answers = np.where(rng.random((45, 3)) < 0.75, truth[:, None], (truth[:, None] + 2) % 3)
    answers = np.where(rng.random((45, 3)) < 0.1, 3, answers)  # abstentions
    patterns, counts = np.unique(answers, axis=0, return_counts=True)
    spec, names = SafetySpec(), ("x", "y", "z")

    def program(members):
        return build_program(patterns.tolist(), counts.tolist(), 3, members, spec, names, "abc")

    evidence = SharedRanges(program, 3, [decide(program((0, 1, 2))).witness])
    subsets = [s for k in (3, 2, 1) for s in itertools.combinations(range(3), k)]
    for members in subsets:
        got = evidence.label_range(members)
        own = label_ranges(program(members))
        for ell in range(3):
            for k, sign in enumerate((1, -1)):
                end = got[ell][k]
                assert end.value == own[ell][k].value
                assert check_witness(program(members), end.witness)
                below = _below(ell, sign, int(end.value))
                assert check_certificate(program(members).with_rows(below), end.certificate)
