r"""``evalgebra sketch ITEMS.csv``: count an items CSV into sketch JSON v1."""

from __future__ import annotations

import argparse
import csv
import io
import sys
from typing import Any

from evalgebra.cli.args import check_csv_header, input_options, read_input
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError, SketchError
from evalgebra.fileio import write_text_atomic

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Count the items CSV ``args`` names and write its sketch JSON; the exit status."""
    text = read_input(args.items, args.max_input_bytes, "items CSV")
    check_csv_header(text, args.truth, args.population)
    try:
        sketch = Sketch.from_csv(io.StringIO(text, newline=""), truth=args.truth, population=args.population,
                                 abstain=args.abstain, missing=args.missing)
    except csv.Error as exc:
        raise EvalgebraError(f"items CSV: {exc} (a cell holds at most {csv.field_size_limit()} characters, "
                             "quotes close before the line ends)") from None
    except SketchError as exc:  # the options' names, not the Python parameters'
        raise SketchError(str(exc).replace("pass abstain=[...]", "name them with --abstain NAME")
                          .replace("pass missing='abstain'", "pass --missing abstain")
                          .replace("missing='drop'", "--missing drop")) from None
    if sketch.missing_report is not None and sketch.missing_report.cells:
        print(f"evalgebra: {sketch.missing_report.text()}", file=sys.stderr)
    if args.output:
        write_text_atomic(args.output, sketch.to_json())
        print(f"wrote {args.output}: {sketch!r}", file=sys.stderr)
    else:
        sys.stdout.write(sketch.to_json())
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``sketch`` command to the subcommands ``sub``; its parser."""
    sketch = sub.add_parser("sketch", help="count an items CSV into sketch JSON")
    sketch.add_argument("items", help="UTF-8 CSV with a header row of distinct names, one column per classifier "
                                      f"(cells of at most {csv.field_size_limit()} characters)")
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
