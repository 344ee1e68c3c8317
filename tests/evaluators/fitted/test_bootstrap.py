"""The bootstrap of the fitted evaluation: resamples, refits, label alignment, failures, intervals.

Checked by independent routes: each refit against EM on that resample alone; the alignment
against brute force over every renaming; failures forced (an iteration cap) and counted; the
intervals of ``evaluate(..., intervals="bootstrap")`` against the draws' own quantiles; and (slow)
their coverage of the population's parameters on simulated sampled tests.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.fitted.batch import batch_em
from evalgebra.evaluators.fitted.bootstrap import align_labels, bootstrap_fit, fitted_intervals
from evalgebra.evaluators.fitted.em import Cells, Parameters, em
from evalgebra.evaluators.fitted.fit import fit_sketch, sketch_cells


def _population_sample(rng, prevalence, response, items, abstain=None):
    """``items`` i.i.d. items of a population (``response[i][true][answer]``); answers past the labels are
    the abstention ``abstain``."""
    labels = [f"l{k}" for k in range(len(prevalence))]
    names = labels + ([abstain] if abstain else [])
    truth = rng.choice(len(prevalence), size=items, p=prevalence)
    columns = []
    for rows in response:
        rows = np.asarray(rows)
        cumulative = rows[truth].cumsum(axis=1)
        columns.append((rng.random((items, 1)) > cumulative).sum(axis=1))
    decisions = np.array([[names[k] for k in row] for row in np.stack(columns, axis=1)], dtype=object)
    return Sketch.from_decisions(decisions, labels=labels, abstain=abstain)


BINARY = ([0.3, 0.7], [[[0.85, 0.15], [0.2, 0.8]], [[0.75, 0.25], [0.3, 0.7]], [[0.8, 0.2], [0.35, 0.65]]])
BINARY4 = (BINARY[0], [*BINARY[1], [[0.7, 0.3], [0.25, 0.75]]])
THREE = (
    [0.5, 0.3, 0.2],
    [
        [[0.8, 0.1, 0.1], [0.15, 0.75, 0.1], [0.1, 0.2, 0.7]],
        [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.1, 0.7]],
        [[0.75, 0.15, 0.1], [0.2, 0.7, 0.1], [0.1, 0.15, 0.75]],
    ],
)


def test_align_labels_finds_the_renaming_brute_force_finds():
    rng = np.random.default_rng(0)
    n_labels = 4
    reference = Parameters(
        rng.dirichlet(np.ones(n_labels), 2), rng.dirichlet(np.ones(n_labels + 1), (3, n_labels))
    )
    perms = list(itertools.permutations(range(n_labels)))
    chosen = [perms[k] for k in rng.integers(0, len(perms), 30)]
    noisy_p = np.stack([reference.prevalence[:, list(p)] for p in chosen]) + rng.normal(
        0, 0.01, (30, 2, n_labels)
    )
    noisy_r = np.stack([reference.response[:, list(p)] for p in chosen]) + rng.normal(
        0, 0.01, (30, 3, n_labels, 5)
    )
    out_p, out_r, renamed = align_labels(noisy_p, noisy_r, reference)
    for b in range(len(chosen)):
        costs = {
            q: np.abs(noisy_p[b][:, list(q)] - reference.prevalence).sum()
            + np.abs(noisy_r[b][:, list(q)] - reference.response).sum()
            for q in perms
        }
        best = min(perms, key=costs.__getitem__)
        assert np.allclose(out_p[b], noisy_p[b][:, list(best)])
        assert np.allclose(out_r[b], noisy_r[b][:, list(best)])
        assert renamed[b] == (best != tuple(range(n_labels)))
    assert renamed.sum() == sum(p != tuple(range(n_labels)) for p in chosen)


def test_bootstrap_fit_is_seeded_and_each_refit_is_em_on_its_resample():
    rng = np.random.default_rng(1)
    sketch = _population_sample(rng, *THREE, 800)
    fitted = fit_sketch(sketch)
    first = bootstrap_fit(fitted.cells, fitted.parameters, 30, seed=5)
    again = bootstrap_fit(fitted.cells, fitted.parameters, 30, seed=5)
    other = bootstrap_fit(fitted.cells, fitted.parameters, 30, seed=6)
    assert np.array_equal(first.response, again.response) and not np.array_equal(
        first.response, other.response
    )
    assert first.failed() == {} and first.usable.all()
    # the same resamples, refitted one at a time by the one-vector EM from the same start
    counts = np.random.default_rng(5).multinomial(
        int(fitted.cells.weights.sum()), fitted.cells.weights / fitted.cells.weights.sum(), size=30
    )
    for b in range(0, 30, 7):
        alone = Cells(fitted.cells.answers, counts[b].astype(float), fitted.cells.population, 3, 3, 1)
        one = em(alone, fitted.parameters.inside(), tolerance=1e-12)
        assert np.allclose(first.response[b], one.parameters.response, atol=2e-3)


def test_bootstrap_fit_counts_refits_that_do_not_converge_and_leaves_them_out():
    rng = np.random.default_rng(2)
    sketch = _population_sample(rng, *THREE, 600)
    fitted = fit_sketch(sketch)
    capped = bootstrap_fit(fitted.cells, fitted.parameters, 40, seed=0, max_iterations=2)
    assert capped.failed() == {"not_converged": int((~capped.usable).sum())} and not capped.usable.all()
    result = fitted_intervals(evaluate(sketch), sketch, n_boot=40, seed=0)
    assert result.intervals.n_boot == 40 and result.intervals.failed_share == result.intervals.n_failed / 40


def test_bootstrap_fit_resamples_each_population_with_its_own_size():
    rng = np.random.default_rng(3)
    one, two = _population_sample(rng, *BINARY, 300), _population_sample(rng, *BINARY, 900)
    cells = sketch_cells(one)
    both = Cells(
        np.concatenate([cells.answers, sketch_cells(two).answers]),
        np.concatenate([cells.weights, sketch_cells(two).weights]),
        np.concatenate(
            [np.zeros(len(cells.weights), dtype=int), np.ones(len(sketch_cells(two).weights), dtype=int)]
        ),
        2,
        2,
        2,
    )
    start = em(
        both, Parameters(np.array([[0.4, 0.6]] * 2), np.array([[[0.7, 0.3], [0.3, 0.7]]] * 3))
    ).parameters
    draws = bootstrap_fit(both, start, 20, seed=1)
    assert draws.prevalence.shape == (20, 2, 2) and draws.usable.all()
    refit = batch_em(both, both.weights[None, :], start)
    assert np.allclose(refit.prevalence[0], start.prevalence, atol=1e-4)  # the start is the full data's fit


def test_evaluate_bootstrap_refits_the_fitted_point_and_its_intervals_are_the_draws_quantiles():
    rng = np.random.default_rng(4)
    sketch = _population_sample(rng, *BINARY4, 2000)
    result = evaluate(sketch, intervals="bootstrap", n_boot=300, seed=9)
    assert result.verdict == "fitted" and result.intervals.estimator == "fitted"
    assert result.point_kind(result.chosen) == "fitted"
    fitted = evaluate(sketch)
    start = Parameters(
        np.array([[fitted.point.prevalence[t] for t in sketch.labels]]),
        np.array(
            [
                [[fitted.point.response[c][t][a] for a in sketch.responses] for t in sketch.labels]
                for c in sketch.classifiers
            ]
        ),
    )
    draws = bootstrap_fit(sketch_cells(sketch), start, 300, seed=9)
    values = draws.response[:, 0, 0, 0][draws.usable]  # c0's accuracy on l0
    low, high = np.quantile(values, [0.025, 0.975])
    estimate = fitted.point.accuracy["c0"]["l0"]
    assert result.point.interval["accuracy"]["c0"]["l0"] == pytest.approx(
        (min(low, estimate), max(high, estimate))
    )
    document = json.loads(result.to_json())
    assert document["intervals"]["estimator"] == "fitted" and document["verdict"] == "fitted"
    assert "interval" in document["points"][result.chosen]
    assert "of the fitted point" in result.summary()


def test_evaluate_bootstrap_with_abstentions_is_the_fitted_bootstrap_of_every_response_rate():
    rng = np.random.default_rng(5)
    rows = [
        [[0.8, 0.15, 0.05], [0.25, 0.7, 0.05]],
        [[0.75, 0.2, 0.05], [0.2, 0.7, 0.1]],
        [[0.8, 0.2, 0.0], [0.3, 0.7, 0.0]],
    ]
    sketch = _population_sample(rng, [0.4, 0.6], rows, 1500, abstain="u")
    result = evaluate(sketch, intervals="bootstrap", n_boot=200, seed=0)
    assert result.intervals.estimator == "fitted"
    for c, table in result.point.response.items():
        for t, row in table.items():
            for a, value in row.items():
                low, high = result.point.interval["response"][c][t][a]
                assert 0 <= low <= value <= high <= 1


def test_an_exact_test_keeps_its_exact_point_and_gets_fitted_intervals():
    sketch = Sketch.from_counts(
        {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 73},
        labels=["a", "b"],
    )
    result = evaluate(sketch, intervals="bootstrap", n_boot=200, seed=0)
    assert result.verdict == "exact" and result.point.prevalence["a"] == 0.25  # a Fraction, exact
    low, high = result.point.interval["prevalence"]["a"]
    assert low < 0.25 < high and result.intervals.estimator == "fitted"


def test_fitted_intervals_refuse_an_evaluation_without_a_fit():
    sketch = _population_sample(np.random.default_rng(6), *BINARY, 300)
    with pytest.raises(SpecError, match="needs a fitted evaluation"):
        fitted_intervals(evaluate(sketch, fit=False), sketch)
    with pytest.raises(SpecError, match="strictly between"):
        fitted_intervals(evaluate(sketch), sketch, level=1.0)


def _coverage(case, tests, items, n_boot, seed):
    prevalence, response = case
    rng = np.random.default_rng(seed)
    hits = total = 0
    for _ in range(tests):
        sketch = _population_sample(rng, prevalence, response, items)
        result = evaluate(sketch, intervals="bootstrap", n_boot=n_boot, seed=int(rng.integers(2**31)))
        interval = result.point.interval
        for ell, t in enumerate(sketch.labels):
            low, high = interval["prevalence"][t]
            hits += low <= prevalence[ell] <= high
            total += 1
            for i, c in enumerate(sketch.classifiers):
                low, high = interval["accuracy"][c][t]
                hits += low <= response[i][ell][ell] <= high
                total += 1
    return hits / total


@pytest.mark.slow
@pytest.mark.parametrize("case", [BINARY, THREE], ids=["binary3", "labels3"])
def test_fitted_bootstrap_covers_the_population_about_as_often_as_it_says(case):
    """60 simulated sampled tests: pooled 95% coverage within a few points (the benchmark runs 500)."""
    assert 0.90 <= _coverage(case, 60, 1500, 400, seed=11) <= 0.99
