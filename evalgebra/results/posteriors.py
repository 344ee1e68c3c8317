r"""Per-item outputs from an evaluation point: the posterior of every true label, labels, confusion.

Given a chosen evaluation (an :class:`~evalgebra.results.estimates.Estimate` of any
evaluator: prevalences ``P_l`` and response rows ``P_{i,r|l}``, ``R >= 2``) and the model it
assumes (errors independent given the true label), the posterior of true label ``l`` for
an item with decision pattern ``d = (d_1..d_N)`` is Bayes' rule

    P(l | d) = P_l prod_i P_{i,d_i|l} / sum_m P_m prod_i P_{i,d_i|m}.

Every item with the same pattern has the same posterior, so a test of any size needs one
posterior per pattern seen. Multiplying by the pattern's count splits it by true label
(the ``partition`` an :class:`~evalgebra.results.evaluation.Evaluation` carries), and
summing those shares over the patterns in which classifier ``i`` answered ``r`` gives the
*expected confusion matrix* of ``i``: how many of the items of each true label it is
expected to have answered ``r``, given what was observed.

**Abstentions.** A point of a model with abstentions (the abstention evaluator's, the fitted
point's) has response rows over the labels and the abstentions (``P_{i,u|l}``, how often
classifier ``i`` abstains on label-``l`` items): an item on which ``i`` answered ``u`` gets the
factor ``P_{i,u|l}``, so an abstention that tracks the true label informs the posterior. An item
whose answer is *missing* (``None``, NaN, an empty string) gets no factor from that classifier
(``missing="ignore"``, the posterior given the other answers: by independence the classifier is
marginalised away), or is read as one of the point's abstentions (``missing="abstain"``, say, for a
sketch made with ``Sketch.from_decisions(..., missing="abstain")``).

Values are exact :class:`~fractions.Fraction` when every rate of the point is rational
(``int`` or ``Fraction``) and floats otherwise (irrational points, numeric evaluators).
A pattern the point gives probability 0 has no posterior: ``None`` (exact) or ``nan``
(floats), and :func:`predict` returns ``None`` for it. Ties in :func:`predict` go to the
first label in the point's label order.

Examples
--------
>>> from fractions import Fraction as F
>>> from evalgebra.results.estimates import Estimate
>>> point = Estimate({"a": F(1, 4), "b": F(3, 4)},
...                  {"c0": {"a": F(3, 4), "b": F(2, 3)}, "c1": {"a": F(4, 5), "b": F(3, 5)}})
>>> pattern_posteriors(point)[("a", "a")]
{'a': Fraction(3, 5), 'b': Fraction(2, 5)}
>>> predict(point, [["a", "a"], ["b", "a"], [None, "a"]], classifiers=["c0", "c1"])
['a', 'b', 'b']

Notes
-----
Code names: ``prevalence[l]`` is ``P_l``; ``rows[i][l][r]`` is ``P_{i,r|l}`` over the responses
(the labels, then any abstentions; for two labels the rows follow from the accuracies,
:meth:`Estimate.response_rows`). Items are rows of
label names, one column per classifier named by ``classifiers`` (or a DataFrame's columns,
or a :class:`~evalgebra.data.sketch.Sketch`'s patterns with their counts).

References
----------
.. [1] A. P. Dawid and A. M. Skene, "Maximum likelihood estimation of observer error-rates
   using the EM algorithm": the posterior of the true label of an item given the observers'
   error rates.
.. [2] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the evaluation points whose
   rows these are.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError, SketchError
from evalgebra.results.estimates import Estimate

__all__ = [
    "PointRows",
    "point_rows",
    "pattern_posteriors",
    "posterior_partition",
    "predict_proba",
    "predict",
    "expected_confusion",
]


class PointRows:
    r"""An estimate's prevalences and response rows in label positions, exact or float.

    Parameters
    ----------
    labels : tuple of str
    classifiers : tuple of str
    prevalence : list
        ``prevalence[l] = P_l``.
    rows : dict
        ``rows[classifier][l][r] = P_{i,r|l}`` (positions of the true label and the response).
    exact : bool
        True when every value is an ``int`` or :class:`~fractions.Fraction`.
    responses : tuple of str, optional
        The answers the rows are over: the labels, then any abstentions (default: the labels).

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> rows = point_rows(
    ...     Estimate({"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": 1, "b": Fraction(1, 2)}})
    ... )
    >>> rows.exact, rows.rows["c0"]
    (True, [[1, 0], [Fraction(1, 2), Fraction(1, 2)]])
    """

    def __init__(
        self,
        labels: tuple[str, ...],
        classifiers: tuple[str, ...],
        prevalence: list[Any],
        rows: dict[str, list[list[Any]]],
        exact: bool,
        responses: tuple[str, ...] | None = None,
    ) -> None:
        self.labels = labels
        self.classifiers = classifiers
        self.prevalence = prevalence
        self.rows = rows
        self.exact = exact
        self.responses = labels if responses is None else responses

    def weights(self, pattern: Sequence[int | None], classifiers: Sequence[str]) -> list[Any]:
        """``P_l prod_i P_{i,d_i|l}`` for every label ``l`` (positions of the answers in ``pattern``;
        ``None``: no answer, no factor)."""
        out = []
        for ell, p in enumerate(self.prevalence):
            w = p
            for c, r in zip(classifiers, pattern):
                if r is not None:
                    w = w * self.rows[c][ell][r]
            out.append(w)
        return out

    def posterior(self, pattern: Sequence[int | None], classifiers: Sequence[str]) -> list[Any]:
        """The posterior of every label for one pattern (``None``/``nan`` when its probability is 0)."""
        w = self.weights(pattern, classifiers)
        total = sum(w)
        if total == 0 or (not self.exact and not math.isfinite(total)):
            return [None if self.exact else math.nan] * len(w)
        return [x / total for x in w]


def _is_rational(value: Any) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def point_rows(estimate: Estimate) -> PointRows:
    r"""The prevalences and response rows of an estimate, in label positions (exact when rational).

    Parameters
    ----------
    estimate : Estimate
        Any evaluator's point; every prevalence and response rate must be defined.

    Returns
    -------
    PointRows

    Raises
    ------
    PointError
        Not an Estimate, an undefined (``None``) or complex value, or rows not over the labels.

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> point_rows(Estimate({"a": 0.25, "b": 0.75}, {"c0": {"a": 0.5, "b": 0.5}})).exact
    False
    """
    if not isinstance(estimate, Estimate):
        raise PointError(f"need an Estimate (an evaluation's .point), got {type(estimate).__name__}")
    labels = tuple(str(x) for x in estimate.prevalence)
    if len(labels) < 2:
        raise PointError(f"need at least two labels, got {list(labels)!r}")
    by_classifier = estimate.response_rows()
    if estimate.accuracy and not by_classifier:
        raise PointError(
            f"the estimate gives accuracies only, no response rows, for {len(labels)} labels: posteriors "
            "need every rate P_{i,r|l} (the algebraic evaluator's points have them)"
        )
    classifiers = tuple(by_classifier)
    extra: list[str] = []  # abstentions: answers in the rows that are not labels
    for c in classifiers:
        for t in labels:
            extra += [str(r) for r in by_classifier[c].get(t, {}) if r not in labels and r not in extra]
    responses = labels + tuple(extra)
    raw_prevalence = [estimate.prevalence[x] for x in labels]
    raw_rows = {  # a classifier without a row entry for an abstention never gives it
        c: [
            [by_classifier[c].get(t, {}).get(r, 0 if r in extra else None) for r in responses] for t in labels
        ]
        for c in classifiers
    }
    values = raw_prevalence + [v for rows in raw_rows.values() for row in rows for v in row]
    if any(v is None for v in values):
        raise PointError(
            "the estimate leaves some prevalence or response rate undefined (None); "
            "posteriors need a fully defined point"
        )
    exact = all(_is_rational(v) for v in values)
    try:
        convert: Any = (lambda v: v) if exact else float
        prevalence = [convert(v) for v in raw_prevalence]
        rows = {c: [[convert(v) for v in row] for row in table] for c, table in raw_rows.items()}
    except (TypeError, ValueError):
        raise PointError("the estimate has complex values; posteriors need a real point") from None
    return PointRows(labels, classifiers, prevalence, rows, exact, responses)


def pattern_posteriors(
    estimate: Estimate,
    classifiers: Sequence[str] | None = None,
    patterns: Sequence[Sequence[str]] | None = None,
) -> dict[tuple[str, ...], dict[str, Any]]:
    r"""The posterior of every true label for decision patterns: ``{pattern: {label: P(label | pattern)}}``.

    Parameters
    ----------
    estimate : Estimate
    classifiers : sequence of str, optional
        The classifiers whose answers make a pattern (default: all of the estimate's);
        by independence, leaving some out marginalises them away.
    patterns : sequence of tuples of answers, optional
        Labels or the point's abstentions. Default: every pattern of the point's responses (the
        ``R^N`` patterns of the labels when it has no abstentions), in lexicographic order.

    Returns
    -------
    dict

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> point = Estimate(
    ...     {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(3, 4), "b": Fraction(3, 4)}}
    ... )
    >>> pattern_posteriors(point)
    {('a',): {'a': Fraction(3, 4), 'b': Fraction(1, 4)}, ('b',): {'a': Fraction(1, 4), 'b': Fraction(3, 4)}}
    """
    rows = point_rows(estimate)
    names = _classifiers(rows, classifiers)
    index = {x: k for k, x in enumerate(rows.responses)}
    if patterns is None:
        patterns = list(itertools.product(rows.responses, repeat=len(names)))
    out = {}
    for pattern in patterns:
        key = tuple(str(x) for x in pattern)
        if len(key) != len(names) or any(x not in index for x in key):
            raise SketchError(f"pattern {key!r}: need {len(names)} answers {_among(rows)}")
        out[key] = dict(zip(rows.labels, rows.posterior([index[x] for x in key], names)))
    return out


def _among(rows: PointRows) -> str:
    extra = list(rows.responses[len(rows.labels) :])
    return f"among the labels {list(rows.labels)}" + (f" and the abstentions {extra}" if extra else "")


def _classifiers(rows: PointRows, classifiers: Sequence[str] | None) -> tuple[str, ...]:
    names = rows.classifiers if classifiers is None else tuple(str(c) for c in classifiers)
    unknown = [c for c in names if c not in rows.rows]
    if unknown:
        raise PointError(
            f"the estimate has no rows for classifier(s) {unknown}; it has {list(rows.classifiers)}"
        )
    return names


def posterior_partition(estimate: Estimate, sketch: Sketch) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
    r"""Each observed pattern's count split by true label: ``count * P(label | pattern)``.

    The same layout as :attr:`Evaluation.partition` (``{label: [(pattern, share), ...]}``,
    patterns in the sketch's order, those never seen left out). On a sketch the point
    explains exactly, it equals the partition the evaluators compute from the point alone.

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> sk = Sketch.from_counts({"a": 3, "b": 1}, labels=["a", "b"])
    >>> point = Estimate(
    ...     {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(3, 4), "b": Fraction(3, 4)}}
    ... )
    >>> posterior_partition(point, sk)  # doctest: +NORMALIZE_WHITESPACE
    {'a': [(('a',), Fraction(9, 4)), (('b',), Fraction(1, 4))],
     'b': [(('a',), Fraction(3, 4)), (('b',), Fraction(3, 4))]}
    """
    rows, names, observed = _observed(estimate, sketch)
    out: dict[str, list[tuple[tuple[str, ...], Any]]] = {x: [] for x in rows.labels}
    for pattern, codes, count in observed:
        post = rows.posterior(codes, names)
        for ell, x in enumerate(rows.labels):
            out[x].append((pattern, None if post[ell] is None else count * post[ell]))
    return out


def _observed(
    estimate: Estimate, sketch: Sketch
) -> tuple[PointRows, tuple[str, ...], list[tuple[Any, list[int | None], int]]]:
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    rows = point_rows(estimate)
    names = _classifiers(rows, sketch.classifiers)
    if tuple(sketch.labels) != rows.labels:
        raise SketchError(
            f"the sketch's labels {list(sketch.labels)} are not the estimate's {list(rows.labels)}"
        )
    unknown = [a for a in sketch.abstain if a not in rows.responses]
    if unknown:
        raise SketchError(
            f"the sketch's abstentions {unknown} have no rates in the estimate (its responses: "
            f"{list(rows.responses)}); evaluate the sketch with its abstentions to get them"
        )
    index = {x: k for k, x in enumerate(rows.responses)}
    observed: list[tuple[Any, list[int | None], int]] = [
        (pattern, [index[x] for x in pattern], count) for pattern, count in sketch.counts().items()
    ]
    return rows, names, observed


def expected_confusion(estimate: Estimate, sketch: Sketch) -> dict[str, dict[str, dict[str, Any]]]:
    r"""The expected confusion matrix of every classifier on the sketch's items, given the point.

    ``out[classifier][true label][answer]`` = ``sum over patterns d with d_i = answer of
    n_d P(true label | d)``: the number of items of that true label the classifier is
    expected to have answered so (abstentions are answers, columns after the labels). Each
    classifier's matrix sums to ``Q``; its rows sum to the expected number of items of each
    true label.

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> sk = Sketch.from_counts({"a": 3, "b": 1}, labels=["a", "b"])
    >>> point = Estimate(
    ...     {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(3, 4), "b": Fraction(3, 4)}}
    ... )
    >>> expected_confusion(point, sk)["c0"]
    {'a': {'a': Fraction(9, 4), 'b': Fraction(1, 4)}, 'b': {'a': Fraction(3, 4), 'b': Fraction(3, 4)}}
    """
    rows, names, observed = _observed(estimate, sketch)
    zero: Any = Fraction(0) if rows.exact else 0.0
    out = {c: {t: {r: zero for r in rows.responses} for t in rows.labels} for c in names}
    for pattern, codes, count in observed:
        post = rows.posterior(codes, names)
        if post[0] is None or (not rows.exact and math.isnan(post[0])):
            raise PointError(f"pattern {pattern!r} was observed but has probability 0 under the estimate")
        for c, answer in zip(names, pattern):
            for ell, t in enumerate(rows.labels):
                out[c][t][answer] = out[c][t][answer] + count * post[ell]
    return out


def _is_missing(value: Any) -> bool:
    """``None``, NaN (float or pandas' NA) or an empty string: no answer."""
    if value is None or (isinstance(value, str) and value == ""):
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType")


def _items(
    decisions: Any, classifiers: Sequence[str] | None
) -> tuple[list[tuple[str | None, ...]], tuple[str, ...] | None, Any]:
    """Item rows as tuples of answers (``None`` where missing), the classifier names, a pandas index."""
    index = None
    if hasattr(decisions, "columns") and hasattr(decisions, "to_numpy"):  # a pandas DataFrame
        index = decisions.index
        if classifiers is None:
            classifiers = [str(c) for c in decisions.columns]
        decisions = decisions.to_numpy(dtype=object)
    items = [tuple(None if _is_missing(x) else x for x in row) for row in decisions]
    if any(x is not None and not isinstance(x, str) for row in items for x in row):
        raise SketchError(
            "item answers must be label or abstention names (str), or missing (None, NaN, empty)"
        )
    return items, None if classifiers is None else tuple(str(c) for c in classifiers), index


def predict_proba(
    estimate: Estimate, decisions: Any, classifiers: Sequence[str] | None = None, *, missing: str = "ignore"
) -> Any:
    r"""The posterior of every true label for every item.

    Parameters
    ----------
    estimate : Estimate
        The chosen point (``evaluation.point``).
    decisions : array-like or pandas.DataFrame
        ``items x classifiers`` answers: label names, the point's abstentions, or missing
        (``None``, NaN, empty strings); a DataFrame's columns name the classifiers.
    classifiers : sequence of str, optional
        The classifier of each column (default: the DataFrame's columns, else all of the
        estimate's, in order).
    missing : str
        ``"ignore"`` (default): a missing answer contributes nothing, the posterior is given the
        other answers; or the name of one of the point's abstentions to read missing answers as
        (the abstention the sketch counted them as).

    Returns
    -------
    numpy.ndarray or pandas.DataFrame
        ``items x labels`` (a DataFrame with the input's index when given one): Fractions
        (``dtype=object``) when the point is rational, floats otherwise.

    Raises
    ------
    SketchError
        An answer that is neither a label nor one of the point's abstentions, or ``missing`` neither
        ``"ignore"`` nor an abstention of the point.

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> point = Estimate(
    ...     {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(3, 4), "b": Fraction(3, 4)}}
    ... )
    >>> predict_proba(point, [["a"], ["b"], ["a"]]).tolist()
    [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]]

    With abstentions the point's abstention rates enter like any answer's; a missing answer is
    ignored, or read as an abstention:

    >>> F = Fraction
    >>> shy = Estimate({"a": F(1, 2), "b": F(1, 2)}, {"c0": {"a": F(3, 4), "b": F(1, 2)}},
    ...                response={"c0": {"a": {"a": F(3, 4), "b": F(1, 8), "u": F(1, 8)},
    ...                                 "b": {"a": F(1, 8), "b": F(1, 2), "u": F(3, 8)}}})
    >>> predict_proba(shy, [["u"], [None]]).tolist()
    [[Fraction(1, 4), Fraction(3, 4)], [Fraction(1, 2), Fraction(1, 2)]]
    >>> predict_proba(shy, [[None]], missing="u").tolist()
    [[Fraction(1, 4), Fraction(3, 4)]]
    """
    rows = point_rows(estimate)
    abstentions = rows.responses[len(rows.labels) :]
    if not isinstance(missing, str) or (missing != "ignore" and missing not in abstentions):
        raise SketchError(
            f"missing={missing!r}: accepted 'ignore' (a missing answer contributes nothing) or one of the "
            f"point's abstentions {list(abstentions)}"
        )
    items, names, index = _items(decisions, classifiers)
    names = _classifiers(rows, names)
    code = {x: k for k, x in enumerate(rows.responses)}
    fill = None if missing == "ignore" else code[missing]
    cache: dict[tuple[str | None, ...], list[Any]] = {}
    out = []
    for item in items:
        if item not in cache:
            if len(item) != len(names) or any(x is not None and x not in code for x in item):
                raise SketchError(f"item {item!r}: need {len(names)} answers {_among(rows)}")
            cache[item] = rows.posterior([fill if x is None else code[x] for x in item], names)
        out.append(cache[item])
    array = np.array(out, dtype=object if rows.exact else float).reshape(len(items), len(rows.labels))
    if index is not None:
        import pandas as pd

        return pd.DataFrame(array, index=index, columns=list(rows.labels))
    return array


def predict(
    estimate: Estimate, decisions: Any, classifiers: Sequence[str] | None = None, *, missing: str = "ignore"
) -> Any:
    r"""The most probable true label of every item (ties: the first label in the point's order).

    Returns a list of label names (``None`` for a pattern of probability 0), or a pandas
    Series with the input's index when ``decisions`` is a DataFrame. Abstentions and missing
    answers as in :func:`predict_proba`.

    Examples
    --------
    >>> from evalgebra.results.estimates import Estimate
    >>> point = Estimate(
    ...     {"a": Fraction(1, 5), "b": Fraction(4, 5)}, {"c0": {"a": Fraction(3, 4), "b": Fraction(3, 4)}}
    ... )
    >>> predict(point, [["a"], ["b"]])
    ['b', 'b']
    """
    proba = predict_proba(estimate, decisions, classifiers, missing=missing)
    labels = point_rows(estimate).labels
    table = proba.to_numpy() if hasattr(proba, "to_numpy") else proba
    out: list[str | None] = []
    for row in table:
        if row[0] is None or (isinstance(row[0], float) and math.isnan(row[0])):
            out.append(None)
            continue
        best = 0
        for k in range(1, len(labels)):
            if row[k] > row[best]:
                best = k
        out.append(labels[best])
    if hasattr(proba, "index"):
        import pandas as pd

        return pd.Series(out, index=proba.index, name="label", dtype=object)
    return out
