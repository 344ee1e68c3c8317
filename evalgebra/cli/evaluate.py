r"""``evalgebra evaluate SKETCH.json``: evaluate an ensemble from its sketch alone.

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.evaluators.dispatch import evaluate
>>> print(format_evaluation(evaluate(datasets.load("acs_employment").unlabelled())).splitlines()[0])
method algebraic; structure independent; labels a, b; classifiers c1, c2, c3
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from evalgebra.cli.args import (
    RATIONAL_HELP,
    accepted_names,
    deprecated_flag,
    input_options,
    label_values,
    rational,
    read_sketch,
    structure_value,
)
from evalgebra.cli.guards import EVALUATE_FAILURES, SECONDS_LIMIT, TRIO_LIMIT, below_spec, check_trios
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError
from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.evaluators.independent.distance import containing_distance
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
from evalgebra.results import ALARM_KINDS, Evaluation, exact_text

__all__ = ["format_evaluation", "register", "run", "PARTITION_SHOWN", "RESPONSES_SHOWN"]


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


def _interval(point: Any, *keys: str) -> str:
    """`` [low, high]`` of the statistic ``keys`` names when the point has confidence intervals, else ''."""
    node: Any = getattr(point, "interval", None) or {}
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, (tuple, list)) or len(node) != 2 or None in node:
        return ""
    return f" [{float(node[0]):.4g}, {float(node[1]):.4g}]"


_MANY_POINTS = 12


def _in_unit_cube(point: Any) -> bool:
    values = [*point.prevalence.values(), *(v for row in point.accuracy.values() for v in row.values())]
    try:
        return all(0 <= v <= 1 for v in values)
    except TypeError:  # a value that does not compare with numbers
        return True


def _count(value: Any) -> str:
    """A partition cell: an exact integer as it is, anything else to one decimal."""
    if isinstance(value, (int, Fraction)) and value == int(value):
        return str(int(value))
    return f"{float(value):.1f}"


#: Answer patterns per label up to which the partition by true label is shown without ``--partition``
#: (three binary classifiers: two lines of eight counts).
PARTITION_SHOWN = 8
#: Response rates (classifiers x true labels rows) up to which they are shown without ``--responses``.
RESPONSES_SHOWN = 9
#: Trios listed one line each (the rest are counted), and alarms listed in full (more are grouped by
#: kind, one line each, the first detail cut to ``_DETAIL`` characters).
TRIOS_SHOWN = 10
ALARMS_SHOWN = 6
_DETAIL = 110


def _short(value: object) -> str:
    """A table cell: a short exact rational as it is, anything else to three decimals."""
    if value is None:
        return "undefined"
    if isinstance(value, (int, Fraction)):
        text = exact_text(value)
        if len(text) <= 6:
            return text
    try:
        return f"{float(value):.3f}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "complex"


def format_evaluation(
    result: Evaluation,
    sketch: Sketch | None = None,
    *,
    partition: bool | None = None,
    responses: bool | None = None,
) -> str:
    """A readable rendering of an evaluation: points, choice, partition, alarms, trios.

    With three or more labels (or abstentions) it keeps to a screen: each point's prevalences on
    one line and its accuracies one line per classifier (short exact rationals as they are, other
    values to three decimals; ``--json`` has every value exactly). ``partition`` (the chosen point's
    split of every pattern's count by true label) and ``responses`` (its every response rate) are
    shown when asked for, or, when ``None``, only when they are small (:data:`PARTITION_SHOWN`
    patterns per label, :data:`RESPONSES_SHOWN` rows); a line says how to see them otherwise.
    """
    compact = len(result.labels) > 2 or any(
        answer not in result.labels
        for point in result.points[:1]
        for rows in point.response.values()
        for answers in rows.values()
        for answer in answers
    )
    assumed = f"; structure {result.structure}" if result.structure is not None else ""
    lines = [
        f"method {result.method}{assumed}; labels {', '.join(result.labels)}; "
        f"classifiers {', '.join(result.classifiers)}"
    ]
    shown: list[int] = list(range(len(result.points)))
    if (
        len(result.points) > _MANY_POINTS
    ):  # e.g. K5's 140-210 real points: the chosen one and those in the unit cube
        shown = [k for k, point in enumerate(result.points) if k == result.chosen or _in_unit_cube(point)]
        lines.append(
            f"{len(result.points)} real points; shown: the chosen one and the {len(shown)} inside the unit "
            "cube (--json lists every point)"
        )
    for k in shown:
        point = result.points[k]
        mark = " (chosen)" if k == result.chosen else ""
        kind = (
            " fitted by maximum likelihood" if result.fit is not None and k == result.fit.fitted_index else ""
        )
        lines.append(f"point {k}{kind}{mark}:")
        if compact:
            lines.append(
                "  "
                + "   ".join(
                    f"P_{label} = {_short(value)}{_interval(point, 'prevalence', label)}"
                    for label, value in point.prevalence.items()
                )
            )
        else:
            for label, value in point.prevalence.items():
                lines.append(f"  P_{label} = {_exact(value)}{_interval(point, 'prevalence', label)}")
        for population, row in (getattr(point, "by_population", None) or {}).items():
            lines.append(
                f"  in {population}: " + "   ".join(f"P_{label} = {_exact(v)}" for label, v in row.items())
            )
        show = _short if compact else _exact
        for c, row in point.accuracy.items():
            lines.append(
                f"  {c}: "
                + "   ".join(
                    f"acc on {label} = {show(v)}{_interval(point, 'accuracy', c, label)}"
                    for label, v in row.items()
                )
            )
        for subset, row in (getattr(point, "correlation", None) or {}).items():
            lines.append(
                f"  correlation {', '.join(subset)}: "
                + "   ".join(f"G on {label} = {_exact(v)}" for label, v in row.items())
            )
        abstaining = any(
            answer not in result.labels
            for rows in point.response.values()
            for answers in rows.values()
            for answer in answers
        )
        if k == result.chosen and (len(result.labels) > 2 or abstaining) and point.response:
            n_rows = sum(len(by_truth) for by_truth in point.response.values())
            if responses or responses is None and n_rows <= RESPONSES_SHOWN:
                lines.append("  response rates P(answer | true label):")
                exact = all(
                    isinstance(v, (int, Fraction))
                    for by_truth in point.response.values()
                    for answers in by_truth.values()
                    for v in answers.values()
                )
                for c, by_truth in point.response.items():
                    for truth, answers in by_truth.items():
                        lines.append(
                            f"    {c} | true {truth}: "
                            + "   ".join(
                                f"{answer}: {(_exact if exact else _short)(v)}"
                                for answer, v in answers.items()
                            )
                        )
            else:
                lines.append(
                    f"  response rates P(answer | true label): {n_rows} rows (--responses shows them)"
                )
    degrees = sorted(
        {
            v.degree
            for k in shown
            for v in (
                *result.points[k].prevalence.values(),
                *(x for row in result.points[k].accuracy.values() for x in row.values()),
            )
            if isinstance(v, AlgebraicNumber)
        }
    )
    if compact and degrees:
        lines.append(
            f"values to three decimals (algebraic of degree {', '.join(map(str, degrees))}: exact in --json)"
        )
    if result.chosen is None:
        lines.append("no point chosen (see the alarms)")
    if result.fit is not None:
        lines.append(result.fit.describe())
    if result.structure_evidence is not None:
        lines.extend(result.structure_evidence.lines())
    if result.certificate is not None:
        lines.append(result.certificate.describe())
    if result.intervals is not None:
        lines.append(f"intervals: {result.intervals.text()}")
    if result.partition and result.chosen is not None:  # only when a point is chosen
        patterns = len(result.labels) ** len(result.classifiers)
        if partition or partition is None and patterns <= PARTITION_SHOWN:
            lines.append("partition of the counts by true label (chosen point):")
            for label, rows in result.partition.items():
                cells = "  ".join(f"{''.join(p)}: {_count(c)}" for p, c in rows)
                lines.append(f"  true {label}: {cells}")
        else:
            lines.append("partition of the counts by true label (chosen point): --partition shows it")
    if sketch is not None and result.point is not None and len(result.labels) == 2 and not sketch.abstain:
        try:
            distance = containing_distance(result.point, sketch).distance
            lines.append(f"distance of the chosen point from the containing variety: {distance:.3g}")
        except EvalgebraError:
            pass
    for trio in result.trios[:TRIOS_SHOWN]:
        kinds = ", ".join(sorted(trio.alarm_kinds())) or "none"
        p = trio.point
        prevalence = "-" if p is None else (_short if compact else _exact)(p.prevalence[result.labels[0]])
        first = p if p is not None else (trio.points[0] if trio.points else None)
        populations = list(getattr(first, "by_population", None) or {})
        head = (
            f"populations {', '.join(populations)}" if populations else f"trio {', '.join(trio.classifiers)}"
        )
        lines.append(f"{head}: P_{result.labels[0]} = {prevalence}; alarms: {kinds}")
    if len(result.trios) > TRIOS_SHOWN:
        lines.append(f"... and {len(result.trios) - TRIOS_SHOWN} more trios (--json lists every trio)")
    lines.append("alarms:" + ("" if result.alarms else " none"))
    if len(result.alarms) <= ALARMS_SHOWN:
        for alarm in result.alarms:
            lines.append(f"  [{alarm.kind}] {alarm.detail}")
        return "\n".join(lines)
    by_kind: dict[str, list[Any]] = {}
    for alarm in result.alarms:
        by_kind.setdefault(alarm.kind, []).append(alarm)
    for kind, alarms in by_kind.items():  # one line per kind: the first detail, and how many there are
        detail = alarms[0].detail
        detail = detail if len(detail) <= _DETAIL else detail[: _DETAIL - 3] + "..."
        more = f" ({len(alarms)} alarms of this kind)" if len(alarms) > 1 else ""
        lines.append(f"  [{kind}]{more} {detail}")
    lines.append("  (--json has every alarm in full)")
    return "\n".join(lines)


def _derive_and_write(n_classifiers: int, structure: list[Any], folder: Any) -> tuple[str, int]:
    """Derive the evaluator of ``structure`` and write it to the cache ``folder``: ``(path, degree)``."""
    from evalgebra.codegen.cache import write_cached_module
    from evalgebra.codegen.structures import derive_structure

    form = derive_structure(
        n_classifiers, structure, lambda message: print(f"evalgebra: {message}", file=sys.stderr)
    )
    return str(write_cached_module(folder, form)), form.degree


def _derive_missing(structure: Any, sketch: Sketch) -> None:
    """Derive the generated evaluator of ``structure`` into the cache folder when there is none (stderr
    says so).

    The derivation runs as a supervised child under the run's time limit (``--time-limit``, as every
    Gröbner step): past it, the run stops with one line and nothing is written.
    """
    from evalgebra.evaluators.correlated.structure_lookup import MissingStructureModule, cache_dir
    from evalgebra.evaluators.correlated.structured import structure_match
    from evalgebra.groebner.runner import GroebnerTimeout, run_limited
    from evalgebra.structures import structure_text

    try:
        structure_match(structure, sketch.classifiers, sketch.n_labels)
    except MissingStructureModule as missing:
        if missing.n_labels != 2:
            raise
        folder = cache_dir()
        text = structure_text(missing.structure)
        print(
            f"evalgebra: deriving the evaluator of structure {text} on {missing.n_classifiers} classifiers "
            "into "
            f"{folder} (once; this can take minutes)",
            file=sys.stderr,
        )
        target, degree = run_limited(
            _derive_and_write,
            missing.n_classifiers,
            list(missing.structure),
            folder,
            label=f"--derive of structure {text}",
        )
        print(f"evalgebra: wrote {target} (eliminant of degree {degree})", file=sys.stderr)
    except GroebnerTimeout:
        raise
    except EvalgebraError:
        pass  # refused for another reason: evaluate says why


def run(args: argparse.Namespace) -> int:
    """Evaluate the sketch ``args`` names and print the result; the exit status (1: a failed check)."""
    sketch = read_sketch(args)
    if args.classifiers:
        sketch = sketch.marginalise([c.strip() for c in args.classifiers.split(",") if c.strip()])
    options: dict[str, Any] = {}
    decodings = [
        flag
        for flag, value in (
            ("--prevalence-range", args.prevalence_range),
            ("--prevalence-order", args.prevalence_order),
            ("--known-prevalences", args.known_prevalences),
        )
        if value
    ]
    if decodings and args.method != "algebraic":
        raise EvalgebraError(f"{decodings[0]} applies to the algebraic method")
    if len(decodings) > 1:
        raise EvalgebraError(f"{' and '.join(decodings)}: give one decoding rule")
    if args.prevalence_range:
        options = {"decoding": "prevalence_range", "prevalence_range": tuple(args.prevalence_range)}
    elif args.prevalence_order:
        options = {
            "prevalence_order": [name.strip() for name in args.prevalence_order.split(",") if name.strip()]
        }
    elif args.known_prevalences:
        options = {"known_prevalences": args.known_prevalences}
    fail_on = set(args.fail_on or ())
    if "below_spec" in fail_on and args.min_accuracy is None:
        raise EvalgebraError("--fail-on below_spec needs --min-accuracy X (the threshold to check)")
    structure = (
        "auto"
        if args.structure == "auto"
        else structure_value(args.structure, sketch.classifiers)
        if args.structure
        else None
    )
    if structure not in (None, "auto") and args.derive:
        _derive_missing(structure, sketch)
    if args.method == "algebraic" and structure in (None, "auto"):
        check_trios(sketch.n_classifiers, args.force, sketch.n_labels)
    if args.intervals is None and (
        args.level is not None or args.n_boot is not None or args.seed is not None
    ):
        raise EvalgebraError("--level, --n-boot and --seed apply to --intervals bootstrap|delta")
    if args.intervals is not None:
        options["intervals"] = args.intervals
        options.update(
            {
                name: value
                for name, value in (("level", args.level), ("n_boot", args.n_boot), ("seed", args.seed))
                if value is not None
            }
        )
    if args.certify and (args.no_fit or args.intervals is not None):
        raise EvalgebraError("--certify certifies the fitted point: not with --no-fit or --intervals")
    if args.certify:
        options["certify"] = True
    result = evaluate(sketch, method=args.method, structure=structure, fit=not args.no_fit, **options)
    shown = {"partition": args.partition or None, "responses": args.responses or None}
    sys.stdout.write(
        result.to_json() + "\n" if args.json else format_evaluation(result, sketch, **shown) + "\n"
    )
    failed = args.fail_on_alarm and bool(result.alarms)
    if args.min_accuracy is not None:
        below = below_spec(result, args.min_accuracy, strict=not args.non_strict, show=_exact)
        for message in below:
            print(f"evalgebra: below the specification: {message}", file=sys.stderr)
        failed = failed or bool(below) and (not args.fail_on or "below_spec" in fail_on)
    raised = sorted(fail_on & result.alarm_kinds())
    if raised:
        print(f"evalgebra: alarms named by --fail-on: {', '.join(raised)}", file=sys.stderr)
    return 1 if failed or raised else 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``evaluate`` command to the subcommands ``sub``; its parser."""
    ev = sub.add_parser("evaluate", help="evaluate an ensemble from its sketch alone")
    ev.add_argument("sketch", help="sketch JSON v1 (labels, if present, are ignored)")
    ev.add_argument(
        "--method",
        choices=METHODS,
        default="algebraic",
        help="algebraic (default: exact, independent errors, any number of labels), majority "
        "(majority vote) or hui_walter (two tests on two or more populations)",
    )
    ev.add_argument(
        "--classifiers",
        default=None,
        metavar="c1,c2,...",
        help="evaluate these classifiers only (names, comma-separated)",
    )
    ev.add_argument(
        "--structure",
        default=None,
        metavar="0-1,2-3",
        help="independent (default, as in every command), or correlated subsets like 0-1,0-2 (indices "
        "or names, as for point/polys; indices count the classifiers in the order --classifiers "
        "gives, else the sketch's): the algebraic method then evaluates binary classifiers whose "
        "errors may correlate on them, exactly; a structure that is not identifiable, or whose "
        "correlations the counts leave free, is refused (exit 2); or auto: fit every identifiable "
        "pair structure of the atlas and evaluate the one of smallest BIC (which judges are "
        "dependent, in words; every candidate's evidence under structure_evidence in --json)",
    )
    ev.add_argument(
        "--derive",
        action="store_true",
        help="with --structure: derive a missing evaluator into the cache folder first ($EVALGEBRA_CACHE, "
        "else ~/.cache/evalgebra/structures; progress on stderr; can take minutes)",
    )
    ev.add_argument(
        "--prevalence-range",
        nargs=2,
        metavar=("LO", "HI"),
        type=rational,
        help=f"decode to the point whose first-label prevalence lies in [LO, HI] ({RATIONAL_HELP})",
    )
    ev.add_argument(
        "--prevalence-order",
        metavar="a,b,c",
        default=None,
        help="three or more labels: decode to the point whose labels, most prevalent first, "
        "come in this order (every label once)",
    )
    ev.add_argument(
        "--known-prevalences",
        metavar="a=1/2,b=1/3,...",
        type=label_values,
        default=None,
        help="three or more labels: decode to the point nearest these prevalences (every label, "
        f"summing to 1; {RATIONAL_HELP})",
    )
    ev.add_argument(
        "--min-accuracy",
        type=rational,
        default=None,
        metavar="X",
        help="check that the chosen point puts every classifier above X on every label; exit "
        f"with status 1 when not (unless --fail-on omits below_spec) ({RATIONAL_HELP})",
    )
    ev.add_argument(
        "--non-strict", action="store_true", help="--min-accuracy means 'at least X', not 'above X'"
    )
    ev.add_argument(
        "--fail-on",
        metavar="KINDS",
        default=None,
        type=lambda v: accepted_names(v, EVALUATE_FAILURES),
        help="exit with status 1 on these, comma-separated: below_spec (the --min-accuracy check) "
        f"or alarm kinds ({', '.join(sorted(ALARM_KINDS))})",
    )
    ev.add_argument(
        "--intervals",
        choices=("bootstrap", "delta"),
        default=None,
        help="confidence intervals for every statistic of the chosen point: a seeded multinomial "
        "bootstrap over the counts (with the fit, every resample refitted from the fitted point; "
        "--no-fit: the exact evaluator on every resample), or the delta method (closed forms, the "
        "exact points); shown as [low, high]",
    )
    ev.add_argument(
        "--level",
        type=float,
        default=None,
        metavar="L",
        help="confidence level of --intervals (default 0.95)",
    )
    ev.add_argument(
        "--n-boot",
        type=int,
        default=None,
        metavar="B",
        help="bootstrap resamples of --intervals bootstrap (default 1000)",
    )
    ev.add_argument("--seed", type=int, default=None, help="random seed of --intervals bootstrap")
    ev.add_argument("--json", action="store_true", help="print evalgebra.evaluation/1 JSON")
    ev.add_argument(
        "--partition",
        action="store_true",
        help="show the partition of every pattern's count by true label (by default only for up to "
        f"{PARTITION_SHOWN} patterns per label, e.g. three binary classifiers; --json always has it)",
    )
    ev.add_argument(
        "--responses",
        action="store_true",
        help="show every response rate P(answer | true label) of the chosen point (by default only up "
        f"to {RESPONSES_SHOWN} rows, e.g. three classifiers with three labels; --json always has them)",
    )
    ev.add_argument(
        "--fail-on-alarm",
        action="store_true",
        help="exit with status 1 when any alarm is raised (irrational included: --fail-on names kinds)",
    )
    deprecated_flag(ev, "--strict", "--fail-on-alarm")
    ev.add_argument(
        "--no-fit",
        action="store_true",
        help="the exact points alone: no maximum-likelihood fit (by default the algebraic method, with "
        "independent errors or a --structure, also fits the model from its exact points and majority "
        "vote, and "
        "chooses the fitted point unless the counts lie exactly on the model; the JSON's "
        "'verdict' says which: exact, fitted, fit_rejected or none)",
    )
    ev.add_argument(
        "--certify",
        action="store_true",
        help="prove (or refute) that the fitted point is the global maximum of the likelihood: solve the "
        "score equations exactly (msolve) and bound every boundary stratum; binary classifiers with "
        "independent errors; within --time-limit, else undecided. The JSON's 'certificate' holds "
        "global_maximum (true, false or undecided, with the reason) and critical_points",
    )
    ev.add_argument(
        "--force",
        action="store_true",
        help=f"run an algebraic evaluation estimated at more than {SECONDS_LIMIT} s (by default refused "
        f"up front: C(N,3) trios, each solving R! assignments of the hidden labels; at two labels "
        f"more than {TRIO_LIMIT} trios, at four labels more than 40)",
    )
    input_options(ev)
    ev.set_defaults(run=run)
    return ev
