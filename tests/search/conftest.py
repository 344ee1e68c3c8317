"""Fixtures shared by the tests of evalgebra.search."""

from __future__ import annotations

import numpy as np
import pytest


def _correlated_pool(seed: int, n_items: int = 300, n_classifiers: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Decisions of a pool whose members share a random set of hard items (correlated errors)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n_items)
    hard = rng.random(n_items) < 0.2
    decisions = np.empty((n_items, n_classifiers), dtype=np.int64)
    for i in range(n_classifiers):
        accuracy = rng.uniform(0.6, 0.9)
        share = rng.uniform(0.0, 0.8)  # how often this member fails on the hard items
        right = (rng.random(n_items) < accuracy) & ~(hard & (rng.random(n_items) < share))
        decisions[:, i] = np.where(right, truth, 1 - truth)
    return decisions, truth


@pytest.fixture(scope="session")
def correlated_pool():
    """``correlated_pool(seed, n_items=300, n_classifiers=7) -> (decisions, truth)``: binary labels,
    ``items x classifiers`` decisions (0/1) of members that fail together on a random fifth of the items.

    Session-scoped, so that Hypothesis tests may take it.
    """
    return _correlated_pool
