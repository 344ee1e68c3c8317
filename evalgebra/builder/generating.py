r"""The complete generating set of an evaluation ideal (Theorems 1 and 3 of the paper below).

For every decision pattern ``d`` of ``N`` classifiers over ``R`` labels, and every
population ``s``, the observed frequency is exactly

.. math::

    f^s_d = \sum_{\ell} P^s_\ell \sum_{T \subseteq [N],\ |T| \ne 1}
            G^\ell_T(d_T) \prod_{i \notin T} P_{i, d_i | \ell},

with :math:`G^\ell_\emptyset = 1` and only the subsets ``T`` of the correlation
structure kept. In R-space (one population) the same identity is homogenised with
``P_ell = Q_ell / Q``, ``P_{i,r|ell} = R_{i,r|ell} / Q_ell``, ``G = C / Q_ell^{|T|}``,
``f_d = n_d / Q`` and cleared of denominators:

.. math::

    n_d \prod_\ell Q_\ell^{N-1} = \sum_\ell \Big(\prod_{m \ne \ell} Q_m^{N-1}\Big)
        \sum_T C^\ell_T(d_T) \prod_{i \notin T} R_{i, d_i | \ell}.

One generic routine evaluates the right-hand side in any commutative ring: SymPy
symbols (readable, unexpanded), python-flint ``fmpq_mpoly`` generators (fast exact
polynomials) or rationals (the model at an evaluation point).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> gs = GeneratingSet(EnsembleSpec(1, 2))
>>> for line in gs.to_text().splitlines(): print(line)
f_a = acc_0_a*prev_a + (1 - acc_0_b)*(1 - prev_a)
f_b = acc_0_b*(1 - prev_a) + prev_a*(1 - acc_0_a)
>>> gs.polynomials()[0]
-acc_0_a*prev_a - acc_0_b*prev_a + acc_0_b + f_a + prev_a - 1

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": Theorem 1 (independent), Theorem 3 (correlated).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import flint
import sympy

from evalgebra.builder.latex import LATEX_ROWS, aligned, flint_terms, latex_name, latex_text, terms_latex
from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import Parametrised, VariableKey, VariableRegistry, response_letters

__all__ = ["GeneratingSet", "FlintSystem", "Polynomials", "generating_set", "ORDERINGS"]

ORDERINGS = ("lex", "deglex", "degrevlex")


def _product(factors: Sequence[Any], one: Any) -> Any:
    result = one
    for factor in factors:
        result = result * factor
    return result


class Polynomials(list):  # type: ignore[type-arg]
    r"""A list of SymPy polynomials that shows itself in mathematical names (``p = 0`` per row).

    Examples
    --------
    >>> polys = GeneratingSet(EnsembleSpec(1, 2)).polynomials()
    >>> print(polys._repr_latex_())
    $$\begin{aligned}
    - P_{0,a} P_{a} - P_{0,b} P_{a} + P_{0,b} + f_{a} + P_{a} - 1 &= 0 \\
    P_{0,a} P_{a} + P_{0,b} P_{a} - P_{0,b} + f_{b} - P_{a} &= 0
    \end{aligned}$$
    """

    def __init__(
        self, polynomials: Sequence[sympy.Expr] = (), names: Mapping[sympy.Symbol, str] | None = None
    ) -> None:
        super().__init__(polynomials)
        self.names = dict(names or {})

    def _repr_latex_(self) -> str:
        rows = [f"{self.latex(p)} &= 0" for p in self[:LATEX_ROWS]]
        return aligned(rows, max(0, len(self) - LATEX_ROWS), "polynomials", display=True)

    def latex(self, poly: sympy.Expr) -> str:
        """One polynomial in mathematical names (long sums cut, see :func:`terms_latex`)."""
        names = self.names or {s: latex_name(s) for s in poly.free_symbols}
        return terms_latex(poly, names)


class FlintSystem:
    r"""Polynomials of a generating set as python-flint ``fmpq_mpoly`` in one context.

    Examples
    --------
    >>> system = GeneratingSet(EnsembleSpec(1, 2)).flint(observed=[1, 3])
    >>> system
    FlintSystem(2 polynomials in 3 variables)
    >>> print(system._repr_latex_())
    $$\begin{aligned}
    - P_{0,a} P_{a} - P_{0,b} P_{a} + P_{0,b} + P_{a} &= 0 \\
    P_{0,a} P_{a} + P_{0,b} P_{a} - P_{0,b} - P_{a} + 3 &= 0
    \end{aligned}$$

    Attributes
    ----------
    context : flint.fmpq_mpoly_ctx
    symbols : tuple of sympy.Symbol
        The context's generators, in order (unknowns first, then any symbolic observables).
    polynomials : list of flint.fmpq_mpoly
        One per pattern, in the generating set's pattern order.
    """

    def __init__(self, context: Any, symbols: tuple[sympy.Symbol, ...], polynomials: list[Any]):
        self.context = context
        self.symbols = symbols
        self.polynomials = polynomials

    def to_sympy(self, poly: Any) -> sympy.Expr:
        """Convert one of the system's polynomials to an expanded SymPy expression."""
        terms = []
        for exponents, coeff in zip(poly.monoms(), poly.coeffs()):
            monomial = sympy.Mul(*(sym**e for sym, e in zip(self.symbols, exponents) if e), evaluate=True)
            terms.append(sympy.Rational(int(coeff.p), int(coeff.q)) * monomial)
        return sympy.Add(*terms)

    def __repr__(self) -> str:
        return f"FlintSystem({len(self.polynomials)} polynomials in {len(self.symbols)} variables)"

    def _repr_latex_(self) -> str:
        names = {s: latex_name(s) for s in self.symbols}
        rows = []
        for poly in self.polynomials[:LATEX_ROWS]:
            head, left = flint_terms(poly, self.symbols)
            rows.append(terms_latex(head, names, more=left) + " &= 0")
        more = max(0, len(self.polynomials) - LATEX_ROWS)
        return aligned(rows, more, "polynomials", display=True)


class GeneratingSet:
    r"""The generating set of the evaluation ideal of one ensemble spec.

    Parameters
    ----------
    spec : EnsembleSpec
        Classifiers, labels, correlation structure and populations.
    space : {"P", "R"}
        P-space (ratios) or R-space (integer counts, one population only).

    Notes
    -----
    ``patterns`` lists ``(population, pattern)`` pairs of indices in canonical order
    (population, then the pattern read as a base-``R`` number, classifier 0 most
    significant); every list this class returns follows it. The polynomial of a pattern
    is ``observed - model`` (P-space) or ``observed * prod Q_ell^(N-1) - model``
    (R-space); it vanishes at every evaluation point that explains the observation.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> gs = GeneratingSet(EnsembleSpec(3, 2, "complete"))
    >>> len(gs.patterns), len(gs.variables)
    (8, 15)
    >>> gs = GeneratingSet(EnsembleSpec(3, ["pass", "fail"], abstain="unsure"))
    >>> len(gs.patterns), len(gs.variables), gs.legend()  # doctest: +NORMALIZE_WHITESPACE
    (27, 13, 'classifier 0 = c0; classifier 1 = c1; classifier 2 = c2; label a = pass; label b = fail;
    abstention A = unsure')
    """

    def __init__(self, spec: EnsembleSpec, space: str = "P") -> None:
        self.spec = spec
        self.space = space
        self.registry = VariableRegistry(spec, space)
        self.patterns: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (key.population or 0, key.labels) for key in self.registry.keys("observed")
        )

    def pattern_tuples(self, population: int = 0) -> list[tuple[str, ...]]:
        """The patterns of one population as response-name tuples, in polynomial order."""
        labels = self.spec.responses
        return [tuple(labels[k] for k in p) for s, p in self.patterns if s == population]

    def observed_values(self, sketch: Any) -> list[Any]:
        """Observed frequencies (P) or counts (R) of a sketch, in pattern order.

        The sketch must have this spec's classifiers, labels and populations.
        """
        spec = self.spec
        if (sketch.classifiers, sketch.labels, sketch.populations, getattr(sketch, "abstain", ())) != (
            spec.classifiers,
            spec.labels,
            spec.populations,
            spec.abstain,
        ):
            raise SpecError(
                "the sketch's classifiers, labels or populations differ from the spec's (or its abstentions)"
            )
        values: list[Any] = []
        for s, population in enumerate(spec.populations):
            table = sketch.frequencies(population) if self.space == "P" else sketch.counts(population)
            values.extend(table.get(p, 0) for p in self.pattern_tuples(s))
        return values

    # -- the generic formula ----------------------------------------------------------
    def model(self, value: Callable[[VariableKey], Any], one: Any = 1, count: int | None = None) -> list[Any]:
        """Right-hand side of every pattern's identity, in the ring of ``value(key)``.

        ``value`` maps each free key (unknowns only) to a ring element; ``one`` is the
        ring's unit; ``count`` keeps the first patterns only. Partial products are shared
        between patterns.
        """
        par = self.registry.parametrise(value)
        spec = self.spec
        n, r_count = spec.n_classifiers, spec.n_labels
        subsets: list[tuple[int, ...]] = [(), *spec.structure]
        complements = {t: tuple(i for i in range(n) if i not in t) for t in subsets}
        partial: dict[tuple[int, tuple[int, ...], tuple[int, ...]], Any] = {}

        def rows_product(ell: int, rest: tuple[int, ...], pattern: tuple[int, ...]) -> Any:
            responses = tuple(pattern[i] for i in rest)
            key = (ell, rest, responses)
            if key not in partial:
                partial[key] = _product([par.response[i][ell][r] for i, r in zip(rest, responses)], one)
            return partial[key]

        weights = self._label_weights(par, one)
        result = []
        for s, pattern in self.patterns[:count]:
            total = 0 * one
            for ell in range(r_count):
                inner = 0 * one
                for subset in subsets:
                    product = rows_product(ell, complements[subset], pattern)
                    if subset:
                        g = par.correlation[subset][ell][tuple(pattern[i] for i in subset)]
                        inner = inner + g * product
                    else:
                        inner = inner + product
                total = total + weights[s][ell] * inner
            result.append(total)
        return result

    def _label_weights(self, par: Parametrised, one: Any) -> list[list[Any]]:
        if self.space == "P":
            return [list(row) for row in par.prevalence]
        counts = par.prevalence[0]
        power = self.spec.n_classifiers - 1
        return [
            [
                _product([counts[m] ** power for m in range(len(counts)) if m != ell], one)
                for ell in range(len(counts))
            ]
        ]

    def _observed_factor(self, par: Parametrised, one: Any) -> Any:
        if self.space == "P":
            return one
        power = self.spec.n_classifiers - 1
        return _product([q**power for q in par.prevalence[0]], one)

    # -- exact evaluation ---------------------------------------------------------------
    def evaluate(self, values: Mapping[Any, Any]) -> list[Fraction]:
        """The model side at given values of the free unknowns (keys or symbols).

        Values may be ``int``, ``Fraction`` or anything with exact ``+`` and ``*``.
        In R-space this is ``n_d * prod Q_ell^(N-1)``; see :meth:`residuals`.
        """
        lookup = self._value_lookup(values)
        return self.model(lookup, Fraction(1))

    def residuals(self, values: Mapping[Any, Any], observed: Sequence[Any]) -> list[Any]:
        """Each polynomial evaluated at unknowns ``values`` and ``observed`` (pattern order)."""
        lookup = self._value_lookup(values)
        par = self.registry.parametrise(lookup)
        factor = self._observed_factor(par, Fraction(1))
        model = self.model(lookup, Fraction(1))
        if len(observed) != len(model):
            raise SpecError(f"need {len(model)} observed values, got {len(observed)}")
        return [factor * Fraction(obs) - m for obs, m in zip(observed, model)]

    def _value_lookup(self, values: Mapping[Any, Any]) -> Callable[[VariableKey], Any]:
        by_key: dict[VariableKey, Any] = {}
        for k, v in values.items():
            key = k if isinstance(k, VariableKey) else self.registry.key_of(k)
            by_key[key] = v

        def lookup(key: VariableKey) -> Any:
            try:
                return by_key[key]
            except KeyError:
                raise SpecError(f"no value for {self.registry.symbol(key)} ({key.kind})") from None

        return lookup

    # -- symbolic forms -------------------------------------------------------------
    @property
    def variables(self) -> tuple[sympy.Symbol, ...]:
        """Free unknowns, prevalence block first (see :meth:`VariableRegistry.variables`)."""
        return self.registry.variables()

    @property
    def observables(self) -> tuple[sympy.Symbol, ...]:
        """Observed frequency or count symbols, in pattern order."""
        return self.registry.observables()

    def equations(self, count: int | None = None) -> list[tuple[sympy.Symbol, sympy.Expr]]:
        """``(observed symbol, unexpanded model)`` pairs; R-space left side multiplied out.

        ``count`` keeps the first patterns only.
        """
        par = self.registry._symbolic
        factor = self._observed_factor(par, sympy.Integer(1))
        model = self.model(self.registry.symbol, sympy.Integer(1), count)
        return [(factor * obs, m) for obs, m in zip(self.observables, model)]

    def polynomials(self) -> Polynomials:
        """Expanded SymPy polynomials ``observed - model``, computed through python-flint.

        A list that shows itself in Jupyter in mathematical names.
        """
        system = self.flint()
        return Polynomials([system.to_sympy(p) for p in system.polynomials], self.registry.latex_names())

    def latex(self, expr: Any) -> str:
        r"""LaTeX of an expression in this set's symbols, with mathematical names.

        >>> gs = GeneratingSet(EnsembleSpec(1, 2))
        >>> gs.latex(gs.equations()[0][1])
        'P_{0,a} P_{a} + \\left(1 - P_{0,b}\\right) \\left(1 - P_{a}\\right)'
        """
        return self.registry.latex(expr)

    def flint(
        self,
        observed: Sequence[Any] | None = None,
        order: Sequence[sympy.Symbol] | None = None,
        ordering: str = "lex",
    ) -> FlintSystem:
        """The polynomials as ``fmpq_mpoly`` in one context.

        Parameters
        ----------
        observed : sequence of rationals, optional
            Observed frequencies (P) or counts (R) in pattern order; the default keeps
            them as symbols (appended after the unknowns).
        order : sequence of sympy.Symbol, optional
            Unknowns in generator order (default: :attr:`variables`); must be a
            permutation of them.
        ordering : {"lex", "deglex", "degrevlex"}
        """
        if ordering not in ORDERINGS:
            raise SpecError(f"ordering must be one of {ORDERINGS}, got {ordering!r}")
        unknowns = tuple(order) if order is not None else self.variables
        if sorted(map(str, unknowns)) != sorted(map(str, self.variables)):
            raise SpecError("order must list every free unknown exactly once")
        symbols = unknowns if observed is not None else unknowns + self.observables
        ctx = flint.fmpq_mpoly_ctx.get(tuple(s.name for s in symbols), ordering)
        gens = dict(zip(symbols, ctx.gens()))
        one = ctx.from_dict({(0,) * len(symbols): 1})
        lookup = lambda key: gens[self.registry.symbol(key)]  # noqa: E731
        par = self.registry.parametrise(lookup)
        factor = self._observed_factor(par, one)
        model = self.model(lookup, one)
        if observed is None:
            left = [gens[sym] for sym in self.observables]
        else:
            if len(observed) != len(model):
                raise SpecError(f"need {len(model)} observed values, got {len(observed)}")
            left = [one * flint.fmpq(Fraction(v).numerator, Fraction(v).denominator) for v in observed]
        return FlintSystem(ctx, symbols, [factor * obs - m for obs, m in zip(left, model)])

    # -- printing ---------------------------------------------------------------------
    def legend(self) -> str:
        """What the indices and letters in symbol names stand for."""
        spec = self.spec
        letters = response_letters(spec.n_labels, spec.n_responses)
        parts = [f"classifier {i} = {name}" for i, name in enumerate(spec.classifiers)]
        parts += [f"label {letters[k]} = {name}" for k, name in enumerate(spec.labels)]
        parts += [f"abstention {letters[spec.n_labels + k]} = {name}" for k, name in enumerate(spec.abstain)]
        if spec.n_populations > 1:
            parts += [f"population s{k} = {name}" for k, name in enumerate(spec.populations)]
        return "; ".join(parts)

    def to_text(self, expand: bool = False) -> str:
        """One identity per line, ``observed = model``."""
        if expand:
            lines = [f"{lhs} = {sympy.expand(rhs)}" for lhs, rhs in self.equations()]
        else:
            lines = [f"{lhs} = {rhs}" for lhs, rhs in self.equations()]
        return "\n".join(lines)

    def to_latex(self, expand: bool = False, limit: int | None = None) -> str:
        r"""A LaTeX ``align*`` environment with one identity per line, in mathematical names.

        Parameters
        ----------
        expand : bool
            Expand the model side.
        limit : int, optional
            Show the first ``limit`` identities and count the rest (default: all).

        Examples
        --------
        >>> print(GeneratingSet(EnsembleSpec(1, 2)).to_latex(limit=1))
        \begin{align*}
        f_{a} &= P_{0,a} P_{a} + \left(1 - P_{0,b}\right) \left(1 - P_{a}\right) \\
        \vdots & \quad \text{(1 more identity)}
        \end{align*}
        """
        return aligned(*self._latex_rows(expand, limit), noun="identities")

    def _latex_rows(self, expand: bool, limit: int | None) -> tuple[list[str], int]:
        names = self.registry.latex_names()
        rows = []
        for lhs, rhs in self.equations(limit):
            rhs = sympy.expand(rhs) if expand else rhs
            rows.append(f"{terms_latex(lhs, names)} &= {terms_latex(rhs, names)}")
        return rows, len(self.patterns) - len(rows)

    def latex_legend(self) -> str:
        r"""What the indices and letters of the LaTeX names stand for, user names escaped.

        >>> print(GeneratingSet(EnsembleSpec(["x_1", "y"], ["yes", "no"])).latex_legend())
        ... # doctest: +NORMALIZE_WHITESPACE
        \text{classifiers: } 0 = \text{x\_1},\ 1 = \text{y}
        \quad \text{labels: } a = \text{yes},\ b = \text{no}
        """
        spec = self.spec
        letters = response_letters(spec.n_labels, spec.n_responses)
        parts = [
            (r"\text{classifiers: } ", [f"{i} = {latex_text(c)}" for i, c in enumerate(spec.classifiers)]),
            (r"\text{labels: } ", [f"{letters[k]} = {latex_text(n)}" for k, n in enumerate(spec.labels)]),
        ]
        if spec.abstain:
            parts.append(
                (
                    r"\text{abstentions: } ",
                    [f"{letters[spec.n_labels + k]} = {latex_text(n)}" for k, n in enumerate(spec.abstain)],
                )
            )
        if spec.n_populations > 1:
            parts.append(
                (
                    r"\text{populations: } ",
                    [f"({k}) = {latex_text(n)}" for k, n in enumerate(spec.populations)],
                )
            )
        shown = []
        for title, entries in parts:
            cut, more = entries[:LATEX_ROWS], len(entries) - LATEX_ROWS
            shown.append(title + r",\ ".join(cut + ([rf"\dots \text{{({more} more)}}"] if more > 0 else [])))
        return r" \quad ".join(shown)

    def _repr_latex_(self) -> str:
        rows, more = self._latex_rows(False, LATEX_ROWS)
        if more:
            rows.append(
                r"\vdots & \quad \text{(" + f"{more} more identit{'y' if more == 1 else 'ies'}" + ")}"
            )
        return aligned(rows + ["& " + self.latex_legend()], display=True)

    def to_json(self) -> str:
        """Machine-readable form: spec, variables and expanded polynomials."""
        labels = self.spec.responses
        data = {
            "format": "evalgebra.polys/1",
            "space": self.space,
            "classifiers": list(self.spec.classifiers),
            "labels": list(self.spec.labels),
            **({"abstain": list(self.spec.abstain)} if self.spec.abstain else {}),
            "populations": list(self.spec.populations),
            "structure": [list(t) for t in self.spec.structure],
            "variables": [str(v) for v in self.variables],
            "observables": [str(v) for v in self.observables],
            "polynomials": [
                {
                    "population": self.spec.populations[s],
                    "decisions": [labels[k] for k in pattern],
                    "polynomial": str(poly),
                }
                for (s, pattern), poly in zip(self.patterns, self.polynomials())
            ],
        }
        return json.dumps(data, indent=2)

    def __repr__(self) -> str:
        return (
            f"GeneratingSet({len(self.patterns)} polynomials in {len(self.variables)} unknowns, "
            f"space={self.space!r}, N={self.spec.n_classifiers}, R={self.spec.n_labels}, "
            f"{len(self.spec.structure)} correlated subsets, "
            f"{self.spec.n_populations} population(s))"
        )


def generating_set(
    classifiers: int | Sequence[str] | EnsembleSpec,
    labels: int | Sequence[str] = 2,
    structure: Any = "independent",
    populations: int | Sequence[str] | None = None,
    space: str = "P",
) -> GeneratingSet:
    r"""Build the generating set from a spec, or from the arguments of :class:`EnsembleSpec`.

    Parameters
    ----------
    classifiers : int, sequence of str or EnsembleSpec
        How many classifiers (or their names), or a whole spec (the other arguments are
        then ignored).
    labels : int or sequence of str
        How many labels (or their names).
    structure : str or sequence of subsets
        The correlation structure (``"independent"``, ``"complete"`` or the correlated
        subsets of classifier indices).
    populations : int or sequence of str, optional
        Several populations sharing the response rates.
    space : {"P", "R"}
        P-space (ratios) or R-space (integer counts, one population only).

    Returns
    -------
    GeneratingSet

    Examples
    --------
    >>> gs = generating_set(3, 2)
    >>> gs
    GeneratingSet(8 polynomials in 7 unknowns, space='P', N=3, R=2, 0 correlated subsets, 1 population(s))
    >>> gs.to_text().splitlines()[0]
    'f_aaa = acc_0_a*acc_1_a*acc_2_a*prev_a + (1 - acc_0_b)*(1 - acc_1_b)*(1 - acc_2_b)*(1 - prev_a)'
    >>> print(generating_set(1, 2, space="R").to_latex(limit=1))
    \begin{align*}
    n_{a} &= Q_{b} + R_{0,a|a} - R_{0,b|b} \\
    \vdots & \quad \text{(1 more identity)}
    \end{align*}
    """
    spec = (
        classifiers
        if isinstance(classifiers, EnsembleSpec)
        else EnsembleSpec(classifiers, labels, structure, populations)
    )
    return GeneratingSet(spec, space)
