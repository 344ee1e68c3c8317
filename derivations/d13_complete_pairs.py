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
  moments, the six equations of :mod:`evalgebra.evaluators.correlated.complete_pairs` (one per
  four-subset, one for all five) vanish identically: they hold at every point of the variety,
  and they no longer contain ``C`` or ``Delta``;
* **the variety** (msolve, seeded exact sketches): the six equations are zero-dimensional with
  an eliminant of degree 404 (the K5 variety has 404 complex points, closed under the label
  swap), the real points, those inside the unit cube, and the truth among them with every
  correlation (the ten order-3 equations give ``Delta`` linearly).

* **the path tracker's start** (:mod:`evalgebra.generated.tracking.complete_pairs_start`): the stored
  solutions of a seeded start sketch, one per label-swap pair, and their mirrors are 404 proved,
  pairwise disjoint solutions (Krawczyk, ball arithmetic), as many real ones as msolve finds;
* **two routes agree** (per exact sketch): certified path tracking from the start and msolve
  give the same rational points exactly and the same number of real points.

Usage: ``python derivations/d13_complete_pairs.py [--seed 0] [--check] [--write-start]`` (about a
minute per sketch for msolve on two cores); ``--write-start`` solves the start sketch with msolve
(every complex root of its eliminant in 300-bit balls) and writes the start module.
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

import numpy as np  # noqa: E402
import sympy  # noqa: E402
from _common import canonical_argv, parse  # noqa: E402

from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.errors import PointError  # noqa: E402
from evalgebra.evaluators.correlated import complete_pairs as k5  # noqa: E402
from evalgebra.evaluators.correlated import complete_pairs_tracking as tracking  # noqa: E402
from evalgebra.evaluators.correlated.complete_pairs_system import mirror  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

START = (
    Path(__file__).resolve().parent.parent
    / "evalgebra"
    / "generated"
    / "tracking"
    / "complete_pairs_start.py"
)
START_SEED = 2026  # the start sketch: 32 counts drawn from 1..30
MODEL_POINTS = 6  # seeded points for the check of (*)
SKETCHES = 2  # seeded exact sketches solved by msolve
PAIRS = k5.PAIRS


def _random_point(rng: random.Random) -> tuple[EvaluationPoint, object]:
    spec = EnsembleSpec(5, 2, list(PAIRS))
    while True:
        accuracy = {i: {ell: Fraction(rng.randint(12, 18), 20) for ell in "ab"} for i in range(5)}
        correlation = {
            pair: {ell: Fraction(rng.choice([-3, -2, -1, 1, 2, 3]), 800) for ell in "ab"} for pair in PAIRS
        }
        truth = EvaluationPoint.from_values(
            spec, {"a": Fraction(rng.randint(5, 15), 20)}, accuracy=accuracy, correlation=correlation
        )
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
    c = {
        ell: {pair: truth.correlation_value(pair, label, (label, label)) for pair in PAIRS}
        for ell, label in enumerate("ab")
    }
    return p, delta, c


def _write_start() -> None:
    """Solve the seeded start sketch with msolve and write one solution of each label-swap pair."""
    rng = random.Random(START_SEED)
    counts = [rng.randint(1, 30) for _ in range(32)]
    roots = k5.complex_solutions(counts)
    keep = [
        z for z in roots if z[0].real < 0.5 or (z[0].real == 0.5 and z[0].imag > 0)
    ]  # the mirror has 1 - p
    keep.sort(key=lambda z: (z[0].real, z[0].imag))
    lines = [
        "# Generated by derivations/d13_complete_pairs.py --write-start (msolve, 300-bit balls). "
        "DO NOT EDIT.",
        '"""The start of the K5 path tracker: a sketch and one solution of each label-swap pair of its '
        "equations.",
        "",
        "``COUNTS``: the 32 pattern counts of the start sketch (seeded). ``ROOTS``: 202 rows",
        "``(Re p, Im p, Re delta_0, Im delta_0, ..., Im delta_4)`` of solutions of its six reduced",
        "equations (evalgebra.evaluators.correlated.complete_pairs.reduced_system); the other 202 are their",
        'mirrors ``(1 - p, -delta)``. Checked by d13: all 404 are proved, disjoint solutions."""',
        "",
        "COUNTS = (" + ", ".join(map(str, counts)) + ")",
        "ROOTS = (",
    ]
    lines += [
        "    (" + ", ".join(repr(float(v)) for z in row for v in (z.real, z.imag)) + ")," for row in keep
    ]
    lines.append(")")
    START.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"d13: wrote {START} ({len(keep)} of {len(roots)} solutions)")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(
        "d13_complete_pairs",
        __doc__ or "",
        argv,
        flags=[("--write-start", "solve the start sketch with msolve and write the tracker's start module")],
    )
    if args.write_start:
        _write_start()
    rng = random.Random(args.seed)
    report = Report("d13_complete_pairs.py", canonical_argv(args), [repr((MODEL_POINTS, SKETCHES))])
    failures = 0

    report.section("(*) against the model: central moments of exact simulations")
    for k in range(MODEL_POINTS):
        truth, sketch = _random_point(rng)
        _, moments = k5.central_moments([int(x) for x in sketch.count_vector()])
        p, delta, c = _truth_unknowns(truth)
        equal = all(moments[s] == _formula(s, p, delta, c) for s in moments)
        report.line(
            f"point {k} (Q = {sketch.Q}, P_a = {truth.prevalence_of(0)['a']}): all 26 central moments "
            f"equal (*): {'yes' if equal else 'NO'}"
        )
        failures += not equal

    report.section("the reduction, symbolically in p, delta, C, Delta")
    p = sympy.Symbol("p")
    delta = sympy.symbols("d0:5")
    mean = {pair: sympy.Symbol(f"C{pair[0]}{pair[1]}") for pair in PAIRS}
    gap = {pair: sympy.Symbol(f"D{pair[0]}{pair[1]}") for pair in PAIRS}
    c = {
        0: {pair: mean[pair] - p * gap[pair] for pair in PAIRS},
        1: {pair: mean[pair] + (1 - p) * gap[pair] for pair in PAIRS},
    }
    subsets = [s for k in range(2, 6) for s in combinations(range(5), k)]
    symbolic = {s: sympy.expand(_formula(s, p, delta, c)) for s in subsets}
    variables = [p, *delta]
    for s in subsets[10:]:  # orders 3 to 5
        free = sorted(str(v) for v in symbolic[s].free_symbols - set(variables))
        linear = sympy.Poly(symbolic[s], *mean.values(), *gap.values()).total_degree() <= 1
        report.line(
            f"m_{''.join(map(str, s))} is linear in C and Delta: {'yes' if linear else 'NO'} "
            f"({len(free)} of them appear)"
        )
        failures += not linear
    moment = {s: sympy.Symbol("m" + "".join(map(str, s))) for s in subsets}
    u, twice = p * (1 - p), 1 - 2 * p
    equations = {}
    for s in combinations(range(5), 4):  # written out again from the formulas (independent of the runtime)
        pairs = sum(
            moment[(i, j)] * math.prod(delta[k] for k in s if k not in (i, j)) for i, j in combinations(s, 2)
        )
        triples = sum(moment[tuple(i for i in s if i != k)] * delta[k] for k in s)
        equations[f"m4_{''.join(map(str, s))}"] = (
            u * pairs + twice / 2 * triples - u * (1 + u) * math.prod(delta[i] for i in s) - moment[s]
        )
    everyone = tuple(range(5))
    pairs = sum(moment[t] * math.prod(delta[k] for k in everyone if k not in t) for t in PAIRS)
    triples = sum(
        moment[t] * math.prod(delta[k] for k in everyone if k not in t) for t in combinations(everyone, 3)
    )
    equations["m5_01234"] = (
        u * twice * pairs
        + (1 - 3 * u) / 3 * triples
        - u * twice * (sympy.Rational(7, 3) + 2 * u) * math.prod(delta)
        - moment[everyone]
    )
    for name, f in equations.items():
        value = sympy.expand(f.subs({moment[s]: symbolic[s] for s in subsets}, simultaneous=True))
        report.line(f"{name}: vanishes identically after (*): {'yes' if value == 0 else 'NO'}")
        failures += value != 0
    truth, sketch = _random_point(rng)
    _, numeric = k5.central_moments([int(x) for x in sketch.count_vector()])
    runtime = k5.reduced_system(numeric)
    same = True
    for f, name in zip(runtime, equations):
        mine = sympy.Poly(
            equations[name].subs(
                {moment[s]: sympy.Rational(v.numerator, v.denominator) for s, v in numeric.items()}
            ),
            *variables,
        )
        theirs = sympy.Poly(
            sum(c * math.prod(v**e for v, e in zip(variables, ex)) for ex, c in f.items()), *variables
        )
        ratio = theirs.LC() / mine.LC()
        same = same and sympy.expand((theirs - ratio * mine).as_expr()) == 0
    report.line(
        "the runtime's six equations (evalgebra.evaluators.correlated.complete_pairs.reduced_system) "
        f"are these, up to a constant factor each, on a seeded sketch: {'yes' if same else 'NO'}"
    )
    failures += not same

    report.section("the path tracker's start: the stored solutions are proved")
    start_moments, half = tracking.start_system()
    proved = tracking.certified(half, start_moments)
    n_real = 0 if proved is None else int(proved.real.sum())
    start_counts = list(tracking.start_data.COUNTS)
    report.line(
        f"start sketch (Q = {sum(start_counts)}): {len(half)} stored solutions and their mirrors are "
        f"{0 if proved is None else len(proved.points)} proved pairwise disjoint solutions, {n_real} real"
    )
    failures += proved is None
    if k5.msolve_binary() is not None:
        reference = k5.CompletePairs(2, tracking=False)
        reference.solve(start_counts)
        swapped = mirror(half)
        closed = proved is not None and bool(all(np.abs(swapped - z).max(axis=1).min() > 0 for z in half))
        report.line(
            f"msolve at the start sketch: {reference.n_real} real solutions (the same number: "
            f"{'yes' if reference.n_real == n_real else 'NO'}); the stored solutions are not mirrors of "
            f"one another: {'yes' if closed else 'NO'}"
        )
        failures += (not closed) + (reference.n_real != n_real)

    report.section("the variety, per exact sketch (msolve: rational parametrisation, certified real roots)")
    if k5.msolve_binary() is None:
        report.line("msolve is not installed: run make setup")
        failures += 1
    for k in range(SKETCHES):
        truth, sketch = _random_point(rng)
        counts = [int(x) for x in sketch.count_vector()]
        solver = k5.CompletePairs(2, tracking=False)
        points, alarms = solver.solve(counts)
        follower = k5.CompletePairs(2)
        followed, _ = follower.solve(counts)
        same_exact = sorted(pt[1] for pt in points if pt[0] is not None) == sorted(
            pt[1] for pt in followed if pt[0] is not None
        )
        report.line(
            f"sketch {k}: path tracking (route {follower.route}) gives the same rational points as msolve: "
            f"{'yes' if same_exact else 'NO'}; real solutions {follower.n_real} against msolve's "
            f"{solver.n_real}"
        )
        failures += (not same_exact) + (follower.n_real != solver.n_real) + (follower.route != "tracking")
        degree = solver.eliminant_degree
        p_true, delta_true, c_true = _truth_unknowns(truth)
        found = [pt for pt in points if pt[0] is not None and pt[1] == 1 - p_true]
        exact_truth = (
            bool(found)
            and found[0][2] == [[truth.accuracy(i, "a"), truth.accuracy(i, "b")] for i in range(5)]
            and all(found[0][3][pair] == [c_true[0][pair], c_true[1][pair]] for pair in PAIRS)
        )
        inside = sum(1 for pt in points if 0 < pt[1] < 1 and all(0 <= v <= 1 for row in pt[2] for v in row))
        rational = sum(1 for pt in points if pt[0] is not None)
        report.line(
            f"sketch {k} (Q = {sketch.Q}, P_a = {truth.prevalence_of(0)['a']}): eliminant degree {degree}; "
            f"real points {len(points)} ({rational} rational), inside the unit cube {inside}; "
            f"alarms {sorted(alarms)}; the truth is a point, every rate and correlation exact: "
            f"{'yes' if exact_truth else 'NO'}"
        )
        failures += (degree != 404) + (not exact_truth)

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d13: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    raise SystemExit(main())
