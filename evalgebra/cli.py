r"""The ``evalgebra`` command line.

Commands
--------
``evalgebra example``
    The main job on bundled data: sketch the ACS employment items, print their exact
    evaluation point and the complete generating set, and check that the set reproduces
    the sketch exactly.
``evalgebra sketch ITEMS.csv [--truth COLUMN] [--population COLUMN] [-o OUT.json]``
    Count an items CSV (header row, one column per classifier) into sketch JSON v1.
``evalgebra point SKETCH.json [--structure S] [--json]``
    The exact evaluation point of a labelled sketch.
``evalgebra polys --classifiers N --labels R [--structure S] [--space P|R]
[--populations K] [--format text|latex|json] [--expand]``
    Print the generating set.

Errors in the input print ``evalgebra: error: ...`` and exit with status 2.

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
from fractions import Fraction

from evalgebra import datasets
from evalgebra.builder import GeneratingSet
from evalgebra.errors import EvalgebraError
from evalgebra.runtime.point import EvaluationPoint, evaluation_point
from evalgebra.runtime.sketch import Sketch
from evalgebra.fileio import write_text_atomic
from evalgebra.spec import EnsembleSpec

__all__ = ["main", "build_parser", "format_point"]


def _structure_arg(value: str) -> object:
    """``independent``, ``complete`` or subsets like ``0-1,1-2`` (indices or names)."""
    if value in ("independent", "complete"):
        return value
    subsets = []
    for part in value.split(","):
        members = [m.strip() for m in part.split("-") if m.strip()]
        subsets.append([int(m) if m.isdigit() else m for m in members])
    return subsets


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
            lines.append("  (two labels: the other responses follow by sign, MATH.md section 2)")
    return "\n".join(lines)


def _cmd_example(args: argparse.Namespace) -> int:
    csv_path = datasets.items_csv("acs_employment")
    sketch = Sketch.from_csv(csv_path, truth="truth")
    print(f"# sketch of {csv_path.name} (seed 002, Table 1: ACS employment, three classifiers)")
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
    return 0 if exact else 1


def _cmd_sketch(args: argparse.Namespace) -> int:
    sketch = Sketch.from_csv(args.items, truth=args.truth, population=args.population)
    if args.output:
        write_text_atomic(args.output, sketch.to_json())
        print(f"wrote {args.output}: {sketch!r}", file=sys.stderr)
    else:
        sys.stdout.write(sketch.to_json())
    return 0


def _cmd_point(args: argparse.Namespace) -> int:
    sketch = Sketch.read_json(args.sketch)
    point = evaluation_point(sketch, structure=_structure_arg(args.structure))
    sys.stdout.write(point.to_json() if args.json else format_point(point) + "\n")
    return 0


def _cmd_polys(args: argparse.Namespace) -> int:
    spec = EnsembleSpec(
        args.classifiers, args.labels, _structure_arg(args.structure), args.populations
    )
    gs = GeneratingSet(spec, args.space)
    if args.format == "json":
        sys.stdout.write(gs.to_json() + "\n")
    elif args.format == "latex":
        print(gs.to_latex(expand=args.expand))
    else:
        print(gs.to_text(expand=args.expand))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``evalgebra`` command."""
    parser = argparse.ArgumentParser(
        prog="evalgebra",
        description="Exact algebraic evaluation of classifier ensembles on unlabelled data.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    example = sub.add_parser("example", help="sketch, evaluation point and generating set of bundled data")
    example.set_defaults(run=_cmd_example)

    sketch = sub.add_parser("sketch", help="count an items CSV into sketch JSON")
    sketch.add_argument("items", help="CSV with a header row, one column per classifier")
    sketch.add_argument("--truth", metavar="COLUMN", help="column with the true labels")
    sketch.add_argument("--population", metavar="COLUMN", help="column with each item's population")
    sketch.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: stdout)")
    sketch.set_defaults(run=_cmd_sketch)

    point = sub.add_parser("point", help="exact evaluation point of a labelled sketch")
    point.add_argument("sketch", help="sketch JSON v1 with by_true_label counts")
    point.add_argument("--structure", default="complete",
                       help="independent, complete (default) or subsets like 0-1,1-2")
    point.add_argument("--json", action="store_true", help="print evalgebra.point/1 JSON")
    point.set_defaults(run=_cmd_point)

    polys = sub.add_parser("polys", help="print the generating set")
    polys.add_argument("--classifiers", type=int, required=True, metavar="N")
    polys.add_argument("--labels", type=int, required=True, metavar="R")
    polys.add_argument("--structure", default="independent",
                       help="independent (default), complete, or subsets like 0-1,1-2")
    polys.add_argument("--space", choices=["P", "R"], default="P")
    polys.add_argument("--populations", type=int, default=None, metavar="K")
    polys.add_argument("--format", choices=["text", "latex", "json"], default="text")
    polys.add_argument("--expand", action="store_true", help="expand the products")
    polys.set_defaults(run=_cmd_polys)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except EvalgebraError as exc:
        print(f"evalgebra: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
