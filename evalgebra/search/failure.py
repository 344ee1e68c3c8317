r"""How often a pool's candidate trios fail, against the size of the test.

Small tests make the algebraic evaluation of a trio fail more often (complex or out-of-range
evaluations, blind spots). :func:`subsample` draws random tests from the items a pool's sketch
counts; :func:`failure_profile` runs the trio search without ranking on many such tests per
size and gathers the failure rates in a :class:`FailureProfile`.

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": section 4 (failure modes, Figure 2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.seeds import check_seed
from evalgebra.search.trios import REJECT, compatibility_graph, graph_cliques, search_trios

__all__ = ["FailureProfile", "subsample", "failure_profile"]


def subsample(sketch: Sketch, size: int, rng: np.random.Generator | int | None = None) -> Sketch:
    r"""A test of ``size`` items drawn without replacement from the items a sketch counts.

    The draw is multivariate hypergeometric over the sketch's cells, so truth and
    populations are kept: the result is the sketch of a random subset of the same items.

    Parameters
    ----------
    sketch : Sketch
    size : int
        ``1 <= size <= sketch.Q``.
    rng : numpy.random.Generator or int, optional

    Examples
    --------
    >>> sk = Sketch.from_decisions([["a", "b"], ["b", "b"], ["a", "a"], ["a", "b"]])
    >>> small = subsample(sk, 3, rng=0)
    >>> small.Q, sum(small.counts().values()), set(small.counts()) <= set(sk.counts())
    (3, 3, True)
    """
    if not isinstance(size, (int, np.integer)) or not 1 <= size <= sketch.Q:
        raise SketchError(f"a subsample holds 1 to Q = {sketch.Q} items, got {size!r}")
    generator = np.random.default_rng(check_seed(rng, "rng", generators=(np.random.Generator,)))
    pop, truth, code, count = sketch.table()
    drawn = generator.multivariate_hypergeometric(count, int(size))
    keep = drawn > 0
    return Sketch(
        sketch.classifiers, sketch.labels, pop[keep], truth[keep], code[keep], drawn[keep], sketch.populations
    )


@dataclass(frozen=True)
class FailureProfile:
    r"""Failure rates of a pool's candidate trios against test size (Figure 2 of the streaming-evaluation
    paper).

    Attributes
    ----------
    sizes : tuple of int
        Test sizes.
    repeats : int
        Random tests drawn per size.
    n_candidates : int
        Candidate trios (triangles of the compatibility graph before blind-spot pruning).
    rates : dict of str to tuple of float
        Per alarm kind, per size: the fraction of (trio, test) draws raising it; ``rejected``
        is the fraction rejected for any reason in ``reject``.
    always_rejected : tuple of float
        Per size, the fraction of candidate trios rejected on every one of the tests.
    """

    sizes: tuple[int, ...]
    repeats: int
    n_candidates: int
    rates: dict[str, tuple[float, ...]]
    always_rejected: tuple[float, ...]

    @property
    def seemingly_correct(self) -> tuple[float, ...]:
        """Per size, the fraction of draws that survive (``1 - rates["rejected"]``)."""
        return tuple(1.0 - r for r in self.rates["rejected"])


def failure_profile(
    pool: Sketch,
    sizes: Sequence[int],
    repeats: int = 10,
    rng: np.random.Generator | int | None = None,
    *,
    exclude: Any = None,
    reject: Sequence[str] = REJECT,
    exact: bool | None = None,
) -> FailureProfile:
    r"""How often the pool's candidate trios fail, against the size of the test.

    For every size, ``repeats`` tests are drawn from the pool's items (:func:`subsample`) and
    every candidate trio is evaluated on each (:func:`search_trios` without ranking).

    Parameters
    ----------
    pool : Sketch
        The pool's decisions on the items tests are drawn from.
    sizes : sequence of int
        Test sizes, each at most ``pool.Q``.
    repeats : int
    rng : numpy.random.Generator or int, optional
    exclude, reject, exact
        As in :func:`search_trios`.

    Returns
    -------
    FailureProfile

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 2, 600)
    >>> decisions = np.where(rng.random((600, 4)) < 0.8, truth[:, None], 1 - truth[:, None])
    >>> profile = failure_profile(Sketch.from_decisions(decisions), [30, 600], repeats=4, rng=1)
    >>> profile.n_candidates, profile.rates["rejected"][1] <= profile.rates["rejected"][0]
    (4, True)
    """
    if repeats < 1:
        raise SpecError(f"repeats must be at least 1, got {repeats!r}")
    generator = np.random.default_rng(check_seed(rng, "rng", generators=(np.random.Generator,)))
    kinds: Counter[str] = Counter()
    rows: list[Counter[str]] = []
    always: list[float] = []
    n_candidates = len(graph_cliques(compatibility_graph(pool, exclude), 3))
    for size in sizes:
        per_size: Counter[str] = Counter()
        failed: Counter[tuple[int, ...]] = Counter()
        for _ in range(repeats):
            search = search_trios(
                subsample(pool, size, generator), exclude=exclude, reject=reject, criterion=None, exact=exact
            )
            per_size.update(search.failure_counts())
            per_size["rejected"] += len(search.rejected())
            failed.update(r.indices for r in search.rejected())
        kinds.update(per_size.keys())
        rows.append(per_size)
        always.append(sum(1 for v in failed.values() if v == repeats) / max(1, n_candidates))
    total = max(1, n_candidates) * repeats
    rates = {kind: tuple(row[kind] / total for row in rows) for kind in sorted(set(kinds) | {"rejected"})}
    return FailureProfile(tuple(int(s) for s in sizes), int(repeats), n_candidates, rates, tuple(always))
