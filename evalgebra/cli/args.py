r"""What the command line accepts, read strictly and within stated bounds.

Every value the ``evalgebra`` command reads from its arguments or its input files passes
through here first, so that a bad value ends in one short message (exit status 2) instead of
a traceback, a hang or an unbounded allocation:

- numbers are ASCII only (``int`` and ``Fraction`` also accept other
  Unicode digits such as ``'٣'``) and bounded *before* they are converted: counts have at
  most 9 digits; rationals are read by :func:`~evalgebra.numbers.rationals.parse_rational`, the
  parser the API uses, with its bounds (:data:`~evalgebra.numbers.rationals.MAX_DIGITS` digits,
  a decimal exponent within ``±MAX_EXPONENT``; ``0e99999999`` would otherwise make
  ``Fraction`` build a number with a hundred million digits);
- input files are read with a size cap (:data:`MAX_INPUT_BYTES` by default) and decoded as
  strict UTF-8; ``-`` is standard input and any other text is a path (never JSON text);
- sketch JSON is parsed with duplicate keys, ``NaN``/``Infinity``, integers of more than
  :data:`MAX_JSON_DIGITS` digits and lone surrogates (names that cannot be written back as
  UTF-8) refused;
- an items CSV may not repeat a column name, and its truth and population columns differ.

The size guards of the commands (polynomials, terms, trios, correlation values) live in
:mod:`evalgebra.cli.guards`.

Examples
--------
>>> rational("3/4"), rational("0.25"), rational("-1e-2")
(Fraction(3, 4), Fraction(1, 4), Fraction(-1, 100))
>>> rational("0e99999999")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
argparse.ArgumentTypeError: exponent 99999999 of '0e99999999' is out of range; accepted: exponents of at
most 1000 in absolute value
>>> structure_value("0-1,1-2")
[[0, 1], [1, 2]]
>>> structure_value("0-²")
[[0, '²']]
>>> label_values("a=1/2,b=0.3,c=1/5")
{'a': Fraction(1, 2), 'b': Fraction(3, 10), 'c': Fraction(1, 5)}
>>> accepted_names("fires,undecided", ("fires", "undecided"))
('fires', 'undecided')
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import re
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from evalgebra.data.sketch import Sketch
from evalgebra.data.sketch_json import MAX_JSON_INT_DIGITS, parse_sketch_json
from evalgebra.engines.limits import LONGEST_LIMIT, PROGRESS_VARIABLE, TIME_LIMIT_VARIABLE
from evalgebra.errors import SketchError, SpecError
from evalgebra.fileio import write_output
from evalgebra.numbers.rationals import MAX_DIGITS, MAX_EXPONENT, RATIONAL_BOUNDS, parse_rational
from evalgebra.structures import read_structure_text

__all__ = [
    "write_sketch",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "MAX_INPUT_BYTES",
    "MAX_JSON_DIGITS",
    "MAX_STRUCTURE_CHARS",
    "rational",
    "count",
    "byte_size",
    "structure_value",
    "label_values",
    "accepted_names",
    "read_input",
    "load_sketch_json",
    "check_csv_header",
    "one_line",
    "RATIONAL_HELP",
    "input_options",
    "read_sketch",
    "deprecated_flag",
    "time_limit_value",
    "TIME_LIMIT_VARIABLE",
    "PROGRESS_VARIABLE",
]

#: Default cap on the size of an input file (64 MiB); ``--max-input-bytes`` changes it.
MAX_INPUT_BYTES = 64 * 2**20
#: Digits of an integer in sketch JSON (counts are below 2^62, which has 19 digits).
MAX_JSON_DIGITS = MAX_JSON_INT_DIGITS
#: Characters of a ``--structure`` value.
MAX_STRUCTURE_CHARS = 10_000

_ASCII_DIGITS = re.compile(r"[0-9]+")
#: What the help of a rational option says it accepts.
RATIONAL_HELP = f"exact: 1/2, 0.25 or 1e-3; {RATIONAL_BOUNDS}"


def one_line(text: str, limit: int = 2000) -> str:
    """``text`` on one line (line breaks become spaces), cut to ``limit`` characters.

    >>> one_line("first\\nsecond")
    'first second'
    """
    flat = " ".join(text.split("\n")).replace("\r", " ")
    return flat if len(flat) <= limit else flat[:limit] + " ..."


def rational(value: str) -> Fraction:
    r"""A command-line rational: ``1/2``, ``0.25``, ``3`` or ``1e-3``, exact.

    Read by :func:`~evalgebra.numbers.rationals.parse_rational`, the one parser of rationals from
    text, with its bounds (:data:`~evalgebra.numbers.rationals.MAX_DIGITS` digits, exponent
    within ``±MAX_EXPONENT``) checked before any number is built; raises
    ``argparse.ArgumentTypeError`` otherwise (see the module examples).
    """
    try:
        return parse_rational(value, "")
    except SketchError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def count(value: str, minimum: int = 1) -> int:
    """A count of at most 9 ASCII digits, at least ``minimum``.

    >>> count("12")
    12
    """
    if not _ASCII_DIGITS.fullmatch(value) or len(value) > 9:
        raise argparse.ArgumentTypeError(f"{value[:40]!r} is not a count (ASCII digits, at most 9 of them)")
    number = int(value)
    if number < minimum:
        raise argparse.ArgumentTypeError(f"{value!r}: need at least {minimum}")
    return number


_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}


def byte_size(value: str) -> int:
    """A size in bytes: ``1000``, ``64M``, ``2G`` (powers of 1024), at most 1 TiB.

    >>> byte_size("64M")
    67108864
    """
    match = re.fullmatch(r"([0-9]{1,13})([kKmMgG]?)", value)
    if not match:
        raise argparse.ArgumentTypeError(f"{value[:40]!r} is not a size in bytes (e.g. 1000000, 64M, 2G)")
    size = int(match.group(1)) * _UNITS[match.group(2).lower()]
    if not 0 < size <= 2**40:
        raise argparse.ArgumentTypeError(f"{value!r}: a size between 1 byte and 1T")
    return size


def structure_value(value: str, names: Sequence[str] = ()) -> Any:
    """``independent``, ``complete`` or subsets like ``0-1,1-2`` (indices or names), at most
    :data:`MAX_STRUCTURE_CHARS` characters: :func:`~evalgebra.structures.read_structure_text`, whose
    messages name ``--structure`` (a mistyped ``0,1`` or ``"(0, 1)"`` is refused with the correction)."""
    if len(value) > MAX_STRUCTURE_CHARS:
        raise SpecError(f"--structure: at most {MAX_STRUCTURE_CHARS} characters, got {len(value)}")
    return read_structure_text(value, names, option="--structure")


def label_values(value: str) -> dict[str, Fraction]:
    """``a=1/2,b=1/3,c=1/6``: a rational per label name (``--known-prevalences``).

    Each value is read by :func:`rational`; a name may appear once. Raises
    ``argparse.ArgumentTypeError`` otherwise.
    """
    if len(value) > MAX_STRUCTURE_CHARS:
        raise argparse.ArgumentTypeError(f"at most {MAX_STRUCTURE_CHARS} characters, got {len(value)}")
    out: dict[str, Fraction] = {}
    for part in value.split(","):
        name, equals, number = part.partition("=")
        name = name.strip()
        if not equals or not name:
            raise argparse.ArgumentTypeError(f"{part[:40]!r} is not label=value (e.g. a=1/2,b=1/3,c=1/6)")
        if name in out:
            raise argparse.ArgumentTypeError(f"label {name!r} is given twice; give each label once")
        out[name] = rational(number.strip())
    return out


def accepted_names(value: str, accepted: Sequence[str]) -> tuple[str, ...]:
    """A comma-separated list of names, each one of ``accepted`` (``--fail-on``), in the order given."""
    chosen = tuple(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    unknown = [name for name in chosen if name not in accepted]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"{', '.join(repr(n[:40]) for n in unknown) or 'nothing'} not known; "
            f"accepted (comma-separated): {', '.join(accepted)}"
        )
    return chosen


def read_input(path: str, max_bytes: int = MAX_INPUT_BYTES, what: str = "input") -> str:
    """The text of ``path`` (``-``: standard input), at most ``max_bytes`` bytes of strict UTF-8.

    A leading byte-order mark is dropped. Raises :class:`~evalgebra.errors.SketchError` when the file
    cannot be read, is larger than the cap (``--max-input-bytes`` raises it) or is not UTF-8.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(Path(path), "rb") as handle:
                data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise SketchError(f"cannot read {what} {path!r}: {exc.strerror or type(exc).__name__}") from None
    if len(data) > max_bytes:
        raise SketchError(
            f"{what} {path!r} is larger than {max_bytes} bytes; "
            "raise the cap with --max-input-bytes (e.g. 2G)"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SketchError(f"{what} {path!r} is not UTF-8 text (byte {exc.start}: {exc.reason})") from None


def load_sketch_json(text: str) -> Any:
    """Parse sketch JSON text strictly (see the module docstring); the parsed value."""
    return parse_sketch_json(text)


def check_csv_header(text: str, truth: str | None, population: str | None) -> None:
    """Refuse an items CSV whose header repeats a name, and a truth column that is also the population."""
    if truth is not None and truth == population:
        raise SketchError(f"--truth and --population name the same column {truth!r}; they must differ")
    try:
        header = next(csv.reader(io.StringIO(text)), [])
    except csv.Error as exc:
        raise SketchError(
            f"CSV header: {exc} (a cell holds at most {csv.field_size_limit()} characters)"
        ) from None
    seen: dict[str, int] = {}
    for position, name in enumerate(h.strip() for h in header):
        if name in seen:
            raise SketchError(
                f"CSV column {name!r} appears twice (columns {seen[name] + 1} and {position + 1}); "
                "every column needs its own name"
            )
        seen[name] = position


def input_options(command: argparse.ArgumentParser) -> None:
    """Add the options every command that reads a file has (``--max-input-bytes``)."""
    command.add_argument(
        "--max-input-bytes",
        type=byte_size,
        default=MAX_INPUT_BYTES,
        metavar="SIZE",
        help=f"refuse input files larger than this (default {MAX_INPUT_BYTES // 2**20}M; suffixes K, M, G)",
    )


def read_sketch(args: argparse.Namespace) -> Sketch:
    """The sketch named by ``args.sketch``: a path (``-`` is standard input), read strictly."""
    text = read_input(args.sketch, args.max_input_bytes, "sketch file")
    return Sketch.from_json(load_sketch_json(text))


class _DeprecatedFlag(argparse.Action):
    """A flag kept under an old spelling: sets the new flag's value and says so on standard error."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, replacement: str = "", **kwargs: Any
    ) -> None:
        self.replacement = replacement
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True)
        print(
            f"evalgebra: warning: {option_string} is deprecated and will be removed: use {self.replacement} "
            "(the same exit status); 'strict' now means only a strict inequality (see --non-strict)",
            file=sys.stderr,
        )


def deprecated_flag(command: argparse.ArgumentParser, old: str, new: str) -> None:
    """Accept the flag ``old`` as a deprecated spelling of the store-true flag ``new`` (it warns).

    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--fail-on-alarm", action="store_true", help="exit 1 on an alarm")
    >>> deprecated_flag(parser, "--strict", "--fail-on-alarm")
    >>> parser.parse_args(["--fail-on-alarm"]).fail_on_alarm
    True
    """
    dest = new.lstrip("-").replace("-", "_")
    command.add_argument(
        old, dest=dest, action=_DeprecatedFlag, replacement=new, help=f"deprecated spelling of {new}"
    )


def time_limit_value(value: str) -> str:
    """A ``--time-limit``: seconds above 0 or ``none``; its text.

    Any decimal number is taken (``1e3`` too); a limit of more than :data:`LONGEST_LIMIT` seconds
    (about 30 years) is no limit and reads as ``none``.

    >>> time_limit_value("90"), time_limit_value("2.5"), time_limit_value("None"), time_limit_value("1e300")
    ('90', '2.5', 'none', 'none')
    """
    text = value.strip().lower()
    if text in ("none", "inf", "infinity", "off"):
        return "none"
    try:
        seconds = float(text) if re.fullmatch(r"[0-9.e+-]{1,40}", text) else math.nan
    except ValueError:
        seconds = math.nan
    if not 0 < seconds:  # NaN, zero and negatives
        raise argparse.ArgumentTypeError(
            f"{value[:40]!r}: not a time limit; accepted: seconds above 0 (e.g. 600 or 2.5) or none"
        )
    return "none" if seconds > LONGEST_LIMIT else text


def write_sketch(sketch: Sketch, output: str | None) -> None:
    """Write ``sketch`` as JSON to ``output`` (saying so on stderr); to stdout when ``output`` is None or
    '-'.
    """
    write_output("-" if output is None else output, sketch.to_json())  # "" is refused, not stdout
    if output and output != "-":
        print(f"wrote {output}: {sketch!r}", file=sys.stderr)
