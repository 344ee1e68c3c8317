r"""Ensemble specifications: who classifies, with which labels, how they may correlate.

An :class:`EnsembleSpec` fixes everything about an evaluation problem that is known
before any data is seen: the classifiers, the labels, the *correlation structure* (the
subsets of classifiers whose errors may correlate; all other error correlations are
zero) and the populations (strata that share the classifiers' behaviour but have their
own label prevalences). It is validated once, at construction, and is immutable.

Examples
--------
>>> spec = EnsembleSpec(3, ["a", "b"])
>>> spec.classifiers, spec.labels, spec.structure
(('c0', 'c1', 'c2'), ('a', 'b'), ())
>>> EnsembleSpec(3, 2, structure="complete").structure
((0, 1), (0, 2), (1, 2), (0, 1, 2))
>>> EnsembleSpec(["x", "y", "z"], ["yes", "no"], structure=[("x", "y")]).structure
((0, 1),)
>>> EnsembleSpec(3, ["pass", "fail"], abstain=["unsure"]).responses
('pass', 'fail', 'unsure')

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification", arXiv:2306.01726: Theorems 1 and 3 (generating sets and
   correlation terms; ``docs/theory.md#correlation-structures-and-populations``).
.. [2] Anonymous authors (under review at TMLR), "Unlocking Unlabeled Data: Ensemble
   Learning with the Hui-Walter Paradigm for Performance Estimation in Online and Static
   Settings" (populations sharing the classifiers' rows; ``docs/theory.md#hui-walter``).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from evalgebra.errors import SpecError
from evalgebra.structures import Structure, classifier_position, parse_structure

__all__ = ["EnsembleSpec", "default_label_names", "DEFAULT_ABSTAIN"]

#: The name of the abstention response when none is named (``missing="abstain"`` of the readers).
DEFAULT_ABSTAIN = "abstain"


def default_label_names(n_labels: int) -> tuple[str, ...]:
    """Names ``a, b, c, ...`` for ``n_labels`` labels (``l0, l1, ...`` beyond 26).

    Examples
    --------
    >>> default_label_names(3)
    ('a', 'b', 'c')
    """
    if n_labels <= 26:
        return tuple(string.ascii_lowercase[:n_labels])
    return tuple(f"l{k}" for k in range(n_labels))


def _names(value: int | Sequence[str], what: str, prefix: str, minimum: int) -> tuple[str, ...]:
    if isinstance(value, bool):
        raise SpecError(f"{what}: expected a count or a sequence of names, got {value!r}")
    if isinstance(value, int):
        if value < minimum:
            raise SpecError(f"{what}: need at least {minimum}, got {value}")
        if what == "labels":
            return default_label_names(value)
        return tuple(f"{prefix}{k}" for k in range(value))
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise SpecError(
            f"{what}: expected a count or a sequence of distinct non-empty strings, got {value!r}"
        )
    names = tuple(value)
    for name in names:
        if not isinstance(name, str) or not name:
            raise SpecError(f"{what}: every name must be a non-empty string, got {name!r}")
    if len(set(names)) != len(names):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        raise SpecError(f"{what}: names must be distinct, repeated: {duplicated}")
    if len(names) < minimum:
        raise SpecError(f"{what}: need at least {minimum}, got {len(names)}: {list(names)}")
    return names


def _abstentions(value: Any, labels: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return ()
    names = _names([value] if isinstance(value, str) else value, "abstain", "", 0)
    clash = [name for name in names if name in labels]
    if clash:
        raise SpecError(f"abstain: {clash} are labels; abstentions are responses that are not labels")
    return names


@dataclass(frozen=True)
class EnsembleSpec:
    r"""What is known about an evaluation before the data: classifiers, labels, structure.

    Parameters
    ----------
    classifiers : int or sequence of str
        Number of classifiers (named ``c0, c1, ...``) or their distinct names. At least 1.
    labels : int or sequence of str
        Number of labels (named ``a, b, ...``) or their distinct names. At least 2.
    structure : {"independent", "complete"}, iterable of subsets, or networkx graph
        Which subsets of classifiers may have non-zero error correlations. Subsets are
        collections of classifier names or 0-based indices, each of size >= 2; a graph
        gives its edges as pairs. ``"independent"`` is the empty structure,
        ``"complete"`` every subset of size >= 2. A bare subset such as ``(0, 1)`` is
        refused, not read as one subset: the message gives the corrected call
        (``[(0, 1)]``). Reading it would be a guess where it matters: a bare ``(0, 1, 2)``
        could mean the triple's joint correlation (``[(0, 1, 2)]``) or every pair among
        them (``[(0, 1), (0, 2), (1, 2)]``), and ``structure=((0, 1))`` is a bare tuple in Python.
        Read by :func:`~evalgebra.structures.parse_structure` (its text syntax aside).
    populations : int or sequence of str, optional
        Strata that share the classifiers' response rates and correlations but have
        their own prevalences. Default: one population, ``"all"``.
    abstain : str or sequence of str, optional
        Names of the responses that are not labels (abstentions such as ``"unsure"``): a
        classifier answers one of :attr:`responses`, the labels followed by these. No
        true label is ever an abstention. Default: none, every answer is a label.

    Notes
    -----
    In the notation of ``docs/theory.md#notation``: ``N = n_classifiers``,
    ``R = n_labels``; the response rows ``P_{i,r|ell}`` run over every response ``r``
    (labels and abstentions, :attr:`n_responses` of them) for every true label ``ell``,
    and decision patterns over the responses; the structure is the hypergraph of subsets ``T`` whose
    correlations ``G^ell_T`` are free (``docs/theory.md#correlation-structures-and-populations``).

    Examples
    --------
    >>> import networkx as nx
    >>> EnsembleSpec(4, 2, structure=nx.path_graph(4)).structure
    ((0, 1), (1, 2), (2, 3))
    >>> EnsembleSpec(2, ["yes", "yes"])
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: labels: names must be distinct, repeated: ['yes']
    >>> EnsembleSpec(4, 2, structure=(0, 1))  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: structure: ... got 0 in structure=(0, 1): one subset written bare, ...;
    did you mean structure=[(0, 1)]?
    """

    classifiers: tuple[str, ...]
    labels: tuple[str, ...]
    structure: Structure
    populations: tuple[str, ...]
    abstain: tuple[str, ...] = ()

    def __init__(
        self,
        classifiers: int | Sequence[str],
        labels: int | Sequence[str],
        structure: Any = "independent",
        populations: int | Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
    ) -> None:
        names = _names(classifiers, "classifiers", "c", 1)
        object.__setattr__(self, "classifiers", names)
        object.__setattr__(self, "labels", _names(labels, "labels", "", 2))
        object.__setattr__(self, "structure", parse_structure(structure, names, text=False))
        pops = ("all",) if populations is None else _names(populations, "populations", "p", 1)
        object.__setattr__(self, "populations", pops)
        object.__setattr__(self, "abstain", _abstentions(abstain, self.labels))

    @property
    def n_classifiers(self) -> int:
        """Number of classifiers, ``N``."""
        return len(self.classifiers)

    @property
    def n_labels(self) -> int:
        """Number of labels, ``R``."""
        return len(self.labels)

    @property
    def responses(self) -> tuple[str, ...]:
        """Every answer a classifier may give: the labels, then the abstentions."""
        return self.labels + self.abstain

    @property
    def n_responses(self) -> int:
        """Number of responses: ``R`` plus the number of abstentions."""
        return len(self.labels) + len(self.abstain)

    @property
    def n_populations(self) -> int:
        """Number of populations (strata)."""
        return len(self.populations)

    @property
    def is_independent(self) -> bool:
        """True when no error correlation is free."""
        return not self.structure

    @property
    def is_complete(self) -> bool:
        """True when every subset of two or more classifiers may correlate."""
        return len(self.structure) == 2**self.n_classifiers - self.n_classifiers - 1

    def label_index(self, label: str) -> int:
        """Position of a label name; raises :class:`SpecError` for unknown labels."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise SpecError(f"unknown label {label!r}; labels are {list(self.labels)}") from None

    def response_index(self, response: str) -> int:
        """Position of a response (a label or an abstention) in :attr:`responses`."""
        try:
            return self.responses.index(response)
        except ValueError:
            raise SpecError(f"unknown response {response!r}; responses are {list(self.responses)}") from None

    def classifier_index(self, classifier: str | int) -> int:
        """Position of a classifier given by name or index."""
        return classifier_position(classifier, self.classifiers)

    def population_index(self, population: str | int) -> int:
        """Position of a population given by name or index."""
        if isinstance(population, int) and not isinstance(population, bool):
            if 0 <= population < self.n_populations:
                return population
        elif population in self.populations:
            return self.populations.index(population)
        raise SpecError(f"unknown population {population!r}; populations are {list(self.populations)}")

    def with_structure(self, structure: Any) -> EnsembleSpec:
        """The same classifiers, labels and populations under another structure."""
        return EnsembleSpec(self.classifiers, self.labels, structure, self.populations, self.abstain)

    def restrict(self, classifiers: Sequence[str | int]) -> EnsembleSpec:
        """The spec of a sub-ensemble, in the given order, keeping the subsets inside it.

        Examples
        --------
        >>> EnsembleSpec(3, 2, "complete").restrict([2, 0]).structure
        ((0, 1),)
        """
        order = [self.classifier_index(c) for c in classifiers]
        if len(set(order)) != len(order) or not order:
            raise SpecError(f"restrict: need distinct classifiers, got {list(classifiers)}")
        position = {old: new for new, old in enumerate(order)}
        kept = [
            tuple(position[i] for i in subset)
            for subset in self.structure
            if all(i in position for i in subset)
        ]
        return EnsembleSpec(
            tuple(self.classifiers[i] for i in order), self.labels, kept, self.populations, self.abstain
        )

    def n_free_variables(self) -> int:
        r"""Number of unknowns in the minimal parametrisation of the generating set.

        ``S (R - 1)`` prevalences (``S`` populations), ``N R (K - 1)`` response rates and
        ``R (K - 1)^{|T|}`` correlations for every subset ``T`` of the structure, with
        ``K`` responses (``K = R`` without abstentions).
        For ``R = 2`` and the complete structure this is
        ``1 + 2N + 2 sum_{m>=2} C(N, m) = 2^(N+1) - 1``.

        Examples
        --------
        >>> [EnsembleSpec(n, 2, "complete").n_free_variables() for n in (1, 2, 3, 4)]
        [3, 7, 15, 31]
        >>> EnsembleSpec(3, 2, abstain="unsure").n_free_variables()
        13
        """
        r, k = self.n_labels, self.n_responses
        return (
            self.n_populations * (r - 1)
            + self.n_classifiers * r * (k - 1)
            + sum(r * (k - 1) ** len(subset) for subset in self.structure)
        )

    def n_observables(self) -> int:
        """Number of independent observables: ``S (K^N - 1)`` pattern frequencies (``K`` responses)."""
        return self.n_populations * (self.n_responses**self.n_classifiers - 1)
