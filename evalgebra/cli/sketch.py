r"""``evalgebra sketch ITEMS.csv|ITEMS.parquet|FOLDER``: count items into sketch JSON v1.

A CSV is streamed by :func:`~evalgebra.data.items_csv.read_items_csv`, ``--chunk-rows`` records
at a time (default :data:`~evalgebra.data.items_csv.CHUNK_ROWS`): the chunk size changes memory
and speed, never the sketch or the error, and memory stays bounded whatever the file's size, so
no ``--max-input-bytes`` cap applies (the option is accepted and has no effect here). Parquet
files (a ``.parquet`` path or a folder of them) are read in record batches (needs pyarrow).
``--classifiers``/``--ignore`` choose the classifier columns; a column that looks like an item ID
is named in the error instead of the pattern-count overflow it would cause.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evalgebra.cli.args import byte_size, check_csv_header, write_sketch
from evalgebra.data.items_csv import CHUNK_ROWS, read_items_csv
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

__all__ = ["register", "run"]


def _labels(text: str | None) -> list[str] | None:
    if text is None:
        return None
    labels = [name.strip() for name in text.split(",")]
    if len(labels) < 2 or not all(labels) or len(set(labels)) != len(labels):
        raise SketchError(f"--labels {text!r}: give at least two distinct label names separated by commas")
    return labels


def _names(values: list[str] | None) -> list[str] | None:
    """Column names from repeated and/or comma-separated options."""
    return None if values is None else [n.strip() for v in values for n in v.split(",") if n.strip()]


def _parquet(args: argparse.Namespace) -> Sketch:
    """Parquet files (a ``.parquet`` path or a folder of them), read in record batches."""
    options: dict[str, Any] = dict(
        classifiers=_names(args.classifiers),
        ignore=_names(args.ignore),
        labels=_labels(args.labels),
        truth=args.truth,
        population=args.population,
        abstain=args.abstain,
        missing=args.missing,
        progress=None,
    )
    if args.chunk_rows is not None:
        options["chunk_rows"] = args.chunk_rows
    return Sketch.from_parquet(args.items, **options)


def _header_check(args: argparse.Namespace) -> Callable[[list[str]], None]:
    """The command line's header rule: no name twice (not even the truth's), the truth not the population."""

    def check(header: list[str]) -> None:
        line = io.StringIO()
        csv.writer(line).writerow(header)  # the header as CSV text again: quoted as it was read
        check_csv_header(line.getvalue(), args.truth, args.population)

    return check


def _csv(args: argparse.Namespace) -> Sketch:
    """An items CSV (``-``: standard input), streamed: ``--chunk-rows`` sets the chunk size only."""
    options: dict[str, Any] = dict(
        classifiers=_names(args.classifiers),
        ignore=_names(args.ignore),
        labels=_labels(args.labels),
        truth=args.truth,
        population=args.population,
        abstain=args.abstain,
        missing=args.missing,
        flag_ids=True,
        on_header=_header_check(args),
        chunk_rows=CHUNK_ROWS if args.chunk_rows is None else args.chunk_rows,
    )
    if args.items != "-":
        return Sketch(*read_items_csv(args.items, **options))
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream stands in for standard input
        return Sketch(*read_items_csv(sys.stdin, name="standard input", **options))
    stream = io.TextIOWrapper(buffer, encoding="utf-8-sig", newline="")
    try:
        return Sketch(*read_items_csv(stream, name="standard input", **options))
    finally:
        stream.detach()  # standard input stays open


def run(args: argparse.Namespace) -> int:
    """Count the items ``args`` names and write its sketch JSON; the exit status."""
    try:
        if args.items.endswith(".parquet") or (args.items != "-" and Path(args.items).is_dir()):
            sketch = _parquet(args)
        else:
            sketch = _csv(args)
    except SketchError as exc:  # the options' names, not the Python parameters'
        raise SketchError(
            str(exc)
            .replace("pass abstain=[...]", "name them with --abstain NAME")
            .replace("pass missing='abstain'", "pass --missing abstain")
            .replace("missing='drop'", "--missing drop")
            .replace("ignore=[...], --ignore", "--ignore COLUMN")
            .replace("classifiers=[...], --classifiers", "--classifiers COLUMNS")
        ) from None
    if sketch.missing_report is not None and sketch.missing_report.cells:
        print(f"evalgebra: {sketch.missing_report.text()}", file=sys.stderr)
    write_sketch(sketch, args.output)
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``sketch`` command to the subcommands ``sub``; its parser."""
    sketch = sub.add_parser("sketch", help="count an items CSV or parquet files into sketch JSON")
    sketch.add_argument(
        "items",
        help="UTF-8 CSV with a header row of distinct names, one column per classifier "
        f"(cells of at most {csv.field_size_limit()} characters; '-': standard "
        "input), or a .parquet file, or a folder of them (read in chunks; needs pyarrow)",
    )
    sketch.add_argument(
        "--classifiers",
        metavar="COLUMNS",
        action="append",
        help="the classifier columns, comma-separated (default: every column but --truth, "
        "--population and --ignore)",
    )
    sketch.add_argument(
        "--ignore",
        metavar="COLUMNS",
        action="append",
        help="columns that are not classifiers (e.g. an item ID), comma-separated; repeatable",
    )
    sketch.add_argument(
        "--labels",
        metavar="A,B,...",
        help="every label name in order (default: the sorted names seen); other answers are refused",
    )
    sketch.add_argument(
        "--chunk-rows",
        type=int,
        metavar="ROWS",
        help=f"rows read at a time (a CSV: default {CHUNK_ROWS}; parquet: default 1048576); "
        "memory and speed depend on it, the sketch and any error do not",
    )
    sketch.add_argument("--truth", metavar="COLUMN", help="column with the true labels")
    sketch.add_argument(
        "--population", metavar="COLUMN", help="column with each item's population (not the truth column)"
    )
    sketch.add_argument(
        "--abstain",
        metavar="NAME",
        action="append",
        default=None,
        help="an answer that is not a label (e.g. unsure): counted as an abstention; repeat for more",
    )
    sketch.add_argument(
        "--missing",
        choices=("error", "abstain", "drop"),
        default="error",
        help="empty cells: error (default), abstain (count them as the first --abstain NAME, else "
        "'abstain') or drop (drop their items); how many is said on standard error",
    )
    sketch.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: stdout)")
    sketch.add_argument(
        "--max-input-bytes",
        type=byte_size,
        metavar="SIZE",
        help="no effect: sketch streams its input in chunks, with bounded memory at any size "
        "(accepted for scripts written for older versions)",
    )
    sketch.set_defaults(run=run)
    return sketch
