"""Four labels, three independent classifiers: the Gröbner route and the generated eliminant agree exactly.

A numeric instance (an exact expected sketch of a rational point) is solved by a Gröbner basis
of the whole evaluation ideal (msolve or Singular through :mod:`evalgebra.groebner`); its variety
must be the ``4! = 24`` label permutations of the truth, each a simple point (the count derivation
d05 found, ``R!``, for ``R = 4``), and those points must be exactly the evaluator's candidates, whose
values come from the roots of the generated eliminant ``det(lambda M - S)``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import flint
import pytest

from evalgebra.builder import GeneratingSet
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.evaluators.many_labels.solve import evaluate_counts_many_labels
from evalgebra.generated import many_labels as generated
from evalgebra.groebner.backends import available_backends
from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis
from evalgebra.groebner.solving import point_count, rational_roots, univariate_eliminants
from evalgebra.spec import EnsembleSpec

LABELS = ("a", "b", "c", "d")


def _point() -> EvaluationPoint:
    """Distinct prevalences and response columns with small denominators (a quick Gröbner run)."""
    rows = [
        {"a": "3/5", "b": "1/5", "c": "1/10", "d": "1/10"},
        {"a": "1/10", "b": "7/10", "c": "1/10", "d": "1/10"},
        {"a": "1/10", "b": "0", "c": "4/5", "d": "1/10"},
        {"a": "1/5", "b": "1/10", "c": "0", "d": "7/10"},
    ]
    response = {}
    for i in range(3):
        shift = rows[i:] + rows[:i]  # a different matrix for each classifier, still diagonal-heavy
        response[i] = {
            t: {a: shift[(k + i) % 4][LABELS[(LABELS.index(a) - i) % 4]] for a in LABELS}
            for k, t in enumerate(LABELS)
        }
    prevalence = {"a": "2/5", "b": "3/10", "c": "1/5"}
    return EvaluationPoint.from_values(EnsembleSpec(3, 4), prevalence, response=response)


def _named(estimate, spec: EnsembleSpec, gs: GeneratingSet) -> dict[str, Fraction]:
    """A candidate point in the registry's variable names."""
    out = {}
    for symbol in gs.registry.variables(("prevalence", "accuracy", "response")):
        key = gs.registry.key_of(str(symbol))
        if key.kind == "prevalence":
            out[str(symbol)] = estimate.prevalence[spec.labels[key.labels[0]]]
        elif key.kind == "accuracy":
            lab = spec.labels[key.labels[0]]
            out[str(symbol)] = estimate.response[f"c{key.classifiers[0]}"][lab][lab]
        else:
            answer, truth = (spec.labels[k] for k in key.labels)
            out[str(symbol)] = estimate.response[f"c{key.classifiers[0]}"][truth][answer]
    return out


@pytest.mark.slow
def test_four_labels_groebner_variety_equals_generated_eliminant_points():
    backend = next((b for b in ("msolve", "singular") if b in available_backends()), None)
    if backend is None:
        pytest.skip("neither msolve nor Singular is installed (the pip-only engines do not finish R = 4)")
    spec = EnsembleSpec(3, 4)
    gs = GeneratingSet(spec)
    truth = _point()
    sketch = expected_sketch(truth)
    counts = sketch.count_vector().tolist()
    basis = groebner_basis(
        evaluation_ideal(spec, observed=sketch, ordering="degrevlex"), backend=backend, time_limit=900
    )
    n_points = point_count(basis)
    assert (
        basis.dimension() == 0 and n_points == point_count(basis, distinct=False) == math.factorial(4) == 24
    )

    result = evaluate_counts_many_labels(counts, LABELS)
    assert result.ok and len(result.points) == 24
    candidates = [_named(p, spec, gs) for p in result.points]
    observed = gs.observed_values(sketch)
    assert all(all(x == 0 for x in gs.residuals(c, observed)) for c in candidates)  # on the variety
    assert len({tuple(sorted(c.items())) for c in candidates}) == n_points  # ... and all of it

    # the Gröbner eliminants' roots are the generated eliminant's roots, coordinate by coordinate
    names = {str(v) for v in gs.registry.variables(("prevalence", "accuracy", "response"))}
    wanted = {t: ("acc_2_a" if t == 0 else f"resp_2_{lab}_a") for t, lab in enumerate(LABELS)}
    wanted = {t: name for t, name in wanted.items() if name in names}
    prevalence_name = next(n for n in sorted(names) if n.startswith("prev_"))
    eliminants = univariate_eliminants(basis, [*wanted.values(), prevalence_name])
    for t, name in wanted.items():
        weights = [int(x == t) for x in range(4)]
        out = generated.eliminant_4(*counts, *weights)
        roots = sorted(
            {
                Fraction(-int(f.coeffs()[0]), int(f.coeffs()[1]))
                for f, _ in flint.fmpz_poly(list(out[:5])).factor()[1]
            }
        )
        assert roots == sorted(rational_roots(eliminants[name]))
        assert roots == sorted({c[name] for c in candidates})
    assert sorted(rational_roots(eliminants[prevalence_name])) == sorted(
        {c[prevalence_name] for c in candidates}
    )
    assert sorted(set(itertools.chain(truth.prevalence[0]))) == sorted(
        {c[prevalence_name] for c in candidates}
    )
