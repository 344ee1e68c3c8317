r"""Correlation structures: which subsets of classifiers may have correlated errors.

A structure (:data:`Structure`) is a tuple of subsets of classifier positions, each subset
sorted and of size at least 2, ordered by size and then lexicographically: the form that
:class:`~evalgebra.spec.EnsembleSpec` keeps. This module is the one place that

* reads a structure (:func:`parse_structure`: text such as ``0-1,2-3`` or ``c0-c1``,
  ``independent``, ``complete``, Python subsets such as ``[(0, 1)]``, an undirected networkx
  graph), refusing a mistyped one with the correction (:func:`read_structure_text`);
* writes it: :func:`structure_text` (``0-1,2-3``, ``independent``: the text the command line
  and JSON print) and :func:`structure_code` (``01 23``, ``-``: the compact code of the atlas
  tables, which :func:`parse_structure` reads back with ``code=True``);
* relabels it: :func:`canonical_structure` (one representative per isomorphism class) and
  :func:`isomorphism` (the renaming of the classifiers that maps one structure onto another);
* enumerates a family up to isomorphism (:func:`enumerate_structures`) and names its members
  for tables and figures (:func:`structure_name`).

No symbols here: the algebra and the runtime both import it.

Examples
--------
>>> parse_structure("0-1,2-3", ("c0", "c1", "c2", "c3"))
((0, 1), (2, 3))
>>> structure_text(((0, 1), (1, 2, 3))), structure_code(((0, 1), (1, 2, 3)))
('0-1,1-2-3', '01 123')
>>> isomorphism(((2, 3),), ((0, 1),), 4)
(2, 3, 0, 1)
>>> isomorphism(((0, 1), (1, 2)), ((0, 1), (2, 3)), 4) is None
True
>>> enumerate_structures(3, "graphs")
[(), ((0, 1),), ((0, 1), (0, 2)), ((0, 1), (0, 2), (1, 2))]
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

from evalgebra.errors import SpecError

__all__ = [
    "Structure",
    "FAMILIES",
    "STRUCTURE_SYNTAX",
    "classifier_position",
    "read_structure_text",
    "structure_correction",
    "parse_structure",
    "structure_text",
    "structure_code",
    "canonical_structure",
    "isomorphism",
    "enumerate_structures",
    "structure_name",
]

#: A correlation structure: sorted tuples of classifier indices, each of size >= 2,
#: ordered by size, then lexicographically.
Structure = tuple[tuple[int, ...], ...]

#: Structure families :func:`enumerate_structures` enumerates (see its docstring).
FAMILIES = ("graphs", "sparse", "complexes", "hypergraphs", "named")

#: How a structure is written as text (the end of the messages that refuse a mistyped one).
STRUCTURE_SYNTAX = (
    "a subset is its classifiers (indices or names, at least 2) joined by '-', "
    "and subsets are separated by ',' (e.g. 0-1,2-3)"
)

_MAX_ATLAS_NODES = 7  # networkx's graph atlas lists every graph on up to 7 nodes
_DIGITS = re.compile(r"[0-9]{1,9}")
_CODE = re.compile(r"^(-|[0-9]+(\.[0-9]+)*( +[0-9]+(\.[0-9]+)*)*)$")


# -- reading -------------------------------------------------------------------------------------
def _classifier_names(classifiers: Sequence[str] | int) -> tuple[str, ...]:
    if isinstance(classifiers, int) and not isinstance(classifiers, bool):
        return tuple(f"c{k}" for k in range(classifiers))
    return tuple(str(c) for c in classifiers)


def classifier_position(item: Any, classifiers: Sequence[str]) -> int:
    """The position of a classifier named by ``str`` or by ``int`` index; :class:`SpecError` otherwise.

    >>> classifier_position("y", ("x", "y")), classifier_position(1, ("x", "y"))
    (1, 1)
    """
    if isinstance(item, str):
        try:
            return tuple(classifiers).index(item)
        except ValueError:
            raise SpecError(
                f"structure: unknown classifier {item!r}; classifiers are {list(classifiers)}"
            ) from None
    if isinstance(item, int) and not isinstance(item, bool):
        if 0 <= item < len(classifiers):
            return item
        raise SpecError(f"structure: classifier index {item} out of range 0..{len(classifiers) - 1}")
    raise SpecError(f"structure: classifiers are named by str or int index, got {item!r}")


def read_structure_text(text: str, classifiers: Sequence[str] = (), *, option: str | None = None) -> Any:
    r"""``independent``, ``complete`` or text like ``0-1,1-2`` as lists of members (not yet checked).

    Members are separated by ``-`` and subsets by ``,``; a classifier whose name contains ``-``
    (``gpt-4o``) or is all digits is recognised by its full name first (the longest run of tokens
    that is a name wins), so ``gpt-4o-claude-3`` splits into ``gpt-4o`` and ``claude-3`` when those
    are the names. Only ASCII digits make an index (``'٣'`` and ``'²'`` stay names, which
    :func:`parse_structure` then refuses as unknown). A member left out (``0--2``, ``0-1-``) is
    refused, and so is text that cannot be a structure but looks like one mistyped (``0,1`` or
    ``(0, 1)`` for ``0-1``), with the correction.

    Parameters
    ----------
    text : str
    classifiers : sequence of str
        The classifiers' names (none: every member is an index or an unchecked name).
    option : str, optional
        The command-line option the text came from (``"--structure"``): messages name it and
        give the corrected option; without it they give the corrected ``structure=`` value.

    Returns
    -------
    str or list of list
        ``"independent"``, ``"complete"``, or the subsets' members (``int`` indices, ``str`` names).

    Examples
    --------
    >>> read_structure_text("0-1,1-2"), read_structure_text("0-²")
    ([[0, 1], [1, 2]], [[0, '²']])
    >>> read_structure_text("0,1", option="--structure")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: --structure '0,1': a subset is ...; did you mean --structure 0-1?
    """
    if text in ("independent", "complete"):
        return text
    subject = option or "structure"
    known = set(classifiers)
    subsets: list[list[Any]] = []
    for part in text.split(","):
        tokens = [t.strip() for t in part.split("-")]
        members: list[Any] = []
        start = 0
        while start < len(tokens):
            stop = next(
                (j for j in range(len(tokens), start, -1) if "-".join(tokens[start:j]) in known), None
            )
            if stop is not None:
                members.append("-".join(tokens[start:stop]))
                start = stop
                continue
            token = tokens[start]
            if not token:  # "0--1", "0-1-": a member left out, not to be guessed
                where = f"in {part.strip()!r}" if part.strip() else "(an empty subset between commas)"
                raise SpecError(
                    f"{subject} {text!r}: an empty member {where}; write subsets as "
                    "0-1 or names joined by '-', separated by ',' (e.g. 0-1,2-3)"
                )
            members.append(int(token) if _DIGITS.fullmatch(token) else token)
            start += 1
        subsets.append(members)
    corrected = structure_correction(text, subsets, classifiers)  # "0,1", "(0, 1)": probably meant 0-1
    if corrected is not None:
        meant = f"{option} {corrected}" if option else f"structure={corrected!r}"
        raise SpecError(f"{subject} {text!r}: {STRUCTURE_SYNTAX}; did you mean {meant}?")
    return subsets


def structure_correction(
    text: str, subsets: Sequence[Sequence[Any]], classifiers: Sequence[str]
) -> str | None:
    r"""The structure text that a mistyped one most likely meant, or ``None``.

    Only text that cannot be read as a structure gets a correction, so nothing valid is
    reinterpreted: every subset one classifier (``"0,1"``: the separator of subsets between
    the members of one) or Python syntax (``"(0, 1)"``, ``"[(0, 1), (2, 3)]"``).

    Parameters
    ----------
    text : str
        The structure as written.
    subsets : sequence of sequences
        ``text`` split into subsets and members (indices as int, names as str).
    classifiers : sequence of str
        The classifiers' names.

    Examples
    --------
    >>> names = ("c0", "c1", "c2")
    >>> structure_correction("0,1", [[0], [1]], names)
    '0-1'
    >>> structure_correction("(0, 1)", [["(0"], ["1)"]], names)
    '0-1'
    >>> structure_correction("[(0, 1), ('c1', 'c2')]", [["[(0"], ["1)"], ["('c1'"], ["'c2')]"]], names)
    '0-1,c1-c2'
    >>> structure_correction("0-1", [[0, 1]], names) is None
    True
    """
    known = set(classifiers)
    if not any(
        isinstance(m, str) and m not in known and any(c in m for c in "()[]{}")
        for subset in subsets
        for m in subset
    ):
        if len(subsets) >= 2 and all(
            len(subset) == 1 and (subset[0] in known or isinstance(subset[0], int)) for subset in subsets
        ):
            return "-".join(str(subset[0]) for subset in subsets)
        return None
    try:
        literal = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None

    def member(item: Any) -> bool:
        return isinstance(item, str) or (isinstance(item, int) and not isinstance(item, bool))

    if not isinstance(literal, (tuple, list, set)) or not literal:
        return None
    if all(member(item) for item in literal):  # a bare subset
        literal = [literal]
    if not all(isinstance(s, (tuple, list, set)) and s and all(member(m) for m in s) for s in literal):
        return None
    return ",".join("-".join(str(m) for m in subset) for subset in literal)


def parse_structure(
    value: Any, classifiers: Sequence[str] | int, *, text: bool = True, code: bool = False
) -> Structure:
    r"""A structure in any accepted syntax as sorted index tuples (:data:`Structure`).

    Parameters
    ----------
    value : str, iterable of subsets, or networkx graph
        ``"independent"`` (the empty structure), ``"complete"`` (every subset of size >= 2),
        ``"0-1,2-3"`` (indices or names, as on the command line: :func:`read_structure_text`),
        subsets of indices or names (``[(0, 1), ("c2", "c3")]``) or an undirected graph (its
        edges). A bare subset (``(0, 1)``, ``"0,1"``) is refused, not read as one subset: the
        message gives the corrected value (``[(0, 1)]``, ``'0-1'``). Reading it would be a guess
        where it matters: a bare ``(0, 1, 2)`` could mean the triple's joint correlation or
        every pair among them, and ``structure=((0, 1))`` is a bare tuple in Python.
    classifiers : sequence of str, or int
        The classifiers' names, or their number (named ``c0, c1, ...``).
    text : bool
        Read text such as ``"0-1,2-3"``; when false only ``"independent"`` and ``"complete"``
        are accepted as strings (:class:`~evalgebra.spec.EnsembleSpec`'s contract).
    code : bool
        Also read the compact code of :func:`structure_code` (``"01 23"``, ``"-"``).

    Returns
    -------
    tuple of tuple of int

    Raises
    ------
    SpecError
        A structure that names an unknown classifier, repeats one, or cannot be read.

    Examples
    --------
    >>> parse_structure([("c3", "c2"), (0, 1)], ("c0", "c1", "c2", "c3"))
    ((0, 1), (2, 3))
    >>> parse_structure("x-y", ("x", "y", "z")), parse_structure("complete", 3)
    (((0, 1),), ((0, 1), (0, 2), (1, 2), (0, 1, 2)))
    >>> parse_structure("12 013", 4, code=True)
    ((1, 2), (0, 1, 3))
    """
    names = _classifier_names(classifiers)
    if isinstance(value, str) and code and _CODE.match(value.strip()):
        return _from_code(value.strip(), names)
    if isinstance(value, str) and text:
        value = read_structure_text(value, names)
    return _from_value(value, names)


def _from_code(text: str, classifiers: tuple[str, ...]) -> Structure:
    if text == "-":
        return ()
    return _from_value(
        [part.split(".") if "." in part else list(part) for part in text.split()], classifiers, indices=True
    )


def _from_value(value: Any, classifiers: tuple[str, ...], indices: bool = False) -> Structure:
    n = len(classifiers)
    if isinstance(value, str):
        if value == "independent":
            return ()
        if value == "complete":
            return tuple(
                subset for size in range(2, n + 1) for subset in itertools.combinations(range(n), size)
            )
        raise SpecError(
            f"structure: unknown name {value!r}; use 'independent', 'complete', an iterable of "
            "classifier subsets, or a networkx graph"
        )
    edges = getattr(value, "edges", None)
    if edges is not None and callable(edges) and hasattr(value, "nodes"):
        if value.is_directed() if hasattr(value, "is_directed") else False:
            raise SpecError("structure: a directed graph has no meaning here; use an undirected one")
        subsets: list[Any] = [tuple(edge) for edge in value.edges()]
    elif isinstance(value, Iterable):
        subsets = list(value)
    else:
        raise SpecError(f"structure: cannot read {value!r} as a correlation structure")
    result = set()
    for subset in subsets:
        if isinstance(subset, (str, bytes)) or not isinstance(subset, Iterable):
            raise SpecError(_not_a_subset(value, subsets, subset, classifiers))
        positions = [classifier_position(int(item) if indices else item, classifiers) for item in subset]
        if len(set(positions)) != len(positions):
            raise SpecError(f"structure: subset {subset!r} names a classifier twice")
        if len(positions) < 2:
            raise SpecError(
                f"structure: subset {subset!r} has fewer than 2 classifiers; "
                "single classifiers have no error correlation"
            )
        result.add(tuple(sorted(positions)))
    return tuple(sorted(result, key=lambda s: (len(s), s)))


def _not_a_subset(value: Any, entries: list[Any], entry: Any, classifiers: tuple[str, ...]) -> str:
    """The message for an entry that is not a subset; a bare subset (``(0, 1)``) gets the corrected call."""
    given = value if isinstance(value, (list, tuple, set, frozenset)) else entries
    shown = repr(given) if len(repr(given)) <= 80 else repr(given)[:77] + "..."
    message = f"structure: each entry must be a collection of classifiers, got {entry!r} in structure={shown}"
    accepted = (
        "accepted: a list of subsets of >= 2 classifier indices or names such as [(0, 1), (1, 2)], "
        "'independent', 'complete' or an undirected networkx graph"
    )
    members = tuple(entries)
    if len(members) < 2 or not all(isinstance(m, (str, int)) and not isinstance(m, bool) for m in members):
        return f"{message}; {accepted}"
    bare = f"{message}: one subset written bare, while a structure is a list of subsets; {accepted}"
    try:
        indices = [classifier_position(item, classifiers) for item in members]
    except SpecError:
        return bare  # no correction to offer: the subset itself names an unknown classifier
    if len(set(indices)) != len(indices):
        return bare
    hint = f"did you mean structure=[{members!r}]?"
    if len(members) in (3, 4):  # one subset frees only its own joint correlation, not its pairs'
        pairs = list(itertools.combinations(members, 2))
        hint = (
            f"did you mean structure=[{members!r}] (the one subset's joint correlation) or "
            f"structure={pairs!r} (every pair among them)?"
        )
    return f"{bare}; {hint}"


# -- writing -------------------------------------------------------------------------------------
def structure_text(structure: Structure) -> str:
    """The command-line text of a structure (``"0-1,2-3"``; ``"independent"`` when empty).

    The text every message, report and JSON document prints; :func:`parse_structure` reads it back.

    >>> structure_text(((0, 1), (1, 2, 3))), structure_text(())
    ('0-1,1-2-3', 'independent')
    """
    return ",".join("-".join(str(i) for i in subset) for subset in structure) or "independent"


def structure_code(structure: Structure) -> str:
    """The compact code of a structure in the atlas tables: subsets as digit strings, ``-`` when independent.

    With an index of 10 or more, the members are joined by ``.``. ``parse_structure(code, n, code=True)``
    reads it back.

    >>> structure_code(((0, 1), (1, 2), (0, 1, 2))), structure_code(())
    ('01 12 012', '-')
    """
    if not structure:
        return "-"
    joiner = "" if all(i < 10 for s in structure for i in s) else "."
    return " ".join(joiner.join(str(i) for i in s) for s in structure)


# -- relabelling ---------------------------------------------------------------------------------
def _subsets(n: int) -> list[tuple[int, ...]]:
    return [s for size in range(2, n + 1) for s in itertools.combinations(range(n), size)]


def _sorted_structure(subsets: Any) -> Structure:
    return tuple(sorted({tuple(sorted(s)) for s in subsets}, key=lambda s: (len(s), s)))


def canonical_structure(n: int, structure: Any) -> Structure:
    r"""The canonical representative of a structure's isomorphism class.

    The smallest relabelling (over all ``N!`` permutations of the classifiers) of the
    structure written as :func:`parse_structure` writes it: subsets sorted by size,
    then lexicographically, the tuples compared lexicographically. Two structures are
    isomorphic exactly when their canonical forms are equal.

    Examples
    --------
    >>> canonical_structure(4, [(2, 3), (1, 2)])
    ((0, 1), (0, 2))
    """
    base = parse_structure(structure, n)
    best: Structure | None = None
    for perm in itertools.permutations(range(n)):
        image = _sorted_structure(tuple(perm[i] for i in s) for s in base)
        if best is None or image < best:
            best = image
    assert best is not None
    return best


def _incidence(structure: Structure, n: int) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from((("c", i) for i in range(n)), kind="classifier")
    for k, subset in enumerate(structure):
        graph.add_node(("s", k), kind="subset")
        graph.add_edges_from((("s", k), ("c", i)) for i in subset)
    return graph


def isomorphism(
    source: Sequence[Sequence[int]], target: Sequence[Sequence[int]], n_classifiers: int
) -> tuple[int, ...] | None:
    r"""A renaming ``sigma`` of the classifiers with ``{sigma(T) : T in source} = target``, or ``None``.

    ``sigma[i]`` is the target's index of the source's classifier ``i``; ``None`` when the two
    structures are not isomorphic. The hypergraphs are compared as bipartite incidence graphs
    (classifiers on one side, subsets on the other; networkx matches them).

    Examples
    --------
    >>> isomorphism([(0, 1)], [(1, 2)], 3), isomorphism([(0, 1)], [(0, 1, 2)], 3)
    ((1, 2, 0), None)
    """
    source, target = _sorted_structure(source), _sorted_structure(target)
    if source == target:
        return tuple(range(n_classifiers))
    if sorted(map(len, source)) != sorted(map(len, target)):
        return None
    matcher = GraphMatcher(
        _incidence(source, n_classifiers),
        _incidence(target, n_classifiers),
        node_match=lambda a, b: a["kind"] == b["kind"],
    )
    if not matcher.is_isomorphic():
        return None
    sigma = [0] * n_classifiers
    for (kind, i), (_, j) in matcher.mapping.items():
        if kind == "c":
            sigma[i] = j
    return tuple(sigma)


# -- families ------------------------------------------------------------------------------------
def _atlas_graphs(n: int) -> list[nx.Graph]:
    if n > _MAX_ATLAS_NODES:
        raise SpecError(
            f"graphs: networkx's atlas lists graphs on up to {_MAX_ATLAS_NODES} nodes, got N = {n}"
        )
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
        found.append(parse_structure("complete", n))
    if n >= 5:
        found.append(((0, 1, 2), (2, 3, 4)))
    return found


def enumerate_structures(n: int, family: str = "graphs") -> list[Structure]:
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
    >>> [len(enumerate_structures(n, f)) for n, f in [(4, "graphs"), (4, "complexes"), (3, "hypergraphs")]]
    [11, 20, 8]
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
            tuple(s for bit, s in enumerate(subsets) if mask >> bit & 1) for mask in range(2 ** len(subsets))
        ]
    elif family == "named":
        candidates = _named(n)
    else:
        raise SpecError(f"unknown structure family {family!r}; families are {FAMILIES}")
    found = {canonical_structure(n, c) for c in candidates}
    if family == "complexes":
        found = {c for c in found if _downward_closed(c)}
    return sorted(found, key=lambda s: (len(s), s))


def structure_name(n: int, structure: Structure) -> str:
    """A short name: ``independent``, ``complete``, or a graph's Atlas of Graphs index.

    Pair structures are named ``G<k>`` after their number in networkx's graph atlas
    (Read and Wilson, *An Atlas of Graphs*), with the common families spelled out;
    structures with larger subsets are named by their size profile (``3x2+1x3``: three
    pairs and one triple).

    >>> structure_name(4, ((0, 1), (1, 2), (2, 3))), structure_name(3, ((0, 1, 2),))
    ('path P4', '1x3')
    """
    parsed = parse_structure(structure, n)
    if not parsed:
        return "independent"
    if len(parsed) == 2**n - n - 1:
        return "complete"
    if all(len(s) == 2 for s in structure):
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(structure)
        families = [
            ("complete graph K", nx.complete_graph(n)),
            ("path P", nx.path_graph(n)),
            ("star S", nx.star_graph(n - 1)),
            ("cycle C", nx.cycle_graph(n) if n >= 3 else None),
        ]
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
