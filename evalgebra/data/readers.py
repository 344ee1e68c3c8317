r"""Reading tests into cell tables: per-item decisions, pattern counts, long rows and CSV.

Every reader returns a :class:`~evalgebra.data.cells.CellTable`, the plain pieces a
sketch is made of; :class:`~evalgebra.data.sketch.Sketch` assembles them (use its
``from_decisions``, ``from_counts``, ``from_long`` and ``from_csv``). The readers never
import the class they feed, so the data layer imports one way:
``patterns, cells, encoding -> readers -> sketch_json -> sketch``. The items CSV is read in
chunks by :mod:`evalgebra.data.items_csv` (re-exported here as :func:`csv_table`).

Per-item decisions are counted in one vectorised pass: every row is encoded as an
integer pattern code (after its population and true label) and the codes are counted
block by block with ``numpy.bincount`` (see :func:`~evalgebra.data.patterns.count_patterns`),
or sorted once when there are too many possible patterns for a count vector.

Decisions are label *names* (strings) or label *indices* (integers ``0..R-1``, with
names from ``labels`` or ``a, b, ...``), or named abstentions (``abstain=["unsure"]``:
responses that are not labels). Missing answers (``None``, NaN, empty strings, negative
indices; in long rows, a task a worker did not answer) follow ``missing=``: ``"error"``
(the default) refuses them, ``"abstain"`` counts them as the first abstention
(``"abstain"`` when none is named), ``"drop"`` drops every item that has one. Each table
carries a :class:`~evalgebra.data.cells.MissingReport` saying how many answers and items
that touched; no choice invents a label. Unknown labels raise
:class:`~evalgebra.errors.SketchError`.

Examples
--------
>>> import numpy as np
>>> table = decisions_table(np.array([[0, 1], [1, 1], [0, 1]]), truth=np.array([0, 1, 0]))
>>> table.labels, table.truth.tolist(), table.code.tolist(), table.count.tolist()
(('a', 'b'), [0, 1], [1, 3], [2, 1])
>>> counts_table({"ab": 2}, labels=["a", "b"]).code.tolist()
[1]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from evalgebra.data import items_csv
from evalgebra.data.cells import DENSE_LIMIT, INT64_MAX, UNLABELLED, CellTable, MissingReport
from evalgebra.data.encoding import (
    LabelEncoder,
    as_label_array,
    factorize,
    integers_if_all,
    population_indices,
)
from evalgebra.data.items_csv import csv_table
from evalgebra.data.patterns import check_size, count_patterns, encode
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int
from evalgebra.spec import EnsembleSpec

__all__ = [
    "decisions_table",
    "counts_table",
    "long_table",
    "csv_table",
    "check_count",
    "MAX_LINE_CHARS",
]

#: Longest line of an items CSV read, in characters (a CSV line holds one item's answers; see
#: :mod:`evalgebra.data.items_csv`).
MAX_LINE_CHARS = items_csv.MAX_LINE_CHARS


# -- per-item decisions -------------------------------------------------------------------
def decisions_table(
    decisions: Any,
    *,
    labels: Sequence[str] | int | None = None,
    classifiers: Sequence[str] | None = None,
    truth: Any = None,
    population: Any = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
) -> CellTable:
    r"""The cell table of per-item decisions (``items x classifiers``).

    The parameters are those of :meth:`Sketch.from_decisions
    <evalgebra.data.sketch.Sketch.from_decisions>`, which documents them.

    Examples
    --------
    >>> table = decisions_table([["yes", "no"], ["no", "no"]], classifiers=["x", "y"])
    >>> table.labels, table.code.tolist(), table.count.tolist()
    (('no', 'yes'), [0, 2], [1, 1])
    >>> table = decisions_table([["yes", None], ["no", "no"]], missing="drop")
    >>> table.code.tolist(), table.missing.dropped
    ([0], 1)
    """
    if hasattr(decisions, "columns") and hasattr(decisions, "to_numpy"):
        if classifiers is None:
            classifiers = [str(c) for c in decisions.columns]
        columns = [decisions[c].to_numpy() for c in decisions.columns]
        kinds = {c.dtype.kind for c in columns}
        if len(kinds) == 1 and kinds <= set("iu"):
            if len({c.dtype for c in columns}) == 1 and decisions.columns.is_unique:
                matrix = np.asarray(decisions.to_numpy())  # one block: a view, no copy
            else:
                matrix = np.column_stack(columns)
        else:
            matrix = integers_if_all(np.column_stack([c.astype(object) for c in columns]))
    else:
        matrix = as_label_array(decisions, "decisions")
    if matrix.ndim != 2:
        raise SketchError(f"decisions must be 2-dimensional (items x classifiers), got shape {matrix.shape}")
    n_items, n_classifiers = matrix.shape
    if n_items == 0:
        raise SketchError("empty test: no items")
    if n_classifiers == 0:
        raise SketchError("decisions have no classifier columns")
    names = list(classifiers) if classifiers is not None else [f"c{k}" for k in range(n_classifiers)]
    if len(names) != n_classifiers:
        raise SketchError(f"{len(names)} classifier names for {n_classifiers} columns")
    encoder = LabelEncoder(labels, abstain, missing)
    encoder.add(matrix, "decisions", names)
    truth_array = None
    if truth is not None:
        truth_array = as_label_array(truth, "truth").ravel()
        if truth_array.shape[0] != n_items:
            raise SketchError(f"truth has {truth_array.shape[0]} entries for {n_items} items")
        encoder.add(truth_array, "truth", answers=False)
    encoded, label_names = encoder.finish()
    n_labels = len(label_names)
    n_responses = n_labels + len(encoder.abstain)  # the pattern codes' base: labels, then abstentions
    check_size(n_classifiers, n_responses)
    pop_idx, pop_names = population_indices(population, populations, n_items)
    holes = encoder.holes(0)
    report = MissingReport.of(missing, holes, names, n_items, encoder.abstain[0] if encoder.abstain else None)
    if missing == "drop" and holes is not None:
        keep = ~holes.any(axis=1)
        if not keep.any():
            raise SketchError(
                f"every one of the {n_items} items has a missing answer: missing='drop' leaves no items"
            )
        encoded = [column[keep] for column in encoded]
        pop_idx, n_items = pop_idx[keep], int(keep.sum())
    labelled = truth_array is not None
    # one leading digit per item, (population, true label), ahead of the pattern code
    n_pop, n_truth = len(pop_names), n_labels if labelled else 1
    lead = None
    if n_pop > 1:
        lead = np.add(pop_idx * n_truth, encoded[1], dtype=np.int64) if labelled else pop_idx
    elif labelled:
        lead = encoded[1]
    n_codes = n_responses**n_classifiers
    n_cells = n_pop * n_truth * n_codes
    if n_cells <= DENSE_LIMIT:
        counts = count_patterns(encoded[0], n_responses, lead, n_pop * n_truth)
        cell = np.flatnonzero(counts)
        counts = counts[cell]
    elif n_cells <= INT64_MAX:
        # too many cells for a count vector: sort the codes once
        cell, counts = np.unique(encode(encoded[0], n_responses, lead), return_counts=True)
    else:
        codes = encode(encoded[0], n_responses)
        truth_idx = encoded[1] if labelled else np.full(n_items, UNLABELLED, dtype=np.int64)
        return CellTable(
            names, label_names, pop_idx, truth_idx, codes, None, pop_names, encoder.abstain, report
        )
    group, code = np.divmod(cell, n_codes)
    pop_cell, truth_cell = np.divmod(group, n_truth)
    if not labelled:
        truth_cell.fill(UNLABELLED)
    return CellTable(
        names, label_names, pop_cell, truth_cell, code, counts, pop_names, encoder.abstain, report
    )


# -- count mappings ----------------------------------------------------------------------
def check_count(value: Any, where: str) -> int:
    """One count as an int; a :class:`SketchError` naming ``where`` unless a non-negative integer."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SketchError(f"{where}: counts must be non-negative integers, got {short_repr(value)}")
    if value < 0:
        raise SketchError(f"{where}: counts must be non-negative integers, got {show_int(int(value))}")
    return int(value)


def _pattern_tuple(pattern: Any, labels: Sequence[str] | None) -> tuple[str, ...]:
    if isinstance(pattern, str):
        if labels is not None and all(len(lab) == 1 for lab in labels):
            return tuple(pattern)
        raise SketchError(
            f"pattern {pattern!r}: give patterns as tuples of label names "
            "(strings are accepted only when every label is one character)"
        )
    if not isinstance(pattern, Iterable):
        raise SketchError(f"pattern {pattern!r} is not a sequence of labels")
    return tuple(pattern)


def _count_rows(
    mapping: Mapping[Any, Any], labels: Sequence[str] | None, where: str
) -> list[tuple[tuple[str, ...], int]]:
    if not isinstance(mapping, Mapping):
        raise SketchError(f"{where}: expected a mapping pattern -> count, got {type(mapping).__name__}")
    rows = []
    for pattern, value in mapping.items():
        rows.append((_pattern_tuple(pattern, labels), check_count(value, f"{where} {pattern!r}")))
    return rows


def counts_table(
    counts: Mapping[Any, int] | None = None,
    *,
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    by_true_label: Mapping[str, Mapping[Any, int]] | None = None,
    population: str = "all",
    abstain: Any = None,
) -> CellTable:
    r"""The cell table of pattern counts, optionally split by true label.

    The parameters are those of :meth:`Sketch.from_counts
    <evalgebra.data.sketch.Sketch.from_counts>`, which documents them.

    Examples
    --------
    >>> table = counts_table({"aa": 3, "ab": 1}, labels=["a", "b"])
    >>> table.classifiers, table.code.tolist(), table.count.tolist()
    (('c0', 'c1'), [0, 1], [3, 1])
    >>> counts_table({"aa": 3}, labels=["a", "b"], by_true_label={"a": {"aa": 2}})
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SketchError: inconsistent totals: pattern ('a', 'a') has count 3
    but by_true_label sums to 2
    """
    if counts is None and by_true_label is None:
        raise SketchError("give counts, by_true_label, or both")
    labels = _names(labels, "labels")
    classifiers = _names(classifiers, "classifiers")
    rows = _count_rows(counts, labels, "counts") if counts is not None else []
    split: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    if by_true_label is not None:
        if not isinstance(by_true_label, Mapping):
            raise SketchError("by_true_label must map each true label to pattern counts")
        split = {str(t): _count_rows(m, labels, f"by_true_label[{t!r}]") for t, m in by_true_label.items()}
    patterns = [p for p, _ in rows] + [p for r in split.values() for p, _ in r]
    lengths = {len(p) for p in patterns}
    if len(lengths) > 1:
        raise SketchError(f"patterns have different lengths {sorted(lengths)}")
    n_classifiers = lengths.pop() if lengths else (len(classifiers) if classifiers else 0)
    if n_classifiers == 0:
        raise SketchError("empty test: no patterns")
    abstain = _names([abstain] if isinstance(abstain, str) else abstain, "abstain") or []
    if labels is None:
        labels = sorted(({lab for p in patterns for lab in p} | set(split)) - set(abstain))
    spec = EnsembleSpec(
        list(classifiers) if classifiers is not None else n_classifiers, list(labels), abstain=abstain
    )
    if spec.n_classifiers != n_classifiers:
        raise SketchError(f"{spec.n_classifiers} classifier names for patterns of length {n_classifiers}")

    def encoded(pattern_rows: list[tuple[tuple[str, ...], int]], where: str) -> dict[int, int]:
        result: dict[int, int] = {}
        for pattern, value in pattern_rows:
            unknown = [lab for lab in pattern if lab not in spec.responses]
            if unknown:
                raise SketchError(
                    f"{where}: unknown labels {unknown} in pattern {pattern}; labels are {list(spec.labels)}"
                    + (f", abstentions {list(spec.abstain)}" if spec.abstain else "")
                )
            code = int(encode(np.array([[spec.response_index(lab) for lab in pattern]]), spec.n_responses)[0])
            if code in result:
                raise SketchError(f"{where}: pattern {pattern} listed twice")
            result[code] = value
        return result

    total = encoded(rows, "counts")
    if by_true_label is not None:
        unknown = [t for t in split if t not in spec.labels]
        if unknown:
            raise SketchError(f"by_true_label: unknown true labels {unknown}; labels are {list(spec.labels)}")
        per_label = {spec.label_index(t): encoded(r, f"by_true_label[{t!r}]") for t, r in split.items()}
        if counts is not None:
            summed: dict[int, int] = {}
            for table in per_label.values():
                for code, value in table.items():
                    summed[code] = summed.get(code, 0) + value
            for code in sorted(set(summed) | set(total)):
                if summed.get(code, 0) != total.get(code, 0):
                    pattern = _decode_one(code, spec)
                    raise SketchError(
                        f"inconsistent totals: pattern {pattern} has count {total.get(code, 0)} "
                        f"but by_true_label sums to {summed.get(code, 0)}"
                    )
        cells = [(t, code, v) for t, table in per_label.items() for code, v in table.items()]
    else:
        cells = [(UNLABELLED, code, v) for code, v in total.items()]
    if not cells or sum(v for _, _, v in cells) == 0:
        raise SketchError("empty test: every count is zero")
    truth_col, code_col, count_col = (
        np.array(col, dtype=np.int64 if k < 2 else object) for k, col in enumerate(zip(*cells))
    )  # counts checked by the Sketch
    return CellTable(
        spec.classifiers,
        spec.labels,
        np.zeros_like(code_col),
        truth_col,
        code_col,
        count_col,
        (population,),
        spec.abstain,
    )


def _names(names: Any, what: str) -> list[str] | None:
    """``None`` or a list of names (str); a :class:`SketchError` for anything else."""
    if names is None:
        return None
    listed = None if isinstance(names, (str, bytes)) or not isinstance(names, Iterable) else list(names)
    if listed is None or not all(isinstance(name, str) for name in listed):
        raise SketchError(f"{what} must be a list of names (str), got {short_repr(names)}")
    return listed


def _decode_one(code: int, spec: EnsembleSpec) -> tuple[str, ...]:
    digits = []
    for _ in range(spec.n_classifiers):
        digits.append(code % spec.n_responses)
        code //= spec.n_responses
    return tuple(spec.responses[k] for k in reversed(digits))


# -- long format (task, worker, label) ---------------------------------------------------------
def long_table(
    records: Any,
    *,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    truth: Mapping[Any, str] | Any = None,
    abstain: Any = None,
    missing: str = "error",
) -> CellTable:
    r"""The cell table of long ``task, worker, label`` rows (the crowd-sourcing format).

    Every worker (classifier) answers every task at most once; a task a worker did not
    answer is a missing answer (``missing=``). The parameters are those of
    :meth:`Sketch.from_long <evalgebra.data.sketch.Sketch.from_long>`.

    Examples
    --------
    >>> rows = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b"), ("t2", "w2", "b")]
    >>> table = long_table(rows, truth={"t1": "a", "t2": "b"})
    >>> table.classifiers, table.truth.tolist(), table.code.tolist()
    (['w1', 'w2'], [0, 1], [1, 3])
    """
    if hasattr(records, "columns"):
        absent = [c for c in (task, worker, label) if c not in records.columns]
        if absent:
            raise SketchError(f"long table lacks columns {absent}; it has {list(records.columns)}")
        tasks, workers, answers = (records[c].to_numpy(dtype=object) for c in (task, worker, label))
    elif isinstance(records, Mapping):
        try:
            tasks, workers, answers = (_objects(records[c], c) for c in (task, worker, label))
        except KeyError as exc:
            raise SketchError(f"long table lacks column {short_repr(exc.args[0])}") from None
    else:
        if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
            raise SketchError(
                f"long rows must be (task, worker, label) triples, got {type(records).__name__}"
            )
        rows = list(records)
        if any(not isinstance(r, (tuple, list)) or len(r) != 3 for r in rows):
            raise SketchError("long rows must be (task, worker, label) triples")
        tasks, workers, answers = (
            _objects([r[k] for r in rows], name) for k, name in enumerate((task, worker, label))
        )
    if tasks.size == 0:
        raise SketchError("empty test: no rows")
    if not tasks.size == workers.size == answers.size:
        raise SketchError(
            f"long table columns have different lengths ({tasks.size}, {workers.size}, {answers.size})"
        )
    task_codes, task_names = factorize(tasks, "task")
    worker_codes, worker_names = factorize(workers, "worker")
    if any(isinstance(w, int) and w.bit_length() > 64 for w in worker_names):
        raise SketchError("worker: names are strings or integers of at most 64 bits")
    worker_names = [str(w) for w in worker_names]
    order = list(classifiers) if classifiers is not None else sorted(worker_names)
    unknown = [w for w in worker_names if w not in order]
    if unknown or (task_codes < 0).any() or (worker_codes < 0).any():
        raise SketchError(f"rows with missing task or worker, or unknown workers {short_repr(unknown)}")
    column = np.array([order.index(w) for w in worker_names], dtype=np.int64)[worker_codes]
    n_tasks, n_workers = len(task_names), len(order)
    cell = task_codes.astype(np.int64) * n_workers + column
    seen = np.bincount(cell, minlength=n_tasks * n_workers)
    if (seen > 1).any():
        k = int(np.flatnonzero(seen > 1)[0])
        raise SketchError(
            f"task {short_repr(task_names[k // n_workers])} has {int(seen[k])} answers from worker "
            f"{order[k % n_workers]!r}; each worker answers each task once"
        )
    if missing == "error" and (seen == 0).any():
        k = int(np.flatnonzero(seen == 0)[0])
        raise SketchError(
            f"task {short_repr(task_names[k // n_workers])} has no answer from worker "
            f"{order[k % n_workers]!r}; pass missing='abstain' to count unanswered tasks as an abstention "
            "or missing='drop' to drop them"
        )
    matrix = np.full((n_tasks, n_workers), None, dtype=object)
    matrix[task_codes, column] = answers
    truth_column = None
    if truth is not None:
        try:
            lookup = truth.to_dict() if hasattr(truth, "to_dict") else dict(truth)
        except (TypeError, ValueError):
            raise SketchError(
                f"truth must map each task to its true label, got {type(truth).__name__}"
            ) from None
        absent = [t for t in task_names if t not in lookup]
        if absent:
            raise SketchError(f"no true label for tasks {short_repr(absent[:5])}")
        truth_column = _objects([lookup[t] for t in task_names], "truth")
    return decisions_table(
        matrix, labels=labels, classifiers=order, truth=truth_column, abstain=abstain, missing=missing
    )


def _objects(values: Any, what: str) -> np.ndarray:
    """A 1-D object array of ``values`` as they are (a list cell stays one cell, never a new axis)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise SketchError(
            f"long table column {short_repr(what)} must be a sequence, got {type(values).__name__}"
        )
    listed = list(values)
    out = np.empty(len(listed), dtype=object)
    for k, value in enumerate(listed):
        out[k] = value
    return out
