r"""Benchmark: five binary classifiers with all ten pairs correlated (K5), per sketch,
against the Gröbner route.

Target (issue "Correlated ensembles"): **under 1 s per sketch** for N = 5 with all pairs
correlated, exact. Measured here, in one run:

1. the K5 route (:mod:`evalgebra.evaluators.correlated.complete_pairs` through
   :func:`~evalgebra.evaluators.correlated.structured.evaluate_structured`: certified path tracking of the
   six reduced equations' 404 solutions, msolve when tracking does not settle the sketch; every
   real point, the rational ones exact and checked against the generating set, decoded,
   partitioned), wall-clock seconds per sketch, and which route answered;
2. baselines in the same run: msolve's rational parametrisation of the six equations alone
   (the previous route, on the first ``--msolve`` sketches), and the Gröbner route on the whole
   31-unknown ideal (:func:`~evalgebra.groebner.structured_route.structured_solution`, msolve backend)
   with a time limit (``--limit``, default 120 s): when it does not finish the ratio printed is a
   lower bound;
3. accuracy on the same exact tests: the error in prevalence and accuracies of
   ``structure=`` (K5) and of the independent evaluator (trios averaged).

Data: exact expected sketches of seeded random rational points with nonzero correlations on
all ten pairs. Usage:
``python benchmarks/bench_complete_pairs.py [--seed 0] [--sketches 12] [--msolve 2] [--limit 120]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from fractions import Fraction
from itertools import combinations

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import EvalgebraError, PointError
from evalgebra.evaluators.correlated.complete_pairs import CompletePairs, msolve_binary
from evalgebra.evaluators.correlated.structured import evaluate_structured, structure_match
from evalgebra.evaluators.independent.algebraic import evaluate_independent
from evalgebra.spec import EnsembleSpec

PAIRS = list(combinations(range(5), 2))
K5 = ",".join(f"{i}-{j}" for i, j in PAIRS)


def _points(seed: int, count: int) -> list[EvaluationPoint]:
    rng = random.Random(seed)
    spec = EnsembleSpec(5, 2, PAIRS)
    out: list[EvaluationPoint] = []
    while len(out) < count:
        accuracy = {i: {ell: Fraction(rng.randint(12, 18), 20) for ell in "ab"} for i in range(5)}
        correlation = {
            pair: {ell: Fraction(rng.choice([-3, -2, -1, 1, 2, 3]), 800) for ell in "ab"} for pair in PAIRS
        }
        point = EvaluationPoint.from_values(
            spec, {"a": Fraction(rng.randint(5, 15), 20)}, accuracy=accuracy, correlation=correlation
        )
        try:
            expected_sketch(point)
        except PointError:
            continue
        out.append(point)
    return out


def _errors(estimate, truth: EvaluationPoint) -> tuple[float, float]:
    if estimate is None:
        return float("nan"), float("nan")
    prevalence = abs(float(estimate.prevalence["a"]) - float(truth.prevalence_of(0)["a"]))
    accuracy = max(
        abs(float(estimate.accuracy[f"c{i}"][ell]) - float(truth.accuracy(i, ell)))
        for i in range(5)
        for ell in "ab"
    )
    return prevalence, accuracy


def main(argv: list[str] | None = None) -> int:
    # the summary (first paragraph of the docstring) on one line
    parser = argparse.ArgumentParser(description=" ".join(__doc__.strip().split("\n\n")[0].split()))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sketches", type=int, default=12, help="exact sketches (each solved once per route)"
    )
    parser.add_argument(
        "--msolve", type=int, default=2, help="sketches also solved by msolve's parametrisation"
    )
    parser.add_argument(
        "--limit", type=float, default=120.0, help="seconds allowed to the Gröbner route (0: skip)"
    )
    args = parser.parse_args(argv if argv is not None else [])
    if msolve_binary() is None:
        print("bench_complete_pairs: msolve is not installed (make setup); nothing measured")
        return 1
    truths = _points(args.seed, args.sketches)
    sketches = [expected_sketch(t).unlabelled() for t in truths]
    print(
        f"K5 on five binary classifiers, {len(sketches)} exact sketches (seed {args.seed}); "
        "target: under 1 s per sketch"
    )
    print(
        "route: certified path tracking (evaluate's default), msolve's parametrisation when tracking does "
        "not settle a sketch; the msolve column is the msolve route alone on the same sketch"
    )
    print(
        f"{'sketch':>6} {'K5 s':>7} {'route':>9} {'msolve s':>9} {'points':>7} {'exact':>6} {'truth':>6} "
        f"{'K5 err P / acc':>16} {'independent err P / acc':>24}"
    )
    seconds, reference = [], []
    for k, (truth, sketch) in enumerate(zip(truths, sketches)):
        counts = [int(c) for c in sketch.count_vector()]
        start = time.perf_counter()
        result = evaluate_structured(sketch, K5)
        seconds.append(time.perf_counter() - start)
        route = structure_match(K5, [f"c{i}" for i in range(5)]).module.route
        alone = math.nan
        if k < args.msolve:
            start = time.perf_counter()
            CompletePairs(tracking=False).solve(counts)
            alone = time.perf_counter() - start
            reference.append(alone)
        exact = sum(1 for e in result.points if isinstance(e.prevalence["a"], Fraction))
        found = result.point is not None and result.point.prevalence["a"] == truth.prevalence_of(0)["a"]
        independent = evaluate_independent(sketch).point
        mine, theirs = _errors(result.point, truth), _errors(independent, truth)
        print(
            f"{k:>6} {seconds[-1]:>7.2f} {route:>9} {alone:>9.1f} {len(result.points):>7} {exact:>6} "
            f"{'yes' if found else 'no':>6} "
            f"{mine[0]:>7.4f} / {mine[1]:.4f} {theirs[0]:>12.4f} / {theirs[1]:.4f}"
        )
    mean = sum(seconds) / len(seconds)
    print(
        f"K5 (evaluate): {mean:.2f} s per sketch, slowest {max(seconds):.2f} s (target 1 s: "
        f"{'ok' if max(seconds) < 1 else 'MISS'})"
    )
    if reference:
        alone = sum(reference) / len(reference)
        print(f"msolve route alone: {alone:.1f} s per sketch; ratio {alone / mean:.1f}x")
    if args.limit:
        from evalgebra.groebner.runner import GroebnerTimeout
        from evalgebra.groebner.structured_route import structured_solution

        spec = EnsembleSpec(5, 2, PAIRS)
        start = time.perf_counter()
        try:
            structured_solution(spec, sketches[0], backend="msolve", time_limit=args.limit)
            baseline = time.perf_counter() - start
            print(f"Gröbner route (whole ideal, msolve): {baseline:.1f} s; ratio {baseline / mean:.1f}x")
        except (GroebnerTimeout, EvalgebraError) as exc:
            spent = time.perf_counter() - start
            print(
                f"Gröbner route (whole ideal, msolve): no answer after {spent:.0f} s ({type(exc).__name__}); "
                f"ratio > {spent / mean:.1f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
