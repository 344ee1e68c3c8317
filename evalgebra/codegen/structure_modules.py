r"""Emit the generated evaluators of correlated structures and their index.

:func:`structure_source` prints a :class:`~evalgebra.codegen.structures.StructureForm` as a
module of ``evalgebra/generated/structures/`` (the contract is in the docstring of
:mod:`evalgebra.codegen.structures`); :func:`structure_files` returns every committed module
of :data:`STRUCTURES` plus ``INDEX.json``, the identifiability atlas read from the committed
results of derivations d04 (two labels) and d09 (three labels).

Examples
--------
>>> [module_name(n, s) for n, s in STRUCTURES][:3]
['n4_r2_01', 'n4_r2_01_02', 'n4_r2_01_02_03']
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sympy

from evalgebra.codegen.printer import CodegenError, expression_text, python_function, require_polynomial
from evalgebra.codegen.structures import StructureForm, derive_structure, module_name, structure_from_text

__all__ = ["STRUCTURES", "ATLAS", "structure_source", "structure_files", "atlas_index"]

Progress = Callable[[str], None]

#: The structures whose evaluators are committed: ``(N, structure)``, canonical forms.
STRUCTURES: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] = (
    (4, ((0, 1),)),
    (4, ((0, 1), (0, 2))),
    (4, ((0, 1), (0, 2), (0, 3))),
    (4, ((0, 1), (0, 2), (1, 3))),
    (4, ((0, 1), (0, 2), (1, 2))),
    (5, ((0, 1),)),
    (5, ((0, 1), (0, 2), (0, 3), (0, 4))),
    (5, ((0, 1), (0, 2), (1, 3), (2, 4), (3, 4))),
)

#: The committed atlas tables the index is read from: ``(R, path relative to the repository)``.
ATLAS = ((2, "derivations/results/d04_identifiability.txt"),
         (3, "derivations/results/d09_identifiability_many_labels.txt"))

_ROOT = Path(__file__).resolve().parents[2]


def _quiet(message: str) -> None:
    return None


def _emit(outputs: Sequence[tuple[str, sympy.Expr]], bound: set[str], prefix: str,
          integers: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Lines binding each output (shared subexpressions named ``prefix0, prefix1, ...``).

    An output that is a polynomial of degree >= 2 in ``prev_a`` whose other names are all in
    ``integers`` (the counts' moments) is printed in Horner form: its coefficients first (integer
    arithmetic, shared with the others), then one multiplication per degree in the number type of
    the prevalence.
    """
    prevalence = sympy.Symbol("prev_a")
    batch: list[tuple[str, sympy.Expr]] = []
    horner: list[tuple[str, int]] = []
    for name, expr in outputs:
        require_polynomial(name, expr, bound)
        others = {str(x) for x in expr.free_symbols} - {"prev_a"}
        degree = sympy.degree(expr, prevalence) if prevalence in expr.free_symbols else 0
        if degree >= 2 and others <= integers:
            coefficients = sympy.Poly(expr, prevalence).all_coeffs()[::-1]
            batch += [(f"{name}_c{k}", sympy.expand(c)) for k, c in enumerate(coefficients)]
            horner.append((name, degree))
        else:
            batch.append((name, expr))
    fresh = sympy.numbered_symbols(prefix)
    replacements, reduced = sympy.cse([e for _, e in batch], symbols=fresh, order="canonical")
    lines = [f"    {sym} = {expression_text(expr)}" for sym, expr in replacements]
    lines += [f"    {name} = {expression_text(expr)}" for (name, _), expr in zip(batch, reduced)]
    for name, degree in horner:
        text = f"{name}_c{degree}"
        for k in range(degree - 1, -1, -1):
            text = f"({text})*prev_a + {name}_c{k}"
        lines.append(f"    {name} = {text}")
    bound.update(name for name, _ in outputs)
    return lines


_HELPERS = '''class _Blind(Exception):
    """A denominator of the back-substitution vanished (a blind spot)."""


def _div(num, den):
    r\'\'\'num / den, exact on int (as a Fraction), Fraction, fmpq and number-field elements;
    IEEE division on NumPy arrays; _Blind on an exact zero denominator.\'\'\'
    if getattr(den, "shape", None) is not None:
        return num / den
    if den == 0:
        raise _Blind
    if isinstance(num, int) and isinstance(den, int):
        return Fraction(num, den)
    return num / den'''


def structure_source(form: StructureForm) -> str:
    r"""The text of one generated module (header, constants, functions)."""
    moment_names = [name for name, _ in form.prelude]
    moment_symbols = [sympy.Symbol(n) for n in moment_names]
    doc = (
        f"Exact evaluator of {form.n_classifiers} binary classifiers whose errors may correlate on "
        f"{', '.join(''.join(map(str, s)) for s in form.structure)}.\n\n"
        f"``eliminant(counts)``: coefficients (low -> high) of a degree-{form.degree} polynomial in prev_a whose\n"
        "roots are the prevalences of every evaluation point explaining the counts (integer polynomials\n"
        "in the counts, division-free). ``back_substitute(counts, prevalence)``: every other unknown at\n"
        "one root (+ - * / only: exact on Fraction, fmpq and number-field elements, elementwise on NumPy\n"
        "floats; None where a denominator vanishes). ``residuals(counts, values)``: the model's\n"
        "generators scaled to counts at a point, all zero when it explains the counts.\n\n"
        f"Derivation: Youden coordinates, parameter {form.parameter}, {form.method} "
        "(evalgebra.codegen.structures; table in derivation d10).\n\n"
        "References: \"Streaming algorithms for evaluating noisy judges on unlabeled data - binary\n"
        "classification\" (A. Corrada-Emmanuel), Theorems 1 and 3."
    )
    constants = [
        "from fractions import Fraction",
        "",
        f"N_CLASSIFIERS = {form.n_classifiers}",
        "N_LABELS = 2",
        f"STRUCTURE = {form.structure!r}",
        f"DEGREE = {form.degree}",
        f"UNKNOWNS = {form.unknowns!r}",
        f"PARAMETER = {form.parameter!r}",
        f"METHOD = {form.method!r}",
        f"MOMENTS = {tuple(moment_names)!r}",
    ]
    moments = python_function("moments", list(form.counts), [(n, sympy.Symbol(n)) for n in moment_names],
                              "Q, every B_T and every E_T (MOMENTS order) from the pattern counts.",
                              list(form.prelude))
    coefficients = python_function("eliminant_coefficients", moment_symbols,
                                   [(f"e_{k}", c) for k, c in enumerate(form.eliminant)],
                                   "Coefficients e_0 .. e_DEGREE of the eliminant in prev_a, from the MOMENTS.")
    eliminant = (
        "def eliminant(counts):\n"
        "    r'''Coefficients (low -> high) of the eliminant in prev_a; counts in pattern order.'''\n"
        "    return list(eliminant_coefficients(*moments(*counts)))"
    )
    bound = set(moment_names) | {"prev_a"}
    body = [f"    ({', '.join(moment_names)},) = values", ""]
    for k, step in enumerate(form.steps):
        body.append(f"    # step {k}: {', '.join(step.unknowns)}")
        pairs = []
        for name, num, den in zip(step.unknowns, step.numerators, step.denominators):
            pairs += [(f"{name}_num", num), (f"{name}_den", den)]
        body += _emit(pairs, bound, f"s{k}_", set(moment_names))
        body += [f"    {name} = _div({name}_num, {name}_den)" for name in step.unknowns]
        bound.update(step.unknowns)
    body.append("    # the registry's unknowns")
    pairs = []
    for name, num, den in form.outputs:
        pairs += [(f"{name}_num", num), (f"{name}_den", den)]
    body += _emit(pairs, bound, "o_", set(moment_names))
    body += [f"    {name} = _div({name}_num, {name}_den)" for name, _, _ in form.outputs]
    result = ", ".join(f"{name!r}: {name}" for name, _, _ in form.outputs)
    body.append(f"    return {{{result}}}")
    solve = "\n".join([
        "def _solve(values, prev_a):",
        "    r'''Every unknown but the prevalence, from the MOMENTS and one root prev_a.'''",
        *body,
    ])
    back = (
        "def back_substitute(counts, prevalence):\n"
        "    r'''Every unknown but the prevalence (dict by registry name) at one root of the eliminant;\n"
        "    None where a denominator vanishes (a blind spot).'''\n"
        "    try:\n"
        "        return _solve(moments(*counts), prevalence)\n"
        "    except _Blind:\n"
        "        return None"
    )
    names = list(form.unknowns)
    residual_outputs = [(f"r_{k}", r) for k, r in enumerate(form.residuals)]
    residuals = python_function(
        "_residuals", moment_symbols + [sympy.Symbol(n) for n in names], residual_outputs,
        "The model's generators in moment coordinates, scaled by Q^|T| (singles first).")
    residuals_wrapper = (
        "def residuals(counts, values):\n"
        "    r'''The model's generators at a point (values: every UNKNOWNS name): all zero exactly\n"
        "    when the point explains the counts.'''\n"
        "    return list(_residuals(*moments(*counts), *(values[name] for name in UNKNOWNS)))"
    )
    functions = [_HELPERS, moments, coefficients, eliminant, back, solve, residuals_wrapper, residuals]
    header = ("# Generated by evalgebra.codegen from evalgebra/codegen/structures.py (derivation d10). "
              "DO NOT EDIT. Regenerate: python -m evalgebra.codegen --write\n")
    text = "\n".join([header + f'r"""{doc}"""', "", *constants, "", "", "\n\n\n".join(functions)])
    return text.rstrip() + "\n"


_ROW = re.compile(r"^(\d+)\s{2,}(.+?)\s{2,}(\S.*?)\s{2,}(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)")


def atlas_index(generated: Sequence[tuple[int, Any]] = STRUCTURES, root: Path = _ROOT) -> list[dict[str, Any]]:
    r"""Every structure of the committed atlas tables as a JSON-ready row.

    Keys: ``n_classifiers``, ``n_labels``, ``structure`` (list of index lists), ``dimension``
    (generic dimension of the projection to the basic statistics), ``points`` (distinct complex
    points of a finite projection, or None when not counted), ``finite`` and ``module`` (the
    generated module's name, or None).
    """
    made = {(n, tuple(s), 2) for n, s in generated}
    rows = []
    for n_labels, relative in ATLAS:
        path = root / relative
        if not path.exists():
            raise CodegenError(f"the atlas table {relative} is missing: run its derivation first")
        for line in path.read_text(encoding="utf-8").splitlines():
            match = _ROW.match(line)
            if not match:
                continue
            n = int(match.group(1))
            structure = tuple(structure_from_text(match.group(2).strip()))
            dimension, points = int(match.group(8)), match.group(11)
            rows.append({
                "n_classifiers": n, "n_labels": n_labels, "structure": [list(s) for s in structure],
                "dimension": dimension, "finite": dimension == 0,
                "points": int(points) if points.isdigit() else None,
                "module": module_name(n, structure, n_labels) if (n, structure, n_labels) in made else None,
            })
    return rows


@functools.lru_cache(maxsize=None)
def _derived(n: int, structure: tuple[tuple[int, ...], ...]) -> tuple[str, str, str]:
    """``(module, derivation, text)`` of one committed structure, derived once per process."""
    form = derive_structure(n, structure)
    return form.module, f"structures ({form.method}, parameter {form.parameter})", structure_source(form)


def structure_files(progress: Progress = _quiet) -> dict[str, tuple[str, str]]:
    """``{relative path: (derivation, text)}`` of every file of ``generated/structures/``
    (each structure derived once per process)."""
    files: dict[str, tuple[str, str]] = {}
    for n, structure in STRUCTURES:
        progress(f"structure {module_name(n, structure)}")
        module, derivation, text = _derived(n, structure)
        files[f"structures/{module}.py"] = (derivation, text)
    files["structures/__init__.py"] = (
        "evalgebra.codegen.structure_modules",
        "# Generated by evalgebra.codegen from evalgebra/codegen/structure_modules.py. DO NOT EDIT. "
        "Regenerate: python -m evalgebra.codegen --write\n"
        'r"""Generated evaluators of correlated structures, one module per structure; INDEX.json lists the atlas."""\n')
    index = {"format": "evalgebra.structures/1", "structures": atlas_index()}
    files["structures/INDEX.json"] = ("derivations d04 and d09 (atlas tables)",
                                      json.dumps(index, indent=1, sort_keys=True) + "\n")
    return files
