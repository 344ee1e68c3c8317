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
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from evalgebra.cli import alarm, crowd, evaluate, example, merge, point, polys, sketch
from evalgebra.cli.args import PROGRESS_VARIABLE, TIME_LIMIT_VARIABLE, one_line, time_limit_value
from evalgebra.errors import EvalgebraError

__all__ = ["main", "build_parser", "BROKEN_PIPE_STATUS"]

#: Exit status when the reader of the output goes away (``evalgebra ... | head -1``): 128 + SIGPIPE,
#: what a shell reports for ``cat``, ``grep`` or ``git`` in the same place, so that ``set -o pipefail``
#: treats the command like them. Nothing is printed: the reader chose to stop.
BROKEN_PIPE_STATUS = 141


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
        epilog="Input paths are paths ('-' reads standard input). Exit status: 0 done, 1 a check failed (one "
        "named by --fail-on or --fail-on-alarm, or that of evaluate --min-accuracy X, on by itself; "
        "alarm --min-accuracy X alone exits 0), 2 an error (one line 'evalgebra: error: ...'), "
        f"{BROKEN_PIPE_STATUS} the reader of the output closed it early "
        "(as in '| head -1'; nothing printed). "
        "The default structure is independent in every command.",
    )
    parser.add_argument(
        "--version", action="version", version=f"evalgebra {_version()}", help="print the version and exit"
    )
    parser.add_argument(
        "--time-limit",
        type=time_limit_value,
        default=None,
        metavar="SECONDS",
        help="limit each Gröbner computation of this run to SECONDS ('none': no limit; default "
        f"{TIME_LIMIT_VARIABLE} from the environment, else 600)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="report Gröbner computations that run longer than 10 s on standard error, with "
        f"their stage (as {PROGRESS_VARIABLE}=1; on by default when standard error is a "
        "terminal)",
    )
    sub = parser.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        help="what to do ('evalgebra COMMAND --help' lists its options)",
    )
    for command in (example, sketch, merge, point, polys, evaluate, alarm, crowd):
        command.register(sub)
    return parser


def _version() -> str:
    from evalgebra import __version__  # the package's own number (no SymPy: its names load lazily)

    return __version__


def _quiet_broken_pipe() -> int:
    """Point standard output at the null device (so the interpreter's last flush cannot fail
    again and print a traceback) and return :data:`BROKEN_PIPE_STATUS`."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (e.g. captured output)
        pass
    return BROKEN_PIPE_STATUS


def _error(text: str) -> int:
    print(f"evalgebra: error: {one_line(text)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = {TIME_LIMIT_VARIABLE: args.time_limit, PROGRESS_VARIABLE: "1" if args.progress else None}
    before = {name: os.environ.get(name) for name in settings}
    os.environ.update({name: value for name, value in settings.items() if value is not None})
    try:
        return _run(args)
    finally:  # main() may run many times in one process (tests, notebooks): leave the environment as found
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; its exit status, with the errors the user can fix as one line."""
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return status
    except BrokenPipeError:  # e.g. piped into head: quiet, BROKEN_PIPE_STATUS
        return _quiet_broken_pipe()
    except EvalgebraError as exc:
        return _error(_short(exc))
    except UnicodeEncodeError as exc:  # a terminal whose encoding lacks a name's characters
        return _error(
            f"cannot write {exc.object[exc.start : exc.end]!r} in the output encoding {exc.encoding}; "
            "set PYTHONIOENCODING=utf-8"
        )
    except MemoryError:
        return _error("out of memory: the request is too large for this machine")
    except (OSError, UnicodeDecodeError, RecursionError) as exc:
        # unreadable or unwritable files and malformed input are the user's to fix: no traceback
        return _error(f"{type(exc).__name__}: {_short(exc)}")
