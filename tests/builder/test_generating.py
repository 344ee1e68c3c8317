"""Tests of evalgebra.builder.generating: completeness, backends, exact evaluation."""

import itertools
import json
import math
from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.builder import GeneratingSet, generating_set
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import budget, labelled_tests, rational_points, specs


def _fmpq(value):
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def _flint_arguments(gs, system, unknowns, observed):
    """Values of the system's generators, in ``system.symbols`` order."""
    by_name = {gs.registry.symbol(key).name: value for key, value in unknowns.items()}
    by_name.update({sym.name: value for sym, value in zip(gs.observables, observed)})
    return [_fmpq(by_name[sym.name]) for sym in system.symbols]


def _points_by_population(sketch):
    """(single-population sketch, its exact complete evaluation point) per population."""
    for population in sketch.populations:
        part = sketch.population(population)
        yield part, evaluation_point(part, structure="complete")


# -- completeness (Theorems 1 and 3): the true point explains the sketch exactly -------------
def _check_complete_residuals(sketch):
    for part, point in _points_by_population(sketch):
        gs = GeneratingSet(point.spec)
        observed = gs.observed_values(part)
        assert sum(observed) == 1
        assert all(r == 0 for r in gs.residuals(point.free_values(), observed))
        rspace = GeneratingSet(point.spec, "R")
        counts = rspace.observed_values(part)
        assert sum(counts) == part.Q
        assert all(r == 0 for r in rspace.residuals(point.free_values("R"), counts))


@given(labelled_tests(specs(max_populations=3, max_patterns=256, named=None)))
def test_residuals_vanish_at_the_point_of_any_labelled_test(test):
    _check_complete_residuals(test.sketch())


@budget(0.1, minimum=3)
@given(labelled_tests(specs(min_classifiers=5, min_labels=3, structure_kinds=["complete"]), max_items=40))
def test_residuals_vanish_at_the_point_of_any_labelled_test_large(test):
    """The largest cases (up to 4^5 patterns, 1,040 unknowns): numeric residuals only."""
    _check_complete_residuals(test.sketch())


@budget(0.75)
@given(labelled_tests(specs(max_patterns=81, named=None)))
def test_flint_polynomials_vanish_at_the_point_of_any_labelled_test(test):
    sketch = test.sketch()
    point = evaluation_point(sketch, structure="complete")
    for space in ("P", "R"):
        gs = GeneratingSet(point.spec, space)
        unknowns = point.free_values(space)
        observed = gs.observed_values(sketch)
        symbolic = gs.flint()  # observables are generators too
        assert len(symbolic.symbols) == len(gs.variables) + len(gs.observables)
        arguments = _flint_arguments(gs, symbolic, unknowns, observed)
        assert all(poly(*arguments) == 0 for poly in symbolic.polynomials)
        numeric = gs.flint(observed=observed)  # observed rationals substituted
        assert numeric.symbols == gs.variables
        arguments = _flint_arguments(gs, numeric, unknowns, observed)
        assert all(poly(*arguments) == 0 for poly in numeric.polynomials)


@budget(0.3)
@given(specs(max_patterns=27, max_populations=2, named=None), st.sampled_from(["P", "R"]))
def test_polynomials_equal_expanded_equations(spec, space):
    """SymPy's expansion of ``observed - model`` equals python-flint's polynomials."""
    if space == "R":  # R-space is for one population
        spec = EnsembleSpec(spec.classifiers, spec.labels, spec.structure)
    gs = GeneratingSet(spec, space)
    polys = gs.polynomials()
    equations = gs.equations()
    assert len(polys) == len(equations) == len(gs.patterns)
    for (lhs, rhs), poly in zip(equations, polys):
        assert sympy.expand(lhs - rhs - poly) == 0


@budget(0.5)
@given(rational_points(specs(max_populations=3, named=None), correlated=True))
def test_evaluate_equals_the_points_pattern_distribution(point):
    """The generic formula and the point's tensor computation give the same model."""
    gs = GeneratingSet(point.spec)
    model = gs.evaluate(point.free_values())
    expected = []
    for s, population in enumerate(point.spec.populations):
        frequencies = point.expected_frequencies(population)
        expected.extend(frequencies[p] for p in gs.pattern_tuples(s))
    assert model == expected
    for s in range(point.spec.n_populations):
        assert sum(m for (t, _), m in zip(gs.patterns, model) if t == s) == 1


@given(rational_points(specs(named=None, max_patterns=81)), st.sampled_from(["P", "R"]), st.data())
def test_residuals_are_observed_minus_model(point, space, data):
    gs = GeneratingSet(point.spec, space)
    if space == "R":
        # an R-space point needs a test size: the label counts must be integers
        size = math.lcm(*(v.denominator for v in point.prevalence[0])) * 12**point.spec.n_classifiers
        point = type(point)(point.spec, point.prevalence, point.response, point.correlation, [size])
        q = [v * size for v in point.prevalence[0]]
        factor = math.prod(int(x) ** (point.spec.n_classifiers - 1) for x in q)
    else:
        factor = 1
    values = point.free_values(space)
    observed = data.draw(
        st.lists(st.fractions(max_denominator=9), min_size=len(gs.patterns), max_size=len(gs.patterns))
    )
    model = gs.evaluate(values)
    assert gs.residuals(values, observed) == [factor * o - m for o, m in zip(observed, model)]


@given(specs(max_populations=3, max_patterns=256, named=None), st.sampled_from(["P", "R"]))
def test_flint_has_one_polynomial_per_pattern(spec, space):
    if space == "R":
        spec = EnsembleSpec(spec.classifiers, spec.labels, spec.structure)
    gs = GeneratingSet(spec, space)
    system = gs.flint()
    n_patterns = spec.n_populations * spec.n_labels**spec.n_classifiers
    assert len(system.polynomials) == len(gs.patterns) == n_patterns
    assert len(set(gs.patterns)) == n_patterns
    assert system.symbols == gs.variables + gs.observables
    assert all(not poly.is_zero() for poly in system.polynomials)


@given(specs(max_populations=2))
def test_GeneratingSet_patterns_in_canonical_order(spec):
    gs = GeneratingSet(spec)
    canonical = list(itertools.product(range(spec.n_labels), repeat=spec.n_classifiers))
    assert list(gs.patterns) == [(s, p) for s in range(spec.n_populations) for p in canonical]
    for s in range(spec.n_populations):
        assert gs.pattern_tuples(s) == [tuple(spec.labels[k] for k in p) for p in canonical]


@budget(0.3)
@given(
    specs(max_patterns=16, max_populations=2), st.sampled_from(["deglex", "degrevlex", "lex"]), st.randoms()
)
def test_flint_generator_order_does_not_change_the_polynomials(spec, ordering, random):
    gs = GeneratingSet(spec)
    order = list(gs.variables)
    random.shuffle(order)
    shuffled = gs.flint(order=order, ordering=ordering)
    assert shuffled.symbols[: len(order)] == tuple(order)
    reference = gs.polynomials()
    for poly, expected in zip(shuffled.polynomials, reference):
        assert sympy.expand(shuffled.to_sympy(poly) - expected) == 0


@budget(0.3)
@given(specs(max_patterns=9, max_populations=2))
def test_to_json_lists_the_polynomials(spec):
    gs = GeneratingSet(spec)
    data = json.loads(gs.to_json())
    assert data["format"] == "evalgebra.polys/1"
    assert data["variables"] == [str(v) for v in gs.variables]
    assert data["observables"] == [str(v) for v in gs.observables]
    assert [tuple(e["decisions"]) for e in data["polynomials"]] == [
        tuple(spec.labels[k] for k in p) for _, p in gs.patterns
    ]
    symbols = {str(s): s for s in gs.variables + gs.observables}
    for entry, poly in zip(data["polynomials"], gs.polynomials()):
        assert sympy.expand(sympy.sympify(entry["polynomial"], locals=symbols) - poly) == 0
    text = gs.to_text(expand=True).splitlines()
    assert len(text) == len(gs.patterns)
    for line, (lhs, rhs) in zip(text, gs.equations()):
        left, right = line.split(" = ")
        assert left == str(lhs)
        assert sympy.expand(sympy.sympify(right, locals=symbols) - rhs) == 0
    assert gs.to_latex().count("&=") == len(gs.patterns)


def test_generating_set_helper_equals_class():
    spec = EnsembleSpec(3, 2, "complete", populations=2)
    assert generating_set(3, 2, "complete", populations=2).spec == spec
    assert generating_set(spec).spec == spec
    assert generating_set(spec, space="P").to_text() == GeneratingSet(spec).to_text()


def test_polynomials_independent_pair_match_hand_expansion():
    """Two independent binary classifiers: f_ab = P_a acc0_a (1 - acc1_a) + P_b (1 - acc0_b) acc1_b."""
    gs = GeneratingSet(EnsembleSpec(2, 2))
    p, a0, b0, a1, b1 = gs.variables
    f = dict(zip(gs.pattern_tuples(), gs.observables))
    by_pattern = dict(zip(gs.pattern_tuples(), gs.polynomials()))
    hand = f[("a", "b")] - (p * a0 * (1 - a1) + (1 - p) * (1 - b0) * b1)
    assert sympy.expand(by_pattern[("a", "b")] - hand) == 0


# -- errors ------------------------------------------------------------------------------
def test_flint_rejects_bad_ordering_and_order():
    gs = GeneratingSet(EnsembleSpec(2, 2))
    with pytest.raises(
        SpecError, match=r"ordering must be one of \('lex', 'deglex', 'degrevlex'\), got 'grlex'"
    ):
        gs.flint(ordering="grlex")
    with pytest.raises(SpecError, match=r"order must list every free unknown exactly once"):
        gs.flint(order=gs.variables[1:])
    with pytest.raises(SpecError, match=r"order must list every free unknown exactly once"):
        gs.flint(order=gs.variables + gs.variables[:1])
    with pytest.raises(SpecError, match=r"need 4 observed values, got 3"):
        gs.flint(observed=[0, 0, 1])


def test_residuals_reject_missing_values_and_wrong_lengths():
    gs = GeneratingSet(EnsembleSpec(1, 2))
    p, a, b = gs.variables
    with pytest.raises(SpecError, match=r"no value for acc_0_b \(accuracy\)"):
        gs.residuals({p: Fraction(1, 2), a: 1}, [Fraction(1, 2)] * 2)
    with pytest.raises(SpecError, match=r"need 2 observed values, got 3"):
        gs.residuals({p: Fraction(1, 2), a: 1, b: 1}, [0, 0, 1])
    with pytest.raises(SpecError, match=r"'acc_7_a' is not a symbol of this registry"):
        gs.residuals({"acc_7_a": 1}, [0, 1])


def test_observed_values_reject_a_sketch_of_another_spec():
    sketch = Sketch.from_counts({"ab": 2, "ba": 1}, labels=["a", "b"])
    with pytest.raises(SpecError, match=r"classifiers, labels or populations differ"):
        GeneratingSet(EnsembleSpec(2, ["b", "a"])).observed_values(sketch)
    with pytest.raises(SpecError, match=r"classifiers, labels or populations differ"):
        GeneratingSet(EnsembleSpec(3, 2)).observed_values(sketch)


def test_generating_set_with_abstentions_reproduces_a_random_test_exactly():
    import numpy as np

    spec = EnsembleSpec(3, ["pass", "fail"], structure="complete", abstain="unsure")
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 2, size=200)
    answers = np.where(rng.random((200, 3)) < 0.7, truth[:, None], 1 - truth[:, None])
    answers[rng.random((200, 3)) < 0.15] = 2  # abstentions
    names = np.array(spec.responses, dtype=object)
    sketch = Sketch.from_decisions(
        names[answers],
        truth=np.array(spec.labels, dtype=object)[truth],
        abstain="unsure",
        labels=list(spec.labels),
    )
    point = evaluation_point(sketch, structure="complete")
    gs = GeneratingSet(spec)
    values = point.free_values()
    model = gs.model(lambda key: values[key], Fraction(1))
    observed = gs.observed_values(sketch.unlabelled())
    assert model == observed and len(model) == 27
