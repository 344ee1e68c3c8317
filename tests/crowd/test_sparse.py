"""The sparse crowd evaluator against exact references: crowds built so that every moment the
estimator uses holds exactly (its answer must then be the truth to rounding), and generated crowds
with a known truth (the estimate must beat majority vote and recover the workers' rows)."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.crowd.sparse import group_views, sparse_evaluation, split_groups
from evalgebra.crowd.table import crowd_table
from evalgebra.crowd.tasks import refine, task_posteriors
from evalgebra.datasets.crowd import sparse_crowd
from evalgebra.errors import SketchError, SpecError
from evalgebra.results import Estimate
from evalgebra.results.posteriors import pattern_posteriors
from evalgebra.testing import budget

LABELS = ("a", "b", "c")


def exact_crowd(prevalence, rows, groups, scale=1):
    """A crowd on which the group views and every worker's pairings are exactly sample independent.

    For every true label and every choice of one worker per group, every answer triple appears in
    exactly the proportion the rows give (the full product design), so each worker answers one task
    of three workers (one per group) and the counts factor exactly. Values are Fractions of small
    denominators; ``scale`` multiplies the counts.
    """
    denominator = 1
    for value in [*prevalence, *(x for w in rows.values() for row in w for x in row)]:
        denominator = denominator * value.denominator // np.gcd(denominator, value.denominator)
    records, truth, n = [], [], 0
    r = len(prevalence)
    for ell in range(r):
        for trio in itertools.product(*groups):
            for answers in itertools.product(range(r), repeat=3):
                share = (
                    prevalence[ell]
                    * rows[trio[0]][ell][answers[0]]
                    * rows[trio[1]][ell][answers[1]]
                    * rows[trio[2]][ell][answers[2]]
                    * denominator**4
                    * scale
                )
                assert share.denominator == 1
                for _ in range(int(share)):
                    records.extend((f"t{n:06d}", w, LABELS[a]) for w, a in zip(trio, answers))
                    truth.append(ell)
                    n += 1
    return records, np.array(truth)


def fifths(*values):
    return [Fraction(v, 5) for v in values]


PREVALENCE = fifths(2, 2, 1)
ROWS = {  # no zero rate: the posteriors are compared without the floor that keeps logarithms finite
    "x1": [fifths(3, 1, 1), fifths(1, 3, 1), fifths(1, 1, 3)],
    "x2": [fifths(3, 1, 1), fifths(1, 2, 2), fifths(1, 1, 3)],
    "y1": [fifths(2, 2, 1), fifths(1, 3, 1), fifths(1, 1, 3)],
    "y2": [fifths(3, 1, 1), fifths(1, 3, 1), fifths(1, 2, 2)],
    "z1": [fifths(3, 1, 1), fifths(2, 2, 1), fifths(1, 1, 3)],
    "z2": [fifths(2, 1, 2), fifths(1, 3, 1), fifths(1, 1, 3)],
}
GROUPS = (("x1", "x2"), ("y1", "y2"), ("z1", "z2"))


@pytest.fixture(scope="module")
def exact():
    records, truth = exact_crowd(PREVALENCE, ROWS, GROUPS)
    return records, truth


def test_sparse_evaluation_recovers_an_exact_crowd(exact):
    records, _ = exact
    result = sparse_evaluation(records, groups=[GROUPS])
    assert result.too_sparse == {} and result.alarms == ()
    assert np.allclose(result.priors, [float(p) for p in PREVALENCE], atol=1e-9)
    for k, w in enumerate(result.workers):
        assert np.allclose(result.rows[k], np.array(ROWS[w], dtype=float), atol=1e-9), w
    # every worker answered half of the 5,000 tasks, each with both other groups' views present
    assert result.n_tasks == 5000 and result.items.tolist() == [2500] * 6
    # the views: each is the mixture of its two workers' rows (they cover equal shares of every label)
    view0 = result.splits[0].point.response["view0"]
    assert view0["b"]["b"] == pytest.approx(float((ROWS["x1"][1][1] + ROWS["x2"][1][1]) / 2), abs=1e-9)


def test_sparse_evaluation_exact_crowd_is_indifferent_to_the_order_of_the_groups(exact):
    records, _ = exact
    again = sparse_evaluation(records, groups=[GROUPS[::-1], (GROUPS[1], GROUPS[0], GROUPS[2])])
    assert np.allclose(again.rows, np.array([ROWS[w] for w in again.workers], dtype=float), atol=1e-9)


def test_task_posteriors_equal_the_exact_pattern_posteriors(exact):
    # two routes: the crowd's vectorised posteriors and the evaluators' exact Bayes rule per pattern
    records, truth = exact
    result = sparse_evaluation(records, groups=[GROUPS])
    estimate = Estimate(
        dict(zip(LABELS, PREVALENCE)),
        {w: {t: ROWS[w][i][i] for i, t in enumerate(LABELS)} for w in ROWS},
        response={w: {t: dict(zip(LABELS, ROWS[w][i])) for i, t in enumerate(LABELS)} for w in ROWS},
    )
    by_task = {}
    for task, worker, answer in records:
        by_task.setdefault(task, []).append((worker, answer))
    for k in range(0, result.n_tasks, 97):
        answers = sorted(by_task[result.tasks[k]])
        exact_post = pattern_posteriors(
            estimate, classifiers=[w for w, _ in answers], patterns=[[a for _, a in answers]]
        )
        (post,) = exact_post.values()
        assert result.posteriors[k] == pytest.approx([float(post[x]) for x in LABELS], abs=1e-7)
    # and the exact crowd's labels: the Bayes labels under the true point
    assert (result.posteriors.argmax(axis=1) == truth).mean() > 0.6


@given(seed=st.integers(0, 10_000))
@budget(0.1, minimum=3)
def test_sparse_evaluation_beats_majority_vote_on_generated_crowds(seed):
    data = sparse_crowd(seed=seed, n_tasks=2000)
    result = sparse_evaluation(data.records(), seed=seed, refine=5)
    votes = np.zeros((data.n_tasks, 3))
    np.add.at(votes, (data.task, data.answer), 1)
    majority = (votes.argmax(axis=1) == data.truth).mean()
    ours = (result.posteriors.argmax(axis=1) == data.truth).mean()
    assert ours > majority
    accuracy_error = np.abs(np.einsum("wll->wl", result.rows) - realised_accuracy(data)).mean()
    assert accuracy_error < 0.06  # typical 0.024, worst 0.050 over 50 seeds
    empirical = np.bincount(data.truth, minlength=3) / data.n_tasks
    assert np.abs(result.priors - empirical).max() < 0.08


def realised_accuracy(data):
    """``acc[w, l]``: the share of worker ``w``'s answers on tasks of true label ``l`` that were ``l``."""
    truth = data.truth[data.task]
    hits = np.zeros((data.n_workers, 3))
    seen = np.zeros((data.n_workers, 3))
    np.add.at(hits, (data.worker, truth), data.answer == truth)
    np.add.at(seen, (data.worker, truth), 1)
    return hits / np.maximum(seen, 1)


def test_sparse_evaluation_algebraic_estimate_alone_is_close_to_the_truth():
    data = sparse_crowd(seed=3)
    result = sparse_evaluation(data.records())
    assert result.refined == 0 and np.array_equal(result.rows, result.algebraic_rows)
    error = np.abs(np.einsum("wll->wl", result.rows) - np.einsum("wll->wl", data.confusion)).mean()
    assert error < 0.08
    assert len(result.splits) == 3 and all(e.point is not None for e in result.splits)


def test_sparse_evaluation_names_too_sparse_workers_and_leaves_their_answers_out():
    data = sparse_crowd(seed=0, n_tasks=600)
    records = data.records() + [("t0000", "late", "c"), ("t0001", "late", "c"), ("t0002", "late", "c")]
    result = sparse_evaluation(records, min_items=5)
    assert list(result.too_sparse) == ["late"] and "only 3 answers" in result.too_sparse["late"]
    k = result.workers.index("late")
    assert np.isnan(result.rows[k]).all() and result.coverage[k] == 3
    without = sparse_evaluation(data.records(), min_items=5)
    # the late worker's answers do not move any posterior (same splits of the others aside):
    # the posteriors from the same rows, computed without the late worker's answers, agree
    table = crowd_table(records)
    use = np.array([w != "late" for w in table.workers])
    again = task_posteriors(
        table.task,
        table.worker,
        table.answer,
        table.n_tasks,
        result.priors,
        np.nan_to_num(result.rows, nan=1 / 3),
        use,
    )
    assert np.allclose(again, result.posteriors)
    assert "late" in result.summary() and "too sparse" in result.summary()
    assert without.too_sparse == {}


def test_refine_zero_passes_keeps_the_estimate_and_passes_move_towards_the_truth():
    data = sparse_crowd(seed=1)
    base = sparse_evaluation(data.records())
    refined = sparse_evaluation(data.records(), refine=3)
    assert np.array_equal(refined.algebraic_rows, base.rows)
    err = lambda rows: np.abs(np.einsum("wll->wl", rows) - np.einsum("wll->wl", data.confusion)).mean()  # noqa: E731
    assert err(refined.rows) < err(base.rows)
    assert np.allclose(refined.rows.sum(axis=2), 1.0) and np.isclose(refined.priors.sum(), 1.0)
    table = crowd_table(data.records())
    p, rows, post = refine(
        table.task, table.worker, table.answer, table.n_tasks, table.n_workers, base.priors, base.rows, 0
    )
    assert np.array_equal(rows, base.rows) and np.allclose(post, base.posteriors)


def test_group_views_plurality_and_silence():
    table = crowd_table(
        [("t1", "w0", "b"), ("t1", "w1", "a"), ("t1", "w2", "b"), ("t1", "w3", "c"), ("t2", "w3", "c")]
    )
    view, present = group_views(table, [np.array([0, 1, 0, 2])])
    assert view[0, 0].tolist() == [1, 0, 2] and present[0].tolist() == [
        [True, True, True],
        [False, False, True],
    ]


def test_split_groups_are_balanced_and_seeded():
    splits = split_groups(40, 7, 4)
    assert all(sorted(np.bincount(g).tolist()) == [13, 13, 14] for g in splits)
    assert [g.tolist() for g in split_groups(40, 7, 4)] == [g.tolist() for g in splits]


def test_sparse_evaluation_refuses_bad_options():
    records = sparse_crowd(seed=0, n_tasks=50).records()
    with pytest.raises(SpecError, match="splits >= 1"):
        sparse_evaluation(records, splits=0)
    with pytest.raises(SpecError, match="three disjoint groups"):
        sparse_evaluation(records, groups=[[["w00"], ["w01"], ["w02"]]])
    with pytest.raises(SpecError, match="at least three workers"):
        sparse_evaluation([("t", "w0", "a"), ("t", "w1", "b")])
    with pytest.raises(SketchError, match="missing label"):
        sparse_evaluation([("t", "w0", "a"), ("t", "w1", None), ("t", "w2", "b")])


def test_a_failed_split_is_an_alarm_not_an_exception():
    # every worker always answers "a" on tasks of both labels: the views' pair tables are singular
    records = [(f"t{t}", f"w{w}", "a" if w % 2 else "b") for t in range(20) for w in range(6)]
    result = sparse_evaluation(records)
    assert {a.kind for a in result.alarms} == {"blind_spot"}
    assert len(result.too_sparse) == 6 and np.isnan(result.priors).all()


def _diagonal_row(label, parts):
    """A row of fifths whose largest entry (the accuracy) sits on the true label."""
    top, rest = max(parts), sorted(parts)[:-1]
    row = [None] * 3
    row[label] = top
    others = [k for k in range(3) if k != label]
    for k, value in zip(others, rest):
        row[k] = value
    return fifths(*row)


ROW_PARTS = st.sampled_from([(3, 1, 1), (4, 1, 0), (3, 2, 0), (5, 0, 0), (4, 0, 1), (3, 0, 2)])


@given(
    parts=st.lists(st.lists(ROW_PARTS, min_size=3, max_size=3), min_size=6, max_size=6),
    prevalence=st.sampled_from([(2, 2, 1), (3, 1, 1), (1, 2, 2), (2, 1, 2)]),
)
@budget(0.1, minimum=4)
def test_sparse_evaluation_recovers_random_exact_crowds(parts, prevalence):
    rows = {
        w: [_diagonal_row(ell, p) for ell, p in enumerate(worker_parts)]
        for w, worker_parts in zip(ROWS, parts)
    }
    records, _ = exact_crowd(fifths(*prevalence), rows, GROUPS)
    result = sparse_evaluation(records, groups=[GROUPS])
    assume(result.alarms == ())  # a singular trio of views is an alarm, not an estimate
    assert np.allclose(result.priors, [p / 5 for p in prevalence], atol=1e-6)
    for k, w in enumerate(result.workers):
        assert np.allclose(result.rows[k], np.array(rows[w], dtype=float), atol=1e-6), w
