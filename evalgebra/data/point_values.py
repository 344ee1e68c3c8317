r"""Evaluation points from chosen values: exact rationals in, completed rows and tables out.

:meth:`EvaluationPoint.from_values <evalgebra.data.point.EvaluationPoint.from_values>`
takes prevalences, response rates (or accuracies) and the free correlation values as
ints, Fractions or ``"p/q"`` strings, keyed by names; :func:`rows_from_values` reads them,
completes the dependent entries (the last prevalence, the last response of a row, the
correlations fixed by the sum-zero rule) and returns the plain rows the point is built from.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> prevalence, response, correlation = rows_from_values(
...     EnsembleSpec(1, 2), {"a": "1/4"}, accuracy={0: {"a": "1/2", "b": 1}})
>>> prevalence, response
([[Fraction(1, 4), Fraction(3, 4)]], [[[Fraction(1, 2), Fraction(1, 2)], [Fraction(0, 1), Fraction(1, 1)]]])
>>> point_rational("6/8", "x")
Fraction(3, 4)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from evalgebra.errors import PointError
from evalgebra.numbers.rationals import exact_rational
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import correlation_expansion, free_responses

__all__ = ["point_rational", "rows_from_values", "complete_correlation"]

Table = dict[tuple[int, ...], Fraction]


def point_rational(value: Any, where: str) -> Fraction:
    """An exact rational from an int, Fraction, sympy/flint rational or ``"p/q"`` string.

    Text is size-checked before it is read (:func:`~evalgebra.numbers.rationals.parse_rational`);
    anything else raises :class:`~evalgebra.errors.PointError`.
    """
    return exact_rational(value, where, PointError)


def _mapping(value: Any, where: str) -> Mapping[Any, Any]:
    """``value`` when it is a mapping; else a :class:`~evalgebra.errors.PointError` naming ``where``."""
    if not isinstance(value, Mapping):
        raise PointError(f"{where}: expected a mapping (a dict), got {type(value).__name__}")
    return value


def rows_from_values(
    spec: EnsembleSpec,
    prevalence: Mapping[str, Any] | Mapping[str, Mapping[str, Any]],
    response: Mapping[Any, Mapping[str, Mapping[str, Any]]] | None = None,
    accuracy: Mapping[Any, Mapping[str, Any]] | None = None,
    correlation: Mapping[Any, Mapping[str, Any]] | None = None,
) -> tuple[list[list[Fraction]], list[list[list[Fraction]]], dict[tuple[int, ...], list[Table]]]:
    r"""``(prevalence rows, response rows, correlation tables)`` from chosen values, completed.

    The parameters are those of ``EvaluationPoint.from_values``, which documents them.
    """
    if not isinstance(spec, EnsembleSpec):
        raise PointError(f"spec: expected an EnsembleSpec, got {type(spec).__name__}")
    r_count = spec.n_labels
    prevalence_rows = []
    prevalence = _mapping(prevalence, "prevalence")
    per_pop = (
        prevalence
        if spec.n_populations > 1 or (prevalence and all(isinstance(v, Mapping) for v in prevalence.values()))
        else {spec.populations[0]: prevalence}
    )
    for pop in spec.populations:
        if pop not in per_pop:
            raise PointError(f"no prevalences for population {pop!r}")
        values = _mapping(per_pop[pop], f"prevalence of population {pop!r}")
        given = {spec.label_index(k): point_rational(v, f"prevalence {k!r}") for k, v in values.items()}
        if len(given) == r_count - 1 and r_count - 1 not in given:
            given[r_count - 1] = Fraction(1) - sum(given.values(), Fraction(0))
        if len(given) != r_count:
            raise PointError(f"give all prevalences, or all but the last label's, for {pop!r}")
        prevalence_rows.append([given[ell] for ell in range(r_count)])
    rows: list[list[list[Fraction]]] = []
    if (response is None) == (accuracy is None):
        raise PointError("give exactly one of response= or accuracy=")
    if accuracy is not None:
        if r_count != 2 or spec.abstain:
            raise PointError(
                "accuracy= describes rows only for two labels; use response="
                + (" (abstentions are responses too)" if spec.abstain else "")
            )
        response = {
            c: {t: {t: v} for t, v in _mapping(per_label, f"accuracy of classifier {c!r}").items()}
            for c, per_label in _mapping(accuracy, "accuracy").items()
        }
    indexed = {spec.classifier_index(c): v for c, v in _mapping(response, "response").items()}
    for i in range(spec.n_classifiers):
        if i not in indexed:
            raise PointError(f"no response rows for classifier {spec.classifiers[i]!r}")
        per_label = {
            spec.label_index(t): _mapping(
                row, f"response row of classifier {spec.classifiers[i]!r}, true label {t!r}"
            )
            for t, row in _mapping(indexed[i], f"response of classifier {spec.classifiers[i]!r}").items()
        }
        classifier_rows = []
        for ell in range(r_count):
            if ell not in per_label:
                raise PointError(
                    f"no row for classifier {spec.classifiers[i]!r}, true label {spec.labels[ell]!r}"
                )
            given = {
                spec.response_index(r): point_rational(
                    v, f"response {spec.classifiers[i]}/{r}|{spec.labels[ell]}"
                )
                for r, v in per_label[ell].items()
            }
            missing = [r for r in range(spec.n_responses) if r not in given]
            if len(missing) == 1:
                given[missing[0]] = Fraction(1) - sum(given.values(), Fraction(0))
            elif missing:
                raise PointError(
                    f"row of classifier {spec.classifiers[i]!r}, true label {spec.labels[ell]!r}: "
                    "give every response, or all but one"
                )
            classifier_rows.append([given[r] for r in range(spec.n_responses)])
        rows.append(classifier_rows)
    tables: dict[tuple[int, ...], list[Table]] = {t: [{} for _ in range(r_count)] for t in spec.structure}
    for subset, per_truth in _mapping(correlation or {}, "correlation").items():
        if not isinstance(subset, (tuple, frozenset)):
            raise PointError(f"correlation: subset {subset!r} must be a tuple of classifier names or indices")
        key = tuple(sorted(spec.classifier_index(c) for c in subset))
        if key not in tables:
            raise PointError(f"subset {subset} is not in the structure {spec.structure}")
        order = [spec.classifier_index(c) for c in subset]
        for t, value in _mapping(per_truth, f"correlation {subset}").items():
            ell = spec.label_index(t)
            if isinstance(value, Mapping):
                for responses, v in value.items():
                    if not isinstance(responses, tuple) or len(responses) != len(order):
                        raise PointError(
                            f"correlation {subset}: responses {responses!r} must be a tuple of "
                            f"{len(order)} label names"
                        )
                    named = dict(zip(order, responses))
                    idx = tuple(spec.response_index(named[i]) for i in key)
                    tables[key][ell][idx] = point_rational(v, f"correlation {subset}")
            else:
                if spec.n_responses != 2:
                    raise PointError(
                        "a single correlation value needs two labels; map responses to values"
                        + (" (abstentions are responses too)" if spec.abstain else "")
                    )
                tables[key][ell][(ell,) * len(key)] = point_rational(value, f"correlation {subset}")
    completed = {
        t: [
            complete_correlation(table, ell, len(t), r_count, spec.n_responses)
            for ell, table in enumerate(per)
        ]
        for t, per in tables.items()
    }
    return prevalence_rows, rows, completed


def complete_correlation(
    table: Table, ell: int, size: int, r_count: int, k_count: int | None = None
) -> Table:
    """Fill every response tuple of ``G^ell_T`` from the free ones (sum-zero rule; ``k_count`` responses)."""
    k_count = r_count if k_count is None else k_count
    free = set(itertools.product(free_responses(ell, r_count, k_count), repeat=size))
    full: Table = {}
    for responses in itertools.product(range(k_count), repeat=size):
        full[responses] = sum(
            (
                sign * table.get(f, Fraction(0))
                for sign, f in correlation_expansion(ell, responses, r_count, n_responses=k_count)
            ),
            Fraction(0),
        )
    for responses, value in table.items():
        if responses not in free and full[responses] != value:
            raise PointError(
                f"correlation value {value} at responses {responses} contradicts the free values "
                f"(they imply {full[responses]})"
            )
    return full
