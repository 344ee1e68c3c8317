r"""Polynomials in mathematical LaTeX: the names of the papers, a bounded size, escaped user text.

Symbols made by :class:`~evalgebra.variables.VariableRegistry` print under their
mathematical names (``prev_a`` as :math:`P_{a}`, ``acc_0_a`` as :math:`P_{0,a}`,
``resp_0_b_a`` as :math:`P_{0,b|a}`, ``corr_0_1_a`` as :math:`G^{a}_{0,1}`, ``f_aab`` as
:math:`f_{aab}`). The registry makes those names; :func:`latex_name` reads a symbol name
back into its registry key when only the name is at hand (the variables of a Gröbner
basis). Long outputs are cut: at most :data:`LATEX_ROWS` rows and :data:`LATEX_TERMS`
terms per row, the rest counted (``\dots`` and "N more"), so a large ideal never renders
megabytes.

Examples
--------
>>> import sympy
>>> prev_a, acc_0_a = sympy.symbols("prev_a acc_0_a")
>>> names = {s: latex_name(s) for s in (prev_a, acc_0_a)}
>>> terms_latex(prev_a * acc_0_a - prev_a + 1, names)
'P_{0,a} P_{a} - P_{a} + 1'
>>> terms_latex(prev_a * acc_0_a - prev_a + 1, names, max_terms=1)
'P_{0,a} P_{a} + \\dots \\text{(2 more terms)}'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import sympy

from evalgebra.variables import VariableKey, key_latex

__all__ = [
    "LATEX_ROWS",
    "LATEX_TERMS",
    "latex_text",
    "latex_name",
    "key_of_name",
    "terms_latex",
    "flint_terms",
    "aligned",
]

#: Rows (polynomials) a LaTeX display shows before it counts the rest.
LATEX_ROWS = 12
#: Terms of one polynomial a LaTeX display shows before it counts the rest.
LATEX_TERMS = 40

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_KINDS = {
    "prev": "prevalence",
    "Q": "prevalence",
    "acc": "accuracy",
    "resp": "response",
    "R": "response",
    "corr": "correlation",
    "C": "correlation",
    "f": "observed",
    "n": "observed",
    "m": "moment",
    "D": "moment",
}


def latex_text(text: Any) -> str:
    r"""User text (a label or classifier name) as LaTeX ``\text{...}``, special characters escaped.

    Examples
    --------
    >>> print(latex_text("50% & up_{x}"))
    \text{50\% \& up\_\{x\}}
    """
    return r"\text{" + "".join(_SPECIAL.get(c, c) for c in str(text)) + "}"


def _labels(tokens: Sequence[str]) -> tuple[int, ...] | None:
    labels: list[int] = []
    for token in tokens:
        if re.fullmatch(r"l\d+", token):
            labels.append(int(token[1:]))
        elif re.fullmatch(r"[a-z]+", token):
            labels.extend(ord(c) - ord("a") for c in token)
        else:
            return None
    return tuple(labels)


def key_of_name(name: str) -> tuple[VariableKey, str, bool] | None:
    r"""Read a symbol name made by a registry back into ``(key, space, responses written)``.

    Single-population names carry no population (``None``); a correlation or joint moment
    written without responses (``R = 2``) gets the free response of each classifier.
    Names no registry makes (auxiliary variables such as ``u_0_1``) give ``None``.

    Examples
    --------
    >>> key_of_name("resp_0_b_a")
    (VariableKey(kind='response', classifiers=(0,), labels=(1, 0), population=None), 'P', False)
    >>> key_of_name("C_0_1_a")[0].labels, key_of_name("u_0_1") is None
    ((0, 0, 0), True)
    """
    head, _, rest = name.partition("_")
    kind = _KINDS.get(head)
    tokens = rest.split("_") if rest else []
    population: int | None = None
    if tokens and head in ("prev", "f", "m", "D") and re.fullmatch(r"s\d+", tokens[0]):
        population, tokens = int(tokens[0][1:]), tokens[1:]
    digits = list(itertools.takewhile(str.isdigit, tokens))
    classifiers = tuple(int(t) for t in digits)
    labels = _labels(tokens[len(digits) :])
    if kind is None or labels is None or not tokens:
        return None
    space = "R" if head in ("Q", "R", "C", "n") else "P"
    shapes = {"prevalence": (0, 1), "accuracy": (1, 1), "response": (1, 2), "observed": (0, -1)}
    if kind in shapes or kind == "moment" and len(classifiers) == 1:
        n_classifiers, n_labels = shapes.get(kind, (1, 1))
        if len(classifiers) != n_classifiers or n_labels >= 0 and len(labels) != n_labels:
            return None
        if kind == "response" and space == "R" and labels[0] == labels[1]:
            kind, labels = "accuracy", labels[1:]
        return VariableKey(kind, classifiers, labels, population), space, False
    written = len(labels) > (1 if kind == "correlation" else 0)
    if kind == "correlation" and labels:
        labels = labels if written else labels * (len(classifiers) + 1)
        responses = labels[1:]
    else:
        labels = responses = labels if written else (1,) * len(classifiers)
    if len(classifiers) < 2 or len(responses) != len(classifiers):
        return None
    return VariableKey(kind, classifiers, labels, population), space, written


def latex_name(name: str | sympy.Symbol) -> str:
    r"""The mathematical LaTeX name of a symbol made by a registry, from its name alone.

    Names no registry makes print as SymPy prints them. With the registry at hand use
    :meth:`~evalgebra.variables.VariableRegistry.latex_names`: both give one name.

    Examples
    --------
    >>> [latex_name(n) for n in ("prev_a", "acc_0_a", "resp_0_b_a", "corr_0_1_a", "f_aab")]
    ['P_{a}', 'P_{0,a}', 'P_{0,b|a}', 'G^{a}_{0,1}', 'f_{aab}']
    >>> [latex_name(n) for n in ("Q_a", "R_0_a_a", "C_0_1_a_ab", "f_s1_aab", "D_0_1", "u_0_1")]
    ['Q_{a}', 'R_{0,a|a}', 'C^{a}_{0,1}(a,b)', 'f^{(1)}_{aab}', 'D_{0,1}', 'u_{0 1}']
    """
    parsed = key_of_name(str(name))
    if parsed is None:
        return sympy.latex(sympy.Symbol(str(name)))
    key, space, responses = parsed
    wide = re.search(r"(^|_)l\d+(_|$)", str(name)) is not None  # more than 26 labels
    return key_latex(key, space, responses, population=True, n_labels=27 if wide else None)


def terms_latex(
    expr: Any, names: Mapping[sympy.Symbol, str], max_terms: int = LATEX_TERMS, more: int = 0
) -> str:
    r"""LaTeX of a SymPy expression under ``names``, its top-level sum cut after ``max_terms``.

    ``more`` counts terms the caller left out already (see :func:`flint_terms`).
    """
    terms = tuple(expr.as_ordered_terms()) if isinstance(expr, sympy.Add) else (expr,)
    more += max(0, len(terms) - max_terms)
    parts: list[str] = []
    for term in terms[:max_terms]:
        text = sympy.latex(term, symbol_names=dict(names))
        if isinstance(term, sympy.Add):
            text = r"\left(" + text + r"\right)"
        if parts:
            parts.append("- " + text[1:].lstrip() if text.startswith("-") else "+ " + text)
        else:
            parts.append(text)
    if more:
        parts.append(r"+ \dots \text{(" + f"{more} more term{'s' if more > 1 else ''}" + ")}")
    return " ".join(parts) if parts else "0"


def flint_terms(
    poly: Any, symbols: Sequence[sympy.Symbol], max_terms: int = LATEX_TERMS
) -> tuple[sympy.Expr, int]:
    """The first ``max_terms`` terms of a python-flint polynomial as SymPy, and how many are left."""
    terms = []
    for exponents, coeff in itertools.islice(zip(poly.monoms(), poly.coeffs()), max_terms):
        monomial = sympy.Mul(*(s**e for s, e in zip(symbols, exponents) if e))
        terms.append(sympy.Rational(int(coeff.p), int(coeff.q)) * monomial)
    return sympy.Add(*terms), max(0, len(poly) - max_terms)


def aligned(rows: Sequence[str], more: int = 0, noun: str = "", display: bool = False) -> str:
    r"""Rows ``left & right`` in an ``align*`` environment (``display``: ``$$\begin{aligned}``).

    Examples
    --------
    >>> print(aligned(["x &= 0"], more=3, noun="polynomials"))
    \begin{align*}
    x &= 0 \\
    \vdots & \quad \text{(3 more polynomials)}
    \end{align*}
    """
    rows = list(rows)
    if more == 1:  # one identity, one polynomial
        noun = noun[:-3] + "y" if noun.endswith("ies") else noun.removesuffix("s")
    if more:
        rows.append(r"\vdots & \quad \text{(" + " ".join(filter(None, [str(more), "more", noun])) + ")}")
    body = " \\\\\n".join(rows)
    if display:
        return "$$\\begin{aligned}\n" + body + "\n\\end{aligned}$$"
    return "\\begin{align*}\n" + body + "\n\\end{align*}"
