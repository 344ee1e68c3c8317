r"""d08: the single-classifier axioms and the pair relations for any number of labels R.

Derived, then checked, for R = 2, 3, 4 (``docs/theory.md#axioms``):

* N = 1, P-space and R-space: the reduced lex basis of the evaluation ideal; the ``R``
  axioms of :func:`evalgebra.groebner.axioms.classifier_axioms`
  (``sum_ell P_ell (P_{i,r|ell} - f_{i,r})``, R-space ``sum_ell R_{i,r|ell} - n_{i,r}``)
  with ``sum f = 1`` generate the same ideal (identical reduced bases); eliminating the
  classifier's error rates (its off-diagonal responses) leaves only ``sum f = 1`` for
  ``R >= 3``: unlike ``R = 2`` there is no relation among prevalences, accuracies and
  answer frequencies alone.
* R = 2: the axioms specialise to the single-classifier axiom of *A logical alarm for
  misaligned binary classifiers* (Corrada-Emmanuel, Parker, Bharadwaj; eqs 10 and 11, as
  in d01): the exact difference is printed, and the ideals coincide with d01's bases.
* N = 2, complete structure (every correlation of the pair free): the correlations
  eliminated in R-space (then saturated by ``prod_ell Q_ell``) and in P-space, R = 3
  (R = 4 with ``--full``: flint does not finish within 120 s there); the result is the
  ideal of the two classifiers' axioms and ``sum f = 1``: with R >= 3 labels (as with
  R = 2) a correlated pair satisfies no relation beyond its members' axioms. The
  prevalence-free consequences are the ``R x R`` minors of the stacked ``2 (R - 1) x R``
  matrix ``(P_{i,r|ell} - f_{i,r})`` (:func:`~evalgebra.groebner.axioms.pair_minors`;
  R = 2: Theorem 4's pair polynomial of *Streaming algorithms for evaluating noisy judges
  on unlabeled data - binary classification*, Corrada-Emmanuel); their membership,
  dimension and degree are printed.
* Exact simulations (:func:`evalgebra.data.simulate.expected_sketch`) of random rational
  points, N = 1 and 2 (independent and correlated), R = 2, 3, 4: the sketch gives the
  point back exactly, the generating set vanishes, every axiom and pair minor vanishes,
  and a perturbed response rate violates an axiom.
* N = 3, R = 3, complete structure (the containing variety): the Jacobian dimension of
  the projection to the basic statistics equals that of the variety of the six axioms;
  ``--full`` also tries the symbolic elimination of all 60 correlations with every engine
  under ``--time-limit`` (it did not finish: flint, Singular and msolve 240 s each).

Usage: ``python derivations/d08_axioms_many_labels.py [--seed 0] [--check] [--full]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import flint  # noqa: E402
from _common import RESULTS, canonical_argv  # noqa: E402

from evalgebra.builder import GeneratingSet  # noqa: E402
from evalgebra.data.point import EvaluationPoint, evaluation_point  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.groebner.axioms import classifier_axioms, pair_minors, values_at  # noqa: E402
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis, saturate  # noqa: E402
from evalgebra.groebner.ideal import Ideal  # noqa: E402
from evalgebra.groebner.identifiability import projection_dimension  # noqa: E402
from evalgebra.groebner.polys import normal_form  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.groebner.runner import GroebnerTimeout  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.variables import free_responses  # noqa: E402

NAME = "d08_axioms_many_labels"
N_POINTS = 3  # random points per case in the simulation checks


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random evaluation points (default 0)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / f"{NAME}.txt", help="result file")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    parser.add_argument(
        "--full", action="store_true", help="also the slow eliminations (not the committed file)"
    )
    parser.add_argument(
        "--time-limit", type=float, default=240.0, help="seconds per slow elimination (--full)"
    )
    return parser.parse_args(list(argv) if argv is not None else None)


def yes(flag: bool) -> str:
    return "yes" if flag else "NO"


def _same(first: Ideal, second: Ideal) -> bool:
    return [str(p) for p in first] == [str(p) for p in second]


def _with_axioms(ideal: Ideal, classifiers: Sequence[int], extra: Sequence[Any] = ()) -> Ideal:
    """The reduced basis (ideal's ring and ordering) of the classifiers' axioms,
    ``sum f = 1`` and ``extra``."""
    gens = [p for i in classifiers for p in classifier_axioms(ideal, i)]
    observed = [g for n, g in zip(ideal.ring.names, ideal.ring.gens()) if n[:2] in ("f_", "n_")]
    if ideal.registry.space == "P":  # type: ignore[attr-defined]
        gens.append(sum(observed[1:], observed[0]) - 1)
    else:
        counts = [g for n, g in zip(ideal.ring.names, ideal.ring.gens()) if n.startswith("Q_")]
        gens.append(sum(counts[1:], counts[0]) - sum(observed[1:], observed[0]))
    gens += [ideal.ring.convert(p, ideal.ring) for p in extra]
    out = groebner_basis(Ideal(ideal.ring, gens, is_groebner=False))
    out.registry = ideal.registry  # type: ignore[attr-defined]
    return out


def _in(poly: Any, basis: Ideal) -> bool:
    return not normal_form(poly, basis.generators).coeffs()


# -- N = 1 ------------------------------------------------------------------------------------
def _single(report: Report, r_count: int, space: str) -> int:
    ideal = evaluation_ideal(EnsembleSpec(1, r_count), space=space)
    basis = groebner_basis(ideal)
    report.section(f"N = 1, R = {r_count}, {space}-space")
    report.line(
        f"reduced lex basis of the evaluation ideal: {len(basis)} generators, dimension "
        f"{basis.dimension()} in {basis.ring.nvars} variables"
    )
    axioms = classifier_axioms(ideal, 0)
    name = "A_{0,%s}" if space == "P" else "B_{0,%s}"
    for label, poly in zip(EnsembleSpec(1, r_count).labels, axioms):
        report.line(f"{name % label} = {ideal.ring.text(poly)}")
    total = sum(axioms[1:], axioms[0])
    report.line(f"sum of the {r_count} axioms: {ideal.ring.text(total)}")
    same = _same(_with_axioms(ideal, [0]), basis)
    report.line(f"the axioms and the total generate the evaluation ideal (same reduced basis): {yes(same)}")
    errors = eliminate(ideal, "response") if r_count > 2 else None
    if errors is not None:
        report.line(
            f"error rates eliminated ({len(ideal.registry.variables(('response',)))} of them): "  # type: ignore[attr-defined]
            + "; ".join(str(p) for p in errors)
        )
        report.line(
            "  -> no relation among the prevalences, accuracies and answer frequencies beyond the total"
        )
    return 0 if same and (errors is None or len(errors) == 1) else 1


def _d01_specialisation(report: Report) -> int:
    report.section("R = 2: the axioms against d01 (*A logical alarm*, eqs 10 and 11)")
    failures = 0
    one_p = evaluation_ideal(EnsembleSpec(1, 2))
    g = dict(zip(one_p.ring.names, one_p.ring.gens()))
    prev_a, prev_b = g["prev_a"], 1 - g["prev_a"]
    eq10 = prev_a * (g["acc_0_a"] - g["f_a"]) - prev_b * (g["acc_0_b"] - g["f_b"])
    axiom = classifier_axioms(one_p, 0)[0]
    difference = axiom - eq10
    expected = prev_b * (1 - g["f_a"] - g["f_b"])
    report.line(
        f"A_(0,a) - eq 10 = {one_p.ring.text(difference)} = P_b (1 - f_a - f_b): "
        f"{yes(difference == expected)}"
    )
    same = _same(_with_axioms(one_p, [0]), groebner_basis(one_p))
    report.line(f"A_(0,a), A_(0,b) and f_a + f_b = 1 generate d01's basis: {yes(same)}")
    failures += difference != expected or not same
    one_r = evaluation_ideal(EnsembleSpec(1, 2), space="R")
    g = dict(zip(one_r.ring.names, one_r.ring.gens()))
    q = g["Q_a"] + g["Q_b"]
    eq11 = (q * g["R_0_a_a"] - g["Q_a"] * g["n_a"]) - (q * g["R_0_b_b"] - g["Q_b"] * g["n_b"])
    difference = q * classifier_axioms(one_r, 0)[0] - eq11
    expected = g["Q_b"] * (q - g["n_a"] - g["n_b"])
    report.line(
        f"Q B_(0,a) - eq 11 = {one_r.ring.text(difference)} = Q_b (Q - n_a - n_b) (Q = Q_a + Q_b): "
        f"{yes(difference == expected)}"
    )
    same = _same(_with_axioms(one_r, [0]), groebner_basis(one_r))
    report.line(f"B_(0,a), B_(0,b) and Q_a + Q_b = n_a + n_b generate d01's R-space basis: {yes(same)}")
    return failures + (difference != expected) + (not same)


# -- N = 2 ------------------------------------------------------------------------------------
def _pair(report: Report, r_count: int, space: str, time_limit: float | None) -> int:
    spec = EnsembleSpec(2, r_count, "complete")
    ideal = evaluation_ideal(spec, space=space)
    n_corr = len(ideal.registry.variables(("correlation",)))  # type: ignore[attr-defined]
    report.section(
        f"N = 2, R = {r_count}, {space}-space, complete structure: {n_corr} correlations eliminated"
    )
    try:
        elim = eliminate(ideal, "correlation", time_limit=time_limit)
    except GroebnerTimeout:
        report.line(f"elimination did not finish within {time_limit:g} s (flint)")
        return 0
    if space == "R":
        counts = "*".join(n for n in elim.ring.names if n.startswith("Q_"))
        elim = saturate(elim, counts)
        report.line(f"saturated by {counts} (tests on which every label occurs)")
    elim.registry = ideal.registry  # type: ignore[attr-defined]
    axioms = _with_axioms(elim, (0, 1))
    same = _same(axioms, elim)
    graded = groebner_basis(elim, ordering="degrevlex")
    report.line(
        f"{len(elim)} generators (lex); dimension {graded.dimension()}, degree {graded.degree()} "
        f"in {elim.ring.nvars} variables"
    )
    report.line(f"= the ideal of both classifiers' axioms and the total (same reduced basis): {yes(same)}")
    failures = not same
    if space == "P":
        minors = pair_minors(elim, (0, 1))
        inside = all(_in(p, elim) for p in minors)
        report.line(
            f"the {len(minors)} pair minors (degree {max(p.total_degree() for p in minors)}) lie in it: "
            f"{yes(inside)}"
        )
        failures += not inside
    return failures


def _pair_minors_text(report: Report) -> None:
    report.section("The pair minors, R = 2 and 3 (rows r = a, b of classifier 0, then of classifier 1)")
    for r_count in (2, 3):
        ideal = evaluation_ideal(EnsembleSpec(2, r_count))
        minors = pair_minors(ideal, (0, 1))
        report.line(f"R = {r_count}: {len(minors)} minor(s) of a {2 * (r_count - 1)} x {r_count} matrix")
        report.line(f"  first minor: {len(minors[0].coeffs())} terms, degree {minors[0].total_degree()}")
        if r_count == 2:
            report.line(f"  {ideal.ring.text(minors[0])}")


# -- exact simulations ----------------------------------------------------------------------------
def _random_point(spec: EnsembleSpec, rng: random.Random) -> EvaluationPoint:
    labels = spec.labels
    weights = [rng.randint(1, 9) for _ in labels]
    prevalence = {lab: Fraction(w, sum(weights)) for lab, w in zip(labels[:-1], weights)}
    response = {}
    for i in range(spec.n_classifiers):
        response[i] = {}
        for truth in labels:
            row = [rng.randint(1, 6) for _ in labels]
            row[labels.index(truth)] += 3 * len(labels)
            response[i][truth] = {lab: Fraction(w, sum(row)) for lab, w in zip(labels, row)}
    scale = Fraction(1, rng.choice((20, 50, 100)))
    while True:
        scale /= 2  # halved until a labelled test realises the point
        correlation = {
            t: {
                lab: {(labels[free_responses(ell, len(labels))[0]],) * len(t): scale * rng.choice((-1, 1))}
                for ell, lab in enumerate(labels)
            }
            for t in spec.structure
        }
        try:
            point = EvaluationPoint.from_values(spec, prevalence, response=response, correlation=correlation)
            expected_sketch(point)
            return point
        except ValueError:
            continue


def _simulations(report: Report, rng: random.Random) -> int:
    report.section("Exact simulations: random rational points -> exact sketch -> checks")
    failures = 0
    for n, structure in ((1, "independent"), (2, "independent"), (2, "complete")):
        for r_count in (2, 3, 4):
            spec = EnsembleSpec(n, r_count, structure)
            ideals = {space: evaluation_ideal(spec, space=space) for space in ("P", "R")}
            ok = {
                "round trip": True,
                "generating set": True,
                "axioms": True,
                "minors": True,
                "perturbed": True,
            }
            for _ in range(N_POINTS):
                point = _random_point(spec, rng)
                sketch = expected_sketch(point)
                back = evaluation_point(sketch, structure=spec.structure)
                ok["round trip"] &= back.free_values() == point.free_values()
                gs = GeneratingSet(spec)
                ok["generating set"] &= not any(gs.residuals(point.free_values(), gs.observed_values(sketch)))
                for space, ideal in ideals.items():
                    at = values_at(ideal, back, sketch)
                    ok["axioms"] &= all(not p(*at) for i in range(n) for p in classifier_axioms(ideal, i))
                    if space == "P" and n == 2:
                        ok["minors"] &= all(not p(*at) for p in pair_minors(ideal, (0, 1)))
                    # perturb one free response of classifier 0 on the last label; the sketch stays
                    k = ideal.ring.names.index(
                        "acc_0_" + spec.labels[-1][:1]
                        if space == "P"
                        else "R_0_" + "_".join([spec.labels[-1][:1]] * 2)
                    )
                    at[k] += flint.fmpq(1, 1000) if space == "P" else 1
                    ok["perturbed"] &= any(p(*at) for p in classifier_axioms(ideal, 0))
            report.line(
                f"N = {n}, R = {r_count}, {structure}: "
                + ", ".join(f"{k} {yes(v)}" for k, v in ok.items() if n == 2 or k != "minors")
            )
            failures += not all(ok.values())
    report.line(
        "(round trip: the labelled sketch gives the point back exactly; generating set: every residual 0;"
    )
    report.line(" axioms: P- and R-space axioms of every classifier vanish; minors: the pair minors vanish;")
    report.line(
        " perturbed: the accuracy on the last label moved by 1/1000 (R-space: one count) violates an axiom)"
    )
    return failures


# -- the containing variety, N = 3, R = 3 -------------------------------------------------------
def _containing(report: Report, full: bool, time_limit: float) -> int:
    spec = EnsembleSpec(3, 3, "complete")
    report.section("N = 3, R = 3, complete structure: the containing variety")
    dim = projection_dimension(spec)
    n_basic = 2 + 3 * 3 * 2
    report.line(f"Jacobian dimension of the projection to the {n_basic} basic statistics: {dim}")
    report.line(
        f"the variety of the 6 independent axioms (2 per classifier) has dimension {n_basic} - 6 = "
        f"{n_basic - 6}: {yes(dim == n_basic - 6)}"
    )
    if full:
        ideal = evaluation_ideal(spec)
        for engine in ("flint", "singular", "msolve"):
            start = time.perf_counter()
            try:
                elim = eliminate(ideal, "correlation", backend=engine, time_limit=time_limit)
                report.line(f"{engine}: {len(elim)} generators in {time.perf_counter() - start:.0f} s")
            except GroebnerTimeout:
                report.line(f"{engine}: did not finish within {time_limit:g} s")
            except Exception as exc:  # an engine that is missing or fails is reported, not fatal
                report.line(f"{engine}: {type(exc).__name__}")
    return dim != n_basic - 6


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    rng = random.Random(f"d08 {args.seed}")
    inputs = [
        str(evaluation_ideal(EnsembleSpec(n, r, s), space=space))
        for n, s in ((1, "independent"), (2, "complete"))
        for r in (2, 3, 4)
        for space in ("P", "R")
    ]
    keys = ("seed", "full", "time_limit") if args.full else ("seed",)
    report = Report(f"{NAME}.py", canonical_argv(args, keys), inputs)
    failures = 0
    for r_count in (2, 3, 4):
        for space in ("P", "R"):
            failures += _single(report, r_count, space)
    failures += _d01_specialisation(report)
    for r_count, space in ((3, "R"), (3, "P")) + (((4, "R"), (4, "P")) if args.full else ()):
        failures += _pair(report, r_count, space, args.time_limit if args.full else None)
    _pair_minors_text(report)
    failures += _simulations(report, rng)
    failures += _containing(report, args.full, args.time_limit)
    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d08: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
