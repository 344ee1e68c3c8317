"""The trio search end to end: pools built here, rejection by the failure modes, ranking."""

from __future__ import annotations

import itertools
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import labelled_test
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.independent.algebraic import evaluate_independent as evaluate_algebraic
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.evaluators.independent.distance import containing_distance
from evalgebra.results import Estimate
from evalgebra.search.trios import (
    CRITERIA,
    REJECT,
    _distance_many,
    compatibility_graph,
    search_trios,
    trio_counts,
)
from evalgebra.search.trios import graph_cliques as _cliques
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import budget, rational_points


def informative(point: EvaluationPoint, i: int) -> bool:
    return point.accuracy(i, "a") + point.accuracy(i, "b") != 1


# -- exactly independent pools --------------------------------------------------------------------
@budget(0.5)
@given(rational_points(EnsembleSpec(4, 2), use_accuracy=True, denominators=(2, 3, 4)))
def test_search_trios_independent_trio_is_never_rejected_and_scores_zero(point):
    prevalence = point.prevalence_of()["a"]
    if prevalence in (0, 1):
        return
    test = labelled_test(point)
    pool = Sketch.from_decisions(test.decisions, labels=["a", "b"], truth=test.truth)
    results = {criterion: search_trios(pool, criterion=criterion) for criterion in CRITERIA}
    for criterion, search in results.items():
        for result in search:
            members = result.indices
            if not all(informative(point, i) for i in members):
                assert "blind_spot" in result.failures  # an uninformative member: D_ij = 0
                continue
            assert not result.rejected, (criterion, result.classifiers, result.failures)
            truth = (prevalence, *[point.accuracy(i, label) for i in members for label in "ab"])
            points = [tuple(p.values()[:1] + p.values()[2:]) for p in result.evaluation.points]
            assert truth in points  # the exact truth is one of the two evaluations
            if result.evaluation.chosen is None:  # both points equally accurate: no decoded point to rank
                assert np.isnan(result.score)
            elif result.n_partners or criterion == "own_distance":
                assert result.score == pytest.approx(0.0, abs=1e-9)


def test_search_trios_independent_pool_beats_a_copied_member():
    point = EvaluationPoint.from_values(
        EnsembleSpec(5, 2),
        {"a": "1/4"},
        accuracy={
            0: {"a": "3/4", "b": "1/2"},
            1: {"a": "3/4", "b": "3/4"},
            2: {"a": "1/2", "b": "3/4"},
            3: {"a": 1, "b": "3/4"},
            4: {"a": "3/4", "b": 1},
        },
    )
    test = labelled_test(point, seed=1)
    pool = np.hstack([test.decisions, test.decisions[:, :1]])  # c5 copies c0
    for criterion in ("disagreement", "extended_distance"):
        search = search_trios(pool, labels=["a", "b"], criterion=criterion)
        survivors = search.survivors()
        copied = [r for r in survivors if {0, 5} <= set(r.indices)]
        others = [r for r in survivors if not {0, 5} <= set(r.indices)]
        assert len(copied) == 4 and len(others) == 16
        assert max(r.score for r in others) < 1e-12 < min(r.score for r in copied)
        assert survivors[-4:] == copied  # ranked last


# -- rejection and ranking ------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_search_trios_rejection_reasons_match_evaluate_counts(seed, correlated_pool):
    decisions, _ = correlated_pool(seed)
    pool = Sketch.from_decisions(decisions, labels=["a", "b"])
    search = search_trios(pool)
    assert len(search) == 35
    seen = set()
    for result in search:
        marginal = pool.marginalise(list(result.indices)).count_vector().tolist()
        assert list(result.counts) == marginal
        alarms = evaluate_counts(marginal, pool.labels, result.classifiers).alarm_kinds()
        assert result.alarms == alarms
        assert result.failures == tuple(sorted(alarms & set(REJECT)))
        assert result.evaluation.alarm_kinds() == alarms
        seen |= alarms
    assert search.failure_counts() == {k: sum(k in r.alarms for r in search) for k in sorted(seen)}
    if seed == 0:
        assert search.rejected() and search.survivors()  # the pool has both kinds of trio


@pytest.mark.parametrize("criterion", CRITERIA)
def test_search_trios_ranking_order(criterion, correlated_pool):
    decisions, _ = correlated_pool(3, n_items=500, n_classifiers=8)
    search = search_trios(decisions, criterion=criterion)
    survivors, rejected = search.survivors(), search.rejected()
    assert list(search) == survivors + rejected
    assert [r.rank for r in survivors] == list(range(len(survivors)))
    assert all(r.rank is None and np.isnan(r.score) for r in rejected)
    scores = [r.score for r in survivors]
    scored = [s for s in scores if not np.isnan(s)]
    assert scores[: len(scored)] == sorted(scored) and all(np.isnan(scores[len(scored) :]))
    for a, b in zip(survivors, survivors[1:]):  # ties in pool order
        if a.score == b.score:
            assert a.indices < b.indices
    assert [r.indices for r in rejected] == sorted(r.indices for r in rejected)
    assert search.best(3) == survivors[:3]


def test_search_trios_is_equivariant_under_permuting_the_pool(correlated_pool):
    decisions, _ = correlated_pool(4, n_items=400, n_classifiers=6)
    names = [f"m{i}" for i in range(6)]
    order = [3, 0, 5, 1, 4, 2]
    first = search_trios(decisions, classifiers=names)
    second = search_trios(decisions[:, order], classifiers=[names[i] for i in order])

    def scores(search):
        return {
            frozenset(r.classifiers): (r.failures, None if np.isnan(r.score) else round(r.score, 12))
            for r in search
        }

    assert scores(first) == scores(second)


def test_search_trios_prunes_blind_spots_and_exclusions(correlated_pool):
    decisions, _ = correlated_pool(5, n_items=400, n_classifiers=6)
    decisions[:, 2] = 0  # a constant classifier: D_2j = 0 for every j
    graph = compatibility_graph(decisions, exclude=[("c0", "c1")])
    assert not graph.has_edge("c0", "c1")
    assert all(
        d["blind_spot"] == (2 in (graph.nodes[u]["index"], graph.nodes[v]["index"]))
        for u, v, d in graph.edges(data=True)
    )
    search = search_trios(decisions, exclude=nx.Graph([("c0", "c1")]))
    assert all(not {0, 1} <= set(r.indices) for r in search)
    assert len(search) == 20 - 4
    assert not search.graph.has_edge("c2", "c3") and search.graph.degree("c2") == 0
    for result in search:
        if 2 in result.indices:
            assert "blind_spot" in result.failures
    assert search.failure_counts()["blind_spot"] >= 6


def test_search_trios_exact_and_vectorised_agree(correlated_pool):
    decisions, _ = correlated_pool(6, n_items=600, n_classifiers=7)
    exact = search_trios(decisions, exact=True)
    fast = search_trios(decisions, exact=False)
    assert exact.exact and not fast.exact
    assert [r.indices for r in exact] == [r.indices for r in fast]
    for a, b in zip(exact, fast):
        assert set(a.failures) - {"empty_variety"} == set(b.failures)
        assert a.score == b.score or (np.isnan(a.score) and np.isnan(b.score))
        if a.estimate is not None and b.estimate is not None:
            assert np.allclose([float(v) for v in a.estimate.values()], b.estimate.values())


def test_search_trios_partners_cap(correlated_pool):
    decisions, _ = correlated_pool(7, n_items=500, n_classifiers=8)
    capped = search_trios(decisions, partners=2)
    assert max(r.n_partners for r in capped) == 2
    assert max(r.n_partners for r in search_trios(decisions)) == 5


@pytest.mark.parametrize("seed", [0, 1])
def test_cliques_equal_networkx_enumeration(seed):
    graph = nx.gnp_random_graph(14, 0.6, seed=seed)
    nx.set_node_attributes(graph, {node: node for node in graph}, "index")
    for size in (3, 4):
        expected = sorted(sorted(c) for c in nx.enumerate_all_cliques(graph) if len(c) == size)
        assert _cliques(graph, size).tolist() == expected


# -- the scores against the library's evaluators ---------------------------------------------------
def test_distance_many_equals_containing_distance(correlated_pool):
    rng = np.random.default_rng(8)
    decisions, _ = correlated_pool(8, n_items=200, n_classifiers=4)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    freq_b = decisions.mean(axis=0)
    p = rng.uniform(-0.2, 1.2, 50)
    acc = rng.uniform(-0.2, 1.2, (50, 4, 2))
    fast = _distance_many(p, acc[:, :, 0], acc[:, :, 1], np.tile(freq_b, (50, 1)))
    for k in range(50):
        estimate = Estimate(
            {"a": p[k], "b": 1 - p[k]},
            {c: {"a": acc[k, i, 0], "b": acc[k, i, 1]} for i, c in enumerate(sketch.classifiers)},
        )
        assert fast[k] == pytest.approx(containing_distance(estimate, sketch).distance, rel=1e-6, abs=1e-9)


def test_extended_distance_is_the_containing_distance_of_the_combined_estimate(correlated_pool):
    decisions, _ = correlated_pool(9, n_items=2000, n_classifiers=4)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    search = search_trios(sketch, criterion="extended_distance")
    combined = evaluate_algebraic(sketch)
    assert all(len(t.alarm_kinds() & set(REJECT)) == 0 for t in combined.trios)
    expected = containing_distance(combined.point, sketch).distance
    assert expected > 1e-4  # a correlated ensemble: off the variety
    for result in search.survivors():
        assert result.n_partners == 1
        assert result.score == pytest.approx(expected, rel=1e-6)


def test_disagreement_is_the_largest_gap_to_the_other_trios(correlated_pool):
    decisions, _ = correlated_pool(9, n_items=2000, n_classifiers=4)
    search = search_trios(decisions, labels=["a", "b"])
    evaluations = {r.indices: r.evaluation for r in search}
    for result in search.survivors():
        ref = result.estimate
        gaps = []
        for other, evaluation in evaluations.items():
            if other == result.indices:
                continue
            shared = [c for c in evaluation.classifiers if c in result.classifiers]
            best = None
            for point in evaluation.points:
                diffs = [abs(float(point.prevalence["a"]) - float(ref.prevalence["a"]))]
                diffs += [
                    abs(float(point.accuracy[c][label]) - float(ref.accuracy[c][label]))
                    for c in shared
                    for label in "ab"
                ]
                if best is None or sum(diffs) < sum(best):
                    best = diffs
            gaps.append(max(best))
        assert result.score == pytest.approx(max(gaps), rel=1e-9)


# -- counts, subsamples, profiles, errors -------------------------------------------------------------
def test_trio_counts_equal_marginal_sketches(correlated_pool):
    decisions, truth = correlated_pool(10, n_items=250, n_classifiers=5)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"], truth=truth)
    trios = list(itertools.permutations(range(5), 3))[:12]
    counts = trio_counts(sketch, trios)
    for trio, row in zip(trios, counts):
        assert row.tolist() == sketch.marginalise(list(trio)).count_vector().tolist()


def test_search_trios_bad_input(correlated_pool):
    decisions, _ = correlated_pool(13, n_items=50, n_classifiers=4)
    with pytest.raises(SpecError, match="criterion"):
        search_trios(decisions, criterion="closest")
    with pytest.raises(SpecError, match="alarm kind"):
        search_trios(decisions, reject=["wrong"])
    with pytest.raises(SpecError, match="unknown classifier"):
        search_trios(decisions, exclude=[("c0", "zz")])
    with pytest.raises(SpecError, match="pairs"):
        search_trios(decisions, exclude=[("c0",)])
    with pytest.raises(SpecError, match="partners"):
        search_trios(decisions, partners=0)
    with pytest.raises(SpecError, match="at least 3"):
        search_trios(decisions[:, :2])
    with pytest.raises(SpecError, match="R = 3"):
        search_trios([[0, 1, 2], [2, 1, 0]])
    with pytest.raises(SpecError, match="a Sketch has its own names"):
        search_trios(Sketch.from_decisions(decisions), labels=["a", "b"])
    with pytest.raises(SpecError, match="3 distinct"):
        trio_counts(decisions, [(0, 0, 1)])


def test_search_trios_lookup_by_names(correlated_pool):
    decisions, truth = correlated_pool(14, n_items=400, n_classifiers=5)
    search = search_trios(Sketch.from_decisions(decisions, labels=["a", "b"], truth=truth))
    assert search[("c3", "c0", "c1")].indices == (0, 1, 3)
    assert search[(4, 2, 0)] is search[("c0", "c2", "c4")]
    with pytest.raises(KeyError):
        search[("c0", "c1", "c9")]
    truth_point = evaluation_point(
        Sketch.from_decisions(decisions, labels=["a", "b"], truth=truth), structure="independent"
    )
    assert truth_point.prevalence_of()["a"] == Fraction(int((truth == 0).sum()), 400)


@given(st.integers(0, 2**16))
@budget(0.25)
def test_search_trios_rejected_never_ranked(correlated_pool, seed):
    decisions, _ = correlated_pool(seed, n_items=60, n_classifiers=5)
    search = search_trios(decisions)
    assert all((r.rank is None) == r.rejected for r in search)
