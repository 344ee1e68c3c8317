r"""Closed forms derived from Gröbner bases, ready for the printer.

Everything here is computed, not typed in: the evaluator of three error-independent binary
classifiers comes from the lex Gröbner bases of derivation d02, the model from the
generating set, the containing-variety line from the elimination of derivation d03.

Three independent classifiers (``docs/theory.md#three-independent-classifiers``)
--------------------------------------------------------------------------------
1. Eliminating the accuracies from the moment-coordinate ideal leaves one quadratic
   ``a P_a^2 + b P_a + c``. Its discriminant is factored and its square factors taken out,
   ``b^2 - 4ac = S^2 d``, so the two roots are ``P_a = p + sigma q sqrt(d)`` with rational
   functions ``p = -b/2a``, ``q = S/2a`` and ``sigma = +1, -1``.
2. For every accuracy, eliminating the other five leaves polynomials linear in it,
   ``c_1(P_a) x + c_0(P_a)``. Each is solved in the quadratic field ``Q(moments)(sqrt d)``
   (``x = -c_0/c_1``, the denominator rationalised by its conjugate); every such polynomial
   must give the same canonical rational functions, which is checked.
3. The moments are made homogeneous in the pattern counts: with ``Q`` the test size and
   ``B_T`` the number of items on which every classifier of ``T`` answered ``b``, the
   frequency ``m_i = B_i / Q`` and the central moment ``D_T = E_T / Q^|T|`` with ``E_T`` an
   integer polynomial in ``Q`` and the ``B`` (from :func:`~evalgebra.groebner.coordinates.moments_of`
   applied to the inclusion-exclusion form of the pattern frequencies).
4. Each statistic becomes ``(num + sigma * root * sqrt(R)) / den`` with integer polynomials
   ``num, root, den`` and one radicand ``R`` free of square factors, so the generated code
   divides nothing and stays exact on integers.

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 and supplement
   S16-S43 (``docs/theory.md#three-independent-classifiers``).
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification", arXiv:2306.01726: section 5 and Theorem 4, the containing
   variety (``docs/theory.md#the-containing-variety-and-distance``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import sympy

from evalgebra.builder import GeneratingSet
from evalgebra.codegen.printer import Progress
from evalgebra.errors import InconsistentIdealError
from evalgebra.groebner.containing import containing_variety
from evalgebra.groebner.coordinates import moments_of
from evalgebra.groebner.elimination import eliminate, evaluation_ideal
from evalgebra.numbers.quadratic_extension import QuadraticExtension, Triple
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableRegistry, auxiliary_name

__all__ = [
    "IrrationalForm",
    "ThreeIndependent",
    "count_moments",
    "three_independent",
    "independent_model",
    "containing_line",
    "radical_outputs",
]


def _quiet(message: str) -> None:
    return None


@dataclass(frozen=True)
class IrrationalForm:
    """``(num + sigma * root * sqrt(radicand)) / den``: one statistic of both points."""

    num: sympy.Expr
    root: sympy.Expr
    den: sympy.Expr


@dataclass(frozen=True)
class ThreeIndependent:
    r"""The derived closed form of the N = 3, R = 2 error-independent evaluator.

    Attributes
    ----------
    counts : tuple of Symbol
        Pattern counts ``n_aaa .. n_bbb`` (registry order).
    prelude : tuple of (str, Expr)
        ``Q``, the ``B_T`` and the ``E_T`` in terms of the counts and of earlier names.
    radicand : Expr
        ``R`` in the prelude's names.
    statistics : tuple of (str, IrrationalForm)
        ``prev_a`` then ``acc_i_l`` in registry order.
    blind_spots : tuple of Expr
        The distinct irreducible factors of every denominator: where one vanishes the
        closed form is undefined.
    moment_forms : dict
        The same statistics in moment coordinates, ``(p, q, d)`` with value ``p + sigma q sqrt(d)``.
    """

    counts: tuple[sympy.Symbol, ...]
    prelude: tuple[tuple[str, sympy.Expr], ...]
    radicand: sympy.Expr
    statistics: tuple[tuple[str, IrrationalForm], ...]
    blind_spots: tuple[sympy.Expr, ...]
    moment_forms: dict[str, tuple[sympy.Expr, sympy.Expr, sympy.Expr]]


def count_moments(spec: EnsembleSpec) -> tuple[list[tuple[str, sympy.Expr]], dict[str, sympy.Expr]]:
    r"""Homogeneous integer moments of a one-population binary spec, from pattern counts.

    Returns the prelude ``[(name, expr)]`` (``Q``, every ``B_T``, every ``E_T`` with
    ``|T| >= 2``, each in counts or earlier names) and the substitution that turns the
    registry's moment symbols into them (``m_i_b -> B_i/Q``, ``D_T -> E_T/Q^|T|``).
    """
    if spec.n_labels != 2 or spec.n_populations != 1:
        raise InconsistentIdealError("count moments are defined for R = 2 and one population")
    key = (spec.classifiers, spec.labels)  # the moments of the counts do not depend on the structure
    if key not in _COUNT_MOMENTS:
        _COUNT_MOMENTS[key] = _count_moments(EnsembleSpec(spec.classifiers, spec.labels))
    prelude, substitution = _COUNT_MOMENTS[key]
    return list(prelude), dict(substitution)


_COUNT_MOMENTS: dict[
    tuple[tuple[str, ...], tuple[str, ...]], tuple[list[tuple[str, sympy.Expr]], dict[str, sympy.Expr]]
] = {}


def _count_moments(spec: EnsembleSpec) -> tuple[list[tuple[str, sympy.Expr]], dict[str, sympy.Expr]]:
    n = spec.n_classifiers
    registry = VariableRegistry(spec, "R")
    counts = registry.observables()
    patterns = list(itertools.product((0, 1), repeat=n))
    subsets = [t for size in range(1, n + 1) for t in itertools.combinations(range(n), size)]
    q = sympy.Symbol("Q")
    prelude: list[tuple[str, sympy.Expr]] = [("Q", sympy.Add(*counts))]
    b_sym = {}
    for t in subsets:
        name = auxiliary_name("B", t)
        b_sym[t] = sympy.Symbol(name)
        prelude.append((name, sympy.Add(*[c for c, d in zip(counts, patterns) if all(d[i] for i in t)])))
    # pattern frequencies by inclusion-exclusion over the b-sets, F_T = B_T / Q, F_() = 1
    f_sym = {t: b_sym[t] / q for t in subsets}
    f_sym[()] = sympy.Integer(1)
    freqs = []
    for d in patterns:
        bset = tuple(i for i in range(n) if d[i])
        rest = [i for i in range(n) if not d[i]]
        total = sympy.Integer(0)
        for size in range(len(rest) + 1):
            for extra in itertools.combinations(rest, size):
                total += (-1) ** size * f_sym[tuple(sorted(bset + extra))]
        freqs.append(total)
    moments = moments_of(spec, freqs)
    p_registry = VariableRegistry(spec)
    substitution: dict[str, sympy.Expr] = {}
    for key, value in moments.items():
        name = str(p_registry.symbol(key))
        t = key.classifiers
        if len(t) == 1:
            substitution[name] = b_sym[t] / q
            continue
        scaled = sympy.factor(sympy.cancel(value * q ** len(t)))
        if sympy.denom(scaled) != 1:
            raise InconsistentIdealError(f"{name} * Q^{len(t)} is not a polynomial in the counts")
        e_name = auxiliary_name("E", t)
        prelude.append((e_name, sympy.expand(scaled)))
        substitution[name] = sympy.Symbol(e_name) / q ** len(t)
    return prelude, substitution


def _square_split(expr: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """``expr = S^2 * d`` with ``d`` a polynomial free of square factors: returns ``(S, d)``.

    A rational function ``num/den`` is first written ``num*den / den^2``.
    """
    num_part, den_part = sympy.fraction(sympy.cancel(expr))
    constant, factors = sympy.factor_list(sympy.expand(num_part * den_part))
    square, rest = sympy.Integer(1), sympy.Integer(1)
    for factor, power in factors:
        square *= factor ** (power // 2)
        rest *= factor ** (power % 2)
    c = sympy.Rational(constant)
    # constants: sqrt(c) = sqrt(num * den) / den, then the integer's square part
    num = int(c.p) * int(c.q)
    root = sympy.sqrt(abs(num))
    outside = root.as_coeff_Mul()[0] if root.is_Mul else (root if root.is_Integer else sympy.Integer(1))
    inside = sympy.Integer(abs(num)) / outside**2
    sign = -1 if num < 0 else 1
    return square * outside / (c.q * den_part), sign * inside * rest


def _rational_field(d: sympy.Expr) -> QuadraticExtension:
    """``K(sqrt d)``, ``K`` the rational functions as SymPy expressions: every element ``(u, v, 1)``,
    cancelled.
    """
    return QuadraticExtension(d, normal=sympy.cancel, reduce=_over_one)


def _over_one(triple: Triple) -> Triple:
    """``(x, y, z)`` as ``(x / z, y / z, 1)``, cancelled: a field needs no denominator of its own."""
    x, y, z = triple
    return sympy.cancel(x / z), sympy.cancel(y / z), sympy.Integer(1)


def _at(field: QuadraticExtension, poly: sympy.Poly, root: Triple) -> Triple:
    return field.evaluate(poly.all_coeffs(), root, sympy.Integer(0), sympy.Integer(1))


def three_independent(progress: Progress = _quiet) -> ThreeIndependent:
    r"""Derive the closed form of the three-classifier independent evaluator (see the module notes).

    Examples
    --------
    >>> form = three_independent()
    >>> form.radicand
    4*E_0_1*E_0_2*E_1_2 + E_0_1_2**2
    >>> dict(form.statistics)["prev_a"].den
    8*E_0_1*E_0_2*E_1_2 + 2*E_0_1_2**2
    """
    spec = EnsembleSpec(3, 2)
    registry = VariableRegistry(spec)
    ideal = evaluation_ideal(spec, coordinates="moments")
    progress("eliminating the accuracies (prevalence quadratic)")
    quadratic = eliminate(ideal, "accuracy").to_sympy()
    prev = registry.variables(("prevalence",))[0]
    polys = [sympy.Poly(g, prev) for g in quadratic if g.has(prev)]
    if len(polys) != 1 or polys[0].degree() != 2:
        raise InconsistentIdealError(f"expected one quadratic in {prev}, got {quadratic}")
    a, b, c = polys[0].all_coeffs()
    square, d = _square_split(b**2 - 4 * a * c)
    field = _rational_field(d)
    root = (sympy.cancel(-b / (2 * a)), sympy.cancel(square / (2 * a)), sympy.Integer(1))
    moment_forms: dict[str, tuple[sympy.Expr, sympy.Expr, sympy.Expr]] = {str(prev): (*root[:2], d)}
    accuracies = registry.variables(("accuracy",))
    for acc in accuracies:
        progress(f"eliminating all accuracies but {acc}")
        others = [str(s) for s in accuracies if s != acc]
        lines = [g for g in eliminate(ideal, others).to_sympy() if sympy.degree(g, acc) == 1]
        values = set()
        for g in lines:
            c1, c0 = sympy.Poly(g, acc).all_coeffs()
            try:
                values.add(
                    field.divide(
                        _at(field, sympy.Poly(-c0, prev), root), _at(field, sympy.Poly(c1, prev), root)
                    )[:2]
                )
            except ZeroDivisionError:
                continue
        if len(values) != 1:
            raise InconsistentIdealError(
                f"{acc}: the linear polynomials give {len(values)} different solutions"
            )
        moment_forms[str(acc)] = (*values.pop(), d)
    progress("homogenising in the pattern counts")
    prelude, substitution = count_moments(spec)
    sub = {sympy.Symbol(k): v for k, v in substitution.items()}
    root_outside, radicand = _square_split(sympy.cancel(d.subs(sub)))
    radicand = sympy.expand(radicand)
    statistics = []
    factors: set[sympy.Expr] = set()
    for name, (p, q, _) in moment_forms.items():
        p_c = sympy.cancel(p.subs(sub))
        q_c = sympy.cancel(q.subs(sub) * root_outside)
        den = sympy.lcm(sympy.denom(p_c), sympy.denom(q_c))
        num, rt = sympy.cancel(p_c * den), sympy.cancel(q_c * den)
        if sympy.denom(num) != 1 or sympy.denom(rt) != 1:
            raise InconsistentIdealError(f"{name}: not a polynomial over a common denominator")
        statistics.append((name, IrrationalForm(sympy.expand(num), sympy.expand(rt), sympy.expand(den))))
        for factor, _ in sympy.factor_list(den)[1]:
            factors.add(factor)
    blind = tuple(sorted(factors, key=sympy.default_sort_key))
    return ThreeIndependent(
        tuple(VariableRegistry(spec, "R").observables()),
        tuple(prelude),
        radicand,
        tuple(statistics),
        blind,
        moment_forms,
    )


def independent_model(spec: EnsembleSpec) -> tuple[tuple[sympy.Symbol, ...], list[tuple[str, sympy.Expr]]]:
    r"""The pattern probabilities of an independent one-population spec, from its generating set.

    Returns the free P-space variables (registry order) and ``[(f_name, polynomial)]``: the
    generating set's ``f_d - model_d`` solved for ``f_d``.
    """
    gs = GeneratingSet(spec)
    registry = VariableRegistry(spec)
    variables = tuple(registry.variables(("prevalence", "accuracy", "response")))
    out = []
    for f, poly in zip(registry.observables(), gs.polynomials()):
        if sympy.Poly(poly, f).all_coeffs()[0] != 1 or sympy.degree(poly, f) != 1:
            raise InconsistentIdealError(f"the generating set polynomial of {f} is not f - model")
        out.append((str(f), sympy.expand(f - poly)))
    return variables, out


def containing_line() -> tuple[tuple[sympy.Symbol, ...], list[tuple[str, sympy.Expr]]]:
    r"""The single-classifier containing-variety polynomial as a line in the two accuracies.

    The containing variety of an ensemble is generated by one polynomial per classifier
    (derivation d03); for classifier 0 of ``containing_variety(1)`` it is
    ``alpha(P_a) acc_a + beta(P_a) acc_b + gamma(P_a, m_b)``. Returns ``(prev_a, m_0_b)`` and
    the three coefficients.
    """
    ideal = containing_variety(1)
    polys = ideal.to_sympy()
    if len(polys) != 1:
        raise InconsistentIdealError(f"expected one generator for N = 1, got {len(polys)}")
    registry = VariableRegistry(EnsembleSpec(1, 2))
    prev, acc_a, acc_b = registry.variables(("prevalence", "accuracy"))
    m_b = registry.observables("moments")[0]
    poly = sympy.Poly(polys[0], acc_a, acc_b)
    if poly.total_degree() != 1:
        raise InconsistentIdealError("the containing polynomial is not linear in the accuracies")
    alpha, beta = poly.coeff_monomial(acc_a), poly.coeff_monomial(acc_b)
    gamma = poly.coeff_monomial(1)
    return (prev, m_b), [("alpha", alpha), ("beta", beta), ("gamma", gamma)]


def radical_outputs(
    radicand: sympy.Expr, statistics: Sequence[tuple[str, IrrationalForm]]
) -> list[tuple[str, sympy.Expr]]:
    """The printer's output list of a closed form in one square root: the radicand ``R``, then
    ``num, root, den`` per statistic (the three-classifier form and Hui-Walter's alike)."""
    out: list[tuple[str, sympy.Expr]] = [("R", radicand)]
    for name, f in statistics:
        out += [(f"{name}_num", f.num), (f"{name}_root", f.root), (f"{name}_den", f.den)]
    return out
