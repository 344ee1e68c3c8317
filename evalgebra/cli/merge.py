r"""``evalgebra merge A.json B.json ... -o OUT.json``: add sketches read in parts (counts add)."""

from __future__ import annotations

import argparse
from typing import Any

from evalgebra.cli.args import input_options, load_sketch_json, read_input, write_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

__all__ = ["register", "run", "merge_sketches"]


def merge_sketches(sketches: list[Sketch], names: list[str]) -> Sketch:
    """The merged sketch; refuses, naming both files, sketches of other classifiers, labels or kind."""
    first = sketches[0]
    for sketch, name in zip(sketches[1:], names[1:]):
        for what, mine, theirs in (
            ("classifiers", first.classifiers, sketch.classifiers),
            ("labels", first.labels, sketch.labels),
        ):
            if mine != theirs:
                raise SketchError(
                    f"cannot merge {name} into {names[0]}: its {what} are {list(theirs)}, "
                    f"those of {names[0]} are {list(mine)}; sketches merge only with the same "
                    f"{what} in the same order"
                )
        if sketch.is_labelled != first.is_labelled:
            kinds = ("labelled", "unlabelled") if first.is_labelled else ("unlabelled", "labelled")
            raise SketchError(
                f"cannot merge {name} into {names[0]}: {names[0]} is {kinds[0]}, {name} is {kinds[1]}"
            )
    return sum(sketches[1:], first)


def run(args: argparse.Namespace) -> int:
    """Read every sketch named, merge them in order, write the result; the exit status."""
    sketches = [
        Sketch.from_json(load_sketch_json(read_input(path, args.max_input_bytes, f"sketch file {path}")))
        for path in args.sketches
    ]
    merged = merge_sketches(sketches, list(args.sketches))
    write_sketch(merged, args.output)
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``merge`` command to the subcommands ``sub``; its parser."""
    merge = sub.add_parser(
        "merge",
        help="merge sketch JSON files of parts of one test (counts add)",
        description="Merge sketches of parts of one test (e.g. one per file or per worker): "
        "pattern counts add. Every sketch must have the same classifiers and labels "
        "in the same order and all be labelled or all unlabelled; populations and "
        "abstentions are matched by name.",
    )
    merge.add_argument(
        "sketches", nargs="+", metavar="SKETCH.json", help="sketch JSON files ('-': standard input)"
    )
    merge.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: stdout)")
    input_options(merge)
    merge.set_defaults(run=run)
    return merge
