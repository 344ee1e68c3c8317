"""Agreement statistics: brute-force definitions on small tables, hand-checked textbook values, properties."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.crowd.agreement import (
    MAX_PAIR_WORKERS,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    panel_agreement,
    votes_of,
)
from evalgebra.crowd.table import crowd_table
from evalgebra.errors import SketchError, SpecError

# --- brute force: the definitions, value by value ---------------------------------------------------


def _alpha_brute(units: list[list[int]], n_labels: int) -> Fraction | None:
    """Krippendorff's alpha from its definition: the coincidence matrix of ordered pairs of values
    within each unit (weight 1/(m_u - 1)), then 1 - D_o / D_e with the nominal difference."""
    coincidence = [[Fraction(0)] * n_labels for _ in range(n_labels)]
    for values in units:
        if len(values) < 2:
            continue
        for a, b in itertools.permutations(range(len(values)), 2):
            coincidence[values[a]][values[b]] += Fraction(1, len(values) - 1)
    marginal = [sum(row) for row in coincidence]
    n = sum(marginal)
    if n == 0:
        return None
    observed = sum(coincidence[c][k] for c in range(n_labels) for k in range(n_labels) if c != k) / n
    expected = sum(marginal[c] * marginal[k] for c in range(n_labels) for k in range(n_labels) if c != k) / (
        n * (n - 1)
    )
    return None if expected == 0 else 1 - observed / expected


def _fleiss_brute(units: list[list[int]], n_labels: int) -> Fraction | None:
    """Fleiss' kappa: the mean over items of the share of agreeing rater pairs, against chance."""
    shares = []
    for values in units:
        pairs = list(itertools.permutations(range(len(values)), 2))
        shares.append(Fraction(sum(values[a] == values[b] for a, b in pairs), len(pairs)))
    observed = sum(shares) / len(shares)
    pooled = [v for values in units for v in values]
    chance = sum(Fraction(pooled.count(c), len(pooled)) ** 2 for c in range(n_labels))
    return None if chance == 1 else (observed - chance) / (1 - chance)


def _cohen_brute(first: list[int], second: list[int], n_labels: int) -> Fraction | None:
    n = len(first)
    observed = Fraction(sum(a == b for a, b in zip(first, second)), n)
    chance = sum(Fraction(first.count(c), n) * Fraction(second.count(c), n) for c in range(n_labels))
    return None if chance == 1 else (observed - chance) / (1 - chance)


def _votes(units: list[list[int]], n_labels: int) -> np.ndarray:
    return np.array([[values.count(c) for c in range(n_labels)] for values in units], dtype=np.int64).reshape(
        len(units), n_labels
    )


units_strategy = st.integers(2, 4).flatmap(
    lambda r: st.tuples(
        st.just(r), st.lists(st.lists(st.integers(0, r - 1), min_size=0, max_size=5), min_size=1, max_size=8)
    )
)


@given(units_strategy)
def test_krippendorff_alpha_equals_the_pairwise_definition(case):
    n_labels, units = case
    assert krippendorff_alpha(_votes(units, n_labels)) == _alpha_brute(units, n_labels)


@given(st.integers(2, 4), st.integers(2, 5), st.data())
def test_fleiss_kappa_equals_the_pairwise_definition(n_labels, raters, data):
    units = data.draw(
        st.lists(
            st.lists(st.integers(0, n_labels - 1), min_size=raters, max_size=raters), min_size=1, max_size=8
        )
    )
    assert fleiss_kappa(_votes(units, n_labels)) == _fleiss_brute(units, n_labels)


@given(st.integers(2, 4), st.data())
def test_cohen_kappa_equals_the_definition(n_labels, data):
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, n_labels - 1), st.integers(0, n_labels - 1)), min_size=1)
    )
    confusion = np.zeros((n_labels, n_labels), dtype=np.int64)
    for a, b in pairs:
        confusion[a, b] += 1
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    assert cohen_kappa(confusion) == _cohen_brute(first, second, n_labels)


@given(st.integers(2, 4), st.integers(2, 5), st.data())
def test_alpha_and_fleiss_are_tied_on_complete_data(n_labels, raters, data):
    """1 - alpha = (1 - kappa) (N n - 1) / (N n) when every item has all n answers."""
    units = data.draw(
        st.lists(
            st.lists(st.integers(0, n_labels - 1), min_size=raters, max_size=raters), min_size=1, max_size=8
        )
    )
    votes = _votes(units, n_labels)
    alpha, kappa = krippendorff_alpha(votes), fleiss_kappa(votes)
    assert (alpha is None) == (kappa is None)
    if kappa is not None:
        total = len(units) * raters
        assert 1 - alpha == (1 - kappa) * Fraction(total - 1, total)


@given(st.integers(2, 4), st.data())
def test_fleiss_kappa_of_two_raters_is_scotts_pi(n_labels, data):
    pairs = data.draw(
        st.lists(
            st.tuples(st.integers(0, n_labels - 1), st.integers(0, n_labels - 1)), min_size=1, max_size=12
        )
    )
    n = len(pairs)
    observed = Fraction(sum(a == b for a, b in pairs), n)
    pooled = [v for pair in pairs for v in pair]
    chance = sum(Fraction(pooled.count(c), 2 * n) ** 2 for c in range(n_labels))
    pi = None if chance == 1 else (observed - chance) / (1 - chance)
    assert fleiss_kappa(_votes([list(p) for p in pairs], n_labels)) == pi


# --- textbook values, checked by hand --------------------------------------------------------------

#: Krippendorff, "Computing Krippendorff's Alpha-Reliability": 4 observers, 12 units, values 1-5,
#: ``None`` where an observer gave no value. The text gives alpha (nominal) = 0.743.
KRIPPENDORFF = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def test_krippendorff_alpha_reproduces_krippendorffs_worked_example():
    units = [[row[u] for row in KRIPPENDORFF] for u in range(12)]
    votes = votes_of([1, 2, 3, 4, 5], units)
    alpha = krippendorff_alpha(votes)
    # by hand: 40 pairable values (unit 12 has one); n_c = 9, 13, 10, 5, 3; the diagonal
    # coincidences of units 1-11 are 3, 2, 4, 4, 4, 0, 4, 2, 4, 3, 2 (sum 32);
    # alpha = (39 * 32 - (72 + 156 + 90 + 20 + 6)) / (40 * 39 - 344) = 904 / 1216
    assert alpha == Fraction(39 * 32 - 344, 40 * 39 - 344)
    assert round(float(alpha), 3) == 0.743
    assert alpha == _alpha_brute([[v - 1 for v in values if v is not None] for values in units], 5)


#: The worked example of Fleiss' kappa in common use (10 subjects, 14 raters, 5 categories;
#: P = 0.378, P_e = 0.213, kappa = 0.210).
FLEISS = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_kappa_reproduces_the_ten_subject_example():
    kappa = fleiss_kappa(FLEISS)
    # by hand: the rows' sums of squares 196, 60, 70, 94, 74, 98, 58, 46, 66, 66 (828), so
    # P = (828 - 140) / (140 * 13) = 688 / 1820; column totals 20, 28, 39, 21, 32 give
    # P_e = (400 + 784 + 1521 + 441 + 1024) / 140^2 = 4170 / 19600
    observed, chance = Fraction(688, 1820), Fraction(4170, 19600)
    assert kappa == (observed - chance) / (1 - chance)
    assert (round(float(observed), 3), round(float(chance), 3), round(float(kappa), 3)) == (
        0.378,
        0.213,
        0.210,
    )


def test_cohen_kappa_on_a_three_category_table_worked_by_hand():
    """200 items in three categories: p_o = (88 + 40 + 12) / 200 = 0.70 and, from the margins
    (120, 60, 20) and (100, 60, 40), p_c = (12000 + 3600 + 800) / 40000 = 0.41, so kappa =
    0.29 / 0.59 (the definition of Cohen, "A coefficient of agreement for nominal scales")."""
    confusion = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]
    kappa = cohen_kappa(confusion)
    assert kappa == (Fraction(70, 100) - Fraction(41, 100)) / (1 - Fraction(41, 100))
    assert round(float(kappa), 3) == 0.492


# --- the panel: abstentions, Fleiss' fixed raters, pairs --------------------------------------------


def _panel(seed: int, n_tasks: int = 60, n_workers: int = 5, labels=("A", "B", "tie")):
    """Long rows of a noisy panel with abstentions ('unsure') and tasks some workers skipped."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(labels), n_tasks)
    rows = []
    for t in range(n_tasks):
        for w in range(n_workers):
            draw = rng.random()
            if draw < 0.1:
                continue  # not answered
            if draw < 0.2:
                rows.append((f"t{t}", f"w{w}", "unsure"))
            elif draw < 0.8:
                rows.append((f"t{t}", f"w{w}", labels[truth[t]]))
            else:
                rows.append((f"t{t}", f"w{w}", labels[rng.integers(0, len(labels))]))
    return rows


@pytest.mark.parametrize("seed", range(3))
def test_agreement_drops_abstentions_and_matches_the_brute_force(seed):
    rows = _panel(seed)
    result = panel_agreement(crowd_table(rows), abstain=["unsure"])
    kept = [row for row in rows if row[2] != "unsure"]
    assert result.abstentions == len(rows) - len(kept) and result.labels == ("A", "B", "tie")
    position = {"A": 0, "B": 1, "tie": 2}
    by_task: dict[str, list[int]] = {}
    for task, _, label in kept:
        by_task.setdefault(task, []).append(position[label])
    units = list(by_task.values())
    assert result.alpha == _alpha_brute(units, 3)
    assert result.pairable_values == sum(len(u) for u in units if len(u) >= 2)
    fixed = [u for u in units if len(u) == result.fleiss_raters]
    sizes = [len(u) for u in units if len(u) >= 2]
    assert sizes.count(result.fleiss_raters) == max(sizes.count(m) for m in set(sizes))
    assert result.fleiss_items == len(fixed) and result.fleiss == _fleiss_brute(fixed, 3)
    answers = {(w, t): position[label] for t, w, label in kept}
    for (a, b), (kappa, shared) in result.cohen.items():
        common = sorted(t for w, t in answers if w == a and (b, t) in answers)
        assert shared == len(common)
        first, second = [answers[(a, t)] for t in common], [answers[(b, t)] for t in common]
        assert kappa == _cohen_brute(first, second, 3)


def test_agreement_is_unchanged_by_renaming_labels_and_workers():
    rows = _panel(4)
    rename = {"A": "z", "B": "y", "tie": "x", "unsure": "?"}
    first = panel_agreement(crowd_table(rows), abstain=["unsure"])
    second = panel_agreement(crowd_table([(t, "v" + w, rename[r]) for t, w, r in rows]), abstain=["?"])
    assert (first.alpha, first.fleiss, first.fleiss_items) == (
        second.alpha,
        second.fleiss,
        second.fleiss_items,
    )
    assert [k for k, _ in first.cohen.values()] == [k for k, _ in second.cohen.values()]


def test_agreement_fleiss_on_chosen_raters_and_undefined_cases():
    rows = [("t1", "x", "a"), ("t1", "y", "a"), ("t2", "x", "a"), ("t2", "y", "a"), ("t2", "z", "a")]
    result = panel_agreement(crowd_table(rows, labels=["a", "b"]))
    assert result.alpha is None and result.fleiss is None  # one label only: 0/0
    assert "Krippendorff's alpha = undefined" in result.summary()
    three = panel_agreement(crowd_table(rows, labels=["a", "b"]), raters=3)
    assert (three.fleiss_raters, three.fleiss_items) == (3, 1)
    none = panel_agreement(crowd_table(rows, labels=["a", "b"]), raters=4)
    assert none.fleiss is None and none.fleiss_items == 0
    with pytest.raises(SpecError, match="at least two"):
        panel_agreement(crowd_table(rows, labels=["a", "b"]), raters=1)
    with pytest.raises(SpecError, match="abstention"):
        panel_agreement(crowd_table(rows, labels=["a", "b"]), abstain=["a", "b"])


def test_fleiss_kappa_refuses_unequal_raters_and_bad_counts():
    with pytest.raises(SketchError, match="same number of answers"):
        fleiss_kappa([[2, 0], [1, 2]])
    with pytest.raises(SketchError, match="non-negative integers"):
        krippendorff_alpha([[1.5, 0]])
    with pytest.raises(SketchError, match="non-negative integers"):
        krippendorff_alpha([[-1, 2]])
    with pytest.raises(SketchError, match="square"):
        cohen_kappa([[1, 2, 3]])


def test_agreement_summary_lists_few_pairs_and_ranges_many():
    few = panel_agreement(crowd_table(_panel(0)), abstain=["unsure"]).summary()
    assert "w0-w1" in few and few.count("(") >= 10
    many = panel_agreement(crowd_table(_panel(0, n_tasks=80, n_workers=8)), abstain=["unsure"])
    assert len(many.cohen) == 28
    assert "pairs sharing at least 10 tasks" in many.summary().splitlines()[1]
    big = crowd_table([("t", f"w{k}", "ab"[k % 2]) for k in range(MAX_PAIR_WORKERS + 1)])
    assert panel_agreement(big).cohen == {} and "not computed" in panel_agreement(big).summary()
