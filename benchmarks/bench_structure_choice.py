r"""Benchmark: the fitted evaluation of a correlated structure, and ``structure="auto"``'s choice.

Sampled tests (``--items`` i.i.d. items, default 20,000) of four binary classifiers, one pair of them
correlated, drawn from random points (prevalence in [0.2, 0.8], accuracies in [0.65, 0.9], the pair's
error correlation coefficient on each label in [0.3, 0.5] when *strong*, [0.05, 0.1] when *weak*; a
coefficient ``rho`` is the covariance ``G`` over ``sqrt(P_i (1 - P_i) P_j (1 - P_j))``), and tests of
four independent classifiers. Printed, over ``--tests`` tests per case, in the same run:

1. the mean |error| of the prevalence of the structure's fitted point (``evaluate(sketch,
   structure=pair)``), of its exact point alone (``fit=False``: the generated eliminant, which reads
   one trio) and of the independent model's fitted point (``evaluate(sketch)``); targets: the
   structure's fitted error at most **half** the independent model's when the pair is strong, at most
   **1.25 times** it when weak;
2. how often ``evaluate(sketch, structure="auto")`` is right: on the strong-pair tests, the true pair
   among the chosen structure and those exactly as likely (on four classifiers a pair and the pair of
   the two others explain the same distributions: the counts cannot tell them apart, and the evidence
   names both), and, stricter, those two and no other; on the independent tests, the independent model
   chosen;
   targets **80%** each; and its time per sketch.

Usage: ``python benchmarks/bench_structure_choice.py [--seed 0] [--tests 40] [--items 20000]``
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import check  # noqa: E402

from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.dispatch import evaluate  # noqa: E402
from evalgebra.evaluators.fitted.structure_choice import pattern_names  # noqa: E402
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint  # noqa: E402

PAIRS = [(i, j) for i in range(4) for j in range(i + 1, 4)]
STRENGTHS = {"strong": (0.3, 0.5), "weak": (0.05, 0.1)}


def random_truth(
    rng: np.random.Generator, strength: str | None
) -> tuple[tuple[tuple[int, int], ...], StructurePoint]:
    """A random point of one correlated pair (``strength``) or of independent classifiers (``None``)."""
    prevalence = float(rng.uniform(0.2, 0.8))
    accuracy = rng.uniform(0.65, 0.9, (4, 2))
    if strength is None:
        return (), StructurePoint(prevalence, accuracy, np.zeros((0, 2)))
    pair = PAIRS[int(rng.integers(len(PAIRS)))]
    low, high = STRENGTHS[strength]
    i, j = pair
    spread = np.sqrt(accuracy[i] * (1 - accuracy[i]) * accuracy[j] * (1 - accuracy[j]))
    correlation = rng.uniform(low, high, 2) * spread
    point = StructurePoint(prevalence, accuracy, correlation[None, :])
    check(StructureModel(4, (pair,)).is_inside(point), "a drawn point outside the model")
    return (pair,), point


def sampled(structure, point: StructurePoint, items: int, rng: np.random.Generator) -> Sketch:
    counts = rng.multinomial(items, StructureModel(4, structure).probabilities(point))
    return Sketch.from_counts(dict(zip(pattern_names(4, "ab"), counts.tolist())), labels=["a", "b"])


def prevalence_error(result, truth: float) -> float:
    """|error| of the chosen point's prevalence; NaN when no point is chosen."""
    if result.point is None:
        return math.nan
    try:
        return abs(float(result.point.prevalence["a"]) - truth)
    except (TypeError, ValueError):
        return math.nan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tests", type=int, default=40, help="sampled tests per case")
    parser.add_argument("--items", type=int, default=20_000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"sampled tests of {args.items:,} items, four binary classifiers, {args.tests} per case "
        f"(seed {args.seed}; load average {load:.1f})"
    )
    print(
        f"{'case':<8} {'structure fitted':>17} {'structure exact':>16} {'unanswered':>10} "
        f"{'independent fitted':>19} {'ratio':>6} {'target':>8}"
    )
    right: dict[str, list[bool]] = {"strong": [], "strong alone": [], "independent": []}
    seconds: list[float] = []
    met = True
    for strength in ("strong", "weak", None):
        fitted, exact, independent = [], [], []
        for _ in range(args.tests):
            structure, point = random_truth(rng, strength)
            sketch = sampled(structure, point, args.items, rng)
            if structure:
                text = f"{structure[0][0]}-{structure[0][1]}"
                fitted.append(prevalence_error(evaluate(sketch, structure=text), point.prevalence))
                exact.append(prevalence_error(evaluate(sketch, structure=text, fit=False), point.prevalence))
                independent.append(prevalence_error(evaluate(sketch), point.prevalence))
            if strength in ("strong", None):
                start = time.perf_counter()
                result = evaluate(sketch, structure="auto")
                seconds.append(time.perf_counter() - start)
                evidence = result.structure_evidence
                names = {evidence.candidates[k].structure for k in (evidence.chosen, *evidence.tied)}
                if strength is None:
                    right["independent"].append(result.structure == "independent")
                else:
                    i, j = structure[0]
                    k, m = sorted(set(range(4)) - {i, j})
                    truth = f"c{i}-c{j}"
                    right["strong"].append(truth in names)
                    right["strong alone"].append(names == {truth, f"c{k}-c{m}"})
        if strength is None:
            continue
        mean_fitted, mean_independent = float(np.nanmean(fitted)), float(np.nanmean(independent))
        ratio = mean_fitted / mean_independent
        target = 0.5 if strength == "strong" else 1.25
        ok = ratio <= target
        met = met and ok
        print(
            f"{strength:<8} {mean_fitted:>17.5f} {float(np.nanmean(exact)):>16.5f} "
            f"{sum(math.isnan(e) for e in exact):>10} {mean_independent:>19.5f} {ratio:>6.2f} "
            f"{'<= ' + str(target) + (' ok' if ok else ' MISS'):>8}"
        )
    print("\nstructure='auto' (BIC among the independent model and the 38 identifiable pair structures):")
    for case, label in (
        ("strong", "strong pair: the true pair chosen or exactly as likely as the chosen"),
        ("strong alone", "strong pair: exactly the true pair and the other two chosen, as likely (stricter)"),
        ("independent", "independent judges: the independent model chosen"),
    ):
        share = float(np.mean(right[case]))
        target = (
            "" if case == "strong alone" else (" (target >= 80%: " + ("ok)" if share >= 0.8 else "MISS)"))
        )
        if case != "strong alone":
            met = met and share >= 0.8
        print(f"  {label}: {share:.0%} of {len(right[case])}{target}")
    print(f"  time per sketch: {np.mean(seconds):.2f} s mean, {np.max(seconds):.2f} s worst")
    print("targets met" if met else "a target missed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
