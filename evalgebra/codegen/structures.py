r"""Evaluators for correlated binary classifiers: derive the eliminant and back-substitution, emit a module.

For a spec with two labels and a correlation structure ``S``, the evaluation ideal in moment
coordinates is rewritten in the project's Youden coordinates (as in
:func:`evalgebra.groebner.identifiability.youden_ideal`, here with the observations symbolic):
``P_{i,a} = 1 + (1 - P_a) J_i - m_i`` and ``P_{i,b} = P_a J_i + m_i`` use up the single
moments, and ``G^a_T = (-1)^{|T|} (u_T + P_b w_T)``, ``G^b_T = u_T - P_a w_T`` make ``u_T``
appear in the generator of ``D_T`` with coefficient 1, so it is solved for and substituted.
What is left are the generators of ``D_T`` for ``T`` outside ``S``, in the prevalence ``p``,
the ``J_i`` and the ``w_T``.

Derivation (:func:`derive_structure`), all symbolic, the observations ``D_T`` kept as symbols:

1. *Parameter.* One Youden index ``t = J_k`` is taken as a parameter besides ``p``. With ``p``
   and ``t`` known, the other unknowns are found by a greedy sequence of small *linear* solves
   (the fewest unknowns first; each system picked by its exact rank at a random rational
   point and solved by Cramer's rule). The first classifier ``k`` for which this determines
   every unknown is used.
2. *Eliminant.* The generators not used by the solves (the *leftovers*) involve ``p`` and
   ``t`` only after back-substitution. When one of them is linear in ``t`` (there is a trio of
   classifiers with no subset of ``S`` inside it), ``t`` is a rational function of ``p`` and
   the numerator of another leftover is the eliminant; otherwise the eliminant is the
   resultant in ``t`` of two leftovers and ``t`` comes from their first subresultant (linear
   in ``t``: the shape lemma). Factors free of the observations (powers of ``p``, ``1 - p``,
   ``2p - 1``) and monomials in the ``D_T`` are stripped.
3. *Counts.* ``m_i = B_i / Q`` and ``D_T = E_T / Q^{|T|}`` with integer polynomials ``B_T,
   E_T`` in the pattern counts (:func:`evalgebra.codegen.closed_forms.count_moments`); every
   coefficient of the eliminant becomes an integer polynomial in ``Q`` and the ``E_T``, and
   every step of the back-substitution ``numerator / denominator`` with integer polynomials in
   ``Q``, the ``E_T``, ``p`` and the unknowns found before.

Contract of a generated module ``evalgebra/generated/structures/n{N}_r{R}_{name}.py`` (``name``
the canonical structure, subsets joined by ``_``, e.g. ``01_02``) -- the runtime codes against it:

* constants ``N_CLASSIFIERS``, ``N_LABELS``, ``STRUCTURE`` (canonical, sorted index tuples),
  ``DEGREE`` (degree of the eliminant), ``UNKNOWNS`` (registry names, prevalence first), and
  ``PARAMETER`` (the Youden index used as parameter);
* ``moments(*counts)``: ``Q``, the ``B_T`` and the ``E_T`` (integers on integer counts); for
  N = 3, 4, 5 imported from ``generated/structures/common.py`` (with ``div`` and
  ``entry_points``, which makes ``eliminant``, ``back_substitute``, ``back_substitute_all`` and
  ``residuals`` from the module's own parts), else printed in the module;
* ``eliminant(counts) -> list`` of coefficients, low -> high, of a polynomial in ``prev_a``
  whose roots are the points' prevalences; ``counts`` are the ``2^N`` pattern counts in
  pattern order; division-free, exact on ``int``, elementwise on NumPy float arrays (pass
  floats: integer arrays overflow); every coefficient zero means the counts lie on a
  positive-dimensional family of evaluations (a blind spot of the structure, not of the
  parameterisation: on the path P4 ``0-1, 0-2, 1-3`` exactly when the middle pair's correlation
  is the same on both labels, ``G^a_01 = G^b_01``, where the Gröbner route finds a curve of
  evaluations too): not finitely many points;
* ``back_substitute(counts, prevalence) -> dict`` name -> value for every other unknown
  (accuracies ``acc_i_l``, correlations ``corr_..._l``), using ``+ - * /`` only, so it runs on
  ``Fraction``, ``fmpq``, exact number-field elements and NumPy floats; ``None`` where a
  denominator vanishes (a blind spot; on NumPy arrays the entries are ``inf``/``nan`` instead);
* ``prepare(*moments) -> tuple`` (per sketch: every coefficient of the back-substitution that
  depends on the counts only, integer polynomials in the moments) and ``solve(prepared,
  prevalence) -> dict`` (per root: Horner polynomials in the prevalence over those coefficients,
  one division per unknown; raises ``common.Blind`` on a zero denominator);
  ``back_substitute_all(counts, prevalences)`` runs ``prepare`` once and ``solve`` per root (a
  rational root whose ``1 - p`` came first gets the label swap of that point);
* ``residuals(counts, values) -> list``: the generators of the model in moment coordinates,
  scaled to counts, at a point (``values`` = the dict of every unknown, prevalence included):
  all zero exactly when the point explains the counts (the eliminant alone assumes that the
  sketch lies on the model).

Speed: the back-substitution is plain arithmetic, so its exact cost is that of the number type:
python-flint ``fmpz`` counts (``prepare`` in integers) with ``fmpq`` prevalences run it several
times faster than ``Fraction``; the per-sketch part is paid once however many roots there are
(the triangle on four classifiers: six roots, one ``prepare``, three ``solve`` and three label
swaps).

``evalgebra/generated/structures/INDEX.json`` lists every structure of the identifiability
atlas (``N``, ``R``, structure, dimension, points, finite, module or null).

Examples
--------
>>> form = derive_structure(4, [(0, 1)])
>>> form.name, form.parameter, form.degree
('01', 'J_3', 2)

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": Theorems 1 and 3 (the generating set with correlations).
.. [2] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 (the quadratic of an
   independent trio).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from evalgebra.builder import GeneratingSet
from evalgebra.codegen.closed_forms import count_moments
from evalgebra.codegen.printer import CodegenError, Progress
from evalgebra.groebner.elimination import evaluation_ideal
from evalgebra.groebner.polys import PolyRing
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import Structure, canonical_structure
from evalgebra.variables import VariableKey, auxiliary_name

__all__ = ["Step", "StructureForm", "count_symbols", "derive_structure", "module_name"]

PREVALENCE = sympy.Symbol("prev_a")
_MAX_BLOCK = 4


def _quiet(message: str) -> None:
    return None


def module_name(n_classifiers: int, structure: Sequence[Sequence[int]], n_labels: int = 2) -> str:
    """File stem of a structure's generated module.

    >>> module_name(4, [(0, 1), (0, 2)])
    'n4_r2_01_02'
    """
    joiner = "" if n_classifiers <= 10 else "."
    parts = ["".join(str(i) for i in s) if not joiner else joiner.join(str(i) for i in s) for s in structure]
    return f"n{n_classifiers}_r{n_labels}_" + ("_".join(parts) or "independent")


@dataclass(frozen=True)
class Step:
    """Unknowns found together: ``unknown = numerator / denominator`` (polynomials in counts and earlier
    names).
    """

    unknowns: tuple[str, ...]
    numerators: tuple[sympy.Expr, ...]
    denominators: tuple[sympy.Expr, ...]


@dataclass(frozen=True)
class StructureForm:
    r"""The derived evaluator of one correlation structure (see the module docstring).

    Attributes
    ----------
    n_classifiers : int
    structure : Structure
        Canonical form.
    name : str
        Subsets joined by ``_`` (``01_02``).
    unknowns : tuple of str
        Registry names, prevalence first.
    parameter : str
        The Youden index used as parameter (``J_k``).
    eliminant : tuple of Expr
        Coefficients (low -> high) in ``prev_a``: integer polynomials in ``Q`` and the ``E_T``.
    steps : tuple of Step
        The parameter first, then the greedy linear solves, then the ``u_T``.
    outputs : tuple of (str, Expr, Expr)
        Every unknown but the prevalence as ``numerator, denominator``.
    residuals : tuple of Expr
        The model's generators scaled to counts (``Q^|T| D_T`` minus the model), in the
        unknowns' registry names.
    counts : tuple of Symbol
    prelude : tuple of (str, Expr)
        ``Q``, ``B_T``, ``E_T`` from the counts.
    method : str
        ``"linear parameter"`` or ``"resultant"``.
    seconds : float
        Derivation time.
    """

    n_classifiers: int
    structure: Structure
    name: str
    unknowns: tuple[str, ...]
    parameter: str
    eliminant: tuple[sympy.Expr, ...]
    steps: tuple[Step, ...]
    outputs: tuple[tuple[str, sympy.Expr, sympy.Expr], ...]
    residuals: tuple[sympy.Expr, ...]
    counts: tuple[sympy.Symbol, ...]
    prelude: tuple[tuple[str, sympy.Expr], ...]
    method: str
    seconds: float

    @property
    def degree(self) -> int:
        return len(self.eliminant) - 1

    @property
    def module(self) -> str:
        return module_name(self.n_classifiers, self.structure)


# -- the system in Youden coordinates --------------------------------------------------------------
def _flint_moments(spec: EnsembleSpec) -> tuple[Any, dict[tuple[int, ...], Any], dict[str, Any]]:
    """The ring of the evaluation ideal in moment coordinates, its generators by subset, its gens by name."""
    source = evaluation_ideal(spec, coordinates="moments", blocks=("prevalence", "accuracy", "correlation"))
    registry = source.registry  # type: ignore[attr-defined]
    keys = [k for k in registry.keys("moment")]
    by_subset = {}
    for key in keys:
        observed = source.ring.names.index(str(registry.symbol(key)))
        matches = [
            g
            for g in source.generators
            if g.degrees()[observed] == 1
            and sum(
                1
                for name in source.ring.names
                if name.startswith(("m_", "D_")) and g.degrees()[source.ring.names.index(name)]
            )
            == 1
        ]
        if len(matches) != 1:
            raise CodegenError(f"moment {registry.symbol(key)}: expected one generator, found {len(matches)}")
        by_subset[key.classifiers] = matches[0]
    return source.ring, by_subset, dict(zip(source.ring.names, source.ring.gens()))


def _system(
    spec: EnsembleSpec,
) -> tuple[dict[tuple[int, ...], sympy.Expr], dict[str, sympy.Expr], dict[str, sympy.Expr]]:
    """Generators ``D_T - model`` (``T`` outside ``S``), the ``u_T`` solved, and the map to registry names."""
    n = spec.n_classifiers
    registry = GeneratingSet(spec).registry
    source, by_subset, _ = _flint_moments(spec)
    observed_names = [name for name in source.names if name.startswith(("m_", "D_"))]
    j_names = [auxiliary_name("J", (i,)) for i in range(n)]
    u_names = [auxiliary_name("u", t) for t in spec.structure]
    w_names = [auxiliary_name("w", t) for t in spec.structure]
    ring = PolyRing([str(PREVALENCE), *j_names, *u_names, *w_names, *observed_names], "lex")
    g = dict(zip(ring.names, ring.gens()))
    p = g[str(PREVALENCE)]
    image: dict[str, Any] = {str(PREVALENCE): p}
    for name in observed_names:
        image[name] = g[name]
    back: dict[str, sympy.Expr] = {}
    for i in range(n):
        m_i = g[str(registry.symbol(VariableKey("moment", (i,), (1,), 0)))]
        for ell, value in ((0, 1 + (1 - p) * g[j_names[i]] - m_i), (1, p * g[j_names[i]] + m_i)):
            name = str(registry.symbol(VariableKey("accuracy", (i,), (ell,))))
            image[name] = value
            back[name] = ring.to_sympy(value)
    for t, u_name, w_name in zip(spec.structure, u_names, w_names):
        u, w = g[u_name], g[w_name]
        for ell, value in ((0, (-1) ** len(t) * (u + (1 - p) * w)), (1, u - p * w)):
            name = str(registry.symbol(VariableKey("correlation", t, (ell,) + (ell,) * len(t))))
            image[name] = value
            back[name] = ring.to_sympy(value)
    images = [image[name] for name in source.names]
    equations: dict[tuple[int, ...], sympy.Expr] = {}
    for subset, poly in by_subset.items():
        mapped = poly.compose(*images, ctx=ring.q)
        if len(subset) >= 2:
            equations[subset] = sympy.expand(ring.to_sympy(mapped))
        elif mapped.coeffs():
            raise CodegenError(
                f"classifier {subset[0]}: the single moment does not vanish in Youden coordinates"
            )
    solved: dict[str, sympy.Expr] = {}
    for t in spec.structure:  # by size: lower u's are substituted before
        u = sympy.Symbol(auxiliary_name("u", t))
        eq = equations.pop(t)
        if sympy.Poly(eq, u).degree() != 1 or abs(eq.coeff(u)) != 1:
            raise CodegenError(f"{t}: u_T does not enter D_T with coefficient +-1")
        value = sympy.expand(u - eq / eq.coeff(u))
        solved[str(u)] = value
        equations = {k: sympy.expand(e.xreplace({u: value})) for k, e in equations.items()}
        solved = {k: sympy.expand(v.xreplace({u: value})) for k, v in solved.items()}
    return equations, solved, back


def _linear_in(eq: sympy.Expr, unknowns: Sequence[sympy.Symbol]) -> bool:
    return sympy.Poly(eq, *unknowns).total_degree() <= 1


def _random_values(symbols: Any, rng: random.Random) -> dict[sympy.Symbol, sympy.Rational]:
    return {
        s: sympy.Rational(rng.randint(-97, 97) or 1, rng.randint(2, 89)) for s in sorted(symbols, key=str)
    }


def _greedy(
    equations: list[sympy.Expr], unknowns: list[sympy.Symbol], rng: random.Random
) -> tuple[list[tuple[list[sympy.Symbol], list[sympy.Expr]]], list[sympy.Expr]] | None:
    """Linear solves that determine ``unknowns``: ``[(block, its equations)]`` and the leftovers."""
    left, remaining, blocks = list(equations), list(unknowns), []
    while remaining:
        found = None
        sizes = list(range(1, min(_MAX_BLOCK, len(remaining)) + 1))
        if len(remaining) > _MAX_BLOCK:
            sizes.append(len(remaining))
        for size in sizes:
            for block in itertools.combinations(remaining, size):
                inside = set(block)
                candidates = [
                    e
                    for e in left
                    if (e.free_symbols & set(remaining))
                    and e.free_symbols & set(remaining) <= inside
                    and _linear_in(e, block)
                ]
                if len(candidates) < size:
                    continue
                values = _random_values(set().union(*(e.free_symbols for e in candidates)) - inside, rng)
                chosen: list[sympy.Expr] = []
                rows: list[list[sympy.Expr]] = []
                for e in sorted(
                    candidates, key=lambda e: (len(sympy.Add.make_args(e)), sympy.default_sort_key(e))
                ):
                    row = [sympy.diff(e, x).xreplace(values) for x in block]
                    if sympy.Matrix(rows + [row]).rank() > len(rows):
                        chosen.append(e)
                        rows.append(row)
                    if len(chosen) == size:
                        break
                if len(chosen) == size:
                    found = (list(block), chosen)
                    break
            if found:
                break
        if found is None:
            return None
        blocks.append(found)
        left = [e for e in left if e not in found[1]]
        remaining = [x for x in remaining if x not in found[0]]
    return blocks, left


def _solve_block(block: list[sympy.Symbol], eqs: list[sympy.Expr]) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """Cramer's rule: each unknown as ``(numerator, denominator)``, common factors cancelled."""
    matrix = sympy.Matrix([[sympy.diff(e, x) for x in block] for e in eqs])
    rhs = sympy.Matrix([-e.xreplace({x: 0 for x in block}) for e in eqs])
    det = sympy.factor(matrix.det(method="berkowitz"))
    out = []
    for k in range(len(block)):
        replaced = matrix.copy()
        replaced[:, k] = rhs
        ratio = sympy.cancel(sympy.factor(replaced.det(method="berkowitz")) / det)
        out.append(sympy.fraction(ratio))
    return out


def _flint(exprs: Sequence[sympy.Expr]) -> tuple[PolyRing, list[Any]]:
    """Integer-coefficient SymPy polynomials as python-flint ``fmpz_mpoly`` (names sorted, prevalence
    first).
    """
    names = sorted({str(x) for e in exprs for x in e.free_symbols} - {str(PREVALENCE)})
    ring = PolyRing([str(PREVALENCE), *names], "lex")
    symbols = [sympy.Symbol(n) for n in ring.names]
    polys = []
    for e in exprs:
        _, poly = sympy.Poly(sympy.expand(e), *symbols).clear_denoms(convert=True)
        if any(not c.is_Integer for c in poly.coeffs()):
            raise CodegenError(f"{e}: not an integer polynomial")
        polys.append(ring.z.from_dict({m: int(c) for m, c in poly.terms()}))
    return ring, polys


def _sympy(ring: PolyRing, poly: Any) -> sympy.Expr:
    return ring.to_sympy(ring.q.from_dict({m: int(c) for m, c in zip(poly.monoms(), poly.coeffs())}))


def _strip(poly: sympy.Expr, observed: set[sympy.Symbol]) -> sympy.Expr:
    """The factors of ``poly`` that involve both the prevalence and an observation (power 1)."""
    ring, (flint_poly,) = _flint([poly])
    names = {str(o) for o in observed}
    kept = sympy.Integer(1)
    for factor, _ in flint_poly.factor()[1]:
        used = {ring.names[k] for k, d in enumerate(factor.degrees()) if d}
        if str(PREVALENCE) in used and used & names:
            kept *= _sympy(ring, factor)
    return kept


def _eliminate_parameter(
    first: sympy.Expr, second: sympy.Expr, t: sympy.Symbol
) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """Resultant of two polynomials in ``t`` and the last remainder of degree 1 in ``t`` (as ``-r0 / r1``).

    The remainders are pseudo-remainders divided by their content (python-flint): each lies
    in the ideal of the two polynomials up to a factor free of ``t``, so at a common root
    the degree-1 remainder vanishes and gives ``t``.
    """
    ring, (a, b) = _flint([first, second])
    k = ring.names.index(str(t))
    resultant = a.resultant(b, str(t))

    def coefficients(poly: Any) -> list[Any]:
        degree = poly.degrees()[k]
        out = [ring.z.from_dict({}) for _ in range(degree + 1)]
        for m, c in zip(poly.monoms(), poly.coeffs()):
            rest = list(m)
            rest[k] = 0
            out[m[k]] += ring.z.from_dict({tuple(rest): c})
        return out

    gen = ring.z.gens()[k]
    high, low = (a, b) if a.degrees()[k] >= b.degrees()[k] else (b, a)
    if low.degrees()[k] < 1:
        raise CodegenError(f"a leftover is free of {t}")
    while low.degrees()[k] > 1:
        while high.degrees()[k] >= low.degrees()[k]:
            shift = high.degrees()[k] - low.degrees()[k]
            high = coefficients(low)[-1] * high - coefficients(high)[-1] * gen**shift * low
            if high.is_zero():
                raise CodegenError(f"the leftovers share a factor in {t}")
        content = high
        for c in coefficients(high):
            content = content.gcd(c) if not c.is_zero() else content
        high, low = low, high / content if not content.is_constant() else high
        if low.degrees()[k] < 1:
            raise CodegenError(f"the leftovers have no common remainder of degree 1 in {t}")
    r0, r1 = coefficients(low)[0], coefficients(low)[1]
    return _sympy(ring, resultant), -_sympy(ring, r0), _sympy(ring, r1)


def _homogeneous(expr: sympy.Expr, scale: dict[sympy.Symbol, sympy.Expr]) -> tuple[sympy.Expr, int]:
    """``expr`` with ``D_T -> E_T``, ``m_i -> B_i`` times ``Q^(w_max - w)`` per term: ``(poly, w_max)``."""
    q = sympy.Symbol("Q")
    keys = sorted(scale, key=str)
    images, weights = [], []
    for key in keys:
        num, den = sympy.fraction(scale[key])
        images.append(num)
        weights.append(sympy.degree(den, q))
    poly = sympy.Poly(sympy.expand(expr), *keys)
    terms = poly.terms()
    top = max(sum(w * e for w, e in zip(weights, m)) for m, _ in terms)
    total = [
        c
        * q ** (top - sum(w * e for w, e in zip(weights, m)))
        * sympy.Mul(*(x**e for x, e in zip(images, m)))
        for m, c in terms
    ]
    return sympy.expand(sympy.Add(*total)), top


def _to_counts(expr: sympy.Expr, scale: dict[sympy.Symbol, sympy.Expr]) -> tuple[sympy.Expr, sympy.Expr]:
    """``expr`` with ``D_T -> E_T / Q^|T|``, ``m_i -> B_i / Q`` as ``(numerator, denominator)``."""
    q = sympy.Symbol("Q")
    num, den = sympy.fraction(sympy.factor(sympy.together(expr)))
    num_h, num_w = _homogeneous(num, scale)
    den_h, den_w = _homogeneous(den, scale)
    shift = den_w - num_w
    if shift >= 0:
        return sympy.expand(num_h * q**shift), den_h
    return num_h, sympy.expand(den_h * q ** (-shift))


def derive_structure(n_classifiers: int, structure: Any, progress: Progress = _quiet) -> StructureForm:
    r"""Derive the eliminant and back-substitution of a structure (two labels, one population).

    Parameters
    ----------
    n_classifiers : int
    structure : iterable of classifier subsets
        Relabelled to its canonical form first.
    progress : callable, optional

    Raises
    ------
    CodegenError
        When no parameter makes the rest linear, or the eliminant cannot be formed.

    Examples
    --------
    >>> form = derive_structure(4, [(0, 1), (0, 2), (0, 3)])
    >>> form.degree, form.method, [s.unknowns for s in form.steps][:2]
    (2, 'linear parameter', [('J_3',), ('J_1',)])
    """
    start = time.perf_counter()
    structure = canonical_structure(n_classifiers, structure)
    spec = EnsembleSpec(n_classifiers, 2, structure)
    name = module_name(n_classifiers, structure).split("_", 2)[2]
    progress(f"N = {n_classifiers}, structure {name}: the system")
    equations, u_solved, back = _system(spec)
    prelude, scale_names = count_moments(spec)
    scale = {sympy.Symbol(k): v for k, v in scale_names.items()}
    observed = {s for s in scale}
    p = PREVALENCE
    jay = [sympy.Symbol(auxiliary_name("J", (i,))) for i in range(n_classifiers)]
    doubles = [sympy.Symbol(auxiliary_name("w", t)) for t in structure]
    eqs = [equations[k] for k in sorted(equations, key=lambda t: (len(t), t))]
    rng = random.Random(f"evalgebra.codegen.structures:{n_classifiers}:{structure}")
    plan = None
    for k in reversed(range(n_classifiers)):
        result = _greedy(eqs, [j for i, j in enumerate(jay) if i != k] + doubles, rng)
        if result is not None:
            plan = (jay[k], *result)
            break
    if plan is None:
        raise CodegenError(f"structure {name}: no Youden index leaves the other unknowns linear")
    t, blocks, leftovers = plan
    progress(f"structure {name}: parameter {t}, {len(blocks)} linear solves, {len(leftovers)} leftovers")
    solutions: dict[sympy.Symbol, sympy.Expr] = {}
    raw_steps: list[tuple[list[sympy.Symbol], list[tuple[sympy.Expr, sympy.Expr]]]] = []
    for block, block_eqs in blocks:
        pairs = _solve_block(block, block_eqs)
        raw_steps.append((block, pairs))
        for x, (num, den) in zip(block, pairs):
            solutions[x] = num / den

    def in_p_t(expr: sympy.Expr) -> sympy.Expr:
        for _ in range(len(blocks) + 1):
            if not expr.free_symbols & set(solutions):
                break
            expr = expr.xreplace(solutions)
        return sympy.numer(sympy.factor(sympy.together(expr)))

    ranked = sorted(
        leftovers, key=lambda e: (len(e.free_symbols & set(solutions)), len(sympy.Add.make_args(e)))
    )
    reduced: list[sympy.Expr] = []
    for leftover in ranked:  # reduce the cheapest leftovers until one is linear in t (or a dozen)
        value = in_p_t(leftover)
        if value != 0 and t in value.free_symbols:
            reduced.append(value)
        if len(reduced) >= 12 or (len(reduced) >= 2 and any(sympy.degree(e, t) == 1 for e in reduced)):
            break
    linear = [e for e in reduced if sympy.Poly(e, t).degree() == 1]
    if linear:
        method = "linear parameter"
        line = min(linear, key=lambda e: len(sympy.Add.make_args(sympy.expand(e))))
        t_num, t_den = sympy.factor(-line.coeff(t, 0)), sympy.factor(line.coeff(t, 1))
        candidates = []
        for e in reduced:
            if e is line:
                continue
            value = _strip(sympy.numer(sympy.together(e.xreplace({t: t_num / t_den}))), observed)
            if value.free_symbols and p in value.free_symbols:
                candidates.append(value)
        if not candidates:
            raise CodegenError(f"structure {name}: no leftover gives an eliminant")
        eliminant = min(
            candidates, key=lambda e: (sympy.degree(e, p), len(sympy.Add.make_args(sympy.expand(e))))
        )
    else:
        method = "resultant"
        if len(reduced) < 2:
            raise CodegenError(f"structure {name}: fewer than two leftovers to eliminate {t}")
        ordered = sorted(
            reduced, key=lambda e: (sympy.degree(e, t), len(sympy.Add.make_args(sympy.expand(e))))
        )
        for first, second in itertools.combinations(ordered, 2):
            progress(
                f"structure {name}: resultant in {t} "
                f"(degrees {sympy.degree(first, t)}, {sympy.degree(second, t)})"
            )
            try:
                resultant, t_num, t_den = _eliminate_parameter(first, second, t)
            except CodegenError:
                continue
            eliminant = _strip(resultant, observed)
            if p in eliminant.free_symbols:
                break
        else:
            raise CodegenError(f"structure {name}: no pair of leftovers gives {t} and an eliminant")
    progress(f"structure {name}: eliminant of degree {sympy.degree(eliminant, p)}; printing in counts")
    num, _ = _homogeneous(eliminant, scale)
    ring, (flint_num,) = _flint([num])
    k = ring.names.index(str(p))
    terms: dict[int, dict[tuple[int, ...], Any]] = {}
    for m, c in zip(flint_num.monoms(), flint_num.coeffs()):
        rest = list(m)
        rest[k] = 0
        terms.setdefault(m[k], {})[tuple(rest)] = c
    parts = [ring.z.from_dict(terms.get(d, {})) for d in range(max(terms) + 1)]
    content = parts[-1]
    for part in parts:
        content = content.gcd(part) if not part.is_zero() else content
    coefficients = [_sympy(ring, part / content) for part in parts]
    steps = [Step((str(t),), *map(lambda v: (v,), _to_counts(t_num / t_den, scale)))]
    for block, pairs in raw_steps:
        nums, dens = zip(*(_to_counts(num_ / den_, scale) for num_, den_ in pairs))
        steps.append(Step(tuple(str(x) for x in block), tuple(nums), tuple(dens)))
    for u_name in sorted(u_solved, key=lambda s: (s.count("_"), s)):
        steps.append(Step((u_name,), *map(lambda v: (v,), _to_counts(u_solved[u_name], scale))))
    unknowns = ("prev_a",) + tuple(k for k in back)
    outputs = tuple((k, *_to_counts(v, scale)) for k, v in back.items())
    residuals = _residuals(spec, scale)
    return StructureForm(
        n_classifiers,
        structure,
        name,
        unknowns,
        str(t),
        tuple(coefficients),
        tuple(steps),
        outputs,
        residuals,
        tuple(count_symbols(spec)),
        tuple(prelude),
        method,
        time.perf_counter() - start,
    )


def count_symbols(spec: EnsembleSpec) -> list[sympy.Symbol]:
    """The pattern-count symbols ``n_aaaa ..`` in pattern order (R-space observables)."""
    from evalgebra.variables import VariableRegistry

    return list(VariableRegistry(spec, "R").observables())


def _residuals(spec: EnsembleSpec, scale: dict[sympy.Symbol, sympy.Expr]) -> tuple[sympy.Expr, ...]:
    """``Q^|T| (D_T - model_T)`` for every ``T`` (``Q (m_i - model_i)`` for singles), in registry names."""
    ring, by_subset, _ = _flint_moments(spec)
    out = []
    for subset in sorted(by_subset, key=lambda t: (len(t), t)):
        expr = ring.to_sympy(by_subset[subset]).xreplace(scale) * sympy.Symbol("Q") ** len(subset)
        out.append(sympy.expand(expr))
    return tuple(out)
