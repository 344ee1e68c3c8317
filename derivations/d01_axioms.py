r"""d01: the single-classifier axiom (N = 1) and the pair relations (N = 2), P- and R-space.

Derived, never copied: the N = 1 evaluation ideal's reduced basis, and the N = 2
complete-structure ideal with its correlations eliminated. The printed relations of
*A logical alarm for misaligned binary classifiers* (Corrada-Emmanuel, Parker, Bharadwaj;
appendix A, eqs 10, 11, 30, 32, 33 and the main-text eq 6) are then tested for membership
in the derived ideals by exact reduction (``docs/theory.md#axioms``; the misprint of eq 6 is
in ``docs/theory.md#notes-on-the-printed-sources``).

R-space generators carry the factors ``Q_a Q_b`` of the homogenisation; the pair
relations hold on the saturation by ``Q_a Q_b`` (tests on which both labels occur).
The paper's joint-correct counts ``R_{a_i a_j, a}`` enter through
``Q_a J_a = R_{0,a|a} R_{1,a|a} + C_a`` (``J`` = items of a label both classifiers got right).

Usage: ``python derivations/d01_axioms.py [--seed 0] [--check]``
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import canonical_argv, parse  # noqa: E402

from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis, saturate  # noqa: E402
from evalgebra.groebner.ideal import Ideal  # noqa: E402
from evalgebra.groebner.polys import PolyRing, normal_form  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.variables import auxiliary_name  # noqa: E402


def _membership(report: Report, label: str, poly: object, basis: Ideal) -> bool:
    member = not normal_form(poly, basis.generators).coeffs()
    report.line(f"{label}: {basis.ring.text(poly)}")
    report.line(f"  in the derived ideal: {'yes' if member else 'NO'}")
    return member


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d01_axioms", __doc__ or "", argv)
    one_p = evaluation_ideal(EnsembleSpec(1, 2))
    one_r = evaluation_ideal(EnsembleSpec(1, 2), space="R")
    two_p = evaluation_ideal(EnsembleSpec(2, 2, "complete"))
    two_r = evaluation_ideal(EnsembleSpec(2, 2, "complete"), space="R")
    report = Report("d01_axioms.py", canonical_argv(args), [str(i) for i in (one_p, one_r, two_p, two_r)])
    failures = 0

    report.section("N = 1, P-space: reduced lex basis of the evaluation ideal")
    basis = groebner_basis(one_p)
    report.line(str(basis))
    g = dict(zip(basis.ring.names, basis.ring.gens()))
    prev_a, prev_b = g["prev_a"], 1 - g["prev_a"]
    eq10 = prev_a * (g["acc_0_a"] - g["f_a"]) - prev_b * (g["acc_0_b"] - g["f_b"])
    failures += not _membership(
        report, "*A logical alarm* eq 10, P_a (P_{i,a} - f_{i,a}) - P_b (P_{i,b} - f_{i,b})", eq10, basis
    )

    report.section("N = 1, R-space: reduced lex basis")
    basis = groebner_basis(one_r)
    report.line(str(basis))
    g = dict(zip(basis.ring.names, basis.ring.gens()))
    q = g["Q_a"] + g["Q_b"]
    eq11 = (q * g["R_0_a_a"] - g["Q_a"] * g["n_a"]) - (q * g["R_0_b_b"] - g["Q_b"] * g["n_b"])
    failures += not _membership(report, "*A logical alarm* eq 11 (Q = Q_a + Q_b, R_{a_i} = n_a)", eq11, basis)

    report.section("N = 2, P-space, complete structure: correlations eliminated")
    elim = eliminate(two_p, "correlation")
    report.line(str(elim))
    report.line(f"({len(elim)} generators; every one is free of corr_0_1_a, corr_0_1_b)")

    report.section("N = 2, R-space, complete structure, with joint-correct counts J")
    names = [n for n in two_r.ring.names if n.startswith("C_")]
    j_a, j_b = auxiliary_name("J", (0, 1), "a"), auxiliary_name("J", (0, 1), "b")
    ring = PolyRing(names + [j_a, j_b] + [n for n in two_r.ring.names if not n.startswith("C_")], "lex")
    h = dict(zip(ring.names, ring.gens()))
    gens = [ring.convert(p, two_r.ring) for p in two_r.generators]
    gens.append(h["Q_a"] * h[j_a] - h["R_0_a_a"] * h["R_1_a_a"] - h["C_0_1_a"])
    gens.append(h["Q_b"] * h[j_b] - h["R_0_b_b"] * h["R_1_b_b"] - h["C_0_1_b"])
    with_j = Ideal(ring, gens, "R-space N = 2 with joint-correct counts", is_groebner=False)
    elim = eliminate(with_j, names)
    saturated = saturate(elim, elim.ring.parse("Q_a*Q_b"))
    report.line("elimination of C_0_1_a, C_0_1_b, then saturation by Q_a*Q_b:")
    report.line(str(saturated))
    g = dict(zip(saturated.ring.names, saturated.ring.gens()))
    n_aa, n_ab, n_ba, n_bb = g["n_aa"], g["n_ab"], g["n_ba"], g["n_bb"]
    q_a, q_b = g["Q_a"], g["Q_b"]
    r0a, r1a = n_aa + n_ab, n_aa + n_ba  # R_{a_i}: items classifier i labelled a
    r0b, r1b = n_ba + n_bb, n_ab + n_bb
    lhs = g[j_a] + g[j_b]
    eq32 = lhs - (q_b - (r0a + r1a) + n_aa + (g["R_0_a_a"] + g["R_1_a_a"]))
    eq33 = lhs - (q_a - (r0b + r1b) + n_bb + (g["R_0_b_b"] + g["R_1_b_b"]))
    eq30 = g[j_b] - (q_b - ((r0a + r1a) - (g["R_0_a_a"] + g["R_1_a_a"])) + (n_aa - g[j_a]))
    eq6_printed = lhs - q_a + (r0a + r1a) - n_aa - (g["R_0_a_a"] + g["R_1_a_a"])
    eq6_fixed = lhs - q_b + (r0a + r1a) - n_aa - (g["R_0_a_a"] + g["R_1_a_a"])
    failures += not _membership(report, "*A logical alarm* eq 32 (label A form)", eq32, saturated)
    failures += not _membership(report, "*A logical alarm* eq 33 (label B form)", eq33, saturated)
    failures += not _membership(report, "*A logical alarm* eq 30", eq30, saturated)
    printed_member = _membership(
        report, "*A logical alarm* eq 6 as printed (with -Q_a)", eq6_printed, saturated
    )
    fixed_member = _membership(report, "*A logical alarm* eq 6 with -Q_b", eq6_fixed, saturated)
    failures += printed_member or not fixed_member
    report.line(
        "discrepancy: *A logical alarm* eq 6 prints -Q_a where the derivation gives -Q_b "
        "(eqs 32 and 33 are right as printed)"
    )

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d01: {failures} membership check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
