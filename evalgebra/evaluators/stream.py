r"""Streaming evaluation: count decisions batch by batch, evaluate at any time, checkpoint.

A :class:`StreamEvaluator` is the data-streaming side of evalgebra [1]_: it keeps
the exact sketch of everything ingested so far, the integer count of every decision
pattern per population, and nothing else. Batches are ``items x N`` arrays of label names
or integer label codes (``0..R-1``), optionally with each item's population. Counting uses
one vectorised pass per batch (:meth:`Sketch.from_decisions`, block-wise ``bincount``)
into a dense count vector when the ``R^N`` patterns per population fit one (up to
``2^24`` cells), or merges sparse sketches otherwise.

:meth:`StreamEvaluator.checkpoint` writes the state atomically (a temporary file renamed
into place, so a crash leaves the previous checkpoint whole) and
:meth:`StreamEvaluator.resume` restores it exactly; ingesting after a resume gives the
same sketch as never having stopped.

Checkpoint format ``evalgebra.stream/1``, one JSON object::

    {"format": "evalgebra.stream/1",
     "settings": {"classifiers": [...], "labels": [...], "populations": [...]},
     "items": 1000, "batches": 3,
     "sketch": {...sketch JSON v1...}}          (null before the first item)

Examples
--------
>>> import numpy as np, tempfile, pathlib
>>> stream = StreamEvaluator(["c1", "c2", "c3"], ["a", "b"])
>>> stream.ingest(np.array([[0, 0, 1], [1, 1, 1], [0, 0, 0]]))
>>> stream.ingest([["b", "b", "a"]])
>>> stream.items, stream.sketch.counts()[("a", "a", "b")]
(4, 1)
>>> stream.evaluate("majority").point.prevalence
{'a': Fraction(1, 2), 'b': Fraction(1, 2)}
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stream.json"
>>> stream.checkpoint(path)
>>> again = StreamEvaluator.resume(path)
>>> again.sketch == stream.sketch, again.items
(True, 4)

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification" (evaluation as a streaming task over a data sketch).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evalgebra.data.patterns import check_size
from evalgebra.data.sketch import DENSE_LIMIT, UNLABELLED, Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.fileio import write_output
from evalgebra.results import Evaluation
from evalgebra.spec import EnsembleSpec

__all__ = ["STREAM_FORMAT", "StreamEvaluator"]

STREAM_FORMAT = "evalgebra.stream/1"

_TOP_KEYS = {"format", "settings", "items", "batches", "sketch"}
_SETTING_KEYS = {"classifiers", "labels", "populations"}
_MAX_ITEMS = 2**62


def _names_list(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SketchError(f"{where}: settings[{key!r}] must be a list of strings")
    return value


def _count(value: Any, key: str, where: str, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SketchError(f"{where}: {key!r} must be a non-negative integer, got {value!r}")
    if value >= limit:
        raise SketchError(
            f"{where}: {key!r} must be below 2^{limit.bit_length() - 1}, got {value}: "
            "counts are 64-bit integers"
        )
    return value


def _expected_names(value: Sequence[str] | None, key: str) -> list[str] | None:
    """The names a caller of :meth:`StreamEvaluator.resume` expects; a bare string is refused."""
    if value is None:
        return None
    names = None if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) else list(value)
    if names is None or not all(isinstance(v, str) for v in names):
        raise SpecError(f"{key} must be a sequence of names (a list of strings), got {value!r}")
    return names


class StreamEvaluator:
    r"""Exact sketch of a stream of ensemble decisions, ingested in batches.

    Parameters
    ----------
    classifiers : int or sequence of str
        Number of classifiers (named ``c0, c1, ...``) or their names, in column order.
    labels : int or sequence of str
        Number of labels (named ``a, b, ...``) or their names; integer decisions are
        indices into this list.
    populations : sequence of str, optional
        Population names, when batches say which population each item is from.

    Attributes
    ----------
    classifiers, labels, populations : tuple of str

    Notes
    -----
    The state is the count ``n_d`` of every decision pattern ``d`` per population (seed
    000's data sketch), held as ``int64``; nothing about individual items is kept.
    A batch that is rejected leaves the state unchanged.

    Examples
    --------
    >>> stream = StreamEvaluator(2, 2, populations=["north", "south"])
    >>> stream.ingest([[0, 1], [1, 1]], population="north")
    >>> stream.ingest([["a", "a"]], population=["south"])
    >>> stream.sketch.counts("south"), stream.items, stream.batches
    ({('a', 'a'): 1}, 3, 2)
    >>> stream.ingest([[0, 1, 1]])
    Traceback (most recent call last):
    ...
    evalgebra.errors.SketchError: batch 3: a batch must be items x 2 classifiers (c0, c1), got shape (1, 3)
    """

    def __init__(
        self,
        classifiers: int | Sequence[str],
        labels: int | Sequence[str],
        populations: Sequence[str] | None = None,
    ) -> None:
        spec = EnsembleSpec(classifiers, labels, populations=populations)
        check_size(spec.n_classifiers, spec.n_labels)
        self.classifiers: tuple[str, ...] = spec.classifiers
        self.labels: tuple[str, ...] = spec.labels
        self.populations: tuple[str, ...] = spec.populations
        self._n_codes = spec.n_labels**spec.n_classifiers
        cells = self._n_codes * len(self.populations)
        self._dense: np.ndarray | None = np.zeros(cells, dtype=np.int64) if cells <= DENSE_LIMIT else None
        self._sparse: Sketch | None = None
        self._items = 0
        self._batches = 0
        self._cache: Sketch | None = None

    # -- state ----------------------------------------------------------------------------
    @property
    def items(self) -> int:
        """Number of items ingested so far."""
        return self._items

    @property
    def batches(self) -> int:
        """Number of non-empty batches ingested so far."""
        return self._batches

    @property
    def sketch(self) -> Sketch:
        """The exact (unlabelled) sketch of every item so far.

        Raises :class:`~evalgebra.errors.SketchError` before the first item: a sketch
        holds at least one.
        """
        if self._items == 0:
            raise SketchError("the stream has no items yet: ingest a batch first")
        if self._cache is None:
            if self._dense is not None:
                cells = np.flatnonzero(self._dense)
                pop, code = np.divmod(cells, self._n_codes)
                self._cache = Sketch(
                    self.classifiers,
                    self.labels,
                    pop,
                    np.full(cells.size, UNLABELLED),
                    code,
                    self._dense[cells],
                    self.populations,
                )
            else:
                assert self._sparse is not None
                self._cache = self._sparse
        return self._cache

    def settings(self) -> dict[str, list[str]]:
        """The names that fix the meaning of the counts (stored in checkpoints)."""
        return {
            "classifiers": list(self.classifiers),
            "labels": list(self.labels),
            "populations": list(self.populations),
        }

    def __repr__(self) -> str:
        pops = "" if self.populations == ("all",) else f", populations={list(self.populations)}"
        return (
            f"StreamEvaluator(classifiers={list(self.classifiers)}, labels={list(self.labels)}{pops}; "
            f"{self._items} items in {self._batches} batches)"
        )

    # -- ingesting ------------------------------------------------------------------------
    def _matrix(self, decisions: Any) -> Any:
        """The batch as something :meth:`Sketch.from_decisions` reads, width checked."""
        if hasattr(decisions, "columns") and hasattr(decisions, "to_numpy"):
            names = [str(c) for c in decisions.columns]
            if sorted(names) != sorted(self.classifiers) or len(set(names)) != len(names):
                raise SketchError(
                    f"a DataFrame batch needs one column per classifier {list(self.classifiers)}, "
                    f"got columns {names}"
                )
            return decisions[[decisions.columns[names.index(c)] for c in self.classifiers]]
        if isinstance(decisions, np.ndarray):
            matrix = decisions
        else:
            try:
                matrix = np.array(decisions, dtype=object)
            except ValueError:
                raise SketchError("a batch's rows have different lengths") from None
            if matrix.ndim == 1 and any(isinstance(row, (list, tuple)) for row in matrix):
                raise SketchError("a batch's rows have different lengths")
        if matrix.ndim != 2 or matrix.shape[1] != len(self.classifiers):
            raise SketchError(
                f"a batch must be items x {len(self.classifiers)} classifiers "
                f"({', '.join(self.classifiers)}), got shape {matrix.shape}"
            )
        return matrix

    def _batch_table(
        self, decisions: Any, population: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """``(population index, pattern code, count)`` of one batch; None when it is empty."""
        matrix = self._matrix(decisions)
        if len(matrix) == 0:
            return None
        single: int | None = None
        if population is None:
            if len(self.populations) != 1:
                raise SketchError(
                    f"this stream has populations {list(self.populations)}: give the batch's "
                    "population (one name, or one per item)"
                )
            single = 0
        elif isinstance(population, str):
            if population not in self.populations:
                raise SketchError(
                    f"unknown population {population!r}; populations are {list(self.populations)}"
                )
            single = self.populations.index(population)
        if single is not None:
            sketch = Sketch.from_decisions(matrix, labels=self.labels, classifiers=self.classifiers)
            _, _, code, count = sketch.table()
            return np.full(code.size, single, dtype=np.int64), code, count
        sketch = Sketch.from_decisions(
            matrix,
            labels=self.labels,
            classifiers=self.classifiers,
            population=population,
            populations=self.populations,
        )
        pop, _, code, count = sketch.table()
        return pop, code, count

    def _add(self, pop: np.ndarray, code: np.ndarray, count: np.ndarray) -> None:
        added = int(count.sum())
        if self._items + added >= _MAX_ITEMS:
            raise SketchError(f"the stream would hold more than {_MAX_ITEMS} items: counts overflow")
        if self._dense is not None:
            np.add.at(self._dense, pop * self._n_codes + code, count)
        else:
            part = Sketch(
                self.classifiers,
                self.labels,
                pop,
                np.full(code.size, UNLABELLED),
                code,
                count,
                self.populations,
            )
            self._sparse = part if self._sparse is None else self._sparse.merge(part)
        self._items += added
        self._cache = None

    def ingest(self, decisions: Any, population: str | Any | None = None) -> None:
        r"""Count one batch of items.

        Parameters
        ----------
        decisions : array-like or pandas.DataFrame
            ``items x N``: label names (str) or label indices (int, ``0..R-1``), columns
            in the stream's classifier order (a DataFrame's columns are matched by name).
            An empty batch (``0 x N``) is accepted and changes nothing.
        population : str or array-like, optional
            The population of every item of the batch (a name), or one per item (names
            or indices into ``populations``). Required when the stream has several.

        Raises
        ------
        SketchError
            Wrong width, unknown labels or populations, missing answers, or a mix of
            names and indices; the message names the batch. The state is then unchanged.
        """
        try:
            table = self._batch_table(decisions, population)
            if table is not None:
                self._add(*table)
        except SketchError as exc:
            raise SketchError(f"batch {self._batches + 1}: {exc}") from None
        if table is not None:
            self._batches += 1

    # -- evaluating -----------------------------------------------------------------------
    def evaluate(self, method: str = "algebraic", **options: Any) -> Evaluation:
        r"""Evaluate the ensemble on everything ingested so far.

        Parameters
        ----------
        method : {"algebraic", "majority"}
            See :func:`evalgebra.evaluators.dispatch.evaluate`.
        **options
            Passed to the method.
        """
        from evalgebra.evaluators.dispatch import evaluate

        return evaluate(self.sketch, method=method, **options)

    # -- checkpoints ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The ``evalgebra.stream/1`` document as a dictionary."""
        return {
            "format": STREAM_FORMAT,
            "settings": self.settings(),
            "items": self._items,
            "batches": self._batches,
            "sketch": json.loads(self.sketch.to_json()) if self._items else None,
        }

    def checkpoint(self, path: str | os.PathLike[str]) -> None:
        """Write the state to ``path`` atomically: the file is either the old one or the new one."""
        write_output(path, json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def from_sketch(cls, sketch: Sketch, batches: int = 0) -> StreamEvaluator:
        """A stream whose state is an unlabelled sketch (as if its items had been ingested)."""
        if not isinstance(sketch, Sketch):
            raise SketchError(f"from_sketch needs a Sketch, got {type(sketch).__name__}")
        if sketch.is_labelled:
            raise SketchError("a stream counts unlabelled decisions; pass sketch.unlabelled()")
        stream = cls(sketch.classifiers, sketch.labels, populations=sketch.populations)
        pop, _, code, count = sketch.table()
        stream._add(pop, code, count)
        stream._batches = batches
        return stream

    @classmethod
    def resume(
        cls,
        path: str | os.PathLike[str],
        *,
        classifiers: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        populations: Sequence[str] | None = None,
    ) -> StreamEvaluator:
        r"""Restore a stream from a :meth:`checkpoint` file, exactly.

        Parameters
        ----------
        path : path
        classifiers, labels, populations : sequence of str, optional
            What the caller expects the checkpoint to hold; a checkpoint written for
            other names is refused.

        Raises
        ------
        SketchError
            The file is missing, not a stream checkpoint, inconsistent (its item count
            differs from its sketch's, a count is 2^63 or more, ``sketch`` is not the embedded
            sketch document) or written for other classifiers, labels or populations.
        SpecError
            ``classifiers``, ``labels`` or ``populations`` is not a sequence of names (a bare
            string is refused, not split into characters).
        """
        expected = {
            "classifiers": _expected_names(classifiers, "classifiers"),
            "labels": _expected_names(labels, "labels"),
            "populations": _expected_names(populations, "populations"),
        }
        where = f"checkpoint {str(path)!r}"
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise SketchError(f"cannot read {where}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SketchError(f"{where} is not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != STREAM_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise SketchError(
                f"{where} is not a stream checkpoint: format {found!r}, expected {STREAM_FORMAT!r}"
            )
        if set(data) != _TOP_KEYS:
            raise SketchError(f"{where} must have exactly the keys {sorted(_TOP_KEYS)}, has {sorted(data)}")
        settings = data["settings"]
        if not isinstance(settings, dict) or set(settings) != _SETTING_KEYS:
            raise SketchError(f"{where}: settings must have exactly the keys {sorted(_SETTING_KEYS)}")
        saved = {key: _names_list(settings[key], key, where) for key in sorted(_SETTING_KEYS)}
        for key, want in expected.items():
            if want is not None and want != saved[key]:
                raise SketchError(f"{where} was written for {key} {saved[key]}, expected {want}")
        items = _count(data["items"], "items", where, _MAX_ITEMS)
        batches = _count(data["batches"], "batches", where, 2**63)
        try:
            stream = cls(saved["classifiers"], saved["labels"], populations=saved["populations"])
        except SpecError as exc:
            raise SketchError(f"{where}: {exc}") from None
        if data["sketch"] is None:
            if items:
                raise SketchError(f"{where} says {items} items but holds no sketch")
            stream._batches = batches
            return stream
        if not isinstance(data["sketch"], dict):
            # the sketch is embedded as a JSON object; a string would be read as a file path
            raise SketchError(
                f"{where}: 'sketch' must be the embedded sketch document (a JSON object) or null, "
                f"got {type(data['sketch']).__name__}"
            )
        try:
            sketch = Sketch.read_json(data["sketch"])
        except (SketchError, SpecError, OverflowError, TypeError, ValueError) as exc:
            raise SketchError(f"{where}: its sketch is invalid: {exc}") from None
        if (list(sketch.classifiers), list(sketch.labels), list(sketch.populations)) != (
            saved["classifiers"],
            saved["labels"],
            saved["populations"],
        ):
            raise SketchError(
                f"{where}: its sketch's classifiers, labels or populations differ from its settings"
            )
        if sketch.is_labelled:
            raise SketchError(f"{where}: its sketch is labelled; a stream holds unlabelled counts")
        if sketch.Q != items:
            raise SketchError(f"{where} says {items} items but its sketch holds {sketch.Q}")
        return cls.from_sketch(sketch, batches=batches)
