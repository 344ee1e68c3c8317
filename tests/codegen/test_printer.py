"""The exact printer refuses what generated code cannot run exactly, and binds names in order."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from evalgebra.codegen.printer import CodegenError, python_function, require_polynomial

x, y, z, a, b = sympy.symbols("x y z a b")


def run(source: str, name: str, *args: object) -> tuple[object, ...]:
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - the printer's own output
    return namespace[name](*args)  # type: ignore[operator, no-any-return]


@pytest.mark.parametrize(
    "bad",
    [
        sympy.pi,
        sympy.E,
        sympy.zoo,
        sympy.nan,
        sympy.oo,
        -sympy.oo,
        sympy.I,
        sympy.EulerGamma,
        x + sympy.pi,
        x * sympy.I,
        x**2 + sympy.E * y,
        x + sympy.oo * y,
        sympy.I * x * y,
    ],
)
def test_constants_without_a_python_name_are_refused(bad: sympy.Expr) -> None:
    with pytest.raises(CodegenError, match="^out: "):
        require_polynomial("out", bad)
    with pytest.raises(CodegenError, match="^out: "):
        python_function("f", [x, y], [("ok", x + y), ("out", bad)], "")


@pytest.mark.parametrize(
    "bad",
    [
        sympy.Eq(x, y),
        sympy.Lt(x, y),
        x < y,
        sympy.Ne(x, 1),
        sympy.true,
        sympy.false,
        sympy.And(x > 0, y > 0),
        sympy.Piecewise((x, x > 0), (y, True)),
        sympy.sqrt(x),
        x / y,
        x / 2,
        sympy.Abs(x),
        sympy.Rational(1, 3) * x,
        sympy.Float(2.0) * x,
        x**-1,
    ],
)
def test_non_arithmetic_is_refused(bad: sympy.Basic) -> None:
    with pytest.raises(CodegenError, match="^out: "):
        require_polynomial("out", bad)  # type: ignore[arg-type]
    with pytest.raises(CodegenError, match="^out: "):
        python_function("f", [x, y], [("out", bad)], "")  # type: ignore[list-item]


def test_unbound_names_are_refused() -> None:
    with pytest.raises(CodegenError, match="^out: z is neither an argument"):
        python_function("f", [x, y], [("out", x + z)], "")
    with pytest.raises(CodegenError, match="^Q: z is neither"):
        python_function("f", [x, y], [("out", x)], "", prelude=[("Q", x * z)])
    with pytest.raises(CodegenError, match="^out: b is neither"):  # a later output is not bound yet
        python_function("f", [x, y], [("out", x + b), ("b", y)], "")
    with pytest.raises(CodegenError, match="^P: out is neither"):  # nor is an output in the prelude
        python_function("f", [x], [("out", x)], "", prelude=[("P", sympy.Symbol("out"))])
    with pytest.raises(CodegenError, match="^out: out is neither"):
        python_function("f", [x], [("out", sympy.Symbol("out") + x)], "")
    require_polynomial("out", x + z)  # without names, only the arithmetic is checked
    with pytest.raises(CodegenError, match="^out: z is neither"):
        require_polynomial("out", x + z, {"x"})


def test_prelude_and_earlier_outputs_are_bound() -> None:
    Q = sympy.Symbol("Q")
    source = python_function(
        "f",
        [x, y],
        [("a", Q * x), ("b", (a + x) ** 2 * Q), ("c", (a + x) ** 3), ("Q", Q)],
        "Uses earlier names.",
        prelude=[("Q", x + y)],
    )
    assert run(source, "f", 2, 3) == (10, 720, 1728, 5)
    assert run(source, "f", Fraction(1, 2), 3) == (
        Fraction(7, 4),
        Fraction(7, 2) * Fraction(9, 4) ** 2,
        Fraction(9, 4) ** 3,
        Fraction(7, 2),
    )


def test_shared_terms_wait_for_the_outputs_they_use() -> None:
    """A common subexpression over an output name is computed after that output."""
    source = python_function(
        "g",
        [x, y],
        [("a", (x + y) ** 2), ("b", (a + x) * y + (a + x) ** 2), ("c", (a + x) ** 3 * (x + y))],
        "",
    )
    lines = [line.strip() for line in source.splitlines()]
    first_a = next(i for i, line in enumerate(lines) if line.startswith("a = "))
    for i, line in enumerate(lines):
        if "a + x" in line or "a +" in line:
            assert i > first_a, source
    for xv, yv in ((1, 2), (3, -5), (0, 0)):
        av = (xv + yv) ** 2
        assert run(source, "g", xv, yv) == (av, (av + xv) * yv + (av + xv) ** 2, (av + xv) ** 3 * (xv + yv))


def test_integer_arithmetic_still_passes() -> None:
    require_polynomial("out", 3 * x**2 * y - 7 * z + 1, {"x", "y", "z"})
    require_polynomial("out", sympy.Integer(-4))
    assert run(python_function("h", [x], [("s", -(x**3) + 2)], ""), "h", 3) == (-25,)
