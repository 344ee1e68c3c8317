r"""Building sketches from per-item decisions, counts, long tables and CSV.

Per-item decisions are counted in one vectorised pass: every row is encoded as an
integer pattern code (after its population and true label) and the codes are counted
block by block with ``numpy.bincount`` (see :func:`~evalgebra.data.patterns.count_patterns`),
or sorted once when there are too many possible patterns for a count vector.

Decisions are label *names* (strings) or label *indices* (integers ``0..R-1``, with
names from ``labels`` or ``a, b, ...``). Missing answers (``None``, NaN, empty strings,
negative indices) and unknown labels raise :class:`~evalgebra.errors.SketchError`:
abstention is not modelled yet.

Sketch JSON v1 is read and written by :mod:`evalgebra.data.sketch_json`.

Examples
--------
>>> import numpy as np
>>> sk = from_decisions(np.array([[0, 1], [1, 1], [0, 1]]), truth=np.array([0, 1, 0]))
>>> sk.by_true_label()
{'a': {('a', 'b'): 2}, 'b': {('b', 'b'): 1}}
>>> Sketch.read_json(sk.to_json()) == sk
True
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from evalgebra.errors import SketchError
from evalgebra.data.patterns import check_size, count_patterns, encode
from evalgebra.data.sketch import DENSE_LIMIT, INT64_MAX, UNLABELLED, Sketch
from evalgebra.fileio import write_text_atomic
from evalgebra.spec import EnsembleSpec, default_label_names

__all__ = [
    "from_decisions",
    "from_counts",
    "from_long",
    "read_items_csv",
    "write_text_atomic",
]

#: Integer decisions without ``labels=`` name at most this many labels ``a, b, ...``.
_MAX_INFERRED_LABELS = 1 << 16


# -- label encoding ---------------------------------------------------------------------
def _is_missing(value: Any) -> bool:
    return value is None or value == "" or value != value


def _missing_mask(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind in "US":
        return values == values.dtype.type("")
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "O":
        return np.frompyfunc(_is_missing, 1, 1)(values).astype(bool)
    return np.zeros(values.shape, dtype=bool)


def _factorize_objects(values: np.ndarray) -> tuple[np.ndarray, list[Any], np.ndarray] | None:
    """``(codes, uniques, missing mask)`` of an object array, testing each distinct value once.

    ``None`` without pandas. ``pandas.factorize`` codes None, NaN and NaT as -1 (the rest
    of :func:`_is_missing`, empty strings, is checked on the distinct values).
    """
    try:
        import pandas  # noqa: F401
    except ImportError:  # pragma: no cover - pandas is a test dependency
        return None
    codes, uniques = _factorize(values)
    missing = codes < 0
    blank = [k for k, u in enumerate(uniques) if _is_missing(u)]
    if blank:
        missing |= np.isin(codes, blank)
    return codes, uniques, missing


_RANGE_BLOCK = 1 << 20  # bytes per block of _index_range: min and max read it from cache


def _index_range(values: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` of an integer array in one pass over memory (``(0, -1)`` when empty)."""
    if values.size == 0:
        return 0, -1
    if values.dtype.kind == "u":
        return 0, int(values.max())
    if not (values.flags.c_contiguous or values.flags.f_contiguous):
        return int(values.min()), int(values.max())
    flat = values.ravel(order="K")  # a view, in memory order
    step = _RANGE_BLOCK // values.dtype.itemsize
    low, high = int(flat[0]), int(flat[0])
    for start in range(0, flat.size, step):
        block = flat[start : start + step]  # cached between the two reductions
        low, high = min(low, int(block.min())), max(high, int(block.max()))
    return low, high


def _describe(position: tuple[int, ...], what: str, names: Sequence[str] | None) -> str:
    if len(position) == 2 and names is not None:
        return f"item {position[0]}, classifier {names[position[1]]!r}"
    return f"{what} of item {position[0]}"


def _factorize(values: np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """Codes into the list of distinct values (hash-based with pandas, else sorting)."""
    flat = values.ravel()
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a test dependency
        uniques, inverse = np.unique(flat, return_inverse=True)
        return inverse.reshape(values.shape), uniques.tolist()
    codes, uniques = pd.factorize(flat, use_na_sentinel=True)
    plain = [u.item() if isinstance(u, np.generic) else u for u in uniques]
    return codes.reshape(values.shape), plain


class _Encoder:
    """Turns label names or indices into label indices, sharing one label list."""

    def __init__(self, labels: Sequence[str] | int | None) -> None:
        self.fixed = labels is not None
        if isinstance(labels, int):
            labels = default_label_names(labels)
        self.labels: list[str] = [] if labels is None else list(labels)
        self.integer = False
        # (label indices or factorize codes, distinct names, largest integer index)
        self._pending: list[tuple[np.ndarray, list[Any], int]] = []

    def add(self, values: np.ndarray, what: str, names: Sequence[str] | None = None) -> int:
        if values.dtype.kind == "b":
            raise SketchError(f"{what}: booleans are not labels; use label names or indices")
        if values.dtype.kind in "iu":
            # integers cannot be missing except as negative indices; they stay in their
            # own dtype (no int64 copy) and are scanned once for their range
            self.integer = True
            low, high = _index_range(values)
            if low < 0:
                position = tuple(int(x) for x in np.argwhere(values < 0)[0])
                raise SketchError(
                    f"missing answer (negative index) at {_describe(position, what, names)}"
                )
            self._pending.append((values, [], high))
            return len(self._pending) - 1
        factorized = _factorize_objects(values) if values.dtype.kind == "O" else None
        missing = _missing_mask(values) if factorized is None else factorized[2]
        if missing.any():
            position = tuple(int(x) for x in np.argwhere(missing)[0])
            raise SketchError(
                f"missing answer at {_describe(position, what, names)} "
                "(abstention is not modelled yet)"
            )
        if values.dtype.kind == "f":
            raise SketchError(f"{what}: decisions must be label names (str) or indices (int), not floats")
        codes, uniques = _factorize(values) if factorized is None else factorized[:2]
        for u in uniques:
            if not isinstance(u, str):
                raise SketchError(
                    f"{what}: label {u!r} is not a string; use label names or integer indices"
                )
        self._pending.append((codes, uniques, -1))
        return len(self._pending) - 1

    def finish(self) -> tuple[list[np.ndarray], tuple[str, ...]]:
        """Label indices (integer input keeps its dtype) and the label names."""
        names_seen = sorted({u for _, uniques, _ in self._pending for u in uniques})
        if self.integer and names_seen:
            raise SketchError("decisions mix label names and integer indices")
        if not self.fixed:
            if self.integer:
                top = max((high for _, _, high in self._pending), default=0)
                if top >= _MAX_INFERRED_LABELS:
                    raise SketchError(
                        f"label index {top} is too large to infer the labels from "
                        f"(at most {_MAX_INFERRED_LABELS} inferred); pass labels=[...]"
                    )
                self.labels = list(default_label_names(max(2, top + 1)))
            else:
                self.labels = names_seen
                if len(self.labels) < 2:
                    raise SketchError(
                        f"only one label seen ({self.labels}); pass labels=[...] to name them all"
                    )
        n_labels = len(self.labels)
        out = []
        for codes, uniques, high in self._pending:
            if self.integer:
                if high >= n_labels:
                    raise SketchError(f"label index {high} out of range for labels {self.labels}")
                out.append(codes)
                continue
            unknown = [u for u in uniques if u not in self.labels]
            if unknown:
                raise SketchError(f"unknown labels {unknown}; labels are {self.labels}")
            lookup = np.array([self.labels.index(u) for u in uniques], dtype=np.int64)
            out.append(lookup[codes] if lookup.size else codes.astype(np.int64))
        return out, tuple(self.labels)


def _as_array(values: Any, what: str) -> np.ndarray:
    """An array of label names or indices, never converting values to other kinds.

    Python sequences are read as objects first, so a NaN or an integer among strings
    stays what it is (``np.asarray`` would turn them into the strings ``'nan'``, ``'1'``);
    integer-only data becomes an integer array.
    """
    if isinstance(values, np.ndarray):
        array = values
    else:
        try:
            array = np.array(values, dtype=object)
        except ValueError:
            raise SketchError(f"{what}: rows of different lengths") from None
    if array.ndim == 0:
        raise SketchError(f"{what}: cannot read {type(values).__name__} as an array")
    if array.dtype.kind == "O":
        array = _integers_if_all(array)
    return array


def _integers_if_all(array: np.ndarray) -> np.ndarray:
    """An object array holding only (non-bool) integers as ``int64``; else unchanged."""
    flat = array.ravel()
    if flat.size and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in flat
    ):
        return array.astype(np.int64)
    return array


def _population_indices(
    population: Any, populations: Sequence[str] | None, n_items: int
) -> tuple[np.ndarray, tuple[str, ...]]:
    if population is None:
        names = tuple(populations) if populations is not None else ("all",)
        if len(names) != 1:
            raise SketchError("several populations named but no per-item population given")
        return np.zeros(n_items, dtype=np.int64), names
    if isinstance(population, str):
        return np.zeros(n_items, dtype=np.int64), (population,)
    array = _as_array(population, "population").ravel()
    if array.shape[0] != n_items:
        raise SketchError(f"population has {array.shape[0]} entries for {n_items} items")
    if array.dtype.kind in "iu":
        names = tuple(populations) if populations is not None else tuple(
            f"p{k}" for k in range(int(array.max()) + 1)
        )
        if int(array.min()) < 0 or int(array.max()) >= len(names):
            raise SketchError(f"population index out of range for populations {list(names)}")
        return array.astype(np.int64), names
    codes, uniques = _factorize(array)
    if (codes < 0).any():
        raise SketchError("missing population for some items")
    names = tuple(populations) if populations is not None else tuple(sorted(str(u) for u in uniques))
    unknown = [u for u in uniques if str(u) not in names]
    if unknown:
        raise SketchError(f"unknown populations {unknown}; populations are {list(names)}")
    lookup = np.array([names.index(str(u)) for u in uniques], dtype=np.int64)
    return lookup[codes], names


# -- per-item decisions -------------------------------------------------------------------
def from_decisions(
    decisions: Any,
    *,
    labels: Sequence[str] | int | None = None,
    classifiers: Sequence[str] | None = None,
    truth: Any = None,
    population: Any = None,
    populations: Sequence[str] | None = None,
) -> Sketch:
    r"""Count per-item decisions into a sketch.

    Parameters
    ----------
    decisions : array-like or pandas.DataFrame
        ``items x classifiers``: label names or label indices. A DataFrame gives one
        column per classifier (its column names name the classifiers).
    labels : sequence of str or int, optional
        All label names in order (default: sorted names seen, or ``a, b, ...`` for
        indices). Labels never used must be listed here to be part of the sketch.
    classifiers : sequence of str, optional
        Classifier names (default: DataFrame columns, else ``c0, c1, ...``).
    truth : array-like, optional
        The answer key, one true label per item; makes a labelled sketch.
    population : str or array-like, optional
        One population for all items, or a population per item.
    populations : sequence of str, optional
        Population names (order) when ``population`` holds indices or to fix the order.

    Examples
    --------
    >>> sk = from_decisions([["yes", "no"], ["no", "no"]], classifiers=["x", "y"])
    >>> sk.labels, sk.counts()
    (('no', 'yes'), {('no', 'no'): 1, ('yes', 'no'): 1})
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
            matrix = _integers_if_all(np.column_stack([c.astype(object) for c in columns]))
    else:
        matrix = _as_array(decisions, "decisions")
    if matrix.ndim != 2:
        raise SketchError(
            f"decisions must be 2-dimensional (items x classifiers), got shape {matrix.shape}"
        )
    n_items, n_classifiers = matrix.shape
    if n_items == 0:
        raise SketchError("empty test: no items")
    if n_classifiers == 0:
        raise SketchError("decisions have no classifier columns")
    names = list(classifiers) if classifiers is not None else [f"c{k}" for k in range(n_classifiers)]
    if len(names) != n_classifiers:
        raise SketchError(f"{len(names)} classifier names for {n_classifiers} columns")
    encoder = _Encoder(labels)
    encoder.add(matrix, "decisions", names)
    truth_array = None
    if truth is not None:
        truth_array = _as_array(truth, "truth").ravel()
        if truth_array.shape[0] != n_items:
            raise SketchError(f"truth has {truth_array.shape[0]} entries for {n_items} items")
        encoder.add(truth_array, "truth")
    encoded, label_names = encoder.finish()
    n_labels = len(label_names)
    check_size(n_classifiers, n_labels)
    pop_idx, pop_names = _population_indices(population, populations, n_items)
    labelled = truth_array is not None
    # one leading digit per item, (population, true label), ahead of the pattern code
    n_pop, n_truth = len(pop_names), n_labels if labelled else 1
    lead = None
    if n_pop > 1:
        lead = np.add(pop_idx * n_truth, encoded[1], dtype=np.int64) if labelled else pop_idx
    elif labelled:
        lead = encoded[1]
    n_codes = n_labels**n_classifiers
    n_cells = n_pop * n_truth * n_codes
    if n_cells <= DENSE_LIMIT:
        counts = count_patterns(encoded[0], n_labels, lead, n_pop * n_truth)
        cell = np.flatnonzero(counts)
        counts = counts[cell]
    elif n_cells <= INT64_MAX:
        # too many cells for a count vector: sort the codes once
        cell, counts = np.unique(encode(encoded[0], n_labels, lead), return_counts=True)
    else:
        codes = encode(encoded[0], n_labels)
        truth_idx = encoded[1] if labelled else np.full(n_items, UNLABELLED, dtype=np.int64)
        return Sketch(names, label_names, pop_idx, truth_idx, codes, None, pop_names)
    group, code = np.divmod(cell, n_codes)
    pop_cell, truth_cell = np.divmod(group, n_truth)
    if not labelled:
        truth_cell.fill(UNLABELLED)
    return Sketch(names, label_names, pop_cell, truth_cell, code, counts, pop_names)


# -- count mappings ----------------------------------------------------------------------
def check_count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SketchError(f"{where}: counts must be non-negative integers, got {value!r}")
    if value < 0:
        raise SketchError(f"{where}: counts must be non-negative integers, got {value}")
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


def from_counts(
    counts: Mapping[Any, int] | None = None,
    *,
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    by_true_label: Mapping[str, Mapping[Any, int]] | None = None,
    population: str = "all",
) -> Sketch:
    r"""A sketch from pattern counts, optionally split by true label.

    Parameters
    ----------
    counts : mapping pattern -> int, optional
        Patterns are tuples of label names (or strings like ``"aab"`` when every label is
        one character). Optional when ``by_true_label`` is given.
    labels, classifiers : sequence of str, optional
        Default: sorted labels seen; ``c0, c1, ...``.
    by_true_label : mapping label -> (mapping pattern -> int), optional
        Counts split by true label; their sum must equal ``counts``.
    population : str
        The population's name.

    Examples
    --------
    >>> sk = from_counts({"aa": 3, "ab": 1}, labels=["a", "b"])
    >>> sk.Q, sk.classifiers
    (4, ('c0', 'c1'))
    >>> from_counts({"aa": 3}, labels=["a", "b"], by_true_label={"a": {"aa": 2}})
    Traceback (most recent call last):
    ...
    evalgebra.errors.SketchError: inconsistent totals: pattern ('a', 'a') has count 3 but by_true_label sums to 2
    """
    if counts is None and by_true_label is None:
        raise SketchError("give counts, by_true_label, or both")
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
    if labels is None:
        labels = sorted({lab for p in patterns for lab in p} | set(split))
    spec = EnsembleSpec(
        list(classifiers) if classifiers is not None else n_classifiers, list(labels)
    )
    if spec.n_classifiers != n_classifiers:
        raise SketchError(f"{spec.n_classifiers} classifier names for patterns of length {n_classifiers}")

    def encoded(pattern_rows: list[tuple[tuple[str, ...], int]], where: str) -> dict[int, int]:
        result: dict[int, int] = {}
        for pattern, value in pattern_rows:
            unknown = [lab for lab in pattern if lab not in spec.labels]
            if unknown:
                raise SketchError(f"{where}: unknown labels {unknown} in pattern {pattern}; labels are {list(spec.labels)}")
            code = int(encode(np.array([[spec.labels.index(lab) for lab in pattern]]), spec.n_labels)[0])
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
    truth_col, code_col, count_col = (np.array(col, dtype=np.int64 if k < 2 else object)
                                      for k, col in enumerate(zip(*cells)))  # counts checked by Sketch
    return Sketch(spec.classifiers, spec.labels, np.zeros_like(code_col), truth_col, code_col, count_col, [population])


def _decode_one(code: int, spec: EnsembleSpec) -> tuple[str, ...]:
    digits = []
    for _ in range(spec.n_classifiers):
        digits.append(code % spec.n_labels)
        code //= spec.n_labels
    return tuple(spec.labels[k] for k in reversed(digits))


# -- long format (task, worker, label) ---------------------------------------------------------
def from_long(
    records: Any,
    *,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
    labels: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    truth: Mapping[Any, str] | Any = None,
) -> Sketch:
    r"""A sketch from long ``task, worker, label`` rows (the crowd-sourcing format).

    Every worker (classifier) must answer every task exactly once.

    Parameters
    ----------
    records : pandas.DataFrame, mapping of columns, or iterable of 3-tuples
    task, worker, label : str
        Column names.
    labels : sequence of str, optional
    classifiers : sequence of str, optional
        Worker names in the order wanted (default: sorted).
    truth : mapping task -> label (a dict or a pandas Series), optional

    Examples
    --------
    >>> rows = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b"), ("t2", "w2", "b")]
    >>> from_long(rows, truth={"t1": "a", "t2": "b"}).by_true_label()
    {'a': {('a', 'b'): 1}, 'b': {('b', 'b'): 1}}
    """
    if hasattr(records, "columns"):
        missing = [c for c in (task, worker, label) if c not in records.columns]
        if missing:
            raise SketchError(f"long table lacks columns {missing}; it has {list(records.columns)}")
        tasks, workers, answers = (records[c].to_numpy(dtype=object) for c in (task, worker, label))
    elif isinstance(records, Mapping):
        try:
            tasks, workers, answers = (np.asarray(records[c], dtype=object) for c in (task, worker, label))
        except KeyError as exc:
            raise SketchError(f"long table lacks column {exc.args[0]!r}") from None
    else:
        rows = list(records)
        if any(len(r) != 3 for r in rows):
            raise SketchError("long rows must be (task, worker, label) triples")
        tasks, workers, answers = (np.array([r[k] for r in rows], dtype=object) for k in range(3))
    if tasks.size == 0:
        raise SketchError("empty test: no rows")
    task_codes, task_names = _factorize(tasks)
    worker_codes, worker_names = _factorize(workers)
    worker_names = [str(w) for w in worker_names]
    order = list(classifiers) if classifiers is not None else sorted(worker_names)
    unknown = [w for w in worker_names if w not in order]
    if unknown or (task_codes < 0).any() or (worker_codes < 0).any():
        raise SketchError(f"rows with missing task or worker, or unknown workers {unknown}")
    column = np.array([order.index(w) for w in worker_names], dtype=np.int64)[worker_codes]
    n_tasks, n_workers = len(task_names), len(order)
    cell = task_codes.astype(np.int64) * n_workers + column
    seen = np.bincount(cell, minlength=n_tasks * n_workers)
    if (seen > 1).any():
        k = int(np.flatnonzero(seen > 1)[0])
        raise SketchError(
            f"task {task_names[k // n_workers]!r} has {int(seen[k])} answers from worker "
            f"{order[k % n_workers]!r}; each worker answers each task once"
        )
    if (seen == 0).any():
        k = int(np.flatnonzero(seen == 0)[0])
        raise SketchError(
            f"task {task_names[k // n_workers]!r} has no answer from worker "
            f"{order[k % n_workers]!r} (abstention is not modelled yet)"
        )
    matrix = np.empty((n_tasks, n_workers), dtype=object)
    matrix[task_codes, column] = answers
    truth_column = None
    if truth is not None:
        lookup = truth.to_dict() if hasattr(truth, "to_dict") else dict(truth)
        absent = [t for t in task_names if t not in lookup]
        if absent:
            raise SketchError(f"no true label for tasks {absent[:5]}")
        truth_column = np.array([lookup[t] for t in task_names], dtype=object)
    return from_decisions(matrix, labels=labels, classifiers=order, truth=truth_column)


# -- items CSV ---------------------------------------------------------------------------------
def read_items_csv(
    path: str | os.PathLike[str] | io.TextIOBase,
    *,
    truth: str | None = None,
    population: str | None = None,
    labels: Sequence[str] | None = None,
) -> Sketch:
    r"""A sketch from a CSV of items: a header row, one column per classifier.

    Parameters
    ----------
    path : path or text file
    truth : str, optional
        Name of the column holding the true label (makes a labelled sketch).
    population : str, optional
        Name of the column holding each item's population.
    labels : sequence of str, optional

    Examples
    --------
    >>> import io
    >>> read_items_csv(io.StringIO("m1,m2,y\na,b,a\nb,b,b\n"), truth="y").Q
    2
    """
    if isinstance(path, (str, os.PathLike)):
        with open(path, newline="", encoding="utf-8-sig") as handle:  # a leading BOM is not a name
            return read_items_csv(handle, truth=truth, population=population, labels=labels)
    reader = csv.reader(path)
    try:
        header = next(reader)
    except StopIteration:
        raise SketchError("CSV is empty: expected a header row") from None
    header = [h.strip() for h in header]
    for column in (truth, population):
        if column is not None and column not in header:
            raise SketchError(f"CSV has no column {column!r}; columns are {header}")
    columns = [k for k, h in enumerate(header) if h not in (truth, population)]
    if not columns:
        raise SketchError("CSV has no classifier columns")
    rows = []
    for line_number, row in enumerate(reader, start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise SketchError(f"CSV line {line_number}: {len(row)} fields, header has {len(header)}")
        cells = [c.strip() for c in row]
        empty = [header[k] for k, c in enumerate(cells) if c == ""]
        if empty:
            raise SketchError(
                f"CSV line {line_number}: missing answer in column {empty[0]!r} "
                "(abstention is not modelled yet)"
            )
        rows.append(cells)
    if not rows:
        raise SketchError("empty test: the CSV has no items")
    table = np.array(rows, dtype=object)
    return from_decisions(
        table[:, columns],
        labels=labels,
        classifiers=[header[k] for k in columns],
        truth=table[:, header.index(truth)] if truth is not None else None,
        population=table[:, header.index(population)] if population is not None else None,
    )
