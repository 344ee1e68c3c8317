r"""The eliminant of three error-independent classifiers with ``R >= 3`` labels, derived and emitted.

For three classifiers ``0, 1, 2`` independent given the true label, write ``A_i`` for the
``R x R`` response matrix of classifier ``i`` (``A_i[r, l] = P_{i,r|l}``, columns summing to
one) and ``D = diag(P_a, P_b, ...)``. With ``Q`` items the observed count tables factor:

* the pair table of classifiers 0 and 1, ``M[r, s] = #{0 answered r, 1 answered s}``, is
  ``M = Q A_0 D A_1^T``;
* the slice ``t`` of the three-way table, ``N_t[r, s] = n_{r s t}``, is
  ``N_t = Q A_0 D diag(A_2[t, :]) A_1^T``, so a weighted slice ``S = sum_t w_t N_t`` is
  ``Q A_0 D diag(v) A_1^T`` with ``v_l = sum_t w_t P_{2,t|l}``.

Hence ``lambda M - S = Q A_0 D (lambda I - diag(v)) A_1^T`` and

.. math:: \det(\lambda M - S) = Q^R \det A_0 \det A_1 \prod_l P_l \prod_l (\lambda - v_l):

a polynomial of degree ``R`` in ``lambda`` whose coefficients are integer polynomials of
degree ``R`` in the counts and the weights, whose roots are the values ``v_l`` (for ``w = e_t``
the response rates of classifier 2 to ``t`` under each true label) and whose eigenvectors
recover the columns of ``A_0``. This module derives those coefficients symbolically (the
determinant of a matrix of count symbols, expanded by SymPy) and emits them through the exact
printer (:mod:`evalgebra.codegen.printer`): the generated functions are division-free, exact on
``int``, ``Fraction`` and ``fmpq``, and vectorised on NumPy arrays. Derivation d07 checks the
factorisation in the model's unknowns and the eliminants against Gröbner bases.

Examples
--------
>>> form = characteristic_form(3)
>>> form.n_labels, len(form.counts), [str(w) for w in form.weights]
(3, 27, ['w_0', 'w_1', 'w_2'])
>>> form.coefficients[3] == form.determinant_of("M")
True
>>> print(form.prelude[0][0], "=", form.prelude[0][1])
M_a_a = n_aaa + n_aab + n_aac

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the independent evaluation
   variety, and its remark that the formalism extends to more labels.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy

from evalgebra.codegen.printer import Progress, python_function
from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableRegistry

__all__ = [
    "LABEL_COUNTS",
    "CharacteristicForm",
    "characteristic_form",
    "module_source",
    "DERIVATION",
]

#: The label counts the generated module covers.
LABEL_COUNTS = (3, 4)

#: Where the generated module comes from (its header and the manifest).
DERIVATION = "derivations/d07_many_labels.py"


def _quiet(message: str) -> None:
    return None


def _letter(k: int) -> str:
    return chr(ord("a") + k)


@dataclass(frozen=True)
class CharacteristicForm:
    r"""``det(lambda M - S)`` for ``R`` labels, in the pattern counts and the slice weights.

    Attributes
    ----------
    n_labels : int
    counts : tuple of Symbol
        ``n_aaa ..`` in the registry's (lexicographic) pattern order.
    weights : tuple of Symbol
        ``w_0 .. w_{R-1}``, the weight of each slice of classifier 2's answers.
    prelude : tuple of (str, Expr)
        ``M_r_s`` (pair table of classifiers 0 and 1), ``K_r_t`` (pair table of 0 and 2) and
        ``S_r_s = sum_t w_t n_{r s t}`` (the weighted slice), each linear in the counts.
    coefficients : tuple of Expr
        ``e_0 .. e_R`` in the prelude's names: ``det(lambda M - S) = sum_m e_m lambda^m``.
    """

    n_labels: int
    counts: tuple[sympy.Symbol, ...]
    weights: tuple[sympy.Symbol, ...]
    prelude: tuple[tuple[str, sympy.Expr], ...]
    coefficients: tuple[sympy.Expr, ...]

    def matrix(self, prefix: str) -> sympy.Matrix:
        """The ``R x R`` matrix of prelude symbols ``prefix_r_s``."""
        r = self.n_labels
        return sympy.Matrix(r, r, lambda i, j: sympy.Symbol(f"{prefix}_{_letter(i)}_{_letter(j)}"))

    def determinant_of(self, prefix: str) -> sympy.Expr:
        """The expanded determinant of :meth:`matrix` (``e_R = det M``)."""
        return sympy.expand(self.matrix(prefix).det(method="berkowitz"))

    def table_names(self, prefix: str) -> tuple[str, ...]:
        """``prefix_r_s`` names, row by row."""
        r = self.n_labels
        return tuple(f"{prefix}_{_letter(i)}_{_letter(j)}" for i in range(r) for j in range(r))


def characteristic_form(n_labels: int, progress: Progress = _quiet) -> CharacteristicForm:
    r"""Derive ``det(lambda M - S)`` for three classifiers and ``n_labels`` labels.

    Parameters
    ----------
    n_labels : int
        ``R >= 2``.
    progress : callable, optional
        Receives one message per step.

    Returns
    -------
    CharacteristicForm
    """
    if n_labels < 2:
        raise SpecError(f"the characteristic form needs at least 2 labels, got {n_labels}")
    spec = EnsembleSpec(3, n_labels)
    counts = tuple(VariableRegistry(spec, "R").observables())
    r = n_labels
    index = {pattern: k for k, pattern in enumerate(itertools.product(range(r), repeat=3))}
    weights = tuple(sympy.Symbol(f"w_{t}") for t in range(r))
    prelude: list[tuple[str, sympy.Expr]] = []
    for i, j in itertools.product(range(r), repeat=2):
        prelude.append(
            (f"M_{_letter(i)}_{_letter(j)}", sympy.Add(*[counts[index[(i, j, t)]] for t in range(r)]))
        )
    for i, t in itertools.product(range(r), repeat=2):
        prelude.append(
            (f"K_{_letter(i)}_{_letter(t)}", sympy.Add(*[counts[index[(i, j, t)]] for j in range(r)]))
        )
    for i, j in itertools.product(range(r), repeat=2):
        prelude.append(
            (
                f"S_{_letter(i)}_{_letter(j)}",
                sympy.Add(*[weights[t] * counts[index[(i, j, t)]] for t in range(r)]),
            )
        )
    progress(f"R = {r}: expanding det(lambda M - S)")
    lam = sympy.Symbol("lambda_")
    m_matrix = sympy.Matrix(r, r, lambda i, j: sympy.Symbol(f"M_{_letter(i)}_{_letter(j)}"))
    s_matrix = sympy.Matrix(r, r, lambda i, j: sympy.Symbol(f"S_{_letter(i)}_{_letter(j)}"))
    det = (lam * m_matrix - s_matrix).det(method="berkowitz")
    poly = sympy.Poly(sympy.expand(det), lam)
    coefficients = tuple(sympy.expand(poly.coeff_monomial(lam**m)) for m in range(r + 1))
    return CharacteristicForm(r, counts, weights, tuple(prelude), coefficients)


def module_source(progress: Progress = _quiet) -> tuple[str, str]:
    r"""``(derivation, text)`` of ``evalgebra/generated/many_labels.py`` (one function per ``R``)."""
    forms = [characteristic_form(r, progress) for r in LABEL_COUNTS]
    doc = (
        "Eliminant of three error-independent classifiers with R >= 3 labels (derivation d07).\n\n"
        "``eliminant_R(n_aaa, .., w_0, .., w_{R-1})`` returns the coefficients ``e_0 .. e_R`` of\n"
        "``det(lambda M - S) = sum_m e_m lambda^m``, then the tables ``M`` (pair table of classifiers\n"
        "0 and 1), ``K`` (pair table of 0 and 2) and ``S = sum_t w_t N_t`` (the weighted slices of\n"
        "the three-way table by classifier 2's answer), row by row. For independent classifiers\n"
        "``det(lambda M - S) = Q^R det A_0 det A_1 prod_l P_l prod_l (lambda - v_l)`` with\n"
        "``v_l = sum_t w_t P_{2,t|l}``. Nothing is divided: the functions are exact on ``int`` and\n"
        "run on floats and NumPy arrays alike.\n\n"
        'References: "Algebraic Evaluation Theorems" (A. Corrada-Emmanuel): the independent\n'
        "evaluation variety; docs/theory.md, section on more than two labels."
    )
    constants = [f"LABEL_COUNTS = {LABEL_COUNTS!r}"]
    functions = []
    for form in forms:
        r = form.n_labels
        constants.append(
            f"TABLES_{r} = {(form.table_names('M'), form.table_names('K'), form.table_names('S'))!r}"
        )
        outputs = [(f"e_{m}", c) for m, c in enumerate(form.coefficients)]
        outputs += [(name, sympy.Symbol(name)) for prefix in "MKS" for name in form.table_names(prefix)]
        progress(f"R = {r}: printing")
        functions.append(
            python_function(
                f"eliminant_{r}",
                [*form.counts, *form.weights],
                outputs,
                f"Coefficients e_0 .. e_{r} of det(lambda M - S), then the tables M, K, S "
                f"(TABLES_{r} order).",
                list(form.prelude),
            )
        )
    body = [
        "# Generated by evalgebra.codegen from "
        + DERIVATION
        + ". DO NOT EDIT. Regenerate: python -m evalgebra.codegen --write",
        f'r"""{doc}"""',
        "",
        *constants,
        "",
        "",
        "\n\n\n".join(functions),
    ]
    return "d07_many_labels (det(lambda M - S), expanded symbolically)", "\n".join(body).rstrip() + "\n"
