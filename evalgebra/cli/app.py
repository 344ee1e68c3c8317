r"""The ``evalgebra`` command: its parser, assembled from the command modules, and :func:`main`.

Each command lives in its own module of :mod:`evalgebra.cli` with a ``register(sub)`` that adds
its parser and a ``run(args)`` that the parser calls; this module puts them together and turns
the user's errors into one line ``evalgebra: error: ...`` and status 2.

Examples
--------
>>> main(["polys", "--classifiers", "1", "--labels", "2"])
f_a = acc_0_a*prev_a + (1 - acc_0_b)*(1 - prev_a)
f_b = acc_0_b*(1 - prev_a) + prev_a*(1 - acc_0_a)
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from evalgebra.cli import alarm, evaluate, example, point, polys, sketch
from evalgebra.cli.args import one_line
from evalgebra.errors import EvalgebraError

__all__ = ["main", "build_parser"]


def _short(exc: BaseException, limit: int = 2000) -> str:
    """The message of an error, cut to ``limit`` characters (huge numbers stay readable)."""
    try:
        text = str(exc)
    except ValueError:  # e.g. an integer too long to print
        text = type(exc).__name__
    return text if len(text) <= limit else text[:limit] + " ..."


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``evalgebra: error: ...``, and status 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        self.exit(2, f"evalgebra: error: {one_line(command + message)} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``evalgebra`` command."""
    parser = _Parser(
        prog="evalgebra",
        description="Exact algebraic evaluation of classifier ensembles on unlabelled data.",
        epilog="Input paths are paths ('-' reads standard input); errors print one line "
               "'evalgebra: error: ...' and exit with status 2.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (example, sketch, point, polys, evaluate, alarm):
        command.register(sub)
    return parser


def _error(text: str) -> int:
    print(f"evalgebra: error: {one_line(text)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except EvalgebraError as exc:
        return _error(_short(exc))
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except UnicodeEncodeError as exc:  # a terminal whose encoding lacks a name's characters
        return _error(f"cannot write {exc.object[exc.start:exc.end]!r} in the output encoding {exc.encoding}; "
                      "set PYTHONIOENCODING=utf-8")
    except MemoryError:
        return _error("out of memory: the request is too large for this machine")
    except (OSError, UnicodeDecodeError, RecursionError) as exc:
        # unreadable or unwritable files and malformed input are the user's to fix: no traceback
        return _error(f"{type(exc).__name__}: {_short(exc)}")
