r"""Benchmark: correlated structures, generated code against the Gröbner route, and what structure= buys.

Targets (issue "Correlated ensembles"), on the reference machine (2 cores), checked here, never in
unit tests:

1. exact evaluation, one sketch at a time, with the generated module through the documented
   counts entry point (:func:`~evalgebra.evaluators.correlated.structured.evaluate_structured_counts`, the
   structure as index tuples; every point exact, checked against the generating set, decoded,
   partitioned): **2,000 sketches/s** for the
   finite structures on four classifiers; **under 1 s per sketch** for all ten pairs on five;
2. the Gröbner reference route (:func:`~evalgebra.groebner.structured_route.structured_solution`) on
   the same sketches, per sketch, and the ratio (baseline / generated) measured in the same run;
3. the vectorised float path
   (:func:`~evalgebra.evaluators.correlated.structured_batch.evaluate_structured_batch`)
   for the one-pair structure: **10^6 sketches/s**;
4. accuracy: the error in prevalence and accuracies of ``structure=`` (its exact point and its fitted
   point) and of the independent evaluator (trios averaged, and fitted) on simulated correlated tests,
   exact (expected sketches) and
   sampled (multinomial tests of ``--items`` items), both printed, over the sketches each
   evaluator answers; those it does not (no point chosen, or every point outside the unit cube:
   the alarms of ``UNANSWERED``) are counted and printed beside the means, never averaged in.

Structures: every generated module found (the package's ``generated/structures`` and the cache
folder, ``$EVALGEBRA_CACHE``). Data: exact expected sketches of random rational points with
nonzero correlations on every subset of the structure (accuracies above one half), from
``--seed``, built outside the timing. Usage:
``python benchmarks/bench_structures.py [--seed 0] [--sketches 2000] [--rows 1000000] [--groebner 5]``
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time, check  # noqa: E402

from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.correlated.structure_lookup import available_structures  # noqa: E402
from evalgebra.evaluators.correlated.structured import evaluate_structured, evaluate_structured_counts  # noqa: E402
from evalgebra.evaluators.correlated.structured_batch import evaluate_structured_batch  # noqa: E402
from evalgebra.evaluators.dispatch import evaluate  # noqa: E402
from evalgebra.evaluators.fitted.structure_choice import with_structure_fit  # noqa: E402
from evalgebra.evaluators.independent.algebraic import evaluate_independent  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.structures import structure_text  # noqa: E402
from evalgebra.testing.strategies import correlation_bound  # noqa: E402

_GOOD = (Fraction(3, 5), Fraction(2, 3), Fraction(3, 4), Fraction(4, 5), Fraction(5, 6), Fraction(7, 10))


def random_point(rng: random.Random, n: int, structure: tuple[tuple[int, ...], ...]) -> EvaluationPoint:
    """Rational prevalence (not 1/2), accuracies above 1/2, nonzero correlations on every subset."""
    spec = EnsembleSpec(n, 2, list(structure))
    denominator = rng.choice((5, 7, 8, 9))
    numerator = rng.choice([k for k in range(1, denominator) if 2 * k != denominator])
    accuracy = {i: {"a": rng.choice(_GOOD), "b": rng.choice(_GOOD)} for i in range(n)}
    rows = {
        "a": [(r["a"], 1 - r["a"]) for r in accuracy.values()],
        "b": [(1 - r["b"], r["b"]) for r in accuracy.values()],
    }
    unit = min(correlation_bound(rows[ell], list(structure), 2) for ell in "ab") / 4
    correlation = {
        s: {ell: unit * rng.choice((-4, -3, -2, -1, 1, 2, 3, 4)) for ell in "ab"} for s in structure
    }
    return EvaluationPoint.from_values(
        spec, {"a": Fraction(numerator, denominator)}, accuracy=accuracy, correlation=correlation
    )


def truth_values(point: EvaluationPoint) -> dict[str, Fraction]:
    n = point.spec.n_classifiers
    out = {"prev_a": point.prevalence_of(0)["a"]}
    for i in range(n):
        out[f"acc_{i}_a"], out[f"acc_{i}_b"] = point.accuracy(i, "a"), point.accuracy(i, "b")
    return out


def estimate_values(estimate, classifiers) -> dict[str, float]:
    out = {"prev_a": float(estimate.prevalence["a"])}
    for i, c in enumerate(classifiers):
        out[f"acc_{i}_a"], out[f"acc_{i}_b"] = (
            float(estimate.accuracy[c]["a"]),
            float(estimate.accuracy[c]["b"]),
        )
    return out


def errors(estimate, classifiers, truth) -> tuple[float, float]:
    """|error| of the prevalence, largest |error| of an accuracy; NaN when nothing was chosen."""
    if estimate is None or None in estimate.values():
        return math.nan, math.nan
    values = estimate_values(estimate, classifiers)
    prevalence = abs(values["prev_a"] - float(truth["prev_a"]))
    accuracy = max(abs(values[k] - float(v)) for k, v in truth.items() if k != "prev_a")
    return prevalence, accuracy


def bench_exact(n: int, structure, points, args) -> dict[str, float]:
    sketches = [expected_sketch(p).count_vector().tolist() for p in points]
    blind = 0
    for point, counts in zip(points, sketches):  # correctness first: the truth is among the points
        result = evaluate_structured_counts(counts, list(structure))
        if "blind_spot" in result.alarm_kinds():  # a degenerate draw: reported by the evaluator, not answered
            blind += 1
            continue
        found = [
            {
                "prev_a": e.prevalence["a"],
                **{f"acc_{i}_{ell}": e.accuracy[f"c{i}"][ell] for i in range(n) for ell in "ab"},
            }
            for e in result.points
        ]
        check(
            truth_values(point) in found, f"structure {structure_text(structure)}: truth not among the points"
        )
    check(blind < len(points) // 4, f"structure {structure_text(structure)}: {blind} blind spots")
    total = args.sketches if n == 4 else max(3, args.sketches // 400)

    def run() -> None:
        for k in range(total):
            evaluate_structured_counts(sketches[k % len(sketches)], structure)

    seconds, _ = best_time(run, 3)
    rate = total / seconds
    groebner = math.nan
    if args.groebner:
        from evalgebra.groebner.structured_route import structured_solution

        spec = EnsembleSpec(n, 2, list(structure))
        chosen = [expected_sketch(p).unlabelled() for p in points[: args.groebner]]
        start = time.perf_counter()
        for sketch in chosen:
            structured_solution(spec, sketch, time_limit=120)
        groebner = (time.perf_counter() - start) / len(chosen)
    return {"rate": rate, "per_sketch": 1 / rate, "groebner": groebner, "blind": blind}


def bench_float(n: int, structure, point: EvaluationPoint, rows: int, rng: np.random.Generator) -> float:
    counts = expected_sketch(point).count_vector()
    distinct = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=1000)
    array = np.tile(distinct, (max(1, rows // 1000), 1)).astype(float)
    seconds, out = best_time(lambda: evaluate_structured_batch(array, list(structure)), 3)
    exact = evaluate_structured_counts(distinct[0].tolist(), list(structure))
    if exact.point is not None:
        check(
            abs(out["prev_a"][0] - float(exact.point.prevalence["a"])) < 1e-8,
            "float path disagrees with the exact one",
        )
    return len(array) / seconds


def sampled_sketch(point: EvaluationPoint, items: int, rng: np.random.Generator) -> Sketch:
    """``items`` i.i.d. items drawn from the point's distribution (true label, then the pattern given it)."""
    n = point.spec.n_classifiers
    p = float(point.prevalence_of(0)["a"])
    in_a = int(rng.binomial(items, p))
    counts = np.zeros(2**n, dtype=np.int64)
    for label, size in (("a", in_a), ("b", items - in_a)):
        pi = np.array([float(x) for x in point.pattern_distribution(label).ravel()])
        counts += rng.multinomial(size, pi / pi.sum())
    patterns = ["".join("ab"[(code >> (n - 1 - i)) & 1] for i in range(n)) for code in range(2**n)]
    return Sketch.from_counts(dict(zip(patterns, counts.tolist())), labels=["a", "b"])


#: Alarms after which an evaluation's chosen point is no estimate (every point outside the unit cube, or none
#: chosen): counted and left out of the means rather than averaged in. Not ``empty_variety``: on a sampled
#: test a structure with fewer unknowns than observables has no exact point, and its points (solving the
#: generated equations) are its estimates.
UNANSWERED = ("outside_unit_cube", "undecided")


def answered(result):
    """The chosen point, or None when the evaluation chose none or says it is no estimate (UNANSWERED; the
    exact points' alarms do not concern a fitted point chosen beside them)."""
    if result.point is None:
        return None
    if result.fit is not None and result.chosen == result.fit.fitted_index:
        return result.point
    if any(kind in UNANSWERED for kind in result.alarm_kinds()):
        return None
    return result.point


def bench_accuracy(n: int, structure, points, items: int, seed: int) -> dict[str, float]:
    """Mean |error| (prevalence) and mean largest |error| (accuracies), structure= vs independent.

    Exact tests: the expected sketch, whose sample statistics are the point. Sampled tests:
    ``items`` i.i.d. items drawn from the point's distribution (the errors include sampling noise;
    the truth is the point). Sketches whose evaluation answers nothing (no chosen point, or an
    alarm of UNANSWERED) are counted (``*_skipped``), not averaged."""
    rng = np.random.default_rng(seed)
    table: dict[str, list[float]] = {
        f"{kind}_{method}_{what}": [] for kind in ("exact", "sampled") for method in "sifj" for what in "pa"
    }
    for point in points:
        truth = truth_values(point)
        for kind, sketch in (
            ("exact", expected_sketch(point).unlabelled()),
            ("sampled", sampled_sketch(point, items, rng)),
        ):
            names = sketch.classifiers
            exact = evaluate_structured(sketch, list(structure))
            for method, result in (
                ("s", exact),
                ("i", evaluate_independent(sketch)),
                ("f", with_structure_fit(exact, sketch, tuple(structure))),
                ("j", evaluate(sketch)),
            ):
                p, a = errors(answered(result), names, truth)
                table[f"{kind}_{method}_p"].append(p)
                table[f"{kind}_{method}_a"].append(a)
    out = {
        k: float(np.nanmean(v)) if not all(math.isnan(x) for x in v) else math.nan for k, v in table.items()
    }
    out.update(
        {k[:-2] + "_skipped": sum(math.isnan(x) for x in v) for k, v in table.items() if k.endswith("_p")}
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sketches", type=int, default=2000, help="exact evaluations timed per N = 4 structure"
    )
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the vectorised float run")
    parser.add_argument(
        "--groebner", type=int, default=5, help="sketches timed on the Gröbner route (0: skip)"
    )
    parser.add_argument(
        "--items", type=int, default=20_000, help="items of each sampled test (accuracy table)"
    )
    parser.add_argument("--accuracy-points", type=int, default=20)
    args = parser.parse_args(argv)
    found = [(n, r, s, origin) for n, r, s, origin in available_structures() if r == 2]
    if not found:
        print(
            "no generated structure module found (generated/structures or $EVALGEBRA_CACHE); generate one "
            "with python -m evalgebra.codegen --spec 'N=4,R=2,structure=0-1' --out DIR"
        )
        return 0
    rng = random.Random(args.seed)
    nprng = np.random.default_rng(args.seed)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"exact evaluation per sketch: generated module vs the Gröbner route (same sketches, same run; "
        f"load average {load:.1f})"
    )
    print(
        f"{'N':>2}  {'structure':<22} {'sketches/s':>11} {'ms/sketch':>10} {'target':>14} {'Gröbner s':>10} "
        f"{'ratio':>8}  module"
    )
    accuracy_rows = []
    for n, _, structure, origin in found:
        points = [random_point(rng, n, structure) for _ in range(200 if n == 4 else 10)]
        figures = bench_exact(n, structure, points, args)
        target = ">= 2,000/s" if n == 4 else "< 1 s/sketch"
        met = figures["rate"] >= 2000 if n == 4 else figures["per_sketch"] < 1
        ratio = (
            figures["groebner"] / figures["per_sketch"] if not math.isnan(figures["groebner"]) else math.nan
        )
        print(
            f"{n:>2}  {structure_text(structure):<22} {figures['rate']:>11,.0f} "
            f"{1000 * figures['per_sketch']:>10.3f} "
            f"{target + (' ok' if met else ' MISS'):>14} {figures['groebner']:>10.3f} {ratio:>8.0f}  {origin}"
            + (f" ({figures['blind']} of {len(points)} draws blind spots)" if figures["blind"] else "")
        )
        if len(structure) == 1 and n == 4:
            rate = bench_float(n, structure, points[0], args.rows, nprng)
            print(
                f"    vectorised float, {args.rows:,} sketches: {rate:,.0f} sketches/s "
                f"(target >= 1,000,000/s: {'ok' if rate >= 1e6 else 'MISS'})"
            )
        if n == 4:
            accuracy_rows.append(
                (
                    structure,
                    bench_accuracy(n, structure, points[: args.accuracy_points], args.items, args.seed),
                )
            )
    print(
        f"\naccuracy on simulated correlated tests ({args.accuracy_points} points per structure; "
        f"sampled tests of {args.items:,} items): mean |error| of P_a, mean of the largest |error| of an "
        "accuracy, over "
        f"the sketches answered; 'skipped': sketches whose evaluation chose no point or raised "
        f"{' / '.join(UNANSWERED)} (counted, not averaged)"
    )
    print(
        "(structure= exact: the generated eliminant's chosen point; fitted: the maximum-likelihood point of "
        "the structure, evaluate(sketch, structure=...); independent exact: the trios' algebra; independent "
        "fitted: evaluate(sketch))"
    )
    print(
        f"{'structure':<22} {'test':<8} {'structure= P_a':>15} {'accuracies':>11} {'skipped':>8} "
        f"{'fitted P_a':>11} {'accuracies':>11} "
        f"{'independent P_a':>16} {'accuracies':>11} {'skipped':>8} {'fitted P_a':>11} {'accuracies':>11}"
    )
    for structure, row in accuracy_rows:
        for kind in ("exact", "sampled"):
            print(
                f"{structure_text(structure):<22} {kind:<8} {row[kind + '_s_p']:>15.5f} "
                f"{row[kind + '_s_a']:>11.5f} "
                f"{row[kind + '_s_skipped']:>8} {row[kind + '_f_p']:>11.5f} {row[kind + '_f_a']:>11.5f} "
                f"{row[kind + '_i_p']:>16.5f} {row[kind + '_i_a']:>11.5f} "
                f"{row[kind + '_i_skipped']:>8} {row[kind + '_j_p']:>11.5f} {row[kind + '_j_a']:>11.5f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
