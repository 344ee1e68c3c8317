r"""d15: the ML degree of the small models, and the real critical points of sampled tests.

The score equations of a model (:func:`evalgebra.builder.score.score_equations` for any spec,
:func:`evalgebra.likelihood.independent.binary_score_system` for independent binary classifiers in
moment coordinates; one implementation underneath, :mod:`evalgebra.likelihood.score`) have, for
generic counts, as many complex solutions as the model's ML degree in parameter space (Catanese,
Hosten, Khetan and Sturmfels, "The maximum likelihood degree"; Hosten, Khetan and Sturmfels,
"Solving the likelihood equations"). Computed here for each model on several seeded random data
sets (multinomial counts of a random point of the independent model, ``Q = 1000``):

* the number of solutions modulo the prime ``1073741827`` (msolve, ``-P 1`` over the prime field:
  the ML degree, equal over the rationals for all but finitely many primes);
* for the models msolve solves over the rationals within the limit, the same number over the
  rationals, and the real critical points inside the parameter box (certified boxes);
* the two routes (builder, moment coordinates) on the models both cover, which must agree.

Each computation has ``--time-limit`` seconds (default 120); a model whose first data set runs out
of time is reported as such and its other data sets are not tried. Timings, with the engine and
the machine, go to ``results/d15_timings.txt`` (not compared).

Usage: ``python derivations/d15_ml_degree.py [--seed 0] [--time-limit 120] [--quick] [--check]``;
``--quick`` (three binary classifiers only, seconds) writes ``results/d15_ml_degree_quick.txt``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from _common import RESULTS  # noqa: E402

from evalgebra.builder.score import score_equations  # noqa: E402
from evalgebra.engines import EngineTimeout, msolve_binary  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.likelihood.independent import binary_score_system, rates_from_moments  # noqa: E402
from evalgebra.likelihood.solve import MSOLVE_PRIME, count_solutions, solve_score  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

DATA_SETS = 3
SIZE = 1000
#: (name, classifiers, labels, structure, routes): the models of the issue, smallest first.
MODELS = (
    ("three binary, independent", 3, 2, (), ("moments", "builder")),
    ("four binary, independent", 4, 2, (), ("moments", "builder")),
    ("four binary, one correlated pair", 4, 2, ((0, 1),), ("builder",)),
    ("three classifiers, three labels, independent", 3, 3, (), ("builder",)),
)


def random_counts(rng: np.random.Generator, n: int, r: int) -> list[int]:
    """``SIZE`` multinomial counts of every pattern (base-``r`` order) of a random independent point."""
    prevalence = rng.dirichlet(np.full(r, 4.0))
    rates = np.empty((n, r, r))
    for i in range(n):
        for ell in range(r):
            row = rng.dirichlet(np.full(r, 1.0))
            row[ell] += 2.0  # better than chance
            rates[i, ell] = row / row.sum()
    probabilities = []
    for pattern in itertools.product(range(r), repeat=n):
        probabilities.append(
            sum(prevalence[ell] * np.prod([rates[i, ell, pattern[i]] for i in range(n)]) for ell in range(r))
        )
    return [int(c) for c in rng.multinomial(SIZE, np.array(probabilities) / sum(probabilities))]


def system_of(route: str, n: int, r: int, structure: tuple[tuple[int, ...], ...], counts: list[int]):  # noqa: ANN201
    if route == "moments":
        return binary_score_system(counts)
    return score_equations(EnsembleSpec(n, r, structure=list(structure)), counts)


def inside_box(route: str, counts: list[int], n: int, boxes) -> int:  # noqa: ANN001
    """Real solutions whose prevalence and rates lie strictly inside (0, 1) (box midpoints; for the table)."""
    total = sum(counts)
    found = 0
    for box in boxes:
        mid = [float((lo + hi) / 2) for lo, hi in box]
        if route == "moments":
            marginal = [
                sum(c for code, c in enumerate(counts) if (code >> (n - 1 - i)) & 1) / total for i in range(n)
            ]
            p, low, high = rates_from_moments(mid[0], mid[1:], marginal)
            values = [p, *low, *high]
        else:
            values = mid
        found += all(0 < v < 1 for v in values)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="d15_ml_degree.py", description=__doc__.strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--quick", action="store_true", help="three binary classifiers only")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(list(argv) if argv is not None else None)
    out = args.out or RESULTS / ("d15_ml_degree_quick.txt" if args.quick else "d15_ml_degree.txt")
    if msolve_binary() is None:
        print("d15 needs msolve (make setup)")
        return 1
    canonical = [
        "--seed",
        str(args.seed),
        "--time-limit",
        f"{args.time_limit:g}",
        *(["--quick"] if args.quick else []),
    ]
    report = Report(
        "d15_ml_degree.py", canonical, [repr(MODELS), str(SIZE), str(DATA_SETS), str(MSOLVE_PRIME)]
    )
    timings = []
    models = MODELS[:1] if args.quick else MODELS
    rng = np.random.default_rng(args.seed)
    data = {(n, r): [random_counts(rng, n, r) for _ in range(DATA_SETS)] for _, n, r, _, _ in MODELS}
    summary = []
    for name, n, r, structure, routes in models:
        report.section(f"{name} (N = {n}, R = {r}, structure {list(structure)})")
        for route in routes:
            degrees = []
            for k, counts in enumerate(data[(n, r)]):
                system = system_of(route, n, r, structure, counts)
                start = time.perf_counter()
                try:
                    degree = count_solutions(system, time_limit=args.time_limit)
                except EngineTimeout:
                    seconds = time.perf_counter() - start
                    timings.append(f"{name}  {route}  data {k}  modulo p  timeout after {seconds:.1f} s")
                    report.line(
                        f"{route}: data set {k}: msolve modulo {MSOLVE_PRIME} did not finish within "
                        f"{args.time_limit:g} s ({len(system.variables())} unknowns); "
                        "further data sets not tried"
                    )
                    degrees.append(None)
                    break
                seconds = time.perf_counter() - start
                timings.append(f"{name}  {route}  data {k}  modulo p  {seconds:.2f} s  degree {degree}")
                line = f"{route}: data set {k}: {degree} solutions modulo {MSOLVE_PRIME}"
                start = time.perf_counter()
                try:
                    found = solve_score(system, time_limit=args.time_limit)
                    seconds = time.perf_counter() - start
                    timings.append(f"{name}  {route}  data {k}  rationals  {seconds:.2f} s")
                    line += (
                        f"; over the rationals {found.degree} complex, {len(found.boxes)} real, "
                        f"{inside_box(route, counts, n, found.boxes)} inside the parameter box"
                    )
                except EngineTimeout:
                    timings.append(f"{name}  {route}  data {k}  rationals  timeout")
                    line += f"; over the rationals not within {args.time_limit:g} s"
                report.line(line)
                degrees.append(degree)
            known = sorted({d for d in degrees if d is not None})
            summary.append(
                f"{name}, {route}: ML degree {known[0] if len(known) == 1 else known or 'not reached'}"
                + (f" on {len(degrees)} data sets" if known else "")
            )
    report.section("summary")
    report.lines(summary)
    status = compare_or_write(report, out, args.check)
    if not args.check:
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        header = [
            f"# d15 timings (msolve {msolve_binary()}; {machine}; shared machine, one thread)",
            *timings,
        ]
        (RESULTS / ("d15_timings_quick.txt" if args.quick else "d15_timings.txt")).write_text(
            "\n".join(header) + "\n", encoding="utf-8"
        )
    for line in summary:
        print(line)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
