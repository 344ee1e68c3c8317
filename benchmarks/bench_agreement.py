r"""Benchmark: the panel's agreement (``evalgebra.crowd.agreement.panel_agreement``) beside the fit.

``evalgebra crowd`` computes the agreement statistics after the fit, so what they add is
measured against ``crowd_fit`` on the same crowd in the same run (ratio: agreement seconds /
fit seconds; below 1 the statistics cost less than the fit). And the exact vote-count
formula of Krippendorff's alpha is timed against the pairwise definition (the coincidence
matrix built pair by pair of answers, as the tests' brute force does), on the same votes,
both asserted equal.

Crowds (``evalgebra.datasets.crowd.sparse_crowd``, 3 labels, 5 workers per task): 40 workers
on 3,000 tasks (the guide's) and 300 workers on 20,000 tasks (``MAX_PAIR_WORKERS``, every
pair's Cohen's kappa). CPU time (``time.process_time``), best of ``--repeat``.

Usage::

    python benchmarks/bench_agreement.py [--repeat 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.crowd.agreement import krippendorff_alpha, panel_agreement
from evalgebra.crowd.fit import crowd_fit
from evalgebra.crowd.table import crowd_table
from evalgebra.datasets.crowd import sparse_crowd

CROWDS = ((40, 3000), (300, 20000))


def cpu(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best CPU seconds of ``repeat`` calls and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return best, result


def pairwise_alpha(votes: np.ndarray) -> Fraction:
    """Krippendorff's alpha from its definition: every ordered pair of answers within a task."""
    n_labels = votes.shape[1]
    coincidence = [[Fraction(0)] * n_labels for _ in range(n_labels)]
    for row in votes.tolist():
        values = [c for c, k in enumerate(row) for _ in range(k)]
        if len(values) < 2:
            continue
        weight = Fraction(1, len(values) - 1)
        for a, b in itertools.permutations(values, 2):
            coincidence[a][b] += weight
    marginal = [sum(row) for row in coincidence]
    n = sum(marginal)
    off = sum(coincidence[c][k] for c in range(n_labels) for k in range(n_labels) if c != k)
    chance = sum(marginal[c] * marginal[k] for c in range(n_labels) for k in range(n_labels) if c != k)
    return 1 - (n - 1) * off / chance


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for n_workers, n_tasks in CROWDS:
        data = sparse_crowd(seed=args.seed, n_workers=n_workers, n_tasks=n_tasks, per_task=5)
        table = crowd_table(data.records())
        stats, result = cpu(lambda: panel_agreement(table), args.repeat)
        fit, _ = cpu(lambda: crowd_fit(table), args.repeat)
        votes = table.votes()
        formula, alpha = cpu(lambda: krippendorff_alpha(votes), args.repeat)
        brute, reference = cpu(lambda: pairwise_alpha(votes), 1)
        if alpha != reference or alpha != result.alpha:
            raise AssertionError(f"alpha {alpha} differs from the pairwise definition's {reference}")
        print(
            f"{n_workers} workers, {n_tasks} tasks, {len(result.cohen)} pairs: agreement {stats:.4f} s, "
            f"crowd_fit {fit:.4f} s (ratio {stats / fit:.2f}); alpha {float(alpha):.4f}: formula "
            f"{formula:.5f} s, pairwise definition {brute:.3f} s ({brute / max(formula, 1e-9):.0f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
