r"""d10: correlated structures with finitely many evaluations: eliminant degrees, shape lemma, closed forms.

For every structure of the identifiability atlas (derivation d04, two labels) whose projection
to the basic statistics is finite -- every such structure on N = 3 and 4 classifiers (pairs and
larger subsets) and the pair structures on N = 5 -- this script

* solves the exact expected sketch of a random correlated test (:func:`random_point`, seed
  ``--seed``) by the Gröbner reference route
  (:func:`evalgebra.groebner.structured_route.structured_solution`): the degree of the eliminant in
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

The published table (``--markdown``, default ``results/d10_correlated_structures.md``, compared
under ``--check`` like the text result) has one row per structure: the number of evaluations, the
eliminant's degree, the shape lemma, whether the counts determine the correlations (free
dimension from the Gröbner route), and for degree 2 the closed form. Every degree-2 eliminant is
``A (P_a^2 - P_a) + C`` (the label swap ``P_a <-> 1 - P_a`` maps its roots onto each other), and
``A - 4C`` is a square ``K^2``, so that

    P_a = 1/2 (1 -+ K / sqrt(K^2 + 4 C)),

the form of the three-independent closed form (``K = D_ijk``, ``C = D_ij D_ik D_jk`` for an
independent trio). The table prints ``K`` and ``C`` in the moments ``D_T``: the trio's where an
independent trio's quadratic equals the eliminant, else those of the generated evaluator's
eliminant (in the count moments ``E_T = Q^|T| D_T``; ``K^2`` and ``C`` have the same weight, so
``E`` reads as ``D``), found symbolically by factoring ``A - 4C``.

Times depend on the machine: they go to ``--timings FILE`` (not compared), never into the table.
``--max-n 4`` keeps the N <= 4 rows; ``--limit SECONDS`` bounds each Gröbner computation and
each derivation.

Usage: ``python derivations/d10_correlated_structures.py [--seed 0] [--check] [--max-n 5] [--timings FILE]``
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sympy  # noqa: E402
from _common import RESULTS, canonical_argv  # noqa: E402

from evalgebra.codegen.printer import CodegenError  # noqa: E402
from evalgebra.codegen.structure_modules import atlas_index  # noqa: E402
from evalgebra.codegen.structures import derive_structure  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.evaluators.correlated.structure_freedom import independent_trios  # noqa: E402
from evalgebra.groebner.coordinates import sketch_moments  # noqa: E402
from evalgebra.groebner.identifiability import random_point  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.groebner.runner import GroebnerTimeout  # noqa: E402
from evalgebra.groebner.structured_route import structured_solution  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.structures import structure_code, structure_name  # noqa: E402

NAME = "d10_correlated_structures"
COLUMNS = (
    "N",
    "structure",
    "name",
    "points",
    "degree",
    "factors",
    "shape",
    "rational",
    "truth",
    "free",
    "gen",
    "method",
    "closed form",
)


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the random correlated tests (default 0)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument("--markdown", type=Path, default=RESULTS / f"{NAME}.md", help="the published table")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    parser.add_argument("--max-n", type=int, default=5, choices=(3, 4, 5), help="largest N (default 5)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per computation (default 120)")
    parser.add_argument("--timings", type=Path, help="write the measured times here")
    return parser.parse_args(list(argv) if argv is not None else None)


def finite_structures(max_n: int = 5) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
    """The finite two-label structures of the atlas, N <= max_n, in the atlas's order."""
    return [
        (r["n_classifiers"], tuple(tuple(s) for s in r["structure"]))
        for r in atlas_index()
        if r["n_labels"] == 2 and r["finite"] and r["n_classifiers"] <= max_n
    ]


def _free_values(point: Any) -> dict[str, Fraction]:
    from evalgebra.builder import GeneratingSet

    registry = GeneratingSet(point.spec).registry
    return {str(registry.symbol(k)): v for k, v in point.free_values().items()}


def _moment_text(expr: Any) -> str:
    """A polynomial in the ``E_T`` (or ``D_T``) as compact text in ``D_T``: ``D_023^2 + 4 D_02 D_03 D_23``."""
    text = str(expr).replace("**", "^").replace("*", " ")
    return re.sub(r"\b[ED]((?:_\d+)+)\b", lambda m: "D_" + m.group(1).replace("_", ""), text)


def _weight(expr: Any) -> set[int]:
    """The weights (sum of ``|T|`` over the factors ``E_T``) of the monomials of ``expr``."""
    poly = sympy.Poly(sympy.expand(expr), *sorted(expr.free_symbols, key=str))
    sizes = [len(str(g).split("_")) - 1 for g in poly.gens]
    return {sum(e * k for e, k in zip(monomial, sizes)) for monomial in poly.monoms()}


def discriminant_form(eliminant: Sequence[Any]) -> tuple[Any, Any] | None:
    """``(K, C)`` with the quadratic ``eliminant`` (low -> high) ``= A (P^2 - P) + C`` and
    ``A = K^2 + 4 C``; else None."""
    if len(eliminant) != 3:
        return None
    c, b, a = (sympy.expand(x) for x in eliminant)
    if sympy.expand(a + b) != 0:
        return None
    coefficient, factors = sympy.factor_list(sympy.expand(a - 4 * c))
    root = sympy.sqrt(coefficient)
    if not root.is_Rational or any(e % 2 for _, e in factors):
        return None
    k = root * sympy.Mul(*(f ** (e // 2) for f, e in factors))
    if len(_weight(k)) != 1 or _weight(c) != {2 * w for w in _weight(k)}:
        return None  # not homogeneous: E_T would not read as D_T
    return k, sympy.factor(c)


def _trio_quadratic(moments: dict[str, Fraction], trio: tuple[int, int, int]) -> tuple[Fraction, ...] | None:
    """The monic quadratic ``P_a^2 - P_a + c/a`` of an independent trio (low -> high), from exact moments."""
    i, j, k = trio
    d = {t: moments["D_" + "_".join(map(str, t))] for t in ((i, j), (i, k), (j, k), trio)}
    c = d[(i, j)] * d[(i, k)] * d[(j, k)]
    a = d[trio] ** 2 + 4 * c
    return (c / a, Fraction(-1), Fraction(1)) if a else None


def _derive_only(
    n: int, structure: tuple[tuple[int, ...], ...], limit: float, timings: dict[str, float]
) -> tuple[str, str]:
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


def row(
    n: int, structure: tuple[tuple[int, ...], ...], seed: int, limit: float, points: int | None = None
) -> tuple[list[str], dict[str, float], tuple[str, str] | None]:
    """The table cells of one structure, its timings, and for degree 2 the closed form's
    ``(K, C)`` as text."""
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
        cells = (
            [
                str(n),
                structure_code(structure),
                structure_name(n, structure),
                str(points if points is not None else "-"),
            ]
            + ["-"] * 6
            + [gen, method, f"Gröbner route: {reason}"]
        )
        return cells, timings, None
    timings["groebner"] = time.perf_counter() - start
    factors = "+".join(str(c.degree) for c in solution.components)
    truth = {k: v for k, v in _free_values(point).items() if k in solution.unknowns} in solution.points
    gen, method, closed = "-", "-", "-"
    derived: tuple[Any, Any] | None = None
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
        coefficients = [
            Fraction(int(c.xreplace({sympy.Symbol(k): v for k, v in values.items()}))) for c in form.eliminant
        ]
        monic = tuple(c / coefficients[-1] for c in coefficients) if coefficients[-1] else ()
        gen = "yes" if monic == solution.eliminant else "NO"
        method = f"{form.method} ({form.parameter})"
        if gen == "yes" and solution.degree == 2:
            derived = discriminant_form(form.eliminant)
    except _Timeout:
        gen = "timeout"
    except CodegenError as error:
        gen = "no"
        method = str(error).split(": ", 1)[-1][:60]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    trios = independent_trios(structure, n)
    form_text: tuple[str, str] | None = None
    if solution.degree == 2:
        moments = {str(k): v for k, v in sketch_moments(sketch).items()}
        match = [t for t in trios if _trio_quadratic(moments, t) == solution.eliminant]
        closed = (
            f"trio {''.join(map(str, match[0]))} quadratic: yes"
            if match
            else "independent trio, not its quadratic: NO"
            if trios
            else "no independent trio; generated K, C"
            if derived
            else "no independent trio; not derived"
        )
        if match:
            i, j, k = match[0]
            form_text = (f"D_{i}{j}{k}", f"D_{i}{j} D_{i}{k} D_{j}{k}")
        elif derived is not None:
            form_text = (_moment_text(derived[0]), _moment_text(derived[1]))
    cells = [
        str(n),
        structure_code(structure),
        structure_name(n, structure),
        str(points if points is not None else "-"),
        str(solution.degree),
        factors,
        "yes" if solution.shape else "NO",
        str(len(solution.points)),
        "yes" if truth else "NO",
        str(solution.correlation_freedom),
        gen,
        method,
        closed,
    ]
    return cells, timings, form_text


MARKDOWN_COLUMNS = (
    "N",
    "structure",
    "name",
    "evaluations",
    "eliminant degree",
    "shape lemma",
    "correlations",
    "closed form: K",
    "closed form: C",
)


def markdown_row(cells: Sequence[str], form: tuple[str, str] | None) -> str:
    """One structure's row of the published table, from its text-table cells and closed form."""
    n, structure, name, points, degree, shape, free = (
        cells[0],
        cells[1],
        cells[2],
        cells[3],
        cells[4],
        cells[6],
        cells[9],
    )
    evaluations = points if points != "-" else degree if degree != "-" else "finite (atlas)"
    correlations = {"-": "-", "0": "determined"}.get(free, f"free (dimension {free})")
    if degree == "-":
        shape, correlations = "-", "not solved: " + cells[12].split(": ", 1)[-1]
    shown = "`-`" if structure == "-" else f"`{structure}`"
    closed = [f"`{form[0]}`", f"`{form[1]}`"] if form else ["-", "-"]
    return "| " + " | ".join([n, shown, name, evaluations, degree, shape, correlations, *closed]) + " |"


def _markdown(header: str, rows: list[list[str]], forms: list[tuple[str, str] | None]) -> str:
    lines = [
        f"<!-- {header} -->",
        "# Correlated binary classifiers with finitely many evaluations",
        "",
        "Every correlation structure of the identifiability atlas (derivation d04, two labels) whose "
        "prevalence and",
        "accuracies are finitely many: all of them on three and four classifiers (pairs and larger subsets), "
        "and the",
        "family computed on five. A structure lists its correlated subsets (`01 023`: classifiers 0, 1 and "
        "0, 2, 3",
        "may err together; `-`: independent errors). Computed by `derivations/d10_correlated_structures.py` "
        "on the",
        "exact sketch of a random correlated test per structure (details and checks in",
        "`d10_correlated_structures.txt` beside this file).",
        "",
        "- **evaluations**: points (prevalence, accuracies) that explain a generic sketch, counted by the "
        "atlas;",
        "  on five classifiers the eliminant's degree (one point per root: the shape lemma holds).",
        "- **eliminant degree**: degree in `P_a` of the eliminant (Gröbner route); **shape lemma**: every "
        "other",
        "  unknown is a polynomial in `P_a` over each irreducible factor.",
        "- **correlations**: *determined* (each evaluation has one value of every correlation of the "
        "structure) or",
        "  *free* (a family of that dimension at each evaluation: `evaluate(sketch, structure=...)` refuses "
        "these",
        "  and names a trio the structure leaves independent).",
        "- **closed form**, where the eliminant has degree 2: it is `(K^2 + 4 C)(P_a^2 - P_a) + C`, so",
        "  `P_a = 1/2 (1 -+ K / sqrt(K^2 + 4 C))`, with `D_T` the joint central moments of the answers `b`",
        "  (`f_T`: frequency of every classifier of `T` answering `b`; `D_ij = f_ij - f_i f_j`,",
        "  `D_ijk = f_ijk - f_i D_jk - f_j D_ik - f_k D_ij - f_i f_j f_k`). Where a trio `ijk` holds no",
        "  correlated subset, its three-independent quadratic is the eliminant (`K = D_ijk`); else `K` and "
        "`C`",
        "  come from the generated evaluator's eliminant, factored symbolically.",
        "",
        "| " + " | ".join(MARKDOWN_COLUMNS) + " |",
        "|" + "|".join(" --- " for _ in MARKDOWN_COLUMNS) + "|",
    ]
    lines += [markdown_row(r, f) for r, f in zip(rows, forms)]
    lines += [
        "",
        "All ten pairs on five classifiers (K5) is not solved here, but it is evaluated: derivation d13 "
        "reduces",
        "its generating set to six equations in the prevalence and the five Youden differences, whose "
        "solutions",
        "number 404 (complex) on a generic sketch, with no closed form. `evaluate(sketch, structure=K5)` "
        "finds",
        "them per sketch by certified path tracking (msolve's parametrisation when tracking does not settle "
        "a",
        "sketch); the correlations are then determined (`d13_complete_pairs.txt`).",
    ]
    return "\n".join(lines) + "\n"


class _Text:
    """A finished text for :func:`compare_or_write`."""

    def __init__(self, text: str) -> None:
        self._text = text

    def text(self) -> str:
        return self._text


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in rows + [list(COLUMNS)]) for k in range(len(COLUMNS))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [fmt(list(COLUMNS)), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    keys = ("seed", "max_n") if args.max_n != 5 else ("seed",)
    cases = finite_structures(args.max_n)
    points = {
        (r["n_classifiers"], tuple(tuple(s) for s in r["structure"])): r["points"]
        for r in atlas_index()
        if r["n_labels"] == 2
    }
    report = Report(f"{NAME}.py", canonical_argv(args, keys), [f"{n}:{s}" for n, s in cases])
    report.section("Finite correlated structures (R = 2): the eliminant in P_a of a random correlated test")
    report.lines(
        [
            "points = distinct points of the projection in the atlas (d04; '-' = not counted there);",
            "degree = degree of the eliminant in prev_a (Gröbner route, exact sketch of a random correlated "
            "test);",
            "factors = degrees of its irreducible factors; shape = every unknown is a polynomial in prev_a "
            "over",
            "every factor (the shape lemma); rational = rational points; truth = the test's point is among "
            "them;",
            "free = dimension of the correlations left free (then eliminated: the points are prevalence and "
            "accuracies);",
            "gen = the generated evaluator's eliminant equals the Gröbner route's on these counts (no: not "
            "derived,",
            "reason under method); closed form = for degree 2, a trio holding no correlated subset whose "
            "quadratic",
            "(D_ijk^2 + 4 D_ij D_ik D_jk)(P_a^2 - P_a) + D_ij D_ik D_jk equals the eliminant on these "
            "counts, so that",
            "P_a = 1/2 (1 -+ D_ijk / sqrt(D_ijk^2 + 4 D_ij D_ik D_jk)) (the three-independent closed form); "
            "with no such",
            "trio, 'generated K, C': the generated eliminant is (K^2 + 4C)(P_a^2 - P_a) + C with K, C "
            "polynomials in the",
            "moments (printed in the published table, d10_correlated_structures.md).",
            "",
        ]
    )
    rows, timings, forms = [], [], []
    for n, structure in cases:
        cells, times, form = row(n, structure, args.seed, args.limit, points.get((n, structure)))
        rows.append(cells)
        forms.append(form)
        timings.append((cells[1], n, times))
        print(
            f"d10: N = {n} {cells[1]}: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items()),
            file=sys.stderr,
        )
    report.lines(_table(rows))
    report.section("Summary")
    failures = 0
    for n in range(3, args.max_n + 1):
        mine = [r for r in rows if r[0] == str(n)]
        degrees: dict[str, int] = {}
        for r in mine:
            degrees[r[4]] = degrees.get(r[4], 0) + 1
        report.line(
            f"N = {n}: {len(mine)} finite structures; eliminant degrees "
            + ", ".join(f"{d}: {c}" for d, c in sorted(degrees.items()))
            + "; generated and equal: "
            + str(sum(r[10] == "yes" for r in mine))
            + "; with free correlations: "
            + str(sum(r[9] not in ("0", "-") for r in mine))
        )
    wrong = [r for r in rows if r[8] == "NO" or r[10] == "NO" or r[6] == "NO" or r[12].endswith("NO")]
    report.line(
        f"truth among the points, shape lemma, generated = Gröbner, trio closed forms: "
        f"{'yes' if not wrong else 'NO: ' + ', '.join(r[1] for r in wrong)}"
    )
    failures += len(wrong)
    mismatch = [r for r in rows if r[3] != "-" and r[4] != "-" and r[3] != r[4]]
    report.line(
        f"eliminant degree = atlas point count wherever both are known: "
        f"{'yes' if not mismatch else 'NO: ' + ', '.join(r[1] for r in mismatch)}"
    )
    failures += len(mismatch)
    if args.timings:
        args.timings.write_text(
            "".join(
                f"N={n} {s}: " + ", ".join(f"{k} {v:.3f} s" for k, v in t.items()) + "\n"
                for s, n, t in timings
            ),
            encoding="utf-8",
        )
    status = compare_or_write(report, args.out, args.check)
    header = report.text().splitlines()[0].lstrip("# ")
    status = compare_or_write(_Text(_markdown(header, rows, forms)), args.markdown, args.check) or status  # type: ignore[arg-type]
    if failures:
        print(f"d10: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
