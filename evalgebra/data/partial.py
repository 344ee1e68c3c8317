r"""Counting a test in chunks: mergeable partial counts keyed by label *names*.

Columnar and chunked sources (parquet row groups, CSV chunks, pandas categoricals, Dask
partitions) hand their answers over as *dictionary columns*: integer codes into a small
list of distinct values (``-1`` for a missing answer). Two chunks may order their
dictionaries differently (``["no", "yes"]`` in one file, ``["yes", "no"]`` in the next), so
a code means nothing on its own: :class:`PartialCounts` maps every dictionary entry to a
response by its *name*, once per chunk, and only then counts the chunk's patterns.

Partial counts keep, per chunk, the non-empty cells (population, true label, pattern as
response indices, count): at most ``K^N`` of them per population and label, whatever the
chunk's size, so memory is bounded by the chunk read plus the cells. They merge
(:meth:`PartialCounts.merge`, by names again), so chunks can be counted anywhere (threads,
processes, a Dask cluster) and reduced in any order; :meth:`PartialCounts.table` fixes the
label order (the given one, else the sorted names seen, as
:meth:`~evalgebra.data.sketch.Sketch.from_decisions` does) and returns the cell table a
sketch is made of. This module knows nothing of sketches, so readers may count with it;
:class:`~evalgebra.data.chunked.PartialSketch` adds ``finish()``, which returns the
:class:`~evalgebra.data.sketch.Sketch`.

Examples
--------
>>> import numpy as np
>>> part = PartialCounts(["x", "y"])
>>> part.add([(np.array([0, 1, 0]), ["no", "yes"]), (np.array([0, 0, 1]), ["yes", "no"])])
>>> other = PartialCounts(["x", "y"])
>>> other.add([(np.array([0]), ["yes"]), (np.array([0]), ["yes"])])
>>> table = part.merge(other).table()
>>> table.labels, table.code.tolist(), table.count.tolist()  # one row per chunk's cell; a Sketch sums them
(('no', 'yes'), [0, 1, 3, 3], [1, 1, 1, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from evalgebra.data.cells import DENSE_LIMIT, MISSING_POLICIES, UNLABELLED, CellTable, MissingReport
from evalgebra.data.encoding import MAX_INFERRED_LABELS, is_missing, missing_hint, name_text
from evalgebra.data.patterns import check_size, count_patterns, decode, encode
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int
from evalgebra.spec import DEFAULT_ABSTAIN, default_label_names

__all__ = ["PartialCounts", "Column", "ID_COLUMN_MIN", "COMPACT_CELLS", "looks_like_id"]

#: One dictionary column: ``(codes, keys)``; ``codes[i]`` indexes ``keys`` (``-1``: missing).
#: ``keys=None`` means the codes are label *indices* themselves (integer input).
Column = tuple[np.ndarray, Sequence[Any] | None]

#: A column with more distinct values than this, and more than half its rows, looks like an
#: item ID (or a score), not a classifier's answers.
ID_COLUMN_MIN = 16
#: Stored cells above which the chunks' cells are summed into one block.
COMPACT_CELLS = 1 << 20


def looks_like_id(n_distinct: int, n_rows: int) -> bool:
    """Whether a column with ``n_distinct`` values in ``n_rows`` rows looks like an item ID.

    Examples
    --------
    >>> looks_like_id(990, 1000), looks_like_id(3, 1000), looks_like_id(10, 10)
    (True, False, False)
    """
    return n_distinct > ID_COLUMN_MIN and 2 * n_distinct > n_rows


def _abstentions(abstain: Any, missing: str) -> tuple[str, ...]:
    given = [abstain] if isinstance(abstain, str) else [] if abstain is None else abstain
    names = isinstance(given, (Sequence, np.ndarray)) and all(isinstance(a, str) and a for a in given)
    if not names or len(set(given)) != len(given):
        raise SketchError(
            f"abstain must name the non-label answers (distinct non-empty strings), got {short_repr(abstain)}"
        )
    if missing == "abstain" and not given:
        given = [DEFAULT_ABSTAIN]
    return tuple(given)


def _column(column: Any, what: str) -> Column:
    """``column`` checked to be a :data:`Column`: a ``(codes, keys)`` pair of 1-D codes and a key list or
    None.
    """
    if not isinstance(column, (tuple, list)) or len(column) != 2:
        raise SketchError(
            f"{what}: a column is a (codes, keys) pair (keys None for label positions), "
            f"got {type(column).__name__}"
        )
    try:
        codes, keys = np.asarray(column[0]), column[1]
    except (TypeError, ValueError):  # ragged lists, undecodable bytes: NumPy's own errors
        raise SketchError(
            f"{what}: codes must be a 1-D array of integers, got {short_repr(column[0])}"
        ) from None
    if codes.ndim != 1:
        raise SketchError(f"{what}: codes must be one-dimensional, got shape {codes.shape}")
    if keys is not None and (isinstance(keys, (str, bytes)) or not isinstance(keys, (Sequence, np.ndarray))):
        raise SketchError(
            f"{what}: keys must be a list of the values the codes index (or None), got {type(keys).__name__}"
        )
    return codes, keys if keys is None or isinstance(keys, Sequence) else list(keys)


class PartialCounts:
    r"""Pattern counts of a test read so far, with responses known by name; mergeable.

    Parameters
    ----------
    classifiers : sequence of str
        The classifiers, in the order of the answer columns given to :meth:`add`.
    labels : sequence of str, optional
        All label names in order (default: the sorted names seen when finished). Answers
        that are neither a label nor an abstention are refused as soon as they are read.
    abstain : str or sequence of str, optional
        Answers that are not labels (abstentions).
    missing : {"error", "abstain", "drop"}
        Missing answers: refused (with their row and classifier), counted as the first
        abstention, or their items dropped (as the other readers do).
    labelled : bool
        Whether every chunk gives a truth column.
    populations : sequence of str, optional
        Population names in order (default: the sorted names seen; one population ``all``
        when no population column is given).
    flag_ids : bool
        Refuse a chunk's column with as many distinct values as an item ID
        (:func:`looks_like_id`) when no labels are given. A reader that checks the whole
        test instead (:mod:`evalgebra.data.items_csv`) turns this off, so that its answer
        does not depend on where the chunks end.

    Notes
    -----
    Responses are indexed in the order first seen (given labels and abstentions first);
    each chunk's cells are stored with those indices, so a chunk never waits for the final
    label order. Integer answers without a dictionary are label positions ``0..R-1``, as in
    :meth:`~evalgebra.data.sketch.Sketch.from_decisions`.

    Examples
    --------
    >>> import numpy as np
    >>> part = PartialCounts(["x", "y"], labelled=True, missing="abstain")
    >>> part.add(
    ...     [(np.array([0, -1]), ["a", "b"]), (np.array([1, 0]), ["a", "b"])],
    ...     truth=(np.array([0, 1]), ["a", "b"]),
    ... )
    >>> table = part.table()
    >>> table.labels, table.abstain, table.truth.tolist(), table.code.tolist(), part.rows
    (('a', 'b'), ('abstain',), [0, 1], [1, 6], 2)
    """

    def __init__(
        self,
        classifiers: Sequence[str],
        *,
        labels: Sequence[str] | None = None,
        abstain: Any = None,
        missing: str = "error",
        labelled: bool = False,
        populations: Sequence[str] | None = None,
        flag_ids: bool = True,
    ) -> None:
        if not isinstance(missing, str) or missing not in MISSING_POLICIES:
            raise SketchError(
                f"missing={short_repr(missing)}: accepted are {', '.join(map(repr, MISSING_POLICIES))}"
            )
        if isinstance(classifiers, (str, bytes)) or not isinstance(classifiers, (Sequence, np.ndarray)):
            raise SketchError(f"classifiers: give a list of classifier names, got {short_repr(classifiers)}")
        self.classifiers = tuple(name_text(c, "classifiers") for c in classifiers)
        if not self.classifiers or len(set(self.classifiers)) != len(self.classifiers):
            raise SketchError(f"need distinct classifier names, got {list(self.classifiers)}")
        if labels is not None and (
            isinstance(labels, str)
            or not isinstance(labels, (Sequence, np.ndarray))
            or not all(isinstance(x, str) for x in labels)
        ):
            raise SketchError(f"labels must be a list of label names (str), got {short_repr(labels)}")
        self.labels = None if labels is None else tuple(labels)
        self.abstain = _abstentions(abstain, missing)
        clash = [x for x in (self.labels or ()) if x in self.abstain]
        if clash:
            raise SketchError(f"{clash} are named as labels and as abstentions; an abstention is not a label")
        self.missing = missing
        self.labelled = bool(labelled)
        self.flag_ids = bool(flag_ids)
        self.populations = None if populations is None else tuple(str(p) for p in populations)
        self.keys: list[Any] = []  # responses (str) or label positions (int), first seen first
        self._index: dict[Any, int] = {}
        for key in (self.labels or ()) + self.abstain:
            self._index[key] = len(self.keys)
            self.keys.append(key)
        self.pops: list[str] = list(self.populations or ())
        self._cells: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.rows = 0
        self.report: MissingReport | None = None
        self._holes_possible = (
            True  # whether the answer columns of the chunk being read may hold missing codes
        )

    # -- names to indices ------------------------------------------------------------------
    def _key(self, key: Any) -> int:
        found = self._index.get(key)
        if found is not None:
            return found
        if isinstance(key, (bool, np.bool_)) or not isinstance(key, (str, int, np.integer)):
            raise SketchError(f"label {short_repr(key)} is not a string; use label names or integer indices")
        if isinstance(key, np.integer):
            key = int(key)
            if key in self._index:
                return self._index[key]
        if isinstance(key, str) and self.labels is not None and key not in self._index:
            hint = "" if self.abstain else "; answers that are not labels: pass abstain=[...]"
            raise SketchError(f"unknown labels [{key!r}]; labels are {list(self.labels)}{hint}")
        if isinstance(key, int) and not 0 <= key < MAX_INFERRED_LABELS:
            raise SketchError(
                f"label index {key} is too large to infer the labels from (at most "
                f"{MAX_INFERRED_LABELS} inferred); pass labels=[...]"
            )
        self._index[key] = len(self.keys)
        self.keys.append(key)
        return self._index[key]

    def _lookup(self, column: Column, what: str, answers: bool, n_rows: int) -> np.ndarray:
        """Response (or label) index per row, ``-1`` where missing."""
        codes, keys = np.asarray(column[0]), column[1]
        if codes.dtype.kind not in "iu":
            raise SketchError(f"{what}: dictionary codes must be integers, got {codes.dtype}")
        if codes.shape != (n_rows,):
            raise SketchError(
                f"{what}: {codes.shape[0] if codes.ndim else 0} rows where the chunk has {n_rows}"
            )
        low, high = (int(codes.min()), int(codes.max())) if codes.size else (0, -1)
        if low < -1:
            raise SketchError(f"{what}: dictionary code {low} (missing answers are coded -1)")
        if keys is None:  # label positions: the integer is the key
            if high >= MAX_INFERRED_LABELS:
                raise SketchError(
                    f"{what}: integer {show_int(high)} is too large for a label position (at most "
                    f"{MAX_INFERRED_LABELS - 1}); if it is an item ID, leave it out (ignore=[...], --ignore)"
                )
            keys = list(range(max(high, -1) + 1))
        else:
            keys = list(keys)
            if high >= len(keys):
                raise SketchError(f"{what}: code {high} outside its dictionary of {len(keys)} values")
        known = len(keys) <= ID_COLUMN_MIN and all(
            k in self._index and not isinstance(k, (bool, np.bool_)) for k in keys
        )
        if known and (answers or not any(k in self.abstain for k in keys)):
            # the usual chunk after the first: every entry has its index, no count needed
            indices = [self._index[k] for k in keys]
            self._holes_possible |= low < 0
            if low >= 0 and indices == list(range(len(indices))):
                return (
                    codes  # the dictionary lists the responses in their own order: the codes are the indices
                )
            lookup = np.empty(len(keys) + 1, dtype=np.int16 if len(self.keys) < 1 << 15 else np.int64)
            lookup[:-1] = indices
            lookup[-1] = -1
            return np.take(lookup, codes)
        self._holes_possible = True
        present = codes if low >= 0 else codes[codes >= 0]
        used = np.bincount(present, minlength=len(keys)) > 0
        if self.flag_ids and self.labels is None and looks_like_id(int(used.sum()), n_rows):
            raise SketchError(
                f"{what} has {show_int(int(used.sum()))} distinct values in {show_int(n_rows)} rows: "
                "it looks "
                "like an item ID or a score, not answers; leave it out (ignore=[...], --ignore) or list "
                "the classifier columns (classifiers=[...], --classifiers)"
            )
        lookup = np.full(len(keys) + 1, -1, dtype=np.int64)  # the last entry serves code -1
        for k in np.flatnonzero(used).tolist():
            key = keys[k]
            if is_missing(key):
                continue
            if not answers and key in self.abstain:
                raise SketchError(
                    f"{what}: {key!r} is an abstention, not a label; every true label is a label"
                )
            lookup[k] = self._key(key)
        return lookup[codes]

    def _population(self, column: Column, n_rows: int) -> np.ndarray:
        codes, keys = np.asarray(column[0]), column[1]
        if codes.dtype.kind not in "iu" or codes.shape != (n_rows,):
            raise SketchError(f"population: {n_rows} integer codes expected, got {codes.dtype} {codes.shape}")
        if (codes < 0).any():
            raise SketchError("missing population for some items")
        if keys is None:
            keys = list(range(int(codes.max()) + 1 if codes.size else 0))
        elif codes.size and int(codes.max()) >= len(keys):
            raise SketchError(
                f"population: code {int(codes.max())} outside its dictionary of {len(keys)} values"
            )
        lookup = np.empty(len(keys), dtype=np.int64)
        for k, key in enumerate(keys):
            name = str(key)
            if name not in self.pops:
                if self.populations is not None:
                    raise SketchError(
                        f"unknown populations [{name!r}]; populations are {list(self.populations)}"
                    )
                self.pops.append(name)
            lookup[k] = self.pops.index(name)
        return lookup[codes] if codes.size else codes.astype(np.int64)

    # -- counting -------------------------------------------------------------------------
    def add(
        self, answers: Sequence[Column], *, truth: Column | None = None, population: Column | None = None
    ) -> None:
        """Count one chunk: one dictionary column per classifier (see :data:`Column`)."""
        if isinstance(answers, (str, bytes, np.ndarray)) or not isinstance(answers, Sequence):
            raise SketchError(
                f"answers: give a list of {len(self.classifiers)} (codes, keys) columns, one per "
                f"classifier, got {type(answers).__name__}"
            )
        answers = [_column(c, f"column {name!r}") for c, name in zip(answers, self.classifiers)] + list(
            answers[len(self.classifiers) :]
        )
        truth = None if truth is None else _column(truth, "truth")
        population = None if population is None else _column(population, "population")
        if len(answers) != len(self.classifiers):
            raise SketchError(
                f"{len(answers)} answer columns for {len(self.classifiers)} classifiers "
                f"{short_repr(list(self.classifiers))}; give one column per classifier, in that order"
            )
        if (truth is not None) != self.labelled:
            raise SketchError("a labelled sketch needs a truth column in every chunk, an unlabelled one none")
        n_rows = int(np.asarray(answers[0][0]).shape[0])
        if n_rows == 0:
            return
        self._holes_possible = False
        columns = [
            self._lookup(c, f"column {name!r}", True, n_rows) for c, name in zip(answers, self.classifiers)
        ]
        holes_possible = self._holes_possible
        lead = None if truth is None else self._lookup(truth, "truth", False, n_rows)
        k_now = len(self.keys)  # every response of this chunk has its index now
        matrix = np.empty((n_rows, len(columns)), dtype=np.int16 if k_now < 1 << 15 else np.int32)
        for j, column in enumerate(columns):
            matrix[:, j] = column
        holes = matrix < 0 if holes_possible else np.zeros((0, 0), dtype=bool)
        hole_rows = None
        if holes.any():
            row, j = (int(x) for x in np.argwhere(holes)[0])
            if self.missing == "error":
                raise SketchError(missing_hint(f"item {self.rows + row}, classifier {self.classifiers[j]!r}"))
            if self.missing == "abstain":
                matrix[holes] = self._index[self.abstain[0]]
            else:
                hole_rows = holes.any(axis=1)
        report = MissingReport.of(
            self.missing,
            holes if holes.any() else None,
            self.classifiers,
            n_rows,
            self.abstain[0] if self.abstain else None,
        )
        self.report = report if self.report is None else self.report + report
        n_lead = 1
        if lead is not None:
            if (lead < 0).any():
                row = int(np.argmax(lead < 0))
                raise SketchError(
                    f"missing answer at truth of item {self.rows + row}; "
                    "every item of a labelled test needs its true label"
                )
            n_lead = k_now
        if population is not None:
            pop = self._population(population, n_rows)
            lead = pop * n_lead + (lead if lead is not None else 0)
            n_lead *= max(len(self.pops), 1)
        elif not self.pops:
            self.pops.append("all")
        if hole_rows is not None:
            keep = ~hole_rows
            matrix = matrix[keep]
            lead = lead[keep] if lead is not None else None
        self.rows += n_rows
        self._count(matrix, lead, n_lead, k_now, population is not None)

    def _count(
        self, matrix: np.ndarray, lead: np.ndarray | None, n_lead: int, base: int, by_pop: bool
    ) -> None:
        if matrix.shape[0] == 0:
            return
        n_classifiers = matrix.shape[1]
        check_size(n_classifiers, max(base, 2))
        n_codes = base**n_classifiers
        if n_lead * n_codes <= DENSE_LIMIT:
            counts = count_patterns(matrix, base, lead, n_lead)
            cell = np.flatnonzero(counts)
            counts = counts[cell]
        elif n_lead * n_codes < 2**62:
            cell, counts = np.unique(encode(matrix, base, lead), return_counts=True)
        else:  # too many cells for one integer key: count the rows themselves
            keyed = np.column_stack(
                [lead if lead is not None else np.zeros(matrix.shape[0], np.int64), matrix]
            )
            rows, counts = np.unique(keyed, axis=0, return_counts=True)
            self._store(rows[:, 0], rows[:, 1:], counts.astype(np.int64), base, by_pop)
            return
        group, code = np.divmod(cell, n_codes)
        self._store(group, decode(code, n_classifiers, base), counts.astype(np.int64), base, by_pop)

    def _store(
        self, group: np.ndarray, digits: np.ndarray, counts: np.ndarray, base: int, by_pop: bool
    ) -> None:
        n_truth = base if self.labelled else 1
        pop, truth = np.divmod(group, n_truth) if by_pop else (np.zeros_like(group), group)
        if not self.labelled:
            truth = np.full(group.shape, UNLABELLED, dtype=np.int64)
        self._cells.append((pop.astype(np.int64), truth.astype(np.int64), digits.astype(np.int32), counts))
        if self.n_cells > COMPACT_CELLS:
            self._compact()

    def _compact(self) -> None:
        pop, truth, digits, counts = self._stacked()
        keyed = np.column_stack([pop, truth, digits])
        rows, where = np.unique(keyed, axis=0, return_inverse=True)
        summed = np.zeros(rows.shape[0], dtype=np.int64)
        np.add.at(summed, where.ravel(), counts)
        self._cells = [(rows[:, 0], rows[:, 1], rows[:, 2:].astype(np.int32), summed)]

    def _stacked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if not self._cells:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros((0, len(self.classifiers)), dtype=np.int32), empty
        return tuple(np.concatenate([c[k] for c in self._cells]) for k in range(4))  # type: ignore[return-value]

    # -- merging and finishing ----------------------------------------------------------------
    def merge(self, other: Self) -> Self:
        """Both parts' counts (a new object), matching responses and populations by name."""
        if not isinstance(other, PartialCounts):
            raise SketchError(f"can only merge a {type(self).__name__}, got {type(other).__name__}")
        for what, mine, theirs in (
            ("classifiers", self.classifiers, other.classifiers),
            ("labels", self.labels, other.labels),
            ("abstentions", self.abstain, other.abstain),
            ("missing policy", self.missing, other.missing),
            ("labelled", self.labelled, other.labelled),
        ):
            if mine != theirs:
                raise SketchError(f"cannot merge partial sketches of different {what}: {mine} vs {theirs}")
        out = type(self)(
            self.classifiers,
            labels=self.labels,
            abstain=self.abstain,
            missing=self.missing,
            labelled=self.labelled,
            populations=self.populations,
            flag_ids=self.flag_ids,
        )
        for part in (self, other):
            keys = np.array([out._key(k) for k in part.keys], dtype=np.int64)
            pops = []
            for name in part.pops:
                if name not in out.pops:
                    out.pops.append(name)
                pops.append(out.pops.index(name))
            pop, truth, digits, counts = part._stacked()
            if counts.size:
                truth = np.where(truth >= 0, keys[np.maximum(truth, 0)], truth)
                out._cells.append(
                    (np.array(pops, dtype=np.int64)[pop], truth, keys[digits].astype(np.int32), counts)
                )
            out.rows += part.rows
            if part.report is not None:
                out.report = part.report if out.report is None else out.report + part.report
        return out

    def __add__(self, other: Self) -> Self:
        return self.merge(other)

    def final_labels(self) -> tuple[str, ...]:
        """The label order :meth:`table` uses: the given labels, else the sorted names seen."""
        names = [k for k in self.keys if isinstance(k, str) and k not in self.abstain]
        integers = [k for k in self.keys if isinstance(k, int)]
        if self.labels is not None:
            if integers and max(integers) >= len(self.labels):
                raise SketchError(f"label index {max(integers)} out of range for labels {list(self.labels)}")
            return self.labels
        if integers and names:
            raise SketchError("decisions mix label names and integer indices")
        if integers and min(integers) > 0:
            raise SketchError(
                "integer cells are label positions 0..R-1, but no cell is 0 "
                f"(they run from {min(integers)} to {max(integers)}); "
                "if the numbers are label names, give the cells as strings, or pass labels=[...]"
            )
        if integers:
            return default_label_names(max(2, max(integers) + 1))
        if len(names) < 2:
            raise SketchError(f"only one label seen ({names}); pass labels=[...] to name them all")
        return tuple(sorted(names))

    def table(self) -> CellTable:
        """The cell table of every chunk added or merged (what a :class:`~evalgebra.data.sketch.Sketch` is
        built from).
        """
        if self.rows == 0:
            raise SketchError("empty test: no items")
        labels = self.final_labels()
        responses = list(labels) + list(self.abstain)
        where = {name: k for k, name in enumerate(responses)}
        remap = np.array(
            [where[labels[k]] if isinstance(k, int) else where[k] for k in self.keys], dtype=np.int64
        )
        pop, truth, digits, counts = self._stacked()
        if not counts.size:
            raise SketchError(
                f"every one of the {self.rows} items has a missing answer: missing='drop' leaves no items"
            )
        n_responses = len(responses)
        check_size(len(self.classifiers), n_responses)
        codes = encode(remap[digits], n_responses)
        truth = np.where(truth >= 0, remap[np.maximum(truth, 0)], UNLABELLED)
        populations = list(self.populations) if self.populations is not None else sorted(self.pops)
        pop = np.array([populations.index(p) for p in self.pops], dtype=np.int64)[pop] if pop.size else pop
        return CellTable(
            self.classifiers, labels, pop, truth, codes, counts, populations, self.abstain, self.report
        )

    @property
    def n_cells(self) -> int:
        """Stored cells (non-empty per chunk until they are summed past ``COMPACT_CELLS``)."""
        return sum(c[3].size for c in self._cells)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(rows={self.rows}, classifiers={list(self.classifiers)}, "
            f"responses seen={len(self.keys)}, {self.n_cells} cells)"
        )
