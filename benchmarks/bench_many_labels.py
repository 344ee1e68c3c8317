r"""Benchmark: three independent classifiers with R = 3 labels, exact and vectorised, against Gröbner.

Targets (issue "Many labels"), on the reference machine (2 cores), checked here, never in unit tests:

1. exact evaluation of ``N = 3, R = 3`` sketches one at a time: **5,000 sketches/s**
   (:func:`~evalgebra.evaluators.many_labels.solve.exact_solution_many_labels` then
   :func:`~evalgebra.evaluators.many_labels.solve.best_assignment`: every column exact, every
   failure mode decided, the label assignment decoded). ``evaluate_counts_many_labels`` (the full
   ``Evaluation`` with all ``R!`` points and the partition) is reported, with no target;
2. the vectorised float path (:func:`~evalgebra.evaluators.many_labels.trios.evaluate_batch_many_labels`)
   on ``10^5`` sketches: **10^5 sketches/s**;
3. the derivation of the ``R = 3`` eliminant (:func:`~evalgebra.codegen.many_labels.characteristic_form`):
   **under 10 s**;
4. the Gröbner route on the same kind of sketch (a numeric degrevlex basis of the evaluation
   ideal with Singular, when installed) per sketch, and the ratio to target 1.

Data: exact expected sketches of random rational independent points (distinct prevalences,
every response column above one half on its true label), from ``--seed``, built outside the
timing. Usage: ``python benchmarks/bench_many_labels.py [--seed 0] [--sketches 2000]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time, check  # noqa: E402

from evalgebra.codegen.many_labels import characteristic_form  # noqa: E402
from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.evaluators.many_labels.solve import (
    best_assignment,
    evaluate_counts_many_labels,
    exact_solution_many_labels,
)  # noqa: E402
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels  # noqa: E402
from evalgebra.groebner.backends import available_backends  # noqa: E402
from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

SPEC = EnsembleSpec(3, 3)


def random_point(rng: random.Random) -> EvaluationPoint:
    labels = SPEC.labels
    weights = rng.sample(range(1, 10), 3)
    prevalence = {lab: Fraction(w, sum(weights)) for lab, w in zip(labels, weights)}
    response = {}
    for i in range(3):
        response[i] = {}
        for t in labels:
            others = [rng.randint(0, 3) for _ in range(2)]
            diagonal = sum(others) + rng.randint(1, 4)
            total = diagonal + sum(others)
            rest = iter(others)
            response[i][t] = {a: Fraction(diagonal if a == t else next(rest), total) for a in labels}
    return EvaluationPoint.from_values(SPEC, prevalence, response=response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sketches", type=int, default=2000, help="distinct sketches for the exact path")
    parser.add_argument("--batch", type=int, default=100_000, help="sketches in the vectorised batch")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    distinct = [expected_sketch(random_point(rng)).count_vector().tolist() for _ in range(200)]
    sketches = [distinct[k % len(distinct)] for k in range(args.sketches)]

    def exact() -> int:
        decided = 0
        for counts in sketches:
            if best_assignment(exact_solution_many_labels(counts, 3), "abc") is not None:
                decided += 1
        return decided

    seconds, decided = best_time(exact, 3)
    rate = len(sketches) / seconds
    print(
        f"exact N = 3, R = 3 (solve + decode): {rate:,.0f} sketches/s ({decided}/{len(sketches)} decided); "
        f"target 5,000: {'met' if rate >= 5000 else 'MISSED'}"
    )
    full_seconds, _ = best_time(lambda: [evaluate_counts_many_labels(c, "abc") for c in sketches[:300]], 1)
    print(f"evaluate_counts_many_labels (all 6 points, partition): {300 / full_seconds:,.0f} sketches/s")

    batch = np.array([distinct[k % len(distinct)] for k in range(args.batch)], dtype=np.int64)
    batch_seconds, out = best_time(lambda: evaluate_batch_many_labels(batch, 3), 3)
    batch_rate = len(batch) / batch_seconds
    check(bool(out["ok"].all()), "the float path fails on an independent sketch")
    print(
        f"vectorised float path: {batch_rate:,.0f} sketches/s; target 100,000: "
        f"{'met' if batch_rate >= 100_000 else 'MISSED'}"
    )

    start = time.perf_counter()
    characteristic_form(3)
    derivation = time.perf_counter() - start
    print(
        f"derivation of the R = 3 eliminant: {derivation:.2f} s; target < 10 s: "
        f"{'met' if derivation < 10 else 'MISSED'}"
    )

    backend = next((b for b in ("singular", "msolve") if b in available_backends()), None)
    if backend is None:
        print("Gröbner route: skipped (neither Singular nor msolve installed)")
        return 0
    from evalgebra.data.sketch import Sketch

    sketch = Sketch.from_counts(dict(zip(("".join(p) for p in _patterns()), distinct[0])), labels=list("abc"))
    start = time.perf_counter()
    for counts in distinct[:3]:
        sketch = Sketch.from_counts(dict(zip(("".join(p) for p in _patterns()), counts)), labels=list("abc"))
        groebner_basis(
            evaluation_ideal(SPEC, observed=sketch, ordering="degrevlex"), backend=backend, time_limit=600
        )
    per_sketch = (time.perf_counter() - start) / 3
    print(
        f"Gröbner route ({backend}, numeric basis): {per_sketch:.2f} s per sketch; the exact path is "
        f"{per_sketch * rate:,.0f} times faster"
    )
    return 0


def _patterns():
    import itertools

    return itertools.product("abc", repeat=3)


if __name__ == "__main__":
    sys.exit(main())
