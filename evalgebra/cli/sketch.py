r"""``evalgebra sketch ITEMS.csv|ITEMS.parquet|FOLDER``: count items into sketch JSON v1.

A CSV is read whole (``--max-input-bytes``) unless ``--chunk-rows`` asks for chunks; parquet
files (a ``.parquet`` path or a folder of them) are read in record batches (bounded memory,
needs pyarrow). ``--classifiers``/``--ignore`` choose the classifier columns; a column that looks
like an item ID is named in the error instead of the pattern-count overflow it would cause.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path
from typing import Any

from evalgebra.cli.args import check_csv_header, input_options, read_input, write_sketch
from evalgebra.data.chunked import looks_like_id
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError, SketchError

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


def _columnar(args: argparse.Namespace) -> Sketch:
    """Parquet files, or a CSV in chunks: the columnar readers, bounded memory."""
    options: dict[str, Any] = dict(classifiers=_names(args.classifiers), ignore=_names(args.ignore),
                                   labels=_labels(args.labels), truth=args.truth, population=args.population,
                                   abstain=args.abstain, missing=args.missing, progress=None)
    if args.chunk_rows is not None:
        options["chunk_rows"] = args.chunk_rows
    if args.items.endswith(".parquet") or Path(args.items).is_dir():
        from evalgebra.data.columnar import sketch_from_parquet

        return sketch_from_parquet(args.items, **options)
    try:
        import pandas  # noqa: F401
    except ImportError:  # pragma: no cover - pandas is a test dependency
        raise SketchError("--chunk-rows reads the CSV with pandas: pip install pandas") from None
    from evalgebra.data.columnar import sketch_from_csv_chunks

    return sketch_from_csv_chunks(sys.stdin.buffer if args.items == "-" else args.items, **options)


def _chosen_columns(text: str, args: argparse.Namespace) -> str:
    """The CSV with only the columns wanted (``--classifiers``/``--ignore``), truth and population kept."""
    from evalgebra.data.columnar import choose_columns

    rows = csv.reader(io.StringIO(text, newline=""))
    header = [h.strip() for h in next(rows, [])]
    chosen = choose_columns(header, _names(args.classifiers), _names(args.ignore), [args.truth, args.population])
    keep = [header.index(c) for c in chosen + [c for c in (args.truth, args.population) if c is not None]]
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([header[k] for k in keep])
    for row in rows:
        writer.writerow([row[k] if k < len(row) else "" for k in keep])
    return out.getvalue()


def _id_column(text: str, args: argparse.Namespace) -> str | None:
    """The first classifier column whose distinct values are about as many as the rows (an item ID)."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = [h.strip() for h in rows[0]], rows[1:]
    for k, name in enumerate(header):
        if name in (args.truth, args.population):
            continue
        distinct = len({row[k] for row in body if k < len(row)})
        if looks_like_id(distinct, len(body)):
            return f"column {name!r} has {distinct} distinct values in {len(body)} rows: it looks like an item ID, " \
                   f"not a classifier's answers; leave it out with --ignore {name} (or list --classifiers)"
    return None


def run(args: argparse.Namespace) -> int:
    """Count the items ``args`` names and write its sketch JSON; the exit status."""
    try:
        if args.chunk_rows is not None or args.items.endswith(".parquet") or (
                args.items != "-" and Path(args.items).is_dir()):
            sketch = _columnar(args)
        else:
            text = read_input(args.items, args.max_input_bytes, "items CSV")
            check_csv_header(text, args.truth, args.population)
            if args.classifiers is not None or args.ignore is not None:
                text = _chosen_columns(text, args)
            try:
                sketch = Sketch.from_csv(io.StringIO(text, newline=""), truth=args.truth, population=args.population,
                                         labels=_labels(args.labels), abstain=args.abstain, missing=args.missing)
            except SketchError as exc:
                found = _id_column(text, args) if "64-bit" in str(exc) else None
                if found:
                    raise SketchError(found) from None
                raise
            if args.labels is None and looks_like_id(len(sketch.labels), sketch.Q):
                found = _id_column(text, args)  # labels about as many as the items: a column of IDs?
                if found:
                    raise SketchError(found)
    except csv.Error as exc:
        raise EvalgebraError(f"items CSV: {exc} (a cell holds at most {csv.field_size_limit()} characters, "
                             "quotes close before the line ends)") from None
    except SketchError as exc:  # the options' names, not the Python parameters'
        raise SketchError(str(exc).replace("pass abstain=[...]", "name them with --abstain NAME")
                          .replace("pass missing='abstain'", "pass --missing abstain")
                          .replace("missing='drop'", "--missing drop")
                          .replace("ignore=[...], --ignore", "--ignore COLUMN")
                          .replace("classifiers=[...], --classifiers", "--classifiers COLUMNS")) from None
    if sketch.missing_report is not None and sketch.missing_report.cells:
        print(f"evalgebra: {sketch.missing_report.text()}", file=sys.stderr)
    write_sketch(sketch, args.output)
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``sketch`` command to the subcommands ``sub``; its parser."""
    sketch = sub.add_parser("sketch", help="count an items CSV or parquet files into sketch JSON")
    sketch.add_argument("items", help="UTF-8 CSV with a header row of distinct names, one column per classifier "
                                      f"(cells of at most {csv.field_size_limit()} characters; '-': standard "
                                      "input), or a .parquet file, or a folder of them (read in chunks; needs pyarrow)")
    sketch.add_argument("--classifiers", metavar="COLUMNS", action="append",
                        help="the classifier columns, comma-separated (default: every column but --truth, "
                             "--population and --ignore)")
    sketch.add_argument("--ignore", metavar="COLUMNS", action="append",
                        help="columns that are not classifiers (e.g. an item ID), comma-separated; repeatable")
    sketch.add_argument("--labels", metavar="A,B,...",
                        help="every label name in order (default: the sorted names seen); other answers are refused")
    sketch.add_argument("--chunk-rows", type=int, metavar="ROWS",
                        help="read ROWS rows at a time with bounded memory (parquet: default 1048576; a CSV is "
                             "then read in chunks with pandas instead of whole)")
    sketch.add_argument("--truth", metavar="COLUMN", help="column with the true labels")
    sketch.add_argument("--population", metavar="COLUMN",
                        help="column with each item's population (not the truth column)")
    sketch.add_argument("--abstain", metavar="NAME", action="append", default=None,
                        help="an answer that is not a label (e.g. unsure): counted as an abstention; repeat for more")
    sketch.add_argument("--missing", choices=("error", "abstain", "drop"), default="error",
                        help="empty cells: error (default), abstain (count them as the first --abstain NAME, else "
                             "'abstain') or drop (drop their items); how many is said on standard error")
    sketch.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: stdout)")
    input_options(sketch)
    sketch.set_defaults(run=run)
    return sketch
