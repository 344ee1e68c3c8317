r"""d07: three independent classifiers with R >= 3 labels: the eliminant det(lambda M - S), checked.

For three classifiers independent given the true label, the pair table ``M`` of classifiers 0
and 1 and a weighted slice ``S = sum_t w_t N_t`` of the three-way table factor through the
response matrices: ``lambda M - S = Q A_0 D (lambda I - diag(v)) A_1^T`` with
``v_l = sum_t w_t P_{2,t|l}``. This script

* checks that factorisation symbolically, entry by entry, in the model's unknowns (the
  pattern probabilities of the independent generating set), for R = 3 and 4 (with the
  multiplicativity of the determinant this is the eliminant's factorisation
  ``det(lambda M - S) = Q^R det A_0 det A_1 prod_l P_l prod_l (lambda - v_l)``);
* evaluates the generated eliminant (:mod:`evalgebra.generated.many_labels`) against the
  symbolic derivation on random rational counts and weights;
* on the exact sketch of random rational independent points (R = 3; R = 4 with ``--full``)
  computes the Gröbner basis of the numeric evaluation ideal (Singular or msolve) and checks
  that the variety has ``R!`` simple points, that the evaluator's ``R!`` candidate points are
  exactly those points, and that the roots of ``det(lambda M - N_t)`` are the roots of the
  Gröbner eliminant of ``P_{2,t|a}`` for every answer ``t`` whose rate is a free unknown;
* on a correlated labelled test, that the Gröbner basis is ``{1}`` and the evaluator raises
  ``empty_variety``.

Usage: ``python derivations/d07_many_labels.py [--seed 0] [--full] [--check]``
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import flint  # noqa: E402
import sympy  # noqa: E402
from _common import canonical_argv, parse  # noqa: E402

from evalgebra.builder import GeneratingSet  # noqa: E402
from evalgebra.codegen.closed_forms import independent_model  # noqa: E402
from evalgebra.codegen.many_labels import characteristic_form  # noqa: E402
from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.many_labels.solve import evaluate_counts_many_labels  # noqa: E402
from evalgebra.generated import many_labels as generated  # noqa: E402
from evalgebra.groebner.backends import available_backends  # noqa: E402
from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.groebner.solving import point_count, rational_roots, univariate_eliminants  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

EXTERNAL = ("singular", "msolve")
TIME_LIMIT = 600.0
N_RANDOM = 20  # random rational inputs for generated == derived


def yes(flag: bool) -> str:
    return "yes" if flag else "NO"


def _composition(rng: random.Random, total: int, parts: int) -> list[int]:
    while True:
        cuts = sorted(rng.sample(range(1, total), parts - 1))
        values = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
        if len(set(values)) == parts:
            return values


def random_point(rng: random.Random, r: int, n: int = 3, denominator: int = 20) -> EvaluationPoint:
    """Distinct prevalences; every response column has its true label above one half."""
    spec = EnsembleSpec(n, r)
    labels = spec.labels
    prevalence = [Fraction(v, 2 * denominator) for v in _composition(rng, 2 * denominator, r)]
    response: dict[int, dict[str, dict[str, Fraction]]] = {}
    for i in range(n):
        response[i] = {}
        for k, t in enumerate(labels):
            while True:
                rest = _composition(rng, denominator, r)
                if len(set(rest[1:])) == r - 1 and rest[0] > denominator // 2:
                    break
            row = [Fraction(v, denominator) for v in rest[1:]]
            row.insert(k, Fraction(rest[0], denominator))
            response[i][t] = dict(zip(labels, row))
    return EvaluationPoint.from_values(spec, dict(zip(labels, prevalence)), response=response)


# -- symbolic ---------------------------------------------------------------------------------
def _model_tables(r: int) -> tuple[Any, Any, Any, list[Any], dict[str, Any]]:
    """``M``, ``S`` of the independent model (frequencies) and the factors ``A_0, A_1, A_2, P``."""
    spec = EnsembleSpec(3, r)
    _, model = independent_model(spec)
    freq = dict(model)
    names = [f"f_{''.join(p)}" for p in itertools.product(spec.labels, repeat=3)]
    values = [freq[n] for n in names]
    weights = sympy.symbols(f"w_0:{r}")
    m = sympy.Matrix(r, r, lambda a, b: sum(values[(a * r + b) * r + t] for t in range(r)))
    s = sympy.Matrix(r, r, lambda a, b: sum(weights[t] * values[(a * r + b) * r + t] for t in range(r)))
    # the factors, read off the model of one classifier's single answers given the truth
    gs = GeneratingSet(spec)
    registry = gs.registry
    point = {str(v): v for v in registry.variables(("prevalence", "accuracy", "response"))}
    prevalence = [point.get(f"prev_{lab}") for lab in spec.labels]
    prevalence[-1] = 1 - sum(prevalence[:-1])

    def entry(i: int, ans: int, truth: int) -> Any:
        la, lt = spec.labels[ans], spec.labels[truth]
        if ans == truth:
            return point[f"acc_{i}_{lt}"]
        name = f"resp_{i}_{la}_{lt}"
        if name in point:
            return point[name]
        return 1 - sum(entry(i, x, truth) for x in range(r) if x != ans)

    a = [sympy.Matrix(r, r, lambda x, y, i=i: entry(i, x, y)) for i in range(3)]
    return m, s, weights, prevalence, {"A": a}


def _part_symbolic(report: Report) -> int:
    failures = 0
    lam = sympy.Symbol("lambda_")
    for r in (3, 4):
        m, s, weights, prevalence, factors = _model_tables(r)
        a0, a1, a2 = factors["A"]
        d = sympy.diag(*prevalence)
        v = [sum(weights[t] * a2[t, ell] for t in range(r)) for ell in range(r)]
        right = a0 * d * (lam * sympy.eye(r) - sympy.diag(*v)) * a1.T
        entrywise = all(
            sympy.expand((lam * m - s)[x, y] - right[x, y]) == 0 for x in range(r) for y in range(r)
        )
        report.line(
            f"R = {r}: lambda M - S = A_0 D (lambda I - diag v) A_1^T entry by entry "
            f"(model frequencies): {yes(entrywise)}"
        )
        failures += not entrywise
    return failures


def _part_generated(report: Report, rng: random.Random) -> int:
    failures = 0
    for r in (3, 4):
        form = characteristic_form(r)
        function = getattr(generated, f"eliminant_{r}")
        lam = sympy.Symbol("lambda_")
        agree = True
        for _ in range(N_RANDOM):
            counts = [Fraction(rng.randint(-50, 50), rng.randint(1, 9)) for _ in range(r**3)]
            weights = [Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(r)]
            out = function(*counts, *weights)
            sub = dict(zip(form.counts, map(sympy.Rational, counts)))
            sub.update(zip(form.weights, map(sympy.Rational, weights)))
            tables = {name: expr.subs(sub) for name, expr in form.prelude}
            m = form.matrix("M").subs(tables)
            s = form.matrix("S").subs(tables)
            det = sympy.Poly(sympy.expand((lam * m - s).det()), lam)
            expected = [det.coeff_monomial(lam**k) for k in range(r + 1)]
            agree &= [sympy.Rational(x) for x in out[: r + 1]] == expected
        report.line(
            f"R = {r}: generated eliminant_{r} = det(lambda M - S) of the symbolic tables on {N_RANDOM} "
            f"random rational inputs: {yes(agree)}"
        )
        failures += not agree
    return failures


# -- Gröbner ------------------------------------------------------------------------------------
def _named(values: Any, spec: EnsembleSpec, gs: GeneratingSet) -> dict[str, Fraction]:
    """Registry names of a candidate point (a ResponseEstimate with label names = spec labels)."""
    classifiers = [f"c{i}" for i in range(spec.n_classifiers)]
    out = {}
    for symbol in gs.registry.variables(("prevalence", "accuracy", "response")):
        key = gs.registry.key_of(str(symbol))
        if key.kind == "prevalence":
            out[str(symbol)] = values.prevalence[spec.labels[key.labels[0]]]
        elif key.kind == "accuracy":
            lab = spec.labels[key.labels[0]]
            out[str(symbol)] = values.response[classifiers[key.classifiers[0]]][lab][lab]
        else:
            ans, truth = (spec.labels[k] for k in key.labels)
            out[str(symbol)] = values.response[classifiers[key.classifiers[0]]][truth][ans]
    return out


def _part_groebner(report: Report, rng: random.Random, backend: str, labels_to_run: Sequence[int]) -> int:
    failures = 0
    for r in labels_to_run:
        spec = EnsembleSpec(3, r)
        gs = GeneratingSet(spec)
        point = random_point(rng, r)
        sketch = expected_sketch(point)
        counts = sketch.count_vector().tolist()
        report.section(f"R = {r}: a random independent point, Q = {sketch.Q}")
        report.line("prevalences: " + ", ".join(str(x) for x in point.prevalence[0]))
        ideal = evaluation_ideal(spec, observed=sketch, ordering="degrevlex")
        basis = groebner_basis(ideal, backend=backend, time_limit=TIME_LIMIT)
        n_points = point_count(basis)
        factorial = len(list(itertools.permutations(range(r))))
        simple = n_points == point_count(basis, distinct=False) == factorial
        report.line(
            f"{backend} basis: dimension {basis.dimension()}, {n_points} distinct points, each simple, "
            f"= R! = {factorial}: {yes(simple)}"
        )
        failures += not simple
        result = evaluate_counts_many_labels(counts, spec.labels)
        candidates = [_named(p, spec, gs) for p in result.points]
        observed = gs.observed_values(sketch)
        on_variety = all(all(x == 0 for x in gs.residuals(c, observed)) for c in candidates)
        distinct = len({tuple(sorted(c.items())) for c in candidates})
        report.line(
            f"the evaluator's {len(candidates)} candidate points are distinct ({distinct}) and all on the "
            f"variety (exact residuals of the generating set): {yes(on_variety and distinct == n_points)}"
        )
        failures += not (on_variety and distinct == n_points)
        names = [str(v) for v in gs.registry.variables(("accuracy", "response"))]
        wanted = {}
        for t, lab in enumerate(spec.labels):
            name = "acc_2_a" if t == 0 else f"resp_2_{lab}_a"
            if name in names:
                wanted[t] = name
        eliminants = univariate_eliminants(basis, list(wanted.values()))
        for t, name in wanted.items():
            weights = [1 if x == t else 0 for x in range(r)]
            out = getattr(generated, f"eliminant_{r}")(*counts, *weights)
            roots = sorted(
                {
                    Fraction(-int(f.coeffs()[0]), int(f.coeffs()[1]))
                    for f, _ in flint.fmpz_poly(list(out[: r + 1])).factor()[1]
                }
            )
            found = rational_roots(eliminants[name])
            same = roots == sorted(found)
            report.line(
                f"roots of det(lambda M - N_{lab_of(spec, t)}) = roots of the Gröbner eliminant of {name} "
                f"({', '.join(map(str, found))}): {yes(same)}"
            )
            failures += not same
    return failures


def lab_of(spec: EnsembleSpec, t: int) -> str:
    return spec.labels[t]


def _correlated(report: Report, rng: random.Random, backend: str) -> int:
    labels = ("a", "b", "c")
    truth, decisions = [], []
    for _ in range(300):
        t, shared = rng.randrange(3), rng.randrange(3)
        row = []
        for _i in range(3):
            u = rng.random()
            row.append(labels[t] if u < 0.6 else labels[shared] if u < 0.85 else labels[rng.randrange(3)])
        truth.append(labels[t])
        decisions.append(row)
    sketch = Sketch.from_decisions(decisions, truth=truth, labels=labels).unlabelled()
    report.section("R = 3: a random correlated labelled test (Q = 300)")
    basis = groebner_basis(
        evaluation_ideal(EnsembleSpec(3, 3), observed=sketch, ordering="degrevlex"),
        backend=backend,
        time_limit=TIME_LIMIT,
    )
    empty = basis.dimension() == -1
    result = evaluate_counts_many_labels(sketch.count_vector().tolist(), labels)
    report.line(
        f"Gröbner basis {{1}} (empty variety): {yes(empty)}; evaluator alarms: "
        f"{', '.join(sorted(result.alarm_kinds()))}"
    )
    return int(not (empty and "empty_variety" in result.alarm_kinds()))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d07_many_labels", __doc__ or "", argv, extra=True)
    rng = random.Random(args.seed)
    source = Path(generated.__file__).read_text(encoding="utf-8")
    report = Report("d07_many_labels.py", canonical_argv(args, ("seed", "full")), [source])
    backend = next((b for b in EXTERNAL if b in available_backends()), None)
    report.section("the factorisation, symbolically")
    failures = _part_symbolic(report)
    report.section("generated code = symbolic derivation")
    failures += _part_generated(report, rng)
    if backend is None:
        report.section("Gröbner checks skipped: neither Singular nor msolve is installed")
    else:
        failures += _part_groebner(report, rng, backend, (3, 4) if args.full else (3,))
        failures += _correlated(report, rng, backend)
    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d07: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
