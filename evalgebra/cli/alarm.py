r"""``evalgebra alarm SKETCH.json``: the exact logical alarm for every subset of the ensemble.

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.alarm.logical import logical_alarm
>>> text = format_alarm(logical_alarm(datasets.load("bigbench_mistake").unlabelled()))
>>> FIRES_LINE in text
True
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from evalgebra.cli.args import (
    RATIONAL_HELP,
    accepted_names,
    deprecated_flag,
    input_options,
    rational,
    read_sketch,
)
from evalgebra.cli.guards import ALARM_FAILURES, ALARM_WORK_LIMIT, SECONDS_LIMIT, check_alarm
from evalgebra.errors import SpecError
from evalgebra.fileio import write_output

if TYPE_CHECKING:  # the alarm (SciPy) loads when the command runs, so that --help starts fast
    from evalgebra.alarm.report import AlarmReport

__all__ = ["format_alarm", "FEASIBLE_SHOWN", "FIRES_LINE", "QUIET_LINE", "UNDECIDED_LINE", "register", "run"]


#: Feasible ranges a text line of ``alarm`` shows before it counts the rest.
FEASIBLE_SHOWN = 8


def _feasible_text(entry: Sequence[int]) -> str:
    """``[lo, hi]`` for an interval, ``lo..hi step k`` for an arithmetic progression."""
    lo, hi = entry[0], entry[1]
    step = entry[2] if len(entry) > 2 else getattr(entry, "step", 1)
    if lo == hi:
        return f"[{lo}]"
    return f"[{lo}, {hi}]" if step == 1 else f"{lo}..{hi} step {step}"


def _feasible_ranges(result: Any) -> Sequence[Sequence[int]] | None:
    """The feasible ``Q_a`` of one subset: progressions when the result has them, else intervals."""
    feasible = getattr(result, "feasible", None)
    if feasible is not None and hasattr(feasible, "to_list"):
        return [tuple(entry) for entry in feasible.to_list()]
    intervals = result.feasible_Qa
    return None if intervals is None else list(intervals)


#: The closing line of ``alarm`` when it fires.
FIRES_LINE = (
    "the alarm fires: provably at least one member of each firing subset misses the specification, "
    "whatever the answer key"
)
#: The closing line of ``alarm`` when nothing fires and nothing is undecided.
QUIET_LINE = (
    "the alarm is quiet: these counts cannot prove a violation (an answer key exists under which all "
    "meet it: see --witness); the specification may still be unmet"
)
#: The closing line of ``alarm`` when subsets are undecided (``{n}``: how many).
UNDECIDED_LINE = "undecided on {n} subsets: no witness or certificate could be checked"


def _where(result: Any) -> str:
    """The feasible ``Q_a`` of one subset: the report's progressions (``FeasibleSet.text``), else
    intervals.
    """
    feasible = getattr(result, "feasible", None)
    if feasible is not None and hasattr(feasible, "text"):
        return str(feasible.text(FEASIBLE_SHOWN))
    ranges = _feasible_ranges(result)
    if ranges is None:
        return "not computed"
    where = " ".join(_feasible_text(entry) for entry in ranges[:FEASIBLE_SHOWN]) or "none"
    if len(ranges) > FEASIBLE_SHOWN:
        where += f" ... and {len(ranges) - FEASIBLE_SHOWN} more ranges (--json lists them)"
    return where


def format_alarm(report: AlarmReport) -> str:
    """A logical-alarm report as text: per subset ``FIRES``, ``quiet`` or ``UNDECIDED`` (with the
    reason), its feasible ``Q_a`` (at most :data:`FEASIBLE_SHOWN` progressions ``lo..hi step k``;
    ``not computed`` with ``--verdicts-only``), each label's count range (three or more labels) and
    each member's accuracy range (``--accuracy``); then :data:`FIRES_LINE` or :data:`QUIET_LINE`,
    and :data:`UNDECIDED_LINE`."""
    first = report.labels[0] if report.labels else "a"
    lines = [f"Q = {report.Q}; specification: {report.spec.describe()}"]
    width = max(len(", ".join(r.classifiers)) for r in report.subsets)
    for r in report.subsets:
        verdict = getattr(r, "verdict", "") or ("fires" if r.fires else "quiet")
        line = f"  {', '.join(r.classifiers):<{width}}  {verdict if verdict == 'quiet' else verdict.upper()}"
        if verdict == "undecided":
            line += f" ({getattr(r, 'reason', '') or 'no evidence'})"
        line += f"  feasible Q_{first}: {_where(r)}"
        ranges = getattr(r, "label_ranges", None)
        if ranges:
            line += "; counts " + ", ".join(f"Q_{label} {lo}..{hi}" for label, (lo, hi) in ranges.items())
        lines.append(line)
        for member, row in (getattr(r, "accuracy", None) or {}).items():
            cells = "   ".join(f"on {label} {_bounds(pair)}" for label, pair in row.items())
            lines.append(f"  {'':<{width}}    {member} accuracy: {cells}")
    undecided = report.undecided() if hasattr(report, "undecided") else ()
    if report.fires:
        lines.append(FIRES_LINE)
        minimal = report.minimal_firing() if hasattr(report, "minimal_firing") else ()
        if minimal:
            lines.append("smallest firing subsets: " + "; ".join(", ".join(r.classifiers) for r in minimal))
    elif not undecided:
        lines.append(QUIET_LINE)
    if undecided:
        lines.append(UNDECIDED_LINE.format(n=len(undecided)))
    return "\n".join(lines)


def _bounds(pair: Sequence[Any]) -> str:  # [3/5, 9/10]: an exact accuracy range (? for an end not found)
    return "[" + ", ".join("?" if v is None else str(v) for v in pair) + "]"


def run(args: argparse.Namespace) -> int:
    """Run the logical alarm on the sketch ``args`` names; the exit status (1: a failed check)."""
    from evalgebra.alarm.logical import logical_alarm
    from evalgebra.alarm.safety import SafetySpec

    sketch = read_sketch(args)
    spec = SafetySpec(
        min_accuracy=None if args.min_accuracy == "none" else args.min_accuracy,
        min_total_accuracy=args.min_total_accuracy,
        strict=not args.non_strict,
        answered_only=args.answered_only,
    )
    subsets = None
    if args.subsets:
        subsets = [[m.strip() for m in part.split(",") if m.strip()] for part in args.subsets.split(";")]
    if not args.verdicts_only:
        check_alarm(sketch.n_classifiers, sketch.n_labels, len(sketch.counts()), subsets, args.force)
    report = logical_alarm(
        sketch, spec, subsets=subsets, prevalences=not args.verdicts_only, accuracy=args.accuracy
    )
    sys.stdout.write(report.to_json() + "\n" if args.json else format_alarm(report) + "\n")
    if args.witness:
        members = subsets[0] if subsets else list(sketch.classifiers)
        _write_witness(report, members, args.witness)
    fail_on = set(args.fail_on or ()) | ({"fires"} if args.fail_on_alarm else set())
    failed = ("fires" in fail_on and report.fires) or ("undecided" in fail_on and bool(report.undecided()))
    return 1 if failed else 0


def _write_witness(report: AlarmReport, members: Sequence[str], path: str) -> None:
    """Write the witness of the subset ``members`` as a labelled sketch JSON (a SpecError if it has none)."""
    result = report.result(*members)
    subset = ", ".join(result.classifiers)
    if result.verdict != "quiet":
        why = (
            "no answer key lets all of it meet the specification"
            if result.verdict == "fires"
            else "no witness could be checked"
        )
        raise SpecError(
            f"--witness: the subset {subset} is {result.verdict.upper()} ({why}); only a quiet subset "
            "has a witness (choose one with --subsets)"
        )
    if result.witness is None:
        raise SpecError(
            f"--witness: the subset {subset} is quiet by the exact pair conditions, but the solver "
            "kept no witness to write"
        )
    indices = [report.classifiers.index(c) for c in result.classifiers]
    witness = result.witness.restrict(indices).to_sketch(report.classifiers, report.labels, report.abstain)
    write_output(path, witness.to_json())
    print(
        f"wrote {path}: an answer key under which {subset} all meet {report.spec.describe()}: {witness!r}",
        file=sys.stderr,
    )


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``alarm`` command to the subcommands ``sub``; its parser."""
    al = sub.add_parser("alarm", help="the logical alarm for every subset of the ensemble")
    al.add_argument(
        "sketch",
        help="sketch JSON v1, any number of labels, abstentions allowed (an answer key, if any, is ignored)",
    )
    al.add_argument(
        "--min-accuracy",
        default="1/2",
        type=lambda v: v if v == "none" else rational(v),
        help=f"every member above this accuracy on each label ({RATIONAL_HELP}; 'none' to drop)",
    )
    al.add_argument(
        "--min-total-accuracy",
        default=None,
        type=rational,
        help=f"every member above this total accuracy ({RATIONAL_HELP})",
    )
    al.add_argument("--non-strict", action="store_true", help="'at least' instead of 'above' the thresholds")
    al.add_argument(
        "--answered-only",
        action="store_true",
        help="with abstentions: the thresholds are on the accuracy among the items a member answered, "
        "P(answer = l | truth = l, answered). By default an abstention is not a correct answer: the "
        "accuracy on l is P(answer = l | truth = l) over all items of l, so a member that abstains on "
        "more items than the thresholds allow fires alone",
    )
    al.add_argument(
        "--subsets",
        default=None,
        metavar="c1,c2;c1,c2,c3",
        help="the subsets to check (default: all; needed beyond 12 classifiers)",
    )
    al.add_argument(
        "--witness",
        metavar="OUT.json",
        default=None,
        help="write the witness of the whole ensemble (or of the first --subsets entry) as a "
        "labelled sketch: an answer key consistent with the counts under which every member "
        "meets the specification (status 2 when that subset is not quiet)",
    )
    al.add_argument(
        "--verdicts-only",
        action="store_true",
        help="verdicts with their evidence only: skip the feasible Q_a and label counts (faster; "
        "never refused for its size)",
    )
    al.add_argument(
        "--force",
        action="store_true",
        help=f"run a full report estimated at more than {SECONDS_LIMIT} s (by default refused up front: "
        f"more than {ALARM_WORK_LIMIT} units, a unit being a label times a compact pattern of a "
        "subset that needs integer programs; e.g. 7 binary classifiers, or 5 with 4 labels)",
    )
    al.add_argument(
        "--accuracy",
        action="store_true",
        help="also give every member of a quiet subset its exact accuracy range on each label",
    )
    al.add_argument(
        "--fail-on",
        metavar="fires,undecided",
        default=None,
        type=lambda v: accepted_names(v, ALARM_FAILURES),
        help="exit with status 1 when a subset fires, or is undecided (comma-separated)",
    )
    al.add_argument("--json", action="store_true", help="print evalgebra.alarm/1 JSON")
    al.add_argument(
        "--fail-on-alarm",
        action="store_true",
        help="exit with status 1 when the alarm fires (the same as --fail-on fires)",
    )
    deprecated_flag(al, "--strict", "--fail-on-alarm")
    input_options(al)
    al.set_defaults(run=run)
    return al
