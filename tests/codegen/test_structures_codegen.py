"""Generated evaluators of correlated structures: equal to the Gröbner route, exact, vectorised, indexed."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.codegen.__main__ import main as codegen_main
from evalgebra.codegen.__main__ import parse_spec
from evalgebra.codegen.modules import GENERATED
from evalgebra.codegen.printer import require_polynomial
from evalgebra.codegen.structure_modules import (
    GENERATED_STRUCTURES,
    atlas_index,
    linear_relations,
    nested,
    structure_source,
)
from evalgebra.codegen.structures import derive_structure, module_name
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch, smallest_test_size
from evalgebra.errors import PointError, SpecError
from evalgebra.groebner.identifiability import random_point
from evalgebra.groebner.structured_route import structured_solution
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import canonical_structure, parse_structure

FAST = [s for s in GENERATED_STRUCTURES if s[0] == 4 and (len(s[1]) <= 2 or s[1] == ((0, 1), (0, 2), (0, 3)))]
ALL = list(GENERATED_STRUCTURES)


def _module(n, structure):
    return importlib.import_module(f"evalgebra.generated.structures.{module_name(n, structure)}")


def _monic(coefficients):
    lead = coefficients[-1]
    return tuple(Fraction(c) / lead for c in coefficients)


def _free_values(point):
    from evalgebra.builder import GeneratingSet

    registry = GeneratingSet(point.spec).registry
    return {str(registry.symbol(k)): v for k, v in point.free_values().items()}


def _check_against_reference(n, structure, point):
    module = _module(n, structure)
    spec = EnsembleSpec(n, 2, structure)
    sketch = expected_sketch(point)
    counts = [int(c) for c in sketch.count_vector()]
    reference = structured_solution(spec, sketch)
    assert _monic(module.eliminant(counts)) == reference.eliminant
    assert module.DEGREE == reference.degree
    truth = _free_values(point)
    found = False
    for solution in reference.points:
        values = module.back_substitute(counts, solution["prev_a"])
        assert values is not None
        assert values == {k: v for k, v in solution.items() if k != "prev_a"}
        assert module.residuals(counts, solution) == [0] * (2**n - 1)
        found |= solution == truth
    assert found, "the truth is among the points"


@pytest.mark.parametrize(("n", "structure"), FAST)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_structure_equals_groebner_route(n, structure, seed):
    spec = EnsembleSpec(n, 2, structure)
    _check_against_reference(n, structure, random_point(spec, seed))


def _point(n, structure, prevalence, accuracies, correlations):
    spec = EnsembleSpec(n, 2, structure)
    accuracy = {
        i: {"a": Fraction(accuracies[2 * i], 40), "b": Fraction(accuracies[2 * i + 1], 40)} for i in range(n)
    }
    correlation = {
        t: {"a": Fraction(correlations[2 * k], 400), "b": Fraction(correlations[2 * k + 1], 400)}
        for k, t in enumerate(spec.structure)
    }
    point = EvaluationPoint.from_values(
        spec, {"a": Fraction(prevalence, 17)}, accuracy=accuracy, correlation=correlation
    )
    smallest_test_size(point)  # PointError when no labelled test realises it
    return point


@settings(max_examples=8, deadline=None, derandomize=True)
@given(
    st.sampled_from(FAST),
    st.integers(3, 14),
    st.lists(st.integers(23, 36), min_size=8, max_size=8),
    st.lists(st.integers(-9, 9).filter(bool), min_size=6, max_size=6),
)
def test_generated_structure_round_trip_hypothesis(case, prevalence, accuracies, correlations):
    n, structure = case
    try:
        point = _point(n, structure, prevalence, accuracies, correlations)
    except PointError:
        return
    _check_against_reference(n, structure, point)


def test_generated_structure_vectorised_on_numpy():
    n, structure = 4, ((0, 1),)
    module = _module(n, structure)
    spec = EnsembleSpec(n, 2, structure)
    rows = [[int(c) for c in expected_sketch(random_point(spec, seed)).count_vector()] for seed in range(4)]
    exact = [module.eliminant(r) for r in rows]
    columns = np.array(rows, dtype=float).T
    vectorised = module.eliminant(list(columns))
    for k, row in enumerate(exact):
        assert np.allclose([v[k] for v in vectorised], [float(c) for c in row], rtol=1e-9)
    prevalence = np.array([float(random_point(spec, seed).prevalence[0][0]) for seed in range(4)])
    values = module.back_substitute(list(columns), prevalence)
    for k, row in enumerate(rows):
        exact_values = module.back_substitute(row, random_point(spec, k).prevalence[0][0])
        for name, value in exact_values.items():
            assert values[name][k] == pytest.approx(float(value), rel=1e-9, abs=1e-12)


def test_generated_structure_blind_spot_returns_none():
    module = _module(4, ((0, 1),))
    counts = [5] * 8 + [0] * 8  # classifier 0 always answers a: every E_T with 0 in T vanishes
    assert module.back_substitute(counts, Fraction(1, 3)) is None


def test_generated_structure_modules_are_regenerated_identically():
    for n, structure in FAST:
        path = GENERATED / "structures" / f"{module_name(n, structure)}.py"
        assert structure_source(derive_structure(n, structure)) == path.read_text(encoding="utf-8")


def test_structure_index_lists_the_atlas():
    index = json.loads((GENERATED / "structures" / "INDEX.json").read_text(encoding="utf-8"))
    rows = index["structures"]
    assert rows == atlas_index()
    by_key = {(r["n_classifiers"], r["n_labels"], tuple(map(tuple, r["structure"]))): r for r in rows}
    for n, structure in GENERATED_STRUCTURES:
        row = by_key[(n, 2, structure)]
        assert row["finite"] and row["module"] == module_name(n, structure)
        assert (GENERATED / "structures" / f"{row['module']}.py").exists()
        assert row["points"] is None or _module(n, structure).DEGREE >= row["points"]
    for refused in ([(0, 1), (2, 3)], [(0, 1), (0, 2), (1, 3), (2, 3)], "complete graph"):
        structure = (
            [(i, j) for i in range(4) for j in range(i + 1, 4)] if refused == "complete graph" else refused
        )
        row = by_key[(4, 2, canonical_structure(4, structure))]
        assert not row["finite"] and row["dimension"] > 0 and row["module"] is None


def test_codegen_spec_writes_one_module(tmp_path, capsys):
    assert parse_spec("N=4,R=2,structure=2-3") == (4, 2, [(2, 3)])
    assert codegen_main(["--spec", "N=4,R=2,structure=2-3", "--out", str(tmp_path), "--quiet"]) == 0
    written = tmp_path / "n4_r2_01.py"
    assert written.read_text(encoding="utf-8") == (GENERATED / "structures" / "n4_r2_01.py").read_text(
        encoding="utf-8"
    )
    assert "degree 2" in capsys.readouterr().out
    assert codegen_main(["--spec", "N=4,R=3,structure=0-1", "--out", str(tmp_path), "--quiet"]) == 2
    assert "R = 2" in capsys.readouterr().err
    with pytest.raises(SpecError):
        parse_spec("K=4,structure=0-1")
    assert list(parse_structure("01 02", 4, code=True)) == [(0, 1), (0, 2)]


@pytest.mark.parametrize(("n", "structure"), [s for s in ALL if s not in FAST])
def test_generated_structure_without_independent_trio_equals_groebner_route(n, structure):
    spec = EnsembleSpec(n, 2, structure)
    _check_against_reference(n, structure, random_point(spec, 1))


def test_generated_structure_exact_on_number_field_elements():
    """Path P4: the eliminant has an irreducible quadratic factor; its points come out exactly in Q(theta)."""
    from evalgebra.numbers.algebraic_numbers import FieldElement

    n, structure = 4, ((0, 1), (0, 2), (1, 3))
    module = _module(n, structure)
    spec = EnsembleSpec(n, 2, structure)
    sketch = expected_sketch(random_point(spec, 0))
    counts = [int(c) for c in sketch.count_vector()]
    reference = structured_solution(spec, sketch)
    quadratic = [c for c in reference.components if c.degree == 2]
    assert quadratic and all(c.shape for c in quadratic)
    for component in quadratic:
        modulus = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in component.factor])
        theta = FieldElement(modulus, [0, 1])
        values = module.back_substitute(counts, theta)
        assert values is not None
        for name, value in values.items():
            assert value == FieldElement(modulus, list(component.values[name])), name
        assert all(r == 0 for r in module.residuals(counts, {**values, "prev_a": theta}))


def test_codegen_spec_output_independent_of_hash_seed(tmp_path):
    import os
    import subprocess
    import sys

    for seed in ("1", "4242"):
        target = tmp_path / seed
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "evalgebra.codegen",
                "--spec",
                "N=4,R=2,structure=0-1,0-2,1-3",
                "--out",
                str(target),
                "--quiet",
            ],
            check=True,
            env=env,
            capture_output=True,
        )
        name = "n4_r2_01_02_13.py"
        assert (target / name).read_bytes() == (GENERATED / "structures" / name).read_bytes(), seed
        common = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from evalgebra.codegen.structure_modules import "
                "common_source; sys.stdout.write(common_source())",
            ],
            check=True,
            env=env,
            capture_output=True,
        ).stdout
        assert common == (GENERATED / "structures" / "common.py").read_bytes(), seed


PATH_P4 = ((0, 1), (0, 2), (1, 3))


@settings(max_examples=6, deadline=None, derandomize=True)
@given(
    st.integers(3, 14),
    st.lists(st.integers(23, 36), min_size=8, max_size=8),
    st.integers(-9, 9).filter(bool),
    st.lists(st.integers(-9, 9).filter(bool), min_size=4, max_size=4),
    st.integers(1, 5),
)
def test_path_blind_spot_is_the_middle_pair_alike_on_both_labels(
    prevalence, accuracies, middle, others, shift
):
    """Path P4 (0-1, 0-2, 1-3): the eliminant vanishes exactly when the middle pair's correlation is the
    same on both labels (w_01 = G^a_01 - G^b_01 = 0). There the Gröbner route, independently, finds a
    curve of evaluations explaining the sketch: the truth is not identifiable from the counts, so no
    parameterisation can recover it and the evaluator reports a blind spot instead of an answer. The
    same draw with the middle pair's correlations apart round-trips exactly."""
    from evalgebra.evaluators.correlated.structured import evaluate_structured_counts

    n = 4
    module = _module(n, PATH_P4)
    spec = EnsembleSpec(n, 2, PATH_P4)
    try:
        alike = _point(n, PATH_P4, prevalence, accuracies, [middle, middle, *others])
        apart = _point(n, PATH_P4, prevalence, accuracies, [middle, middle + shift, *others])
    except PointError:
        return
    counts = [int(c) for c in expected_sketch(alike).count_vector()]
    assert not any(module.eliminant(counts))
    result = evaluate_structured_counts(counts, PATH_P4)
    assert "blind_spot" in result.alarm_kinds() and not result.points
    with pytest.raises(SpecError, match="1-dimensional family"):
        structured_solution(spec, expected_sketch(alike))
    counts = [int(c) for c in expected_sketch(apart).count_vector()]
    assert any(module.eliminant(counts))
    result = evaluate_structured_counts(counts, PATH_P4)
    truth = _free_values(apart)
    found = [
        {
            "prev_a": e.prevalence["a"],
            **{f"acc_{i}_{ell}": e.accuracy[f"c{i}"][ell] for i in range(n) for ell in "ab"},
        }
        for e in result.points
    ]
    assert {k: v for k, v in truth.items() if k.startswith(("prev", "acc"))} in found


@pytest.mark.parametrize(("n", "structure"), FAST[:2])
def test_common_model_residuals_equal_the_derived_generators(n, structure):
    """The modules' residuals (common.model_residuals: model counts from the generating set, then their
    moments) equal the derivation's generators in moment coordinates, evaluated symbolically, at
    random rational values (not a solution), and the model counts at a true point are its exact sketch."""
    import random

    import sympy

    from evalgebra.generated.structures import common

    module = _module(n, structure)
    form = derive_structure(n, structure)
    rng = random.Random(7)
    for _ in range(2):
        counts = [rng.randint(0, 40) for _ in range(2**n)]
        values = {u: Fraction(rng.randint(-40, 40), rng.randint(1, 20)) for u in module.UNKNOWNS}
        moments = dict(zip(module.MOMENTS, module.moments(*counts)))
        substitution = {
            sympy.Symbol(k): sympy.Rational(v.numerator, v.denominator)
            for k, v in {**moments, **values}.items()
        }
        derived = [sympy.Rational(r.xreplace(substitution)) for r in form.residuals]
        assert [
            sympy.Rational(x.numerator, x.denominator) for x in module.residuals(counts, values)
        ] == derived
    point = random_point(EnsembleSpec(n, 2, structure), 3)
    sketch = [int(c) for c in expected_sketch(point).count_vector()]
    assert common.model_counts(n, structure, _free_values(point), sum(sketch)) == sketch


def test_structure_module_outside_the_common_sizes_prints_its_own_moments(tmp_path, monkeypatch):
    """A module for a classifier count common.py does not hold (as for N = 6) carries its own moments
    function and MOMENTS, and evaluates exactly as the committed module that imports them."""
    import importlib.util

    from evalgebra.codegen import structure_modules

    n, structure = 4, ((0, 1),)
    monkeypatch.setattr(structure_modules, "COMMON_SIZES", ())
    text = structure_source(derive_structure(n, structure))
    assert "def moments(" in text and "MOMENTS = (" in text and "moments_4" not in text
    path = tmp_path / "own_moments.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("own_moments", path)
    own = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(own)
    committed = _module(n, structure)
    counts = [int(c) for c in expected_sketch(random_point(EnsembleSpec(n, 2, structure), 2)).count_vector()]
    assert own.MOMENTS == committed.MOMENTS and own.eliminant(counts) == committed.eliminant(counts)
    roots = [Fraction(1, 3), flint.fmpq(2, 7)]
    assert own.back_substitute_all(counts, roots) == committed.back_substitute_all(counts, roots)


@pytest.mark.parametrize(("n", "structure"), ALL)
def test_back_substitute_all_label_swap_equals_the_direct_solve(n, structure):
    """back_substitute_all gives a rational root whose 1 - p came first the label swap of that point
    (common.mirrored); it equals solving at that root directly, at both roots of the true pair."""
    module = _module(n, structure)
    for seed in range(4, 12):  # the first draw off the blind spots (the path's seed 4 is one)
        point = random_point(EnsembleSpec(n, 2, structure), seed)
        counts = [int(c) for c in expected_sketch(point).count_vector()]
        if any(module.eliminant(counts)):
            break
    p = flint.fmpq(point.prevalence[0][0].numerator, point.prevalence[0][0].denominator)
    first, swapped = module.back_substitute_all([flint.fmpz(c) for c in counts], [p, 1 - p])
    assert first == module.back_substitute(counts, p) and first is not None
    assert swapped == module.back_substitute(counts, 1 - p)


_X = sympy.symbols("x0:4")
_terms = st.dictionaries(st.tuples(*[st.integers(0, 3)] * 4), st.integers(-50, 50).filter(bool), max_size=12)


def _poly(terms):
    return sympy.Add(*(c * sympy.Mul(*(x**e for x, e in zip(_X, m))) for m, c in terms.items()))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(_terms)
def test_nested_is_the_same_polynomial(terms):
    expr = _poly(terms)
    out = nested(expr)
    require_polynomial("nested", out)
    assert sympy.expand(out - expr) == 0
    values = {x: v for x, v in zip(_X, (3, -7, 11, 2))}
    assert out.xreplace(values) == expr.xreplace(values)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    st.lists(_terms, min_size=1, max_size=3),
    st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), max_size=3),
    st.randoms(use_true_random=False),
)
def test_linear_relations_rebuild_every_coefficient(bases, combinations, rng):
    """Coefficients made as integer combinations of others: each relation rebuilds its coefficient exactly
    from kept coefficients (a rational combination is not a relation: that coefficient is kept)."""
    polys = [_poly(b) for b in bases]
    polys += [sympy.expand(sum(c * p for c, p in zip(row, polys))) for row in combinations]
    rng.shuffle(polys)
    relations = linear_relations(polys)
    for k, combination in relations.items():
        assert all(j not in relations for j in combination)
        assert sympy.expand(sum(c * polys[j] for j, c in combination.items()) - polys[k]) == 0
    assert all(polys[k] == 0 for k, combination in relations.items() if not combination)


@pytest.mark.parametrize("degree", [1, 2, 3])
def test_linear_relations_of_a_label_swap_invariant_eliminant(degree):
    """f(p) = g(p (1 - p)) with g of degree m: m + 1 coefficients kept,
    the other m written as combinations."""
    p, s = sympy.symbols("p s")
    g = sum(
        _poly({(k, 1, 0, 0): 3 + k, (0, k, 2, 1): -1 - k, (0, 0, 0, k): 5}) * s**k for k in range(degree + 1)
    )
    f = sympy.Poly(sympy.expand(g.subs(s, p * (1 - p))), p)
    coefficients = list(reversed(f.all_coeffs()))
    relations = linear_relations(coefficients)
    assert len(coefficients) - len(relations) == degree + 1
    for k, combination in relations.items():
        assert sympy.expand(sum(c * coefficients[j] for j, c in combination.items()) - coefficients[k]) == 0


@pytest.mark.parametrize("structure", [((0, 1), (0, 2)), ((0, 1), (0, 2), (1, 3))])
def test_generated_eliminant_equals_the_derived_coefficients_off_the_model(structure):
    """On random counts (no point of the model needed): the printed coefficients (nested, some written
    through linear_relations) equal the derived polynomials evaluated at the counts' moments."""
    form = derive_structure(4, structure)
    module = _module(4, structure)
    rng = np.random.default_rng(7)
    for _ in range(3):
        counts = [int(c) for c in rng.integers(1, 10**6, size=16)]
        moments = dict(zip(module.MOMENTS, module.moments(*counts)))
        expected = [int(c.xreplace({sympy.Symbol(k): v for k, v in moments.items()})) for c in form.eliminant]
        assert list(module.eliminant(counts)) == expected
        assert module.eliminant([flint.fmpz(c) for c in counts]) == expected
