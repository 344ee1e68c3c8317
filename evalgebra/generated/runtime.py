r"""The runtime helpers the generated structure modules import: written by hand, typed and tested.

The generated modules (``evalgebra.generated.structures``) carry only their structure's
polynomials; what they share beyond the counts' moments is here: the exact division of the
back-substitution (:func:`div`, :class:`Blind` on a vanishing denominator), the label swap of a
point (:func:`mirrored`), the loop over the roots of an eliminant (:func:`substitute_all`), the
model's pattern counts and residuals at a point (:func:`model_counts`, :func:`model_residuals`)
and a module's contract from its parts (:func:`entry_points`).

:data:`PROTOCOL` is the interface the generated modules are written for: every one carries its
own ``PROTOCOL``, and the loader (``evalgebra.evaluators.correlated.structure_lookup``) refuses or
regenerates a module whose number differs.

>>> div(3, 6)
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from flint import fmpq, fmpz

__all__ = [
    "PROTOCOL",
    "Blind",
    "div",
    "entry_points",
    "mirrored",
    "model_counts",
    "model_residuals",
    "moments_names",
    "substitute_all",
]

#: The structure-module interface: ``PROTOCOL``, ``MOMENTS``, ``moments``, ``eliminant_coefficients``,
#: ``prepare``, ``solve`` and the entry points (eliminant, back_substitute, back_substitute_all,
#: residuals). Raised when that interface changes; the generator writes it into every module.
PROTOCOL = 2

Values = dict[str, Any]


class Blind(Exception):
    """A denominator of the back-substitution vanished (a blind spot).

    >>> try:
    ...     div(1, 0)
    ... except Blind:
    ...     print("blind")
    blind
    """


def div(num: Any, den: Any) -> Any:
    """num / den, exact on int (as a Fraction), fmpz (as an fmpq), Fraction, fmpq and number-field
    elements; IEEE division on NumPy arrays; :class:`Blind` on an exact zero denominator.

    >>> div(fmpz(2), fmpz(4)), div(Fraction(1, 3), 2), div(fmpq(1, 3), fmpz(2))
    (1/2, Fraction(1, 6), 1/6)
    """
    if type(den) is fmpq or (type(num) is fmpq and type(den) is fmpz):  # the usual exact case first
        if not den:
            raise Blind
        return num / den
    if getattr(den, "shape", None) is not None:
        return num / den
    if den == 0:
        raise Blind
    if isinstance(num, int) and isinstance(den, int):
        return Fraction(num, den)
    if isinstance(num, (int, fmpz)) and isinstance(den, (int, fmpz)):
        return fmpq(num, den)
    return num / den


def mirrored(values: Mapping[str, Any]) -> Values:
    """The label swap of a point's values (registry names ``acc_i_l``, ``corr_..._l``):
    ``P_{i,a} <-> 1 - P_{i,b}``, ``G^a_T <-> (-1)^|T| G^b_T``; the swapped point's prevalence is
    ``1 - prev_a``.

    >>> mirrored({"acc_0_a": Fraction(3, 4), "acc_0_b": Fraction(2, 3), "corr_0_1_a": 1, "corr_0_1_b": 2})
    {'acc_0_a': Fraction(1, 3), 'acc_0_b': Fraction(1, 4), 'corr_0_1_a': 2, 'corr_0_1_b': 1}
    """
    out: Values = {}
    for name in values:
        kind, rest = name.split("_", 1)
        members, label = rest[:-2], rest[-1]
        twin = values[f"{kind}_{members}_{'b' if label == 'a' else 'a'}"]
        if kind == "acc":
            out[name] = 1 - twin
        else:
            out[name] = twin if members.count("_") % 2 else -twin
    return out


def substitute_all(
    prepare: Callable[..., Any],
    solve: Callable[[Any, Any], Values],
    moments: Sequence[Any],
    prevalences: Sequence[Any],
) -> list[Values | None]:
    """``solve(prepare(*moments), p)`` for every ``p`` of prevalences (the per-sketch part once);
    None where a denominator vanishes (a blind spot). A rational p whose 1 - p came first gets the
    label swap of that point (:func:`mirrored`): the swap maps the model onto itself, so it is the
    point above p.

    >>> def solve(prepared, p):
    ...     return {"acc_0_a": div(prepared, p), "acc_0_b": 1 - div(prepared, 1 - p)}
    >>> substitute_all(lambda q: q, solve, [Fraction(1, 4)], [Fraction(1, 2), 0])
    [{'acc_0_a': Fraction(1, 2), 'acc_0_b': Fraction(1, 2)}, None]
    """
    prepared = prepare(*moments)
    out: list[Values | None] = []
    done: dict[Any, Values] = {}
    for prevalence in prevalences:
        rational = isinstance(prevalence, (fmpq, Fraction))
        twin = done.get(1 - prevalence) if rational else None
        if twin is not None:
            out.append(mirrored(twin))
            continue
        try:
            point: Values | None = solve(prepared, prevalence)
        except Blind:
            point = None
        out.append(point)
        if rational and point is not None:
            done[prevalence] = point
    return out


def model_counts(n: int, structure: Sequence[Sequence[int]], values: Mapping[str, Any], q: Any) -> list[Any]:
    """Q times the model's pattern frequencies at a point (values: ``prev_a``, ``acc_i_l``,
    ``corr_..._l``): ``q P_l sum_{T in structure or T = {}} G^l_T(d_T) prod_{i not in T}
    P_{i,d_i|l}``, summed over the labels l; pattern order (classifier 0 slowest, a before b).

    >>> point = {"prev_a": Fraction(1, 2), "acc_0_a": Fraction(3, 4), "acc_0_b": Fraction(1, 2)}
    >>> model_counts(1, (), point, 8)
    [Fraction(5, 1), Fraction(3, 1)]
    """
    prevalence = values["prev_a"]
    out: list[Any] | None = None
    for ell, label, weight in ((0, "a", prevalence), (1, "b", 1 - prevalence)):
        rates = []
        for i in range(n):
            right = values[f"acc_{i}_{label}"]
            rates.append((right, 1 - right) if ell == 0 else (1 - right, right))
        total: list[Any] = [1]
        for i in range(n):
            total = [x * r for x in total for r in rates[i]]
        for subset in structure:
            part = [values["corr_" + "_".join(map(str, subset)) + "_" + label]]
            for i in range(n):
                if i in subset:  # +G when classifier i answers the true label, -G otherwise
                    part = [y for x in part for y in ((x, -x) if ell == 0 else (-x, x))]
                else:
                    part = [x * r for x in part for r in rates[i]]
            total = [x + y for x, y in zip(total, part)]
        scaled = [q * weight * x for x in total]
        out = scaled if out is None else [x + y for x, y in zip(out, scaled)]
    assert out is not None
    return out


def model_residuals(
    moments: Callable[..., Sequence[Any]],
    n: int,
    structure: Sequence[Sequence[int]],
    counts: Sequence[Any],
    values: Mapping[str, Any],
) -> list[Any]:
    """The model's generators in moment coordinates at a point, scaled to counts: B_i less the
    model's (singles), then ``E_T`` less the model's (``|T| >= 2``), in ``MOMENTS`` order; all zero
    exactly when the point explains the counts. moments is the module's moments function.

    >>> moments = lambda n_a, n_b: (n_a + n_b, n_a - n_b)  # Q and B_0 of one classifier
    >>> point = {"prev_a": Fraction(1, 2), "acc_0_a": Fraction(3, 4), "acc_0_b": Fraction(1, 2)}
    >>> model_residuals(moments, 1, (), [5, 3], point), model_residuals(moments, 1, (), [6, 2], point)
    ([Fraction(0, 1)], [Fraction(2, 1)])
    """
    observed = moments(*counts)
    model = moments(*model_counts(n, structure, values, observed[0]))
    return [
        x - y
        for name, x, y in zip(moments_names(n), observed, model)
        if name[0] == "E" or name.count("_") == 1
    ]


def entry_points(
    moments: Callable[..., Sequence[Any]],
    eliminant_coefficients: Callable[..., Sequence[Any]],
    prepare: Callable[..., Any],
    solve: Callable[[Any, Any], Values],
    n: int,
    structure: Sequence[Sequence[int]],
) -> tuple[
    Callable[[Sequence[Any]], list[Any]],
    Callable[[Sequence[Any], Any], Values | None],
    Callable[[Sequence[Any], Sequence[Any]], list[Values | None]],
    Callable[[Sequence[Any], Mapping[str, Any]], list[Any]],
]:
    """A module's contract from its structure-specific parts: (eliminant, back_substitute,
    back_substitute_all, residuals), each taking the pattern counts first.

    >>> moments = lambda n_a, n_b: (n_a + n_b, n_a - n_b)
    >>> def solve(prepared, p):
    ...     return {"acc_0_a": div(prepared[1], p), "acc_0_b": 1 - div(prepared[1], 1 - p)}
    >>> eliminant, one, every, _ = entry_points(moments, lambda q, b: (q, -b), lambda *m: m, solve, 1, ())
    >>> eliminant([5, 3]), one([5, 3], Fraction(1, 4)), every([5, 3], [0])
    ([8, -2], {'acc_0_a': Fraction(8, 1), 'acc_0_b': Fraction(-5, 3)}, [None])
    """

    def eliminant(counts: Sequence[Any]) -> list[Any]:
        """Coefficients (low -> high) of the eliminant in prev_a; counts in pattern order."""
        return list(eliminant_coefficients(*moments(*counts)))

    def back_substitute(counts: Sequence[Any], prevalence: Any) -> Values | None:
        """Every unknown but the prevalence (dict by registry name) at one root of the eliminant; None
        where a denominator vanishes (a blind spot)."""
        return substitute_all(prepare, solve, moments(*counts), [prevalence])[0]

    def back_substitute_all(counts: Sequence[Any], prevalences: Sequence[Any]) -> list[Values | None]:
        """back_substitute at every prevalence of a list (the per-sketch part once)."""
        return substitute_all(prepare, solve, moments(*counts), prevalences)

    def residuals(counts: Sequence[Any], values: Mapping[str, Any]) -> list[Any]:
        """The model's generators in moment coordinates at a point (values: every unknown), scaled to
        counts: all zero exactly when the point explains the counts."""
        return model_residuals(moments, n, structure, counts, values)

    return eliminant, back_substitute, back_substitute_all, residuals


def moments_names(n: int) -> tuple[str, ...]:
    """MOMENTS of the moments function for n classifiers (Q, B_T, E_T; T by size, then lexicographic).

    >>> moments_names(2)
    ('Q', 'B_0', 'B_1', 'B_0_1', 'E_0_1')
    """
    subsets = [t for size in range(1, n + 1) for t in combinations(range(n), size)]
    return (
        "Q",
        *("B_" + "_".join(map(str, t)) for t in subsets),
        *("E_" + "_".join(map(str, t)) for t in subsets if len(t) >= 2),
    )
