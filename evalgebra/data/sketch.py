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

Abstentions are answers that are not labels; ``missing=`` says what a missing answer becomes:

>>> sk = Sketch.from_decisions([["a", "unsure"], ["b", None]], abstain=["unsure"], missing="abstain")
>>> sk.responses, sk.counts(), sk.missing_report.abstained
(('a', 'b', 'unsure'), {('a', 'unsure'): 1, ('b', 'unsure'): 1}, 1)
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.cells import DENSE_LIMIT, UNLABELLED, CellTable, MissingReport, aggregate, checked_counts
from evalgebra.data.patterns import decode, encode, recode
from evalgebra.data.readers import counts_table, csv_table, decisions_table, long_table
from evalgebra.data.show import short_names
from evalgebra.data.sketch_io import SketchIO
from evalgebra.data.sketch_sources import SketchSources
from evalgebra.errors import SketchError
from evalgebra.spec import EnsembleSpec

__all__ = ["Sketch", "UNLABELLED", "DENSE_LIMIT"]


class Sketch(SketchIO, SketchSources):
    r"""Exact pattern counts of ``N`` classifiers over ``R`` labels, by population and truth.

    Build one with :meth:`from_decisions`, :meth:`from_counts`, :meth:`from_long`,
    :meth:`from_csv` or :meth:`~evalgebra.data.sketch_io.SketchIO.from_json` (JSON and display
    come from :class:`~evalgebra.data.sketch_io.SketchIO`); the constructor takes the internal
    table (a :class:`~evalgebra.data.cells.CellTable`). ``a + b`` merges two sketches and
    ``sum(sketches)`` merges many.

    Parameters
    ----------
    classifiers, labels, populations : sequence of str
    pop, truth, code, count : array-like of int
        One row per stored cell: population index, true-label index (``-1`` when
        unlabelled), pattern code (see :mod:`evalgebra.data.patterns`; base: the number
        of responses) and count.
    abstain : sequence of str
        Responses that are not labels (abstentions); patterns run over :attr:`responses`.
    missing_report : MissingReport, optional
        What the reader did with missing answers (``None`` for counts and JSON).

    Notes
    -----
    A sketch is either labelled (every item has a true label) or unlabelled. Counts are
    ``int64``; frequencies are exact :class:`fractions.Fraction`.

    Examples
    --------
    >>> sk = Sketch.from_decisions([["a", "b"], ["b", "b"], ["a", "b"]], truth=["a", "b", "a"])
    >>> sk
    Sketch(Q=3, classifiers=['c0', 'c1'], labels=['a', 'b'], labelled, 2 non-empty cells)
    >>> sk.label_counts(), sk.frequencies()[("a", "b")]
    ({'a': 2, 'b': 1}, Fraction(2, 3))
    >>> sum([sk, sk, sk]).Q
    9
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
        abstain: Sequence[str] = (),
        missing_report: MissingReport | None = None,
    ) -> None:
        spec = EnsembleSpec(
            list(classifiers), list(labels), populations=list(populations), abstain=list(abstain)
        )
        self.classifiers = spec.classifiers
        self.labels = spec.labels
        self.populations = spec.populations
        self.abstain = spec.abstain
        self.missing_report = missing_report
        n_codes = self.n_patterns
        if count is not None:
            count = checked_counts(count)
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
                "some items have a true label and some do not: a sketch is labelled throughout or not at all"
            )

    # -- basic facts -------------------------------------------------------------
    @property
    def n_classifiers(self) -> int:
        return len(self.classifiers)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def responses(self) -> tuple[str, ...]:
        """Every answer a classifier may give: the labels, then the abstentions."""
        return self.labels + self.abstain

    @property
    def n_responses(self) -> int:
        """``R`` plus the number of abstentions."""
        return len(self.responses)

    @property
    def n_patterns(self) -> int:
        """``K^N`` for ``K`` responses (``R^N`` without abstentions)."""
        return self.n_responses**self.n_classifiers

    @property
    def Q(self) -> int:  # noqa: N802 - the paper's name for the test size
        """Number of items in the test."""
        return int(self._count.sum())

    @property
    def is_labelled(self) -> bool:
        """True when the counts are split by true label."""
        return bool(self._truth[0] >= 0)

    def spec(self, structure: Any = "independent") -> EnsembleSpec:
        """The ensemble spec of this sketch's classifiers, labels, populations and abstentions."""
        return EnsembleSpec(self.classifiers, self.labels, structure, self.populations, self.abstain)

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Copies of the stored ``(pop, truth, code, count)`` columns."""
        return self._pop.copy(), self._truth.copy(), self._code.copy(), self._count.copy()

    def _pattern(self, code: int) -> tuple[str, ...]:
        digits = decode(np.array([code]), self.n_classifiers, self.n_responses)[0]
        return tuple(self.responses[k] for k in digits)

    def _select(self, population: str | int | None, truth: int | None = None) -> np.ndarray:
        mask = np.ones(self._count.size, dtype=bool)
        if population is not None:
            mask &= self._pop == self.spec().population_index(population)
        if truth is not None:
            mask &= self._truth == truth
        return mask

    # -- counts and frequencies ---------------------------------------------------------
    def count_vector(self, population: str | int | None = None, truth: str | None = None) -> np.ndarray:
        """Dense ``int64`` counts of all ``K^N`` patterns (``K`` responses) in canonical order."""
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
        digits = decode(codes[starts], self.n_classifiers, self.n_responses)
        names = self.responses
        return {tuple(names[k] for k in row): int(c) for row, c in zip(digits.tolist(), sums.tolist()) if c}

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
            label: self._count_dict(
                self._code[mask & (self._truth == t)], self._count[mask & (self._truth == t)]
            )
            for t, label in enumerate(self.labels)
        }

    def label_counts(self, population: str | int | None = None) -> dict[str, int]:
        """True label -> number of items ``Q_ell``."""
        self._require_labels()
        mask = self._select(population)
        return {
            label: int(self._count[mask & (self._truth == t)].sum()) for t, label in enumerate(self.labels)
        }

    # -- algebra of sketches -------------------------------------------------------------
    def _rebuild(self, **changes: Any) -> Sketch:
        args: dict[str, Any] = {
            "classifiers": self.classifiers,
            "labels": self.labels,
            "populations": self.populations,
            "abstain": self.abstain,
            "missing_report": self.missing_report,
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
        populations are matched by name (the union is kept, in first-seen order), and so
        are abstentions (see :meth:`with_abstain`). Missing-answer reports add.
        """
        if not isinstance(other, Sketch):
            raise SketchError(f"can only merge a Sketch, got {type(other).__name__}")
        if other.abstain != self.abstain:
            union = list(self.abstain) + [a for a in other.abstain if a not in self.abstain]
            return self.with_abstain(union).merge(other.with_abstain(union))
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
        reports = (self.missing_report, other.missing_report)
        return self._rebuild(
            populations=populations,
            missing_report=reports[0] + reports[1] if None not in reports else None,  # type: ignore[operator]
            pop=np.concatenate([self._pop, mapping[other._pop]]),
            truth=np.concatenate([self._truth, other._truth]),
            code=np.concatenate([self._code, other._code]),
            count=np.concatenate([self._count, other._count]),
        )

    def __add__(self, other: Sketch) -> Sketch:
        return self.merge(other)

    def __radd__(self, other: Any) -> Sketch:
        """``0 + sketch`` is the sketch, so ``sum(sketches)`` merges them in order."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        if isinstance(other, Sketch):  # pragma: no cover - a + b calls a.__add__ first
            return other.merge(self)
        raise SketchError(f"can only merge a Sketch, got {type(other).__name__}")

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
            code=recode(self._code, self.n_classifiers, self.n_responses, keep),
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
        position = np.array(
            [labels.index(name) for name in self.labels] + list(range(len(labels), self.n_responses)),
            dtype=np.int64,
        )  # abstentions keep their places after the labels
        digits = position[decode(self._code, self.n_classifiers, self.n_responses)]
        truth = np.where(self._truth >= 0, position[np.maximum(self._truth, 0)], UNLABELLED)
        return self._rebuild(labels=labels, code=encode(digits, self.n_responses), truth=truth)

    # -- the response alphabet ------------------------------------------------------------
    def _recoded(self, target: Sequence[str], old_to_new: Sequence[int]) -> Sketch:
        digits = np.asarray(old_to_new, dtype=np.int64)[
            decode(self._code, self.n_classifiers, self.n_responses)
        ]
        return self._rebuild(
            abstain=[r for r in target if r not in self.labels], code=encode(digits, len(target))
        )

    def with_abstain(self, abstain: Sequence[str]) -> Sketch:
        """The same counts over a larger set of abstentions (a superset, in any order).

        >>> sk = Sketch.from_decisions([["a", "x"]], labels=["a", "b"], abstain=["x"])
        >>> sk.with_abstain(["y", "x"]).counts()
        {('a', 'x'): 1}
        """
        if not set(self.abstain) <= set(abstain):
            raise SketchError(
                f"with_abstain needs every abstention of the sketch {list(self.abstain)}, got {abstain}"
            )
        target = list(self.labels) + list(abstain)
        return self._recoded(target, [target.index(r) for r in self.responses])

    def collapse_responses(self, mapping: Mapping[str, str]) -> Sketch:
        """Count abstentions as other responses (``{"unsure": "fail"}``); those mapped away disappear.

        >>> sk = Sketch.from_decisions([["a", "x"], ["b", "b"]], abstain=["x"])
        >>> sk.collapse_responses({"x": "b"}).counts(), sk.collapse_responses({"x": "b"}).abstain
        ({('a', 'b'): 1, ('b', 'b'): 1}, ())
        """
        for source, target in dict(mapping).items():
            if source not in self.abstain or target not in self.responses or target in mapping:
                raise SketchError(
                    f"collapse_responses maps abstentions {list(self.abstain)} to responses that "
                    f"stay {list(self.responses)}; got {source!r} -> {target!r}"
                )
        kept = [r for r in self.responses if r not in mapping]
        return self._recoded(kept, [kept.index(mapping.get(r, r)) for r in self.responses])

    # -- comparison and display ------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sketch):
            return NotImplemented
        return (
            self.classifiers == other.classifiers
            and self.labels == other.labels
            and self.abstain == other.abstain
            and self.populations == other.populations
            and all(np.array_equal(a, b) for a, b in zip(self.table(), other.table()))
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "labelled" if self.is_labelled else "unlabelled"
        pops = "" if self.populations == ("all",) else f", populations={short_names(self.populations)}"
        pops += f", abstain={short_names(self.abstain)}" if self.abstain else ""
        return (
            f"Sketch(Q={self.Q}, classifiers={short_names(self.classifiers)}, "
            f"labels={short_names(self.labels)}{pops}, {kind}, {self._count.size} non-empty cells)"
        )

    # -- constructors: the readers give the cell table, the class assembles it -------------
    @classmethod
    def _from_table(cls, table: CellTable) -> Sketch:
        """The sketch of a reader's cell table (the constructor of every ``from_*``)."""
        return cls(*table)

    @classmethod
    def from_decisions(
        cls,
        decisions: Any,
        *,
        labels: Sequence[str] | int | None = None,
        classifiers: Sequence[str] | None = None,
        truth: Any = None,
        population: Any = None,
        populations: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
    ) -> Sketch:
        r"""Count per-item decisions into a sketch.

        Parameters
        ----------
        decisions : array-like or pandas.DataFrame
            ``items x classifiers``: label names (str) or label indices (int ``0..R-1``).
            A DataFrame gives one column per classifier (its column names name them).
        labels : sequence of str or int, optional
            All label names in order (default: the sorted names seen, or ``a, b, ...``
            for indices; an int ``R`` names ``R`` labels so). Labels never used must be
            listed here to be part of the sketch.
        classifiers : sequence of str, optional
            Classifier names (default: the DataFrame's columns, else ``c0, c1, ...``).
        truth : array-like, optional
            The answer key, one true label per item; makes a labelled sketch.
        population : str or array-like, optional
            One population for all items, or a population (name or index) per item.
        populations : sequence of str, optional
            Population names in order, when ``population`` holds indices or to fix the order.
        abstain : str or sequence of str, optional
            Answers that are not labels (e.g. ``"unsure"``): counted as abstentions.
        missing : {"error", "abstain", "drop"}
            Missing answers (``None``, NaN, empty strings, negative indices): refused
            (default), counted as the first abstention (``"abstain"`` unless named), or their
            items dropped. ``sketch.missing_report`` says how many answers and items it touched.

        Raises
        ------
        SketchError
            Missing answers (with ``missing="error"``) or truth, unknown labels, floats or
            booleans as labels, ragged rows.

        Examples
        --------
        >>> sk = Sketch.from_decisions([["yes", "no"], ["no", "no"]], classifiers=["x", "y"])
        >>> sk.labels, sk.counts()
        (('no', 'yes'), {('no', 'no'): 1, ('yes', 'no'): 1})
        >>> Sketch.from_decisions([[0, 1], [1, 1]], truth=[0, 1]).by_true_label()
        {'a': {('a', 'b'): 1}, 'b': {('b', 'b'): 1}}
        """
        return cls(
            *decisions_table(
                decisions,
                labels=labels,
                classifiers=classifiers,
                truth=truth,
                population=population,
                populations=populations,
                abstain=abstain,
                missing=missing,
            )
        )

    @classmethod
    def from_counts(
        cls,
        counts: Mapping[Any, int] | None = None,
        *,
        labels: Sequence[str] | None = None,
        classifiers: Sequence[str] | None = None,
        by_true_label: Mapping[str, Mapping[Any, int]] | None = None,
        population: str = "all",
        abstain: str | Sequence[str] | None = None,
    ) -> Sketch:
        r"""A sketch from pattern counts, optionally split by true label.

        Parameters
        ----------
        counts : mapping pattern -> int, optional
            Patterns are tuples of label names (or strings like ``"aab"`` when every label
            is one character). Optional when ``by_true_label`` is given.
        labels : sequence of str, optional
            All label names in order (default: the sorted labels seen).
        classifiers : sequence of str, optional
            Classifier names (default: ``c0, c1, ...``).
        by_true_label : mapping label -> (mapping pattern -> int), optional
            Counts split by true label (a labelled sketch); their sum must equal ``counts``.
        population : str
            The population's name.
        abstain : str or sequence of str, optional
            Responses in the patterns that are not labels (abstentions).

        Examples
        --------
        >>> sk = Sketch.from_counts({"aa": 3, "ab": 1}, labels=["a", "b"])
        >>> sk.Q, sk.classifiers
        (4, ('c0', 'c1'))
        >>> Sketch.from_counts(
        ...     labels=["a", "b"], by_true_label={"a": {"aa": 2}, "b": {"ab": 1}}
        ... ).label_counts()
        {'a': 2, 'b': 1}
        """
        return cls(
            *counts_table(
                counts,
                labels=labels,
                classifiers=classifiers,
                by_true_label=by_true_label,
                population=population,
                abstain=abstain,
            )
        )

    @classmethod
    def from_long(
        cls,
        records: Any,
        *,
        task: str = "task",
        worker: str = "worker",
        label: str = "label",
        labels: Sequence[str] | None = None,
        classifiers: Sequence[str] | None = None,
        truth: Mapping[Any, str] | Any = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
    ) -> Sketch:
        r"""A sketch from long ``task, worker, label`` rows (the crowd-sourcing format).

        Every worker (classifier) answers every task at most once; a task a worker did not
        answer, or a missing label, is a missing answer (``missing=``).

        Parameters
        ----------
        records : pandas.DataFrame, mapping of columns, or iterable of 3-tuples
            One row per answer.
        task, worker, label : str
            Column names of a DataFrame or mapping.
        labels : sequence of str, optional
            All label names in order (default: the sorted names seen).
        classifiers : sequence of str, optional
            Worker names in the order wanted (default: sorted).
        truth : mapping task -> label (a dict or a pandas Series), optional
            The answer key; makes a labelled sketch.
        abstain, missing
            As for :meth:`from_decisions`.

        Examples
        --------
        >>> rows = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b"), ("t2", "w2", "b")]
        >>> Sketch.from_long(rows, truth={"t1": "a", "t2": "b"}).by_true_label()
        {'a': {('a', 'b'): 1}, 'b': {('b', 'b'): 1}}
        """
        return cls(
            *long_table(
                records,
                task=task,
                worker=worker,
                label=label,
                labels=labels,
                classifiers=classifiers,
                truth=truth,
                abstain=abstain,
                missing=missing,
            )
        )

    @classmethod
    def from_csv(
        cls,
        path: str | os.PathLike[str] | io.TextIOBase,
        *,
        truth: str | None = None,
        population: str | None = None,
        labels: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
    ) -> Sketch:
        r"""A sketch from a CSV of items: a header row, one column per classifier.

        Parameters
        ----------
        path : path or text file
            UTF-8 text (a leading byte-order mark is ignored). A missing or unreadable file,
            text that is not UTF-8, a line over :data:`~evalgebra.data.readers.MAX_LINE_CHARS`
            characters or a cell over the csv module's field limit raise :class:`SketchError`.
        truth : str, optional
            Name of the column holding the true label (makes a labelled sketch); columns
            repeating its name must agree with it.
        population : str, optional
            Name of the column holding each item's population (not the truth's column).
        labels : sequence of str, optional
            All label names in order (default: the sorted names seen).
        abstain, missing
            As for :meth:`from_decisions` (an empty cell is a missing answer).

        Examples
        --------
        >>> import io
        >>> sk = Sketch.from_csv(io.StringIO("m1,m2,y\na,b,a\nb,b,b\n"), truth="y")
        >>> sk.classifiers, sk.Q
        (('m1', 'm2'), 2)
        """
        return cls(
            *csv_table(
                path, truth=truth, population=population, labels=labels, abstain=abstain, missing=missing
            )
        )
