r"""d06: the Hui-Walter closed form: two tests, two populations.

The generating set of ``EnsembleSpec(2, 2, populations=2)`` (independent; the populations
share the tests' accuracies and have their own prevalences) with symbolic observations:

* for every unknown, the polynomial it satisfies once the other five are eliminated
  (raw cross-tab frequencies and moment coordinates): a quadratic in it;
* the discriminant of each quadratic against the paper's printed ``F^2`` (eq 2);
* ``F^2``, with the generating set substituted, factored: it is
  ``(theta1 - theta2)^2 (1 - alpha1 - beta1)^2 (1 - alpha2 - beta2)^2``;
* the paper's printed estimators (eq 3) tested for membership in the evaluation ideal with
  ``F = (theta1 - theta2)(1 - alpha1 - beta1)(1 - alpha2 - beta2)`` and with ``-F``;
  the printed forms that are not in it are recorded with corrected forms that are;
* the corrected closed form evaluated on exact simulations of random two-population
  points (``--seed``): one sign of ``sqrt(F^2)`` gives the true point, the other its
  mirror (label swap).

Notation. Label ``a`` is the positive class (diseased), ``b`` the negative one; population
``s0`` is the paper's population 1 and ``s1`` its population 2; classifier 0 is test 1 and
classifier 1 is test 2. Then ``theta_s = prev_s{s-1}_a``, sensitivity
``1 - beta_i = acc_{i-1}_a`` and specificity ``1 - alpha_i = acc_{i-1}_b``. The cross-tab
cells of population ``s`` are ``a_s = f_s_aa`` (T1+, T2+), ``b_s = f_s_ab`` (T1+, T2-),
``c_s = f_s_ba``, ``d_s = f_s_bb``, with ``g = a + b``, ``h = c + d``, ``e = a + c``,
``f = b + d`` and ``n = a + b + c + d``; the formulas use the ratios ``x / n`` and are
written here with frequencies (``n = 1``).

The paper is *Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter Paradigm for
Performance Estimation in Online and Static Settings* (anonymous authors, under review at
TMLR), eqs 2-3; the model is that of S. L. Hui and S. D. Walter, *Estimating the error rates
of diagnostic tests* (Biometrics 36, 1980). See ``docs/theory.md#hui-walter``; the misprints
of eq 3 are listed in ``docs/theory.md#notes-on-the-printed-sources``.

Usage: ``python derivations/d06_hui_walter.py [--seed 0] [--check]``
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import canonical_argv, parse  # noqa: E402

from evalgebra.builder import GeneratingSet  # noqa: E402
from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis  # noqa: E402
from evalgebra.groebner.polys import normal_form  # noqa: E402
from evalgebra.groebner.report import Report, compare_or_write  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

SPEC = EnsembleSpec(2, 2, populations=2)
N_SIMULATIONS = 5
#: The paper's parameters in the registry's unknowns (see the module docstring).
PARAMETERS = ("theta1", "theta2", "alpha1", "alpha2", "beta1", "beta2")


def yes(flag: bool) -> str:
    return "yes" if flag else "NO"


# -- the paper's formulas, generic in the ring ------------------------------------------------
def cross_tab(cells: Sequence[Any]) -> dict[str, Any]:
    r"""The paper's cross-tab quantities of one population from its cells ``(a, b, c, d)``.

    ``a`` = both tests positive, ``b`` = test 1 positive only, ``c`` = test 2 positive
    only, ``d`` = both negative (frequencies, or counts divided by ``n``).
    """
    a, b, c, d = cells
    return {"a": a, "b": b, "c": c, "d": d, "g": a + b, "h": c + d, "e": a + c, "f": b + d}


def discriminant_squared(one: Mapping[str, Any], two: Mapping[str, Any]) -> Any:
    r"""*Unlocking Unlabeled Data* eq 2 under the root: ``F^2`` from the two populations' cross-tabs."""
    return (one["g"] * two["e"] - two["g"] * one["e"] + one["a"] - two["a"]) ** 2 - 4 * (
        one["g"] - two["g"]
    ) * (one["a"] * two["e"] - two["a"] * one["e"])


def estimators(
    one: Mapping[str, Any], two: Mapping[str, Any], root: Any, printed: bool
) -> dict[str, tuple[Any, Any]]:
    r"""*Unlocking Unlabeled Data* eq 3 as ``parameter -> (numerator, denominator)``.

    ``printed=True`` gives the forms as printed (as best the extracted text reads),
    ``printed=False`` the corrected ones; ``root`` is ``F`` (one square root of
    :func:`discriminant_squared`). With ``F = (theta1 - theta2)(1 - alpha1 - beta1)
    (1 - alpha2 - beta2)`` the corrected forms give the true point, with ``-F`` its mirror.
    """
    g1, g2, e1, e2, a1, a2 = one["g"], two["g"], one["e"], two["e"], one["a"], two["a"]
    h1, h2, f1, f2, d1, d2 = one["h"], two["h"], one["f"], two["f"], one["d"], two["d"]
    if printed:
        theta1 = g1 * (e1 - e2) + g1 * (g1 - g2) + a2 - a1
        theta2 = g2 * (e1 - e2) + g2 * (g1 - g2) + a2 - a1
        thetas = ((root - theta1, 2 * root), (root - theta2, 2 * root))  # 1/2 - x / (2F)
        beta_shift = d2 - d1
    else:
        theta1 = g1 * (e1 - e2) + e1 * (g1 - g2) + a2 - a1
        theta2 = g2 * (e1 - e2) + e2 * (g1 - g2) + a2 - a1
        thetas = ((root + theta1, 2 * root), (root + theta2, 2 * root))  # 1/2 + x / (2F)
        beta_shift = d1 - d2
    return {
        "theta1": thetas[0],
        "theta2": thetas[1],
        "alpha1": (g1 * e2 - e1 * g2 + a2 - a1 + root, 2 * (e2 - e1)),
        "alpha2": (g2 * e1 - e2 * g1 + a2 - a1 + root, 2 * (g2 - g1)),
        "beta1": (f1 * h2 - h1 * f2 + beta_shift + root, 2 * (e2 - e1)),
        "beta2": (f2 * h1 - h2 * f1 + beta_shift + root, 2 * (g2 - g1)),
    }


def parameters(gens: Mapping[str, Any]) -> dict[str, Any]:
    """The paper's parameters as polynomials in the registry's unknowns."""
    return {
        "theta1": gens["prev_s0_a"],
        "theta2": gens["prev_s1_a"],
        "alpha1": 1 - gens["acc_0_b"],
        "alpha2": 1 - gens["acc_1_b"],
        "beta1": 1 - gens["acc_0_a"],
        "beta2": 1 - gens["acc_1_a"],
    }


def _exact_sqrt(value: Fraction) -> Fraction | None:
    if value < 0:
        return None
    num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
    return Fraction(num, den) if num * num == value.numerator and den * den == value.denominator else None


def closed_form(frequencies: Sequence[Sequence[Fraction]]) -> list[dict[str, Fraction]] | None:
    r"""The corrected Hui-Walter closed form on exact cross-tab frequencies.

    Parameters
    ----------
    frequencies : two sequences ``(a, b, c, d)``
        Each population's cell frequencies (they sum to 1), cells as in :func:`cross_tab`.

    Returns
    -------
    list of dict or None
        The two solutions, for ``F = +sqrt(F^2)`` and ``F = -sqrt(F^2)`` (parameter ->
        value); ``None`` when ``F^2`` is zero, negative or not the square of a rational
        (then there is no rational solution).
    """
    one, two = (cross_tab([Fraction(v) for v in cells]) for cells in frequencies)
    root = _exact_sqrt(discriminant_squared(one, two))
    if not root:
        return None
    solutions = []
    for sign in (1, -1):
        forms = estimators(one, two, sign * root, printed=False)
        solutions.append({name: num / den for name, (num, den) in forms.items()})
    return solutions


# -- the derivation ----------------------------------------------------------------------------
def _coefficients(poly: Any, position: int, ring: Any) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for monomial, coeff in zip(poly.monoms(), poly.coeffs()):
        power = monomial[position]
        rest = monomial[:position] + (0,) + monomial[position + 1 :]
        out[power] = out.get(power, ring.q.from_dict({})) + ring.q.from_dict({rest: coeff})
    return out


def _random_point(rng: random.Random) -> EvaluationPoint:
    """Distinct prevalences, tests better than chance (tenths)."""
    while True:
        theta = [Fraction(rng.randint(1, 9), 10) for _ in range(2)]
        if theta[0] != theta[1]:
            break
    accuracy = {i: {lab: Fraction(rng.randint(6, 9), 10) for lab in "ab"} for i in range(2)}
    prevalence = {pop: {"a": t} for pop, t in zip(SPEC.populations, theta)}
    return EvaluationPoint.from_values(SPEC, prevalence, accuracy=accuracy)


def truth_of(point: EvaluationPoint) -> dict[str, Fraction]:
    """The paper's parameters of an evaluation point of :data:`SPEC`."""
    acc = {(i, lab): point.accuracy(i, lab) for i in range(2) for lab in "ab"}
    return {
        "theta1": point.prevalence[0][0],
        "theta2": point.prevalence[1][0],
        "alpha1": 1 - acc[(0, "b")],
        "alpha2": 1 - acc[(1, "b")],
        "beta1": 1 - acc[(0, "a")],
        "beta2": 1 - acc[(1, "a")],
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse("d06_hui_walter", __doc__ or "", argv)
    rng = random.Random(args.seed)
    gs = GeneratingSet(SPEC)
    raw = evaluation_ideal(SPEC)
    moments = evaluation_ideal(SPEC, coordinates="moments")
    report = Report("d06_hui_walter.py", canonical_argv(args), [str(raw), str(moments)])
    failures = 0

    report.section("generating set (label a = positive class; populations s0, s1)")
    report.lines(gs.to_text().splitlines())

    unknowns = [str(v) for v in gs.registry.variables(("prevalence", "accuracy"))]
    report.section("the polynomial of each unknown (the other five eliminated, flint)")
    discriminants: dict[str, Any] = {}
    moment_discriminant: tuple[str, bool] = ("", False)
    for coordinates, ideal in (("raw", raw), ("moments", moments)):
        for name in unknowns:
            elim = eliminate(ideal, [u for u in unknowns if u != name], backend="flint")
            position = elim.ring.names.index(name)
            involving = [p for p in elim if p.degrees()[position]]
            simplex = [p for p in elim if not p.degrees()[position]]
            if len(involving) != 1:
                failures += 1
                report.line(f"{coordinates} {name}: {len(involving)} polynomials involve it")
                continue
            poly = involving[0]
            degree = poly.degrees()[position]
            report.line(
                f"{coordinates} {name} (degree {degree}, {len(poly)} terms; "
                f"{len(simplex)} further generators: the simplex relations sum f = 1):"
            )
            report.line(f"  {elim.ring.text(poly)}")
            failures += degree != 2
            coeff = _coefficients(poly, position, elim.ring)
            a, b, c = (coeff.get(k, 0 * poly) for k in (2, 1, 0))
            if coordinates == "raw":
                discriminants[name] = (elim.ring, normal_form(b * b - 4 * a * c, simplex), simplex, a)
            elif name == "acc_0_a":
                m = dict(zip(elim.ring.names, elim.ring.gens()))
                delta = [m[f"m_s0_{i}_b"] - m[f"m_s1_{i}_b"] for i in (0, 1)]
                d0, d1 = m["D_s0_0_1"], m["D_s1_0_1"]
                compact = (d0 - d1) ** 2 + 2 * (d0 + d1) * delta[0] * delta[1] + (delta[0] * delta[1]) ** 2
                moment_discriminant = (elim.ring.text(b * b - 4 * a * c), b * b - 4 * a * c == compact)

    report.section("discriminants against the printed F^2 (*Unlocking Unlabeled Data* eq 2), on the simplex")
    ring, _, simplex, _ = discriminants[unknowns[0]]
    gens = dict(zip(ring.names, ring.gens()))
    cells = [cross_tab([gens[f"f_s{s}_{p}"] for p in ("aa", "ab", "ba", "bb")]) for s in (0, 1)]
    f_squared = normal_form(discriminant_squared(*cells), simplex)
    swapped = [dict(t, g=t["e"], e=t["g"], b=t["c"], c=t["b"]) for t in cells]
    other_test = normal_form(discriminant_squared(*swapped), simplex)
    report.line(f"F^2 (eq 2) reduced on the simplex, {len(f_squared)} terms: {ring.text(f_squared)}")
    report.line(
        f"eq 2 with the tests' roles swapped gives the same polynomial: {yes(other_test == f_squared)}"
    )
    report.line(
        f"in moment coordinates (the discriminant of the acc_0_a quadratic): {moment_discriminant[0]}"
    )
    report.line(
        "  = (D_s0_0_1 - D_s1_0_1)^2 + 2 (D_s0_0_1 + D_s1_0_1) Delta_0 Delta_1 + (Delta_0 Delta_1)^2 with "
        f"Delta_i = m_s0_i_b - m_s1_i_b: {yes(moment_discriminant[1])}"
    )
    failures += not moment_discriminant[1]
    failures += other_test != f_squared
    for name in unknowns:
        ring_u, disc, simplex_u, lead = discriminants[name]
        converted = ring_u.convert(f_squared, ring)
        quotient, remainder = divmod(disc, converted)
        if remainder.coeffs():
            report.line(f"{name}: discriminant is NOT a multiple of F^2")
            failures += 1
            continue
        try:
            k = quotient.sqrt()
        except Exception:  # noqa: BLE001 - flint raises when there is no square root
            report.line(f"{name}: discriminant / F^2 is NOT a square")
            failures += 1
            continue
        report.line(
            f"{name}: discriminant = k^2 F^2 with k = {ring_u.text(k)}; leading coefficient "
            f"{ring_u.text(lead)}"
        )

    report.section("F^2 with the generating set substituted, factored")
    full = groebner_basis(raw, backend="flint")
    g = dict(zip(full.ring.names, full.ring.gens()))
    model = dict(
        zip(
            (str(s) for s in gs.observables),
            gs.model(
                lambda key: g[str(gs.registry.symbol(key))],
                full.ring.q.from_dict({(0,) * full.ring.nvars: 1}),
            ),
        )
    )
    model_cells = [cross_tab([model[f"f_s{s}_{p}"] for p in ("aa", "ab", "ba", "bb")]) for s in (0, 1)]
    substituted = discriminant_squared(*model_cells)
    constant, factors = substituted.factor()
    text = " * ".join(f"({full.ring.text(p)})^{e}" for p, e in sorted(factors, key=lambda t: str(t[0])))
    report.line(f"F^2 = {constant} * {text}")
    params = parameters(g)
    expected = (
        (params["theta1"] - params["theta2"])
        * (1 - params["alpha1"] - params["beta1"])
        * (1 - params["alpha2"] - params["beta2"])
    )
    factored = substituted == expected * expected
    report.line(
        "= ((theta1 - theta2)(1 - alpha1 - beta1)(1 - alpha2 - beta2))^2 with theta_s = prev_s?_a, "
        f"1 - alpha_i = acc_?_b, 1 - beta_i = acc_?_a: {yes(factored)}"
    )
    failures += not factored

    report.section(
        "*Unlocking Unlabeled Data* eq 3: membership in the evaluation ideal "
        "(cells = the symbolic frequencies)"
    )
    report.line(
        "F := (theta1 - theta2)(1 - alpha1 - beta1)(1 - alpha2 - beta2); a formula x = N / Den is "
        "tested as Den * x - N, with F and with -F"
    )
    g_cells = [cross_tab([g[f"f_s{s}_{p}"] for p in ("aa", "ab", "ba", "bb")]) for s in (0, 1)]

    def member(poly: Any) -> bool:
        return not normal_form(poly, full.generators).coeffs()

    squared_ok = member(expected * expected - discriminant_squared(*g_cells))
    report.line(f"eq 2: F^2 - (printed radicand) in the ideal: {yes(squared_ok)}")
    failures += not squared_ok
    results: dict[tuple[str, bool, int], bool] = {}
    for printed in (True, False):
        for sign in (1, -1):
            forms = estimators(*g_cells, sign * expected, printed)
            for name in PARAMETERS:
                num, den = forms[name]
                results[(name, printed, sign)] = member(den * params[name] - num)
    for name in PARAMETERS:
        as_printed = (results[(name, True, 1)], results[(name, True, -1)])
        corrected = (results[(name, False, 1)], results[(name, False, -1)])
        report.line(
            f"{name}: as printed, with F / with -F: {yes(as_printed[0])} / {yes(as_printed[1])}; "
            f"corrected form with F: {yes(corrected[0])}"
        )
        failures += not corrected[0]
    one, two = g_cells
    report.line("discrepancies (*Unlocking Unlabeled Data* eq 3 as printed vs the derivation):")
    report.line(
        "  theta_s: printed 1/2 - [G_s (E1 - E2) + G_s (G1 - G2) + A2 - A1] / (2F); in the ideal: "
        "1/2 + [G_s (E1 - E2) + E_s (G1 - G2) + A2 - A1] / (2F) (second prefactor E_s, not G_s, and the "
        "sign + for the F of the alpha formulas)"
    )

    def theta_form(s: int, prefactor_e: bool, root: Any, plus: bool) -> Any:
        own = g_cells[s]
        x = (
            own["g"] * (one["e"] - two["e"])
            + (own["e"] if prefactor_e else own["g"]) * (one["g"] - two["g"])
            + two["a"]
            - one["a"]
        )
        theta = params[f"theta{s + 1}"]
        return 2 * root * theta - root - x if plus else 2 * root * theta - root + x

    prefactor_only = all(member(theta_form(s, True, expected, False)) for s in (0, 1))
    sign_only = all(member(theta_form(s, False, expected, True)) for s in (0, 1))
    other_root = all(member(theta_form(s, True, -expected, False)) for s in (0, 1))
    report.line(
        f"    one change alone is not enough: prefactor E_s with the printed sign in the ideal: "
        f"{yes(prefactor_only)}; sign + with the printed prefactor G_s: {yes(sign_only)}"
    )
    report.line(
        f"    prefactor E_s with the printed sign holds for the other root -F: {yes(other_root)} (the "
        f"printed theta and alpha formulas use opposite roots)"
    )
    failures += prefactor_only or sign_only or not other_root
    report.line("  alpha_1, alpha_2: right as printed (with F)")
    report.line(
        "  beta_s: printed ... + (d2/n2 - d1/n1) + F; in the ideal: ... - (d2/n2 - d1/n1) + F "
        "(the alphas with positive and negative swapped: a <-> d, g <-> h, e <-> f)"
    )
    mirror = _mirror(params)
    mirror_ok = all(
        member(den * mirror[name] - num)
        for name, (num, den) in estimators(*g_cells, -expected, printed=False).items()
    )
    report.line(
        "the corrected forms with -F give the mirror point (theta_s -> 1 - theta_s, alpha_i <-> 1 - "
        f"beta_i): {yes(mirror_ok)}"
    )
    failures += not mirror_ok

    report.section("the corrected closed form on exact simulations (expected sketches of random points)")
    for _ in range(N_SIMULATIONS):
        point = _random_point(rng)
        sketch = expected_sketch(point)
        freqs = [
            [
                sketch.frequencies(pop).get(p, Fraction(0))
                for p in (("a", "a"), ("a", "b"), ("b", "a"), ("b", "b"))
            ]
            for pop in SPEC.populations
        ]
        truth = truth_of(point)
        solutions = closed_form(freqs)
        shown = ", ".join(f"{k} = {v}" for k, v in truth.items())
        if solutions is None:
            report.line(f"{shown}: no rational solution (NOT expected)")
            failures += 1
            continue
        sign = (
            1
            if (truth["theta1"] - truth["theta2"])
            * (1 - truth["alpha1"] - truth["beta1"])
            * (1 - truth["alpha2"] - truth["beta2"])
            > 0
            else -1
        )
        recovered = solutions[0 if sign == 1 else 1] == truth
        mirrored = solutions[1 if sign == 1 else 0] == _mirror(truth)
        report.line(
            f"Q = {sketch.Q}; {shown}: the root F = (theta1 - theta2)J1 J2 recovers it: {yes(recovered)}; "
            f"the other root gives the mirror: {yes(mirrored)}"
        )
        failures += not (recovered and mirrored)

    status = compare_or_write(report, args.out, args.check)
    if failures:
        print(f"d06: {failures} check(s) failed", file=sys.stderr)
    return status or (1 if failures else 0)


def _mirror(params: Mapping[str, Any]) -> dict[str, Any]:
    """The label-swapped point: theta -> 1 - theta, alpha_i -> 1 - beta_i, beta_i -> 1 - alpha_i."""
    return {
        "theta1": 1 - params["theta1"],
        "theta2": 1 - params["theta2"],
        "alpha1": 1 - params["beta1"],
        "alpha2": 1 - params["beta2"],
        "beta1": 1 - params["alpha1"],
        "beta2": 1 - params["alpha2"],
    }


if __name__ == "__main__":
    sys.exit(main())
