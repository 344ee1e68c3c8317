r"""Crowd answers and gold answers from text: long CSV or JSON lines, with messy rows handled openly.

A crowd file has one answer per row: a CSV with a header row, or JSON lines (one object per
line, as LLM-judge logs are written: ``{"item": "q17", "judge": "gpt", "label": "pass"}``).
The three columns (keys) are named by the caller; other columns are ignored. Values that are
not strings are named by their text (``true``/``false`` for JSON booleans, ``3`` for a JSON
integer).

What a real file holds beside clean rows, and what happens to it (never silently: every
choice is reported in :attr:`CrowdFile.report`):

- **missing values** (an empty cell, a missing key, ``null``): ``missing="error"`` (default)
  refuses the file, naming the first line; ``"drop"`` drops those rows;
- **a worker answering a task twice**: ``duplicates="error"`` (default) refuses the file,
  naming the first pair; ``"first"`` or ``"last"`` keeps one answer of each pair, ``"drop"``
  drops every answer of the pair;
- **blank lines** are skipped (JSON lines).

Examples
--------
>>> text = "task,worker,label\nt1,w1,a\nt1,w2,b\nt2,w1,b\nt2,w1,a\n"
>>> read_answers(text)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
evalgebra.errors.SketchError: 1 (task, worker) pair(s) answered more than once (first: worker 'w1' on task
't2', lines 4 and 5); keep one answer of each with duplicates='first' or 'last', or drop them with 'drop'
>>> crowd = read_answers(text, duplicates="last")
>>> crowd.table.tasks
('t1', 't2')
>>> print(crowd.report[0])  # doctest: +NORMALIZE_WHITESPACE
1 (task, worker) pair(s) answered more than once, 1 of them with different labels: kept the last answer
of each (1 answer(s) dropped)
>>> lines = [
...     '{"item": "q1", "judge": "x", "label": true}',
...     '{"item": "q1", "judge": "y", "label": null}',
...     '{"item": "q2", "judge": "y", "label": false}',
... ]
>>> crowd = read_answers("\n".join(lines), task="item", worker="judge", missing="drop")
>>> crowd.table.labels, crowd.report
(('false', 'true'), ('dropped 1 answer(s) with a missing item, judge or label (first: line 2)',))
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalgebra.crowd.table import CrowdTable, crowd_table
from evalgebra.errors import SketchError, SpecError

__all__ = ["CrowdFile", "read_answers", "read_gold", "text_format", "FORMATS"]

#: The file formats read: a CSV with a header row, JSON lines.
FORMATS = ("csv", "jsonl")

_MISSING = ("error", "drop")
_DUPLICATES = ("error", "first", "last", "drop")


@dataclass(frozen=True)
class CrowdFile:
    r"""Answers read from a file: the coded table and what was done to the rows.

    Attributes
    ----------
    table : CrowdTable
    report : tuple of str
        One sentence per choice that touched the rows (dropped, kept one of a pair ...).
    rows : int
        Answer rows read (before anything was dropped).
    """

    table: CrowdTable
    report: tuple[str, ...]
    rows: int


def text_format(text: str, name: str = "") -> str:
    r"""``"jsonl"`` or ``"csv"``: by the file name's extension, else by the first character.

    >>> text_format("", "log.jsonl"), text_format('{"a": 1}\n'), text_format("task,worker,label\n")
    ('jsonl', 'jsonl', 'csv')
    """
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if lower.endswith((".csv", ".txt")):
        return "csv"
    return "jsonl" if text.lstrip().startswith("{") else "csv"


def _text(value: Any) -> str | None:
    """A cell as text (``None`` when missing)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, (dict, list)):
        raise SketchError(f"a value is a JSON {type(value).__name__} ({json.dumps(value)[:40]}); give a name")
    text = str(value)
    return text if text.strip() else None


def _csv_rows(text: str, columns: Sequence[str]) -> list[tuple[int, list[str | None]]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise SketchError("the file is empty: need a header row naming the columns") from None
    except csv.Error as exc:
        raise SketchError(f"CSV header: {exc}") from None
    names = [h.strip() for h in header]
    missing = [c for c in columns if c not in names]
    if missing:
        raise SketchError(
            f"the CSV has no column(s) {missing}; its header is {names[:12]} (name the columns with "
            "--task, --worker and --label)"
        )
    where = [names.index(c) for c in columns]
    out = []
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            out.append((line, [_text(row[k]) if k < len(row) else None for k in where]))
    except csv.Error as exc:
        raise SketchError(f"CSV line {reader.line_num}: {exc}") from None
    return out


def _json_rows(text: str, columns: Sequence[str]) -> list[tuple[int, list[str | None]]]:
    out = []
    for line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError as exc:
            raise SketchError(f"JSON lines: line {line} is not JSON ({exc})") from None
        if not isinstance(record, dict):
            raise SketchError(f"JSON lines: line {line} is a {type(record).__name__}, not an object")
        try:
            out.append((line, [_text(record.get(c)) for c in columns]))
        except SketchError as exc:
            raise SketchError(f"JSON lines: line {line}: {exc}") from None
    if out and all(all(v is None for v in values) for _, values in out):
        keys = sorted(json.loads(next(r for r in text.splitlines() if r.strip())))
        raise SketchError(
            f"no line has the keys {list(columns)}; the first line has {keys[:12]} (name the keys "
            "with --task, --worker and --label)"
        )
    return out


def _rows(text: str, columns: Sequence[str], format: str | None, name: str) -> list[tuple[int, list[Any]]]:
    chosen = format or text_format(text, name)
    if chosen not in FORMATS:
        raise SpecError(f"format must be one of {list(FORMATS)}, got {chosen!r}")
    return _csv_rows(text, columns) if chosen == "csv" else _json_rows(text, columns)


def _without_missing(
    rows: list[tuple[int, list[Any]]], columns: Sequence[str], missing: str, report: list[str]
) -> list[tuple[int, list[Any]]]:
    bad = [line for line, values in rows if any(v is None for v in values)]
    if not bad:
        return rows
    what = f"{', '.join(columns[:-1])} or {columns[-1]}"
    if missing == "error":
        raise SketchError(
            f"{len(bad)} answer(s) with a missing {what} (first: line {bad[0]}); drop them with "
            "missing='drop' (--missing drop)"
        )
    report.append(f"dropped {len(bad)} answer(s) with a missing {what} (first: line {bad[0]})")
    return [(line, values) for line, values in rows if all(v is not None for v in values)]


def _without_duplicates(
    rows: list[tuple[int, list[Any]]], duplicates: str, report: list[str]
) -> list[tuple[int, list[Any]]]:
    seen: dict[tuple[str, str], list[int]] = {}
    for k, (_, (task, worker, _label)) in enumerate(rows):
        seen.setdefault((task, worker), []).append(k)
    repeated = {pair: ks for pair, ks in seen.items() if len(ks) > 1}
    if not repeated:
        return rows
    (task, worker), first = next(iter(repeated.items()))
    lines = " and ".join(str(rows[k][0]) for k in first[:2])
    if duplicates == "error":
        raise SketchError(
            f"{len(repeated)} (task, worker) pair(s) answered more than once (first: worker {worker!r} on "
            f"task {task!r}, lines {lines}); keep one answer of each with duplicates='first' or 'last', "
            "or drop them with 'drop'"
        )
    differ = sum(len({rows[k][1][2] for k in ks}) > 1 for ks in repeated.values())
    extra = sum(len(ks) for ks in repeated.values()) - (0 if duplicates == "drop" else len(repeated))
    pick = {"first": 0, "last": -1}
    keep = {ks[pick[duplicates]] for ks in repeated.values()} if duplicates in pick else set()
    dropped = {k for ks in repeated.values() for k in ks} - keep
    what = (
        "dropped every answer of those pairs"
        if duplicates == "drop"
        else f"kept the {duplicates} answer of each"
    )
    report.append(
        f"{len(repeated)} (task, worker) pair(s) answered more than once, {differ} of them with different "
        f"labels: {what} ({extra} answer(s) dropped)"
    )
    return [row for k, row in enumerate(rows) if k not in dropped]


def read_answers(
    text: str,
    *,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
    labels: Sequence[str] | None = None,
    format: str | None = None,
    name: str = "",
    missing: str = "error",
    duplicates: str = "error",
) -> CrowdFile:
    r"""Read long crowd answers from CSV or JSON-lines text.

    Parameters
    ----------
    text : str
        The file's text.
    task, worker, label : str
        The columns (CSV) or keys (JSON lines) holding each answer's task, worker and label.
    labels : sequence of str, optional
        Every label name in order (default: the sorted names seen).
    format : {"csv", "jsonl"}, optional
        Default: by ``name``'s extension, else by the first character (``{``: JSON lines).
    name : str
        The file's name, for the format and the messages.
    missing : {"error", "drop"}
    duplicates : {"error", "first", "last", "drop"}

    Returns
    -------
    CrowdFile

    Raises
    ------
    SketchError
        A column (key) missing, a line that is not JSON, missing values or repeated pairs
        (with the defaults), no answers left.
    """
    if missing not in _MISSING or duplicates not in _DUPLICATES:
        raise SpecError(
            f"missing must be one of {list(_MISSING)} and duplicates one of {list(_DUPLICATES)}; got "
            f"{missing!r}, {duplicates!r}"
        )
    columns = (task, worker, label)
    if len(set(columns)) < 3:
        raise SpecError(f"task, worker and label must name three different columns, got {list(columns)}")
    rows = _rows(text, columns, format, name)
    count = len(rows)
    report: list[str] = []
    rows = _without_missing(rows, columns, missing, report)
    rows = _without_duplicates(rows, duplicates, report)
    if not rows:
        raise SketchError(f"no answers in {name or 'the input'}: need rows of {', '.join(columns)}")
    table = crowd_table([tuple(values) for _, values in rows], labels=labels)
    return CrowdFile(table, tuple(report), count)


def read_gold(
    text: str, *, task: str = "task", label: str = "label", format: str | None = None, name: str = ""
) -> list[tuple[str, str]]:
    r"""Read gold answers (``task, label`` rows, CSV or JSON lines) as ``(task, label)`` pairs.

    The columns are ``task`` and ``label``, or ``task``/``label`` as named (the crowd file's
    names). Missing values are refused; the pairs are checked against the crowd by
    :func:`~evalgebra.crowd.fit.gold_positions`.

    >>> read_gold("task,label\nt1,a\nt2,b\n")
    [('t1', 'a'), ('t2', 'b')]
    """
    columns = (task, label)
    chosen = format or text_format(text, name)
    if chosen == "csv":
        header = next(csv.reader(io.StringIO(text)), [])
        names = [h.strip() for h in header]
        if not all(c in names for c in columns) and all(c in names for c in ("task", "label")):
            columns = ("task", "label")
    elif chosen == "jsonl":
        first = next((r for r in text.splitlines() if r.strip()), "{}")
        try:
            keys = json.loads(first)
        except ValueError:
            keys = {}
        if isinstance(keys, dict) and not all(c in keys for c in columns) and {"task", "label"} <= set(keys):
            columns = ("task", "label")
    rows = _rows(text, columns, chosen, name)
    bad = [line for line, values in rows if any(v is None for v in values)]
    if bad:
        raise SketchError(f"gold: {len(bad)} row(s) with a missing task or label (first: line {bad[0]})")
    if not rows:
        raise SketchError(f"gold {name or 'input'} has no rows: need {', '.join(columns)} rows")
    return [(values[0], values[1]) for _, values in rows]
