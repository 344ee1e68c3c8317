"""Crowd EM: its objective by brute force, its ascent, its fixed point, gold and abstentions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.crowd.em import crowd_em, maximise_answers, objective
from evalgebra.crowd.tasks import FLOOR
from evalgebra.errors import SpecError


def _crowd(
    seed: int, n_tasks: int = 30, n_workers: int = 4, r: int = 2, k: int | None = None, p: float = 0.7
):
    """Every worker answers each task with probability ``p``; answers uniform over ``k`` responses."""
    rng = np.random.default_rng(seed)
    k = r if k is None else k
    mask = rng.random((n_tasks, n_workers)) < p
    task, worker = np.nonzero(mask)
    answer = rng.integers(0, k, size=len(task))
    return task, worker, answer, n_tasks, n_workers, r, k


def _start(seed: int, n_workers: int, r: int, k: int):
    rng = np.random.default_rng(seed + 1000)
    priors = rng.dirichlet(np.ones(r))
    rows = rng.dirichlet(np.ones(k), size=(n_workers, r))
    return priors, rows


def _brute_objective(task, worker, answer, n_tasks, priors, rows, gold=None):
    """The penalised log-likelihood, task by task, with Python loops."""
    total = 0.0
    for t in range(n_tasks):
        answers = [(int(w), int(a)) for tt, w, a in zip(task, worker, answer) if tt == t]
        joint = [priors[ell] * math.prod(rows[w, ell, a] for w, a in answers) for ell in range(len(priors))]
        total += math.log(joint[gold[t]] if gold is not None and gold[t] >= 0 else sum(joint))
    return total + FLOOR * (float(np.log(rows).sum()) + float(np.log(priors).sum()))


@pytest.mark.parametrize("seed", range(4))
def test_objective_is_the_log_likelihood_by_brute_force(seed):
    task, worker, answer, n_tasks, n_workers, r, k = _crowd(seed, n_tasks=12, r=3, k=4)
    priors, rows = _start(seed, n_workers, r, k)
    gold = np.full(n_tasks, -1)
    gold[[1, 5]] = [2, 0]
    for g in (None, gold):
        assert objective(task, worker, answer, n_tasks, priors, rows, g) == pytest.approx(
            _brute_objective(task, worker, answer, n_tasks, priors, rows, g), rel=1e-12
        )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 3), st.integers(0, 1))
def test_crowd_em_never_lowers_the_objective(seed, r, extra):
    task, worker, answer, n_tasks, n_workers, r, k = _crowd(seed, r=r, k=r + extra)
    priors, rows = _start(seed, n_workers, r, k)
    values = [
        crowd_em(task, worker, answer, n_tasks, n_workers, r, priors, rows, max_iterations=m).objective
        for m in range(7)
    ]
    assert all(b >= a - 1e-9 * (1 + abs(a)) for a, b in zip(values, values[1:])), values


@pytest.mark.parametrize("seed", range(3))
def test_crowd_em_ends_at_the_fixed_point_plain_em_reaches(seed):
    task, worker, answer, n_tasks, n_workers, r, k = _crowd(seed, n_tasks=40, r=2)
    priors, rows = _start(seed, n_workers, r, k)
    run = crowd_em(task, worker, answer, n_tasks, n_workers, r, priors, rows, tolerance=1e-13)
    assert run.converged
    plain = (priors, rows)
    for _ in range(20_000):  # plain EM steps, one at a time (no extrapolation)
        step = crowd_em(task, worker, answer, n_tasks, n_workers, r, *plain, max_iterations=1)
        moved = max(np.abs(step.rows - plain[1]).max(), np.abs(step.priors - plain[0]).max())
        plain = (step.priors, step.rows)
        if moved < 1e-11:
            break
    again = maximise_answers(task, worker, answer, n_workers, run.posteriors)  # one more M step moves nothing
    assert np.abs(again[1] - run.rows).max() < 1e-4
    if abs(step.objective - run.objective) < 1e-6:  # the same local maximum: the same point
        assert np.abs(step.rows - run.rows).max() < 1e-3


def test_crowd_em_holds_gold_tasks_and_learns_from_them():
    task, worker, answer, n_tasks, n_workers, r, k = _crowd(5, n_tasks=20, r=2)
    priors, rows = _start(5, n_workers, r, k)
    gold = np.random.default_rng(0).integers(0, 2, size=n_tasks)  # every task known
    run = crowd_em(task, worker, answer, n_tasks, n_workers, r, priors, rows, gold=gold)
    assert np.array_equal(run.posteriors, np.eye(2)[gold])
    counts = np.zeros((n_workers, r, k))
    np.add.at(counts, (worker, gold[task], answer), 1.0)
    assert np.array_equal(run.expected, counts)  # the answers behind the rows, exactly
    assert np.allclose(run.rows, (counts + FLOOR) / (counts + FLOOR).sum(axis=2, keepdims=True))
    assert np.allclose(run.priors, (np.bincount(gold, minlength=2) + FLOOR) / (n_tasks + 2 * FLOOR))


def test_crowd_em_estimates_abstention_rates_that_track_the_truth():
    rng = np.random.default_rng(3)
    n_tasks, n_workers = 4000, 5
    truth = (rng.random(n_tasks) < 0.4).astype(int)
    # rows[w, truth, response]: responses a, b, abstain; worker 0 abstains far more on b-items
    rows = np.array([[[0.8, 0.15, 0.05], [0.1, 0.6, 0.3]]] + [[[0.8, 0.2, 0.0], [0.25, 0.75, 0.0]]] * 4)
    task = np.repeat(np.arange(n_tasks), n_workers)
    worker = np.tile(np.arange(n_workers), n_tasks)
    cumulative = rows[worker, truth[task]].cumsum(axis=1)
    answer = (rng.random(len(task))[:, None] > cumulative).sum(axis=1)
    start = (np.array([0.5, 0.5]), np.tile([[0.6, 0.3, 0.1], [0.3, 0.6, 0.1]], (n_workers, 1, 1)))
    run = crowd_em(task, worker, answer, n_tasks, n_workers, 2, *start)
    assert run.rows.shape == (5, 2, 3) and np.allclose(run.rows.sum(axis=2), 1.0)
    assert run.priors[1] == pytest.approx(0.4, abs=0.03)
    assert run.rows[0, 1, 2] == pytest.approx(0.3, abs=0.04) and run.rows[0, 0, 2] == pytest.approx(
        0.05, abs=0.02
    )
    assert (run.posteriors.argmax(axis=1) == truth).mean() > 0.9


def test_crowd_em_refuses_bad_starts():
    task, worker, answer, n_tasks, n_workers, r, k = _crowd(0)
    priors, rows = _start(0, n_workers, r, k)
    with pytest.raises(SpecError, match="shape"):
        crowd_em(task, worker, answer, n_tasks, n_workers, r, priors[:1], rows)
    with pytest.raises(SpecError, match="finite"):
        crowd_em(task, worker, answer, n_tasks, n_workers, r, priors, np.full_like(rows, np.nan))
    with pytest.raises(SpecError, match="max_iterations"):
        crowd_em(task, worker, answer, n_tasks, n_workers, r, priors, rows, max_iterations=-1)
    with pytest.raises(SpecError, match="responses"):
        crowd_em(task, worker, answer + 5, n_tasks, n_workers, r, priors, rows)
