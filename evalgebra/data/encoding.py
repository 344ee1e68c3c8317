r"""Label encoding for the readers: label names or indices in, label indices out.

The readers (:mod:`evalgebra.data.readers`) accept decisions as label names (strings) or
label indices (integers ``0..R-1``), in NumPy arrays, Python sequences or pandas columns.
This module turns any of them into label indices, once per distinct value, and handles
missing answers (``None``, NaN, empty strings, negative indices) by the reader's policy
(:data:`~evalgebra.data.cells.MISSING_POLICIES`): refused with their position, counted as an
abstention, or marked for dropping. Named abstentions (``abstain=["unsure"]``) are responses
after the labels: index ``R + k`` for the ``k``-th.

Examples
--------
>>> import numpy as np
>>> encoder = LabelEncoder(None)
>>> encoder.add(as_label_array([["yes", "no"], ["no", "no"]], "decisions"), "decisions")
0
>>> codes, labels = encoder.finish()
>>> codes[0].tolist(), labels
([[1, 0], [0, 0]], ('no', 'yes'))
>>> population_indices(["s", "t", "s"], None, 3)[0].tolist()
[0, 1, 0]
>>> encoder = LabelEncoder(None, abstain=["unsure"], missing="abstain")
>>> encoder.add(as_label_array([["yes", None], ["unsure", "no"]], "decisions"), "decisions")
0
>>> codes, labels = encoder.finish()
>>> codes[0].tolist(), labels, encoder.abstain, encoder.holes(0).tolist()
([[1, 2], [2, 0]], ('no', 'yes'), ('unsure',), [[False, True], [False, False]])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from evalgebra.data.cells import MISSING_POLICIES
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int
from evalgebra.spec import DEFAULT_ABSTAIN, default_label_names

__all__ = [
    "LabelEncoder",
    "as_label_array",
    "integers_if_all",
    "population_indices",
    "factorize",
    "factorize_objects",
    "index_range",
    "is_missing",
    "missing_mask",
    "describe_position",
    "missing_hint",
    "MISSING_CHOICES",
    "MAX_INFERRED_LABELS",
    "name_text",
]

#: Integer decisions without ``labels=`` name at most this many labels ``a, b, ...`` (and
#: integer population indices without ``populations=`` name at most this many populations).
MAX_INFERRED_LABELS = 1 << 16
INT64_LIMIT = 2**63


def name_text(value: Any, what: str) -> str:
    """A column or classifier name as text: a str as it is, anything else as its ``str()``.

    An integer of more than 64 bits or a value whose ``str()`` fails raises SketchError (a
    10,000-digit integer has no ``str()``: Python refuses it with a ValueError).

    Examples
    --------
    >>> name_text(0, "column"), name_text("m1", "column")
    ('0', 'm1')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and int(value).bit_length() > 64:
        raise SketchError(f"{what}: {show_int(int(value))} is too long for a name; give names as text")
    try:
        return str(value)
    except (TypeError, ValueError):
        raise SketchError(f"{what}: {short_repr(value)} has no text form; give names as text") from None


def is_missing(value: Any) -> bool:
    """Whether one value is a missing answer: ``None``, an empty string or NaN."""
    return value is None or value == "" or value != value


def missing_mask(values: np.ndarray) -> np.ndarray:
    """Where an array holds missing answers (see :func:`is_missing`)."""
    if values.dtype.kind in "US":
        return values == values.dtype.type("")
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "O":
        return np.frompyfunc(is_missing, 1, 1)(values).astype(bool)
    return np.zeros(values.shape, dtype=bool)


def factorize_objects(
    values: np.ndarray, what: str = "values", names: Sequence[str] | None = None
) -> tuple[np.ndarray, list[Any], np.ndarray] | None:
    """``(codes, uniques, missing mask)`` of an object array, testing each distinct value once.

    ``None`` without pandas. ``pandas.factorize`` codes None, NaN and NaT as -1 (the rest
    of :func:`is_missing`, empty strings, is checked on the distinct values).
    """
    try:
        import pandas  # noqa: F401
    except ImportError:  # pragma: no cover - pandas is a test dependency
        return None
    codes, uniques = factorize(values, what, names)
    missing = codes < 0
    blank = [k for k, u in enumerate(uniques) if is_missing(u)]
    if blank:
        missing |= np.isin(codes, blank)
    return codes, uniques, missing


RANGE_BLOCK = 1 << 20  # bytes per block of index_range: min and max read it from cache


def index_range(values: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` of an integer array in one pass over memory (``(0, -1)`` when empty)."""
    if values.size == 0:
        return 0, -1
    if values.dtype.kind == "u":
        return 0, int(values.max())
    if not (values.flags.c_contiguous or values.flags.f_contiguous):
        return int(values.min()), int(values.max())
    flat = values.ravel(order="K")  # a view, in memory order
    step = RANGE_BLOCK // values.dtype.itemsize
    low, high = int(flat[0]), int(flat[0])
    for start in range(0, flat.size, step):
        block = flat[start : start + step]  # cached between the two reductions
        low, high = min(low, int(block.min())), max(high, int(block.max()))
    return low, high


def describe_position(position: tuple[int, ...], what: str, names: Sequence[str] | None) -> str:
    """``item k, classifier 'x'`` for a matrix position, ``<what> of item k`` for a column."""
    if len(position) == 2 and names is not None:
        return f"item {position[0]}, classifier {names[position[1]]!r}"
    return f"{what} of item {position[0]}"


def factorize(
    values: np.ndarray, what: str = "values", names: Sequence[str] | None = None
) -> tuple[np.ndarray, list[Any]]:
    """Codes into the list of distinct values (hash-based with pandas, else sorting).

    A cell that is not a single value (a list, a dict, an array) raises a
    :class:`~evalgebra.errors.SketchError` naming its position (see :func:`describe_position`).
    """
    flat = values.ravel()
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a test dependency
        try:
            uniques, inverse = np.unique(flat, return_inverse=True)
        except TypeError:
            raise _not_a_value(values, what, names) from None
        return inverse.reshape(values.shape), uniques.tolist()
    try:
        codes, uniques = pd.factorize(flat, use_na_sentinel=True)
    except TypeError:
        raise _not_a_value(values, what, names) from None
    plain = [u.item() if isinstance(u, np.generic) else u for u in uniques]
    return codes.reshape(values.shape), plain


def _not_a_value(values: np.ndarray, what: str, names: Sequence[str] | None) -> SketchError:
    """The error for the first cell of ``values`` that is not one label (an unhashable object)."""
    for position, value in np.ndenumerate(values):
        try:
            hash(value)
        except TypeError:
            return SketchError(
                f"{what}: {type(value).__name__} {short_repr(value)} "
                f"at {describe_position(position, what, names)} "
                "is not one label; each cell holds a label name (str) or index (int)"
            )
    return SketchError(f"{what}: cells must be label names (str) or indices (int)")


#: What a message about a refused missing answer offers instead.
MISSING_CHOICES = (
    "pass missing='abstain' to count missing answers as an abstention "
    "or missing='drop' to drop the items that have one"
)


def missing_hint(where: str) -> str:
    """The message for a missing answer refused by ``missing="error"``: where, and the choices."""
    return f"missing answer at {where}; {MISSING_CHOICES}"


class LabelEncoder:
    """Turns label names or indices into response indices, sharing one label list.

    ``abstain`` names the responses that are not labels (index ``R + k``); ``missing`` is the
    policy for missing answers (:data:`~evalgebra.data.cells.MISSING_POLICIES`): with
    ``"abstain"`` they become the first abstention (:data:`~evalgebra.spec.DEFAULT_ABSTAIN`
    when none is named); :meth:`holes` tells where they were.
    """

    def __init__(
        self, labels: Sequence[str] | int | None, abstain: Any = None, missing: str = "error"
    ) -> None:
        if not isinstance(missing, str) or missing not in MISSING_POLICIES:
            raise SketchError(
                f"missing={short_repr(missing)}: accepted are {', '.join(map(repr, MISSING_POLICIES))}"
            )
        given = [abstain] if isinstance(abstain, str) else [] if abstain is None else abstain
        named = (
            None if isinstance(given, (bytes, Mapping)) or not isinstance(given, Iterable) else list(given)
        )
        if named is None or not all(isinstance(a, str) and a for a in named) or len(set(named)) != len(named):
            raise SketchError(
                "abstain must name the non-label answers (distinct non-empty strings), "
                f"got {short_repr(abstain)}"
            )
        if missing == "abstain" and not named:
            named = [DEFAULT_ABSTAIN]
        self.abstain: tuple[str, ...] = tuple(named)
        self.missing = missing
        self._holes: list[np.ndarray | None] = []
        self.fixed = labels is not None
        if isinstance(labels, (int, np.integer)) and not isinstance(labels, (bool, np.bool_)):
            if not 2 <= labels <= MAX_INFERRED_LABELS:
                raise SketchError(
                    f"labels={show_int(int(labels))}: give between 2 and {MAX_INFERRED_LABELS} labels "
                    "by number, "
                    "or list their names"
                )
            labels = default_label_names(int(labels))
        elif labels is not None:
            listed = (
                None if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable) else list(labels)
            )
            if listed is None or not all(isinstance(name, str) for name in listed):
                raise SketchError(
                    f"labels must be a list of label names (str) or their number, got {short_repr(labels)}"
                )
            labels = listed
        clash = [name for name in (labels or ()) if name in self.abstain]
        if clash:
            raise SketchError(f"{clash} are named as labels and as abstentions; an abstention is not a label")
        self.labels: list[str] = [] if labels is None else list(labels)
        self.integer = False
        self.lowest = 0 if self.fixed else 1 << 62  # smallest integer label index seen
        # (label indices or factorize codes, distinct names, largest integer index)
        self._pending: list[tuple[np.ndarray, list[Any], int]] = []

    def holes(self, position: int) -> np.ndarray | None:
        """Where the array queued at ``position`` had missing answers (``None``: nowhere)."""
        return self._holes[position]

    def add(
        self, values: np.ndarray, what: str, names: Sequence[str] | None = None, answers: bool = True
    ) -> int:
        """Queue one array of decisions (or, ``answers=False``, truth) for encoding; returns its position.

        Missing truth is always refused: no choice invents a true label.
        """
        if values.dtype.kind == "b":
            raise SketchError(f"{what}: booleans are not labels; use label names or indices")
        self._holes.append(None)
        refuse = self.missing == "error" or not answers
        if values.dtype.kind in "iu":
            # integers cannot be missing except as negative indices; they stay in their
            # own dtype (no int64 copy) and are scanned once for their range
            self.integer = True
            low, high = index_range(values)
            if low < 0:
                position = tuple(int(x) for x in np.argwhere(values < 0)[0])
                if refuse:
                    raise SketchError(
                        f"missing answer (negative index) at {describe_position(position, what, names)}; "
                        "integer cells are label positions 0..R-1 (for labels coded -1/+1, give the cells as "
                        "strings, e.g. df.astype(str))"
                        + ("" if not answers else "; or pass missing='abstain'/'drop'")
                    )
                self._holes[-1] = values < 0
                present = values[values >= 0]
                low = int(present.min()) if present.size else 0
            if values.size:
                self.lowest = min(self.lowest, low)
            self._pending.append((values, [], high))
            return len(self._pending) - 1
        factorized = factorize_objects(values, what, names) if values.dtype.kind == "O" else None
        missing = missing_mask(values) if factorized is None else factorized[2]
        if missing.any():
            position = tuple(int(x) for x in np.argwhere(missing)[0])
            where = describe_position(position, what, names)
            if refuse:
                raise SketchError(
                    missing_hint(where)
                    if answers
                    else f"missing answer at {where}; every item of a labelled test needs its true label"
                )
            self._holes[-1] = missing
        if values.dtype.kind == "f":
            raise SketchError(f"{what}: decisions must be label names (str) or indices (int), not floats")
        codes, uniques = factorize(values, what, names) if factorized is None else factorized[:2]
        for u in uniques:
            if is_missing(u):
                continue
            if not answers and u in self.abstain:
                raise SketchError(f"{what}: {u!r} is an abstention, not a label; every true label is a label")
            if not isinstance(u, str):
                raise SketchError(
                    f"{what}: label {short_repr(u)} is not a string; use label names or integer indices"
                )
        self._pending.append((codes, uniques, -1))
        return len(self._pending) - 1

    def finish(self) -> tuple[list[np.ndarray], tuple[str, ...]]:
        """Response indices (integer input keeps its dtype) and the label names.

        Missing answers hold the first abstention (``missing="abstain"``) or ``0`` (``"drop"``:
        the caller drops their items, see :meth:`holes`).
        """
        names_seen = sorted(
            {
                u
                for _, uniques, _ in self._pending
                for u in uniques
                if not is_missing(u) and u not in self.abstain
            }
        )
        if self.integer and names_seen:
            raise SketchError("decisions mix label names and integer indices")
        if not self.fixed:
            if self.integer:
                top = max((high for _, _, high in self._pending), default=0)
                if top >= MAX_INFERRED_LABELS:
                    raise SketchError(
                        f"label index {top} is too large to infer the labels from "
                        f"(at most {MAX_INFERRED_LABELS} inferred); pass labels=[...]"
                    )
                if self.lowest > 0:  # positions start at 0: numbers coded 1..R are names, not positions
                    raise SketchError(
                        f"integer cells are label positions 0..R-1, but no cell is 0 (they run from "
                        f"{self.lowest} to {top}); if the numbers are label names, give the cells as strings "
                        f"(e.g. df.astype(str)), or pass labels=[...] naming positions 0..{top}"
                    )
                self.labels = list(default_label_names(max(2, top + 1)))
            else:
                self.labels = names_seen
                if len(self.labels) < 2:
                    raise SketchError(
                        f"only one label seen ({self.labels}); pass labels=[...] to name them all"
                    )
        n_labels = len(self.labels)
        responses = self.labels + list(self.abstain)
        fill = n_labels if self.missing == "abstain" else 0
        out = []
        for (codes, uniques, high), holes in zip(self._pending, self._holes):
            if self.integer:
                if high >= n_labels:
                    raise SketchError(f"label index {high} out of range for labels {self.labels}")
                out.append(codes if holes is None else np.where(holes, fill, codes))
                continue
            unknown = [u for u in uniques if u not in responses and not is_missing(u)]
            if unknown:
                hint = f" and abstentions {list(self.abstain)}" if self.abstain else ""
                raise SketchError(
                    f"unknown labels {unknown}; labels are {self.labels}{hint}; "
                    "answers that are not labels: pass abstain=[...]"
                )
            lookup = np.array(
                [responses.index(u) if u in responses else fill for u in uniques], dtype=np.int64
            )
            coded = lookup[codes] if lookup.size else codes.astype(np.int64)
            out.append(coded if holes is None else np.where(holes, fill, coded))
        return out, tuple(self.labels)


def as_label_array(values: Any, what: str) -> np.ndarray:
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
        array = integers_if_all(array, what)
    return array


def integers_if_all(array: np.ndarray, what: str = "decisions") -> np.ndarray:
    """An object array holding only (non-bool) integers as ``int64``; else unchanged.

    An integer outside the signed 64-bit range is no label or population index: a
    :class:`~evalgebra.errors.SketchError` names it.
    """
    flat = array.ravel()
    if flat.size and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in flat
    ):
        low, high = min(int(v) for v in flat), max(int(v) for v in flat)
        if low < -INT64_LIMIT or high >= INT64_LIMIT:
            wrong = high if high >= INT64_LIMIT else low
            position = tuple(int(x) for x in np.argwhere(array == wrong)[0])
            raise SketchError(
                f"{what}: index {show_int(wrong)} at position {position} is out of range; indices are 0..R-1 "
                "(at most 2^63 - 1)"
            )
        return array.astype(np.int64)
    return array


def population_indices(
    population: Any, populations: Sequence[str] | None, n_items: int
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Population index per item and the population names (one population by default)."""
    if population is None:
        names = tuple(populations) if populations is not None else ("all",)
        if len(names) != 1:
            raise SketchError("several populations named but no per-item population given")
        return np.zeros(n_items, dtype=np.int64), names
    if isinstance(population, str):
        return np.zeros(n_items, dtype=np.int64), (population,)
    array = as_label_array(population, "population").ravel()
    if array.shape[0] != n_items:
        raise SketchError(f"population has {array.shape[0]} entries for {n_items} items")
    if array.dtype.kind in "iu":
        if populations is None and int(array.max()) >= MAX_INFERRED_LABELS:
            raise SketchError(
                f"population index {int(array.max())} is too large to infer the populations from "
                f"(at most {MAX_INFERRED_LABELS} inferred); pass populations=[...]"
            )
        names = (
            tuple(populations)
            if populations is not None
            else tuple(f"p{k}" for k in range(int(array.max()) + 1))
        )
        if int(array.min()) < 0 or int(array.max()) >= len(names):
            raise SketchError(f"population index out of range for populations {list(names)}")
        return array.astype(np.int64), names
    codes, uniques = factorize(array, "population")
    if (codes < 0).any():
        raise SketchError("missing population for some items")
    names = tuple(populations) if populations is not None else tuple(sorted(str(u) for u in uniques))
    unknown = [u for u in uniques if str(u) not in names]
    if unknown:
        raise SketchError(f"unknown populations {unknown}; populations are {list(names)}")
    lookup = np.array([names.index(str(u)) for u in uniques], dtype=np.int64)
    return lookup[codes], names
