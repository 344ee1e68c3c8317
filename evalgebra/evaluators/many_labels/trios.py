r"""Many labels, beyond one exact trio: larger ensembles trio by trio, and the vectorised float path.

:func:`evaluate_many_labels` is what ``evaluate(sketch, method="algebraic")`` runs for
``R >= 3``: the exact evaluator of :mod:`evalgebra.evaluators.many_labels.solve` on the sketch for
``N = 3``, on every trio's marginal sketch for ``N > 3``, the trios then aligned on their
shared classifiers and combined (:mod:`evalgebra.evaluators.trio_alignment`).
:func:`evaluate_batch_many_labels` evaluates many count vectors of three classifiers at once in
floating point with NumPy (batched eigen-decompositions of ``M^{-1} S``).

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
from evalgebra.evaluators.many_labels.solve import (
    DETAIL_UNDECIDED,
    evaluate_counts_many_labels,
    many_label_decoding,
)
from evalgebra.evaluators.trio_alignment import (
    Perm,
    combined_evaluation,
    least_assignment,
    sketch_trios,
    total_accuracy_assignment,
)
from evalgebra.results import BatchResult, Estimate, Evaluation

__all__ = ["evaluate_many_labels", "evaluate_batch_many_labels"]


def _decode_combined(point: Estimate, labels: tuple[str, ...], decoding: str, option: Any) -> Perm | None:
    """The renaming of a combined point chosen by the decoding rule of :func:`evaluate_counts_many_labels`."""
    if decoding == "total_accuracy":
        return total_accuracy_assignment(point, labels)
    prevalence = [point.prevalence[t] for t in labels]
    exact = all(isinstance(p, Fraction) for p in prevalence)
    values = prevalence if exact else [float(p) for p in prevalence]
    if decoding == "prevalence_order":
        ranked = sorted(range(len(labels)), key=lambda ell: -values[ell])
        if any(values[a] == values[b] for a, b in zip(ranked, ranked[1:])):
            return None
        perm = [0] * len(labels)
        for rank, ell in enumerate(ranked):
            perm[ell] = labels.index(option[rank])
        return tuple(perm)
    known = [option[t] if exact else float(option[t]) for t in labels]
    return least_assignment([[abs(p - k) for k in known] for p in values])[0]


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
        See :func:`evaluate_counts_many_labels`.

    Returns
    -------
    Evaluation
        For ``N = 3`` every candidate point and the chosen one. For ``N > 3`` every trio's
        evaluation in ``trios``, and the trios aligned on their shared classifiers and
        combined (:func:`~evalgebra.evaluators.trio_alignment.combined_evaluation`): the mean
        of the aligned trios' statistics (exact when all are rational or all equal, with a
        ``trio_disagreement`` alarm when they differ), decoded once by the rule over its
        ``R!`` renamings. No point, with a ``trio_disagreement`` alarm, when the trios cannot
        be aligned.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> from evalgebra.data.simulate import expected_sketch
    >>> rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"},
    ...         "c": {"a": "1/5", "b": "1/10"}}
    >>> truth = EvaluationPoint.from_values(EnsembleSpec(4, 3), {"a": "1/2", "b": "3/10"},
    ...                                     response={i: rows for i in range(4)})
    >>> result = evaluate_many_labels(expected_sketch(truth).unlabelled())
    >>> result.point.prevalence, len(result.trios), result.alarms
    ({'a': Fraction(1, 2), 'b': Fraction(3, 10), 'c': Fraction(1, 5)}, 4, ())
    """
    if sketch.n_classifiers < 3:
        raise SpecError(
            f"the algebraic evaluator needs at least 3 classifiers; this sketch has {sketch.n_classifiers}"
        )
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    decoding, option = many_label_decoding(decoding, prevalence_order, known_prevalences, labels)
    options: dict[str, Any] = {
        "decoding": decoding,
        "prevalence_order": prevalence_order,
        "known_prevalences": known_prevalences,
    }
    if sketch.n_classifiers == 3:
        pooled = sketch.pooled().unlabelled() if sketch.is_labelled or len(sketch.populations) > 1 else sketch
        return evaluate_counts_many_labels(pooled.count_vector().tolist(), labels, classifiers, **options)
    trios = sketch_trios(
        sketch, lambda counts, names: evaluate_counts_many_labels(counts, labels, names, **options)
    )
    return combined_evaluation(
        trios,
        labels,
        classifiers,
        lambda point: _decode_combined(point, labels, decoding, option),
        DETAIL_UNDECIDED,
    )


def evaluate_batch_many_labels(counts: Any, n_labels: int) -> BatchResult:
    r"""Vectorised floating-point evaluation of many three-classifier count vectors at once.

    Parameters
    ----------
    counts : array of shape (n, R^3)
        Lexicographic pattern order.
    n_labels : int

    Returns
    -------
    BatchResult
        Arrays by name, one row per count vector, ``decoded`` where ``ok``: ``prevalence`` (n, R)
        and ``response`` (n, 3, R, R) with ``response[:, i, l, r] = P_{i,r|l}``, decoded by the
        largest summed total accuracy; ``ok`` (n,) is False where the pair table is singular or
        the roots are not real (those rows are NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> from evalgebra.data.simulate import expected_sketch
    >>> rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"},
    ...         "c": {"a": "1/5", "b": "1/10"}}
    >>> truth = EvaluationPoint.from_values(EnsembleSpec(3, 3), {"a": "1/2", "b": "3/10"},
    ...                                     response={i: rows for i in range(3)})
    >>> out = evaluate_batch_many_labels(np.array([expected_sketch(truth).count_vector()] * 2), 3)
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
    values, vectors = np.linalg.eig(
        np.linalg.solve(safe.transpose(0, 2, 1), s.transpose(0, 2, 1)).transpose(0, 2, 1)
    )
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
    return BatchResult(
        "evaluate_batch_many_labels",
        {"prevalence": out_prevalence, "response": response, "ok": ok},
        decoded=ok,
    )
