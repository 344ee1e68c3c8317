r"""Many labels, beyond one exact trio: larger ensembles trio by trio, and the vectorised float path.

:func:`evaluate_many_labels` is what ``evaluate(sketch, method="algebraic")`` runs for
``R >= 3``: the exact evaluator of :mod:`evalgebra.evaluators.many_labels` on the sketch for
``N = 3``, on every trio's marginal sketch for ``N > 3`` (each decoded by the same rule, then
combined). :func:`evaluate_batch_many` evaluates many count vectors of three classifiers at
once in floating point with NumPy (batched eigen-decompositions of ``M^{-1} S``).

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the trios of larger ensembles.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.many_labels import ResponseEstimate, evaluate_counts_many
from evalgebra.evaluators.result import Alarm, Evaluation

__all__ = ["evaluate_many_labels", "evaluate_batch_many"]


def _combine(trios: list[Evaluation], labels: tuple[str, ...],
             classifiers: tuple[str, ...]) -> tuple[ResponseEstimate | None, list[str]]:
    """The mean over the decoded trios of every statistic, and the statistics on which they differ."""
    values: dict[tuple[str, ...], list[Any]] = {}
    for trio in trios:
        point = trio.point
        if not isinstance(point, ResponseEstimate):
            continue
        for ell in labels:
            values.setdefault(("prevalence", ell), []).append(point.prevalence[ell])
        for c, rows in point.response.items():
            for t, row in rows.items():
                for a, v in row.items():
                    values.setdefault(("response", c, t, a), []).append(v)
    if not values:
        return None, []

    def mean(key: tuple[str, ...]) -> Any:
        xs = values.get(key)
        if not xs:
            return None
        if all(isinstance(x, Fraction) for x in xs):
            return sum(xs, Fraction(0)) / len(xs)
        if len(set(xs)) == 1:
            return xs[0]  # the trios agree on an algebraic number: it stays exact
        return sum(float(x) for x in xs) / len(xs)  # a mean of unrelated algebraic numbers: a float

    differ = [" ".join(k) for k, xs in values.items() if len(set(xs)) > 1]
    prevalence = {ell: mean(("prevalence", ell)) for ell in labels}
    response = {c: {t: {a: mean(("response", c, t, a)) for a in labels} for t in labels} for c in classifiers}
    accuracy = {c: {t: rows[t][t] for t in labels} for c, rows in response.items()}
    return ResponseEstimate(prevalence, accuracy, response), differ


def evaluate_many_labels(
    sketch: Sketch,
    decoding: str = "total_accuracy",
    prevalence_order: Sequence[str] | None = None,
    known_prevalences: Mapping[str, Any] | None = None,
) -> Evaluation:
    r"""Evaluate ``N >= 3`` classifiers with ``R >= 3`` labels assuming error independence.

    Parameters
    ----------
    sketch : Sketch
        Truth and populations are ignored (pooled).
    decoding, prevalence_order, known_prevalences
        See :func:`evaluate_counts_many`.

    Returns
    -------
    Evaluation
        For ``N = 3`` every candidate point and the chosen one. For ``N > 3`` every trio's
        evaluation (each decoded by the same rule) in ``trios`` and one combined point: the
        mean of the decoded trios' statistics (exact when all are rational or all equal), with a
        ``trio_disagreement`` alarm when the trios differ.
    """
    if sketch.n_classifiers < 3:
        raise SpecError(f"the algebraic evaluator needs at least 3 classifiers; this sketch has {sketch.n_classifiers}")
    pooled = sketch.pooled().unlabelled() if sketch.is_labelled or len(sketch.populations) > 1 else sketch
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    options: dict[str, Any] = {"decoding": decoding, "prevalence_order": prevalence_order,
                               "known_prevalences": known_prevalences}
    if sketch.n_classifiers == 3:
        return evaluate_counts_many(pooled.count_vector().tolist(), labels, classifiers, **options)
    trios = []
    for members in itertools.combinations(range(sketch.n_classifiers), 3):
        marginal = pooled.marginalise(list(members))
        trios.append(evaluate_counts_many(marginal.count_vector().tolist(), labels,
                                          tuple(classifiers[i] for i in members), **options))
    alarms = [Alarm(a.kind, f"trio {', '.join(t.classifiers)}: {a.detail}", t.classifiers)
              for t in trios for a in t.alarms]
    combined, differ = _combine(trios, labels, classifiers)
    if differ:
        alarms.append(Alarm("trio_disagreement", f"the decoded trios differ on {len(differ)} statistic(s): "
                                                 + "; ".join(differ[:6]) + ("; ..." if len(differ) > 6 else "")))
    if combined is None:
        return Evaluation("algebraic", labels, classifiers, (), None, {}, tuple(alarms), tuple(trios))
    return Evaluation("algebraic", labels, classifiers, (combined,), 0, {}, tuple(alarms), tuple(trios))


def evaluate_batch_many(counts: Any, n_labels: int) -> dict[str, Any]:
    r"""Vectorised floating-point evaluation of many three-classifier count vectors at once.

    Parameters
    ----------
    counts : array of shape (n, R^3)
        Lexicographic pattern order.
    n_labels : int

    Returns
    -------
    dict of arrays
        ``prevalence`` (n, R) and ``response`` (n, 3, R, R) with ``response[:, i, l, r] =
        P_{i,r|l}``, decoded by the largest summed total accuracy; ``ok`` (n,) is False where
        the pair table is singular or the roots are not real (those rows are NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> from evalgebra.data.simulate import expected_sketch
    >>> rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    >>> truth = EvaluationPoint.from_values(EnsembleSpec(3, 3), {"a": "1/2", "b": "3/10"},
    ...                                     response={i: rows for i in range(3)})
    >>> out = evaluate_batch_many(np.array([expected_sketch(truth).count_vector()] * 2), 3)
    >>> np.round(out["prevalence"], 6).tolist()
    [[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]]
    """
    r = n_labels
    data = np.asarray(counts, dtype=float)
    n = data.shape[0]
    cube = data.reshape(n, r, r, r)  # [item, answer of 0, answer of 1, answer of 2]
    weights = np.arange(r, dtype=float)
    m = cube.sum(axis=3)
    k = cube.sum(axis=2)
    s = cube @ weights
    q = data.sum(axis=1)
    ok = np.abs(np.linalg.det(m)) > 1e-9 * np.maximum(q, 1.0) ** r
    safe = np.where(ok[:, None, None], m, np.eye(r))
    values, vectors = np.linalg.eig(np.linalg.solve(safe.transpose(0, 2, 1), s.transpose(0, 2, 1)).transpose(0, 2, 1))
    ok &= np.all(np.abs(values.imag) < 1e-9, axis=1)
    a0 = vectors.real
    a0 = a0 / np.where(ok[:, None, None], a0.sum(axis=1, keepdims=True), 1.0)
    inverse = np.linalg.inv(np.where(ok[:, None, None], a0, np.eye(r)))
    bj, bk = inverse @ m, inverse @ k
    totals = bj.sum(axis=2)
    prevalence = totals / q[:, None]
    a1 = bj / totals[:, :, None]
    a2 = bk / totals[:, :, None]
    cols = np.stack([a0.transpose(0, 2, 1), a1, a2], axis=1)  # [item, classifier, column, answer]
    perms = np.array(list(itertools.permutations(range(r))))
    diag = cols[:, :, np.arange(r)[:, None], perms.T]  # [item, classifier, column, perm]
    scores = (prevalence[:, :, None] * diag.sum(axis=1)).sum(axis=1)
    best = perms[np.argmax(scores, axis=1)]  # perm[column] = label
    order = np.argsort(best, axis=1)  # column of each label
    rows = np.arange(n)[:, None]
    out_prevalence = prevalence[rows, order]
    response = cols[np.arange(n)[:, None, None], np.arange(3)[None, :, None], order[:, None, :]]
    out_prevalence[~ok] = np.nan
    response[~ok] = np.nan
    return {"prevalence": out_prevalence, "response": response, "ok": ok}
