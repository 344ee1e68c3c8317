r"""Emit the generated evaluators of correlated structures and their index.

:func:`structure_source` prints a :class:`~evalgebra.codegen.structures.StructureForm` as a
module of ``evalgebra/generated/structures/`` (the contract is in the docstring of
:mod:`evalgebra.codegen.structures`); :func:`structure_files` returns every committed module
of :data:`GENERATED_STRUCTURES`, ``common.py`` (what they share: the moments of the counts for
:data:`COMMON_SIZES`, and the hand-written helpers of ``evalgebra.generated.runtime`` it passes on;
:func:`common_source`) and
``INDEX.json``, the identifiability atlas read from the committed results of derivations d04
(two labels) and d09 (three labels). A module's back-substitution is split into ``prepare``
(once per sketch: every coefficient that depends on the counts only, named ``k0, k1, ...``)
and ``solve`` (per root: Horner polynomials in the prevalence over those names). The eliminant's
coefficients, and ``prepare``'s, are printed as nested Horner schemes (``nested``); a coefficient
that is an integer combination of others is computed as that combination (``linear_relations``).

Examples
--------
>>> [module_name(n, s) for n, s in GENERATED_STRUCTURES][:3]
['n4_r2_01', 'n4_r2_01_02', 'n4_r2_01_02_03']
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sympy

from evalgebra.codegen.closed_forms import count_moments
from evalgebra.codegen.printer import CodegenError, Progress, python_function, require_polynomial
from evalgebra.codegen.structures import StructureForm, count_symbols, derive_structure, module_name
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import parse_structure

__all__ = [
    "GENERATED_STRUCTURES",
    "ATLAS",
    "COMMON_SIZES",
    "structure_source",
    "MODULE_PROTOCOL",
    "RUNTIME_NAMES",
    "common_source",
    "structure_files",
    "atlas_index",
]


#: The structures whose evaluators are committed: ``(N, structure)``, canonical forms.
GENERATED_STRUCTURES: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] = (
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
ATLAS = (
    (2, "derivations/results/d04_identifiability.txt"),
    (3, "derivations/results/d09_identifiability_many_labels.txt"),
)

_ROOT = Path(__file__).resolve().parents[2]


def _quiet(message: str) -> None:
    return None


# -- the back-substitution: per-sketch constants hoisted out of the per-root arithmetic -----------
class _Hoist:
    """Names ``k0, k1, ...`` for the coefficients (integer polynomials in the moments) that the
    per-root code multiplies by; equal coefficients (or negatives) share one name."""

    def __init__(self, moments: set[str]) -> None:
        self.moments = moments
        self.named: dict[sympy.Expr, str] = {}
        self.used: set[str] = set()

    def text(self, coefficient: sympy.Expr) -> str:
        """Python text of a coefficient: a literal, a moment's name, or a hoisted name (maybe negated)."""
        coefficient = sympy.expand(coefficient)
        if coefficient.is_Integer:
            return str(int(coefficient))
        for sign, expr in (("", coefficient), ("-", -coefficient)):
            if expr.is_Symbol and str(expr) in self.moments:
                self.used.add(str(expr))
                return sign + str(expr)
            if expr in self.named:
                return sign + self.named[expr]
        name = self.named[coefficient] = f"k{len(self.named)}"
        return name


def _signed_sum(parts: Sequence[str]) -> str:
    text = ""
    for part in parts:
        if not text:
            text = part
        elif part.startswith("-"):
            text += f" - {part[1:]}"
        else:
            text += f" + {part}"
    return text or "0"


def _horner(texts: Sequence[str]) -> str:
    """``c_d p^d + ... + c_0`` as ``((c_d*p + c_(d-1))*p + ...)`` (zero coefficients skipped)."""
    degree = len(texts) - 1
    text = texts[degree]
    for k in range(degree - 1, -1, -1):
        head = text if _simple(text) else f"({text})"
        text = "prev_a" if head == "1" else "-prev_a" if head == "-1" else f"{head}*prev_a"
        if texts[k] != "0":
            text = _signed_sum([text, texts[k]])
    return text


def _simple(text: str) -> bool:
    return re.fullmatch(r"-?[A-Za-z_][A-Za-z_0-9]*|-?\d+", text) is not None


def _per_root(expr: sympy.Expr, roots: Sequence[str], hoist: _Hoist, share: Callable[[str], str]) -> str:
    """Text of ``expr`` (polynomial in the moments and the per-root names ``roots``, ``prev_a`` last):
    one Horner polynomial in ``prev_a`` per monomial of the other per-root names."""
    expr = sympy.expand(expr)
    present = [sympy.Symbol(r) for r in roots if sympy.Symbol(r) in expr.free_symbols]
    if not present:
        return hoist.text(expr)
    prevalence = sympy.Symbol("prev_a")
    others = [s for s in present if s != prevalence]
    gens = others + [prevalence]
    groups: dict[tuple[int, ...], dict[int, sympy.Expr]] = {}
    for monomial, coefficient in sympy.Poly(expr, *gens).terms():
        groups.setdefault(monomial[:-1], {})[monomial[-1]] = coefficient
    parts = []
    for key in sorted(groups, reverse=True):
        by_degree = groups[key]
        texts = [hoist.text(by_degree.get(d, sympy.Integer(0))) for d in range(max(by_degree) + 1)]
        poly = _horner(texts)
        poly = share(poly) if not _simple(poly) else poly
        factors = [str(s) if e == 1 else f"{s}**{e}" for s, e in zip(others, key) if e]
        if not factors:
            parts.append(poly)
        elif poly in ("1", "-1"):
            parts.append(("-" if poly == "-1" else "") + "*".join(factors))
        else:
            sign, body = ("-", poly[1:]) if poly.startswith("-") and _simple(poly) else ("", poly)
            parts.append(sign + "*".join(factors) + "*" + (body if _simple(body) else f"({body})"))
    return _signed_sum(parts)


#: Classifier counts whose moments ``generated/structures/common.py`` holds (other N: in the module).
COMMON_SIZES = (3, 4, 5)


def _moments_function(n: int, name: str) -> str:
    spec = EnsembleSpec(n, 2)
    prelude, _ = count_moments(spec)
    names = [k for k, _ in prelude]
    return python_function(
        name,
        count_symbols(spec),
        [(k, sympy.Symbol(k)) for k in names],
        "Q, every B_T and every E_T (MOMENTS order) from the pattern counts.",
        list(prelude),
    )


#: The structure-module interface every generated module (and ``common.py``) is written for, as its own
#: ``PROTOCOL``: ``evalgebra.generated.runtime.PROTOCOL``, the number the loader accepts (a test checks
#: that they agree). Raise both when the interface changes: older modules are then refused or regenerated.
MODULE_PROTOCOL = 2

#: What ``generated/structures/common.py`` takes from the hand-written ``evalgebra.generated.runtime``
#: (typed and tested there) and passes on to the structure modules.
RUNTIME_NAMES = (
    "Blind",
    "div",
    "entry_points",
    "mirrored",
    "model_counts",
    "model_residuals",
    "moments_names",
    "substitute_all",
)


def common_source() -> str:
    r"""The text of ``generated/structures/common.py``: what every structure module shares."""
    doc = (
        "What the generated evaluators of correlated structures share: the counts' moments for\n"
        f"N = {', '.join(map(str, COMMON_SIZES))} (Q, every B_T and every E_T, integer polynomials in "
        "the pattern counts), the\n"
        "exact division of the back-substitution and the loop over the roots of an eliminant (written by\n"
        "hand, typed and tested in evalgebra.generated.runtime; re-exported here).\n\n"
        "Exact runs are fastest on python-flint ``fmpz`` counts (the per-sketch part in integers) with\n"
        "``fmpq`` or number-field prevalences.\n\n"
        "A module's ``prepare(moments)`` computes, once per sketch, every coefficient its per-root code\n"
        "multiplies by; ``solve(prepared, prev_a)`` is the arithmetic at one root."
    )
    parts = []
    constants = [f"PROTOCOL = {MODULE_PROTOCOL}"]
    for n in COMMON_SIZES:
        names = [k for k, _ in count_moments(EnsembleSpec(n, 2))[0]]
        constants.append(f"MOMENTS_{n} = {tuple(names)!r}")
        parts.append(_moments_function(n, f"moments_{n}"))
    header = (
        "# Generated by evalgebra.codegen from evalgebra/codegen/structure_modules.py. "
        "DO NOT EDIT. Regenerate: python -m evalgebra.codegen --write\n"
    )
    imports = [f"from evalgebra.generated.runtime import {', '.join(RUNTIME_NAMES)}  # noqa: F401"]
    text = "\n".join([header + f'r"""{doc}"""', "", *imports, "", *constants, "", "", "\n\n\n".join(parts)])
    return text.rstrip() + "\n"


def _back_substitution(form: StructureForm, moment_names: Sequence[str]) -> tuple[str, str]:
    """``prepare`` (per sketch: the hoisted coefficients) and ``solve`` (per root) of a form."""
    hoist = _Hoist(set(moment_names))
    seen: dict[str, int] = {}
    shared: dict[str, str] = {}

    def count(text: str) -> str:
        seen[text] = seen.get(text, 0) + 1
        return text

    def name(text: str) -> str:  # a polynomial in prev_a used twice or more is computed once per root
        if seen.get(text, 0) < 2:
            return text
        return shared.setdefault(text, f"h{len(shared)}")

    def lines(share: Callable[[str], str]) -> list[str]:
        roots, body = ["prev_a"], []
        blocks = [
            (f"step {k}: {', '.join(s.unknowns)}", s.unknowns, s.numerators, s.denominators)
            for k, s in enumerate(form.steps)
        ]
        blocks.append(("the registry's unknowns", *(tuple(x) for x in zip(*form.outputs))))  # type: ignore[arg-type]
        for comment, unknowns, numerators, denominators in blocks:
            body.append(f"    # {comment}")
            for unknown, num, den in zip(unknowns, numerators, denominators):
                bound = set(moment_names) | set(roots)
                require_polynomial(f"{unknown}_num", num, bound)
                require_polynomial(f"{unknown}_den", den, bound)
                num_text, den_text = _per_root(num, roots, hoist, share), _per_root(den, roots, hoist, share)
                body.append(
                    f"    {unknown} = {num_text}"
                    if den_text == "1"
                    else f"    {unknown} = div({num_text}, {den_text})"
                )
            roots.extend(unknowns)
        return body

    lines(count)
    body = lines(name)
    body[:0] = [f"    {h} = {text}" for text, h in shared.items()]
    result = ", ".join(f"{name!r}: {name}" for name, _, _ in form.outputs)
    body.append(f"    return {{{result}}}")
    passed = [n for n in moment_names if n in hoist.used]
    hoisted = sorted(hoist.named.items(), key=lambda kv: int(kv[1][1:]))
    prepare = python_function(
        "prepare",
        [sympy.Symbol(n) for n in moment_names],
        [(n, sympy.Symbol(n)) for n in passed] + [(name, nested(expr)) for expr, name in hoisted],
        "The per-sketch part of the back-substitution from the MOMENTS: the moments and the integer\n"
        "    coefficients (k0, k1, ...) the per-root arithmetic of solve multiplies by.",
    )
    solve = "\n".join(
        [
            "def solve(prepared, prev_a):",
            "    r'''Every unknown but the prevalence at one root prev_a of the eliminant "
            "(prepared: prepare's\n"
            "    tuple); Blind where a denominator vanishes.'''",
            f"    ({', '.join([*passed, *(name for _, name in hoisted)])},) = prepared",
            *body,
        ]
    )
    return prepare, solve


def nested(expr: sympy.Expr) -> sympy.Expr:
    r"""A polynomial as nested Horner schemes: the variable in the most terms is collected first,
    recursively, ``x (A) + B`` (``A`` and ``B`` nested in turn; ties to the first variable by name).

    Fewer multiplications and far fewer temporaries than the expanded sum after common
    subexpressions (the eliminant of the path on four classifiers: about half the time per
    sketch); the value is the same polynomial.

    >>> a, b, c = sympy.symbols("a b c")
    >>> nested(a**2*b + a*b*c + 3*a + c)
    a*(b*(a + c) + 3) + c
    """
    expr = sympy.expand(expr)
    gens = sorted(expr.free_symbols, key=str)
    if not gens:
        return expr
    return _nested(sympy.Poly(expr, *gens).as_dict(), gens)


def _nested(terms: dict[tuple[int, ...], Any], gens: Sequence[sympy.Symbol]) -> sympy.Expr:
    if len(terms) <= 1:
        return sympy.Add(*(c * sympy.Mul(*(g**e for g, e in zip(gens, m))) for m, c in terms.items()))
    uses = [sum(1 for m in terms if m[i]) for i in range(len(gens))]
    i = max(range(len(gens)), key=lambda k: (uses[k], -k))
    inner = _nested({m[:i] + (m[i] - 1,) + m[i + 1 :]: c for m, c in terms.items() if m[i]}, gens)
    head = gens[i] if inner == 1 else -gens[i] if inner == -1 else sympy.Mul(gens[i], inner, evaluate=False)
    rest = {m: c for m, c in terms.items() if not m[i]}
    return sympy.Add(head, _nested(rest, gens), evaluate=False) if rest else head


#: Largest number of candidate sets of kept coefficients tried by :func:`linear_relations`.
_MAX_BASES = 2000


def linear_relations(coefficients: Sequence[sympy.Expr]) -> dict[int, dict[int, int]]:
    r"""Coefficients written as integer combinations of the others: ``{k: {j: c_j}}``, ``e_k = sum c_j e_j``.

    The nonzero coefficients span a space of some rank ``r``; of the sets of ``r`` independent
    coefficients through which every other one is an *integer* combination, the one with the
    fewest terms in all is kept (ties: the first in index order; past ``_MAX_BASES`` candidate
    sets, greedily by increasing number of terms). An eliminant invariant under the label swap,
    ``f(1 - p) = f(p)``, is a polynomial in ``p (1 - p)``: of its ``d + 1`` coefficients only
    ``d / 2 + 1`` are independent (the path on four classifiers: ``e_3 = -2 e_1 - 2 e_2``,
    ``e_4 = e_1 + e_2``), so about half of them cost a few operations instead of a polynomial of
    a hundred terms. Zero coefficients are ``{}``.

    >>> a, b = sympy.symbols("a b")
    >>> linear_relations([a**2 + b, 2*a**2 + 2*b, a*b, a*b - a**2 - b, sympy.Integer(0)])
    {1: {0: 2}, 3: {0: -1, 2: 1}, 4: {}}
    """
    gens = sorted({s for c in coefficients for s in c.free_symbols}, key=str)
    vectors = [
        {m: v for m, v in (sympy.Poly(c, *gens).as_dict() if gens else {(): c}).items() if v}
        for c in coefficients
    ]
    relations: dict[int, dict[int, int]] = {k: {} for k, v in enumerate(vectors) if not v}
    live = [k for k, v in enumerate(vectors) if v]
    if not live:
        return relations
    monomials = sorted(set().union(*(vectors[k] for k in live)))
    full = sympy.Matrix([[vectors[k].get(m, 0) for k in live] for m in monomials])
    _, rows = (
        full.T.rref()
    )  # independent monomial rows: the relations among the columns are those of these rows
    reduced = full.extract(list(rows), list(range(len(live))))
    rank = len(rows)

    def combinations_through(kept: Sequence[int]) -> dict[int, dict[int, int]] | None:
        columns = [live.index(k) for k in kept]
        square = reduced.extract(list(range(rank)), columns)
        if square.det() == 0:
            return None
        inverse = square.inv()
        out = {}
        for position, k in enumerate(live):
            if k in kept:
                continue
            solution = inverse * reduced[:, position]
            if not all(x.is_Integer for x in solution):
                return None
            out[k] = {j: int(x) for j, x in sorted(zip(kept, solution)) if x}
        return out

    candidates = list(itertools.combinations(live, rank))
    if len(candidates) <= _MAX_BASES:
        candidates.sort(key=lambda kept: (sum(len(vectors[k]) for k in kept), kept))
    else:
        candidates = [tuple(sorted(live, key=lambda k: (len(vectors[k]), k))[:rank])]
    for kept in candidates:
        found = combinations_through(kept)
        if found is not None:
            relations.update(found)
            break
    return {k: relations[k] for k in sorted(relations)}


def _eliminant_function(eliminant: Sequence[sympy.Expr], moment_symbols: Sequence[sympy.Symbol]) -> str:
    """``eliminant_coefficients``: the independent coefficients through one common-subexpression pass, the
    others as their integer combinations (:func:`linear_relations`)."""
    relations = linear_relations(eliminant)
    names = [sympy.Symbol(f"e_{k}") for k in range(len(eliminant))]
    outputs = [(str(names[k]), nested(c)) for k, c in enumerate(eliminant) if k not in relations]
    outputs += [
        (str(names[k]), sympy.Add(*(c * names[j] for j, c in sorted(combination.items()))))
        for k, combination in relations.items()
    ]
    text = python_function(
        "eliminant_coefficients",
        moment_symbols,
        outputs,
        "Coefficients e_0 .. e_DEGREE of the eliminant in prev_a, from the MOMENTS.",
    )
    head, last = text.rsplit("\n", 1)
    if not last.startswith("    return ("):
        raise CodegenError("eliminant_coefficients: unexpected printer output")
    return head + "\n    return (" + ", ".join(map(str, names)) + ("," if len(names) == 1 else "") + ")"


def structure_source(form: StructureForm) -> str:
    r"""The text of one generated module (header, constants, functions)."""
    moment_names = [name for name, _ in form.prelude]
    moment_symbols = [sympy.Symbol(n) for n in moment_names]
    doc = (
        f"Exact evaluator of {form.n_classifiers} binary classifiers whose errors may correlate on "
        f"{', '.join(''.join(map(str, s)) for s in form.structure)}.\n\n"
        f"Structure-specific parts only: ``eliminant_coefficients`` (degree {form.degree} in prev_a, "
        "from the\n"
        "MOMENTS), ``prepare`` (per sketch) and ``solve`` (per root) of the back-substitution; eliminant,\n"
        "back_substitute, back_substitute_all and residuals come from ``common.entry_points`` (the\n"
        "contract: evalgebra.codegen.structures).\n\n"
        f"Derivation: Youden coordinates, parameter {form.parameter}, {form.method} "
        "(evalgebra.codegen.structures; table in derivation d10).\n\n"
        'References: "Streaming algorithms for evaluating noisy judges on unlabeled data - binary\n'
        'classification" (A. Corrada-Emmanuel), Theorems 1 and 3.'
    )
    n = form.n_classifiers
    if n in COMMON_SIZES:
        imports = [
            f"from evalgebra.generated.structures.common import MOMENTS_{n} as MOMENTS",
            "from evalgebra.generated.structures.common import div, entry_points",
            f"from evalgebra.generated.structures.common import moments_{n} as moments",
        ]
        own_moments: list[str] = []
    else:
        imports = ["from evalgebra.generated.structures.common import div, entry_points"]
        own_moments = [_moments_function(n, "moments")]
    constants = [
        *imports,
        "",
        f"PROTOCOL = {MODULE_PROTOCOL}",
        f"N_CLASSIFIERS = {n}",
        "N_LABELS = 2",
        f"STRUCTURE = {form.structure!r}",
        f"DEGREE = {form.degree}",
        f"UNKNOWNS = {form.unknowns!r}",
        f"PARAMETER = {form.parameter!r}",
        f"METHOD = {form.method!r}",
        *([] if n in COMMON_SIZES else [f"MOMENTS = {tuple(moment_names)!r}"]),
    ]
    coefficients = _eliminant_function(form.eliminant, moment_symbols)
    prepare, solve = _back_substitution(form, moment_names)
    bind = (
        "eliminant, back_substitute, back_substitute_all, residuals = entry_points(\n"
        "    moments, eliminant_coefficients, prepare, solve, N_CLASSIFIERS, STRUCTURE)"
    )
    functions = [*own_moments, coefficients, prepare, solve, bind]
    header = (
        "# Generated by evalgebra.codegen from evalgebra/codegen/structures.py (derivation d10). "
        "DO NOT EDIT. Regenerate: python -m evalgebra.codegen --write\n"
    )
    text = "\n".join([header + f'r"""{doc}"""', "", *constants, "", "", "\n\n\n".join(functions)])
    return text.rstrip() + "\n"


_ROW = re.compile(
    r"^(\d+)\s{2,}(.+?)\s{2,}(\S.*?)\s{2,}(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)"
)


def atlas_index(
    generated: Sequence[tuple[int, Any]] = GENERATED_STRUCTURES, root: Path = _ROOT
) -> list[dict[str, Any]]:
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
            structure = parse_structure(match.group(2).strip(), n, code=True)
            dimension, points = int(match.group(8)), match.group(11)
            rows.append(
                {
                    "n_classifiers": n,
                    "n_labels": n_labels,
                    "structure": [list(s) for s in structure],
                    "dimension": dimension,
                    "finite": dimension == 0,
                    "points": int(points) if points.isdigit() else None,
                    "module": module_name(n, structure, n_labels)
                    if (n, structure, n_labels) in made
                    else None,
                }
            )
    return rows


@functools.cache
def _derived(n: int, structure: tuple[tuple[int, ...], ...]) -> tuple[str, str, str]:
    """``(module, derivation, text)`` of one committed structure, derived once per process."""
    form = derive_structure(n, structure)
    return form.module, f"structures ({form.method}, parameter {form.parameter})", structure_source(form)


def structure_files(progress: Progress = _quiet) -> dict[str, tuple[str, str]]:
    """``{relative path: (derivation, text)}`` of every file of ``generated/structures/``
    (each structure derived once per process)."""
    files: dict[str, tuple[str, str]] = {}
    for n, structure in GENERATED_STRUCTURES:
        progress(f"structure {module_name(n, structure)}")
        module, derivation, text = _derived(n, structure)
        files[f"structures/{module}.py"] = (derivation, text)
    files["structures/common.py"] = ("evalgebra.codegen.structure_modules (shared part)", common_source())
    files["structures/__init__.py"] = (
        "evalgebra.codegen.structure_modules",
        "# Generated by evalgebra.codegen from evalgebra/codegen/structure_modules.py. DO NOT EDIT. "
        "Regenerate: python -m evalgebra.codegen --write\n"
        'r"""Generated evaluators of correlated structures, one module per structure; '
        'INDEX.json lists the atlas."""\n',
    )
    index = {"format": "evalgebra.structures/1", "structures": atlas_index()}
    files["structures/INDEX.json"] = (
        "derivations d04 and d09 (atlas tables)",
        json.dumps(index, indent=1, sort_keys=True) + "\n",
    )
    return files
