"""Tests of evalgebra.search.failure: random subtests and failure rates against test size."""

from __future__ import annotations

import pytest

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError
from evalgebra.search.failure import failure_profile, subsample
from evalgebra.search.trios import search_trios


def test_subsample_keeps_truth_and_draws_without_replacement(correlated_pool):
    decisions, truth = correlated_pool(11, n_items=300, n_classifiers=4)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"], truth=truth)
    small = subsample(sketch, 120, rng=3)
    assert small.Q == 120 and small.is_labelled
    full = sketch.counts()
    assert all(count <= full[pattern] for pattern, count in small.counts().items())
    assert subsample(sketch, 300, rng=0) == sketch
    assert subsample(sketch, 50, rng=5) == subsample(sketch, 50, rng=5)
    with pytest.raises(SketchError):
        subsample(sketch, 301)


def test_failure_profile_rates(correlated_pool):
    decisions, _ = correlated_pool(12, n_items=1500, n_classifiers=6)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    profile = failure_profile(sketch, [20, 100, 1500], repeats=4, rng=0, exclude=[(0, 1)])
    assert profile.n_candidates == 16 and profile.sizes == (20, 100, 1500)
    for kind, rates in profile.rates.items():
        assert len(rates) == 3 and all(0 <= r <= 1 for r in rates), kind
    assert all(a <= r for a, r in zip(profile.always_rejected, profile.rates["rejected"]))
    # the whole test is drawn every time: each trio fails on all four draws or on none
    last = search_trios(sketch, exclude=[(0, 1)], criterion=None)
    assert profile.always_rejected[2] == profile.rates["rejected"][2] == len(last.rejected()) / 16
    assert profile.seemingly_correct[2] == pytest.approx(1 - profile.rates["rejected"][2])
