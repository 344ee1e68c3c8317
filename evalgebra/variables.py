r"""The variable registry: the only place symbols, their names and their orders are made.

Every unknown of an evaluation ideal is identified by a :class:`VariableKey`
``(kind, classifiers, labels, population)`` with 0-based indices, and every key has exactly
one symbol, so the same statistic is always the same :class:`sympy.Symbol`.

Minimal parametrisation. For every true label ``ell`` one
response per confusion-matrix row is *dependent*: the response to the last label other
than ``ell`` (for ``R = 2``: the error, so the free variable of a row is the accuracy).
The prevalence of the last label is dependent. For a correlated subset ``T`` and label
``ell`` the free correlations are those whose responses avoid the dependent response;
the others follow because summing ``G^ell_T`` over one response gives zero.

============  ==========================  =====================  ====================
kind          meaning (P-space)           P-space symbol         R-space symbol
============  ==========================  =====================  ====================
prevalence    ``P_ell``                   ``prev_a``             ``Q_a``
accuracy      ``P_{i,ell|ell}``           ``acc_0_a``            ``R_0_a_a``
response      ``P_{i,r|ell}``, r!=ell     ``resp_0_b_a``         ``R_0_b_a``
correlation   ``G^ell_T(r_T)``            ``corr_0_1_a``         ``C_0_1_a``
observed      ``f_d`` / ``n_d``           ``f_aab``              ``n_aab``
moment        ``m_i(r)``, ``D_T(r_T)``    ``m_0_b``, ``D_0_1``   (P-space only)
============  ==========================  =====================  ====================

Each kind also has a mathematical LaTeX name, made here too
(:meth:`VariableRegistry.latex_name`): ``P_{a}``, ``P_{0,a}``, ``P_{0,b|a}``,
``G^{a}_{0,1}``, ``f_{aab}``; in R-space ``Q_{a}``, ``R_{0,a|a}``, ``R_{0,b|a}``,
``C^{a}_{0,1}``, ``n_{aab}``; moments ``m_{0}(b)`` and ``D_{0,1}``.

*Moment coordinates* describe the observations by the single frequencies
``m_i(r)`` (classifier ``i`` answered ``r``) and the joint central moments
``D_T(r_T) = E[prod_{i in T} (1[ans_i = r_i] - m_i(r_i))]`` of every subset ``|T| >= 2``,
for the responses other than the first label (for ``R = 2``: ``m_i`` is the frequency of
answering ``b``, as in "Algebraic Evaluation Theorems" by A. Corrada-Emmanuel).

R-space is the homogenised, integer form: ``Q_ell`` items with true label ``ell``,
``R_{i,r|ell} = Q_ell P_{i,r|ell}`` and ``C^ell_T = Q_ell^{|T|} G^ell_T`` (integers for
every labelled test). For ``R >= 3`` correlation names carry the responses
(``corr_0_1_a_ab``); with several populations, per-population symbols carry the
population (``prev_s1_a``, ``f_s1_aab``). R-space keeps every ``Q_ell`` free
(``Q = sum Q_ell``).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> reg = VariableRegistry(EnsembleSpec(2, 2, "complete"))
>>> reg.variables()
(prev_a, acc_0_a, acc_0_b, acc_1_a, acc_1_b, corr_0_1_a, corr_0_1_b)
>>> reg.prevalence["b"], reg.response[0]["b"]["a"], reg.correlation[(0, 1)]["a"][("a", "b")]
(1 - prev_a, 1 - acc_0_a, -corr_0_1_a)
>>> VariableRegistry(EnsembleSpec(1, 3), space="R").variables()
(Q_a, Q_b, Q_c, R_0_a_a, R_0_b_b, R_0_c_c, R_0_b_a, R_0_a_b, R_0_a_c)

Abstentions (``EnsembleSpec(..., abstain=[...])``) are responses after the labels: every
row ``P_{i,r|ell}`` runs over them too, and symbol names write them in capitals
(``A, B, ...``: ``resp_0_A_a`` is ``P_{0,A|a}``, classifier 0 abstains on an ``a``-item):

>>> reg = VariableRegistry(EnsembleSpec(1, 2, abstain="unsure"))
>>> reg.variables(), reg.response[0]["b"]["a"]
((prev_a, acc_0_a, acc_0_b, resp_0_A_a, resp_0_A_b), -acc_0_a - resp_0_A_a + 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # SymPy is imported when a registry is made, not with the module
    import sympy

from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec, default_label_names

__all__ = [
    "KINDS",
    "SPACES",
    "VariableKey",
    "VariableRegistry",
    "Parametrised",
    "dependent_response",
    "free_responses",
    "correlation_expansion",
    "pattern_name",
    "response_letters",
    "auxiliary_name",
    "key_latex",
]

#: Kinds of unknowns, and the observables. The default elimination order eliminates
#: from the left: correlations first, the prevalence last.
KINDS = ("correlation", "response", "accuracy", "prevalence", "observed", "moment")
SPACES = ("P", "R")
_UNKNOWN_KINDS = ("prevalence", "accuracy", "response", "correlation")


@dataclass(frozen=True, order=True)
class VariableKey:
    """Identity of one free variable.

    ``labels`` holds label indices: ``(ell,)`` for prevalence and accuracy, ``(r, ell)``
    for a response, ``(ell, *r_T)`` for a correlation, the pattern for an observable.
    ``population`` is set for prevalences and observables only.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> reg = VariableRegistry(EnsembleSpec(2, 2))
    >>> key = VariableKey("accuracy", (1,), (0,))
    >>> reg.symbol(key), reg.latex_name(key), reg.key_of("acc_1_a") == key
    (acc_1_a, 'P_{1,a}', True)
    """

    kind: str
    classifiers: tuple[int, ...] = ()
    labels: tuple[int, ...] = ()
    population: int | None = None


def dependent_response(ell: int, n_labels: int) -> int:
    """Index of the dependent response of row ``ell``: the last label other than ``ell``.

    >>> dependent_response(0, 2), dependent_response(1, 2), dependent_response(2, 3)
    (1, 0, 1)
    """
    return n_labels - 1 if ell != n_labels - 1 else n_labels - 2


def free_responses(ell: int, n_labels: int, n_responses: int | None = None) -> tuple[int, ...]:
    """The ``K - 1`` responses of row ``ell`` that are free variables, in response order.

    ``K = n_responses`` (default ``R``: no abstentions); the dependent response is a label.

    >>> free_responses(0, 2), free_responses(0, 2, 3)
    ((0,), (0, 2))
    """
    dep = dependent_response(ell, n_labels)
    return tuple(r for r in range(n_labels if n_responses is None else n_responses) if r != dep)


def correlation_expansion(
    ell: int,
    responses: Sequence[int],
    n_labels: int,
    dependent: int | None = None,
    n_responses: int | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    r"""Write ``G^ell_T(responses)`` as a signed sum of free correlations.

    Every coordinate holding the dependent response ``e`` (by default that of row
    ``ell``; ``dependent`` overrides it) is replaced by minus the sum over the free
    responses (because ``sum_r G^ell_T(.., r, ..) = 0``); ``n_responses`` counts the
    responses (default ``R``, no abstentions).

    Returns
    -------
    list of (sign, free_responses)

    Examples
    --------
    >>> correlation_expansion(0, (0, 1), 2)
    [(-1, (0, 0))]
    >>> correlation_expansion(0, (2, 2), 3)
    [(1, (0, 0)), (1, (0, 1)), (1, (1, 0)), (1, (1, 1))]
    """
    dep = dependent_response(ell, n_labels) if dependent is None else dependent
    free = tuple(r for r in range(n_labels if n_responses is None else n_responses) if r != dep)
    choices = [free if r == dep else (r,) for r in responses]
    n_dependent = sum(1 for r in responses if r == dep)
    sign = -1 if n_dependent % 2 else 1
    return [(sign, combo) for combo in itertools.product(*choices)]


def response_letters(n_labels: int, n_responses: int | None = None) -> tuple[str, ...]:
    """Symbol-safe names of the responses: label letters, then abstentions in capitals.

    >>> response_letters(2, 4)
    ('a', 'b', 'A', 'B')
    """
    extra = (n_labels if n_responses is None else n_responses) - n_labels
    capitals = tuple(chr(ord("A") + k) if extra <= 26 else f"X{k}" for k in range(extra))
    return default_label_names(n_labels) + capitals


def pattern_name(pattern: Sequence[int], n_labels: int, n_responses: int | None = None) -> str:
    """Symbol-safe name of a decision pattern of response indices (``aab``, ``aAb``).

    >>> pattern_name((0, 0, 1), 2), pattern_name((0, 2, 1), 2, 3)
    ('aab', 'aAb')
    """
    letters = response_letters(n_labels, n_responses)
    joiner = "" if all(len(name) == 1 for name in letters) else "_"
    return joiner.join(letters[k] for k in pattern)


def auxiliary_name(prefix: str, classifiers: Sequence[int], suffix: str = "") -> str:
    """Name of an auxiliary variable of a derivation (e.g. ``u_0_1``), never a statistic.

    >>> auxiliary_name("u", (0, 2)), auxiliary_name("J", (0, 1), "a")
    ('u_0_2', 'J_0_1_a')
    """
    if prefix in {"prev", "acc", "resp", "corr", "f", "n", "m", "D", "Q", "R", "C"}:
        raise SpecError(f"prefix {prefix!r} is reserved for statistics")
    return "_".join([prefix, *(str(i) for i in classifiers), *([suffix] if suffix else [])])


def _label_text(indices: Sequence[int], n_labels: int | None, sep: str) -> str:
    """Label indices as the letters of symbol names (``l0, l1, ...`` joined by commas)."""
    if n_labels is not None and any(k >= n_labels for k in indices):  # abstentions: capitals
        names = response_letters(n_labels, max(indices) + 1)
        return (sep if all(len(names[k]) == 1 for k in indices) else ",").join(names[k] for k in indices)
    if n_labels is not None and n_labels > 26 or any(k >= 26 for k in indices):
        return ",".join(f"l_{{{k}}}" for k in indices)
    return sep.join(chr(ord("a") + k) for k in indices)


def key_latex(
    key: VariableKey, space: str, responses: bool, population: bool, n_labels: int | None = None
) -> str:
    r"""The mathematical LaTeX name of a key (see :meth:`VariableRegistry.latex_name`).

    ``responses`` writes the responses of a correlation or joint moment (needed for
    ``R >= 3``), ``population`` the population of a prevalence, frequency or moment.

    >>> key_latex(VariableKey("response", (0,), (1, 0)), "P", responses=False, population=False)
    'P_{0,b|a}'
    """
    rspace = space == "R"
    classifiers = ",".join(str(i) for i in key.classifiers)
    stratum = f"^{{({key.population})}}" if population and key.population is not None else ""

    def letters(indices: Sequence[int], sep: str = "") -> str:
        return _label_text(indices, n_labels, sep)

    if key.kind == "prevalence":
        return f"{'Q' if rspace else 'P'}{stratum}_{{{letters(key.labels)}}}"
    if key.kind == "accuracy":
        ell = letters(key.labels)
        return f"R_{{{classifiers},{ell}|{ell}}}" if rspace else f"P_{{{classifiers},{ell}}}"
    if key.kind == "response":
        r, ell = (letters([k]) for k in key.labels)
        return f"{'R' if rspace else 'P'}_{{{classifiers},{r}|{ell}}}"
    if key.kind == "correlation":
        true_label, *rest = key.labels
        name = f"{'C' if rspace else 'G'}^{{{letters([true_label])}}}_{{{classifiers}}}"
        return name + (f"({letters(rest, ',')})" if responses else "")
    if key.kind == "moment":
        if len(key.classifiers) == 1:
            return f"m{stratum}_{{{classifiers}}}({letters(key.labels)})"
        name = f"D{stratum}_{{{classifiers}}}"
        return name + (f"({letters(key.labels, ',')})" if responses else "")
    if key.kind == "observed":
        return f"{'n' if rspace else 'f'}{stratum}_{{{letters(key.labels)}}}"
    raise SpecError(f"unknown variable kind {key.kind!r}; kinds are {KINDS}")


@dataclass(frozen=True)
class Parametrised:
    """Every statistic of the minimal parametrisation, in one ring, indexed by integers.

    ``prevalence[s][ell]``, ``response[i][ell][r]`` (the row of true label ``ell``) and
    ``correlation[T][ell][r_T]`` for every ``T`` of the structure, with dependent entries
    already expressed through the free ones.
    """

    prevalence: tuple[tuple[Any, ...], ...]
    response: tuple[tuple[tuple[Any, ...], ...], ...]
    correlation: Mapping[tuple[int, ...], tuple[Mapping[tuple[int, ...], Any], ...]]


class VariableRegistry:
    r"""Symbols and orders for one ensemble spec in P-space or R-space.

    Parameters
    ----------
    spec : EnsembleSpec
    space : {"P", "R"}
        P-space uses ratios (prevalences, rates); R-space the integer counts.

    Notes
    -----
    Mappings exposed with user label names: ``prevalence[ell]`` (single population),
    ``prevalences[population][ell]``, ``accuracy[i][ell]``, ``response[i][r][ell]``,
    ``correlation[T][ell][r_T]`` and ``observed[population][pattern]``. Their values are
    SymPy expressions in the free symbols: a symbol for a free statistic, a linear
    expression for a dependent one. :meth:`latex_name` gives every key its mathematical
    LaTeX name (``P_{a}``, ``P_{0,a}``, ``P_{0,b|a}``, ``G^{a}_{0,1}``, ``f_{aab}``).

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> reg = VariableRegistry(EnsembleSpec(["x", "y"], ["yes", "no"], "complete"))
    >>> reg.accuracy[0]["yes"], reg.response[1]["yes"]["no"], reg.correlation[(0, 1)]["no"][("no", "no")]
    (acc_0_a, 1 - acc_1_b, corr_0_1_b)
    >>> reg.latex(reg.correlation[(0, 1)]["no"][("yes", "no")])
    '- G^{b}_{0,1}'
    >>> VariableRegistry(EnsembleSpec(2, 2), space="R").observables()
    (n_aa, n_ab, n_ba, n_bb)
    """

    def __init__(self, spec: EnsembleSpec, space: str = "P") -> None:
        if space not in SPACES:
            raise SpecError(f"space must be one of {SPACES}, got {space!r}")
        if space == "R" and spec.n_populations > 1:
            raise SpecError(
                "R-space is defined for one population: strata share response *rates*, not "
                "counts; use space='P' for several populations"
            )
        import sympy

        self.spec = spec
        self.space = space
        self._symbols: dict[VariableKey, sympy.Symbol] = {
            key: sympy.Symbol(self._name(key)) for key in self._all_keys()
        }

    # -- keys and names -------------------------------------------------------------
    def _all_keys(self) -> list[VariableKey]:
        keys = [k for kind in _UNKNOWN_KINDS for k in self.keys(kind)]
        keys += self.keys("observed")
        return keys + (self.keys("moment") if self.space == "P" else [])

    def keys(self, kind: str) -> list[VariableKey]:
        """Free-variable keys of one kind, in canonical order."""
        spec, r_count, k_count = self.spec, self.spec.n_labels, self.spec.n_responses
        if kind == "prevalence":
            labels = range(r_count) if self.space == "R" else range(r_count - 1)
            return [VariableKey(kind, (), (ell,), s) for s in range(spec.n_populations) for ell in labels]
        if kind == "accuracy":
            return [
                VariableKey(kind, (i,), (ell,)) for i in range(spec.n_classifiers) for ell in range(r_count)
            ]
        if kind == "response":
            return [
                VariableKey(kind, (i,), (r, ell))
                for i in range(spec.n_classifiers)
                for ell in range(r_count)
                for r in free_responses(ell, r_count, k_count)
                if r != ell
            ]
        if kind == "correlation":
            return [
                VariableKey(kind, subset, (ell, *responses))
                for subset in spec.structure
                for ell in range(r_count)
                for responses in itertools.product(free_responses(ell, r_count, k_count), repeat=len(subset))
            ]
        if kind == "moment":
            return [
                VariableKey(kind, subset, responses, s)
                for s in range(spec.n_populations)
                for size in range(1, spec.n_classifiers + 1)
                for subset in itertools.combinations(range(spec.n_classifiers), size)
                for responses in itertools.product(range(1, k_count), repeat=size)
            ]
        if kind == "observed":
            return [
                VariableKey(kind, (), pattern, s)
                for s in range(spec.n_populations)
                for pattern in itertools.product(range(k_count), repeat=spec.n_classifiers)
            ]
        raise SpecError(f"unknown variable kind {kind!r}; kinds are {KINDS}")

    def _name(self, key: VariableKey) -> str:
        letters = response_letters(self.spec.n_labels, self.spec.n_responses)
        rspace = self.space == "R"
        stratum = f"s{key.population}_" if self.spec.n_populations > 1 else ""
        classifiers = "_".join(str(i) for i in key.classifiers)
        if key.kind == "prevalence":
            return f"{'Q' if rspace else 'prev'}_{stratum}{letters[key.labels[0]]}"
        if key.kind == "accuracy":
            ell = letters[key.labels[0]]
            return f"R_{classifiers}_{ell}_{ell}" if rspace else f"acc_{classifiers}_{ell}"
        if key.kind == "response":
            r, ell = (letters[k] for k in key.labels)
            return f"{'R' if rspace else 'resp'}_{classifiers}_{r}_{ell}"
        if key.kind == "correlation":
            true_label, *responses = key.labels
            name = f"{'C' if rspace else 'corr'}_{classifiers}_{letters[true_label]}"
            if self.spec.n_responses > 2:
                name += "_" + pattern_name(responses, self.spec.n_labels, self.spec.n_responses)
            return name
        if key.kind == "moment":
            head = "m" if len(key.classifiers) == 1 else "D"
            name = f"{head}_{stratum}{classifiers}"
            if len(key.classifiers) == 1 or self.spec.n_responses > 2:
                name += "_" + pattern_name(key.labels, self.spec.n_labels, self.spec.n_responses)
            return name
        pattern = pattern_name(key.labels, self.spec.n_labels, self.spec.n_responses)
        return f"{'n' if rspace else 'f'}_{stratum}{pattern}"

    # -- symbols and orders ---------------------------------------------------------
    def latex_name(self, key: VariableKey) -> str:
        r"""The mathematical LaTeX name of a key: ``P_{a}``, ``P_{0,a}``, ``G^{a}_{0,1}``.

        P-space: prevalence ``P_{a}``, accuracy ``P_{0,a}``, response ``P_{0,b|a}``,
        correlation ``G^{a}_{0,1}`` (``G^{a}_{0,1}(a,b)`` for ``R >= 3``), frequency
        ``f_{aab}``, moments ``m_{0}(b)`` and ``D_{0,1}``. R-space: ``Q_{a}``,
        ``R_{0,a|a}``, ``R_{0,b|a}``, ``C^{a}_{0,1}``, ``n_{aab}``. With several
        populations the population index is a superscript: ``P^{(1)}_{a}``.

        Examples
        --------
        >>> from evalgebra.spec import EnsembleSpec
        >>> reg = VariableRegistry(EnsembleSpec(2, 3, "complete"))
        >>> reg.latex_name(VariableKey("correlation", (0, 1), (0, 0, 1)))
        'G^{a}_{0,1}(a,b)'
        """
        spec = self.spec
        return key_latex(
            key,
            self.space,
            responses=spec.n_responses > 2,
            population=spec.n_populations > 1,
            n_labels=spec.n_labels,
        )

    def latex_names(self) -> dict[sympy.Symbol, str]:
        r"""Every symbol of the registry with its LaTeX name (``sympy.latex(symbol_names=...)``).

        Examples
        --------
        >>> from evalgebra.spec import EnsembleSpec
        >>> import sympy
        >>> reg = VariableRegistry(EnsembleSpec(2, 2, "complete"))
        >>> sympy.latex(reg.prevalence["b"] * reg.correlation[(0, 1)]["b"][("b", "b")],
        ...             symbol_names=reg.latex_names())
        'G^{b}_{0,1} \\left(1 - P_{a}\\right)'
        """
        return {sym: self.latex_name(key) for key, sym in self._symbols.items()}

    def latex(self, expr: Any) -> str:
        r"""LaTeX of a SymPy expression in this registry's symbols, with mathematical names.

        Examples
        --------
        >>> from evalgebra.spec import EnsembleSpec
        >>> reg = VariableRegistry(EnsembleSpec(2, 2))
        >>> reg.latex(reg.response[0]["b"]["a"])
        '1 - P_{0,a}'
        """
        import sympy

        return sympy.latex(expr, symbol_names=self.latex_names())

    def symbol(self, key: VariableKey) -> sympy.Symbol:
        """The symbol of a free-variable key."""
        try:
            return self._symbols[key]
        except KeyError:
            raise SpecError(f"{key} is not a free variable of this registry") from None

    def key_of(self, symbol: sympy.Symbol | str) -> VariableKey:
        """The key of a symbol (or symbol name) made by this registry."""
        name = str(symbol)
        for key, sym in self._symbols.items():
            if sym.name == name:
                return key
        raise SpecError(f"{name!r} is not a symbol of this registry")

    def variables(
        self, order: Iterable[str] = ("prevalence", "accuracy", "response", "correlation")
    ) -> tuple[sympy.Symbol, ...]:
        """Free unknowns in block order by kind (each block in canonical order)."""
        return tuple(self._symbols[k] for kind in order for k in self.keys(kind))

    def observables(self, coordinates: str = "raw") -> tuple[sympy.Symbol, ...]:
        """Observed symbols: pattern frequencies/counts ("raw") or "moments" (P-space)."""
        if coordinates not in ("raw", "moments"):
            raise SpecError(f"coordinates must be 'raw' or 'moments', got {coordinates!r}")
        kind = "observed" if coordinates == "raw" else "moment"
        if kind == "moment" and self.space != "P":
            raise SpecError("moment coordinates are defined in P-space")
        return tuple(self._symbols[k] for k in self.keys(kind))

    def elimination_order(self, *blocks: str) -> tuple[sympy.Symbol, ...]:
        """Variables in the named kind blocks, first block eliminated first.

        >>> from evalgebra.spec import EnsembleSpec
        >>> VariableRegistry(EnsembleSpec(1, 2)).elimination_order("accuracy", "prevalence")
        (acc_0_a, acc_0_b, prev_a)
        """
        for block in blocks:
            if block not in KINDS:
                raise SpecError(f"unknown variable kind {block!r}; kinds are {KINDS}")
        return self.variables(blocks)

    # -- the parametrisation --------------------------------------------------------
    def parametrise(self, value: Callable[[VariableKey], Any]) -> Parametrised:
        """Every statistic in the ring of ``value(key)``, dependent ones derived.

        ``value`` maps each free key to a ring element (a symbol, a flint generator, a
        rational). Dependent responses are ``1 - sum`` of the free ones (``Q_ell - sum``
        in R-space), the dependent prevalence ``1 - sum`` (P-space only).
        """
        spec, r_count, k_count = self.spec, self.spec.n_labels, self.spec.n_responses
        prevalence = []
        for s in range(spec.n_populations):
            if self.space == "R":
                row = [value(VariableKey("prevalence", (), (ell,), s)) for ell in range(r_count)]
            else:
                row = [value(VariableKey("prevalence", (), (ell,), s)) for ell in range(r_count - 1)]
                row.append(1 - sum(row))
            prevalence.append(tuple(row))
        response = []
        for i in range(spec.n_classifiers):
            rows = []
            for ell in range(r_count):
                entries: dict[int, Any] = {ell: value(VariableKey("accuracy", (i,), (ell,)))}
                for r in free_responses(ell, r_count, k_count):
                    if r != ell:
                        entries[r] = value(VariableKey("response", (i,), (r, ell)))
                whole = prevalence[0][ell] if self.space == "R" else 1
                entries[dependent_response(ell, r_count)] = whole - sum(entries.values())
                rows.append(tuple(entries[r] for r in range(k_count)))
            response.append(tuple(rows))
        correlation: dict[tuple[int, ...], tuple[dict[tuple[int, ...], Any], ...]] = {}
        for subset in spec.structure:
            per_label = []
            for ell in range(r_count):
                table: dict[tuple[int, ...], Any] = {}
                for responses in itertools.product(range(k_count), repeat=len(subset)):
                    terms = [
                        sign * value(VariableKey("correlation", subset, (ell, *free)))
                        for sign, free in correlation_expansion(ell, responses, r_count, n_responses=k_count)
                    ]
                    table[responses] = sum(terms[1:], terms[0])
                per_label.append(table)
            correlation[subset] = tuple(per_label)
        return Parametrised(tuple(prevalence), tuple(response), correlation)

    @cached_property
    def _symbolic(self) -> Parametrised:
        return self.parametrise(self.symbol)

    # -- user-facing mappings (label names) ----------------------------------------
    @property
    def prevalences(self) -> dict[str, dict[str, sympy.Expr]]:
        """``prevalences[population][label]``."""
        labels = self.spec.labels
        return {
            pop: dict(zip(labels, self._symbolic.prevalence[s]))
            for s, pop in enumerate(self.spec.populations)
        }

    @property
    def prevalence(self) -> dict[str, sympy.Expr]:
        """``prevalence[label]`` of a single-population spec."""
        if self.spec.n_populations > 1:
            raise SpecError("this spec has several populations; use prevalences[population][label]")
        return self.prevalences[self.spec.populations[0]]

    @property
    def response(self) -> dict[int, dict[str, dict[str, sympy.Expr]]]:
        """``response[i][r][ell]``: classifier ``i`` answers ``r`` (a label or an abstention) when the truth
        is ``ell``.
        """
        labels, responses = self.spec.labels, self.spec.responses
        rows = self._symbolic.response
        return {
            i: {
                responses[r]: {labels[ell]: rows[i][ell][r] for ell in range(len(labels))}
                for r in range(len(responses))
            }
            for i in range(self.spec.n_classifiers)
        }

    @property
    def accuracy(self) -> dict[int, dict[str, sympy.Expr]]:
        """``accuracy[i][ell]``: classifier ``i``'s accuracy on true label ``ell``."""
        labels = self.spec.labels
        rows = self._symbolic.response
        return {
            i: {labels[ell]: rows[i][ell][ell] for ell in range(len(labels))}
            for i in range(self.spec.n_classifiers)
        }

    @property
    def correlation(self) -> dict[tuple[int, ...], dict[str, dict[tuple[str, ...], sympy.Expr]]]:
        """``correlation[T][ell][r_T]`` for every subset ``T`` of the structure."""
        labels, names = self.spec.labels, self.spec.responses
        return {
            subset: {
                labels[ell]: {tuple(names[r] for r in responses): expr for responses, expr in table.items()}
                for ell, table in enumerate(tables)
            }
            for subset, tables in self._symbolic.correlation.items()
        }

    @property
    def observed(self) -> dict[str, dict[tuple[str, ...], sympy.Symbol]]:
        """``observed[population][pattern]``: frequency (P) or count (R) symbols."""
        labels = self.spec.responses
        result: dict[str, dict[tuple[str, ...], sympy.Symbol]] = {pop: {} for pop in self.spec.populations}
        for key in self.keys("observed"):
            pop = self.spec.populations[key.population or 0]
            result[pop][tuple(labels[k] for k in key.labels)] = self._symbols[key]
        return result
