r"""Evaluation points: the exact sample statistics of a labelled test.

An :class:`EvaluationPoint` holds, exactly as :class:`fractions.Fraction`:

- ``prevalence[s][ell]``: the share ``P_ell`` of items with true label ``ell`` in
  population ``s``;
- ``response[i][ell][r]``: ``P_{i,r|ell}``, the fraction of ``ell``-items that
  classifier ``i`` answered ``r`` (a confusion-matrix row per true label);
- ``correlation[T][ell][r_T]``: the error correlation ``G^ell_T(r_T)`` for each subset
  ``T`` of the structure (``E[prod_{i in T} (x_i - p_i)]`` over the ``ell``-items, with
  ``x_i = 1[ans_i = r_i]`` and ``p_i = P_{i,r_i|ell}``), every response tuple.

Rows and correlations of a label no item has are undefined and stored as ``None``.

The correlations are computed without enumerating items: with ``x_i = 1[ans_i = r_i]``,
``E[prod_{i in T} (x_i - p_i)]`` is the joint distribution over ``T`` with the linear
map ``M -> M - p_i (sum over axis i of M)`` applied along each axis ``i``.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> sk = Sketch.from_decisions([["a", "a"], ["b", "a"], ["b", "b"], ["a", "b"]],
...                            truth=["a", "a", "b", "b"])
>>> pt = evaluation_point(sk)
>>> pt.prevalence_of()["a"], pt.accuracy(0, "a"), pt.accuracy(1, "b")
(Fraction(1, 2), Fraction(1, 2), Fraction(1, 1))
>>> pt.correlation_value((0, 1), "a", ("a", "a"))
Fraction(0, 1)

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on
   unlabeled data - binary classification" (sample statistics; the correlation terms
   of its Theorem 3).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.patterns import recode
from evalgebra.data.point_values import Table, point_rational, rows_from_values
from evalgebra.data.show import point_frame, point_html, point_summary, short_names
from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError, SketchError
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableKey, VariableRegistry

__all__ = ["EvaluationPoint", "evaluation_point", "POINT_FORMAT", "point_rational"]

POINT_FORMAT = "evalgebra.point/1"

RateRow = tuple[Fraction, ...]


def _centre(tensor: np.ndarray, rows: Sequence[Sequence[Any]]) -> np.ndarray:
    """Apply ``M -> M - p_i * sum_axis_i(M)`` along every axis (object arrays, exact)."""
    result = tensor
    for axis, row in enumerate(rows):
        shape = [1] * tensor.ndim
        shape[axis] = len(row)
        p = np.array(list(row), dtype=object).reshape(shape)
        result = result - p * result.sum(axis=axis, keepdims=True)
    return result


class EvaluationPoint:
    r"""Exact sample statistics: prevalences, response rates and error correlations.

    Build one from a labelled sketch with :func:`evaluation_point`, or from chosen
    values with :meth:`from_values`.

    Parameters
    ----------
    spec : EnsembleSpec
        Names, structure (which correlations are stored) and populations.
    prevalence : sequence of rows
        ``prevalence[s][ell]`` per population.
    response : nested sequences
        ``response[i][ell][r]``; a row may be ``None`` (undefined).
    correlation : mapping
        ``correlation[T][ell]`` a mapping ``r_T -> value`` (label indices) or ``None``.
    sizes : sequence of int, optional
        Items per population when the point comes from a test.

    Examples
    --------
    >>> spec = EnsembleSpec(["x", "y"], ["a", "b"], structure="independent")
    >>> pt = EvaluationPoint(spec, [[Fraction(1, 4), Fraction(3, 4)]],
    ...                      [[[1, 0], [Fraction(1, 3), Fraction(2, 3)]], [[Fraction(1, 2)] * 2] * 2], {})
    >>> pt
    EvaluationPoint(Q=None, classifiers=['x', 'y'], labels=['a', 'b'], 0 correlated subsets)
    >>> pt.accuracy("x", "b"), pt.prevalence_of()
    (Fraction(2, 3), {'a': Fraction(1, 4), 'b': Fraction(3, 4)})
    """

    def __init__(
        self,
        spec: EnsembleSpec,
        prevalence: Sequence[Sequence[Fraction]],
        response: Sequence[Sequence[Sequence[Fraction] | None]],
        correlation: Mapping[tuple[int, ...], Sequence[Mapping[tuple[int, ...], Fraction] | None]],
        sizes: Sequence[int] | None = None,
    ) -> None:
        self.spec = spec
        self.prevalence: tuple[RateRow, ...] = tuple(tuple(row) for row in prevalence)
        self.response = tuple(tuple(None if row is None else tuple(row) for row in rows) for rows in response)
        self.correlation = {
            tuple(t): tuple(None if table is None else dict(table) for table in tables)
            for t, tables in correlation.items()
        }
        self.sizes = None if sizes is None else tuple(int(q) for q in sizes)
        self._validate()

    # -- validation --------------------------------------------------------------------
    def _validate(self) -> None:
        spec, r_count, k_count = self.spec, self.spec.n_labels, self.spec.n_responses
        if len(self.prevalence) != spec.n_populations:
            raise PointError(f"need prevalences for {spec.n_populations} population(s)")
        for s, row in enumerate(self.prevalence):
            if len(row) != r_count or sum(row) != 1 or min(row) < 0:
                raise PointError(
                    f"prevalences of population {spec.populations[s]!r} must be {r_count} "
                    f"non-negative rationals summing to 1, got {[str(v) for v in row]}"
                )
        if len(self.response) != spec.n_classifiers:
            raise PointError(f"need response rows for {spec.n_classifiers} classifiers")
        for i, rows in enumerate(self.response):
            for ell, response_row in enumerate(rows):
                if response_row is None:
                    continue
                if len(response_row) != k_count or sum(response_row) != 1 or min(response_row) < 0:
                    raise PointError(
                        f"response row of classifier {spec.classifiers[i]!r}, true label "
                        f"{spec.labels[ell]!r} must be {k_count} non-negative rationals "
                        f"summing to 1, got {[str(v) for v in response_row]}"
                    )
        if set(self.correlation) != set(spec.structure):
            raise PointError("correlations must be given for exactly the subsets of the structure")
        for subset, tables in self.correlation.items():
            for ell, table in enumerate(tables):
                if table is None:
                    continue
                for responses in itertools.product(range(k_count), repeat=len(subset)):
                    if responses not in table:
                        raise PointError(f"correlation {subset} {ell} lacks responses {responses}")
                for axis in range(len(subset)):
                    for rest in itertools.product(range(k_count), repeat=len(subset) - 1):
                        total = sum(table[rest[:axis] + (r,) + rest[axis:]] for r in range(k_count))
                        if total != 0:
                            raise PointError(
                                f"correlations of {subset} on label {spec.labels[ell]!r} must sum "
                                f"to 0 over each classifier's response; they sum to {total}"
                            )

    # -- construction from chosen values --------------------------------------------------
    @classmethod
    def from_values(
        cls,
        spec: EnsembleSpec,
        prevalence: Mapping[str, Any] | Mapping[str, Mapping[str, Any]],
        response: Mapping[Any, Mapping[str, Mapping[str, Any]]] | None = None,
        accuracy: Mapping[Any, Mapping[str, Any]] | None = None,
        correlation: Mapping[Any, Mapping[str, Any]] | None = None,
    ) -> EvaluationPoint:
        r"""A point from chosen exact values, dependent entries completed.

        Parameters
        ----------
        spec : EnsembleSpec
        prevalence : mapping label -> value, or population -> (label -> value)
            The last label may be omitted.
        response : mapping classifier -> true label -> response -> value, optional
            The dependent response of a row may be omitted.
        accuracy : mapping classifier -> true label -> value, optional
            For ``R = 2`` only: the rows from their accuracies.
        correlation : mapping subset -> true label -> value or (responses -> value), optional
            Subsets are tuples of classifier names or indices. Give the free entries (for
            ``R = 2`` a single value: the all-correct one); the rest are completed. Missing
            subsets or labels are zero.

        Values are ints, Fractions or ``"p/q"`` strings.

        Examples
        --------
        >>> spec = EnsembleSpec(2, 2, structure="complete")
        >>> pt = EvaluationPoint.from_values(
        ...     spec, {"a": "1/3"}, accuracy={0: {"a": "3/4", "b": "1/2"}, 1: {"a": 1, "b": "2/3"}},
        ...     correlation={(0, 1): {"a": "1/16"}})
        >>> pt.correlation_value((0, 1), "a", ("b", "a"))
        Fraction(-1, 16)
        """
        return cls(spec, *rows_from_values(spec, prevalence, response, accuracy, correlation))

    # -- accessors ------------------------------------------------------------------------
    def prevalence_of(self, population: str | int = 0) -> dict[str, Fraction]:
        """Label -> prevalence in one population."""
        s = self.spec.population_index(population)
        return dict(zip(self.spec.labels, self.prevalence[s]))

    def accuracy(self, classifier: str | int, label: str) -> Fraction | None:
        """``P_{i,ell|ell}``, or None when no item has true label ``ell``."""
        return self.response_rate(classifier, label, label)

    def response_rate(self, classifier: str | int, response: str, label: str) -> Fraction | None:
        """``P_{i,r|ell}``: classifier answers ``response`` (a label or an abstention) when the truth is
        ``label``.
        """
        row = self.response[self.spec.classifier_index(classifier)][self.spec.label_index(label)]
        return None if row is None else row[self.spec.response_index(response)]

    def correlation_value(
        self, classifiers: Sequence[str | int], label: str, responses: Sequence[str]
    ) -> Fraction | None:
        """``G^ell_T(r_T)`` for a subset of the structure (0 outside it)."""
        order = [self.spec.classifier_index(c) for c in classifiers]
        key = tuple(sorted(order))
        named = dict(zip(order, responses))
        idx = tuple(self.spec.response_index(named[i]) for i in key)
        if key not in self.correlation:
            if len(key) < 2:
                raise PointError("correlations need two or more classifiers")
            return Fraction(0)
        table = self.correlation[key][self.spec.label_index(label)]
        return None if table is None else table[idx]

    @property
    def Q(self) -> int | None:  # noqa: N802 - the paper's name for the test size
        """Total number of items, when the point comes from a test."""
        return None if self.sizes is None else sum(self.sizes)

    # -- free values for the generating set ---------------------------------------------
    def free_values(self, space: str = "P") -> dict[VariableKey, Any]:
        r"""Values of the free unknowns of :class:`~evalgebra.variables.VariableRegistry`.

        Undefined rows (a label no item has) are filled with ``1/R`` and their
        correlations with 0: every term they enter is multiplied by ``P_ell = 0``. R-space
        needs the test size (``sizes``) and gives integers.
        """
        registry = VariableRegistry(self.spec, space)
        r_count = self.spec.n_labels
        if space == "R":
            if self.sizes is None:
                raise PointError("R-space values need the test size; this point has none")
            label_counts = [self.prevalence[0][ell] * self.sizes[0] for ell in range(r_count)]
        values: dict[VariableKey, Any] = {}
        for key in (
            k for kind in ("prevalence", "accuracy", "response", "correlation") for k in registry.keys(kind)
        ):
            if key.kind == "prevalence":
                ell = key.labels[0]
                values[key] = label_counts[ell] if space == "R" else self.prevalence[key.population or 0][ell]
                continue
            if key.kind in ("accuracy", "response"):
                i = key.classifiers[0]
                r, ell = (key.labels[0], key.labels[0]) if key.kind == "accuracy" else key.labels
                row = self.response[i][ell]
                value = Fraction(1, self.spec.n_responses) if row is None else row[r]
                values[key] = value * label_counts[ell] if space == "R" else value
                continue
            ell, *responses = key.labels
            table = self.correlation[key.classifiers][ell]
            value = Fraction(0) if table is None else table[tuple(responses)]
            values[key] = value * label_counts[ell] ** len(key.classifiers) if space == "R" else value
        if space == "R":
            for key, value in values.items():
                if value.denominator != 1:  # pragma: no cover - guaranteed by construction
                    raise PointError(f"R-space value of {key} is not an integer: {value}")
                values[key] = int(value)
        return values

    # -- the model at this point ---------------------------------------------------------
    def pattern_distribution(self, label: str | int) -> np.ndarray:
        r"""``pi_ell(d) = sum_T G^ell_T(d_T) prod_{i not in T} P_{i,d_i|ell}`` as a tensor.

        The per-label distribution of decision patterns (shape ``(K,) * N`` for ``K``
        responses, exact), the inner sum of the generating set. ``None`` rows raise
        :class:`PointError`.
        """
        ell = label if isinstance(label, int) else self.spec.label_index(label)
        n, r_count = self.spec.n_classifiers, self.spec.n_responses
        rows = [self.response[i][ell] for i in range(n)]
        if any(row is None for row in rows):
            raise PointError(f"label {self.spec.labels[ell]!r} has no items: its rows are undefined")
        total = np.full((r_count,) * n, Fraction(1), dtype=object)
        for i, row in enumerate(rows):
            shape = [1] * n
            shape[i] = r_count
            total = total * np.array(list(row or ()), dtype=object).reshape(shape)  # type: ignore[type-var]
        for subset, tables in self.correlation.items():
            table = tables[ell]
            if table is None:
                continue
            term = np.zeros((r_count,) * n, dtype=object)
            for index in itertools.product(range(r_count), repeat=n):
                value = table[tuple(index[i] for i in subset)]
                if value:
                    product = value
                    for i in range(n):
                        if i not in subset:
                            product *= rows[i][index[i]]  # type: ignore[index]
                    term[index] = product
            total = total + term
        return total

    def expected_frequencies(self, population: str | int = 0) -> dict[tuple[str, ...], Fraction]:
        """Pattern -> ``sum_ell P_ell pi_ell(d)``: the sketch this point explains."""
        s = self.spec.population_index(population)
        labels, n = self.spec.responses, self.spec.n_classifiers
        total = np.full((len(labels),) * n, Fraction(0), dtype=object)
        for ell, weight in enumerate(self.prevalence[s]):
            if weight:
                total = total + weight * self.pattern_distribution(ell)
        return {
            tuple(labels[k] for k in index): total[index]
            for index in itertools.product(range(len(labels)), repeat=n)
        }

    # -- derived points -----------------------------------------------------------------
    def restrict(self, classifiers: Sequence[str | int]) -> EvaluationPoint:
        """The point of a sub-ensemble (in the given order), keeping its correlations."""
        order = [self.spec.classifier_index(c) for c in classifiers]
        spec = self.spec.restrict(order)
        position = {old: new for new, old in enumerate(order)}
        correlation = {}
        for subset, tables in self.correlation.items():
            if not all(i in position for i in subset):
                continue
            new = tuple(sorted(position[i] for i in subset))
            perm = [subset.index(order[j]) for j in new]
            correlation[new] = [
                None if table is None else {tuple(k[p] for p in perm): v for k, v in table.items()}
                for table in tables
            ]
        return EvaluationPoint(
            spec, self.prevalence, [self.response[i] for i in order], correlation, self.sizes
        )

    def with_label_order(self, labels: Sequence[str]) -> EvaluationPoint:
        """The same statistics with the labels listed in another order."""
        labels = list(labels)
        if sorted(labels) != sorted(self.spec.labels):
            raise PointError(f"need a permutation of {list(self.spec.labels)}")
        old = [self.spec.label_index(name) for name in labels]  # new position -> old index
        spec = EnsembleSpec(
            self.spec.classifiers, labels, self.spec.structure, self.spec.populations, self.spec.abstain
        )
        answers = old + list(range(len(old), spec.n_responses))  # abstentions stay after the labels
        prevalence = [[row[o] for o in old] for row in self.prevalence]
        response = [
            [None if rows[o] is None else [rows[o][p] for p in answers] for o in old]  # type: ignore[index]
            for rows in self.response
        ]
        correlation = {
            t: [
                None
                if tables[o] is None
                else {tuple(answers.index(k) for k in key): v for key, v in tables[o].items()}  # type: ignore[union-attr]
                for o in old
            ]
            for t, tables in self.correlation.items()
        }
        return EvaluationPoint(spec, prevalence, response, correlation, self.sizes)

    # -- comparison, JSON ----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EvaluationPoint):
            return NotImplemented
        return (
            self.spec == other.spec
            and self.prevalence == other.prevalence
            and self.response == other.response
            and self.correlation == other.correlation
            and self.sizes == other.sizes
        )

    __hash__ = None  # type: ignore[assignment]

    def summary(self) -> str:
        """Plain text for the terminal: prevalences, accuracies (response rows for ``R > 2``), correlations.

        Examples
        --------
        >>> sk = Sketch.from_counts(labels=["a", "b"], by_true_label={"a": {"aa": 3, "bb": 1},
        ...                                                         "b": {"bb": 2, "ab": 1, "ba": 1}})
        >>> print(evaluation_point(sk).summary())  # doctest: +NORMALIZE_WHITESPACE
        EvaluationPoint: 2 classifiers, 2 labels, Q=8
          prevalence:
            population    a    b  items
            all         1/2  1/2      8
          accuracy:
            classifier  accuracy on a  accuracy on b
            c0                    3/4            3/4
            c1                    3/4            3/4
          error correlations at all-correct responses (1 subset, 2 of 2 tables nonzero,
          largest |G| = 3/16 for {c0, c1} on a):
            classifiers  G on a  G on b
            c0, c1         3/16   -1/16
        """
        return point_summary(self)

    def _repr_html_(self) -> str:
        return point_html(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame of the response rates: ``classifier, true_label, response, rate``.

        Raises ImportError when pandas is not installed.

        Examples
        --------
        >>> sk = Sketch.from_decisions([["a"], ["b"], ["b"]], truth=["a", "a", "b"])
        >>> evaluation_point(sk).to_frame()
          classifier true_label response rate
        0         c0          a        a  1/2
        1         c0          a        b  1/2
        2         c0          b        a    0
        3         c0          b        b    1
        """
        return point_frame(self)

    def __repr__(self) -> str:
        return (
            f"EvaluationPoint(Q={self.Q}, classifiers={short_names(self.spec.classifiers)}, "
            f"labels={short_names(self.spec.labels)}, {len(self.correlation)} correlated subsets)"
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``evalgebra.point/1`` JSON object (exact values as ``"p/q"`` strings)."""
        spec = self.spec
        labels, answers = spec.labels, spec.responses
        text = lambda v: None if v is None else str(v)  # noqa: E731
        overall = self._overall_prevalence()
        data: dict[str, Any] = {
            "format": POINT_FORMAT,
            "Q": self.Q,
            "labels": list(labels),
            "classifiers": list(spec.classifiers),
            "prevalence": {labels[ell]: text(v) for ell, v in enumerate(overall)},
            "response": {
                spec.classifiers[i]: {
                    labels[ell]: None if row is None else {answers[r]: text(v) for r, v in enumerate(row)}
                    for ell, row in enumerate(rows)
                }
                for i, rows in enumerate(self.response)
            },
            "correlation": [
                {
                    "classifiers": [spec.classifiers[i] for i in subset],
                    "true_label": labels[ell],
                    "responses": [answers[r] for r in responses],
                    "value": None if table is None else text(table[responses]),
                }
                for subset, tables in self.correlation.items()
                for ell, table in enumerate(tables)
                for responses in itertools.product(range(len(answers)), repeat=len(subset))
            ],
        }
        if spec.abstain:
            data["abstain"] = list(spec.abstain)
        if spec.populations != ("all",):
            data["populations"] = {
                pop: {
                    "Q": None if self.sizes is None else self.sizes[s],
                    "prevalence": {labels[ell]: text(v) for ell, v in enumerate(self.prevalence[s])},
                }
                for s, pop in enumerate(spec.populations)
            }
        return data

    def _overall_prevalence(self) -> tuple[Fraction | None, ...]:
        if len(self.prevalence) == 1:
            return self.prevalence[0]
        if self.sizes is None:  # pooling needs the populations' sizes: undefined
            return (None,) * self.spec.n_labels
        total = sum(self.sizes)
        return tuple(
            sum((Fraction(q) * row[ell] for q, row in zip(self.sizes, self.prevalence)), Fraction(0)) / total  # type: ignore[operator]
            for ell in range(self.spec.n_labels)
        )

    def to_json(self) -> str:
        """``evalgebra.point/1`` JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _shared(values: list[Any], spec: EnsembleSpec, what: str) -> Any:
    """The common value of the populations that define it (None when none does)."""
    defined = [v for v in values if v is not None]
    if any(v != defined[0] for v in defined[1:]):
        raise SketchError(
            f"the populations differ in the {what}: the shared-rows model does not hold; "
            "use population=... for a per-population point"
        )
    return defined[0] if defined else None


def evaluation_point(
    sketch: Sketch,
    structure: Any = "complete",
    population: str | int | None = None,
) -> EvaluationPoint:
    r"""The exact evaluation point of a labelled sketch.

    Parameters
    ----------
    sketch : Sketch
        Must be labelled (counts split by true label).
    structure : str, iterable of subsets or graph
        Which correlations to compute (default: every subset).
    population : str or int, optional
        For a sketch with several populations: the point of one of them. Without it, the
        populations must share their response rows and correlations (the Hui-Walter
        model), and the point has one prevalence per population.

    Raises
    ------
    SketchError
        Unlabelled sketch, or populations whose rows differ when no population is named.

    Examples
    --------
    >>> sk = Sketch.from_counts(labels=["a", "b"], by_true_label={"a": {"aa": 3, "ab": 1}, "b": {"bb": 4}})
    >>> pt = evaluation_point(sk)
    >>> pt.prevalence_of(), pt.accuracy(1, "a"), pt.correlation_value((0, 1), "a", ("a", "a"))
    ({'a': Fraction(1, 2), 'b': Fraction(1, 2)}, Fraction(3, 4), Fraction(0, 1))
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"evaluation_point needs a Sketch, got {type(sketch).__name__}")
    if not sketch.is_labelled:
        raise SketchError("the evaluation point needs an answer key: this sketch is unlabelled")
    if population is not None:
        sketch = sketch.population(population)
    spec = sketch.spec(structure)
    if spec.n_populations > 1:
        parts = [evaluation_point(sketch, structure, p) for p in spec.populations]
        # rows and correlations are shared; a population without items of a label
        # leaves them undefined there and does not contradict the others
        shared_response = [
            [
                _shared(
                    [part.response[i][ell] for part in parts],
                    spec,
                    f"response rows of {spec.classifiers[i]!r} on {spec.labels[ell]!r}",
                )
                for ell in range(spec.n_labels)
            ]
            for i in range(spec.n_classifiers)
        ]
        shared_correlation = {
            t: [
                _shared(
                    [part.correlation[t][ell] for part in parts],
                    spec,
                    f"correlations of {t} on {spec.labels[ell]!r}",
                )
                for ell in range(spec.n_labels)
            ]
            for t in spec.structure
        }
        return EvaluationPoint(
            spec,
            [part.prevalence[0] for part in parts],
            shared_response,
            shared_correlation,
            [part.Q or 0 for part in parts],
        )
    pop, truth, code, count = sketch.table()
    n, r_count, k_count = spec.n_classifiers, spec.n_labels, spec.n_responses
    label_counts = [int(count[truth == ell].sum()) for ell in range(r_count)]
    total = sum(label_counts)
    response: list[list[list[Fraction] | None]] = [[None] * r_count for _ in range(n)]
    correlation: dict[tuple[int, ...], list[Table | None]] = {t: [None] * r_count for t in spec.structure}
    for ell in range(r_count):
        q_ell = label_counts[ell]
        if q_ell == 0:
            continue
        mask = truth == ell
        codes, weights = code[mask], count[mask]
        for i in range(n):
            sub = recode(codes, n, k_count, [i])
            row = np.zeros(k_count, dtype=object)
            np.add.at(row, sub, [int(w) for w in weights])
            response[i][ell] = [Fraction(int(v), q_ell) for v in row]
        for subset in spec.structure:
            sub = recode(codes, n, k_count, list(subset))
            joint = np.zeros(k_count ** len(subset), dtype=object)
            np.add.at(joint, sub, [int(w) for w in weights])
            joint = joint.reshape((k_count,) * len(subset))
            centred = _centre(joint, [response[i][ell] for i in subset])  # type: ignore[misc]
            correlation[subset][ell] = {
                index: Fraction(centred[index]) / q_ell
                for index in itertools.product(range(k_count), repeat=len(subset))
            }
    prevalence = [[Fraction(q, total) for q in label_counts]]
    return EvaluationPoint(spec, prevalence, response, correlation, [total])
