r"""d12: the identifiability atlas on five and six classifiers, every pair structure, run as Dask tasks.

Every pair structure (graph up to isomorphism: 34 on N = 5, 156 on N = 6) of binary
classifiers is one independent case of :func:`evalgebra.distributed.atlas.atlas_case`:

* phase 1, every case: the generic dimension of the projection of the evaluation variety to
  (prevalence, 2N accuracies), from exact Jacobian ranks at random rational points;
* phase 2, every case whose generic dimension is 0: an exact Gröbner elimination with a
  random correlated test's numbers as observations, under a time limit per computation
  (``--time-limit``), giving the Gröbner dimension, the number of points with multiplicity
  and of distinct complex and real points ("-" when it did not finish in time, status
  ``elimination timeout``).

The cases run as Dask tasks on a ``LocalCluster`` of ``--workers`` processes (``0``: one after
another in this process). With workers, phase 1 and the N = 5 cases of phase 2 are also run
serially, and the rows are compared (they must be identical) and timed: the speed-up of the
workers over one process. The table is written to ``results/d12_atlas_five_six.txt``; wall
times and speed-ups, which depend on the machine, to ``results/d12_atlas_five_six_timing.txt``.

Anchors, computed: the independent structure gives two evaluations (*Algebraic Evaluation
Theorems* (Corrada-Emmanuel), Theorem 2); the four-classifier atlas (d04) rows are reproduced
by the same case function in the tests (tests/distributed/test_sweep.py). See
``docs/theory.md#identifiability-of-correlated-structures``.

Usage: ``python derivations/d12_atlas_five_six.py [--workers 2] [--time-limit 60] [--check]``
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, atlas_cells, atlas_table  # noqa: E402

from evalgebra.distributed.atlas import atlas_case, case_cost, pair_structures  # noqa: E402
from evalgebra.distributed.sweep import SweepResult, local_cluster, run_sweep  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.structures import structure_code  # noqa: E402

NAME = "d12_atlas_five_six"
SIZES = (5, 6)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random evaluation points (default 0)"
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="seconds per Gröbner computation (default 60); slower cases show '-'",
    )
    parser.add_argument(
        "--workers",
        "--dask",
        type=int,
        default=2,
        dest="workers",
        help="Dask worker processes on a LocalCluster (default 2; 0: serial, no Dask)",
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), help="numbers of classifiers (default 5 6)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    return parser.parse_args(list(argv) if argv is not None else None)


def _run(cases: list[tuple], client: Any, serial_too: bool, what: str, log: list[str]) -> SweepResult:
    """Run ``cases`` on the client (and serially too, compared and timed, when asked)."""
    result = run_sweep(atlas_case, cases, client=client, cost=case_cost)
    line = (
        f"{what}: {len(cases)} cases, {result.seconds:.1f} s wall on {result.workers or 1} "
        f"{'Dask worker(s)' if result.workers else 'process (serial)'}, "
        f"{sum(result.case_seconds):.1f} s summed over cases"
    )
    if serial_too and client is not None:
        serial = run_sweep(atlas_case, cases)
        same = serial.values == result.values
        line += (
            f"; serial {serial.seconds:.1f} s; speed-up {serial.seconds / result.seconds:.2f}x; "
            f"rows identical: {'yes' if same else 'NO'}"
        )
        if not same:
            raise SystemExit(f"d12: {what}: the Dask rows differ from the serial rows")
    print(f"d12: {line}", file=sys.stderr, flush=True)
    log.append(line)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    graphs = {n: pair_structures(n) for n in args.sizes}
    argv = [
        "--seed",
        str(args.seed),
        "--time-limit",
        f"{args.time_limit:g}",
        "--sizes",
        *map(str, args.sizes),
    ]
    report = Report(f"{NAME}.py", argv, [f"{n}:{structure_code(s)}" for n in args.sizes for s in graphs[n]])
    log: list[str] = []
    start = time.perf_counter()
    cluster = local_cluster(args.workers) if args.workers > 0 else contextlib.nullcontext(None)
    with cluster as client:
        jacobian_cases = [(n, s, args.seed, args.time_limit, False) for n in args.sizes for s in graphs[n]]
        jacobian = _run(jacobian_cases, client, True, "phase 1 (Jacobian dimension, every graph)", log)
        finite = [c[:4] + (True,) for c, row in zip(jacobian_cases, jacobian.values) if row.dimension == 0]
        rows = {(c[0], c[1]): row for c, row in zip(jacobian_cases, jacobian.values)}
        for n in args.sizes:
            cases = [c for c in finite if c[0] == n]
            done = _run(
                cases, client, n == min(args.sizes), f"phase 2 (Gröbner, N = {n}, finite graphs)", log
            )
            rows.update({(c[0], c[1]): row for c, row in zip(cases, done.values)})
    total = time.perf_counter() - start

    report.section(
        f"Atlas: R = 2, every pair structure on N = {' and '.join(map(str, args.sizes))} classifiers, "
        "projected to (prevalence, 2N accuracies)"
    )
    report.lines(
        [
            "columns as in d04: unknowns = 1 + 2N + 2|S|, observables = 2^N - 1; rank, rank_c = generic "
            "ranks of dF and",
            "dF/dcorrelations; dim = (2N + 1) - rank + rank_c; gb_dim, degree, points, real from an exact "
            "Gröbner",
            "elimination (finite projections only; '-' = not computed or over the time limit); truth = the "
            "test's",
            "true evaluation point lies on the computed projection.",
            "",
        ]
    )
    ordered = [(n, s) for n in args.sizes for s in graphs[n]]
    report.lines(atlas_table([atlas_cells(rows[key]) for key in ordered]))

    report.section("Summary by N")
    failures = 0
    for n in args.sizes:
        these = [rows[(n, s)] for s in graphs[n]]
        by_dim: dict[int, int] = {}
        for r in these:
            by_dim[r.dimension] = by_dim.get(r.dimension, 0) + 1
        counted = [r for r in these if r.points is not None]
        points: dict[str, int] = {}
        for r in counted:
            key = f"{r.points} ({r.real_points} real, degree {r.degree})"
            points[key] = points.get(key, 0) + 1
        timeouts = sum(r.status.endswith("timeout") for r in these)
        report.line(
            f"N = {n}: {len(these)} graphs; by generic dimension "
            + ", ".join(f"{d}: {c}" for d, c in sorted(by_dim.items()))
        )
        report.line(
            f"  Gröbner finished for {len(counted)} of {sum(r.dimension == 0 for r in these)} finite graphs "
            f"({timeouts} over the time limit); points: "
            + (", ".join(f"{k}: {c}" for k, c in sorted(points.items())) or "-")
        )
        disagree = [
            r for r in these if r.groebner_dimension is not None and r.groebner_dimension != r.dimension
        ]
        off = [r for r in these if r.contains_truth is False]
        report.line(
            f"  Jacobian dimension = Gröbner dimension wherever both ran: {'yes' if not disagree else 'NO'}; "
            f"the true point lies on every computed projection: {'yes' if not off else 'NO'}"
        )
        failures += len(disagree) + len(off)
    independent = [rows[(n, ())] for n in args.sizes]
    ok = all(r.dimension == 0 and r.points in (None, 2) for r in independent)
    report.line(f"independent classifiers: finite with 2 points where counted: {'yes' if ok else 'NO'}")
    report.line(
        "the Dask rows equal the serial rows (phase 1, and phase 2 on the smallest N): checked on every run"
    )
    failures += not ok

    status = compare_or_write(report, args.out, args.check)
    if not args.check:
        timing = [
            f"# Wall times of derivations/{NAME}.py on {platform.node() or 'this machine'} "
            f"({platform.processor() or platform.machine()}), machine-dependent",
            f"# arguments: {' '.join(argv)} --workers {args.workers}",
            *log,
            f"total wall time (with the serial comparisons and the cluster start): {total:.1f} s",
        ]
        args.out.with_name(f"{args.out.stem}_timing.txt").write_text(
            "\n".join(timing) + "\n", encoding="utf-8"
        )
    if failures:
        print(f"d12: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
