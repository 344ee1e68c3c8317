r"""Data sketches: exact counts of the decision patterns of an ensemble on a test.

A :class:`Sketch` holds, for every population and (when an answer key is known) every
true label, the integer count of each decision pattern seen; patterns with zero count
are not stored. Sketches merge (counts add), marginalise to any subset of classifiers
(counts of the dropped coordinates are summed) and give exact frequencies.

Examples
--------
>>> sk = Sketch.from_decisions([["a", "a"], ["a", "b"], ["a", "a"]], labels=["a", "b"])
>>> sk.Q, sk.counts()
(3, {('a', 'a'): 2, ('a', 'b'): 1})
>>> sk.frequencies()[("a", "a")]
Fraction(2, 3)
>>> sk.marginalise([1]).counts()
{('a',): 2, ('b',): 1}
>>> (sk + sk).Q
6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SketchError
from evalgebra.data.patterns import decode, encode, recode
from evalgebra.spec import EnsembleSpec

__all__ = ["Sketch", "UNLABELLED"]

#: Truth index stored for items whose true label is unknown.
UNLABELLED = -1
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


def _checked_counts(count: Any) -> np.ndarray:
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
        raise SketchError(f"counts must total below 2^62 (got {total}): larger tests do not fit the "
                          "64-bit arithmetic of sketches")
    return raw.astype(np.int64)


class Sketch:
    r"""Exact pattern counts of ``N`` classifiers over ``R`` labels, by population and truth.

    Build one with :meth:`from_decisions`, :meth:`from_counts`, :meth:`from_long`,
    :meth:`from_csv` or :meth:`read_json`; the constructor takes the internal table.

    Parameters
    ----------
    classifiers, labels, populations : sequence of str
    pop, truth, code, count : array-like of int
        One row per stored cell: population index, true-label index (``-1`` when
        unlabelled), pattern code (see :mod:`evalgebra.data.patterns`) and count.

    Notes
    -----
    A sketch is either labelled (every item has a true label) or unlabelled. Counts are
    ``int64``; frequencies are exact :class:`fractions.Fraction`.
    """

    def __init__(
        self,
        classifiers: Sequence[str],
        labels: Sequence[str],
        pop: Any,
        truth: Any,
        code: Any,
        count: Any,
        populations: Sequence[str] = ("all",),
    ) -> None:
        spec = EnsembleSpec(list(classifiers), list(labels), populations=list(populations))
        self.classifiers = spec.classifiers
        self.labels = spec.labels
        self.populations = spec.populations
        n_codes = self.n_patterns
        if count is not None:
            count = _checked_counts(count)
        # ranges are checked before aggregate packs (pop, truth, code) into one key
        for name, column, low, high in (
            ("population index", pop, 0, len(self.populations)),
            ("true-label index", truth, UNLABELLED, self.n_labels),
            ("pattern code", code, 0, n_codes),
        ):
            values = np.asarray(column)
            if values.size and (int(values.min()) < low or int(values.max()) >= high):
                raise SketchError(f"{name} out of range {low}..{high - 1}")
        table = aggregate(pop, truth, code, count, n_codes)
        self._pop, self._truth, self._code, self._count = table
        if self._count.size == 0:
            raise SketchError("empty test: a sketch needs at least one item")
        labelled = self._truth >= 0
        if labelled.any() and not labelled.all():
            raise SketchError(
                "some items have a true label and some do not: a sketch is labelled "
                "throughout or not at all"
            )

    # -- basic facts -------------------------------------------------------------
    @property
    def n_classifiers(self) -> int:
        return len(self.classifiers)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def n_patterns(self) -> int:
        """``R^N``."""
        return self.n_labels**self.n_classifiers

    @property
    def Q(self) -> int:  # noqa: N802 - the paper's name for the test size
        """Number of items in the test."""
        return int(self._count.sum())

    @property
    def is_labelled(self) -> bool:
        """True when the counts are split by true label."""
        return bool(self._truth[0] >= 0)

    def spec(self, structure: Any = "independent") -> EnsembleSpec:
        """The ensemble spec of this sketch's classifiers, labels and populations."""
        return EnsembleSpec(self.classifiers, self.labels, structure, self.populations)

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Copies of the stored ``(pop, truth, code, count)`` columns."""
        return self._pop.copy(), self._truth.copy(), self._code.copy(), self._count.copy()

    def _pattern(self, code: int) -> tuple[str, ...]:
        digits = decode(np.array([code]), self.n_classifiers, self.n_labels)[0]
        return tuple(self.labels[k] for k in digits)

    def _select(self, population: str | int | None, truth: int | None = None) -> np.ndarray:
        mask = np.ones(self._count.size, dtype=bool)
        if population is not None:
            mask &= self._pop == self.spec().population_index(population)
        if truth is not None:
            mask &= self._truth == truth
        return mask

    # -- counts and frequencies ---------------------------------------------------------
    def count_vector(self, population: str | int | None = None, truth: str | None = None) -> np.ndarray:
        """Dense ``int64`` counts of all ``R^N`` patterns in canonical order."""
        if self.n_patterns > DENSE_LIMIT:
            raise SketchError(f"{self.n_patterns} patterns are too many for a dense vector")
        t = None
        if truth is not None:
            self._require_labels()
            t = self.spec().label_index(truth)
        mask = self._select(population, t)
        out = np.zeros(self.n_patterns, dtype=np.int64)
        np.add.at(out, self._code[mask], self._count[mask])
        return out

    def counts(self, population: str | int | None = None) -> dict[tuple[str, ...], int]:
        """Pattern -> count over all items (of one population when given), canonical order."""
        mask = self._select(population)
        return self._count_dict(self._code[mask], self._count[mask])

    def _count_dict(self, codes: np.ndarray, counts: np.ndarray) -> dict[tuple[str, ...], int]:
        if codes.size == 0:
            return {}
        order = np.argsort(codes, kind="stable")
        codes, counts = codes[order], counts[order]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        sums = np.add.reduceat(counts, starts)
        digits = decode(codes[starts], self.n_classifiers, self.n_labels)
        return {
            tuple(self.labels[k] for k in row): int(c)
            for row, c in zip(digits.tolist(), sums.tolist())
            if c
        }

    def size(self, population: str | int | None = None) -> int:
        """Number of items (of one population when given)."""
        return int(self._count[self._select(population)].sum())

    def frequencies(self, population: str | int | None = None) -> dict[tuple[str, ...], Fraction]:
        """Pattern -> exact frequency ``n_d / Q``."""
        total = self.size(population)
        if total == 0:
            raise SketchError(f"population {population!r} has no items")
        return {p: Fraction(c, total) for p, c in self.counts(population).items()}

    def _require_labels(self) -> None:
        if not self.is_labelled:
            raise SketchError("this sketch has no true labels (no answer key was given)")

    def by_true_label(self, population: str | int | None = None) -> dict[str, dict[tuple[str, ...], int]]:
        """True label -> pattern -> count; every label present, possibly empty."""
        self._require_labels()
        mask = self._select(population)
        return {
            label: self._count_dict(self._code[mask & (self._truth == t)], self._count[mask & (self._truth == t)])
            for t, label in enumerate(self.labels)
        }

    def label_counts(self, population: str | int | None = None) -> dict[str, int]:
        """True label -> number of items ``Q_ell``."""
        self._require_labels()
        mask = self._select(population)
        return {
            label: int(self._count[mask & (self._truth == t)].sum())
            for t, label in enumerate(self.labels)
        }

    # -- algebra of sketches -------------------------------------------------------------
    def _rebuild(self, **changes: Any) -> Sketch:
        args: dict[str, Any] = {
            "classifiers": self.classifiers,
            "labels": self.labels,
            "populations": self.populations,
            "pop": self._pop,
            "truth": self._truth,
            "code": self._code,
            "count": self._count,
        }
        args.update(changes)
        return Sketch(**args)

    def merge(self, other: Sketch) -> Sketch:
        """The sketch of both tests together: counts add.

        Both must have the same classifiers and labels and both be labelled or both not;
        populations are matched by name (the union is kept, in first-seen order).
        """
        if not isinstance(other, Sketch):
            raise SketchError(f"can only merge a Sketch, got {type(other).__name__}")
        if other.classifiers != self.classifiers or other.labels != self.labels:
            raise SketchError(
                "cannot merge sketches of different classifiers or labels: "
                f"{self.classifiers}/{self.labels} vs {other.classifiers}/{other.labels}"
            )
        if other.is_labelled != self.is_labelled:
            raise SketchError("cannot merge a labelled sketch with an unlabelled one")
        populations = list(self.populations) + [p for p in other.populations if p not in self.populations]
        mapping = np.array([populations.index(p) for p in other.populations], dtype=np.int64)
        total = int(self._count.sum()) + int(other._count.sum())
        if total >= 2**62:
            raise SketchError("merged counts overflow 64-bit integers")
        return self._rebuild(
            populations=populations,
            pop=np.concatenate([self._pop, mapping[other._pop]]),
            truth=np.concatenate([self._truth, other._truth]),
            code=np.concatenate([self._code, other._code]),
            count=np.concatenate([self._count, other._count]),
        )

    def __add__(self, other: Sketch) -> Sketch:
        return self.merge(other)

    def marginalise(self, classifiers: Sequence[str | int]) -> Sketch:
        """The sketch of a sub-ensemble (names or indices, in the given order).

        Examples
        --------
        >>> sk = Sketch.from_counts({("a", "b"): 3, ("b", "b"): 1}, labels=["a", "b"])
        >>> sk.marginalise(["c1", "c0"]).counts()
        {('b', 'a'): 3, ('b', 'b'): 1}
        """
        keep = [self.spec().classifier_index(c) for c in classifiers]
        if not keep or len(set(keep)) != len(keep):
            raise SketchError(f"marginalise: need distinct classifiers, got {list(classifiers)}")
        return self._rebuild(
            classifiers=[self.classifiers[i] for i in keep],
            code=recode(self._code, self.n_classifiers, self.n_labels, keep),
        )

    def population(self, population: str | int) -> Sketch:
        """The sketch of one population alone."""
        s = self.spec().population_index(population)
        mask = self._pop == s
        return self._rebuild(
            populations=[self.populations[s]],
            pop=np.zeros(int(mask.sum()), dtype=np.int64),
            truth=self._truth[mask],
            code=self._code[mask],
            count=self._count[mask],
        )

    def pooled(self) -> Sketch:
        """All populations pooled into one (``"all"``)."""
        return self._rebuild(populations=["all"], pop=np.zeros_like(self._pop))

    def unlabelled(self) -> Sketch:
        """The same counts with the answer key dropped."""
        return self._rebuild(truth=np.full_like(self._truth, UNLABELLED))

    def with_label_order(self, labels: Sequence[str]) -> Sketch:
        """The same data with the labels listed in another order (a permutation).

        Examples
        --------
        >>> sk = Sketch.from_counts({("a", "b"): 3}, labels=["a", "b"])
        >>> sk.with_label_order(["b", "a"]).count_vector().tolist()
        [0, 0, 3, 0]
        """
        labels = list(labels)
        if sorted(labels) != sorted(self.labels):
            raise SketchError(f"with_label_order needs a permutation of {list(self.labels)}")
        position = np.array([labels.index(name) for name in self.labels], dtype=np.int64)
        digits = position[decode(self._code, self.n_classifiers, self.n_labels)]
        truth = np.where(self._truth >= 0, position[np.maximum(self._truth, 0)], UNLABELLED)
        return self._rebuild(labels=labels, code=encode(digits, self.n_labels), truth=truth)

    # -- comparison and display ------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sketch):
            return NotImplemented
        return (
            self.classifiers == other.classifiers
            and self.labels == other.labels
            and self.populations == other.populations
            and all(
                np.array_equal(a, b)
                for a, b in zip(self.table(), other.table())
            )
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "labelled" if self.is_labelled else "unlabelled"
        pops = "" if self.populations == ("all",) else f", populations={list(self.populations)}"
        return (
            f"Sketch(Q={self.Q}, classifiers={list(self.classifiers)}, labels={list(self.labels)}"
            f"{pops}, {kind}, {self._count.size} non-empty cells)"
        )

    # -- constructors (implemented in sketch_io) -------------------------------------------
    @classmethod
    def from_decisions(cls, decisions: Any, **kwargs: Any) -> Sketch:
        """Count per-item decisions; see :func:`evalgebra.data.readers.from_decisions`."""
        from evalgebra.data.readers import from_decisions

        return from_decisions(decisions, **kwargs)

    @classmethod
    def from_counts(cls, counts: Mapping[Any, int] | None = None, **kwargs: Any) -> Sketch:
        """Sketch from pattern counts; see :func:`evalgebra.data.readers.from_counts`."""
        from evalgebra.data.readers import from_counts

        return from_counts(counts, **kwargs)

    @classmethod
    def from_long(cls, records: Any, **kwargs: Any) -> Sketch:
        """Sketch from ``task, worker, label`` rows; see :func:`evalgebra.data.readers.from_long`."""
        from evalgebra.data.readers import from_long

        return from_long(records, **kwargs)

    @classmethod
    def from_csv(cls, path: Any, **kwargs: Any) -> Sketch:
        """Sketch from an items CSV; see :func:`evalgebra.data.readers.read_items_csv`."""
        from evalgebra.data.readers import read_items_csv

        return read_items_csv(path, **kwargs)

    @classmethod
    def read_json(cls, source: Any) -> Sketch:
        """Read sketch JSON v1 (a path, a file object, a JSON string or a parsed dict)."""
        from evalgebra.data.sketch_json import read_sketch_json

        return read_sketch_json(source)

    def to_json(self) -> str:
        """Sketch JSON v1 text."""
        from evalgebra.data.sketch_json import sketch_to_json

        return sketch_to_json(self)

    def write_json(self, path: Any) -> None:
        """Write sketch JSON v1 atomically (a temporary file renamed into place)."""
        from evalgebra.fileio import write_text_atomic

        write_text_atomic(path, self.to_json())


