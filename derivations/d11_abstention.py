r"""d11: three independent classifiers that may abstain: what the algebra says, and a check.

The response alphabet is the labels plus the abstentions; every classifier has a response
row ``P_{i,r|ell}`` over all of them per true label. For error-independent classifiers:

* **collapse** (symbolic, R = 2 and 3, one and two abstentions): counting every abstention
  as one label ``c`` maps the generating set onto the generating set of ordinary
  ``R``-label classifiers with the collapsed rows (``P'_{i,c|ell} = P_{i,c|ell} + sum_A
  P_{i,A|ell}``): the sum of the full model over the patterns that collapse to one pattern
  is the collapsed model, identically. So the prevalences and the collapsed rows are those
  of the usual evaluation (the quadratic for two labels);
* **linear abstention rows** (symbolic): the frequency of the pair pattern (``i`` abstains
  with ``A``, ``j`` answers ``r`` after collapsing) is ``sum_ell P_ell P_{i,A|ell}
  P'_{j,r|ell}``, identically in the generating set: once the prevalences and collapsed rows
  are known, every abstention row solves a linear system;
* **the full ideal** (exact, R = 2, seeded random rational points, one and two abstentions):
  with the observations of an exact simulation substituted, the reduced lex basis of the
  evaluation ideal with every abstention row is zero-dimensional of degree 2 (the truth and
  its label swap), holds a quadratic in the prevalence and one polynomial *linear* in each
  other unknown (every abstention row among them: ``resp - (c0 + c1 prev_a)``); the
  abstention evaluator's chosen point is a root of the whole basis and equals the truth.

The lex basis of the R = 3 full ideal did not finish within 120 s with python-flint; three
labels are checked by the symbolic identities here and by exact round trips in the tests.

Usage: ``python derivations/d11_abstention.py [--seed 0] [--check]``
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sympy  # noqa: E402
from _common import canonical_argv, parse  # noqa: E402

from evalgebra.builder.generating import GeneratingSet  # noqa: E402
from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.evaluators.independent.abstention import evaluate_abstentions  # noqa: E402
from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

SYMBOLIC = [(2, 1), (2, 2), (3, 1)]  # (labels, abstentions) of the symbolic identities
EXACT = [(1, 3), (2, 2)]  # (abstentions, points) of the full-ideal checks, R = 2


def _symbolic_checks(n_labels: int, n_abstain: int) -> tuple[bool, bool]:
    """The collapse identity and the pair identity for N = 3 independent classifiers."""
    spec = EnsembleSpec(3, n_labels, abstain=["A", "B"][:n_abstain])
    full = GeneratingSet(spec)
    registry = full.registry
    par = registry.parametrise(registry.symbol)
    model = dict(zip(full.patterns, full.model(registry.symbol, sympy.Integer(1))))
    into = n_labels - 1

    def collapse(r: int) -> int:
        return into if r >= n_labels else r

    merged = [
        [
            [
                par.response[i][ell][r] + (sum(par.response[i][ell][n_labels:]) if r == into else 0)
                for r in range(n_labels)
            ]
            for ell in range(n_labels)
        ]
        for i in range(3)
    ]
    prevalence = par.prevalence[0]
    collapse_ok = True
    for pattern in itertools.product(range(n_labels), repeat=3):
        summed = sum(m for (_, d), m in model.items() if tuple(collapse(r) for r in d) == pattern)
        target = sum(
            prevalence[ell]
            * merged[0][ell][pattern[0]]
            * merged[1][ell][pattern[1]]
            * merged[2][ell][pattern[2]]
            for ell in range(n_labels)
        )
        collapse_ok &= sympy.expand(summed - target) == 0
    pair_ok = True
    for i, j in itertools.permutations(range(3), 2):
        for abstention in range(n_labels, spec.n_responses):
            for r in range(n_labels):
                summed = sum(m for (_, d), m in model.items() if d[i] == abstention and collapse(d[j]) == r)
                target = sum(
                    prevalence[ell] * par.response[i][ell][abstention] * merged[j][ell][r]
                    for ell in range(n_labels)
                )
                pair_ok &= sympy.expand(summed - target) == 0
    return collapse_ok, pair_ok


def _random_point(rng: random.Random, spec: EnsembleSpec) -> EvaluationPoint:
    """Rows with denominators 10, every collapsed row better than chance (the decoding's side)."""
    k = spec.n_responses
    rows = []
    for _ in range(spec.n_classifiers):
        per_label = []
        for ell in range(spec.n_labels):
            weights = [0] * k
            weights[ell] = rng.randint(6, 8)
            for _ in range(10 - weights[ell]):
                weights[rng.choice([q for q in range(k) if q != ell])] += 1
            per_label.append([Fraction(w, 10) for w in weights])
        rows.append(per_label)
    first = Fraction(rng.choice([1, 2, 3, 4, 6, 7, 8, 9]), 10)
    return EvaluationPoint(spec, [[first, 1 - first]], rows, {})


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d11_abstention", __doc__ or "", argv)
    rng = random.Random(args.seed)
    report = Report("d11_abstention.py", canonical_argv(args), [repr(SYMBOLIC), repr(EXACT)])
    failures = 0

    report.section("symbolic identities, N = 3 independent (R labels, K abstentions)")
    for n_labels, n_abstain in SYMBOLIC:
        collapse_ok, pair_ok = _symbolic_checks(n_labels, n_abstain)
        report.line(
            f"R = {n_labels}, K = {n_abstain}: collapsed model = sum of the full model over its patterns: "
            f"{'yes' if collapse_ok else 'NO'}; pair (i abstains, j answers r) linear in the abstention "
            f"row given the prevalences and collapsed rows: {'yes' if pair_ok else 'NO'}"
        )
        failures += (not collapse_ok) + (not pair_ok)

    for n_abstain, n_points in EXACT:
        spec = EnsembleSpec(3, 2, abstain=["A", "B"][:n_abstain])
        for k in range(n_points):
            truth = _random_point(rng, spec)
            sketch = expected_sketch(truth).unlabelled()
            report.section(
                f"full ideal, R = 2, K = {n_abstain}, point {k}: Q = {sketch.Q}, prevalence "
                f"{truth.prevalence[0][0]}"
            )
            basis = groebner_basis(evaluation_ideal(spec, observed=sketch))
            report.lines(basis.ring.text(p) for p in basis)
            names = list(basis.ring.names)
            prev = names.index("prev_a")
            shape = all(
                sum(1 for d in p.monoms() for v, e in enumerate(d) if e and v != prev) <= 1
                and max((d[names.index(name)] for d in p.monoms()), default=0) == 1
                for p, name in zip(basis, names)
                if name != "prev_a"
            )
            report.line(
                f"zero-dimensional: {'yes' if basis.dimension() == 0 else 'NO'}; degree (points): "
                f"{basis.degree()}; every unknown but prev_a linear in itself and prev_a: "
                f"{'yes' if shape else 'NO'}"
            )
            result = evaluate_abstentions(sketch)
            point = result.point
            values = {"prev_a": point.prevalence["a"]} if point is not None else {}
            if point is not None:
                registry = basis.registry  # type: ignore[attr-defined]
                for key in registry.keys("accuracy") + registry.keys("response"):
                    i = key.classifiers[0]
                    r, ell = (key.labels[0], key.labels[0]) if key.kind == "accuracy" else key.labels
                    values[str(registry.symbol(key))] = point.response[spec.classifiers[i]][spec.labels[ell]][
                        spec.responses[r]
                    ]
            root = point is not None and all(
                sum(
                    Fraction(int(c.p), int(c.q)) * _monomial(values, names, d)
                    for c, d in zip(p.coeffs(), p.monoms())
                )
                == 0
                for p in basis
            )
            equal = (
                point is not None
                and point.prevalence == truth.prevalence_of()
                and all(
                    tuple(point.response[c][t].values()) == truth.response[i][ell]
                    for i, c in enumerate(spec.classifiers)
                    for ell, t in enumerate(spec.labels)
                )
            )
            report.line(
                f"the abstention evaluator's point is a root of the basis: {'yes' if root else 'NO'}; "
                f"equals the truth: {'yes' if equal else 'NO'}"
            )
            failures += (
                (basis.dimension() != 0) + (basis.degree() != 2) + (not shape) + (not root) + (not equal)
            )

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d11: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


def _monomial(values: dict[str, Fraction], names: list[str], exponents: Sequence[int]) -> Fraction:
    out = Fraction(1)
    for name, e in zip(names, exponents):
        if e:
            out *= values[name] ** int(e)
    return out


if __name__ == "__main__":
    sys.exit(main())
