"""Tests of evalgebra.evaluators.hui_walter.online: the closed form re-evaluated on a stream of batches."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.hui_walter.exact import evaluate_hui_walter, hui_walter_truth
from evalgebra.evaluators.hui_walter.online import OnlineHuiWalterEvaluator


@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 60), min_size=1, max_size=8))
def test_online_cross_tab_equals_batch_cross_tab(seed, sizes):
    rng = np.random.default_rng(seed)
    items = sum(sizes)
    decisions = rng.integers(0, 2, size=(items, 2))
    population = rng.integers(0, 2, size=items)
    online = OnlineHuiWalterEvaluator(populations=("s0", "s1"))
    start = 0
    for size in sizes:
        online.update(decisions[start : start + size], population[start : start + size])
        start += size
    assert len(online.history) == online.stream.batches == sum(1 for s in sizes if s)
    if items == 0:
        assert online.cross_tab().sum() == 0
        return
    batch = Sketch.from_decisions(
        decisions,
        labels=["a", "b"],
        classifiers=["c0", "c1"],
        population=population,
        populations=["s0", "s1"],
    )
    assert online.cross_tab().tolist() == [batch.count_vector(p).tolist() for p in ("s0", "s1")]
    assert online.sketch == batch
    final = evaluate_hui_walter(batch)
    assert online.history[-1].alarms == tuple(sorted(final.alarm_kinds()))


# -- end to end, on data made here ----------------------------------------------------------------------
def test_hui_walter_end_to_end_on_simulated_items():
    """Per-item data drawn here: two populations, two conditionally independent tests.

    The items are streamed in batches (online closed form), the final cross-tab evaluated
    exactly and sampled by Gibbs; both are compared with the truth of the labelled items.
    """
    rng = np.random.default_rng(2024)
    theta, sensitivity, specificity = (0.65, 0.15), (0.85, 0.7), (0.9, 0.8)
    population = np.repeat([0, 1], [1500, 2500])
    rng.shuffle(population)
    truth = np.where(rng.random(population.size) < np.take(theta, population), 0, 1)  # 0 = positive
    right = np.column_stack(
        [rng.random(truth.size) < np.where(truth == 0, se, sp) for se, sp in zip(sensitivity, specificity)]
    )
    decisions = np.where(right, truth[:, None], 1 - truth[:, None])
    labelled = Sketch.from_decisions(
        decisions,
        labels=["pos", "neg"],
        classifiers=["t1", "t2"],
        truth=truth,
        population=population,
        populations=["p1", "p2"],
    )
    exact_truth = hui_walter_truth(labelled)

    online = OnlineHuiWalterEvaluator(["t1", "t2"], ["pos", "neg"], ["p1", "p2"])
    for start in range(0, truth.size, 400):
        result = online.update(decisions[start : start + 400], population[start : start + 400])
    assert online.sketch == labelled.unlabelled()
    trace = online.trace()
    assert trace[("items",)].tolist() == list(range(400, 4001, 400))
    assert "irrational" in result.alarm_kinds()  # sampled data are not exactly independent
    closed = result.point
    assert abs(float(closed.by_population["p1"]["pos"]) - float(exact_truth[("prevalence", "p1")])) < 0.05
    for c in ("t1", "t2"):
        for label in ("pos", "neg"):
            assert abs(float(closed.accuracy[c][label]) - float(exact_truth[("accuracy", c, label)])) < 0.05
    assert trace[("accuracy", "t1", "pos")][-1] == pytest.approx(float(closed.accuracy["t1"]["pos"]))

    posterior = online.posterior(iterations=2000, burn_in=500, seed=11)
    for key, (mean, _low, _high) in posterior.summary().items():
        sd = posterior.sd[posterior.parameters.index(key)]
        assert abs(mean - float(exact_truth[key])) < 3 * sd, key
    assert sum(posterior.covers(exact_truth).values()) >= 5
