r"""The Hui-Walter closed form (two tests, two populations), derived from the Gröbner module.

Nothing here is typed in: the closed form of derivation d06 is recomputed from the
evaluation ideal of ``EnsembleSpec(2, 2, populations=2)`` (independent tests; the
populations share the tests' accuracies and have their own prevalences) and rewritten so
that the generated code is homogeneous in the integer cross-tab counts and divides nothing.

Steps (all arithmetic exact, in python-flint polynomials)
---------------------------------------------------------
1. In moment coordinates (``m_s_i_b`` = share of population ``s`` that test ``i`` calls
   ``b``; ``D_s_0_1`` = the tests' covariance in population ``s``), eliminating every
   unknown but the last one of the registry order (the pivot, ``prev_s1_a``) leaves one
   quadratic ``a x^2 + b x + c``. Its discriminant is factored and split
   ``b^2 - 4ac = S^2 d`` with ``d`` free of square factors, so the pivot is
   ``(-b + sigma S sqrt(d)) / 2a`` for ``sigma = +1, -1``.
2. For every other unknown ``u``, eliminating the remaining four leaves polynomials linear
   in ``u``, ``c_1(x) u + c_0(x)``. Each is solved in the quadratic field ``K(sqrt d)``
   (``K`` the rational functions of the moments) by evaluating at the pivot and
   rationalising the denominator; every such polynomial must give the same value (checked;
   :class:`~evalgebra.errors.InconsistentIdealError` otherwise). The values are canonical,
   so the pairing of signs across unknowns is the one the ideal imposes.
3. Each moment becomes a ratio of integer polynomials in the counts of its population
   (:func:`~evalgebra.codegen.closed_forms.count_moments`, per population): ``m_s_i_b =
   B_s_i / Q_s`` and ``D_s_0_1 = E_s_0_1 / Q_s^2``. Substituting and clearing the powers of
   ``Q_s`` makes every statistic ``(num + sigma * root * sqrt(R)) / den`` with integer
   polynomials ``num, root, den`` in ``Q_s, B_s_i, E_s_0_1`` and one radicand ``R`` whose
   square factors are taken out. Common factors of ``num, root, den`` are divided out.

``R`` is the printed ``F^2`` of the first reference (eq 2) times ``(Q_s0 Q_s1)^4``; at a
true evaluation point ``F = (theta1 - theta2)(1 - alpha1 - beta1)(1 - alpha2 - beta2)``
(d06).

References
----------
.. [1] Anonymous authors (under review at TMLR), "Unlocking Unlabeled Data: Ensemble Learning
   with the Hui-Walter Paradigm for Performance Estimation in Online and Static Settings":
   eqs 1-3 (``docs/theory.md#hui-walter``).
.. [2] S. L. Hui and S. D. Walter, "Estimating the error rates of diagnostic tests",
   Biometrics 36 (1980), as cited by the first reference.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import flint
import sympy

from evalgebra.codegen.closed_forms import IrrationalForm, count_moments, independent_model, radical_outputs
from evalgebra.codegen.printer import Progress
from evalgebra.errors import InconsistentIdealError
from evalgebra.groebner.elimination import eliminate, evaluation_ideal
from evalgebra.groebner.polys import PolyRing
from evalgebra.numbers.quadratic_extension import QuadraticExtension, Triple
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableRegistry, auxiliary_name

__all__ = ["HUI_WALTER_SPEC", "HuiWalterForm", "hui_walter", "hui_walter_model", "hui_walter_outputs"]

#: Two binary tests, two populations, independent (the Hui-Walter setting).
HUI_WALTER_SPEC = EnsembleSpec(2, 2, populations=2)


def _quiet(message: str) -> None:
    return None


@dataclass(frozen=True)
class HuiWalterForm:
    r"""The derived closed form of the Hui-Walter evaluator.

    Attributes
    ----------
    counts : tuple of Symbol
        Cross-tab counts ``n_s0_aa .. n_s1_bb``: population, then the pattern (test 0's
        answer, test 1's answer) in registry order.
    prelude : tuple of (str, Expr)
        Per population: ``Q_s`` (its size), ``B_s_i`` (items test ``i`` called b),
        ``B_s_0_1`` (both called b) and ``E_s_0_1 = Q_s^2 D_s_0_1`` (scaled covariance).
    radicand : Expr
        ``R`` in the prelude's names, free of square factors.
    statistics : tuple of (str, IrrationalForm)
        ``prev_s0_a, prev_s1_a, acc_0_a, acc_0_b, acc_1_a, acc_1_b``.
    blind_spots : tuple of Expr
        The distinct irreducible factors of every denominator.
    moment_forms : dict
        Statistic -> ``(p, q, d)`` in moment coordinates, value ``p + sigma q sqrt(d)``.
    pivot : str
        The unknown whose quadratic was solved first.
    """

    counts: tuple[sympy.Symbol, ...]
    prelude: tuple[tuple[str, sympy.Expr], ...]
    radicand: sympy.Expr
    statistics: tuple[tuple[str, IrrationalForm], ...]
    blind_spots: tuple[sympy.Expr, ...]
    moment_forms: dict[str, tuple[sympy.Expr, sympy.Expr, sympy.Expr]]
    pivot: str


# -- exact arithmetic in K(sqrt d), K = rational functions over Q: flint polynomials (x + y sqrt d) / z --
def _reduced(u: Triple) -> Triple:
    """Divide out the common factor; the denominator's leading coefficient becomes 1."""
    g = u[0].gcd(u[1]).gcd(u[2])
    x, y, z = (p / g for p in u)
    lead = z.leading_coefficient()
    return (x / lead, y / lead, z / lead)


def _coefficients(poly: Any, position: int, ring: PolyRing) -> list[Any]:
    """Coefficients of ``poly`` in the variable at ``position``, constant term first."""
    out: dict[int, Any] = {}
    for monomial, coeff in zip(poly.monoms(), poly.coeffs()):
        rest = monomial[:position] + (0,) + monomial[position + 1 :]
        out[monomial[position]] = out.get(monomial[position], ring.q.from_dict({})) + ring.q.from_dict(
            {rest: coeff}
        )
    return [out.get(k, ring.q.from_dict({})) for k in range(max(out) + 1)]


def _square_split(poly: Any, ring: PolyRing) -> tuple[Any, Any]:
    """``poly = S^2 d`` with ``d`` an integer polynomial free of square factors: ``(S, d)``."""
    constant, factors = poly.factor()
    square, rest = ring.q.from_dict({(0,) * ring.nvars: 1}), ring.q.from_dict({(0,) * ring.nvars: 1})
    c = flint.fmpq(constant)
    for factor, power in factors:
        primitive = ring.rational(ring.primitive(factor))
        c *= (factor.leading_coefficient() / primitive.leading_coefficient()) ** power
        square *= primitive ** (power // 2)
        rest *= primitive ** (power % 2)
    # the constant c = p/q: sqrt(c) = sqrt(p q) / q, then the square part of the integer p q
    number = int(c.p) * int(c.q)
    outside = 1
    for prime, power in sympy.factorint(abs(number)).items():
        outside *= prime ** (power // 2)
    inside = (abs(number) // outside**2) * (-1 if number < 0 else 1)
    return square * flint.fmpq(outside, int(c.q)), rest * inside


# -- moment coordinates -> counts ----------------------------------------------------------------
def _population_counts(
    spec: EnsembleSpec,
) -> tuple[tuple[sympy.Symbol, ...], list[tuple[str, sympy.Expr]], dict[str, tuple[str, int, int]]]:
    r"""Count symbols, the per-population prelude and how each moment symbol becomes counts.

    The one-population count moments of :func:`count_moments` are renamed per population
    with the registry's stratum convention (``Q -> Q_s0``, ``B_0 -> B_s0_0``, ``n_aa ->
    n_s0_aa``, as ``f_aa -> f_s0_aa``). Returns the count symbols (registry order), the
    prelude and ``moment name -> (count name, population, power of Q_s dividing it)``.
    """
    registry = VariableRegistry(spec)
    one = EnsembleSpec(spec.classifiers, spec.labels, spec.structure)
    prelude_one, substitution = count_moments(one)
    one_counts = VariableRegistry(one, "R").observables()
    one_keys = VariableRegistry(one).keys("moment")
    one_names = {str(VariableRegistry(one).symbol(k)): k for k in one_keys}
    frequencies = registry.observables()
    # the registry names frequencies f_s{s}_{pattern}; counts are the same with n
    counts = tuple(sympy.Symbol("n" + str(f)[1:]) for f in frequencies)
    prelude: list[tuple[str, sympy.Expr]] = []
    moments: dict[str, tuple[str, int, int]] = {}
    n_patterns = len(one_counts)
    for s in range(spec.n_populations):

        def stratum(name: str, s: int = s) -> str:
            head, _, rest = name.partition("_")
            return f"{head}_s{s}" + (f"_{rest}" if rest else "")

        rename = {c: counts[s * n_patterns + k] for k, c in enumerate(one_counts)}
        symbols = {sympy.Symbol(name): sympy.Symbol(stratum(name)) for name, _ in prelude_one}
        rename.update(symbols)
        for name, expr in prelude_one:
            prelude.append((stratum(name), expr.xreplace(rename)))
        for name, value in substitution.items():
            key = dataclasses.replace(one_names[name], population=s)
            numerator, denominator = sympy.fraction(value)
            power = sympy.degree(denominator, sympy.Symbol("Q"))
            moments[str(registry.symbol(key))] = (stratum(str(numerator)), s, int(power))
    return counts, prelude, moments


class _Homogeniser:
    """Moment polynomials -> count polynomials times powers of ``1/Q_s``, exactly (flint)."""

    def __init__(
        self, source: PolyRing, moments: dict[str, tuple[str, int, int]], n_populations: int
    ) -> None:
        self.source = source
        names = sorted({count for count, _, _ in moments.values()})
        sizes = [f"Q_s{s}" for s in range(n_populations)]
        inverses = [auxiliary_name("inv", (s,)) for s in range(n_populations)]
        self.target = PolyRing(sizes + names + inverses, "lex")
        gens = dict(zip(self.target.names, self.target.gens()))
        self.sizes = [gens[q] for q in sizes]
        self.inverse_positions = [self.target.names.index(v) for v in inverses]
        zero = self.target.q.from_dict({})
        self.images = []
        self.others = []  # positions of the source's unknowns: they must not occur
        for k, name in enumerate(source.names):
            if name not in moments:
                self.images.append(zero)
                self.others.append(k)
                continue
            count, s, power = moments[name]
            self.images.append(gens[count] * gens[inverses[s]] ** power)

    def __call__(self, poly: Any) -> tuple[Any, list[int]]:
        """``poly(moments) = H / prod_s Q_s^k_s``: returns ``(H, [k_s])``, ``H`` in counts."""
        if any(poly.degrees()[k] for k in self.others):
            raise InconsistentIdealError("a closed-form part still involves an unknown")
        composed = poly.compose(*self.images, ctx=self.target.q)
        powers = [max((m[p] for m in composed.monoms()), default=0) for p in self.inverse_positions]
        terms: dict[tuple[int, ...], Any] = {}
        for monomial, coeff in zip(composed.monoms(), composed.coeffs()):
            exps = list(monomial)
            for k, (p, top) in enumerate(zip(self.inverse_positions, powers)):
                exps[k] += top - exps[p]  # Q_s^(top - e) (the sizes come first in the ring)
                exps[p] = 0
            terms[tuple(exps)] = coeff
        return self.target.q.from_dict(terms), powers

    def scale(self, powers: Sequence[int]) -> Any:
        out = self.target.q.from_dict({(0,) * self.target.nvars: 1})
        for q, k in zip(self.sizes, powers):
            out *= q**k
        return out


def _integer_triple(triple: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """Common factors divided out; integer coefficients, coprime; denominator's lead > 0."""
    g = triple[0].gcd(triple[1]).gcd(triple[2])
    parts = [p / g for p in triple]
    lcm = 1
    for p in parts:
        for c in p.coeffs():
            lcm = math.lcm(lcm, int(flint.fmpq(c).q))
    ints = [p * lcm for p in parts]
    content = 0
    for p in ints:
        for c in p.coeffs():
            content = math.gcd(content, int(flint.fmpq(c).p))
    sign = -1 if ints[2].leading_coefficient() < 0 else 1
    return tuple(p * flint.fmpq(sign, content) for p in ints)  # type: ignore[return-value]


def hui_walter(progress: Progress = _quiet) -> HuiWalterForm:
    r"""Derive the Hui-Walter closed form (see the module notes).

    Examples
    --------
    >>> form = hui_walter()
    >>> [name for name, _ in form.statistics]
    ['prev_s0_a', 'prev_s1_a', 'acc_0_a', 'acc_0_b', 'acc_1_a', 'acc_1_b']
    >>> form.pivot, len(form.blind_spots)
    ('prev_s1_a', 5)
    """
    spec = HUI_WALTER_SPEC
    registry = VariableRegistry(spec)
    ideal = evaluation_ideal(spec, coordinates="moments")
    ring = ideal.ring
    unknowns = [str(v) for v in registry.variables(("prevalence", "accuracy"))]
    pivot = [name for name in ring.names if name in unknowns][-1]
    position = ring.names.index(pivot)
    progress(f"eliminating all unknowns but {pivot} (its quadratic)")
    elim = eliminate(ideal, [u for u in unknowns if u != pivot])
    quadratics = [ring.convert(p, elim.ring) for p in elim if p.degrees()[elim.ring.names.index(pivot)]]
    if len(quadratics) != 1 or quadratics[0].degrees()[position] != 2:
        raise InconsistentIdealError(
            f"expected one quadratic in {pivot}, got {len(quadratics)} polynomial(s)"
        )
    c, b, a = _coefficients(quadratics[0], position, ring)
    square, d = _square_split(b * b - 4 * a * c, ring)
    field = QuadraticExtension(d, reduce=_reduced)
    root = _reduced((-b, square, 2 * a))
    values: dict[str, tuple[Any, Any, Any]] = {pivot: root}
    for name in unknowns:
        if name == pivot:
            continue
        progress(f"eliminating all unknowns but {name} and {pivot}")
        part = eliminate(ideal, [u for u in unknowns if u not in (name, pivot)])
        at = part.ring.names.index(name)
        found: list[tuple[Any, Any, Any]] = []
        for poly in part:
            if poly.degrees()[at] != 1:
                continue
            c0, c1 = (ring.convert(p, part.ring) for p in _coefficients(poly, at, part.ring))
            try:
                found.append(
                    field.divide(
                        _horner(field, -c0, position, ring, root), _horner(field, c1, position, ring, root)
                    )
                )
            except ZeroDivisionError:
                continue
        if not found or not all(field.same(found[0], v) for v in found[1:]):
            raise InconsistentIdealError(
                f"{name}: the polynomials linear in it give {len(found)} solution(s) that do not all agree"
            )
        values[name] = found[0]

    progress("homogenising in the cross-tab counts")
    counts, prelude, moments = _population_counts(spec)
    homogenise = _Homogeniser(ring, moments, spec.n_populations)
    d_num, d_powers = homogenise(d)
    # sqrt(d) = sqrt(d_num * Q^k) / Q^k with Q^k = prod Q_s^k_s: split the square part off
    outside, radicand = _square_split(d_num * homogenise.scale(d_powers), homogenise.target)
    sqrt_den = homogenise.scale(d_powers)
    statistics = []
    moment_forms = {}
    factors: dict[str, Any] = {}
    to_sympy = homogenise.target
    for name in unknowns:
        x, y, z = values[name]
        (xh, kx), (yh, ky), (zh, kz) = homogenise(x), homogenise(y), homogenise(z)
        # (x + y sqrt(d)) / z with x = xh/Q^kx, ...: multiply by Q^top * z's power
        top = [max(a_, b_) for a_, b_ in zip(kx, ky)]
        num = xh * homogenise.scale([t - k for t, k in zip(top, kx)]) * sqrt_den
        rt = yh * homogenise.scale([t - k for t, k in zip(top, ky)]) * outside
        den = zh * homogenise.scale([t - k for t, k in zip(top, kz)]) * sqrt_den
        lower = [min(t - k, 0) for t, k in zip(top, kz)]  # z's own 1/Q powers move up
        if any(lower):
            lift = homogenise.scale([-v for v in lower])
            num, rt = num * lift, rt * lift
            den = zh * homogenise.scale([max(t - k, 0) for t, k in zip(top, kz)]) * sqrt_den
        num, rt, den = _integer_triple((num, rt, den))
        forms = [to_sympy.to_sympy(p) for p in (num, rt, den)]
        statistics.append((name, IrrationalForm(*(sympy.expand(f) for f in forms))))
        for factor, _ in den.factor()[1]:
            primitive = to_sympy.rational(to_sympy.primitive(factor))
            factors[str(primitive)] = primitive
        moment_forms[name] = (
            ring.to_sympy(x) / ring.to_sympy(z),
            ring.to_sympy(y) / ring.to_sympy(z),
            ring.to_sympy(d),
        )
    blind = tuple(
        sorted((sympy.expand(to_sympy.to_sympy(f)) for f in factors.values()), key=sympy.default_sort_key)
    )
    return HuiWalterForm(
        counts,
        tuple(prelude),
        sympy.expand(to_sympy.to_sympy(radicand)),
        tuple(statistics),
        blind,
        moment_forms,
        pivot,
    )


def _horner(field: QuadraticExtension, poly: Any, position: int, ring: PolyRing, at: Triple) -> Triple:
    """``poly`` (a polynomial in the pivot at ``position``) evaluated at the field element ``at``."""
    one = ring.q.from_dict({(0,) * ring.nvars: 1})
    zero = ring.q.from_dict({})
    return field.evaluate(reversed(_coefficients(poly, position, ring)), at, zero, one)


def hui_walter_model() -> tuple[tuple[sympy.Symbol, ...], list[tuple[str, sympy.Expr]]]:
    """The cross-tab probabilities of both populations, from the multi-population generating set."""
    return independent_model(HUI_WALTER_SPEC)


def hui_walter_outputs(form: HuiWalterForm) -> list[tuple[str, sympy.Expr]]:
    """The printer's outputs: those of every closed form in one root
    (:func:`~evalgebra.codegen.closed_forms.radical_outputs`), then every blind-spot factor."""
    out = radical_outputs(form.radicand, form.statistics)
    out += [(f"factor_{k}", f) for k, f in enumerate(form.blind_spots)]
    return out
