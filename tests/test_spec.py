"""Tests of evalgebra.spec: validation, canonical structures, restriction, counts."""

import itertools
import math

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec, default_label_names
from evalgebra.testing import all_subsets, specs


@st.composite
def structure_inputs(draw):
    """A number of classifiers, a set of subsets, and a scrambled way of writing it."""
    n = draw(st.integers(2, 5))
    chosen = draw(st.lists(st.sampled_from(all_subsets(n)), unique=True, max_size=8))
    names = [f"m{k}" for k in range(n)]
    written = []
    for subset in chosen:
        members = list(draw(st.permutations(list(subset))))
        written.append(tuple(names[i] if draw(st.booleans()) else i for i in members))
        if draw(st.booleans()):  # duplicates in the input are harmless
            written.append(tuple(reversed(written[-1])))
    order = draw(st.permutations(range(len(written))))
    return n, names, set(chosen), [written[k] for k in order]


@given(structure_inputs())
def test_EnsembleSpec_structure_is_canonical(case):
    n, names, chosen, written = case
    spec = EnsembleSpec(names, 2, structure=written)
    assert set(spec.structure) == chosen
    assert all(list(t) == sorted(t) and len(t) >= 2 for t in spec.structure)
    assert list(spec.structure) == sorted(spec.structure, key=lambda t: (len(t), t))
    assert spec == EnsembleSpec(names, 2, structure=sorted(chosen, reverse=True))


@given(st.integers(2, 5), st.data())
def test_EnsembleSpec_graph_structure_equals_edge_list(n, data):
    edges = data.draw(st.lists(st.sampled_from(list(itertools.combinations(range(n), 2))), unique=True))
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    assert EnsembleSpec(n, 2, structure=graph) == EnsembleSpec(n, 2, structure=edges)


@given(st.integers(1, 6), st.integers(2, 5))
def test_EnsembleSpec_complete_structure_has_every_subset(n, r):
    spec = EnsembleSpec(n, r, "complete")
    assert set(spec.structure) == {
        t for size in range(2, n + 1) for t in itertools.combinations(range(n), size)
    }
    assert len(spec.structure) == 2**n - n - 1
    assert spec.is_complete and (n > 1 or spec.is_independent)
    independent = EnsembleSpec(n, r)
    assert independent.is_independent and independent.structure == ()
    assert independent == EnsembleSpec(n, r, "independent") == EnsembleSpec(n, r, [])


def test_EnsembleSpec_default_names():
    spec = EnsembleSpec(3, 3)
    assert spec.classifiers == ("c0", "c1", "c2")
    assert spec.labels == ("a", "b", "c")
    assert spec.populations == ("all",)
    assert EnsembleSpec(1, 2, populations=2).populations == ("p0", "p1")
    assert default_label_names(27)[:2] == ("l0", "l1") and len(default_label_names(27)) == 27


@given(specs(max_populations=3, named=None), st.data())
def test_restrict_composes(spec, data):
    n = spec.n_classifiers
    first = data.draw(st.permutations(range(n)))[: data.draw(st.integers(1, n))]
    second = data.draw(st.permutations(range(len(first))))[: data.draw(st.integers(1, len(first)))]
    once = spec.restrict([first[j] for j in second])
    assert spec.restrict(first).restrict(second) == once
    assert once.classifiers == tuple(spec.classifiers[first[j]] for j in second)
    assert once.labels == spec.labels and once.populations == spec.populations


@given(specs(named=None), st.data())
def test_restrict_keeps_exactly_the_subsets_inside(spec, data):
    n = spec.n_classifiers
    order = data.draw(st.permutations(range(n)))[: data.draw(st.integers(1, n))]
    sub = spec.restrict(order)
    mapped = {tuple(sorted(order[k] for k in t)) for t in sub.structure}
    inside = {t for t in spec.structure if set(t) <= set(order)}
    assert mapped == inside
    if spec.is_complete:
        assert sub.is_complete


@given(specs(max_populations=3))
def test_with_structure_keeps_names(spec):
    other = spec.with_structure("complete")
    assert (other.classifiers, other.labels, other.populations) == (
        spec.classifiers,
        spec.labels,
        spec.populations,
    )
    assert other.is_complete
    assert other.with_structure(spec.structure) == spec


@given(st.integers(1, 8))
def test_n_free_variables_complete_binary(n):
    assert EnsembleSpec(n, 2, "complete").n_free_variables() == 2 ** (n + 1) - 1
    # docs/theory.md#correlation-structures-and-populations: 1 + 2N + 2 sum_{m>=2} C(N, m)
    assert 2 ** (n + 1) - 1 == 1 + 2 * n + 2 * sum(math.comb(n, m) for m in range(2, n + 1))


@given(specs(max_populations=3))
def test_n_observables_counts_patterns(spec):
    assert spec.n_observables() == spec.n_populations * (spec.n_labels**spec.n_classifiers - 1)


@given(specs(named=True, max_populations=3), st.data())
def test_classifier_index_inverts_names(spec, data):
    for k, name in enumerate(spec.classifiers):
        assert spec.classifier_index(name) == k == spec.classifier_index(k)
    for k, name in enumerate(spec.labels):
        assert spec.label_index(name) == k
    for k, name in enumerate(spec.populations):
        assert spec.population_index(name) == k == spec.population_index(k)


# -- errors ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"classifiers": ["x", "y", "x"], "labels": 2},
            r"classifiers: names must be distinct, repeated: \['x'\]",
        ),
        ({"classifiers": 2, "labels": ["a", "b", "a"]}, r"labels: names must be distinct, repeated: \['a'\]"),
        ({"classifiers": 2, "labels": 1}, r"labels: need at least 2, got 1"),
        ({"classifiers": 2, "labels": ["only"]}, r"labels: need at least 2, got 1: \['only'\]"),
        ({"classifiers": 0, "labels": 2}, r"classifiers: need at least 1, got 0"),
        ({"classifiers": [], "labels": 2}, r"classifiers: need at least 1, got 0"),
        ({"classifiers": True, "labels": 2}, r"classifiers: expected a count or a sequence of names"),
        ({"classifiers": "abc", "labels": 2}, r"classifiers: expected a count or a sequence"),
        ({"classifiers": ["x", ""], "labels": 2}, r"every name must be a non-empty string"),
        ({"classifiers": ["x", 3], "labels": 2}, r"every name must be a non-empty string, got 3"),
        ({"classifiers": 2, "labels": 2, "populations": ["p", "p"]}, r"populations: names must be distinct"),
        ({"classifiers": 2, "labels": 2, "populations": 0}, r"populations: need at least 1"),
    ],
)
def test_EnsembleSpec_rejects_bad_names(kwargs, message):
    with pytest.raises(SpecError, match=message):
        EnsembleSpec(**kwargs)


@pytest.mark.parametrize(
    "structure, message",
    [
        ("correlated", r"structure: unknown name 'correlated'; use 'independent', 'complete'"),
        ([(0,)], r"structure: subset \(0,\) has fewer than 2 classifiers"),
        ([(0, 0)], r"structure: subset \(0, 0\) names a classifier twice"),
        ([("c0", 0)], r"names a classifier twice"),
        ([("c0", "c9")], r"structure: unknown classifier 'c9'; classifiers are \['c0', 'c1', 'c2'\]"),
        ([(0, 3)], r"structure: classifier index 3 out of range 0..2"),
        ([(0, -1)], r"structure: classifier index -1 out of range"),
        ([(0, 1.0)], r"structure: classifiers are named by str or int index, got 1.0"),
        ([(True, 1)], r"structure: classifiers are named by str or int index, got True"),
        ([0, 1], r"structure: each entry must be a collection of classifiers, got 0"),
        (["c0c1"], r"structure: each entry must be a collection of classifiers, got 'c0c1'"),
        (
            (0, 1),
            r"got 0 in structure=\(0, 1\): one subset written bare.*did you mean structure=\[\(0, 1\)\]\?$",
        ),
        (("c2", "c0"), r"one subset written bare.*did you mean structure=\[\('c2', 'c0'\)\]\?$"),
        (
            (0, 1, 2),
            r"structure=\[\(0, 1, 2\)\] \(.*\) or structure=\[\(0, 1\), \(0, 2\), \(1, 2\)\] \(every pair",
        ),
        (42, r"structure: cannot read 42 as a correlation structure"),
        (nx.DiGraph([(0, 1)]), r"structure: a directed graph has no meaning here"),
    ],
)
def test_EnsembleSpec_rejects_bad_structure(structure, message):
    with pytest.raises(SpecError, match=message):
        EnsembleSpec(3, 2, structure=structure)


def test_EnsembleSpec_graph_with_unknown_node_rejected():
    with pytest.raises(SpecError, match=r"unknown classifier 'z'"):
        EnsembleSpec(["x", "y"], 2, structure=nx.Graph([("x", "z")]))


def test_label_index_rejects_unknown_names():
    spec = EnsembleSpec(["x", "y"], ["yes", "no"], populations=["p", "q"])
    with pytest.raises(SpecError, match=r"unknown label 'maybe'; labels are \['yes', 'no'\]"):
        spec.label_index("maybe")
    with pytest.raises(SpecError, match=r"unknown classifier 'z'"):
        spec.classifier_index("z")
    with pytest.raises(SpecError, match=r"unknown population 'r'; populations are \['p', 'q'\]"):
        spec.population_index("r")
    with pytest.raises(SpecError, match=r"unknown population 2"):
        spec.population_index(2)
    with pytest.raises(SpecError, match=r"unknown population True"):
        spec.population_index(True)


@pytest.mark.parametrize("order", [[0, 0], [], ["x", 0]])
def test_restrict_rejects_repeats_and_empty(order):
    with pytest.raises(SpecError, match=r"restrict: need distinct classifiers"):
        EnsembleSpec(["x", "y"], 2).restrict(order)


def test_EnsembleSpec_is_immutable():
    spec = EnsembleSpec(2, 2)
    with pytest.raises(AttributeError):
        spec.labels = ("x", "y")
