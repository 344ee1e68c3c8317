r"""Benchmark: certifying the fitted maximum (score equations by msolve, strata bounds) per model.

For each model, seeded sampled tests (independent binary classifiers, ``--size`` items), timed:

* ``fit``: :func:`~evalgebra.evaluators.fitted.fit.fit_sketch` (EM from majority vote): the baseline;
* ``certify``: :func:`~evalgebra.evaluators.fitted.certify.certify_fitted` on that fit, within
  ``--time-limit`` seconds (three classifiers) or ``--four-limit`` (four): past it the answer is
  ``undecided``, which this benchmark reports rather than hides.

Printed per model: the answers (true / false / undecided), the median certification time and its
ratio to the fit's. Checked: every three-classifier test is certified (``global_maximum`` true,
two real critical points), and its certified log-likelihood is at least the fit's.

Usage: ``python benchmarks/bench_certify.py [--tests 5] [--four-tests 1] [--four-limit 60]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import numpy as np
from _timing import check

from evalgebra.data.sketch import Sketch
from evalgebra.engines import msolve_binary
from evalgebra.evaluators.fitted.certify import certify_fitted
from evalgebra.evaluators.fitted.fit import fit_sketch


def sampled(seed: int, n: int, size: int) -> Sketch:
    """A sampled test: prevalence, rates drawn at random, items drawn independently given the label."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.25, 0.75)
    low, high = rng.uniform(0.05, 0.35, n), rng.uniform(0.65, 0.95, n)
    truth = rng.random(size) < p
    answers = np.where(truth[:, None], rng.random((size, n)) < high, rng.random((size, n)) < low)
    counts: dict[str, int] = {}
    for row in answers:
        key = "".join("ab"[int(v)] for v in row)
        counts[key] = counts.get(key, 0) + 1
    return Sketch.from_counts(counts, labels=["a", "b"])


def run_model(n: int, tests: int, size: int, limit: float) -> list[tuple[float, float, object, object]]:
    rows = []
    for seed in range(tests):
        sketch = sampled(seed, n, size)
        start = time.perf_counter()
        fitted = fit_sketch(sketch)
        fit_seconds = time.perf_counter() - start
        start = time.perf_counter()
        certified, certificate = certify_fitted(fitted, time_limit=limit)
        rows.append((fit_seconds, time.perf_counter() - start, certificate, certified))
        if n == 3:
            check(certificate.global_maximum is True, f"three classifiers, seed {seed}: {certificate.reason}")
            check(
                certificate.critical_points == 2,
                f"seed {seed}: {certificate.critical_points} critical points",
            )
            check(
                certified.log_likelihood >= fitted.log_likelihood - 1e-6,
                "the certified point is worse than EM's",
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--tests", type=int, default=5, help="sampled tests of three classifiers")
    parser.add_argument("--four-tests", type=int, default=1, help="sampled tests of four classifiers")
    parser.add_argument("--size", type=int, default=1000, help="items per test")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per certification (N = 3)")
    parser.add_argument("--four-limit", type=float, default=60.0, help="seconds per certification (N = 4)")
    args = parser.parse_args(argv)
    if msolve_binary() is None:
        print("bench_certify: msolve is not installed (make setup); nothing to time")
        return 0
    print(f"{'model':<28} {'tests':>5} {'answers':<26} {'fit (s)':>9} {'certify (s)':>12} {'ratio':>8}")
    for n, tests, limit in ((3, args.tests, args.time_limit), (4, args.four_tests, args.four_limit)):
        if tests <= 0:
            continue
        rows = run_model(n, tests, args.size, limit)
        answers: dict[str, int] = {}
        for *_, certificate, _ in rows:
            key = str(certificate.global_maximum).lower()  # type: ignore[attr-defined]
            answers[key] = answers.get(key, 0) + 1
        fit = statistics.median(r[0] for r in rows)
        certify = statistics.median(r[1] for r in rows)
        text = ", ".join(f"{k} {v}" for k, v in sorted(answers.items()))
        model = f"{n} binary, independent"
        print(f"{model:<28} {tests:>5} {text:<26} {fit:>9.3f} {certify:>12.2f} {certify / fit:>7.0f}x")
        for *_, certificate, _ in rows:
            if certificate.global_maximum != True:  # noqa: E712 - True, False or "undecided"
                print(f"    {certificate.global_maximum}: {certificate.reason}")  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
