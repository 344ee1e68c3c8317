r"""Searching a pool of classifiers for nearly error-independent trios.

From the per-item decisions of a pool of binary classifiers on unlabelled data, every trio
is a candidate evaluation ensemble for the algebraic evaluator
(:func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`). The search

1. builds a **compatibility graph** (networkx): one node per classifier, an edge for every
   pair that may sit in one ensemble. Pairs the caller excludes (e.g. classifiers that share
   input features) get no edge, and neither do pairs whose sample covariance
   ``D_ij = f_{ij,bb} - f_i f_j`` is exactly 0: such a pair is a blind spot of the closed form
   (it leaves the third member's accuracies undefined), so it is pruned before any trio is
   formed. Constant classifiers have ``D_ij = 0`` with everyone and end up isolated;
2. enumerates the trios as the **triangles** of that graph (its 3-cliques), and evaluates
   each one exactly (or, for very large pools, vectorised in floating point);
3. **rejects** the trios whose evaluation raises a failure-mode alarm (by default
   ``blind_spot``, ``complex``, ``outside_unit_cube``, ``empty_variety``: the practical
   failure modes of the streaming-evaluation paper [1]_, section 4; ``irrational`` is
   recorded but does not reject,
   since on real data the discriminant is almost never a rational square);
4. **ranks** the survivors by a score, lowest first (:mod:`evalgebra.search.rank`).

The ranking criterion
---------------------
A trio's own sketch cannot tell a nearly independent trio from a correlated one whose
evaluation is seemingly correct: its estimate lies on its own containing variety exactly, so
the distance that paper (section 5, Figure 3) ranks by is zero up to round-off
(``"own_distance"``). Another sketch can: the survivors are ranked by how much a trio
disagrees with the other trios of each 4-clique holding it (``"disagreement"``, the default)
or by the distance of their combined estimate from the 4-classifier containing variety
(``"extended_distance"``). :mod:`evalgebra.search.rank` computes both, and says why
disagreement is the default (experiment e01).

Examples
--------
Five classifiers that make independent errors on 512 items (their decisions simulated
exactly from a rational point), and a sixth that copies the first one's decisions. Every
trio survives the failure modes (even those holding the copy and its original), but the
trios holding both disagree with their neighbours and are ranked last:

>>> import numpy as np
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import labelled_test
>>> from evalgebra.spec import EnsembleSpec
>>> point = EvaluationPoint.from_values(EnsembleSpec(5, 2), {"a": "1/4"}, accuracy={
...     0: {"a": "3/4", "b": "1/2"}, 1: {"a": "3/4", "b": "3/4"}, 2: {"a": "1/2", "b": "3/4"},
...     3: {"a": 1, "b": "3/4"}, 4: {"a": "3/4", "b": 1}})
>>> decisions = labelled_test(point, 512).decisions
>>> pool = np.hstack([decisions, decisions[:, :1]])  # c5 answers exactly as c0 does
>>> result = search_trios(pool, labels=["a", "b"])
>>> len(result), len(result.survivors())
(20, 20)
>>> best = result.best(1)[0]
>>> best.classifiers, best.estimate.prevalence["a"], round(best.score, 12)
(('c0', 'c1', 'c2'), Fraction(1, 4), 0.0)
>>> [(r.classifiers, r.score) for r in result.survivors()[-2:]]
[(('c0', 'c3', 'c5'), 0.5), (('c0', 'c4', 'c5'), 0.5)]

Notes
-----
Code names and the math: ``counts`` of a trio are ``n_{r_i r_j r_k}`` in the pattern order
``aaa .. bbb`` (computed from the pool's first, second and third moments ``sum_q x_{q,i}``,
``sum_q x_{q,i} x_{q,j}``, ``sum_q x_{q,i} x_{q,j} x_{q,k}`` with ``x = 1`` for the second
label, by inclusion-exclusion, exactly); the edge attribute ``covariance`` is
``Q^2 D_ij = Q n_{ij,bb} - n_i n_j`` (an integer, so the blind-spot test is exact);
``score`` is the criterion's value for the trio's decoded point (``Evaluation.chosen``), from
:func:`~evalgebra.search.rank.trio_scores` (its Notes map the partners' arrays).

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
       data - binary classification": section 4
       (failure modes, Figure 2), section 5 (containing variety, Figure 3), supplement
       section 9 (the evaluations of the least-distance ensembles).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.independent.closed_form import exact_solution
from evalgebra.search.rank import CRITERIA, trio_scores
from evalgebra.search.rank import containing_distances as _distance_many  # noqa: F401 - importable here
from evalgebra.search.rank import trio_points as _points
from evalgebra.search.result import TrioResult, TrioSearch

__all__ = [
    "REJECT",
    "CRITERIA",
    "compatibility_graph",
    "graph_cliques",
    "trio_counts",
    "search_trios",
]

#: Alarm kinds that reject a trio by default: the practical failure modes of the
#: streaming-evaluation paper, section 4.
REJECT = ("blind_spot", "complex", "outside_unit_cube", "empty_variety")

#: Above this many candidate trios, ``exact=None`` evaluates in floating point.
_EXACT_LIMIT = 20_000
#: Items x trios per block of the triple-moment computation.
_BLOCK = 1 << 22


# -- the pool ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Pool:
    """The pooled, unlabelled moments of a pool sketch: bits of each distinct pattern and weights."""

    classifiers: tuple[str, ...]
    labels: tuple[str, ...]
    bits: np.ndarray  # distinct patterns x classifiers, 1 = second label
    weights: np.ndarray  # count of each distinct pattern
    q: int
    singles: np.ndarray  # int64: items on which classifier i answered the second label
    pairs: np.ndarray  # int64: items on which both answered it

    @property
    def n(self) -> int:
        return len(self.classifiers)


def _as_sketch(pool: Any, labels: Sequence[str] | None, classifiers: Sequence[str] | None) -> Sketch:
    if isinstance(pool, Sketch):
        if labels is not None or classifiers is not None:
            raise SpecError(
                "labels and classifiers name the columns of decisions; a Sketch has its own names"
            )
        return pool
    return Sketch.from_decisions(pool, labels=labels, classifiers=classifiers)


def _pool(sketch: Sketch) -> _Pool:
    if sketch.n_labels != 2:
        raise SpecError(
            f"the trio search is for binary classifiers (R = 2); this pool has R = {sketch.n_labels}"
        )
    if sketch.n_classifiers < 3:
        raise SpecError(f"a trio search needs at least 3 classifiers; this pool has {sketch.n_classifiers}")
    _, _, code, count = sketch.table()
    codes, inverse = np.unique(code, return_inverse=True)
    weights = np.bincount(inverse, weights=count).astype(np.int64)
    bits = decode(codes, sketch.n_classifiers, 2).astype(np.float64)
    w = weights.astype(np.float64)
    singles = np.rint(w @ bits).astype(np.int64)
    if sketch.Q >= 2**53:
        raise SketchError(
            f"a test of {sketch.Q} items is too large for exact float64 moments (at most 2**53 - 1)"
        )
    pairs = np.rint(bits.T @ (bits * w[:, None])).astype(np.int64)  # exact: integer sums below 2**53
    return _Pool(
        tuple(sketch.classifiers), tuple(sketch.labels), bits, weights, int(weights.sum()), singles, pairs
    )


def _exclusions(exclude: Any, names: Sequence[str]) -> set[frozenset[int]]:
    if exclude is None:
        return set()
    pairs = exclude.edges() if isinstance(exclude, nx.Graph) else exclude
    index = {name: k for k, name in enumerate(names)}
    out = set()
    for pair in pairs:
        try:
            u, v = pair
        except (TypeError, ValueError):
            raise SpecError(f"exclude holds pairs of classifiers (names or indices), got {pair!r}") from None
        ends = []
        for end in (u, v):
            if isinstance(end, (int, np.integer)) and not isinstance(end, bool) and 0 <= end < len(names):
                ends.append(int(end))
            elif end in index:
                ends.append(index[end])
            else:
                raise SpecError(f"exclude names an unknown classifier {end!r}; the pool has {list(names)}")
        if ends[0] != ends[1]:
            out.add(frozenset(ends))
    return out


def compatibility_graph(
    pool: Any,
    exclude: Any = None,
    *,
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
) -> nx.Graph:
    r"""The graph whose triangles are the candidate trios of a pool.

    Parameters
    ----------
    pool : Sketch or array-like
        The pool's sketch, or its ``items x classifiers`` decisions (label names or indices).
    exclude : iterable of pairs or networkx.Graph, optional
        Pairs of classifiers (names or indices) that may not share an ensemble, e.g. those
        trained on overlapping features; a graph excludes its edges.
    labels, classifiers : sequence of str, optional
        Passed to :meth:`Sketch.from_decisions` when ``pool`` is an array.

    Returns
    -------
    networkx.Graph
        Nodes are the classifier names (attribute ``index``); every pair not excluded is an
        edge whose attribute ``covariance`` is ``Q^2 D_ij`` (an exact integer) and
        ``blind_spot`` is ``D_ij == 0``. The search keeps only the edges that are not blind
        spots; :func:`search_trios` documents why.

    Examples
    --------
    >>> g = compatibility_graph([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0]], exclude=[("c0", "c2")])
    >>> sorted(g.edges(data="covariance"))
    [('c0', 'c1', 2), ('c1', 'c2', -2)]
    """
    return _graph(_pool(_as_sketch(pool, labels, classifiers)), exclude)


def _graph(pool: _Pool, exclude: Any) -> nx.Graph:
    excluded = _exclusions(exclude, pool.classifiers)
    graph = nx.Graph()
    graph.add_nodes_from((name, {"index": k}) for k, name in enumerate(pool.classifiers))
    for i, j in itertools.combinations(range(pool.n), 2):
        if frozenset((i, j)) in excluded:
            continue
        covariance = pool.q * int(pool.pairs[i, j]) - int(pool.singles[i]) * int(pool.singles[j])
        graph.add_edge(
            pool.classifiers[i], pool.classifiers[j], covariance=covariance, blind_spot=covariance == 0
        )
    return graph


def graph_cliques(graph: nx.Graph, size: int) -> np.ndarray:
    """All cliques of ``size >= 2`` nodes, as sorted rows of node indices, in lexicographic order.

    The graph's edges are extended, one node at a time, by the common neighbours of a
    clique's members that follow its last member, read from the graph's adjacency matrix:
    vectorised, so the 4-cliques of a dense pool of 60 classifiers take milliseconds where a
    clique enumeration in Python takes seconds.
    """
    order = sorted(graph.nodes, key=lambda node: graph.nodes[node]["index"])
    adjacency = nx.to_numpy_array(graph, nodelist=order, dtype=bool, weight=None)
    n = len(order)
    rows, cols = np.nonzero(np.triu(adjacency, 1))
    cliques = np.stack([rows, cols], axis=1).astype(np.int64)
    after = np.arange(n)
    while cliques.shape[1] < size and len(cliques):
        grown = []
        step = max(1, (1 << 22) // max(1, n))
        for start in range(0, len(cliques), step):
            block = cliques[start : start + step]
            common = adjacency[block[:, 0]]
            for c in range(1, block.shape[1]):
                common = common & adjacency[block[:, c]]
            common &= after[None, :] > block[:, -1:]
            rows, cols = np.nonzero(common)
            grown.append(np.concatenate([block[rows], cols[:, None]], axis=1))
        cliques = np.concatenate(grown) if grown else np.zeros((0, cliques.shape[1] + 1), dtype=np.int64)
    if cliques.shape[1] != size:
        return np.zeros((0, size), dtype=np.int64)
    return cliques[np.lexsort(cliques.T[::-1])] if len(cliques) else cliques


def _counts(pool: _Pool, trios: np.ndarray) -> np.ndarray:
    """The 8 pattern counts (``aaa .. bbb``) of each trio, exactly, from the pool's moments."""
    out = np.zeros((len(trios), 8), dtype=np.int64)
    if not len(trios):
        return out
    triple = np.empty(len(trios), dtype=np.int64)
    w = pool.weights.astype(np.float64)
    step = max(1, _BLOCK // max(1, len(w)))
    for start in range(0, len(trios), step):
        block = trios[start : start + step]
        product = pool.bits[:, block[:, 0]] * pool.bits[:, block[:, 1]] * pool.bits[:, block[:, 2]]
        triple[start : start + step] = np.rint(w @ product).astype(np.int64)
    i, j, k = trios.T
    moments = {
        (): np.full(len(trios), pool.q, dtype=np.int64),
        (0,): pool.singles[i],
        (1,): pool.singles[j],
        (2,): pool.singles[k],
        (0, 1): pool.pairs[i, j],
        (0, 2): pool.pairs[i, k],
        (1, 2): pool.pairs[j, k],
        (0, 1, 2): triple,
    }
    # count(r) = sum over items of prod_c (x_c if r_c else 1 - x_c): expand the (1 - x_c)
    for p, pattern in enumerate(itertools.product((0, 1), repeat=3)):
        ones = tuple(c for c in range(3) if pattern[c])
        zeros = [c for c in range(3) if not pattern[c]]
        for size in range(len(zeros) + 1):
            for extra in itertools.combinations(zeros, size):
                out[:, p] += (-1) ** size * moments[tuple(sorted(ones + extra))]
    return out


def trio_counts(
    pool: Any,
    trios: Iterable[Sequence[str | int]],
    *,
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
) -> np.ndarray:
    r"""The 8 pattern counts of each trio of a pool, exactly, without marginalising the sketch.

    Parameters
    ----------
    pool : Sketch or array-like
        As in :func:`compatibility_graph`.
    trios : iterable of 3 classifiers (names or indices)

    Returns
    -------
    ndarray of int64, shape (k, 8)
        Pattern order ``aaa, aab, ..., bbb`` with the trio's members in the given order.

    Examples
    --------
    >>> trio_counts([[0, 0, 1, 1], [1, 1, 1, 0], [0, 1, 0, 0]], [(0, 1, 2), ("c3", "c0", "c1")]).tolist()
    [[0, 1, 1, 0, 0, 0, 0, 1], [0, 1, 0, 1, 1, 0, 0, 0]]
    """
    data = _pool(_as_sketch(pool, labels, classifiers))
    index = {name: k for k, name in enumerate(data.classifiers)}
    rows = []
    for trio in trios:
        row = [index[c] if c in index else c for c in trio]
        if (
            len(row) != 3
            or len(set(row)) != 3
            or not all(isinstance(c, (int, np.integer)) and 0 <= c < data.n for c in row)
        ):
            raise SpecError(f"a trio is 3 distinct classifiers of the pool (names or indices), got {trio!r}")
        rows.append([int(c) for c in row])
    return _counts(data, np.array(rows, dtype=np.int64).reshape(-1, 3))


# -- scores (computed in evalgebra.search.rank) -----------------------------------------
def _scores(
    pool: _Pool,
    trios: np.ndarray,
    points: np.ndarray,
    chosen: np.ndarray,
    survive: np.ndarray,
    criterion: str,
    graph: nx.Graph,
    partners: int | None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~evalgebra.search.rank.trio_scores` of a pool: partners from the 4-cliques of ``graph``."""
    needs_quads = criterion != "own_distance" and (survive & (chosen >= 0)).any()
    quads = graph_cliques(graph, 4) if needs_quads else np.zeros((0, 4), dtype=np.int64)
    return trio_scores(trios, points, chosen, survive, criterion, pool.singles / pool.q, quads, partners)


# -- the search ----------------------------------------------------------------------------------
def search_trios(
    pool: Any,
    *,
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    exclude: Any = None,
    reject: Sequence[str] = REJECT,
    criterion: str | None = "disagreement",
    partners: int | None = None,
    exact: bool | None = None,
) -> TrioSearch:
    r"""Enumerate, reject and rank the trios of a pool of binary classifiers.

    Parameters
    ----------
    pool : Sketch or array-like
        The pool's sketch (truth and populations are ignored: the search uses the pooled,
        unlabelled counts), or its ``items x classifiers`` decisions.
    labels, classifiers : sequence of str, optional
        Passed to :meth:`Sketch.from_decisions` when ``pool`` is an array.
    exclude : iterable of pairs or networkx.Graph, optional
        Pairs that may not share a trio (see :func:`compatibility_graph`).
    reject : sequence of str
        Alarm kinds that reject a trio (default :data:`REJECT`; add ``"irrational"`` to
        reject every trio that provably was not sample-independent).
    criterion : {"disagreement", "extended_distance", "own_distance"} or None
        How survivors are ranked (:mod:`evalgebra.search.rank`: why
        ``"disagreement"`` is the default);
        ``None`` skips ranking.
    partners : int, optional
        Use at most this many partners per trio (the first in pool order).
    exact : bool, optional
        Check every trio's failure modes exactly (:func:`exact_solution`) or vectorised in
        floating point (:func:`evaluate_batch`: no ``irrational`` or ``empty_variety``
        checks). Default: exact up to 20,000 candidate trios. Scores are always computed
        in floating point, from :func:`evaluate_batch`.

    Returns
    -------
    TrioSearch
        Every candidate trio (a triangle of the compatibility graph before blind-spot
        pruning): survivors ranked, then the rejected ones.

    Raises
    ------
    SpecError
        Not binary, fewer than 3 classifiers, an unknown criterion or alarm kind, a bad
        exclusion.
    SketchError
        Decisions that make no valid sketch.
    """
    from evalgebra.results import ALARM_KINDS

    if criterion is not None and criterion not in CRITERIA:
        raise SpecError(f"unknown criterion {criterion!r}; known: {', '.join(CRITERIA)} (or None)")
    unknown = [k for k in reject if k not in ALARM_KINDS]
    if unknown:
        raise SpecError(f"unknown alarm kind(s) {unknown} in reject; known: {sorted(ALARM_KINDS)}")
    if partners is not None and partners < 1:
        raise SpecError(f"partners must be a positive number or None, got {partners!r}")
    sketch = _as_sketch(pool, labels, classifiers)
    data = _pool(sketch)
    full = _graph(data, exclude)
    graph = nx.Graph()
    graph.add_nodes_from(full.nodes(data=True))
    graph.add_edges_from(
        (u, v, {"covariance": d["covariance"]}) for u, v, d in full.edges(data=True) if not d["blind_spot"]
    )
    trios = graph_cliques(full, 3)  # every candidate; those with a D_ij = 0 pair are blind spots
    if exact is None:
        exact = len(trios) <= _EXACT_LIMIT
    counts = _counts(data, trios)
    with np.errstate(all="ignore"):
        many = evaluate_batch(counts)
    if exact:
        solutions = [exact_solution(row) for row in counts.tolist()]
        kinds = [sol.kinds for sol in solutions]
        chosen = np.array([-1 if sol.chosen is None else sol.chosen for sol in solutions], dtype=np.int64)
    else:
        flags = [many[k] for k in ("blind_spot", "complex", "outside_unit_cube")]
        kinds = [
            frozenset(k for k, f in zip(("blind_spot", "complex", "outside_unit_cube"), flags) if f[t])
            for t in range(len(trios))
        ]
        chosen = np.asarray(many["chosen"], dtype=np.int64)
    reject_set = set(reject)
    failures = [tuple(sorted(k & reject_set)) for k in kinds]
    survive = np.array([not f for f in failures], dtype=bool)
    score = np.full(len(trios), np.nan)
    used = np.zeros(len(trios), dtype=np.int64)
    if criterion is not None and len(trios):
        with np.errstate(all="ignore"):
            score, used = _scores(data, trios, _points(many), chosen, survive, criterion, graph, partners)
    live = np.flatnonzero(survive)
    unscored = np.isnan(score[live])
    # lexsort sorts by its last key first: unscored last, then by score, then in pool order
    order = list(live[np.lexsort((live, np.where(unscored, 0.0, score[live]), unscored))])
    order += list(np.flatnonzero(~survive))
    names = data.classifiers
    results = []
    for position, t in enumerate(order):
        row = trios[t]
        results.append(
            TrioResult(
                tuple(names[c] for c in row),
                tuple(int(c) for c in row),  # type: ignore[arg-type]
                tuple(int(c) for c in counts[t]),
                data.labels,
                frozenset(kinds[t]),
                failures[t],
                float(score[t]) if survive[t] else float("nan"),
                int(used[t]),
                position if survive[t] else None,
                bool(exact),
            )
        )
    return TrioSearch(
        names, data.labels, data.q, graph, tuple(results), criterion, tuple(reject), bool(exact)
    )
