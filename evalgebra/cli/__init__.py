r"""The ``evalgebra`` command line.

Commands
--------
``evalgebra example``
    The main job on bundled data: sketch the ACS employment items, print their exact
    evaluation point and the complete generating set, and check that the set reproduces
    the sketch exactly.
``evalgebra sketch ITEMS.csv [--truth COLUMN] [--population COLUMN] [-o OUT.json]``
    Count an items CSV (header row, one column per classifier) into sketch JSON v1.
``evalgebra point SKETCH.json [--structure S] [--population P] [--json] [--force]``
    The exact evaluation point of a labelled sketch.
``evalgebra polys --classifiers N --labels R [--structure S] [--space P|R] [--populations K] [--format text|latex|json] [--expand] [--force]``
    Print the generating set.
``evalgebra evaluate SKETCH.json [--method algebraic|majority|hui_walter] [--classifiers C,...] [--prevalence-range LO HI] [--prevalence-order a,b,c] [--known-prevalences a=1/2,...] [--min-accuracy X [--non-strict]] [--fail-on KINDS] [--json] [--strict] [--force]``
    Evaluate the ensemble from its sketch alone (the answer key, if any, is ignored), any
    number of labels: every candidate evaluation exactly, the decoded one (marked
    ``(chosen)``, with its response rows when there are three or more labels), the partition
    of the counts by true label and the alarms; ``--json`` prints ``evalgebra.evaluation/1``
    (``response`` rows per classifier next to ``accuracy``). The estimate-based gate:
    ``--min-accuracy X`` checks that the chosen point puts every classifier above ``X`` on
    every label (at least ``X`` with ``--non-strict``) and ``--fail-on below_spec,irrational,...``
    exits with status 1 on a failed check or a named alarm kind.
``evalgebra alarm SKETCH.json [--min-accuracy 1/2] [--min-total-accuracy X] [--non-strict] [--subsets S] [--witness OUT.json] [--verdicts-only] [--accuracy] [--fail-on fires,undecided] [--json] [--strict]``
    The exact logical alarm for every subset of the ensemble, any number of labels: each
    subset FIRES (a checked certificate proves that at least one member misses the
    specification, whatever the answer key), is quiet (a checked witness: an answer key under
    which all meet it; ``--witness`` writes it as a labelled sketch) or UNDECIDED; ``--json``
    prints ``evalgebra.alarm/1``.

With ``--strict`` a raised alarm (evaluate) or a firing subset (alarm) exits with status 1;
``--fail-on`` names what does.

Errors in the input print one line ``evalgebra: error: ...`` and exit with status 2. Input
paths are paths (``-`` reads standard input), read up to ``--max-input-bytes`` (64M by default);
numbers are ASCII and bounded before they are built (``evalgebra.cli.args``); requests that
would not end within seconds are refused with the limit and the way around it, ``--force``
among them (``evalgebra.cli.guards``: polynomials and products of ``polys``, trios of
``evaluate``, correlation values of ``point``). Names that are not valid Unicode text (lone
surrogates) are refused on input, so output never needs to escape them.

Examples
--------
>>> main(["polys", "--classifiers", "1", "--labels", "2"])
f_a = acc_0_a*prev_a + (1 - acc_0_b)*(1 - prev_a)
f_b = acc_0_b*(1 - prev_a) + prev_a*(1 - acc_0_a)
0
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NoReturn

from evalgebra import datasets
from evalgebra.builder import GeneratingSet
from evalgebra.cli.args import (MAX_DIGITS, MAX_EXPONENT, MAX_INPUT_BYTES, byte_size, check_csv_header, count,
                                label_values, load_sketch_json, names, one_line, rational, read_input,
                                structure_value)
from evalgebra.cli.guards import (ALARM_FAILURES, CORRELATION_LIMIT, EVALUATE_FAILURES, POLYNOMIAL_LIMIT, TERM_LIMIT,
                                  TRIO_LIMIT, below_spec, check_correlations, check_polys, check_trios)
from evalgebra.errors import EvalgebraError, SpecError
from evalgebra.alarm.logical import logical_alarm
from evalgebra.alarm.report import AlarmReport
from evalgebra.alarm.safety import SafetySpec
from evalgebra.evaluators.distance import containing_distance
from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.evaluators.algebraic_numbers import AlgebraicNumber
from evalgebra.evaluators.result import ALARM_KINDS, Evaluation, exact_text
from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.fileio import write_text_atomic
from evalgebra.spec import EnsembleSpec

__all__ = ["main", "build_parser", "format_point", "format_evaluation", "format_alarm", "FEASIBLE_SHOWN", "FIRES_LINE",
           "QUIET_LINE", "UNDECIDED_LINE"]


def _fraction(value: Fraction | None) -> str:
    if value is None:
        return "undefined"
    return f"{value} ({float(value):.6g})" if value.denominator != 1 else str(value)


def format_point(point: EvaluationPoint) -> str:
    """A readable, exact rendering of an evaluation point."""
    spec = point.spec
    labels = spec.labels
    lines = [
        f"Q = {point.Q} items; labels {', '.join(labels)}; classifiers {', '.join(spec.classifiers)}",
    ]
    for s, pop in enumerate(spec.populations):
        head = "prevalence" if spec.n_populations == 1 else f"prevalence in {pop} (Q = {point.sizes[s] if point.sizes else '?'})"
        lines.append(head + ":")
        for ell, value in enumerate(point.prevalence[s]):
            lines.append(f"  P_{labels[ell]} = {_fraction(value)}")
    lines.append("response rates P(classifier answers r | true label):")
    for i, rows in enumerate(point.response):
        for ell, row in enumerate(rows):
            cells = "undefined (no items)" if row is None else "  ".join(
                f"{labels[r]}: {_fraction(v)}" for r, v in enumerate(row)
            )
            lines.append(f"  {spec.classifiers[i]} | true {labels[ell]}: {cells}")
    if point.correlation:
        lines.append("error correlations G (classifiers; true label; responses):")
        for subset, tables in point.correlation.items():
            names = ",".join(spec.classifiers[i] for i in subset)
            for ell, table in enumerate(tables):
                if table is None:
                    continue
                for responses, value in table.items():
                    if spec.n_labels == 2 and responses != (ell,) * len(subset):
                        continue
                    rs = "".join(labels[r] for r in responses)
                    lines.append(f"  G[{names}; {labels[ell]}; {rs}] = {_fraction(value)}")
        if spec.n_labels == 2:
            lines.append("  (two labels: the other responses follow by sign, docs/theory.md)")
    return "\n".join(lines)


def _exact(value: object) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, AlgebraicNumber):  # its minimal polynomial may be long: --json has it
        return f"{float(value):.6g} (algebraic of degree {value.degree}: exact in --json)"
    try:
        number = f"{float(value):.6g}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = "complex"
    text = exact_text(value) if not isinstance(value, float) else ""
    return f"{text} ({number})" if text and text != number else number


def format_evaluation(result: Evaluation, sketch: Sketch | None = None) -> str:
    """A readable rendering of an evaluation: points, choice, partition, alarms, trios."""
    lines = [f"method {result.method}; labels {', '.join(result.labels)}; classifiers {', '.join(result.classifiers)}"]
    for k, point in enumerate(result.points):
        mark = " (chosen)" if k == result.chosen else ""
        lines.append(f"point {k}{mark}:")
        for label, value in point.prevalence.items():
            lines.append(f"  P_{label} = {_exact(value)}")
        for population, row in (getattr(point, "by_population", None) or {}).items():
            lines.append(f"  in {population}: " + "   ".join(f"P_{label} = {_exact(v)}" for label, v in row.items()))
        for c, row in point.accuracy.items():
            lines.append(f"  {c}: " + "   ".join(f"acc on {label} = {_exact(v)}" for label, v in row.items()))
        if k == result.chosen and len(result.labels) > 2 and point.response:
            lines.append("  response rates P(answer | true label):")
            for c, by_truth in point.response.items():
                for truth, answers in by_truth.items():
                    lines.append(f"    {c} | true {truth}: " + "   ".join(f"{answer}: {_exact(v)}"
                                                                          for answer, v in answers.items()))
    if result.chosen is None:
        lines.append("no point chosen (see the alarms)")
    if result.partition and result.chosen is not None:
        lines.append("partition of the counts by true label (chosen point):")  # only when a point is chosen
        for label, rows in result.partition.items():
            cells = "  ".join(f"{''.join(p)}: {float(c):.1f}" for p, c in rows)
            lines.append(f"  true {label}: {cells}")
    if sketch is not None and result.point is not None and len(result.labels) == 2:
        try:
            distance = containing_distance(result.point, sketch).distance
            lines.append(f"distance of the chosen point from the containing variety: {distance:.3g}")
        except EvalgebraError:
            pass
    for trio in result.trios:
        kinds = ", ".join(sorted(trio.alarm_kinds())) or "none"
        p = trio.point
        prevalence = "-" if p is None else _exact(p.prevalence[result.labels[0]])
        first = p if p is not None else (trio.points[0] if trio.points else None)
        populations = list(getattr(first, "by_population", None) or {})
        head = f"populations {', '.join(populations)}" if populations else f"trio {', '.join(trio.classifiers)}"
        lines.append(f"{head}: P_{result.labels[0]} = {prevalence}; alarms: {kinds}")
    lines.append("alarms:" + ("" if result.alarms else " none"))
    for alarm in result.alarms:
        lines.append(f"  [{alarm.kind}] {alarm.detail}")
    return "\n".join(lines)


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
FIRES_LINE = ("the alarm fires: provably at least one member of each firing subset misses the specification, "
              "whatever the answer key")
#: The closing line of ``alarm`` when nothing fires and nothing is undecided.
QUIET_LINE = ("the alarm is quiet: these counts cannot prove a violation (an answer key exists under which all "
              "meet it: see --witness); the specification may still be unmet")
#: The closing line of ``alarm`` when subsets are undecided (``{n}``: how many).
UNDECIDED_LINE = "undecided on {n} subsets: no witness or certificate could be checked"


def _where(result: Any) -> str:
    """The feasible ``Q_a`` of one subset: the report's progressions (``FeasibleSet.text``), else intervals."""
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


def _read_sketch(args: argparse.Namespace) -> Sketch:
    """The sketch named on the command line: a path (``-`` is standard input), read strictly."""
    text = read_input(args.sketch, args.max_input_bytes, "sketch file")
    return Sketch.from_json(load_sketch_json(text))


def _cmd_evaluate(args: argparse.Namespace) -> int:
    sketch = _read_sketch(args)
    if args.classifiers:
        sketch = sketch.marginalise([c.strip() for c in args.classifiers.split(",") if c.strip()])
    options: dict[str, object] = {}
    decodings = [flag for flag, value in (("--prevalence-range", args.prevalence_range),
                                          ("--prevalence-order", args.prevalence_order),
                                          ("--known-prevalences", args.known_prevalences)) if value]
    if decodings and args.method != "algebraic":
        raise EvalgebraError(f"{decodings[0]} applies to the algebraic method")
    if len(decodings) > 1:
        raise EvalgebraError(f"{' and '.join(decodings)}: give one decoding rule")
    if args.prevalence_range:
        options = {"decoding": "prevalence_range", "prevalence_range": tuple(args.prevalence_range)}
    elif args.prevalence_order:
        options = {"prevalence_order": [name.strip() for name in args.prevalence_order.split(",") if name.strip()]}
    elif args.known_prevalences:
        options = {"known_prevalences": args.known_prevalences}
    fail_on = set(args.fail_on or ())
    if "below_spec" in fail_on and args.min_accuracy is None:
        raise EvalgebraError("--fail-on below_spec needs --min-accuracy X (the threshold to check)")
    if args.method == "algebraic":
        check_trios(sketch.n_classifiers, args.force)
    result = evaluate(sketch, method=args.method, **options)
    sys.stdout.write(result.to_json() + "\n" if args.json else format_evaluation(result, sketch) + "\n")
    failed = args.strict and bool(result.alarms)
    if args.min_accuracy is not None:
        below = below_spec(result, args.min_accuracy, strict=not args.non_strict, show=_exact)
        for message in below:
            print(f"evalgebra: below the specification: {message}", file=sys.stderr)
        failed = failed or bool(below) and (not args.fail_on or "below_spec" in fail_on)
    raised = sorted(fail_on & result.alarm_kinds())
    if raised:
        print(f"evalgebra: alarms named by --fail-on: {', '.join(raised)}", file=sys.stderr)
    return 1 if failed or raised else 0


def _cmd_alarm(args: argparse.Namespace) -> int:
    sketch = _read_sketch(args)
    spec = SafetySpec(min_accuracy=None if args.min_accuracy == "none" else args.min_accuracy,
                      min_total_accuracy=args.min_total_accuracy, strict=not args.non_strict)
    subsets = None
    if args.subsets:
        subsets = [[m.strip() for m in part.split(",") if m.strip()] for part in args.subsets.split(";")]
    report = logical_alarm(sketch, spec, subsets=subsets, prevalences=not args.verdicts_only,
                           accuracy=args.accuracy)
    sys.stdout.write(report.to_json() + "\n" if args.json else format_alarm(report) + "\n")
    if args.witness:
        members = subsets[0] if subsets else list(sketch.classifiers)
        _write_witness(report, members, args.witness)
    fail_on = set(args.fail_on or ()) | ({"fires"} if args.strict else set())
    failed = ("fires" in fail_on and report.fires) or ("undecided" in fail_on and bool(report.undecided()))
    return 1 if failed else 0


def _write_witness(report: AlarmReport, members: Sequence[str], path: str) -> None:
    """Write the witness of the subset ``members`` as a labelled sketch JSON (a SpecError if it has none)."""
    result = report.result(*members)
    subset = ", ".join(result.classifiers)
    if result.verdict != "quiet":
        why = "no answer key lets all of it meet the specification" if result.verdict == "fires" else \
            "no witness could be checked"
        raise SpecError(f"--witness: the subset {subset} is {result.verdict.upper()} ({why}); only a quiet subset "
                        "has a witness (choose one with --subsets)")
    if result.witness is None:
        raise SpecError(f"--witness: the subset {subset} is quiet by the exact pair conditions, but the solver "
                        "kept no witness to write")
    indices = [report.classifiers.index(c) for c in result.classifiers]
    witness = result.witness.restrict(indices).to_sketch(report.classifiers, report.labels)
    write_text_atomic(path, witness.to_json())
    print(f"wrote {path}: an answer key under which {subset} all meet {report.spec.describe()}: {witness!r}",
          file=sys.stderr)


def _cmd_example(args: argparse.Namespace) -> int:
    csv_path = datasets.items_csv("acs_employment")
    sketch = Sketch.from_csv(csv_path, truth="truth")
    print(f"# sketch of {csv_path.name} ('Algebraic Evaluation Theorems', Table 1: ACS employment, three classifiers)")
    print(sketch.to_json(), end="")
    point = evaluation_point(sketch, structure="complete")
    print("\n# exact evaluation point")
    print(format_point(point))
    gs = GeneratingSet(point.spec)
    print(f"\n# complete generating set: {gs!r}")
    print(f"# symbols: {gs.legend()}")
    print(gs.to_text())
    residuals = gs.residuals(point.free_values(), gs.observed_values(sketch))
    exact = all(r == 0 for r in residuals)
    print(
        "\n# check: the generating set at the evaluation point reproduces every pattern "
        f"frequency exactly: {exact}"
    )
    unlabelled = sketch.unlabelled()
    algebraic, majority = evaluate(unlabelled, "algebraic"), evaluate(unlabelled, "majority")
    print("\n# evaluation from the counts alone (answer key dropped): algebraic vs majority vote vs truth")
    print(f"{'statistic':<14}{'algebraic':>12}{'majority':>12}{'truth':>12}")
    first = sketch.labels[0]
    rows: list[tuple[str, Any, Any]] = [(f"P_{first}", ("prevalence", first), point.prevalence_of()[first])]
    for c in sketch.classifiers:
        for label in sketch.labels:
            rows.append((f"{c} acc {label}", ("accuracy", c, label), point.accuracy(c, label)))

    def pick(estimate: Any, where: tuple[str, ...]) -> float:
        table = getattr(estimate, where[0])
        return float(table[where[1]] if len(where) == 2 else table[where[1]][where[2]])

    for name, where, truth in rows:
        print(f"{name:<14}{pick(algebraic.point, where):>12.4f}{pick(majority.point, where):>12.4f}{float(truth):>12.4f}")
    print("alarms (algebraic): " + "; ".join(f"[{a.kind}] {a.detail}" for a in algebraic.alarms))
    graders = datasets.load("bigbench_mistake")
    print("\n# logical alarm: three LLM graders on BIG-Bench-Mistake ('A logical alarm for misaligned binary classifiers', "
          "Table 2), counts alone")
    print(format_alarm(logical_alarm(graders.unlabelled())))
    return 0 if exact else 1


def _cmd_sketch(args: argparse.Namespace) -> int:
    text = read_input(args.items, args.max_input_bytes, "items CSV")
    check_csv_header(text, args.truth, args.population)
    try:
        sketch = Sketch.from_csv(io.StringIO(text, newline=""), truth=args.truth, population=args.population)
    except csv.Error as exc:
        raise EvalgebraError(f"items CSV: {exc} (a cell holds at most {csv.field_size_limit()} characters, "
                             "quotes close before the line ends)") from None
    if args.output:
        write_text_atomic(args.output, sketch.to_json())
        print(f"wrote {args.output}: {sketch!r}", file=sys.stderr)
    else:
        sys.stdout.write(sketch.to_json())
    return 0


def _cmd_point(args: argparse.Namespace) -> int:
    sketch = _read_sketch(args)
    structure = structure_value(args.structure, sketch.classifiers)
    check_correlations(sketch.n_classifiers, sketch.n_labels, structure, args.force)
    point = evaluation_point(sketch, structure=structure, population=args.population)
    sys.stdout.write(point.to_json() if args.json else format_point(point) + "\n")
    return 0


def _cmd_polys(args: argparse.Namespace) -> int:
    structure = structure_value(args.structure)
    check_polys(args.classifiers, args.labels, args.populations or 1, structure,
                expanded=args.expand or args.format == "json", force=args.force)
    spec = EnsembleSpec(args.classifiers, args.labels, structure, args.populations)
    gs = GeneratingSet(spec, args.space)
    if args.format == "json":
        sys.stdout.write(gs.to_json() + "\n")
    elif args.format == "latex":
        print(gs.to_latex(expand=args.expand))
    else:
        print(gs.to_text(expand=args.expand))
    return 0


def _short(exc: BaseException, limit: int = 2000) -> str:
    """The message of an error, cut to ``limit`` characters (huge numbers stay readable)."""
    try:
        text = str(exc)
    except ValueError:  # e.g. an integer too long to print
        text = type(exc).__name__
    return text if len(text) <= limit else text[:limit] + " ..."


#: Kept for callers of the former private helper: the structure syntax of ``--structure``.
_structure_arg = structure_value


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``evalgebra: error: ...``, and status 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        self.exit(2, f"evalgebra: error: {one_line(command + message)} (see --help)\n")


_RATIONAL = f"exact: 1/2, 0.25 or 1e-3; at most {MAX_DIGITS} digits, exponent within ±{MAX_EXPONENT}"
_CAP = (f"refuse input files larger than this (default {MAX_INPUT_BYTES // 2**20}M; "
        "suffixes K, M, G)")


def _input_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--max-input-bytes", type=byte_size, default=MAX_INPUT_BYTES, metavar="SIZE", help=_CAP)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``evalgebra`` command."""
    parser = _Parser(
        prog="evalgebra",
        description="Exact algebraic evaluation of classifier ensembles on unlabelled data.",
        epilog="Input paths are paths ('-' reads standard input); errors print one line "
               "'evalgebra: error: ...' and exit with status 2.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    example = sub.add_parser("example", help="sketch, evaluation point and generating set of bundled data")
    example.set_defaults(run=_cmd_example)

    sketch = sub.add_parser("sketch", help="count an items CSV into sketch JSON")
    sketch.add_argument("items", help="UTF-8 CSV with a header row of distinct names, one column per classifier "
                                      f"(cells of at most {csv.field_size_limit()} characters)")
    sketch.add_argument("--truth", metavar="COLUMN", help="column with the true labels")
    sketch.add_argument("--population", metavar="COLUMN",
                        help="column with each item's population (not the truth column)")
    sketch.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: stdout)")
    _input_options(sketch)
    sketch.set_defaults(run=_cmd_sketch)

    point = sub.add_parser("point", help="exact evaluation point of a labelled sketch")
    point.add_argument("sketch", help="sketch JSON v1 with by_true_label counts")
    point.add_argument("--structure", default="complete",
                       help="independent, complete (default) or subsets like 0-1,1-2 (ASCII indices or names)")
    point.add_argument("--population", default=None,
                       help="one population's point (default: all populations, rows shared)")
    point.add_argument("--json", action="store_true", help="print evalgebra.point/1 JSON")
    point.add_argument("--force", action="store_true",
                       help=f"compute more than {CORRELATION_LIMIT} correlation values (R times the sum of "
                            "R^|T| over the correlated subsets T: the complete structure on 9 binary "
                            "classifiers has 39328)")
    _input_options(point)
    point.set_defaults(run=_cmd_point)

    polys = sub.add_parser("polys", help="print the generating set")
    polys.add_argument("--classifiers", type=count, required=True, metavar="N", help="number of classifiers")
    polys.add_argument("--labels", type=lambda v: count(v, 2), required=True, metavar="R",
                       help="number of labels (at least 2)")
    polys.add_argument("--structure", default="independent",
                       help="independent (default), complete, or subsets like 0-1,1-2 (ASCII indices)")
    polys.add_argument("--space", choices=["P", "R"], default="P",
                       help="P: in frequencies and rates (default); R: in integer counts")
    polys.add_argument("--populations", type=count, default=None, metavar="K",
                       help="K populations sharing the response rates (default 1)")
    polys.add_argument("--format", choices=["text", "latex", "json"], default="text",
                       help="json holds the expanded polynomials")
    polys.add_argument("--expand", action="store_true", help="expand the products")
    polys.add_argument("--force", action="store_true",
                       help=f"build more than {POLYNOMIAL_LIMIT} polynomials (K R^N) or print more than "
                            f"{TERM_LIMIT} products (K R^N R (1 + |T|); expanded, about K (2R-1)^(N+1) (1 + |T|) "
                            "terms); more than 2^62 answer patterns or 10^9 terms are refused even so")
    polys.set_defaults(run=_cmd_polys)

    ev = sub.add_parser("evaluate", help="evaluate an ensemble from its sketch alone")
    ev.add_argument("sketch", help="sketch JSON v1 (labels, if present, are ignored)")
    ev.add_argument("--method", choices=METHODS, default="algebraic",
                    help="algebraic (default: exact, independent errors, any number of labels), majority "
                         "(majority vote) or hui_walter (two tests on two or more populations)")
    ev.add_argument("--classifiers", default=None, metavar="c1,c2,...",
                    help="evaluate these classifiers only (names, comma-separated)")
    ev.add_argument("--prevalence-range", nargs=2, metavar=("LO", "HI"), type=rational,
                    help=f"decode to the point whose first-label prevalence lies in [LO, HI] ({_RATIONAL})")
    ev.add_argument("--prevalence-order", metavar="a,b,c", default=None,
                    help="three or more labels: decode to the point whose labels, most prevalent first, "
                         "come in this order (every label once)")
    ev.add_argument("--known-prevalences", metavar="a=1/2,b=1/3,...", type=label_values, default=None,
                    help="three or more labels: decode to the point nearest these prevalences (every label, "
                         f"summing to 1; {_RATIONAL})")
    ev.add_argument("--min-accuracy", type=rational, default=None, metavar="X",
                    help="check that the chosen point puts every classifier above X on every label; exit "
                         f"with status 1 when not (unless --fail-on omits below_spec) ({_RATIONAL})")
    ev.add_argument("--non-strict", action="store_true", help="--min-accuracy means 'at least X', not 'above X'")
    ev.add_argument("--fail-on", metavar="KINDS", default=None,
                    type=lambda v: names(v, EVALUATE_FAILURES),
                    help="exit with status 1 on these, comma-separated: below_spec (the --min-accuracy check) "
                         f"or alarm kinds ({', '.join(sorted(ALARM_KINDS))})")
    ev.add_argument("--json", action="store_true", help="print evalgebra.evaluation/1 JSON")
    ev.add_argument("--strict", action="store_true", help="exit with status 1 when any alarm is raised")
    ev.add_argument("--force", action="store_true",
                    help=f"solve more than {TRIO_LIMIT} trios (more than 20 classifiers, algebraic method)")
    _input_options(ev)
    ev.set_defaults(run=_cmd_evaluate)

    al = sub.add_parser("alarm", help="the logical alarm for every subset of the ensemble")
    al.add_argument("sketch", help="sketch JSON v1, any number of labels (an answer key, if any, is ignored)")
    al.add_argument("--min-accuracy", default="1/2", type=lambda v: v if v == "none" else rational(v),
                    help=f"every member above this accuracy on each label ({_RATIONAL}; 'none' to drop)")
    al.add_argument("--min-total-accuracy", default=None, type=rational,
                    help=f"every member above this total accuracy ({_RATIONAL})")
    al.add_argument("--non-strict", action="store_true", help="'at least' instead of 'above' the thresholds")
    al.add_argument("--subsets", default=None, metavar="c1,c2;c1,c2,c3",
                    help="the subsets to check (default: all; needed beyond 12 classifiers)")
    al.add_argument("--witness", metavar="OUT.json", default=None,
                    help="write the witness of the whole ensemble (or of the first --subsets entry) as a "
                         "labelled sketch: an answer key consistent with the counts under which every member "
                         "meets the specification (status 2 when that subset is not quiet)")
    al.add_argument("--verdicts-only", action="store_true",
                    help="verdicts with their evidence only: skip the feasible Q_a and label counts (faster)")
    al.add_argument("--accuracy", action="store_true",
                    help="also give every member of a quiet subset its exact accuracy range on each label")
    al.add_argument("--fail-on", metavar="fires,undecided", default=None,
                    type=lambda v: names(v, ALARM_FAILURES),
                    help="exit with status 1 when a subset fires, or is undecided (comma-separated)")
    al.add_argument("--json", action="store_true", help="print evalgebra.alarm/1 JSON")
    al.add_argument("--strict", action="store_true", help="exit with status 1 when the alarm fires (--fail-on fires)")
    _input_options(al)
    al.set_defaults(run=_cmd_alarm)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
