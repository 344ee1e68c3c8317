r"""d02: three independent binary classifiers: the prevalence quadratic and the accuracy lines.

From the N = 3, R = 2 independent evaluation ideal with symbolic observations:

* eliminating the six accuracies gives the polynomial in the prevalence, in moment
  coordinates (``m_i`` = frequency of answering b, ``D_T`` joint central moments) and in
  raw pattern frequencies, and the two are checked to be the same ideal;
* eliminating all accuracies but one gives, for every accuracy, a polynomial linear in it
  and in the prevalence;
* the printed forms of *Algebraic Evaluation Theorems* (Corrada-Emmanuel; supplement
  S16-S43, with ``T = D_01 D_02 D_12``) are tested for membership; the printed ones that are
  not in the ideal are recorded with the corrected form that is
  (``docs/theory.md#three-independent-classifiers``).

Usage: ``python derivations/d02_three_independent.py [--seed 0] [--check]``
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import canonical_argv, parse  # noqa: E402

from evalgebra.groebner.coordinates import frequencies_of, moments_of  # noqa: E402
from evalgebra.groebner.elimination import eliminate, evaluation_ideal  # noqa: E402
from evalgebra.groebner.polys import canonical_basis, monic, normal_form  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402
from evalgebra.variables import VariableRegistry  # noqa: E402

SPEC = EnsembleSpec(3, 2)
OTHERS = {0: "D_1_2", 1: "D_0_2", 2: "D_0_1"}  # D_m: the moment of the other two classifiers


def _printed_line(g: dict, m: int, label: str) -> tuple[str, object, object]:
    """The paper's printed polynomial for accuracy (m, label), and the corrected one."""
    d3, t = g["D_0_1_2"], g["D_0_1"] * g["D_0_2"] * g["D_1_2"]
    dm, fb, prev = g[OTHERS[m]], g[f"m_{m}_b"], g["prev_a"]
    acc = g[f"acc_{m}_{label}"]
    # the printed "a" of S37 copies classifier 1's; S41 uses D_0_2 where D_0_1 belongs
    printed_dm, printed_fb = (g["D_0_2"], g["m_1_b"]) if m == 2 else (dm, fb)
    if label == "a":
        corrected = d3 * (d3 - dm * (1 - fb)) + 2 * t - (d3**2 + 4 * t) * prev + dm * d3 * acc
        printed = d3 * (d3 - printed_dm * (1 - printed_fb)) + 2 * t + (4 * t - d3**2) * prev + dm * d3 * acc
        name = ("S20-S23", "S28-S31", "S36-S39")[m]
    else:
        corrected = fb * dm * d3 - 2 * t + (d3**2 + 4 * t) * prev - dm * d3 * acc
        printed = fb * (g["D_0_2"] if m == 2 else dm) * d3 - 2 * t + (d3**2 + 4 * t) * prev - dm * d3 * acc
        name = ("S24-S27", "S32-S35", "S40-S43")[m]
    return name, printed, corrected


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d02_three_independent", __doc__ or "", argv)
    moments = evaluation_ideal(SPEC, coordinates="moments")
    raw = evaluation_ideal(SPEC)
    report = Report("d02_three_independent.py", canonical_argv(args), [str(moments), str(raw)])
    failures = 0
    registry = VariableRegistry(SPEC)

    report.section("prevalence eliminant, moment coordinates (accuracies eliminated)")
    quad = eliminate(moments, "accuracy")
    report.line(str(quad))
    g = dict(zip(quad.ring.names, quad.ring.gens()))
    t = g["D_0_1"] * g["D_0_2"] * g["D_1_2"]
    a = g["D_0_1_2"] ** 2 + 4 * t
    closed = a * g["prev_a"] ** 2 - a * g["prev_a"] + t
    same = canonical_basis([closed]) == quad.generators
    report.line(
        f"equals a P_a^2 + b P_a + c with a = D_0_1_2^2 + 4 T, b = -a, c = T = D_0_1 D_0_2 D_1_2: "
        f"{'yes' if same else 'NO'}"
    )
    failures += not same

    report.section("prevalence eliminant, raw frequencies (accuracies eliminated)")
    raw_elim = eliminate(raw, "accuracy")
    report.line(f"{len(raw_elim)} generators with {[len(p) for p in raw_elim]} terms")
    report.lines(str(raw_elim).splitlines())
    # map the moment-coordinate quadratic to raw frequencies and compare
    ring = raw_elim.ring
    f = dict(zip(ring.names, ring.gens()))
    freqs = [f[str(s)] for s in registry.observables()]
    as_raw = {str(registry.symbol(k)): v for k, v in moments_of(SPEC, freqs).items()}
    images = [f["prev_a"] if n == "prev_a" else as_raw[n] for n in quad.ring.names]
    mapped = quad.generators[0].compose(*images, ctx=ring.q)
    # the reduced basis is {sum f - 1 (leading f_aaa), eliminant free of f_aaa}: reduce by
    # substituting f_aaa = 1 - (the other frequencies), then compare up to a constant
    first = freqs[0]
    rest = sum(freqs[2:], freqs[1])
    on_simplex = [1 - rest if v == first else v for v in ring.gens()]
    eliminant = [p for p in raw_elim if len(p) > len(freqs) + 1][0]
    member = monic(mapped.compose(*on_simplex, ctx=ring.q)) == monic(eliminant)
    report.line(
        f"the moment quadratic, mapped to raw frequencies, is this eliminant: {'yes' if member else 'NO'}"
    )
    failures += not member
    one = ring.q.from_dict({(0,) * ring.nvars: 1})
    back = frequencies_of(SPEC, moments_of(SPEC, freqs), one=one)
    exact_inverse = all(not (x - y).compose(*on_simplex, ctx=ring.q).coeffs() for x, y in zip(back, freqs))
    report.line(
        "moment map and its inverse compose to the identity (on sum f = 1): "
        f"{'yes' if exact_inverse else 'NO'}"
    )
    failures += not exact_inverse

    report.section("accuracy polynomials (all other accuracies eliminated), moment coordinates")
    for m in range(3):
        for label in "ab":
            keep = f"acc_{m}_{label}"
            others = [str(s) for s in registry.variables(("accuracy",)) if str(s) != keep]
            elim = eliminate(moments, others)
            linear = [p for p in elim if p.degrees()[elim.ring.names.index(keep)] == 1]
            report.line(f"{keep}: " + "; ".join(elim.ring.text(p) for p in linear))
            if not linear:
                failures += 1
            name, printed, corrected = _printed_line(dict(zip(elim.ring.names, elim.ring.gens())), m, label)
            p_ok = not normal_form(printed, elim.generators).coeffs()
            c_ok = not normal_form(corrected, elim.generators).coeffs()
            report.line(
                f"  *Algebraic Evaluation Theorems* {name} ({keep}) as printed in the ideal: "
                f"{'yes' if p_ok else 'NO'}; corrected form in the ideal: {'yes' if c_ok else 'NO'}"
            )
            if not p_ok:
                report.line(f"    corrected: {elim.ring.text(corrected)} = 0")
            failures += not c_ok

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d02: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
