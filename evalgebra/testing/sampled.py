r"""Sampled tests for the fitted and certified evaluations: random, not exactly on the model.

Examples
--------
>>> sketch = sampled_binary_sketch(0, 3, 100)
>>> sketch.Q, sketch.classifiers
(100, ('c0', 'c1', 'c2'))
"""

from __future__ import annotations

import numpy as np

from evalgebra.data.sketch import Sketch

__all__ = ["sampled_binary_sketch"]


def sampled_binary_sketch(
    seed: int,
    n_classifiers: int,
    size: int,
    low: tuple[float, float] = (0.05, 0.35),
    high: tuple[float, float] = (0.65, 0.95),
) -> Sketch:
    """A sampled test of independent binary classifiers: a random prevalence in [1/4, 3/4], rates of
    answering ``b`` drawn from ``low`` (true ``a``) and ``high`` (true ``b``), items drawn given the label."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.25, 0.75)
    a, b = rng.uniform(*low, n_classifiers), rng.uniform(*high, n_classifiers)
    truth = rng.random(size) < p
    answers = np.where(
        truth[:, None], rng.random((size, n_classifiers)) < b, rng.random((size, n_classifiers)) < a
    )
    counts: dict[str, int] = {}
    for row in answers:
        key = "".join("ab"[int(v)] for v in row)
        counts[key] = counts.get(key, 0) + 1
    return Sketch.from_counts(counts, labels=["a", "b"])
