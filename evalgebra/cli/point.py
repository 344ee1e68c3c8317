r"""``evalgebra point SKETCH.json``: the exact evaluation point of a labelled sketch.

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.data.point import evaluation_point
>>> text = format_point(evaluation_point(datasets.load("acs_employment"), structure="independent"))
>>> print("\n".join(text.splitlines()[2:6]))
  P_a = 1/10 = 2000/20000 (0.1)
  P_b = 9/10 = 18000/20000 (0.9)
response rates P(classifier answers r | true label):
  c1 | true a: a: 251/500 = 1004/2000 (0.502)  b: 249/500 = 996/2000 (0.498)
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from evalgebra.cli.args import input_options, read_sketch, structure_value
from evalgebra.cli.guards import CORRELATION_LIMIT, check_correlations
from evalgebra.data.point import EvaluationPoint, evaluation_point

__all__ = ["format_point", "register", "run"]


def _fraction(value: Fraction | None, total: Fraction | int | None = None) -> str:
    """``3/4 = 1500/2000 (0.75)``: the reduced fraction, the counts it comes from (when ``total``,
    the items it is a share of, makes them whole numbers) and its decimal value."""
    if value is None:
        return "undefined"
    counts = ""
    if total is not None and total and (value * total).denominator == 1:
        numerator, denominator = int(value * total), int(total)
        if (numerator, denominator) != (value.numerator, value.denominator):
            counts = f" = {numerator}/{denominator}"
    return f"{value}{counts} ({float(value):.6g})" if value.denominator != 1 else f"{value}{counts}"


def _label_totals(point: EvaluationPoint) -> list[Fraction | None]:
    """Items with each true label, over the populations whose rows the point shares."""
    sizes = point.sizes or ((point.Q,) if point.spec.n_populations == 1 else ())
    if len(sizes) != len(point.prevalence) or any(size is None for size in sizes):
        return [None] * point.spec.n_labels
    return [
        sum((Fraction(size or 0) * row[ell] for size, row in zip(sizes, point.prevalence)), Fraction(0))
        for ell in range(point.spec.n_labels)
    ]


def format_point(point: EvaluationPoint) -> str:
    """A readable, exact rendering of an evaluation point: every rate as a reduced fraction next to
    the counts it comes from (``P_a = 1/10 = 2000/20000 (0.1)``), then its decimal value."""
    spec = point.spec
    totals = _label_totals(point)
    labels = spec.labels
    lines = [
        f"Q = {point.Q} items; labels {', '.join(labels)}; classifiers {', '.join(spec.classifiers)}",
    ]
    for s, pop in enumerate(spec.populations):
        head = (
            "prevalence"
            if spec.n_populations == 1
            else f"prevalence in {pop} (Q = {point.sizes[s] if point.sizes else '?'})"
        )
        lines.append(head + ":")
        size = point.sizes[s] if point.sizes else (point.Q if spec.n_populations == 1 else None)
        for ell, value in enumerate(point.prevalence[s]):
            lines.append(f"  P_{labels[ell]} = {_fraction(value, size)}")
    lines.append("response rates P(classifier answers r | true label):")
    for i, rows in enumerate(point.response):
        for ell, row in enumerate(rows):
            cells = (
                "undefined (no items)"
                if row is None
                else "  ".join(f"{labels[r]}: {_fraction(v, totals[ell])}" for r, v in enumerate(row))
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


def run(args: argparse.Namespace) -> int:
    """Print the evaluation point of the sketch ``args`` names; the exit status."""
    sketch = read_sketch(args)
    structure = structure_value(args.structure, sketch.classifiers)
    check_correlations(sketch.n_classifiers, sketch.n_labels, structure, args.force)
    point = evaluation_point(sketch, structure=structure, population=args.population)
    sys.stdout.write(point.to_json() if args.json else format_point(point) + "\n")
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``point`` command to the subcommands ``sub``; its parser."""
    point = sub.add_parser("point", help="exact evaluation point of a labelled sketch")
    point.add_argument("sketch", help="sketch JSON v1 with by_true_label counts")
    point.add_argument(
        "--structure",
        default="independent",
        help="independent (default, as in every command: prevalences and response rates), "
        "complete (every correlation too: the point at which the complete generating set "
        "reproduces the sketch) or subsets like 0-1,1-2 (ASCII indices or names)",
    )
    point.add_argument(
        "--population", default=None, help="one population's point (default: all populations, rows shared)"
    )
    point.add_argument("--json", action="store_true", help="print evalgebra.point/1 JSON")
    point.add_argument(
        "--force",
        action="store_true",
        help=f"compute more than {CORRELATION_LIMIT} correlation values (R times the sum of "
        "R^|T| over the correlated subsets T: the complete structure on 9 binary "
        "classifiers has 39328)",
    )
    input_options(point)
    point.set_defaults(run=run)
    return point
