r"""d09: the identifiability atlas for R = 3 labels: pair structures on N = 3 and 4 classifiers.

For every graph up to isomorphism (4 on N = 3, 11 on N = 4) the evaluation variety of a
random correlated test with R = 3 labels is projected to the basic statistics (2
prevalences and the 6N free response rates) with
:func:`evalgebra.groebner.identifiability.identifiability`:

* the generic dimension of the projection from exact Jacobian ranks at random rational
  points (``dim = (2 + 6N) - rank dF + rank dF/dc``);
* for a finite projection, the numeric evaluation ideal of the test's exact sketch with
  its correlations eliminated (msolve when installed, else Singular or python-flint, each
  call under ``--time-limit``): its points with multiplicity, distinct complex and real
  (Hermite's trace form), and whether the true point lies on it. A row whose elimination
  does not finish in time says "elimination timeout", so the point columns of the slow
  rows depend on the machine; ``--max-n 3`` gives the fast rows only.

Anchor: three independent classifiers give R! = 6 evaluations (the label permutations of
the truth; d05 and d07). See ``docs/theory.md#identifiability-of-correlated-structures``.

Usage: ``python derivations/d09_identifiability_many_labels.py [--seed 0] [--check] [--max-n 4]``
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, atlas_cells, atlas_table, canonical_argv  # noqa: E402

row_cells = atlas_cells  # the cells of one row, as the tests read them

from evalgebra.groebner.identifiability import Identifiability, identifiability  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.structures import enumerate_structures  # noqa: E402

NAME = "d09_identifiability_many_labels"
LABELS = 3


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random evaluation points (default 0)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    parser.add_argument("--max-n", type=int, default=4, choices=(3, 4), help="largest N (default 4)")
    parser.add_argument(
        "--time-limit", type=float, default=120.0, help="seconds per Gröbner computation (default 120)"
    )
    return parser.parse_args(list(argv) if argv is not None else None)


def atlas(max_n: int = 4, seed: int = 0, time_limit: float = 120.0) -> list[Identifiability]:
    """Every row for ``3 <= N <= max_n``, graphs in the order of
    :func:`~evalgebra.structures.enumerate_structures`."""
    return [
        identifiability(EnsembleSpec(n, LABELS, s), seed=seed, time_limit=time_limit)
        for n in range(3, max_n + 1)
        for s in enumerate_structures(n, "graphs")
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    keys = ("seed", "max_n", "time_limit") if args.max_n != 4 or args.time_limit != 120.0 else ("seed",)
    inputs = [
        str(EnsembleSpec(n, LABELS, s))
        for n in range(3, args.max_n + 1)
        for s in enumerate_structures(n, "graphs")
    ]
    report = Report(f"{NAME}.py", canonical_argv(args, keys), inputs)
    rows = atlas(args.max_n, args.seed, args.time_limit)
    report.section(
        f"Atlas: R = {LABELS}, pair structures, the evaluation variety of a random correlated test "
        "projected to (2 prevalences, 6N response rates)"
    )
    report.lines(
        [
            "unknowns = 2 + 6N + 12|S| (|S| correlated pairs), observables = 3^N - 1;",
            "rank, rank_c = generic ranks of dF and dF/dcorrelations (exact, max over 2 random rational "
            "points);",
            "dim = (2 + 6N) - rank + rank_c: generic dimension of the projection (0: finitely many "
            "evaluations);",
            "gb_dim, degree = dimension and points with multiplicity of the numeric ideal, correlations "
            "eliminated;",
            "points, real = distinct complex and real points (Hermite's trace form); truth = the test's true "
            "point",
            "lies on it; '-' = not computed (positive dimension, or the elimination hit the time limit).",
            "",
        ]
    )
    report.lines(atlas_table([atlas_cells(r) for r in rows]))
    report.section("Summary")
    failures = 0
    for n in range(3, args.max_n + 1):
        mine = [r for r in rows if r.n_classifiers == n]
        finite = [r for r in mine if r.finite]
        counted = [r for r in finite if r.points is not None]
        report.line(
            f"N = {n}: {len(mine)} graphs, {len(finite)} with a finite projection, "
            f"{len(counted)} counted: points " + ", ".join(sorted({str(r.points) for r in counted}))
        )
    independent = rows[0]
    ok = (independent.dimension, independent.points, independent.real_points) == (0, 6, 6)
    report.line(
        f"N = 3 independent: dimension {independent.dimension}, {independent.points} points "
        f"({independent.real_points} real) = R! = 6: {'yes' if ok else 'NO'}"
    )
    failures += not ok
    off = [r for r in rows if r.contains_truth is False]
    report.line(f"the true evaluation point lies on every computed projection: {'yes' if not off else 'NO'}")
    failures += len(off)
    bad = [r for r in rows if r.groebner_dimension not in (None, 0)]
    report.line(
        f"Gröbner dimension 0 wherever the Jacobian dimension is 0 and the count finished: "
        f"{'yes' if not bad else 'NO'}"
    )
    failures += len(bad)
    timeouts = [r for r in rows if r.status.endswith("timeout")]
    report.line(f"computations that hit the time limit ({args.time_limit:g} s each): {len(timeouts)}")
    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d09: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
