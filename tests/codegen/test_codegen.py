"""Generated code: up to date, deterministic, and equal to the symbolic derivation."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.builder import GeneratingSet
from evalgebra.codegen import CodegenError, check, python_function
from evalgebra.codegen.__main__ import main as codegen_main
from evalgebra.codegen.closed_forms import three_independent
from evalgebra.codegen.modules import GENERATED, generate
from evalgebra.data.point import evaluation_point
from evalgebra.generated import containing_variety, independent_model
from evalgebra.generated import three_independent as generated
from evalgebra.groebner.coordinates import moments_of
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import labelled_tests, rational_points
from evalgebra.variables import VariableRegistry

SPEC3 = EnsembleSpec(3, 2)
counts8 = st.lists(st.integers(0, 400), min_size=8, max_size=8).filter(lambda c: sum(c) > 0)


@pytest.fixture(scope="module")
def form():
    return three_independent()


def test_codegen_committed_files_are_up_to_date():
    assert check() == []
    assert codegen_main(["--check", "--quiet"]) == 0


def test_codegen_check_reports_a_changed_file(tmp_path, capsys):
    for name, text in generate().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert codegen_main(["--check", "--quiet", "--dir", str(tmp_path)]) == 0
    (tmp_path / "three_independent.py").write_text("# edited by hand\n", encoding="utf-8")
    assert codegen_main(["--check", "--quiet", "--dir", str(tmp_path)]) == 1
    assert "three_independent.py" in capsys.readouterr().out


def test_codegen_output_independent_of_hash_seed(tmp_path):
    for seed in ("1", "4242"):
        target = tmp_path / seed
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [sys.executable, "-m", "evalgebra.codegen", "--write", "--quiet", "--dir", str(target)],
            check=True,
            env=env,
            capture_output=True,
        )
        written = {path.name for path in target.glob("*.py")}
        # runtime.py is written by hand (the helpers the generated modules import), never by the generator
        assert written == {path.name for path in GENERATED.glob("*.py")} - {"runtime.py"}
        for name in written:
            assert (target / name).read_bytes() == (GENERATED / name).read_bytes(), (seed, name)


def test_printer_rejects_division_and_roots():
    x = sympy.Symbol("x")
    with pytest.raises(CodegenError):
        python_function("f", [x], [("y", x / 3)], "")
    with pytest.raises(CodegenError):
        python_function("f", [x], [("y", sympy.sqrt(x))], "")


@given(counts8)
def test_generated_evaluator_equals_symbolic_derivation(form, counts):
    """(num + s root sqrt R)/den from the generated code = p + s q sqrt d from the moment forms."""
    q = sum(counts)
    registry = VariableRegistry(SPEC3)
    moments = {
        str(registry.symbol(k)): v for k, v in moments_of(SPEC3, [Fraction(c, q) for c in counts]).items()
    }
    subs = {sympy.Symbol(k): sympy.Rational(v.numerator, v.denominator) for k, v in moments.items()}
    out = generated.solve(*counts)
    radicand = out[0]
    for k, name in enumerate(generated.STATISTICS):
        num, root, den = out[1 + 3 * k : 4 + 3 * k]
        p, qq, d = (sympy.cancel(e).subs(subs) if e.free_symbols else e for e in form.moment_forms[name])
        if den == 0 or not all(x.is_finite for x in (p, qq, d)):
            continue
        assert sympy.Rational(num, den) == p
        # irrational parts: root^2 R / den^2 = q^2 d, and the same sign
        assert sympy.Rational(root * root * radicand, den * den) == qq * qq * d
        assert (root * den > 0) == (qq > 0) or qq == 0 or radicand == 0


@given(counts8)
def test_generated_evaluator_same_on_int_fraction_fmpq_float_numpy(counts):
    exact = generated.solve(*counts)
    as_fraction = generated.solve(*[Fraction(c) for c in counts])
    as_fmpq = generated.solve(*[flint.fmpq(c) for c in counts])
    as_float = generated.solve(*[float(c) for c in counts])
    as_array = generated.solve(*[np.array([c, c], dtype=np.float64) for c in counts])
    assert all(isinstance(x, int) for x in exact)
    assert list(as_fraction) == list(exact)
    assert [int(x) for x in as_fmpq] == list(exact)
    for e, f, a in zip(exact, as_float, as_array):
        assert f == pytest.approx(e, rel=1e-9, abs=1e-6)
        assert np.broadcast_to(a, (2,)) == pytest.approx(np.array([f, f]), rel=1e-12, abs=1e-6)


@given(rational_points(EnsembleSpec(3, 2), use_accuracy=True))
def test_generated_model_equals_generating_set(point):
    gs = GeneratingSet(SPEC3)
    values = point.free_values()
    registry = VariableRegistry(SPEC3)
    args = [values[registry.key_of(s)] for s in registry.variables(("prevalence", "accuracy"))]
    expected = point.expected_frequencies()
    model = independent_model.frequencies_3(*args)
    assert dict(zip(gs.pattern_tuples(), model)) == expected


@given(labelled_tests(EnsembleSpec(2, 2, "complete")))
def test_generated_containing_line_vanishes_at_true_points(test):
    sketch = test.sketch()
    point = evaluation_point(sketch)
    prevalence = point.prevalence_of()["a"]
    q = sketch.Q
    for i in range(2):
        m_b = Fraction(sum(c for pattern, c in sketch.counts().items() if pattern[i] == "b"), q)
        acc_a, acc_b = point.accuracy(i, "a"), point.accuracy(i, "b")
        if acc_a is None or acc_b is None:
            continue
        alpha, beta, gamma = containing_variety.line(prevalence, m_b)
        assert alpha * acc_a + beta * acc_b + gamma == 0
