r"""Dense crowds: every trio of workers evaluated on the tasks all three answered, then combined.

When the workers overlap enough (a few annotators labelling most tasks, or LLM judges with
gaps), each trio of workers that shares at least ``min_items`` tasks is an ordinary
three-classifier test: its ``R^3`` pattern counts on those tasks are evaluated with the
error-independent evaluator, exactly (``exact=True``: the closed form for two labels, the
many-labels eliminant for more; rational or algebraic numbers, alarms) or in floating point
(:func:`~evalgebra.evaluators.many_labels_trios.evaluate_batch_many`, all trios at once).
The estimates of a worker from its trios are combined by coverage: a mean weighted by the
number of tasks behind each trio; the prevalences likewise. A worker in no evaluable trio is
named with the reason.

Examples
--------
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=2, n_tasks=2000, n_workers=5, per_task=4)
>>> report = dense_trios(data.records())
>>> len(report.trios), report.too_sparse
(10, {})
>>> names, shared, evaluation = report.trios[0]
>>> names, shared, evaluation.method
(('w00', 'w01', 'w02'), 817, 'algebraic')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.crowd.table import CrowdTable, crowd_table
from evalgebra.errors import SpecError
from evalgebra.evaluators.closed_form import evaluate_counts
from evalgebra.evaluators.many_labels import evaluate_counts_many
from evalgebra.evaluators.many_labels_trios import evaluate_batch_many
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation

__all__ = ["DenseTrios", "dense_trios"]


@dataclass(frozen=True)
class DenseTrios:
    r"""Every evaluable trio of workers and the coverage-weighted combination.

    Attributes
    ----------
    labels, workers : tuple of str
    trios : tuple of (tuple of str, int, Evaluation)
        Each trio's workers, the number of tasks all three answered, its evaluation.
    priors : numpy.ndarray (R,)
        Prevalences, the mean over the decoded trios weighted by their tasks.
    rows : numpy.ndarray (W, R, R)
        ``rows[w, l, r] = P_{w,r|l}``, each worker's trios weighted by their tasks; NaN for a
        worker in no decoded trio.
    items : numpy.ndarray (W,)
        Tasks behind each worker's rows (summed over its decoded trios).
    too_sparse : dict
        ``{worker: reason}``.
    alarms : tuple of Alarm
        The trios' alarms, each naming its workers.
    """

    labels: tuple[str, ...]
    workers: tuple[str, ...]
    trios: tuple[tuple[tuple[str, ...], int, Evaluation], ...]
    priors: np.ndarray
    rows: np.ndarray
    items: np.ndarray
    too_sparse: dict[str, str]
    alarms: tuple[Alarm, ...]


def _answer_matrix(table: CrowdTable) -> np.ndarray:
    matrix = np.full((table.n_tasks, table.n_workers), -1, dtype=np.int64)
    matrix[table.task, table.worker] = table.answer
    return matrix


def _float_rows(evaluation: Evaluation, labels: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    point = evaluation.point
    if point is None:
        return None
    try:
        prevalence = np.array([float(point.prevalence[x]) for x in labels])
        rows = point.response_rows()
        table = np.array([[[float(rows[c][t][r]) for r in labels] for t in labels] for c in evaluation.classifiers])
    except (TypeError, ValueError):  # complex or undefined values
        return None
    return prevalence, table


def _float_evaluation(out: dict[str, Any], k: int, names: tuple[str, ...], labels: tuple[str, ...]) -> Evaluation:
    if not out["ok"][k]:
        return Evaluation("algebraic", labels, names, (), None, {},
                          (Alarm("blind_spot", "a singular pair table or complex roots", names),))
    prevalence = {x: float(p) for x, p in zip(labels, out["prevalence"][k])}
    response = {c: {t: {r: float(out["response"][k, i, a, b]) for b, r in enumerate(labels)}
                    for a, t in enumerate(labels)} for i, c in enumerate(names)}
    accuracy = {c: {t: response[c][t][t] for t in labels} for c in names}
    return Evaluation("algebraic", labels, names, (Estimate(prevalence, accuracy, response=response),), 0)


def dense_trios(data: Any, *, min_items: int = 50, exact: bool = False, labels: Sequence[str] | None = None,
                task: str = "task", worker: str = "worker", label: str = "label") -> DenseTrios:
    r"""Evaluate every trio of workers on the tasks all three answered, and combine them by coverage.

    Parameters
    ----------
    data : CrowdTable, pandas.DataFrame, mapping of columns, or iterable of (task, worker, label)
    min_items : int
        Fewest shared tasks for a trio to be evaluated.
    exact : bool
        Exact evaluation of every trio (integer counts; rational or algebraic results, with
        the failure-mode alarms); default: vectorised floating point.
    labels : sequence of str, optional
    task, worker, label : str
        Column names.

    Returns
    -------
    DenseTrios

    Examples
    --------
    >>> rows = [(f"t{t}", w, "a" if t % 3 else "b") for t in range(9) for w in ("x", "y")]
    >>> dense_trios(rows).too_sparse
    {'x': 'in no trio of three workers', 'y': 'in no trio of three workers'}
    """
    if min_items < 1:
        raise SpecError(f"min_items must be at least 1, got {min_items}")
    table = data if isinstance(data, CrowdTable) else crowd_table(data, task=task, worker=worker, label=label,
                                                                    labels=labels)
    r, n_workers = table.n_labels, table.n_workers
    matrix = _answer_matrix(table)
    answered = (matrix >= 0).astype(np.float64)
    pairs = answered.T @ answered
    chosen, counts, sizes = [], [], []
    for i, j in itertools.combinations(range(n_workers), 2):
        if pairs[i, j] < min_items:
            continue
        both = answered[:, i] * answered[:, j]
        for k in range(j + 1, n_workers):
            shared = (both * answered[:, k]) > 0
            size = int(shared.sum())
            if size >= min_items:
                cube = matrix[shared][:, [i, j, k]]
                chosen.append((i, j, k))
                sizes.append(size)
                counts.append(np.bincount(cube @ np.array([r * r, r, 1]), minlength=r ** 3))
    trios: list[tuple[tuple[str, ...], int, Evaluation]] = []
    if chosen and not exact:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = evaluate_batch_many(np.array(counts), r)
    for n, ((i, j, k), size) in enumerate(zip(chosen, sizes)):
        names: tuple[str, ...] = (table.workers[i], table.workers[j], table.workers[k])
        if exact:
            vector = counts[n].tolist()
            evaluation = (evaluate_counts(vector, table.labels, names) if r == 2
                          else evaluate_counts_many(vector, table.labels, names))
        else:
            evaluation = _float_evaluation(out, n, names, table.labels)
        trios.append((names, size, evaluation))
    weight_rows = np.zeros((n_workers, r, r))
    items = np.zeros(n_workers, dtype=np.int64)
    prior_sum, prior_weight = np.zeros(r), 0
    position = {w: k for k, w in enumerate(table.workers)}
    alarms: list[Alarm] = []
    for names, size, evaluation in trios:
        alarms.extend(Alarm(a.kind, a.detail, a.classifiers or names) for a in evaluation.alarms)
        values = _float_rows(evaluation, table.labels)
        if values is None:
            continue
        prevalence, rows = values
        prior_sum += size * prevalence
        prior_weight += size
        for c, row in zip(names, rows):
            weight_rows[position[c]] += size * row
            items[position[c]] += size
    too_sparse = {}
    for k, w in enumerate(table.workers):
        if items[k] == 0:
            member = any(w in names for names, _, _ in trios)
            too_sparse[w] = ("none of its trios could be decoded (see the alarms)" if member else
                             f"in no trio of three workers sharing at least {min_items} tasks" if n_workers >= 3
                             else "in no trio of three workers")
    with np.errstate(invalid="ignore", divide="ignore"):
        rows_out = weight_rows / items[:, None, None]
        priors = prior_sum / prior_weight if prior_weight else np.full(r, np.nan)
    return DenseTrios(table.labels, table.workers, tuple(trios), priors, rows_out, items, too_sparse, tuple(alarms))
