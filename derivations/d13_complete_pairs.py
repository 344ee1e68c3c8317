r"""d13: five binary classifiers with every pair correlated (K5): a reduction, and the variety's size.

With ``x_i`` the indicator of classifier ``i`` answering ``b``, ``p = P_b``, ``t_a = -p``,
``t_b = 1 - p``, ``delta_i = P(x_i | b) - P(x_i | a)`` and pair correlations ``c^ell_ij``
(central moments given the label; none beyond the pairs), the mixture's central moments are

    m_S = sum_ell P_ell sum_{T in {} u pairs, T subset S} c^ell_T t_ell^{|S-T|} delta_{S-T}.   (*)

Writing ``c^ell = C + t_ell Delta`` (mean and difference over the labels) makes every order
linear in ``C`` and ``Delta``. Checked here:

* **(*) against the model** (exact, seeded rational points): the central moments of the
  exact simulation of each point equal (*);
* **the reduction** (symbolic, in ``p``, ``delta``, ``C``, ``Delta``): substituting (*) for the
  moments, the six equations of :mod:`evalgebra.evaluators.complete_pairs` (one per
  four-subset, one for all five) vanish identically: they hold at every point of the variety,
  and they no longer contain ``C`` or ``Delta``;
* **the variety** (msolve, seeded exact sketches): the six equations are zero-dimensional with
  an eliminant of degree 404 (the K5 variety has 404 complex points, closed under the label
  swap), the real points, those inside the unit cube, and the truth among them with every
  correlation (the ten order-3 equations give ``Delta`` linearly).

Usage: ``python derivations/d13_complete_pairs.py [--seed 0] [--check]`` (about a minute per
sketch for msolve on two cores).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import canonical_argv, parse  # noqa: E402

import sympy  # noqa: E402

from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.errors import PointError  # noqa: E402
from evalgebra.evaluators import complete_pairs as k5  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

MODEL_POINTS = 6     # seeded points for the check of (*)
SKETCHES = 2         # seeded exact sketches solved by msolve
PAIRS = k5.PAIRS


def _random_point(rng: random.Random) -> tuple[EvaluationPoint, object]:
    spec = EnsembleSpec(5, 2, list(PAIRS))
    while True:
        accuracy = {i: {ell: Fraction(rng.randint(12, 18), 20) for ell in "ab"} for i in range(5)}
        correlation = {pair: {ell: Fraction(rng.choice([-3, -2, -1, 1, 2, 3]), 800) for ell in "ab"} for pair in PAIRS}
        truth = EvaluationPoint.from_values(spec, {"a": Fraction(rng.randint(5, 15), 20)}, accuracy=accuracy,
                                            correlation=correlation)
        try:
            return truth, expected_sketch(truth).unlabelled()
        except PointError:
            continue


def _formula(subset: Sequence[int], p: object, delta: Sequence[object], c: dict) -> object:
    """(*) for one subset, with ``c[ell][pair]`` the correlations."""
    total: object = 0
    for ell, (weight, t) in enumerate(((1 - p, -p), (p, 1 - p))):
        inner = t ** len(subset) * math.prod(delta[i] for i in subset)
        for pair in combinations(subset, 2):
            rest = [i for i in subset if i not in pair]
            inner += c[ell][pair] * t ** len(rest) * math.prod(delta[i] for i in rest)
        total += weight * inner
    return total



def _truth_unknowns(truth: EvaluationPoint) -> tuple[Fraction, list[Fraction], dict]:
    p = 1 - truth.prevalence_of(0)["a"]
    delta = [truth.accuracy(i, "b") - (1 - truth.accuracy(i, "a")) for i in range(5)]
    c = {ell: {pair: truth.correlation_value(pair, label, (label, label)) for pair in PAIRS}
         for ell, label in enumerate("ab")}
    return p, delta, c


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d13_complete_pairs", __doc__ or "", argv)
    rng = random.Random(args.seed)
    report = Report("d13_complete_pairs.py", canonical_argv(args), [repr((MODEL_POINTS, SKETCHES))])
    failures = 0

    report.section("(*) against the model: central moments of exact simulations")
    for k in range(MODEL_POINTS):
        truth, sketch = _random_point(rng)
        _, moments = k5.central_moments([int(x) for x in sketch.count_vector()])
        p, delta, c = _truth_unknowns(truth)
        equal = all(moments[s] == _formula(s, p, delta, c) for s in moments)
        report.line(f"point {k} (Q = {sketch.Q}, P_a = {truth.prevalence_of(0)['a']}): all 26 central moments "
                    f"equal (*): {'yes' if equal else 'NO'}")
        failures += not equal

    report.section("the reduction, symbolically in p, delta, C, Delta")
    p = sympy.Symbol("p")
    delta = sympy.symbols("d0:5")
    mean = {pair: sympy.Symbol(f"C{pair[0]}{pair[1]}") for pair in PAIRS}
    gap = {pair: sympy.Symbol(f"D{pair[0]}{pair[1]}") for pair in PAIRS}
    c = {0: {pair: mean[pair] - p * gap[pair] for pair in PAIRS},
         1: {pair: mean[pair] + (1 - p) * gap[pair] for pair in PAIRS}}
    subsets = [s for k in range(2, 6) for s in combinations(range(5), k)]
    symbolic = {s: sympy.expand(_formula(s, p, delta, c)) for s in subsets}
    variables = [p, *delta]
    for s in subsets[10:]:  # orders 3 to 5
        free = sorted(str(v) for v in symbolic[s].free_symbols - set(variables))
        linear = sympy.Poly(symbolic[s], *mean.values(), *gap.values()).total_degree() <= 1
        report.line(f"m_{''.join(map(str, s))} is linear in C and Delta: {'yes' if linear else 'NO'} "
                    f"({len(free)} of them appear)")
        failures += not linear
    moment = {s: sympy.Symbol("m" + "".join(map(str, s))) for s in subsets}
    u, twice = p * (1 - p), 1 - 2 * p
    equations = {}
    for s in combinations(range(5), 4):  # written out again from the formulas (independent of the runtime)
        pairs = sum(moment[(i, j)] * math.prod(delta[k] for k in s if k not in (i, j)) for i, j in combinations(s, 2))
        triples = sum(moment[tuple(i for i in s if i != k)] * delta[k] for k in s)
        equations[f"m4_{''.join(map(str, s))}"] = (u * pairs + twice / 2 * triples
                                                  - u * (1 + u) * math.prod(delta[i] for i in s) - moment[s])
    everyone = tuple(range(5))
    pairs = sum(moment[t] * math.prod(delta[k] for k in everyone if k not in t) for t in PAIRS)
    triples = sum(moment[t] * math.prod(delta[k] for k in everyone if k not in t) for t in combinations(everyone, 3))
    equations["m5_01234"] = (u * twice * pairs + (1 - 3 * u) / 3 * triples
                             - u * twice * (sympy.Rational(7, 3) + 2 * u) * math.prod(delta) - moment[everyone])
    for name, f in equations.items():
        value = sympy.expand(f.subs({moment[s]: symbolic[s] for s in subsets}, simultaneous=True))
        report.line(f"{name}: vanishes identically after (*): {'yes' if value == 0 else 'NO'}")
        failures += value != 0
    truth, sketch = _random_point(rng)
    _, numeric = k5.central_moments([int(x) for x in sketch.count_vector()])
    runtime = k5.reduced_system(numeric)
    same = True
    for f, name in zip(runtime, equations):
        mine = sympy.Poly(equations[name].subs({moment[s]: sympy.Rational(v.numerator, v.denominator)
                                                for s, v in numeric.items()}), *variables)
        theirs = sympy.Poly(sum(c * math.prod(v ** e for v, e in zip(variables, ex)) for ex, c in f.items()), *variables)
        ratio = theirs.LC() / mine.LC()
        same = same and sympy.expand((theirs - ratio * mine).as_expr()) == 0
    report.line(f"the runtime's six equations (evalgebra.evaluators.complete_pairs.reduced_system) are these, up to "
                f"a constant factor each, on a seeded sketch: {'yes' if same else 'NO'}")
    failures += not same

    report.section("the variety, per exact sketch (msolve: rational parametrisation, certified real roots)")
    if k5.msolve_binary() is None:
        report.line("msolve is not installed: run make setup")
        failures += 1
    for k in range(SKETCHES):
        truth, sketch = _random_point(rng)
        counts = [int(x) for x in sketch.count_vector()]
        solver = k5.CompletePairs(2)
        points, alarms = solver.solve(counts)
        degree = solver.eliminant_degree
        p_true, delta_true, c_true = _truth_unknowns(truth)
        found = [pt for pt in points if pt[0] is not None and pt[1] == 1 - p_true]
        exact_truth = bool(found) and found[0][2] == [[truth.accuracy(i, "a"), truth.accuracy(i, "b")]
                                                      for i in range(5)] and all(
            found[0][3][pair] == [c_true[0][pair], c_true[1][pair]] for pair in PAIRS)
        inside = sum(1 for pt in points if 0 < pt[1] < 1 and all(0 <= v <= 1 for row in pt[2] for v in row))
        rational = sum(1 for pt in points if pt[0] is not None)
        report.line(f"sketch {k} (Q = {sketch.Q}, P_a = {truth.prevalence_of(0)['a']}): eliminant degree {degree}; "
                    f"real points {len(points)} ({rational} rational), inside the unit cube {inside}; "
                    f"alarms {sorted(alarms)}; the truth is a point, every rate and correlation exact: "
                    f"{'yes' if exact_truth else 'NO'}")
        failures += (degree != 404) + (not exact_truth)

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d13: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    raise SystemExit(main())
