r"""The cell table a sketch stores: one row per (population, true label, pattern) with its count.

Readers (:mod:`evalgebra.data.readers`, :mod:`evalgebra.data.sketch_json`) produce a
:class:`CellTable`; :class:`~evalgebra.data.sketch.Sketch` checks and aggregates it. The
table knows nothing of sketches, so the readers never import the class they feed.

Examples
--------
>>> pop, truth, code, count = aggregate([0, 0, 0], [1, 0, 1], [3, 2, 3], [2, 1, 5], n_codes=4)
>>> truth.tolist(), code.tolist(), count.tolist()
([0, 1], [2, 3], [1, 7])
>>> table = CellTable(("c0",), ("a", "b"), [0], [UNLABELLED], [1], [4])
>>> table.populations, table.count
(('all',), [4])
>>> holes = np.array([[False, True], [False, False], [True, True]])
>>> report = MissingReport.of("abstain", holes, ["x", "y"], abstain="abstain")
>>> report.affected, report.abstained, report.dropped, report.by_classifier
(2, 3, 0, {'x': 1, 'y': 2})
>>> report.text()
"missing answers: 3 in 2 of 3 items (x 1, y 2), counted as the abstention 'abstain'"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import show_int

__all__ = [
    "CellTable",
    "MissingReport",
    "MISSING_POLICIES",
    "aggregate",
    "checked_counts",
    "UNLABELLED",
    "DENSE_LIMIT",
    "INT64_MAX",
    "COUNT_LIMIT",
]


class CellTable(NamedTuple):
    r"""The pieces a :class:`~evalgebra.data.sketch.Sketch` is built from, in its constructor's order.

    Attributes
    ----------
    classifiers, labels : sequence of str
    pop, truth, code : array-like of int
        Population index, true-label index (:data:`UNLABELLED` when unknown) and pattern
        code (:mod:`evalgebra.data.patterns`) of each row.
    count : array-like of int or None
        Items per row; ``None`` means one item per row.
    populations : sequence of str
    abstain : sequence of str
        The responses that are not labels (pattern codes run over labels, then these).
    missing : MissingReport or None
        What the reader did with missing answers (``None``: the input had no items).
    """

    classifiers: Sequence[str]
    labels: Sequence[str]
    pop: Any
    truth: Any
    code: Any
    count: Any
    populations: Sequence[str] = ("all",)
    abstain: Sequence[str] = ()
    missing: Any = None


#: What a reader does with a missing answer (``None``, NaN, an empty cell, a negative index,
#: a task a worker did not answer): refuse it, count it as an abstention, or drop the item.
MISSING_POLICIES = ("error", "abstain", "drop")


@dataclass(frozen=True)
class MissingReport:
    r"""How many answers were missing when a test was read, and what became of them.

    Attributes
    ----------
    policy : {"error", "abstain", "drop"}
        The reader's ``missing=`` choice (see :data:`MISSING_POLICIES`).
    items : int
        Items read (before any was dropped).
    cells : int
        Missing answers.
    affected : int
        Items with at least one missing answer.
    by_classifier : mapping of str to int
        Missing answers per classifier.
    abstain : str or None
        The abstention response missing answers were counted as (``policy="abstain"``).

    Notes
    -----
    ``missing="drop"`` drops the :attr:`affected` items (:attr:`dropped`), ``"abstain"``
    counts the :attr:`cells` as abstentions (:attr:`abstained`); no choice invents a label.
    Reports add (``a + b``) when sketches read in parts are merged.
    """

    policy: str
    items: int
    cells: int
    affected: int
    by_classifier: Mapping[str, int] = field(default_factory=dict)
    abstain: str | None = None

    @classmethod
    def of(
        cls,
        policy: str,
        holes: np.ndarray | None,
        classifiers: Sequence[str],
        n_items: int | None = None,
        abstain: str | None = None,
    ) -> MissingReport:
        """The report of an ``items x classifiers`` mask of missing answers (``None``: none)."""
        items = int(holes.shape[0]) if holes is not None else int(n_items or 0)
        per = holes.sum(axis=0).tolist() if holes is not None else [0] * len(classifiers)
        return cls(
            policy,
            items,
            int(sum(per)),
            int(holes.any(axis=1).sum()) if holes is not None else 0,
            {str(c): int(k) for c, k in zip(classifiers, per)},
            abstain if policy == "abstain" else None,
        )

    @property
    def dropped(self) -> int:
        """Items dropped (``policy="drop"``; else 0)."""
        return self.affected if self.policy == "drop" else 0

    @property
    def abstained(self) -> int:
        """Missing answers counted as abstentions (``policy="abstain"``; else 0)."""
        return self.cells if self.policy == "abstain" else 0

    def text(self) -> str:
        """One line: how many answers were missing, where, and what was done with them."""
        if not self.cells:
            return f"missing answers: none in {self.items} items"
        where = ", ".join(f"{c} {k}" for c, k in self.by_classifier.items() if k)
        done = (
            f"counted as the abstention {self.abstain!r}"
            if self.policy == "abstain"
            else f"{self.dropped} items dropped"
            if self.policy == "drop"
            else "refused"
        )
        return f"missing answers: {self.cells} in {self.affected} of {self.items} items ({where}), {done}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "items": self.items,
            "cells": self.cells,
            "affected": self.affected,
            "dropped": self.dropped,
            "abstained": self.abstained,
            "by_classifier": dict(self.by_classifier),
            "abstain": self.abstain,
        }

    def __add__(self, other: MissingReport) -> MissingReport:
        by = dict(self.by_classifier)
        for c, k in other.by_classifier.items():
            by[c] = by.get(c, 0) + k
        policy = self.policy if self.policy == other.policy else "mixed"
        return MissingReport(
            policy,
            self.items + other.items,
            self.cells + other.cells,
            self.affected + other.affected,
            by,
            self.abstain or other.abstain,
        )


#: Truth index stored for items whose true label is unknown.
UNLABELLED = -1
#: Cells (populations x true labels x patterns) counted in a dense vector; more are sorted.
DENSE_LIMIT = 1 << 24
INT64_MAX = 2**63 - 1


def aggregate(
    pop: Any, truth: Any, code: Any, count: Any | None, n_codes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sum counts with equal ``(pop, truth, code)``; sorted, zero counts dropped.

    ``count=None`` means one item per row (the fast path for per-item decisions).
    """
    code = np.asarray(code, dtype=np.int64)
    pop = np.asarray(pop, dtype=np.int64)
    truth = np.asarray(truth, dtype=np.int64)
    if code.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy(), empty.copy()
    n_truth = int(truth.max()) + 2
    n_pop = int(pop.max()) + 1
    cells = n_pop * n_truth * n_codes
    if cells <= DENSE_LIMIT:
        key = code
        if n_pop > 1 or n_truth > 1:
            key = (pop * n_truth + (truth + 1)) * n_codes + code
        summed = _dense_sum(key, count, cells)
        nz = np.flatnonzero(summed)
        rest = nz // n_codes
        return rest // n_truth, rest % n_truth - 1, nz % n_codes, summed[nz]
    if _fits_one_key(pop, truth, code, n_codes, cells):
        # one int64 key per row: a single sort instead of a three-key lexsort
        key = (pop * n_truth + (truth + 1)) * n_codes + code
        if count is None:
            key, sums = np.unique(key, return_counts=True)
        else:
            order = np.argsort(key)
            key, count = key[order], np.asarray(count, dtype=np.int64)[order]
            starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
            key, sums = key[starts], np.add.reduceat(count, starts)
            keep = sums != 0
            key, sums = key[keep], sums[keep]
        rest, code = np.divmod(key, n_codes)
        pop, truth = np.divmod(rest, n_truth)
        return pop, truth - 1, code, sums.astype(np.int64, copy=False)
    if count is None:
        count = np.ones(code.size, dtype=np.int64)
    count = np.asarray(count, dtype=np.int64)
    order = np.lexsort((code, truth, pop))
    pop, truth, code, count = pop[order], truth[order], code[order], count[order]
    boundary = np.ones(pop.size, dtype=bool)
    boundary[1:] = (pop[1:] != pop[:-1]) | (truth[1:] != truth[:-1]) | (code[1:] != code[:-1])
    starts = np.flatnonzero(boundary)
    sums = np.add.reduceat(count, starts)
    keep = sums != 0
    return pop[starts][keep], truth[starts][keep], code[starts][keep], sums[keep]


def _fits_one_key(pop: np.ndarray, truth: np.ndarray, code: np.ndarray, n_codes: int, cells: int) -> bool:
    """Whether ``(pop, truth, code)`` map one-to-one, in order, onto int64 keys below ``cells``."""
    return (
        cells <= INT64_MAX
        and int(pop.min()) >= 0
        and int(truth.min()) >= UNLABELLED
        and int(code.min()) >= 0
        and int(code.max()) < n_codes
    )


def _dense_sum(key: np.ndarray, count: Any | None, cells: int) -> np.ndarray:
    if count is None:
        return np.bincount(key, minlength=cells).astype(np.int64, copy=False)
    count = np.asarray(count, dtype=np.int64)
    if int(count.sum()) < 2**53:
        # float64 sums of integers below 2^53 are exact
        return np.bincount(key, weights=count, minlength=cells).astype(np.int64)
    out = np.zeros(cells, dtype=np.int64)
    np.add.at(out, key, count)
    return out


#: Counts (and their total) stay below this, so every sum fits a signed 64-bit integer.
COUNT_LIMIT = 2**62


def checked_counts(count: Any) -> np.ndarray:
    """Counts as ``int64``, non-negative, with a total below :data:`COUNT_LIMIT`."""
    raw = np.asarray(count)
    if raw.size == 0:
        return raw.astype(np.int64)
    if raw.dtype.kind not in "iu":
        values = [int(c) for c in raw.ravel()]  # Python ints: no silent wrap-around
        if any(v < 0 for v in values):
            raise SketchError("counts must be non-negative")
        total = sum(values)
    else:
        if int(raw.min()) < 0:
            raise SketchError("counts must be non-negative")
        high = int(raw.max())
        total = high * raw.size if high * raw.size < COUNT_LIMIT else sum(int(c) for c in raw.ravel())
    if total >= COUNT_LIMIT:
        raise SketchError(
            f"counts must total below 2^62 (got {show_int(total)}): larger tests do not fit the "
            "64-bit arithmetic of sketches"
        )
    return raw.astype(np.int64)
