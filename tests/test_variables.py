"""Tests of evalgebra.variables: the registry, the minimal parametrisation, symbol orders."""

import itertools
import os
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.builder.latex import key_of_name, latex_name
from evalgebra.data.point import evaluation_point
from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import budget, labelled_tests, specs
from evalgebra.variables import (
    VariableKey,
    VariableRegistry,
    correlation_expansion,
    dependent_response,
    free_responses,
    pattern_name,
)


@given(st.integers(1, 7))
def test_variables_complete_binary_count(n):
    spec = EnsembleSpec(n, 2, "complete")
    assert len(VariableRegistry(spec).variables()) == 2 ** (n + 1) - 1 == spec.n_free_variables()


@given(specs(max_populations=3, named=None))
def test_variables_count_equals_n_free_variables(spec):
    registry = VariableRegistry(spec)
    assert len(registry.variables()) == spec.n_free_variables()
    assert len(registry.observables()) == spec.n_populations * spec.n_labels**spec.n_classifiers
    if spec.n_populations == 1:
        # R-space keeps every Q_ell free: one more unknown than P-space
        assert len(VariableRegistry(spec, "R").variables()) == spec.n_free_variables() + 1


@given(specs(max_populations=3, max_patterns=256), st.sampled_from(["P", "R"]))
def test_latex_names_are_unique_and_read_back_from_symbol_names(spec, space):
    if space == "R" and spec.n_populations > 1:
        spec = EnsembleSpec(spec.classifiers, spec.labels, spec.structure)
    registry = VariableRegistry(spec, space)
    names = registry.latex_names()
    assert len(set(names.values())) == len(names)
    for symbol, tex in names.items():
        key = registry.key_of(symbol)
        assert tex == registry.latex_name(key)
        assert latex_name(symbol.name) == tex  # the printer of Gröbner bases sees names only
        parsed, parsed_space, _ = key_of_name(symbol.name)
        assert parsed_space == space
        assert parsed.kind == key.kind and parsed.classifiers == key.classifiers
        assert parsed.labels == key.labels
    assert not [tex for tex in names.values() if tex.startswith(("acc_", "prev_", "resp_", "corr_"))]


def test_latex_names_small_spec_exact():
    registry = VariableRegistry(EnsembleSpec(2, 2, "complete"))
    assert [registry.latex_names()[s] for s in registry.variables()] == [
        "P_{a}",
        "P_{0,a}",
        "P_{0,b}",
        "P_{1,a}",
        "P_{1,b}",
        "G^{a}_{0,1}",
        "G^{b}_{0,1}",
    ]
    assert [registry.latex_names()[s] for s in registry.observables()] == [
        "f_{aa}",
        "f_{ab}",
        "f_{ba}",
        "f_{bb}",
    ]
    assert [registry.latex_names()[s] for s in registry.observables("moments")] == [
        "m_{0}(b)",
        "m_{1}(b)",
        "D_{0,1}",
    ]
    three = VariableRegistry(EnsembleSpec(2, 3, [(0, 1)]), space="R")
    assert three.latex(three.response[0]["b"]["a"]) == "R_{0,b|a}"
    assert three.latex(three.correlation[(0, 1)]["a"][("b", "a")]) == "C^{a}_{0,1}(b,a)"
    assert three.latex(three.response[1]["b"]["c"]) == "Q_{c} - R_{1,a|c} - R_{1,c|c}"
    wide = VariableRegistry(EnsembleSpec(1, 27))
    assert wide.latex_name(VariableKey("response", (0,), (26, 0))) == "P_{0,l_{26}|l_{0}}"
    strata = VariableRegistry(EnsembleSpec(1, 2, populations=["x", "y"]))
    assert strata.latex(strata.prevalences["y"]["b"]) == "1 - P^{(1)}_{a}"


@given(specs(max_populations=3, max_patterns=256), st.sampled_from(["P", "R"]))
def test_symbol_names_are_unique_and_invert_to_keys(spec, space):
    if space == "R" and spec.n_populations > 1:
        spec = EnsembleSpec(spec.classifiers, spec.labels, spec.structure)
    registry = VariableRegistry(spec, space)
    symbols = registry.variables() + registry.observables()
    assert len({s.name for s in symbols}) == len(symbols)
    for kind in ("prevalence", "accuracy", "response", "correlation", "observed"):
        for key in registry.keys(kind):
            assert key.kind == kind
            assert registry.key_of(registry.symbol(key)) == key
            assert registry.key_of(registry.symbol(key).name) == key
    # the same statistic is always the same symbol
    again = VariableRegistry(
        EnsembleSpec(spec.classifiers, spec.labels, spec.structure, spec.populations), space
    )
    assert again.variables() == registry.variables()
    assert again.observables() == registry.observables()


@given(specs(max_populations=2))
def test_elimination_order_is_blockwise(spec):
    registry = VariableRegistry(spec)
    blocks = ("correlation", "response", "accuracy", "prevalence")
    order = registry.elimination_order(*blocks)
    assert order == tuple(s for b in blocks for s in registry.variables((b,)))
    assert sorted(map(str, order)) == sorted(map(str, registry.variables()))


@given(st.integers(2, 6), st.data())
def test_dependent_and_free_responses_partition_labels(r, data):
    ell = data.draw(st.integers(0, r - 1))
    dep = dependent_response(ell, r)
    free = free_responses(ell, r)
    assert dep != ell and 0 <= dep < r
    assert sorted(free + (dep,)) == list(range(r))
    assert ell in free


@given(st.integers(2, 4), st.integers(1, 4), st.data())
def test_correlation_expansion_sums_to_zero_along_each_axis(r, size, data):
    ell = data.draw(st.integers(0, r - 1))
    free = list(itertools.product(free_responses(ell, r), repeat=size))
    values = {f: Fraction(data.draw(st.integers(-9, 9)), 7) for f in free}
    table = {
        responses: sum(
            (sign * values[f] for sign, f in correlation_expansion(ell, responses, r)), Fraction(0)
        )
        for responses in itertools.product(range(r), repeat=size)
    }
    for f in free:  # free entries are themselves
        assert table[f] == values[f]
    for axis in range(size):
        for rest in itertools.product(range(r), repeat=size - 1):
            assert sum(table[rest[:axis] + (x,) + rest[axis:]] for x in range(r)) == 0


def _fraction(value):
    return Fraction(int(value.p), int(value.q))


@given(labelled_tests(specs(max_patterns=256)))
def test_parametrise_reproduces_point_from_data(test):
    """Dependent entries derived by the registry equal those counted from the items."""
    sketch = test.sketch()
    spec = EnsembleSpec(test.classifiers, test.labels, "complete")
    point = evaluation_point(sketch, structure="complete")
    for space in ("P", "R"):
        registry = VariableRegistry(spec, space)
        values = point.free_values(space)
        par = registry.parametrise(values.__getitem__)
        counts = sketch.label_counts()
        scale = {ell: (counts[label] if space == "R" else 1) for ell, label in enumerate(spec.labels)}
        for ell, label in enumerate(spec.labels):
            assert par.prevalence[0][ell] == (counts[label] if space == "R" else point.prevalence[0][ell])
            for i in range(spec.n_classifiers):
                row = point.response[i][ell]
                if row is None:
                    continue
                assert list(par.response[i][ell]) == [v * scale[ell] for v in row]
            for subset in spec.structure:
                table = point.correlation[subset][ell]
                if table is None:
                    continue
                factor = scale[ell] ** len(subset)
                assert dict(par.correlation[subset][ell]) == {k: v * factor for k, v in table.items()}


@budget(0.5)
@given(labelled_tests(specs(max_patterns=27, named=None)))
def test_parametrise_symbolic_mappings_match_point(test):
    """The user-facing SymPy mappings, evaluated at the free values, give the point."""
    sketch = test.sketch()
    point = evaluation_point(sketch, structure="complete")
    spec = point.spec
    registry = VariableRegistry(spec)
    values = {
        registry.symbol(k): sympy.Rational(v.numerator, v.denominator) for k, v in point.free_values().items()
    }
    for ell, label in enumerate(spec.labels):
        assert registry.prevalence[label].xreplace(values) == point.prevalence[0][ell]
        for i in range(spec.n_classifiers):
            if point.response[i][ell] is None:
                continue
            assert _fraction(registry.accuracy[i][label].xreplace(values)) == point.accuracy(i, label)
            for response in spec.labels:
                expr = registry.response[i][response][label]
                assert _fraction(expr.xreplace(values)) == point.response_rate(i, response, label)
        for subset, per_label in registry.correlation.items():
            if point.correlation[subset][ell] is None:
                continue
            for responses, expr in per_label[label].items():
                assert _fraction(sympy.sympify(expr).xreplace(values)) == point.correlation_value(
                    subset, label, responses
                )
    assert set(registry.observed) == set(spec.populations)
    assert list(registry.observed["all"].values()) == list(registry.observables())


def test_VariableRegistry_names_follow_house_style():
    registry = VariableRegistry(EnsembleSpec(3, 3, [(0, 2)]))
    assert str(registry.prevalence["c"]) == "-prev_a - prev_b + 1"
    assert registry.accuracy[1]["b"].name == "acc_1_b"
    assert registry.response[2]["a"]["c"].name == "resp_2_a_c"
    assert registry.correlation[(0, 2)]["a"][("a", "b")].name == "corr_0_2_a_ab"
    assert registry.observed["all"][("a", "b", "c")].name == "f_abc"
    rspace = VariableRegistry(EnsembleSpec(2, 2, "complete"), "R")
    assert [s.name for s in rspace.variables()] == [
        "Q_a",
        "Q_b",
        "R_0_a_a",
        "R_0_b_b",
        "R_1_a_a",
        "R_1_b_b",
        "C_0_1_a",
        "C_0_1_b",
    ]
    assert str(rspace.response[0]["b"]["a"]) == "Q_a - R_0_a_a"
    strata = VariableRegistry(EnsembleSpec(1, 2, populations=["x", "y"]))
    assert [s.name for s in strata.variables(("prevalence",))] == ["prev_s0_a", "prev_s1_a"]
    assert strata.observed["y"][("b",)].name == "f_s1_b"
    assert pattern_name((0, 1, 2), 3) == "abc"


def test_variables_order_independent_of_hash_seed():
    script = (
        "from evalgebra.builder import GeneratingSet\n"
        "from evalgebra.spec import EnsembleSpec\n"
        "from evalgebra.variables import VariableRegistry\n"
        "spec = EnsembleSpec(['z', 'y', 'x'], ['no', 'yes', 'maybe'], [('x', 'z'), ('z', 'y', 'x')])\n"
        "reg = VariableRegistry(spec)\n"
        "print(reg.variables(), reg.observables(), reg.elimination_order('correlation', 'prevalence'))\n"
        "print(GeneratingSet(spec.restrict(['z', 'x'])).to_json())\n"
    )
    outputs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0]


# -- errors ------------------------------------------------------------------------------
def test_VariableRegistry_rejects_bad_space():
    with pytest.raises(SpecError, match=r"space must be one of \('P', 'R'\), got 'Q'"):
        VariableRegistry(EnsembleSpec(2, 2), "Q")
    with pytest.raises(SpecError, match=r"R-space is defined for one population"):
        VariableRegistry(EnsembleSpec(2, 2, populations=2), "R")


def test_keys_reject_unknown_kinds_and_symbols():
    registry = VariableRegistry(EnsembleSpec(2, 2))
    with pytest.raises(SpecError, match=r"unknown variable kind 'bias'"):
        registry.keys("bias")
    with pytest.raises(SpecError, match=r"unknown variable kind 'bias'"):
        registry.elimination_order("accuracy", "bias")
    with pytest.raises(SpecError, match=r"is not a free variable of this registry"):
        registry.symbol(VariableKey("correlation", (0, 1), (0, 0, 0)))
    with pytest.raises(SpecError, match=r"'acc_9_a' is not a symbol of this registry"):
        registry.key_of("acc_9_a")
    with pytest.raises(SpecError, match=r"several populations; use prevalences\[population\]\[label\]"):
        VariableRegistry(EnsembleSpec(1, 2, populations=2)).prevalence  # noqa: B018 (the property raises)
