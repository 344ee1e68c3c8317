r"""Reading an items CSV: one streaming parser, whatever the chunk size.

An items CSV has a header row of column names and one row per item: an answer per
classifier column and, optionally, the item's true label (``truth``) and its population.
The file is parsed by the standard ``csv`` module ``chunk_rows`` records at a time
(:data:`CHUNK_ROWS` by default) and each chunk is counted at once
(:class:`~evalgebra.data.partial.PartialCounts`), so memory holds one chunk plus the pattern
counts, whatever the size of the file. A whole-file read is this read with the default chunk
size: ``chunk_rows`` changes memory and speed, never the sketch nor the error.

The rules, for every chunk size:

- cells and header names are trimmed of surrounding spaces; a cell is text, so ``1`` is
  the label *named* "1", never a label position;
- a row with more or fewer fields than the header is refused; blank lines are skipped;
- an empty cell is a missing answer (``missing=``); an empty truth or population cell, a
  true label that is an abstention and an answer outside the given ``labels`` are refused;
- columns repeating the truth's (population's) name must agree with it; the classifier
  columns need distinct, non-empty names;
- the error reported is the first in the file (line = record number, the header is line 1).

Each chunk is counted by *distinct row*: every record is looked up once in a dictionary of
the chunk's rows and every check and column code is worked out on the distinct rows only.
Codes number the distinct rows in the order they first appear, so the first distinct row
that fails a check holds the first failing record.

Examples
--------
>>> import io
>>> table = read_items_csv(io.StringIO("m1, m2 ,y\n1,0,1\n 0,0 ,0\n"), truth="y", labels=["1", "0"])
>>> table.classifiers, table.labels, table.truth.tolist(), table.code.tolist()
(('m1', 'm2'), ('1', '0'), [0, 1], [1, 3])
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any

import numpy as np

from evalgebra.data.cells import CellTable
from evalgebra.data.encoding import MAX_INFERRED_LABELS, MISSING_CHOICES, LabelEncoder
from evalgebra.data.partial import PartialCounts, looks_like_id
from evalgebra.data.patterns import check_size
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int

__all__ = ["read_items_csv", "csv_table", "CHUNK_ROWS", "MAX_LINE_CHARS"]

#: Records parsed per chunk by default: a few MB of Python rows (the csv module's lists).
CHUNK_ROWS = 1 << 15
#: Longest line of an items CSV read, in characters (a CSV line holds one item's answers).
MAX_LINE_CHARS = 1 << 22
#: Characters read from a file at a time (then split into lines).
BLOCK_CHARS = 1 << 20
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")
#: ``K^N`` pattern codes must stay within this (as :func:`~evalgebra.data.patterns.check_size`).
_CODE_LIMIT = 2**62
_ID_HINT = (
    "it looks like an item ID or a score, not answers; leave it out (ignore=[...], --ignore) or list "
    "the classifier columns (classifiers=[...], --classifiers)"
)


class _Numbered(dict[tuple[str, ...], int]):
    """Row -> its code, a new row numbered next (so codes follow first appearance)."""

    def __missing__(self, key: tuple[str, ...]) -> int:
        self[key] = code = len(self)
        return code


def _line_blocks(source: Any) -> Iterator[list[str]]:
    """The lines of a text file, a block at a time, with their line ends (``\\n``, ``\\r\\n`` or
    ``\\r``, as ``readline`` splits a file opened with ``newline=""``). A line over
    :data:`MAX_LINE_CHARS` characters is refused once the lines before it are given out, so a
    file without line breaks (``/dev/zero``) is refused instead of read whole."""
    read, rest = source.read, ""
    while True:
        block = read(BLOCK_CHARS)
        if not block:
            if rest:
                yield [rest]
            return
        if not isinstance(block, str):  # a binary file: the csv module names what it got
            yield [block]
            return
        text = rest + block
        body = text[:-1] if text.endswith("\r") else text  # a last "\r": the next block may hold its "\n"
        end = max(body.rfind("\n"), body.rfind("\r")) + 1  # lines end there: the search is linear
        lines, rest = _LINE.findall(body, 0, end), text[end:]
        too_long = len(rest) > MAX_LINE_CHARS
        if lines and max(map(len, lines)) > MAX_LINE_CHARS:
            first_long = next(k for k, line in enumerate(lines) if len(line) > MAX_LINE_CHARS)
            lines, too_long = lines[:first_long], True
        yield lines
        if too_long:
            raise SketchError(
                f"CSV has a line longer than {MAX_LINE_CHARS} characters (MAX_LINE_CHARS); "
                "is it an items CSV?"
            )


def _not_utf8(exc: UnicodeDecodeError, handle: Any, what: str) -> SketchError:
    offset = exc.start
    try:  # the decoder sees one block: its offset, plus where the block starts in the file
        offset += handle.buffer.tell() - len(exc.object)
    except (AttributeError, OSError, ValueError):
        pass
    return SketchError(
        f"{what} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {offset}); save it as UTF-8"
    )


def _csv_error(exc: csv.Error, line: int) -> SketchError:
    if "field limit" in str(exc):
        return SketchError(
            f"CSV line {line}: a cell is longer than {csv.field_size_limit()} characters; "
            "cells hold label names"
        )
    return SketchError(f"CSV line {max(line, 1)}: {exc}")


def _names(value: Any, what: str, kind: str = "column names") -> list[str] | None:
    if value is None:
        return None
    listed = None if isinstance(value, (str, bytes)) or not isinstance(value, Iterable) else list(value)
    if listed is None or not all(isinstance(name, str) for name in listed):
        raise SketchError(f"{what} must be a list of {kind} (str), got {short_repr(value)}")
    return listed


def _most_responses(n_classifiers: int) -> int:
    """The most responses (labels and abstentions) whose ``K^N`` codes fit 64 bits."""
    k = max(2, int(round(2 ** (62 / n_classifiers))))
    while k**n_classifiers > _CODE_LIMIT:
        k -= 1
    while (k + 1) ** n_classifiers <= _CODE_LIMIT:
        k += 1
    return k


class _Layout:
    """Which header positions are read, and as what."""

    def __init__(
        self,
        header: list[str],
        classifiers: list[str] | None,
        ignore: list[str] | None,
        truth: str | None,
        population: str | None,
    ) -> None:
        for column in (truth, population):
            if column is not None and column not in header:
                raise SketchError(f"CSV has no column {column!r}; columns are {short_repr(header)}")
        absent = [c for c in (classifiers or []) + (ignore or []) if c not in header]
        if absent:
            raise SketchError(f"CSV has no column(s) {absent}; the columns are {short_repr(header)}")
        special = [c for c in (truth, population) if c is not None]
        if classifiers is not None:
            both = [c for c in classifiers if c in special]
            if both:
                role = "truth" if both[0] == truth else "population"
                raise SketchError(f"column {both[0]!r} is the {role} column; it cannot also be a classifier")
            chosen = list(classifiers)
        else:
            chosen = [h for h in header if h not in special and h not in (ignore or ())]
        if not chosen:
            raise SketchError("CSV has no classifier columns")
        if "" in chosen:
            raise SketchError(
                f"CSV column {header.index('') + 1} has no name in the header; name every "
                "classifier column, or list the classifier columns "
                "(classifiers=[...], --classifiers)"
            )
        repeated = sorted(name for name, k in Counter(chosen).items() if k > 1)
        repeated += sorted(
            name for name, k in Counter(header).items() if k > 1 and name in chosen and name not in repeated
        )
        if repeated:
            raise SketchError(
                f"CSV repeats the column names {repeated}; each classifier column needs its own name"
            )
        self.header, self.width, self.classifiers = header, len(header), chosen
        self.answers = [header.index(name) for name in chosen]
        self.truth = [k for k, h in enumerate(header) if h == truth]
        self.population = [k for k, h in enumerate(header) if h == population]


class _Reader:
    """The state of one read: layout, rules, counts so far and what has been seen."""

    def __init__(
        self,
        layout: _Layout,
        labels: list[str] | None,
        abstain: tuple[str, ...],
        missing: str,
        flag_ids: bool,
        populations: list[str] | None = None,
    ) -> None:
        self.layout, self.labels, self.abstain, self.missing = layout, labels, abstain, missing
        self.flag_ids, self.populations = flag_ids, populations
        n_classifiers = len(layout.classifiers)
        self.cap = False  # whether the response limit is MAX_INFERRED_LABELS (flag_ids), not the 64-bit codes
        self.counts = PartialCounts(
            layout.classifiers,
            labels=labels,
            abstain=abstain,
            missing=missing,
            labelled=bool(layout.truth),
            populations=populations,
            flag_ids=False,
        )
        if labels is not None:
            check_size(n_classifiers, max(2, len(labels) + len(abstain)))
            self.limit = len(labels) + len(abstain)
        else:
            check_size(n_classifiers, 2)
            self.limit = _most_responses(n_classifiers)
            self.cap = flag_ids and self.limit > MAX_INFERRED_LABELS
            if self.cap:
                self.limit = MAX_INFERRED_LABELS
        self.seen: set[str] = set(abstain)  # responses (labels seen and abstentions)
        self.distinct: dict[int, set[str]] = {k: set() for k in layout.answers} if flag_ids else {}
        self.line = 1  # the record number of the last record read (the header is 1)
        self.items = 0  # non-blank records read

    # -- one chunk ---------------------------------------------------------------------------
    def chunk(self, rows: list[list[str]]) -> None:
        """Check and count the records ``rows`` (the next ones after :attr:`line`)."""
        numbered = _Numbered()
        codes = np.fromiter(map(numbered.__getitem__, map(tuple, rows)), dtype=np.int64, count=len(rows))
        distinct = list(numbered)
        blank = numbered.get((), -1)
        width = self.layout.width
        ragged = next((c for c, row in enumerate(distinct) if len(row) != width and row), len(distinct))
        good = distinct[:ragged]  # the distinct rows before the first ragged one are read
        columns: dict[int, tuple[np.ndarray, list[str], list[str]]] = {}
        worst: tuple[int, int, str] = (ragged, -1, "fields")
        for position in sorted(set(self.layout.answers + self.layout.truth + self.layout.population)):
            values = [row[position].strip() if row else "" for row in good]
            index: dict[str, int] = {}
            column = np.array([index.setdefault(v, len(index)) if v else -1 for v in values], dtype=np.int32)
            columns[position] = (column, list(index), values)
            found = self._first_bad(position, values, blank, columns)
            if found is not None and (found[0], position) < worst[:2]:
                worst = (found[0], position, found[1])
        if self.labels is None:
            crossing = self._crossing(columns, min(worst[0] + 1, len(good)), blank)
            if crossing is not None and crossing < worst[:2]:
                worst = (*crossing, "many")
        if worst[0] < len(distinct):
            raise self._error(worst, codes, distinct, columns, blank)
        self._count(codes, columns, blank)

    def _first_bad(
        self,
        position: int,
        values: list[str],
        blank: int,
        columns: dict[int, tuple[np.ndarray, list[str], list[str]]],
    ) -> tuple[int, str] | None:
        """``(code, kind)`` of the first distinct row whose cell at ``position`` breaks a rule."""
        layout = self.layout
        if position in layout.truth or position in layout.population:
            first = (layout.truth if position in layout.truth else layout.population)[0]
            for code, value in enumerate(values):
                if code == blank:
                    continue
                if not value:
                    return code, "empty"
                if position != first:
                    if value != columns[first][2][code]:
                        return code, "disagree"
                elif position in layout.truth and value in self.abstain:
                    return code, "abstention"
                elif position in layout.truth and self.labels is not None and value not in self.labels:
                    return code, "unknown"
                elif (
                    position in layout.population
                    and self.populations is not None
                    and value not in self.populations
                ):
                    return code, "unknown population"
            return None
        if self.labels is None and self.missing != "error":
            return None
        allowed = None if self.labels is None else set(self.labels) | set(self.abstain)
        for code, value in enumerate(values):
            if code == blank:
                continue
            if not value:
                if self.missing == "error":
                    return code, "missing"
            elif allowed is not None and value not in allowed:
                return code, "unknown"
        return None

    def _crossing(
        self, columns: dict[int, tuple[np.ndarray, list[str], list[str]]], stop: int, blank: int
    ) -> tuple[int, int] | None:
        """``(code, position)`` where the responses seen first pass :attr:`limit` (before row ``stop``)."""
        read = [p for p in sorted(columns) if p in self.layout.answers or p in self.layout.truth[:1]]
        new = set().union(*(columns[p][1] for p in read)) - self.seen
        if len(self.seen) + len(new) <= self.limit:
            return None
        seen = set(self.seen)
        for code in range(stop):
            if code == blank:
                continue
            for position in read:
                value = columns[position][2][code]
                if value and value not in seen:
                    seen.add(value)
                    if len(seen) > self.limit:
                        return code, position
        return None

    def _count(
        self, codes: np.ndarray, columns: dict[int, tuple[np.ndarray, list[str], list[str]]], blank: int
    ) -> None:
        if blank >= 0:
            codes = codes[codes != blank]
        if not codes.size:
            return
        layout = self.layout

        def column(position: int) -> tuple[np.ndarray, list[str]]:
            return columns[position][0][codes], columns[position][1]

        self.counts.add(
            [column(p) for p in layout.answers],
            truth=column(layout.truth[0]) if layout.truth else None,
            population=column(layout.population[0]) if layout.population else None,
        )
        for position in layout.answers + layout.truth[:1]:
            self.seen.update(columns[position][1])
        for position, seen in self.distinct.items():
            seen.update(columns[position][1])

    def _error(
        self,
        worst: tuple[int, int, str],
        codes: np.ndarray,
        distinct: list[tuple[str, ...]],
        columns: dict[int, tuple[np.ndarray, list[str], list[str]]],
        blank: int,
    ) -> SketchError:
        code, position, kind = worst
        at = int(np.argmax(codes == code))  # the first record of the failing distinct row
        line = self.line + 1 + at
        if kind == "fields":
            return SketchError(
                f"CSV line {line}: {len(distinct[code])} fields, header has {self.layout.width}"
            )
        name = self.layout.header[position]
        value = columns[position][2][code]
        role = "truth" if position in self.layout.truth else "population"
        if kind == "missing":
            return SketchError(f"CSV line {line}: missing answer in column {name!r}; {MISSING_CHOICES}")
        if kind == "empty":
            return SketchError(
                f"CSV line {line}: empty cell in the {role} column {name!r}; every item needs one"
            )
        if kind == "abstention":
            return SketchError(
                f"CSV line {line}: the true label {value!r} is an abstention, not a label; "
                "every true label is a label"
            )
        if kind == "unknown":
            known = f"labels are {short_repr(self.labels)}"
            if position in self.layout.truth:
                return SketchError(
                    f"CSV line {line}: unknown labels [{value!r}] in the truth column {name!r}; {known}"
                )
            abstain = f" and abstentions {list(self.abstain)}" if self.abstain else ""
            return SketchError(
                f"CSV line {line}: unknown labels [{value!r}] in column {name!r}; "
                f"{known}{abstain}; answers that are not labels: pass abstain=[...]"
            )
        if kind == "unknown population":
            return SketchError(
                f"CSV line {line}: unknown populations [{value!r}] in column {name!r}; "
                f"populations are {short_repr(self.populations)}"
            )
        if kind == "disagree":
            first = self.layout.header.index(name)
            item = self.items + at - int(np.count_nonzero(codes[:at] == blank))
            return SketchError(
                f"CSV has {self.layout.header.count(name)} columns named {name!r} and they disagree on item "
                f"{item} ({columns[first][2][code]!r} vs {value!r}); keep one (CSV line {line})"
            )
        if self.cap:
            return SketchError(
                f"CSV line {line}: column {name!r} brings the distinct answers past "
                f"{MAX_INFERRED_LABELS}: {_ID_HINT}"
            )
        try:
            check_size(len(self.layout.classifiers), self.limit + 1)
        except SketchError as exc:
            return SketchError(
                f"CSV line {line}: column {name!r} brings the distinct answers to "
                f"{show_int(self.limit + 1)}: {exc}"
            )
        raise AssertionError("the response limit is the one check_size sets")  # pragma: no cover

    # -- the whole test ---------------------------------------------------------------------
    def table(self) -> CellTable:
        """The cell table of every chunk counted, once the whole test is known to be sound."""
        if self.counts.rows == 0:
            raise SketchError("empty test: the CSV has no items")
        if self.labels is None:
            for position, seen in self.distinct.items():
                if looks_like_id(len(seen), self.counts.rows):
                    raise SketchError(
                        f"column {self.layout.header[position]!r} has {show_int(len(seen))} "
                        f"distinct values in {show_int(self.counts.rows)} rows: {_ID_HINT}"
                    )
        return self.counts.table()


def read_items_csv(
    source: str | os.PathLike[str] | io.TextIOBase | Iterable[str],
    *,
    classifiers: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    labels: Sequence[str] | int | None = None,
    truth: str | None = None,
    population: str | None = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
    chunk_rows: int = CHUNK_ROWS,
    flag_ids: bool = False,
    on_header: Callable[[list[str]], None] | None = None,
    name: str | None = None,
) -> CellTable:
    r"""The cell table of an items CSV, read ``chunk_rows`` records at a time (see the module rules).

    Parameters
    ----------
    source : path, text file or iterable of lines
        UTF-8 text (a leading byte-order mark of a file is ignored).
    classifiers, ignore : sequence of str, optional
        The classifier columns (default: every column but ``truth``, ``population`` and ``ignore``).
    labels, abstain, missing
        As for :meth:`Sketch.from_decisions <evalgebra.data.sketch.Sketch.from_decisions>`.
    truth, population : str, optional
        The columns holding each item's true label and population.
    populations : sequence of str, optional
        Every population name in order (default: the sorted names seen); others are refused.
    chunk_rows : int
        Records parsed at a time: memory and speed only.
    flag_ids : bool
        Without ``labels``, refuse a classifier column with about as many distinct values as
        items (:func:`~evalgebra.data.partial.looks_like_id`, over the whole file) or one that
        takes the distinct answers past :data:`~evalgebra.data.encoding.MAX_INFERRED_LABELS`.
    on_header : callable, optional
        Called with the trimmed header before any row is read (a caller's own header rules).
    name : str, optional
        What messages call the input (default: the path, or "CSV text").
    """
    for role, column in (("truth", truth), ("population", population)):
        if column is not None and not isinstance(column, str):
            raise SketchError(f"{role} must name a column (str), got {type(column).__name__}")
    if truth is not None and truth == population:
        raise SketchError(f"truth and population name the same column {truth!r}; give each its own column")
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise SketchError(f"chunk_rows must be a positive integer, got {short_repr(chunk_rows)}")
    chosen, ignored = _names(classifiers, "classifiers"), _names(ignore, "ignore")
    pops = _names(populations, "populations", "population names")
    encoder = LabelEncoder(labels, abstain, missing)  # checks them as every reader does
    fixed = list(encoder.labels) if encoder.fixed else None
    if isinstance(source, (str, os.PathLike)):
        path = os.fsdecode(source)
        try:
            handle = open(source, newline="", encoding="utf-8-sig")  # a leading BOM is not a name
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise SketchError(f"cannot read CSV file {path!r}: {reason}") from None
        with handle:
            return _read(
                handle,
                name or f"CSV file {path!r}",
                chosen,
                ignored,
                fixed,
                truth,
                population,
                pops,
                encoder.abstain,
                missing,
                chunk_rows,
                flag_ids,
                on_header,
            )
    return _read(
        source,
        name or "CSV text",
        chosen,
        ignored,
        fixed,
        truth,
        population,
        pops,
        encoder.abstain,
        missing,
        chunk_rows,
        flag_ids,
        on_header,
    )


def _read(
    source: Any,
    what: str,
    classifiers: list[str] | None,
    ignore: list[str] | None,
    labels: list[str] | None,
    truth: str | None,
    population: str | None,
    populations: list[str] | None,
    abstain: tuple[str, ...],
    missing: str,
    chunk_rows: int,
    flag_ids: bool,
    on_header: Callable[[list[str]], None] | None,
) -> CellTable:
    try:
        lines = chain.from_iterable(_line_blocks(source)) if hasattr(source, "read") else source
        reader = csv.reader(lines)
    except TypeError:
        raise SketchError(f"from_csv reads a path or a text file, got {type(source).__name__}") from None

    def failure(exc: Exception) -> SketchError:
        if isinstance(exc, UnicodeDecodeError):
            return _not_utf8(exc, source, what)
        if isinstance(exc, csv.Error):
            return _csv_error(exc, reader.line_num)
        assert isinstance(exc, SketchError)
        return exc

    try:
        header = next(reader)
    except StopIteration:
        raise SketchError("CSV is empty: expected a header row") from None
    except (csv.Error, SketchError, UnicodeDecodeError) as exc:
        raise failure(exc) from None
    header = [h.strip() for h in header]
    if on_header is not None:
        on_header(header)
    layout = _Layout(header, classifiers, ignore, truth, population)
    state = _Reader(layout, labels, abstain, missing, flag_ids, populations)
    while True:
        rows: list[list[str]] = []
        stopped = None
        try:
            rows.extend(islice(reader, chunk_rows))  # keeps the records read before a failure
        except (csv.Error, SketchError, UnicodeDecodeError) as exc:
            stopped = failure(exc)
        if rows:
            state.chunk(rows)  # an error in the records before the failure comes first
            state.line += len(rows)
            state.items = state.counts.rows
        if stopped is not None:
            raise stopped
        if len(rows) < chunk_rows:
            return state.table()


def csv_table(
    path: str | os.PathLike[str] | io.TextIOBase,
    *,
    truth: str | None = None,
    population: str | None = None,
    labels: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
) -> CellTable:
    r"""The cell table of a CSV of items: a header row, one column per classifier.

    The parameters are those of :meth:`Sketch.from_csv <evalgebra.data.sketch.Sketch.from_csv>`;
    the file is read by :func:`read_items_csv` with the default chunk size.

    Examples
    --------
    >>> import io
    >>> table = csv_table(io.StringIO("m1,m2,y\na,b,a\nb,b,b\n"), truth="y")
    >>> table.classifiers, table.count.tolist()
    (('m1', 'm2'), [1, 1])
    """
    return read_items_csv(
        path, truth=truth, population=population, labels=labels, abstain=abstain, missing=missing
    )
