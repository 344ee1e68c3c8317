r"""Long crowd answers (``task, worker, label``) coded as positions, with coverage.

Every worker may answer any subset of the tasks (at most once each); nothing is imputed.

Examples
--------
>>> table = crowd_table([("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b")])
>>> table.tasks, table.workers, table.labels
(('t1', 't2'), ('w1', 'w2'), ('a', 'b'))
>>> table.coverage().tolist()
[2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evalgebra.errors import SketchError

__all__ = ["CrowdTable", "crowd_table"]


@dataclass(frozen=True, eq=False)
class CrowdTable:
    r"""Crowd answers in positions: one entry per answer.

    Attributes
    ----------
    tasks, workers, labels : tuple of str
        Names, sorted unless given.
    task, worker, answer : numpy.ndarray of int
        Positions into ``tasks``, ``workers``, ``labels``.
    """

    tasks: tuple[str, ...]
    workers: tuple[str, ...]
    labels: tuple[str, ...]
    task: np.ndarray
    worker: np.ndarray
    answer: np.ndarray
    originals: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)
    #: For a pandas input: the names of each column as a pandas Index of the input's own dtype.
    indexes: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CrowdTable):
            return NotImplemented
        return (self.tasks, self.workers, self.labels) == (other.tasks, other.workers, other.labels) and all(
            np.array_equal(a, b)
            for a, b in ((self.task, other.task), (self.worker, other.worker), (self.answer, other.answer))
        )

    __hash__ = None  # type: ignore[assignment]

    def original(self, column: str, names: Sequence[str]) -> list[Any]:
        """The input's own values (e.g. integer labels) for names of ``column`` (``task``, ``worker``,
        ``label``).
        """
        values = self.originals.get(column)
        return list(names) if not values else [values.get(x, x) for x in names]

    @property
    def n_tasks(self) -> int:
        return len(self.tasks)

    @property
    def n_workers(self) -> int:
        return len(self.workers)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    def coverage(self) -> np.ndarray:
        """How many tasks each worker answered."""
        return np.bincount(self.worker, minlength=self.n_workers)

    def votes(self) -> np.ndarray:
        """``votes[t, r]``: how many workers answered ``r`` on task ``t``."""
        r = self.n_labels
        return np.bincount(self.task * r + self.answer, minlength=self.n_tasks * r).reshape(self.n_tasks, r)


def _columns(data: Any, task: str, worker: str, label: str) -> tuple[Any, Any, Any]:
    if hasattr(data, "columns") and hasattr(data, "__getitem__"):  # a pandas DataFrame
        missing = [c for c in (task, worker, label) if c not in data.columns]
        if missing:
            raise SketchError(
                f"the frame has no column(s) {missing}; it has {list(data.columns)} "
                f"(name them with task=, worker=, label=)"
            )
        return data[task], data[worker], data[label]
    if isinstance(data, dict):
        missing = [c for c in (task, worker, label) if c not in data]
        if missing:
            raise SketchError(f"the mapping has no column(s) {missing}; it has {list(data)}")
        return data[task], data[worker], data[label]
    try:
        rows = [tuple(row) for row in data]
    except TypeError:
        raise SketchError(
            f"need a DataFrame, a mapping of columns or (task, worker, label) rows, got {type(data).__name__}"
        ) from None
    if any(len(row) != 3 for row in rows):
        raise SketchError("every row needs three entries: task, worker, label")
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _missing(value: Any) -> bool:
    return (
        value is None
        or (isinstance(value, float) and value != value)
        or (isinstance(value, str) and value == "")
    )


def _refuse_missing(bad: list[int], what: str) -> None:
    if bad:
        raise SketchError(
            f"missing {what} in {len(bad)} row(s) (first: row {bad[0]}); drop them, or give the "
            f"abstention as a label of its own"
        )


def _code(
    values: Any,
    what: str,
    names: Sequence[str] | None = None,
    originals: dict[str, Any] | None = None,
    indexes: dict[str, Any] | None = None,
) -> tuple[tuple[str, ...], np.ndarray]:
    """Names (sorted, or as given) and the position of every value, via pandas when present.

    Values that are not strings are named by their text; ``originals`` (when given) gets
    ``text -> value`` for them.
    """
    if hasattr(values, "isna") and hasattr(values, "factorize"):  # a pandas Series: its fast coding
        raw, uniques = values.factorize()  # missing cells get code -1; the names are sorted below
        text = np.asarray(uniques, dtype=object)
        strings = getattr(values.dtype, "name", "") in ("str", "string")
        if not strings and not all(isinstance(x, str) for x in text.tolist()):
            if originals is not None:
                for x in reversed(text.tolist()):  # the first value seen with each text wins
                    originals[str(x)] = x
            text = np.array([str(x) for x in text.tolist()], dtype=object)
        _refuse_missing(np.flatnonzero((raw < 0) | np.isin(raw, np.flatnonzero(text == ""))).tolist(), what)
        order = np.argsort(text, kind="stable")
        if len(set(text.tolist())) < len(text):  # distinct cells with one text (1 and "1"): merge them
            seen, merged = np.unique(text, return_inverse=True)
            codes = merged[raw]
        else:
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            seen, codes = text[order], rank[raw]
            if indexes is not None and names is None:
                indexes[what] = uniques.take(order)
    else:
        array = np.array(list(values), dtype=object)
        _refuse_missing([k for k, v in enumerate(array.tolist()) if _missing(v)], what)
        seen, codes = np.unique(array.astype(str), return_inverse=True)
    if names is None:
        return tuple(seen.tolist()), codes
    names = tuple(str(x) for x in names)
    position = {x: k for k, x in enumerate(names)}
    unknown = [x for x in seen.tolist() if x not in position]
    if unknown:
        raise SketchError(f"{what} {unknown[:5]} not among the given {list(names)}")
    return names, np.array([position[x] for x in seen.tolist()], dtype=np.int64)[codes]


def crowd_table(
    data: Any,
    *,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
    labels: Sequence[str] | None = None,
) -> CrowdTable:
    r"""Code long crowd answers: one row per answer, any subset of tasks per worker.

    Parameters
    ----------
    data : pandas.DataFrame, mapping of columns, or iterable of (task, worker, label)
    task, worker, label : str
        Column names.
    labels : sequence of str, optional
        All label names in order (default: the sorted names seen; list labels nobody
        answered here to keep them).

    Returns
    -------
    CrowdTable

    Raises
    ------
    SketchError
        Missing cells, a worker answering a task twice, fewer than two labels, no rows.

    Examples
    --------
    >>> crowd_table([("t1", "w1", "a"), ("t1", "w1", "b")])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SketchError: worker 'w1' answered task 't1' 2 times; each worker may answer a task
    once (drop or merge the repeats)
    """
    tasks_raw, workers_raw, labels_raw = _columns(data, task, worker, label)
    originals: dict[str, dict[str, Any]] = {"task": {}, "worker": {}, "label": {}}
    indexes: dict[str, Any] = {}
    tasks, task_codes = _code(tasks_raw, "task", None, originals["task"], indexes)
    workers, worker_codes = _code(workers_raw, "worker", None, originals["worker"], indexes)
    names, answers = _code(labels_raw, "label", labels, originals["label"], indexes)
    if len(task_codes) == 0:
        raise SketchError("no answers: the table is empty")
    if len(names) < 2:
        raise SketchError(f"need at least two labels, got {list(names)} (name the others with labels=)")
    task_codes, worker_codes, answers = (
        np.asarray(c, dtype=np.int64) for c in (task_codes, worker_codes, answers)
    )
    pairs = task_codes * len(workers) + worker_codes
    if len(tasks) * len(workers) <= 50_000_000:  # a worker answering a task twice: counts by (task, worker)
        counts = np.bincount(pairs, minlength=len(tasks) * len(workers))
        unique = None
    else:
        unique, counts = np.unique(pairs, return_counts=True)
    if counts.max() > 1:
        where = int(np.argmax(counts > 1))
        first = where if unique is None else int(unique[where])
        raise SketchError(
            f"worker {workers[first % len(workers)]!r} answered task {tasks[first // len(workers)]!r} "
            f"{counts[where]} times; each worker may answer a task once (drop or merge the repeats)"
        )
    return CrowdTable(
        tasks,
        workers,
        names,
        task_codes,
        worker_codes,
        answers,
        {k: v for k, v in originals.items() if v},
        indexes,
    )
