r"""Correlation structures: which subsets of classifiers may have correlated errors.

A structure is a tuple of subsets of classifier positions, written as
:class:`~evalgebra.spec.EnsembleSpec` writes it (sorted by size, then lexicographically).
This module enumerates the structures of a family (graphs, sparse ones, simplicial
complexes, hypergraphs, named ones), tells them apart up to relabelling the classifiers,
and names them for tables and figures.

Examples
--------
>>> structures(3, "graphs")
[(), ((0, 1),), ((0, 1), (0, 2)), ((0, 1), (0, 2), (1, 2))]
>>> isomorphic(3, [(0, 1)], [(1, 2)])
True
"""

from __future__ import annotations

import itertools
from typing import Any

import networkx as nx

from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec, Structure

__all__ = ["FAMILIES", "structures", "canonical_structure", "isomorphic", "structure_text", "structure_name"]

#: Structure families :func:`structures` enumerates (see its docstring).
FAMILIES = ("graphs", "sparse", "complexes", "hypergraphs", "named")

_MAX_ATLAS_NODES = 7  # networkx's graph atlas lists every graph on up to 7 nodes


def _subsets(n: int) -> list[tuple[int, ...]]:
    return [s for size in range(2, n + 1) for s in itertools.combinations(range(n), size)]


def _sorted_structure(subsets: Any) -> Structure:
    return tuple(sorted({tuple(sorted(s)) for s in subsets}, key=lambda s: (len(s), s)))


def canonical_structure(n: int, structure: Any) -> Structure:
    r"""The canonical representative of a structure's isomorphism class.

    The smallest relabelling (over all ``N!`` permutations of the classifiers) of the
    structure written as an :class:`EnsembleSpec` writes it: subsets sorted by size,
    then lexicographically, the tuples compared lexicographically. Two structures are
    isomorphic exactly when their canonical forms are equal.

    Examples
    --------
    >>> canonical_structure(4, [(2, 3), (1, 2)])
    ((0, 1), (0, 2))
    """
    base = EnsembleSpec(n, 2, structure).structure
    best: Structure | None = None
    for perm in itertools.permutations(range(n)):
        image = _sorted_structure(tuple(perm[i] for i in s) for s in base)
        if best is None or image < best:
            best = image
    assert best is not None
    return best


def _incidence_graph(n: int, structure: Structure) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from((("c", i) for i in range(n)), kind="classifier")
    for subset in structure:
        graph.add_node(("s", subset), kind="subset")
        graph.add_edges_from((("s", subset), ("c", i)) for i in subset)
    return graph


def isomorphic(n: int, first: Any, second: Any) -> bool:
    """Whether two structures on ``n`` classifiers differ only by relabelling (networkx).

    >>> isomorphic(3, [(0, 1)], [(1, 2)]), isomorphic(3, [(0, 1)], [(0, 1, 2)])
    (True, False)
    """
    a = _incidence_graph(n, EnsembleSpec(n, 2, first).structure)
    b = _incidence_graph(n, EnsembleSpec(n, 2, second).structure)
    return nx.is_isomorphic(a, b, node_match=lambda x, y: x["kind"] == y["kind"])


def _atlas_graphs(n: int) -> list[nx.Graph]:
    if n > _MAX_ATLAS_NODES:
        raise SpecError(f"graphs: networkx's atlas lists graphs on up to {_MAX_ATLAS_NODES} nodes, got N = {n}")
    return [g for g in nx.graph_atlas_g() if g.number_of_nodes() == n]


def _downward_closed(structure: Structure) -> bool:
    members = set(structure)
    return all(
        sub in members
        for subset in structure
        for size in range(2, len(subset))
        for sub in itertools.combinations(subset, size)
    )


def _named(n: int) -> list[Structure]:
    graphs = [nx.empty_graph(n), nx.path_graph(n), nx.star_graph(n - 1), nx.complete_graph(n)]
    if n >= 3:
        graphs.append(nx.cycle_graph(n))
    found = [_sorted_structure(g.edges()) for g in graphs]
    if n >= 3:
        found.append(((0, 1, 2),))
        found.append(((0, 1), (0, 2), (1, 2), (0, 1, 2)))
        found.append(tuple(itertools.combinations(range(n), 3)))
        found.append(EnsembleSpec(n, 2, "complete").structure)
    if n >= 5:
        found.append(((0, 1, 2), (2, 3, 4)))
    return found


def structures(n: int, family: str = "graphs") -> list[Structure]:
    r"""Correlation structures on ``n`` classifiers, one per isomorphism class.

    Parameters
    ----------
    n : int
        Number of classifiers ``N``.
    family : {"graphs", "sparse", "complexes", "hypergraphs", "named"}
        ``"graphs"``: every pair structure (simple graph on ``N`` labelled vertices, taken
        from networkx's graph atlas, ``N <= 7``); ``"sparse"``: the graphs with at most
        3 edges; ``"complexes"``: every downward-closed structure (with a subset, all its
        subsets of size >= 2; ``N <= 4``); ``"hypergraphs"``: every set of subsets of
        size >= 2 (``N <= 4``); ``"named"``: independent, path, star, cycle and complete
        graphs, one triple, a triangle with its triple, all triples, the complete
        structure and (``N >= 5``) two triples sharing a classifier.

    Returns
    -------
    list of Structure
        Canonical forms (:func:`canonical_structure`), sorted by number of subsets and
        then lexicographically.

    Examples
    --------
    >>> len(structures(4, "graphs")), len(structures(4, "complexes")), len(structures(3, "hypergraphs"))
    (11, 20, 8)
    """
    if n < 2:
        raise SpecError(f"structures need at least 2 classifiers, got {n}")
    if family in ("graphs", "sparse"):
        candidates = [_sorted_structure(g.edges()) for g in _atlas_graphs(n)]
        if family == "sparse":
            candidates = [c for c in candidates if len(c) <= 3]
    elif family in ("complexes", "hypergraphs"):
        if n > 4:
            raise SpecError(f"{family}: enumerated for N <= 4 (2^(2^N - N - 1) subsets), got N = {n}")
        subsets = _subsets(n)
        candidates = [
            tuple(s for bit, s in enumerate(subsets) if mask >> bit & 1)
            for mask in range(2 ** len(subsets))
        ]
    elif family == "named":
        candidates = _named(n)
    else:
        raise SpecError(f"unknown structure family {family!r}; families are {FAMILIES}")
    found = {canonical_structure(n, c) for c in candidates}
    if family == "complexes":
        found = {c for c in found if _downward_closed(c)}
    return sorted(found, key=lambda s: (len(s), s))


def structure_text(structure: Structure) -> str:
    """Compact text of a structure: subsets as digit strings, ``-`` when independent.

    >>> structure_text(((0, 1), (1, 2), (0, 1, 2))), structure_text(())
    ('01 12 012', '-')
    """
    if not structure:
        return "-"
    joiner = "" if all(i < 10 for s in structure for i in s) else "."
    return " ".join(joiner.join(str(i) for i in s) for s in structure)


def structure_name(n: int, structure: Structure) -> str:
    """A short name: ``independent``, ``complete``, or a graph's Atlas of Graphs index.

    Pair structures are named ``G<k>`` after their number in networkx's graph atlas
    (Read and Wilson, *An Atlas of Graphs*), with the common families spelled out;
    structures with larger subsets are named by their size profile (``3x2+1x3``: three
    pairs and one triple).

    >>> structure_name(4, ((0, 1), (1, 2), (2, 3))), structure_name(3, ((0, 1, 2),))
    ('path P4', '1x3')
    """
    spec = EnsembleSpec(n, 2, structure)
    if spec.is_independent:
        return "independent"
    if spec.is_complete:
        return "complete"
    if all(len(s) == 2 for s in structure):
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(structure)
        families = [("complete graph K", nx.complete_graph(n)), ("path P", nx.path_graph(n)),
                    ("star S", nx.star_graph(n - 1)), ("cycle C", nx.cycle_graph(n) if n >= 3 else None)]
        for label, model in families:
            if model is not None and nx.is_isomorphic(graph, model):
                return f"{label}{n}"
        if n <= _MAX_ATLAS_NODES:
            for index, candidate in enumerate(nx.graph_atlas_g()):
                if candidate.number_of_nodes() == n and nx.is_isomorphic(graph, candidate):
                    return f"G{index}"
    sizes: dict[int, int] = {}
    for s in structure:
        sizes[len(s)] = sizes.get(len(s), 0) + 1
    return "+".join(f"{count}x{size}" for size, count in sorted(sizes.items()))
