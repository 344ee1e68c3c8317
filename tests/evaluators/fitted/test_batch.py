"""EM on many count vectors at once: checked against the one-vector EM and the cells' likelihood.

Independent routes: :func:`evalgebra.evaluators.fitted.em.em` run on each count vector alone
(its fixed point and likelihood), :func:`evalgebra.evaluators.fitted.em.log_likelihood` at any
point, and the exact test inside the model (its exact point is a fixed point of both).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.fitted.batch import batch_em, batch_log_likelihood
from evalgebra.evaluators.fitted.em import Cells, Parameters, em, log_likelihood
from evalgebra.evaluators.fitted.fit import majority_start, sketch_cells


def _sample(rng, n_classifiers, n_labels, items, abstain=0.0, populations=1):
    """A sampled test: classifiers right with 0.75, else uniform noise; some answers withheld."""
    truth = rng.integers(0, n_labels, items)
    right = rng.random((items, n_classifiers)) < 0.75
    noise = rng.integers(0, n_labels, (items, n_classifiers))
    decisions = np.where(right, truth[:, None], noise).astype(object)
    labels = [f"l{k}" for k in range(n_labels)]
    decisions = np.vectorize(lambda k: labels[k], otypes=[object])(decisions)
    decisions[rng.random((items, n_classifiers)) < abstain] = "u"
    population = rng.integers(0, populations, items) if populations > 1 else None
    return Sketch.from_decisions(
        decisions,
        labels=labels,
        abstain="u" if abstain else None,
        population=population,
        populations=[f"p{s}" for s in range(populations)] if populations > 1 else None,
    )


def _shape(cells: Cells) -> tuple[int, int, int]:
    return cells.n_labels, cells.n_responses, cells.n_populations


def _resampled(cells: Cells, rng, size: int) -> np.ndarray:
    total = int(cells.weights.sum())
    return rng.multinomial(total, cells.weights / total, size=size).astype(float)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from([(3, 2), (4, 2), (3, 3), (4, 3)]),
    abstain=st.sampled_from([0.0, 0.05]),
    populations=st.sampled_from([1, 2]),
)
def test_batch_log_likelihood_equals_the_cells_log_likelihood(seed, shape, abstain, populations):
    rng = np.random.default_rng(seed)
    cells = sketch_cells(_sample(rng, *shape, 300, abstain, populations))
    points = [majority_start(cells).inside()]
    for _ in range(2):
        prevalence = rng.dirichlet(np.ones(cells.n_labels), cells.n_populations)
        response = rng.dirichlet(np.ones(cells.n_responses), (cells.n_classifiers, cells.n_labels))
        points.append(Parameters(prevalence, response))
    counts = _resampled(cells, rng, 3)
    for point in points:
        values = batch_log_likelihood(cells, counts, point)
        for b in range(3):
            alone = Cells(cells.answers, counts[b], cells.population, *_shape(cells))
            assert values[b] == pytest.approx(log_likelihood(alone, point), rel=1e-12)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from([(3, 2), (4, 2), (3, 3), (4, 3)]),
    abstain=st.sampled_from([0.0, 0.05]),
)
def test_batch_em_reaches_what_em_reaches_on_each_vector_alone(seed, shape, abstain):
    rng = np.random.default_rng(seed)
    cells = sketch_cells(_sample(rng, *shape, 600, abstain))
    start = em(cells, majority_start(cells).inside()).parameters  # the full data's fit: a warm start
    counts = _resampled(cells, rng, 4)
    fit = batch_em(cells, counts, start)
    assert fit.converged.all()
    for b in range(4):
        alone = Cells(cells.answers, counts[b], cells.population, *_shape(cells))
        one = em(alone, start)
        assert fit.log_likelihood[b] == pytest.approx(one.log_likelihood, rel=1e-8, abs=1e-6)
        assert fit.log_likelihood[b] == pytest.approx(log_likelihood(alone, fit.parameters(b)), rel=1e-12)
        assert fit.log_likelihood[b] >= log_likelihood(alone, start) - 1e-9 * abs(one.log_likelihood)
        assert np.allclose(fit.response[b], one.parameters.response, atol=2e-3)
    assert np.allclose(fit.prevalence.sum(axis=2), 1) and np.allclose(fit.response.sum(axis=3), 1)
    assert (fit.prevalence >= 0).all() and (fit.response >= 0).all()


def test_batch_em_never_lowers_the_likelihood_and_counts_its_steps():
    rng = np.random.default_rng(3)
    cells = sketch_cells(_sample(rng, 4, 3, 500))
    counts = _resampled(cells, rng, 6)
    start = majority_start(cells).inside()
    before = batch_log_likelihood(cells, counts, start)
    values = [before]
    for cap in (2, 6, 20, 200):
        fit = batch_em(cells, counts, start, max_iterations=cap)
        values.append(fit.log_likelihood)
        assert (fit.iterations <= cap + 3).all()  # a round of two EM steps and a stabilising one
    assert all((b >= a - 1e-9 * np.abs(a)).all() for a, b in zip(values, values[1:]))
    assert not batch_em(cells, counts, start, max_iterations=2).converged.any()


def test_batch_em_stays_at_the_exact_point_of_an_exact_test():
    # three binary classifiers, prevalence 1/4, accuracies (3/4, 2/3), (4/5, 3/5), (5/6, 1/2): counts x 480
    answers = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)])
    counts = np.array([84.0, 36, 51, 39, 68, 52, 77, 73])
    cells = Cells(answers, counts, np.zeros(8, dtype=int), 2, 2, 1)
    exact = Parameters(
        np.array([[0.25, 0.75]]),
        np.array(
            [
                [[3 / 4, 1 / 4], [1 / 3, 2 / 3]],
                [[4 / 5, 1 / 5], [2 / 5, 3 / 5]],
                [[5 / 6, 1 / 6], [1 / 2, 1 / 2]],
            ]
        ),
    )
    fit = batch_em(cells, counts[None, :], exact)
    saturated = float(np.sum(counts * np.log(counts / counts.sum())))
    assert fit.converged[0] and fit.log_likelihood[0] == pytest.approx(saturated, rel=1e-12)
    assert np.allclose(fit.response[0], exact.response, atol=1e-9)


def test_batch_em_takes_one_start_per_vector_and_refuses_bad_shapes():
    rng = np.random.default_rng(4)
    cells = sketch_cells(_sample(rng, 3, 2, 300))
    counts = _resampled(cells, rng, 2)
    one = majority_start(cells).inside()
    each = Parameters(np.stack([one.prevalence] * 2), np.stack([one.response] * 2))
    assert np.allclose(batch_em(cells, counts, each).response, batch_em(cells, counts, one).response)
    with pytest.raises(SpecError, match="one row per count vector"):
        batch_em(cells, counts[:, :-1], one)
    with pytest.raises(SpecError, match="does not fit"):
        batch_em(cells, counts, Parameters(one.prevalence, one.response[:2]))
