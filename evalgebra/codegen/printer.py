r"""Print SymPy expressions as straight-line, division-free Python that stays exact.

Generated evaluators take integers (pattern counts) and return integers (numerators,
denominators, radicands), so one function runs unchanged on ``int`` (exact), on
:class:`fractions.Fraction` or python-flint ``fmpq`` (exact), on ``float`` and on NumPy
arrays of many sketches at once (vectorised). The printer enforces the two rules that make
this true: every constant is an integer, and nothing is divided. Common subexpressions are
shared (``sympy.cse`` with numbered names ``t0, t1, ...``) and the text is deterministic:
the same expressions give the same bytes under any ``PYTHONHASHSEED``.

Examples
--------
>>> import sympy
>>> x, y = sympy.symbols("x y")
>>> print(python_function("f", [x, y], [("s", (x + y) ** 2 * x), ("c", (x + y) ** 3)], "Two powers."))
def f(x, y):
    r'''Two powers.'''
    t0 = x + y
    s = t0**2*x
    c = t0**3
    return (s, c)
>>> python_function("g", [x], [("h", x / 2)], "")
Traceback (most recent call last):
...
evalgebra.codegen.printer.CodegenError: h: 1/2 is not an integer: generated code must be division-free
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import sympy
from sympy.printing.pycode import pycode

from evalgebra.errors import EvalgebraError

__all__ = ["CodegenError", "Progress", "python_function", "expression_text", "require_polynomial"]

#: A derivation's progress callback: ``progress(message)`` (the code generator's; a no-op when quiet).
Progress = Callable[[str], None]


class CodegenError(EvalgebraError):
    """An expression the exact printer cannot emit (a division or a non-integer constant)."""


def require_polynomial(name: str, expr: sympy.Expr, names: Collection[str] | None = None) -> None:
    """Raise :class:`CodegenError` unless ``expr`` is an integer-coefficient polynomial expression.

    Only integers, symbols, sums, products and positive integer powers pass: constants with no
    Python name (``pi``, ``E``, ``I``, ``oo``, ``zoo``, ``nan``), relationals, booleans, function
    calls, divisions and roots are refused. With ``names``, every free symbol must be one of them
    (a name the generated code has bound when the expression runs).
    """
    if not isinstance(expr, sympy.Expr):
        raise CodegenError(f"{name}: {expr} is not an arithmetic expression (a relational or a boolean)")
    for atom in sympy.preorder_traversal(expr):
        if isinstance(atom, (sympy.Integer, sympy.Symbol, sympy.Add, sympy.Mul)):
            continue
        if isinstance(atom, sympy.Rational):
            raise CodegenError(f"{name}: {atom} is not an integer: generated code must be division-free")
        if isinstance(atom, sympy.Pow):
            if not (atom.exp.is_Integer and atom.exp > 0):
                raise CodegenError(
                    f"{name}: {atom} is a division or a root: generated code must be division-free"
                )
            continue
        if isinstance(atom, sympy.Function):
            raise CodegenError(f"{name}: {atom} is a function call: generated code is arithmetic only")
        if isinstance(atom, (sympy.Number, sympy.NumberSymbol)) or atom in (sympy.I, sympy.zoo):
            raise CodegenError(f"{name}: {atom} is not an integer: generated code has integer constants only")
        raise CodegenError(
            f"{name}: {atom} ({type(atom).__name__}) is not integer arithmetic: "
            "generated code has integers, names, +, * and ** only"
        )
    if names is not None:
        unbound = sorted(str(s) for s in expr.free_symbols if str(s) not in names)
        if unbound:
            raise CodegenError(
                f"{name}: {', '.join(unbound)} is neither an argument nor a name bound before it"
            )


def expression_text(expr: sympy.Expr) -> str:
    """Python text of one division-free expression."""
    return str(pycode(expr, fully_qualified_modules=False))


def python_function(
    name: str,
    arguments: Sequence[sympy.Symbol],
    outputs: Sequence[tuple[str, sympy.Expr]],
    docstring: str,
    prelude: Sequence[tuple[str, sympy.Expr]] = (),
) -> str:
    r"""The source of ``def name(arguments): ... return (outputs...)``.

    Parameters
    ----------
    name : str
        Function name.
    arguments : sequence of Symbol
        In the order they are passed (the registry's order).
    outputs : sequence of (str, Expr)
        Returned in this order, each bound to its name first.
    docstring : str
        The function's docstring (no triple quotes inside).
    prelude : sequence of (str, Expr)
        Named intermediate values computed first (``Q = n_aaa + ...``); later expressions
        may use their names as symbols.
    """
    names = [str(a) for a in arguments]
    lines = [f"def {name}({', '.join(names)}):", f"    r'''{docstring}'''"]
    bound = set(names)
    for var, expr in prelude:
        require_polynomial(var, expr, bound)
        lines.append(f"    {var} = {expression_text(expr)}")
        bound.add(var)
    for var, expr in outputs:  # an output may use the arguments, the prelude and earlier outputs
        require_polynomial(var, expr, bound)
        bound.add(var)
    taken = set(names) | {var for var, _ in prelude} | {var for var, _ in outputs}
    fresh = (s for s in sympy.numbered_symbols("t") if str(s) not in taken)
    replacements, reduced = sympy.cse([e for _, e in outputs], symbols=fresh, order="canonical")
    pending = [(str(sym), expr) for sym, expr in replacements]
    pending += [
        (var, expr) for (var, _), expr in zip(outputs, reduced) if str(expr) != var
    ]  # an output already bound by the prelude needs no line
    # in this order, except that a line waits for the outputs (and shared terms) it uses
    later = {var for var, _ in pending}
    while pending:
        k = next(k for k, (_, expr) in enumerate(pending) if not {str(s) for s in expr.free_symbols} & later)
        var, expr = pending.pop(k)
        lines.append(f"    {var} = {expression_text(expr)}")
        later.discard(var)
    lines.append(f"    return ({', '.join(var for var, _ in outputs)}{',' if len(outputs) == 1 else ''})")
    return "\n".join(lines)
