r"""Sketch JSON v1: writing and strict reading.

::

    {"format": "evalgebra.sketch/1",
     "labels": ["a", "b"], "abstain": ["unsure"],                 (optional)
     "classifiers": ["c1", "c2", "c3"],
     "counts": [{"decisions": ["a", "a", "a"], "count": 568}, ...],
     "by_true_label": {"a": [...], "b": [...]},                  (optional)
     "populations": {"p": {"counts": [...], "by_true_label": {...}}, ...}}  (optional)

``abstain`` names the responses that are not labels (they may appear in ``decisions``,
never as a true label); ``counts`` must equal the sum of ``by_true_label`` (and of
``populations``) when those are present; zero counts may be omitted; any other key or format is
rejected. Writing is canonical (pattern order, one count entry per line), so files diff well.

Reading returns a :class:`~evalgebra.data.cells.CellTable` (``Sketch.from_json``
assembles it); writing takes anything that lists its counts like a sketch does
(:class:`CountSource`), so this module never imports :class:`~evalgebra.data.sketch.Sketch`.

Examples
--------
>>> table = json_table({"format": "evalgebra.sketch/1", "labels": ["a", "b"],
...                     "classifiers": ["x"], "counts": [{"decisions": ["b"], "count": 2}]})
>>> table.classifiers, table.code.tolist(), table.count.tolist()
(('x',), [1], [2])
>>> from evalgebra.data.sketch import Sketch
>>> sk = Sketch.from_counts({"ab": 2, "bb": 1}, labels=["a", "b"])
>>> print(sketch_to_json(sk), end="")
{
  "format": "evalgebra.sketch/1",
  "labels": ["a", "b"],
  "classifiers": ["c0", "c1"],
  "counts": [
    {"decisions": ["a", "b"], "count": 2},
    {"decisions": ["b", "b"], "count": 1}
  ]
}
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from evalgebra.data.cells import CellTable
from evalgebra.data.readers import check_count, counts_table
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr

__all__ = [
    "json_table",
    "sketch_to_json",
    "CountSource",
    "SKETCH_FORMAT",
    "MAX_JSON_BYTES",
    "MAX_JSON_INT_DIGITS",
    "parse_sketch_json",
]

SKETCH_FORMAT = "evalgebra.sketch/1"

Counts = dict[tuple[str, ...], int]


class CountSource(Protocol):
    """What :func:`sketch_to_json` reads: names and counts (a :class:`~evalgebra.data.sketch.Sketch`)."""

    @property
    def labels(self) -> Sequence[str]: ...

    @property
    def classifiers(self) -> Sequence[str]: ...

    @property
    def populations(self) -> Sequence[str]: ...

    @property
    def is_labelled(self) -> bool: ...

    def counts(self, population: str | int | None = None) -> Counts: ...

    def by_true_label(self, population: str | int | None = None) -> dict[str, Counts]: ...


def _count_list(
    counts: dict[tuple[str, ...], int],
) -> list[dict[str, Any]]:
    return [{"decisions": list(p), "count": c} for p, c in counts.items()]


def _sketch_dict(sketch: CountSource) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": SKETCH_FORMAT,
        "labels": list(sketch.labels),
        "classifiers": list(sketch.classifiers),
        "counts": _count_list(sketch.counts()),
    }
    abstain = list(getattr(sketch, "abstain", ()))
    if abstain:  # responses that are not labels; absent when there are none (files stay as before)
        data = {**dict(list(data.items())[:2]), "abstain": abstain, **dict(list(data.items())[2:])}
    if sketch.is_labelled:
        data["by_true_label"] = {t: _count_list(c) for t, c in sketch.by_true_label().items()}
    if tuple(sketch.populations) != ("all",):
        data["populations"] = {}
        for name in sketch.populations:
            entry: dict[str, Any] = {"counts": _count_list(sketch.counts(name))}
            if sketch.is_labelled:
                entry["by_true_label"] = {t: _count_list(c) for t, c in sketch.by_true_label(name).items()}
            data["populations"][name] = entry
    return data


def _dump(value: Any, indent: int = 0) -> str:
    """JSON with one count entry per line (deterministic, diff-friendly)."""
    pad = "  " * indent
    if isinstance(value, dict) and "decisions" in value:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{pad}  {json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 1)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        items = [f"{pad}  {_dump(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def sketch_to_json(sketch: CountSource) -> str:
    """Sketch JSON v1 text (canonical pattern order, zero counts omitted); see the module example."""
    return _dump(_sketch_dict(sketch)) + "\n"


#: Largest sketch JSON read from a path or a file object, in bytes; ``max_bytes=`` raises it.
MAX_JSON_BYTES = 1 << 28
#: Longest JSON integer read, in digits: counts stay below 2^62 (19 digits).
MAX_JSON_INT_DIGITS = 20
_CHUNK = 1 << 20
# what a JSON text can begin with (after blanks): anything else is refused on its first chunk
_JSON_START = frozenset('{["-0123456789tfnNI')


def _shown(name: str) -> str:
    return repr(name) if len(name) <= 80 else repr(name[:80]) + "..."


def _read_capped(handle: Any, what: str, max_bytes: int) -> Any:
    """At most ``max_bytes`` of a file object, in chunks; refused as soon as it is clearly not JSON."""
    chunks: list[Any] = []
    size = 0
    while True:
        chunk = handle.read(min(_CHUNK, max_bytes + 1 - size))
        if not chunk:
            break
        if not isinstance(chunk, (str, bytes, bytearray)):
            raise SketchError(f"{what}: read() gave {type(chunk).__name__}, not text")
        if not chunks:
            head = chunk.lstrip() if isinstance(chunk, str) else bytes(chunk).lstrip().decode("latin-1")
            if (
                head
                and head[0] not in _JSON_START
                and head[0] != "\ufeff"
                and not head.startswith("\xef\xbb\xbf")
            ):
                raise SketchError(
                    f"not valid JSON: {what} begins with {head[:1]!r}; a sketch file holds one JSON object"
                )
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise SketchError(
                f"{what} is larger than {max_bytes} bytes (MAX_JSON_BYTES); pass max_bytes= to read it"
            )
    if chunks and not isinstance(chunks[0], str):
        return b"".join(bytes(c) for c in chunks)
    return "".join(chunks)


def _decoded(data: Any, what: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SketchError(
            f"{what} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise SketchError(f"duplicate key {_shown(key)} in a JSON object; each key may appear once")
        seen[key] = value
    return seen


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_INT_DIGITS:
        raise SketchError(
            f"a JSON integer of {digits} digits is too large: counts are below 2^62 (19 digits)"
        )
    return int(text)


def _file_text(source: str | os.PathLike[str], max_bytes: int) -> str:
    name = os.fsdecode(source)
    what = f"sketch file {_shown(name)}"
    try:
        with open(source, "rb") as handle:
            return _decoded(_read_capped(handle, what, max_bytes), what)
    except SketchError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SketchError(f"cannot read sketch file {_shown(name)}: {reason}") from None


def _refuse_constant(name: str) -> Any:
    raise SketchError(f"sketch JSON holds {name}; counts are non-negative integers")


def _check_text(data: Any) -> None:
    """Refuse strings that are not valid Unicode text (lone surrogates from ``\\ud800`` escapes)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise SketchError(
                    f"sketch JSON holds the name {_shown(item)} with a lone surrogate; "
                    "names must be valid Unicode text"
                ) from None


def _parse(text: str) -> Any:
    try:
        data = json.loads(
            text, object_pairs_hook=_unique_keys, parse_int=_json_int, parse_constant=_refuse_constant
        )
    except RecursionError:
        raise SketchError(
            "not a sketch: the JSON is nested too deeply (a sketch nests four levels)"
        ) from None
    _check_text(data)
    return data


def parse_sketch_json(text: str) -> Any:
    """Parse sketch JSON text strictly: the parsed value, or a :class:`~evalgebra.errors.SketchError`.

    Refused: invalid JSON, duplicate keys, integers of more than :data:`MAX_JSON_INT_DIGITS`
    digits, ``NaN`` and infinities, lone surrogates in strings, nesting deeper than Python's
    recursion limit.

    Examples
    --------
    >>> parse_sketch_json('{"labels": ["a", "b"]}')
    {'labels': ['a', 'b']}
    >>> parse_sketch_json('{"count": NaN}')
    Traceback (most recent call last):
      ...
    evalgebra.errors.SketchError: sketch JSON holds NaN; counts are non-negative integers
    """
    try:
        return _parse(text)
    except json.JSONDecodeError as exc:
        raise SketchError(f"not valid JSON: {exc}") from None


def _load(source: Any, max_bytes: int = MAX_JSON_BYTES) -> Any:
    if isinstance(source, Mapping):
        return source
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise SketchError(f"max_bytes must be a positive integer, got {short_repr(max_bytes)}")
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        text = _file_text(source, max_bytes)
    elif isinstance(source, str):
        try:  # JSON text; a file whose name begins with "{" when it is not JSON
            return _parse(source)
        except json.JSONDecodeError as exc:
            if not os.path.isfile(source):
                raise SketchError(f"not valid JSON: {exc}") from None
        text = _file_text(source, max_bytes)
    elif hasattr(source, "read"):
        try:
            text = _decoded(_read_capped(source, "the sketch JSON", max_bytes), "the sketch JSON")
        except UnicodeDecodeError as exc:
            raise SketchError(
                f"the sketch JSON is not UTF-8 text ({exc.reason} at offset {exc.start})"
            ) from None
    elif isinstance(source, (bytes, bytearray)):
        text = _decoded(source, "the sketch JSON")
    else:
        raise SketchError(
            f"a sketch is read from a path, a file object, JSON text or a dict; got {type(source).__name__}"
        )
    return parse_sketch_json(text)


def _parse_counts(entries: Any, where: str) -> dict[tuple[str, ...], int]:
    if not isinstance(entries, list):
        raise SketchError(f"{where} must be a list of {{'decisions': [...], 'count': n}} entries")
    result: dict[tuple[str, ...], int] = {}
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or set(entry) != {"decisions", "count"}:
            raise SketchError(f"{where}[{k}] must have exactly the keys 'decisions' and 'count'")
        decisions = entry["decisions"]
        if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
            raise SketchError(f"{where}[{k}].decisions must be a list of label names")
        pattern = tuple(decisions)
        if pattern in result:
            raise SketchError(f"{where}: pattern {pattern} listed twice")
        result[pattern] = check_count(entry["count"], f"{where}[{k}]")
    return result


def _parse_split(value: Any, where: str) -> dict[str, dict[tuple[str, ...], int]]:
    if not isinstance(value, dict):
        raise SketchError(f"{where} must map each true label to a list of counts")
    return {t: _parse_counts(v, f"{where}[{t!r}]") for t, v in value.items()}


_TOP_KEYS = {"format", "labels", "abstain", "classifiers", "counts", "by_true_label", "populations"}


def json_table(source: Any, max_bytes: int = MAX_JSON_BYTES) -> CellTable:
    r"""The cell table of sketch JSON v1 from a path, a file object, a JSON string or a parsed dict.

    Anything that is not exactly the v1 format is rejected with a message saying what:
    duplicate keys, integers of more than :data:`MAX_JSON_INT_DIGITS` digits, files of more
    than ``max_bytes`` bytes (:data:`MAX_JSON_BYTES` by default) and text that is not UTF-8
    included. ``Sketch.from_json`` documents the parameters; the module docstring shows the format.
    """
    data = _load(source, max_bytes)
    if not isinstance(data, dict):
        raise SketchError("a sketch file holds one JSON object")
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt != SKETCH_FORMAT:
        raise SketchError(f"not an evalgebra sketch: format is {short_repr(fmt)}, expected {SKETCH_FORMAT!r}")
    extra = set(data) - _TOP_KEYS
    if extra:
        raise SketchError(f"unknown keys {sorted(extra, key=repr)}; a v1 sketch has {sorted(_TOP_KEYS)}")
    for key in ("labels", "classifiers", "counts"):
        if key not in data:
            raise SketchError(f"sketch JSON lacks {key!r}")
    labels, classifiers, abstain = data["labels"], data["classifiers"], data.get("abstain", [])
    for key, names in (("labels", labels), ("classifiers", classifiers), ("abstain", abstain)):
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SketchError(f"{key!r} must be a list of strings")
    counts = _parse_counts(data["counts"], "counts")
    split = _parse_split(data["by_true_label"], "by_true_label") if "by_true_label" in data else None
    if "populations" not in data:
        return counts_table(
            counts, labels=labels, classifiers=classifiers, by_true_label=split, abstain=abstain
        )
    populations = data["populations"]
    if not isinstance(populations, dict) or not populations:
        raise SketchError("'populations' must map population names to their counts")
    parts: list[tuple[int, CellTable]] = []
    pooled_counts: dict[tuple[str, ...], int] = {}
    pooled_split: dict[str, dict[tuple[str, ...], int]] = {}
    for position, (name, entry) in enumerate(populations.items()):
        if (
            not isinstance(entry, dict)
            or not set(entry) <= {"counts", "by_true_label"}
            or "counts" not in entry
        ):
            raise SketchError(f"populations[{name!r}] must have 'counts' and optionally 'by_true_label'")
        if ("by_true_label" in entry) != (split is not None):
            raise SketchError(f"populations[{name!r}]: by_true_label must be given here iff at the top level")
        sub_counts = _parse_counts(entry["counts"], f"populations[{name!r}].counts")
        sub_split = (
            _parse_split(entry["by_true_label"], f"populations[{name!r}].by_true_label")
            if split is not None
            else None
        )
        if not any(sub_counts.values()) and not any(
            v for t in (sub_split or {}).values() for v in t.values()
        ):
            continue  # a population with no items: kept by name below
        parts.append(
            (
                position,
                counts_table(
                    sub_counts,
                    labels=labels,
                    classifiers=classifiers,
                    by_true_label=sub_split,
                    population=name,
                    abstain=abstain,
                ),
            )
        )
        _add_counts(pooled_counts, sub_counts)
        for t, table in (sub_split or {}).items():
            _add_counts(pooled_split.setdefault(t, {}), table)
    if not parts:
        raise SketchError("empty test: every population is empty")
    counts_table(
        counts, labels=labels, classifiers=classifiers, by_true_label=split, abstain=abstain
    )  # checks the totals
    if (
        _nonzero(pooled_counts) != _nonzero(counts)
        or split is not None
        and any(
            _nonzero(pooled_split.get(t, {})) != _nonzero(split.get(t, {}))
            for t in set(split) | set(pooled_split)
        )
    ):
        raise SketchError("inconsistent totals: top-level counts differ from the sum of the populations")
    first = parts[0][1]
    return CellTable(
        first.classifiers,
        first.labels,
        np.concatenate([np.full(len(table.code), position, dtype=np.int64) for position, table in parts]),
        np.concatenate([table.truth for _, table in parts]),
        np.concatenate([table.code for _, table in parts]),
        np.concatenate([np.asarray(table.count, dtype=object) for _, table in parts]),
        list(populations),
        first.abstain,
    )


def _add_counts(total: dict[tuple[str, ...], int], counts: Mapping[tuple[str, ...], int]) -> None:
    for pattern, value in counts.items():
        total[pattern] = total.get(pattern, 0) + value


def _nonzero(counts: Mapping[tuple[str, ...], int]) -> dict[tuple[str, ...], int]:
    return {pattern: value for pattern, value in counts.items() if value}
