r"""Dense crowds: every trio of workers evaluated on the tasks all three answered, then combined.

When the workers overlap enough (a few annotators labelling most tasks, or LLM judges with
gaps), each trio of workers that shares at least ``min_items`` tasks is an ordinary
three-classifier test: its ``R^3`` pattern counts on those tasks are evaluated with the
error-independent evaluator, exactly (``exact=True``: the closed form for two labels, the
many-labels eliminant for more; rational or algebraic numbers, alarms) or in floating point
(:func:`~evalgebra.evaluators.many_labels.trios.evaluate_batch_many_labels`, all trios at once).
The trios are aligned on their shared workers (each trio's hidden labels renamed to match the
others', :mod:`evalgebra.evaluators.trio_alignment`) and combined by coverage: a mean weighted
by the number of tasks behind each trio, decoded once by the largest summed total accuracy.
Trios that cannot be aligned are not combined (a ``trio_disagreement`` alarm). A worker in no
evaluable trio is named with the reason.

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
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.evaluators.many_labels.solve import evaluate_counts_many_labels
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels
from evalgebra.evaluators.trio_alignment import combine_trios, relabel, total_accuracy_assignment
from evalgebra.results import Alarm, Estimate, Evaluation
from evalgebra.results.batch import BatchResult

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
        Prevalences, the mean over the aligned trios weighted by their tasks (NaN when the
        trios could not be aligned).
    rows : numpy.ndarray (W, R, R)
        ``rows[w, l, r] = P_{w,r|l}``, each worker's aligned trios weighted by their tasks; NaN
        for a worker in no aligned trio.
    items : numpy.ndarray (W,)
        Tasks behind each worker's rows (summed over its aligned trios).
    too_sparse : dict
        ``{worker: reason}``.
    alarms : tuple of Alarm
        The trios' alarms, each naming its workers, and the alignment's.
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


def _float_rows(
    point: Estimate, labels: tuple[str, ...], workers: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Prevalences and every worker's rows as floats (NaN for a worker without rows)."""
    number = lambda v: np.nan if v is None else float(v)  # noqa: E731 - a worker in no aligned trio
    try:
        prevalence = np.array([number(point.prevalence[x]) for x in labels])
        rows = point.response_rows()
        table = np.array([[[number(rows[c][t][r]) for r in labels] for t in labels] for c in workers])
    except (TypeError, ValueError):  # complex values
        return None
    return prevalence, table


def _float_evaluation(
    out: BatchResult, k: int, names: tuple[str, ...], labels: tuple[str, ...]
) -> Evaluation:
    if not out["ok"][k]:
        return Evaluation(
            method="algebraic",
            labels=labels,
            classifiers=names,
            points=(),
            chosen=None,
            partition={},
            alarms=(Alarm("blind_spot", "a singular pair table or complex roots", classifiers=names),),
        )
    prevalence = {x: float(p) for x, p in zip(labels, out["prevalence"][k])}
    response = {
        c: {
            t: {r: float(out["response"][k, i, a, b]) for b, r in enumerate(labels)}
            for a, t in enumerate(labels)
        }
        for i, c in enumerate(names)
    }
    accuracy = {c: {t: response[c][t][t] for t in labels} for c in names}
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=names,
        points=(Estimate(prevalence, accuracy, response=response),),
        chosen=0,
    )


def dense_trios(
    data: Any,
    *,
    min_items: int = 50,
    exact: bool = False,
    labels: Sequence[str] | None = None,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
) -> DenseTrios:
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
    table = (
        data
        if isinstance(data, CrowdTable)
        else crowd_table(data, task=task, worker=worker, label=label, labels=labels)
    )
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
                counts.append(np.bincount(cube @ np.array([r * r, r, 1]), minlength=r**3))
    trios: list[tuple[tuple[str, ...], int, Evaluation]] = []
    if chosen and not exact:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = evaluate_batch_many_labels(np.array(counts), r)
    for n, ((i, j, k), size) in enumerate(zip(chosen, sizes)):
        names: tuple[str, ...] = (table.workers[i], table.workers[j], table.workers[k])
        if exact:
            vector = counts[n].tolist()
            evaluation = (
                evaluate_counts(vector, table.labels, names)
                if r == 2
                else evaluate_counts_many_labels(vector, table.labels, names)
            )
        else:
            evaluation = _float_evaluation(out, n, names, table.labels)
        trios.append((names, size, evaluation))
    return _combine(table, trios, min_items)


def _combine(
    table: CrowdTable, trios: list[tuple[tuple[str, ...], int, Evaluation]], min_items: int
) -> DenseTrios:
    """The trios aligned on their shared workers, combined by coverage, decoded once by total accuracy."""
    r, n_workers = table.n_labels, table.n_workers
    alarms = [
        Alarm(a.kind, a.detail, classifiers=a.classifiers or names)
        for names, _, evaluation in trios
        for a in evaluation.alarms
    ]
    combination = combine_trios(
        [e for _, _, e in trios], table.labels, table.workers, [size for _, size, _ in trios]
    )
    alarms.extend(combination.alarms)
    rows_out = np.full((n_workers, r, r), np.nan)
    priors = np.full(r, np.nan)
    items = np.zeros(n_workers, dtype=np.int64)
    point = combination.point
    perm = None if point is None else total_accuracy_assignment(point, table.labels)
    if point is not None and perm is None:
        alarms.append(
            Alarm(
                "undecided",
                "the combined trios tie in summed total accuracy over every "
                "renaming of the labels: reported in the first trio's labelling",
            )
        )
    if point is not None:
        decoded = relabel(point, perm or tuple(range(r)), table.labels)
        values = _float_rows(decoded, table.labels, table.workers)
        if values is not None:
            priors, rows_out = values
    position = {w: k for k, w in enumerate(table.workers)}
    for (names, size, _), aligned in zip(trios, combination.relabellings):
        if aligned is not None and point is not None:
            for c in names:
                items[position[c]] += size
    too_sparse = {}
    for k, w in enumerate(table.workers):
        if items[k] == 0:
            member = any(w in names for names, _, _ in trios)
            too_sparse[w] = (
                "none of its trios could be decoded and aligned (see the alarms)"
                if member
                else f"in no trio of three workers sharing at least {min_items} tasks"
                if n_workers >= 3
                else "in no trio of three workers"
            )
    return DenseTrios(
        table.labels, table.workers, tuple(trios), priors, rows_out, items, too_sparse, tuple(alarms)
    )
