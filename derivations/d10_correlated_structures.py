r"""d10: correlated structures with finitely many evaluations: eliminant degrees, shape lemma, closed forms.

For every structure of the identifiability atlas (derivation d04, two labels) whose projection
to the basic statistics is finite -- every such structure on N = 3 and 4 classifiers (pairs and
larger subsets) and the pair structures on N = 5 -- this script

* solves the exact expected sketch of a random correlated test (:func:`random_point`, seed
  ``--seed``) by the Gröbner reference route
  (:func:`evalgebra.groebner.structured.structured_solution`): the degree of the eliminant in
  ``prev_a``, the degrees of its irreducible factors, whether the shape lemma holds over every
  factor (every unknown a polynomial in ``prev_a``), how many points are rational, and whether
  the truth is among them;
* derives the structure's generated evaluator (:func:`evalgebra.codegen.structures.derive_structure`)
  and checks that its eliminant, evaluated on the same counts, equals the reference's exactly
  (``gen``: yes / NO / the reason it was not derived);
* where the eliminant has degree 2 and a trio ``ijk`` of classifiers contains no correlated
  subset, checks symbolically that the eliminant is that trio's quadratic
  ``(D_ijk^2 + 4 D_ij D_ik D_jk) (P_a^2 - P_a) + D_ij D_ik D_jk`` (three independent
  classifiers, "Algebraic Evaluation Theorems", Theorem 2), i.e.
  ``P_a = 1/2 (1 -+ D_ijk / sqrt(D_ijk^2 + 4 D_ij D_ik D_jk))``.

Times depend on the machine: they go to ``--timings FILE`` (not compared), never into the table.
``--max-n 4`` keeps the N <= 4 rows; ``--limit SECONDS`` bounds each Gröbner computation and
each derivation.

Usage: ``python derivations/d10_correlated_structures.py [--seed 0] [--check] [--max-n 5] [--timings FILE]``
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, canonical_argv  # noqa: E402

import sympy  # noqa: E402

from evalgebra.codegen.printer import CodegenError  # noqa: E402
from evalgebra.codegen.structure_modules import atlas_index  # noqa: E402
from evalgebra.codegen.structures import derive_structure  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.groebner.coordinates import sketch_moments  # noqa: E402
from evalgebra.groebner.identifiability import random_point  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.groebner.runner import GroebnerTimeout  # noqa: E402
from evalgebra.groebner.structured import structured_solution  # noqa: E402
from evalgebra.groebner.structures import structure_name, structure_text  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.variables import auxiliary_name  # noqa: E402

NAME = "d10_correlated_structures"
COLUMNS = ("N", "structure", "name", "points", "degree", "factors", "shape", "rational", "truth", "free",
           "gen", "method", "closed form")


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the random correlated tests (default 0)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument("--check", action="store_true", help="compare with the result file instead of writing it")
    parser.add_argument("--max-n", type=int, default=5, choices=(3, 4, 5), help="largest N (default 5)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per computation (default 120)")
    parser.add_argument("--timings", type=Path, help="write the measured times here")
    return parser.parse_args(list(argv) if argv is not None else None)


def finite_structures(max_n: int = 5) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
    """The finite two-label structures of the atlas, N <= max_n, in the atlas's order."""
    return [(r["n_classifiers"], tuple(tuple(s) for s in r["structure"])) for r in atlas_index()
            if r["n_labels"] == 2 and r["finite"] and r["n_classifiers"] <= max_n]


def _free_values(point: Any) -> dict[str, Fraction]:
    from evalgebra.builder import GeneratingSet

    registry = GeneratingSet(point.spec).registry
    return {str(registry.symbol(k)): v for k, v in point.free_values().items()}


def _independent_trios(n: int, structure: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    """The trios of classifiers that hold no correlated subset."""
    return [trio for trio in ((i, j, k) for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n))
            if not any(set(s) <= set(trio) for s in structure)]


def _trio_quadratic(moments: dict[str, Fraction], trio: tuple[int, int, int]) -> tuple[Fraction, ...] | None:
    """The monic quadratic ``P_a^2 - P_a + c/a`` of an independent trio (low -> high), from exact moments."""
    i, j, k = trio
    d = {t: moments["D_" + "_".join(map(str, t))] for t in ((i, j), (i, k), (j, k), trio)}
    c = d[(i, j)] * d[(i, k)] * d[(j, k)]
    a = d[trio] ** 2 + 4 * c
    return (c / a, Fraction(-1), Fraction(1)) if a else None


def _derive_only(n: int, structure: tuple[tuple[int, ...], ...], limit: float,
                 timings: dict[str, float]) -> tuple[str, str]:
    """``(gen, method)`` cells when there is no reference to compare with."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        form = derive_structure(n, structure)
        timings["derivation"] = time.perf_counter() - start
        return f"derived, degree {form.degree} (unchecked)", f"{form.method} ({form.parameter})"
    except _Timeout:
        return "timeout", "-"
    except CodegenError as error:
        return "no", str(error).split(": ", 1)[-1][:60]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def row(n: int, structure: tuple[tuple[int, ...], ...], seed: int, limit: float,
        points: int | None = None) -> tuple[list[str], dict[str, float]]:
    """The table cells of one structure and its timings."""
    spec = EnsembleSpec(n, 2, structure)
    point = random_point(spec, seed)
    sketch = expected_sketch(point)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    try:
        solution = structured_solution(spec, sketch, time_limit=limit)
    except (GroebnerTimeout, EOFError, OSError) as error:  # a time limit, or the engine's process died
        reason = f"timeout ({limit:g} s)" if isinstance(error, GroebnerTimeout) else "engine process died"
        gen, method = _derive_only(n, structure, limit, timings)
        cells = [str(n), structure_text(structure), structure_name(n, structure),
                 str(points if points is not None else "-")] + ["-"] * 6 + [gen, method, f"Gröbner route: {reason}"]
        return cells, timings
    timings["groebner"] = time.perf_counter() - start
    factors = "+".join(str(c.degree) for c in solution.components)
    truth = {k: v for k, v in _free_values(point).items() if k in solution.unknowns} in solution.points
    gen, method, closed = "-", "-", "-"
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        form = derive_structure(n, structure)
        timings["derivation"] = time.perf_counter() - start
        counts = {str(c): int(v) for c, v in zip(form.counts, sketch.count_vector())}
        values = dict(counts)
        for name, expr in form.prelude:
            values[name] = int(expr.xreplace({sympy.Symbol(k): v for k, v in values.items()}))
        coefficients = [Fraction(int(c.xreplace({sympy.Symbol(k): v for k, v in values.items()})))
                        for c in form.eliminant]
        monic = tuple(c / coefficients[-1] for c in coefficients) if coefficients[-1] else ()
        gen = "yes" if monic == solution.eliminant else "NO"
        method = f"{form.method} ({form.parameter})"
    except _Timeout:
        gen = "timeout"
    except CodegenError as error:
        gen = "no"
        method = str(error).split(": ", 1)[-1][:60]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    trios = _independent_trios(n, structure)
    if solution.degree == 2:
        moments = {str(k): v for k, v in sketch_moments(sketch).items()}
        match = [t for t in trios if _trio_quadratic(moments, t) == solution.eliminant]
        closed = (f"trio {''.join(map(str, match[0]))} quadratic: yes" if match else
                  "independent trio, not its quadratic: NO" if trios else "degree 2, no independent trio")
    cells = [str(n), structure_text(structure), structure_name(n, structure), str(points if points is not None else "-"),
             str(solution.degree), factors, "yes" if solution.shape else "NO", str(len(solution.points)),
             "yes" if truth else "NO", str(solution.correlation_freedom), gen, method, closed]
    return cells, timings


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in rows + [list(COLUMNS)]) for k in range(len(COLUMNS))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [fmt(list(COLUMNS)), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    keys = ("seed", "max_n") if args.max_n != 5 else ("seed",)
    cases = finite_structures(args.max_n)
    points = {(r["n_classifiers"], tuple(tuple(s) for s in r["structure"])): r["points"] for r in atlas_index()
              if r["n_labels"] == 2}
    report = Report(f"{NAME}.py", canonical_argv(args, keys), [f"{n}:{s}" for n, s in cases])
    report.section("Finite correlated structures (R = 2): the eliminant in P_a of a random correlated test")
    report.lines([
        "points = distinct points of the projection in the atlas (d04; '-' = not counted there);",
        "degree = degree of the eliminant in prev_a (Gröbner route, exact sketch of a random correlated test);",
        "factors = degrees of its irreducible factors; shape = every unknown is a polynomial in prev_a over",
        "every factor (the shape lemma); rational = rational points; truth = the test's point is among them;",
        "free = dimension of the correlations left free (then eliminated: the points are prevalence and accuracies);",
        "gen = the generated evaluator's eliminant equals the Gröbner route's on these counts (no: not derived,",
        "reason under method); closed form = for degree 2, a trio holding no correlated subset whose quadratic",
        "(D_ijk^2 + 4 D_ij D_ik D_jk)(P_a^2 - P_a) + D_ij D_ik D_jk equals the eliminant on these counts, so that",
        "P_a = 1/2 (1 -+ D_ijk / sqrt(D_ijk^2 + 4 D_ij D_ik D_jk)) (the three-independent closed form).",
        "",
    ])
    rows, timings = [], []
    for n, structure in cases:
        cells, times = row(n, structure, args.seed, args.limit, points.get((n, structure)))
        rows.append(cells)
        timings.append((cells[1], n, times))
        print(f"d10: N = {n} {cells[1]}: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items()), file=sys.stderr)
    report.lines(_table(rows))
    report.section("Summary")
    failures = 0
    for n in range(3, args.max_n + 1):
        mine = [r for r in rows if r[0] == str(n)]
        degrees: dict[str, int] = {}
        for r in mine:
            degrees[r[4]] = degrees.get(r[4], 0) + 1
        report.line(f"N = {n}: {len(mine)} finite structures; eliminant degrees "
                    + ", ".join(f"{d}: {c}" for d, c in sorted(degrees.items())) + "; generated and equal: "
                    + str(sum(r[10] == "yes" for r in mine)) + "; with free correlations: "
                    + str(sum(r[9] not in ("0", "-") for r in mine)))
    wrong = [r for r in rows if r[8] == "NO" or r[10] == "NO" or r[6] == "NO" or r[12].endswith("NO")]
    report.line(f"truth among the points, shape lemma, generated = Gröbner, trio closed forms: "
                f"{'yes' if not wrong else 'NO: ' + ', '.join(r[1] for r in wrong)}")
    failures += len(wrong)
    mismatch = [r for r in rows if r[3] != "-" and r[4] != "-" and r[3] != r[4]]
    report.line(f"eliminant degree = atlas point count wherever both are known: "
                f"{'yes' if not mismatch else 'NO: ' + ', '.join(r[1] for r in mismatch)}")
    failures += len(mismatch)
    if args.timings:
        args.timings.write_text("".join(f"N={n} {s}: " + ", ".join(f"{k} {v:.3f} s" for k, v in t.items()) + "\n"
                                        for s, n, t in timings), encoding="utf-8")
    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d10: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
