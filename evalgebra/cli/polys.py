r"""``evalgebra polys --classifiers N --labels R``: print the generating set.

The generating set is built by :mod:`evalgebra.builder` (SymPy), imported when the command runs,
so that the rest of the command line starts without it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from evalgebra.cli.args import count, structure_value
from evalgebra.cli.guards import POLYNOMIAL_LIMIT, TERM_LIMIT, check_polys
from evalgebra.spec import EnsembleSpec

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Print the generating set ``args`` describes; the exit status."""
    from evalgebra.builder import GeneratingSet  # SymPy: only when polynomials are built

    structure = structure_value(args.structure)
    check_polys(
        args.classifiers,
        args.labels,
        args.populations or 1,
        structure,
        expanded=args.expand or args.format == "json",
        force=args.force,
    )
    spec = EnsembleSpec(args.classifiers, args.labels, structure, args.populations)
    gs = GeneratingSet(spec, args.space)
    if args.format == "json":
        sys.stdout.write(gs.to_json() + "\n")
    elif args.format == "latex":
        print(gs.to_latex(expand=args.expand))
    else:
        print(gs.to_text(expand=args.expand))
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``polys`` command to the subcommands ``sub``; its parser."""
    polys = sub.add_parser("polys", help="print the generating set")
    polys.add_argument("--classifiers", type=count, required=True, metavar="N", help="number of classifiers")
    polys.add_argument(
        "--labels",
        type=lambda v: count(v, 2),
        required=True,
        metavar="R",
        help="number of labels (at least 2)",
    )
    polys.add_argument(
        "--structure",
        default="independent",
        help="independent (default, as in every command), complete, or subsets like 0-1,1-2 (ASCII indices)",
    )
    polys.add_argument(
        "--space",
        choices=["P", "R"],
        default="P",
        help="P: in frequencies and rates (default); R: in integer counts",
    )
    polys.add_argument(
        "--populations",
        type=count,
        default=None,
        metavar="K",
        help="K populations sharing the response rates (default 1)",
    )
    polys.add_argument(
        "--format",
        choices=["text", "latex", "json"],
        default="text",
        help="json holds the expanded polynomials",
    )
    polys.add_argument("--expand", action="store_true", help="expand the products")
    polys.add_argument(
        "--force",
        action="store_true",
        help=f"build more than {POLYNOMIAL_LIMIT} polynomials (K R^N) or print more than "
        f"{TERM_LIMIT} products (K R^N R (1 + |T|); expanded, about K (2R-1)^(N+1) (1 + |T|) "
        "terms); more than 2^62 answer patterns or 10^9 terms are refused even so",
    )
    polys.set_defaults(run=run)
    return polys
