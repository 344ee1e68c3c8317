r"""Benchmark: exact real algebraic numbers (roots of integer polynomials of any degree) against SymPy.

Measured, each with SymPy doing the same exact job in the same run as the baseline (no targets in
the issues; the figures go in the report and the README):

1. the real roots of a degree-16 integer polynomial with repeated factors
   (:func:`~evalgebra.numbers.algebraic_numbers.real_roots` vs ``sympy.Poly.real_roots``);
2. the exact sum of two cubic irrationals (``AlgebraicNumber + AlgebraicNumber``: composed sum,
   factorisation, root picked by intervals) vs ``sympy.minimal_polynomial`` of the sum of two
   ``CRootOf``;
3. one value ``g(theta)`` in a number field of degree 16 (:meth:`FieldElement.value`) vs
   ``sympy.minimal_polynomial`` of the same expression in ``CRootOf``;
4. the exact evaluation of an ``N = 3, R = 3`` sketch with irrational roots, partition included
   (:func:`~evalgebra.evaluators.many_labels.solve.evaluate_counts_many_labels`), and the exact total
   accuracy of its chosen point for ``R = 3`` and ``R = 4`` (no SymPy baseline: the float sum is
   shown for scale).

Usage: ``python benchmarks/bench_algebraic_numbers.py [--seed 0] [--repeat 3] [--no-sympy]``
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import flint
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time, check  # noqa: E402

from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.many_labels.trios import evaluate_many_labels  # noqa: E402
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber, FieldElement, real_roots  # noqa: E402

X = sympy.Symbol("x")


def correlated(seed: int, n_labels: int, items: int = 400) -> Sketch:
    """Three classifiers that share errors: irrational roots, nearly always."""
    rng = random.Random(seed)
    labels = tuple("abcdefgh"[:n_labels])
    decisions, truth = [], []
    for _ in range(items):
        t, shared = rng.randrange(n_labels), rng.randrange(n_labels)
        row = []
        for _i in range(3):
            u = rng.random()
            row.append(
                labels[t] if u < 0.6 else labels[shared] if u < 0.85 else labels[rng.randrange(n_labels)]
            )
        truth.append(labels[t])
        decisions.append(row)
    return Sketch.from_decisions(decisions, truth=truth, labels=labels).unlabelled()


def _sympy_poly(poly: flint.fmpz_poly) -> sympy.Expr:
    return sympy.Poly(list(reversed([int(c) for c in poly.coeffs()])), X).as_expr()


def row(name: str, ours: float, theirs: float | None) -> None:
    ratio = "-" if theirs is None else f"{theirs / ours:8.1f}x"
    base = "-" if theirs is None else f"{theirs * 1e3:10.2f} ms"
    print(f"{name:58s} {ours * 1e3:10.2f} ms   SymPy {base:>13s}   ratio {ratio}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-sympy", action="store_true", help="skip the SymPy baselines")
    args = parser.parse_args(argv)
    baseline = not args.no_sympy

    # 1. degree 16 with repeated factors: sqrt2+sqrt3+sqrt5+sqrt7's minimal polynomial, squared, times (x^2-1)
    total: object = 0
    for p in (2, 3, 5, 7):
        total = total + AlgebraicNumber([-p, 0, 1], 1)
    assert isinstance(total, AlgebraicNumber)
    poly = total.poly**2 * flint.fmpz_poly([-1, 0, 1])
    ours, (roots, _) = best_time(lambda: real_roots(poly), args.repeat)
    check(len(roots) == 18, f"{len(roots)} distinct real roots, expected 18")
    theirs = None
    if baseline:
        theirs, sym = best_time(lambda: sympy.Poly(_sympy_poly(poly), X).real_roots(multiple=False), 1)
        check(len(sym) == 18, "SymPy finds 18 distinct real roots")
    row(f"real_roots, degree {poly.degree()} (18 distinct real roots)", ours, theirs)

    # 2. the sum of two cubic irrationals
    a, b = AlgebraicNumber([-2, 0, 0, 1], 0), AlgebraicNumber([1, -3, 0, 1], 2)
    ours, s = best_time(
        lambda: AlgebraicNumber([-2, 0, 0, 1], 0) + AlgebraicNumber([1, -3, 0, 1], 2), args.repeat
    )
    theirs = None
    if baseline:
        ra, rb = sympy.CRootOf(_sympy_poly(a.poly), a.index), sympy.CRootOf(_sympy_poly(b.poly), b.index)
        theirs, mp = best_time(lambda: sympy.minimal_polynomial(ra + rb, X), 1)
        check(
            sympy.expand(mp - _sympy_poly(s.poly)) == 0 or sympy.expand(mp + _sympy_poly(s.poly)) == 0,
            "the same minimal polynomial as SymPy",
        )
    row(f"cubic + cubic (result of degree {s.degree})", ours, theirs)

    # 3. one value in a number field of degree 16
    theta = FieldElement.generator(total)
    g = (theta**3 - 2 * theta + 1) / (theta**2 + 1)
    ours, value = best_time(lambda: g.value(total), args.repeat)
    check(
        abs(float(value) - (float(total) ** 3 - 2 * float(total) + 1) / (float(total) ** 2 + 1)) < 1e-9,
        "g(theta) agrees with floats",
    )
    theirs = None
    if baseline:
        t = sympy.CRootOf(_sympy_poly(total.poly), total.index)
        theirs, _ = best_time(lambda: sympy.minimal_polynomial((t**3 - 2 * t + 1) / (t**2 + 1), X), 1)
    row(f"FieldElement.value, field of degree 16 (value degree {getattr(value, 'degree', 1)})", ours, theirs)

    # 4. many labels with irrational roots
    for n_labels in (3, 4):
        sketch = correlated(args.seed, n_labels)
        ours, result = best_time(lambda: evaluate_many_labels(sketch), args.repeat)
        check(
            "irrational" in result.alarm_kinds() and result.point is not None, "an irrational decoded point"
        )
        row(f"evaluate N = 3, R = {n_labels}, irrational (all points, partition)", ours, None)
        point = result.point
        ours, totals = best_time(lambda: [point.total_accuracy(c) for c in point.accuracy], 1)
        floats = [
            sum(float(point.prevalence[lab]) * float(point.accuracy[c][lab]) for lab in sketch.labels)
            for c in point.accuracy
        ]
        check(
            all(abs(float(x) - y) < 1e-12 for x, y in zip(totals, floats)), "exact totals agree with floats"
        )
        degrees = sorted({getattr(x, "degree", 1) for x in totals})
        row(f"total_accuracy x3, R = {n_labels}, exact (degrees {degrees})", ours, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
