r"""d04: an identifiability atlas: which correlation structures still allow finitely many evaluations.

For N = 3, 4, 5 binary classifiers and correlation structures up to isomorphism, the
evaluation variety of a random correlated test is projected to the basic statistics
(prevalence and the 2N accuracies) with :mod:`evalgebra.groebner.identifiability`:

* the generic dimension of the projection, from exact Jacobian ranks at random rational
  points (``dim = (2N + 1) - rank dF + rank dF/dc``);
* the Gröbner dimension (every component of the projection over C), from an exact
  elimination with the test's numbers as observations, and the agreement of the two;
* for a finite projection its degree (points with multiplicity over C) and the numbers
  of distinct complex and real points (Hermite's trace form); for a positive-dimensional
  one its degree in the basic statistics, where that computation is run.

Structures (canonical representatives, see ``evalgebra.structures.enumerate_structures``):

* N = 3: every hypergraph (8 classes: the 4 graphs and the 4 structures with the triple);
* N = 4: every hypergraph (180 classes; the 11 graphs and 20 downward-closed structures
  among them);
* N = 5: the graphs with at most 3 edges, the path, star, cycle and complete graphs, one
  triple, two triples sharing a classifier, the triangle with its triple, all ten triples
  and the complete structure (``--full``: every one of the 34 graphs).

Default run: Gröbner computations for N = 3 and 4, degrees of positive-dimensional
projections for N = 3 and the N = 4 downward-closed structures; N = 5 rows carry the
Jacobian dimension only. ``--full`` adds every Gröbner computation (and the 34 graphs on
N = 5) with a time limit per computation (``--time-limit``); entries that do not finish
are reported as such ("elimination timeout", "degree timeout"), so the full table
depends on the machine's speed and is not the committed one.

Anchors, computed: three independent classifiers give two evaluations (*Algebraic
Evaluation Theorems* (Corrada-Emmanuel), Theorem 2); the complete structure leaves a
projection of dimension N + 1 (*Streaming algorithms for evaluating noisy judges on
unlabeled data - binary classification* (Corrada-Emmanuel), Theorem 4; d03).
Equivariance: every N = 4 graph, relabelled at random, gives the same row. See
``docs/theory.md#identifiability-of-correlated-structures``.

Usage: ``python derivations/d04_identifiability.py [--seed 0] [--check] [--full]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, atlas_cell, atlas_cells, atlas_table, canonical_argv  # noqa: E402

from evalgebra.groebner.identifiability import Identifiability, identifiability  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.structures import enumerate_structures, structure_code  # noqa: E402

NAME = "d04_identifiability"


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random evaluation points (default 0)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    parser.add_argument("--full", action="store_true", help="every Gröbner computation, N = 5 graphs too")
    parser.add_argument(
        "--time-limit", type=float, default=300.0, help="seconds per Gröbner computation (default 300)"
    )
    return parser.parse_args(list(argv) if argv is not None else None)


def _plan(full: bool) -> list[tuple[int, tuple, bool, bool]]:
    """``(N, structure, groebner, degree)`` for every row, in table order."""
    plan = []
    for n in (3, 4):
        complexes = set(enumerate_structures(n, "complexes"))
        for s in enumerate_structures(n, "hypergraphs"):
            plan.append((n, s, True, full or n == 3 or s in complexes))
    families = ("sparse", "named", "graphs") if full else ("sparse", "named")
    chosen = sorted({s for f in families for s in enumerate_structures(5, f)}, key=lambda s: (len(s), s))
    plan += [(5, s, full, full) for s in chosen]
    return plan


def _relabelled(n: int, structure: tuple, rng: random.Random) -> tuple:
    perm = list(range(n))
    rng.shuffle(perm)
    return EnsembleSpec(n, 2, [tuple(perm[i] for i in s) for s in structure]).structure


def atlas(
    max_n: int = 5,
    seed: int = 0,
    full: bool = False,
    time_limit: float = 300.0,
    timings: dict[int, float] | None = None,
) -> dict[tuple[int, tuple], Identifiability]:
    """Every row of the atlas for ``3 <= N <= max_n``, keyed by ``(N, structure)``, in table order.

    ``timings``, when given, receives the wall time per N.
    """
    results: dict[tuple[int, tuple], Identifiability] = {}
    for n, s, groebner, degree in _plan(full):
        if n > max_n:
            continue
        start = time.perf_counter()
        results[(n, s)] = identifiability(
            EnsembleSpec(n, 2, s), seed=seed, time_limit=time_limit, groebner=groebner, degree=degree
        )
        if timings is not None:
            timings[n] = timings.get(n, 0.0) + time.perf_counter() - start
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    keys = ("seed", "full", "time_limit") if args.full else ("seed",)
    plan = _plan(args.full)
    report = Report(
        f"{NAME}.py", canonical_argv(args, keys), [f"{n}:{structure_code(s)}:{g}:{d}" for n, s, g, d in plan]
    )
    failures = 0
    elapsed: dict[int, float] = {}
    results = atlas(5, args.seed, args.full, args.time_limit, elapsed)
    for n, seconds in elapsed.items():
        print(f"d04: N = {n}: {seconds:.1f} s", file=sys.stderr)

    report.section(
        "Atlas: R = 2, the evaluation variety of a random correlated test projected to "
        "(prevalence, 2N accuracies)"
    )
    report.lines(
        [
            "unknowns = 1 + 2N + 2|S| (|S| correlated subsets), observables = 2^N - 1;",
            "rank, rank_c = generic ranks of dF and dF/dcorrelations (exact, max over 2 random rational "
            "points);",
            "dim = (2N + 1) - rank + rank_c: generic dimension of the projection (0: finitely many "
            "evaluations);",
            "gb_dim = dimension of the projection from an exact Gröbner elimination (all components over C);",
            "degree = points with multiplicity when finite, else the degree of the projection's closure;",
            "points, real = distinct complex and real points of a finite projection (Hermite's trace form);",
            "truth = the test's true evaluation point lies on the computed projection; '-' = not computed.",
            "",
        ]
    )
    report.lines(atlas_table([atlas_cells(results[(n, s)]) for n, s, _, _ in plan]))

    report.section("Summary by N: structures per projection dimension; degrees of the finite ones")
    for n in (3, 4, 5):
        rows = [r for (m, _), r in results.items() if m == n]
        by_dim: dict[int, int] = {}
        for r in rows:
            by_dim[r.dimension] = by_dim.get(r.dimension, 0) + 1
        degrees: dict[str, int] = {}
        for r in rows:
            if r.finite:
                key = "?" if r.degree is None else str(r.degree)
                degrees[key] = degrees.get(key, 0) + 1
        report.line(
            f"N = {n}: {len(rows)} structures; by dimension "
            + ", ".join(f"{d}: {c}" for d, c in sorted(by_dim.items()))
            + "; finite ones by degree "
            + ", ".join(f"{d}: {c}" for d, c in sorted(degrees.items()))
        )
        more = [r for r in rows if r.finite and r.unknowns > r.observables]
        report.line(f"  finite although unknowns > observables: {len(more)}")

    report.section("Checks")
    independent = results[(3, ())]
    ok = (independent.dimension, independent.groebner_dimension, independent.degree, independent.points) == (
        0,
        0,
        2,
        2,
    )
    report.line(
        f"N = 3 independent: dimension {independent.dimension}, Gröbner dimension "
        f"{independent.groebner_dimension}, {independent.points} points ({independent.real_points} real): "
        f"{'yes' if ok else 'NO'} (expected finite with 2 points)"
    )
    failures += not ok
    for n in (3, 4, 5):
        complete = results[(n, EnsembleSpec(n, 2, "complete").structure)]
        ok = complete.dimension == n + 1 and complete.groebner_dimension in (None, n + 1)
        report.line(
            f"N = {n} complete structure: dimension {complete.dimension}, Gröbner dimension "
            f"{atlas_cell(complete.groebner_dimension)}, degree {atlas_cell(complete.degree)}: "
            f"{'yes' if ok else 'NO'} (expected N + 1 = {n + 1})"
        )
        failures += not ok
    compared = [r for r in results.values() if r.groebner_dimension is not None]
    disagree = [r for r in compared if r.groebner_dimension != r.dimension]
    report.line(
        f"Jacobian dimension = Gröbner dimension: {len(compared) - len(disagree)} of {len(compared)} "
        f"structures where both ran"
    )
    for r in disagree:
        report.line(
            f"  differs: N = {r.n_classifiers} {structure_code(r.structure)}: "
            f"{r.dimension} vs {r.groebner_dimension}"
        )
    off = [r for r in results.values() if r.contains_truth is False]
    report.line(f"the true evaluation point lies on every computed projection: {'yes' if not off else 'NO'}")
    failures += len(off)
    rng = random.Random(f"d04 relabelling {args.seed}")
    same = 0
    graphs = enumerate_structures(4, "graphs")
    for s in graphs:
        copy = identifiability(
            EnsembleSpec(4, 2, _relabelled(4, s, rng)),
            seed=args.seed,
            time_limit=args.time_limit,
            degree=True,
        )
        original = results[(4, s)]
        same += (
            atlas_cells(copy)[3:] == atlas_cells(original)[3:]
            or (original.status != "ok" or copy.status != "ok")
            and copy.dimension == original.dimension
        )
    report.line(
        f"equivariance: {same} of {len(graphs)} N = 4 graphs, relabelled at random, give the same row"
    )
    failures += same != len(graphs)
    timeouts = [r for r in results.values() if r.status.endswith("timeout")]
    report.line(f"computations that hit the time limit: {len(timeouts)}")

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d04: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
