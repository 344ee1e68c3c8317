"""The generated Hui-Walter closed form: equal to the symbolic derivation, to d06, to the paper.

The paper: "Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter Paradigm for
Performance Estimation in Online and Static Settings" (anonymous authors, under review at TMLR);
``docs/theory.md#hui-walter``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import assume, example, given
from hypothesis import strategies as st

from evalgebra.builder import GeneratingSet
from evalgebra.codegen.hui_walter import HUI_WALTER_SPEC, hui_walter
from evalgebra.generated import hui_walter as generated
from evalgebra.groebner.coordinates import moments_of
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.scripts import load_derivation
from evalgebra.testing.strategies import rational_points
from evalgebra.variables import VariableRegistry

ONE_POPULATION = EnsembleSpec(2, 2)

#: Eight cross-tab counts (population 0 then 1; cells aa, ab, ba, bb), no population empty.
cross_tabs = st.lists(st.integers(0, 300), min_size=8, max_size=8).filter(
    lambda c: sum(c[:4]) > 0 and sum(c[4:]) > 0
)


def _lift(value, d):
    return value if isinstance(value, QuadraticNumber) else QuadraticNumber(value, 0, d)


@pytest.fixture(scope="module")
def form():
    return hui_walter()


def _moment_values(counts):
    """Moment symbol of the two-population registry -> exact value, from the counts."""
    registry = VariableRegistry(HUI_WALTER_SPEC)
    out = {}
    for s in range(2):
        cells = counts[4 * s : 4 * s + 4]
        q = sum(cells)
        moments = moments_of(ONE_POPULATION, [Fraction(c, q) for c in cells])
        for key, value in moments.items():
            out[registry.symbol(dataclasses.replace(key, population=s))] = value
    return out


@given(cross_tabs)
def test_generated_hui_walter_equals_symbolic_derivation(form, counts):
    """(num + s root sqrt R)/den from the generated code = p + s q sqrt d from the moment forms."""
    subs = {sym: sympy.Rational(v.numerator, v.denominator) for sym, v in _moment_values(counts).items()}
    out = generated.evaluate(*counts)
    radicand = out[0]
    for k, name in enumerate(generated.STATISTICS):
        num, root, den = out[1 + 3 * k : 4 + 3 * k]
        p, q, d = (e.subs(subs) for e in form.moment_forms[name])
        if den == 0 or not all(x.is_finite for x in (p, q, d)):
            continue
        assert sympy.Rational(num, den) == p
        assert sympy.Rational(root * root * radicand, den * den) == q * q * d
        # the same sign convention: sqrt(R) is a positive multiple of sqrt(d)
        assert (root * den > 0) == (q > 0) or q == 0 or radicand == 0


@given(cross_tabs)
def test_generated_hui_walter_blind_spots_are_the_zero_denominators(counts):
    out = generated.evaluate(*counts)
    factors = out[1 + 3 * len(generated.STATISTICS) :]
    assert len(factors) == len(generated.BLIND_SPOTS)
    dens = out[3 : 1 + 3 * len(generated.STATISTICS) : 3]
    if all(f != 0 for f in factors):
        assert all(d != 0 for d in dens)
    else:
        assert any(d == 0 for d in dens)


@given(cross_tabs)
def test_generated_hui_walter_radicand_is_printed_discriminant(counts):
    """R = (Q_s0 Q_s1)^4 F^2 with F^2 as printed in eq 2 of the paper (cells a b / c d per population)."""
    (a1, b1, c1, d1), (a2, b2, c2, d2) = counts[:4], counts[4:]
    n1, n2 = a1 + b1 + c1 + d1, a2 + b2 + c2 + d2
    g1, g2, e1, e2 = (
        Fraction(a1 + b1, n1),
        Fraction(a2 + b2, n2),
        Fraction(a1 + c1, n1),
        Fraction(a2 + c2, n2),
    )
    aa1, aa2 = Fraction(a1, n1), Fraction(a2, n2)
    f_squared = (g1 * e2 - g2 * e1 + aa1 - aa2) ** 2 - 4 * (g1 - g2) * (aa1 * e2 - aa2 * e1)
    assert generated.evaluate(*counts)[0] == f_squared * (n1 * n2) ** 4


@given(cross_tabs)
def test_generated_hui_walter_equals_d06_corrected_estimators(counts):
    """Both generated points = d06's corrected eq 3 with F = +sqrt(F^2) and F = -sqrt(F^2)."""
    n1, n2 = sum(counts[:4]), sum(counts[4:])
    one, two = (
        _D06.cross_tab([Fraction(c, n) for c in counts[4 * s : 4 * s + 4]]) for s, n in ((0, n1), (1, n2))
    )
    f_squared = _D06.discriminant_squared(one, two)
    assume(f_squared != 0 and one["e"] != two["e"] and one["g"] != two["g"])
    out = generated.evaluate(*counts)
    assert out[0] == f_squared * (n1 * n2) ** 4  # so sqrt(R) = (n1 n2)^2 sqrt(F^2)
    ours = set()
    for sign in generated.SIGNS:
        point = []
        for k in range(len(generated.STATISTICS)):
            num, root, den = out[1 + 3 * k : 4 + 3 * k]
            point.append(
                QuadraticNumber(Fraction(num, den), Fraction(sign * root * (n1 * n2) ** 2, den), f_squared)
            )
        ours.add(tuple(point))
    theirs = set()
    for sign in (1, -1):
        forms = _D06.estimators(one, two, QuadraticNumber(0, sign, f_squared), printed=False)
        v = {k: _lift(n, f_squared) / d for k, (n, d) in forms.items()}
        theirs.add(
            (v["theta1"], v["theta2"], 1 - v["beta1"], 1 - v["alpha1"], 1 - v["beta2"], 1 - v["alpha2"])
        )
    assert ours == theirs


@given(rational_points(HUI_WALTER_SPEC, use_accuracy=True))
def test_generated_hui_walter_model_equals_generating_set(point):
    gs = GeneratingSet(HUI_WALTER_SPEC)
    registry = VariableRegistry(HUI_WALTER_SPEC)
    values = point.free_values()
    args = [values[registry.key_of(s)] for s in registry.variables(("prevalence", "accuracy"))]
    model = dict(zip(generated.PATTERNS, generated.model(*args)))
    for s, pop in enumerate(HUI_WALTER_SPEC.populations):
        expected = point.expected_frequencies(pop)
        for pattern, value in expected.items():
            assert model[f"f_s{s}_{''.join(pattern)}"] == value
    assert len(model) == len(gs.polynomials())


class _Rounding:
    r"""A value of a division-free straight-line program with the error bound of its float evaluation.

    ``value`` is the exact result (integers in, integers out) and ``error`` a bound on
    ``|computed - value|`` when the same program runs in IEEE double precision (numbers
    represented exactly: integers below 2^53): an operation on exact operands whose result is
    a double is exact; otherwise, with ``u = 2^-53``, each sum or product rounds once, so
    ``e(a + b) = (1 + u)(e_a + e_b) + u |a + b|`` and
    ``e(a b) = (1 + u)(|a| e_b + |b| e_a + e_a e_b) + u |a b|``; ``x**k`` (libm's ``pow``,
    within one unit in the last place) gets ``(1 + 2u)((|x| + e_x)^k - |x|^k) + 2u |x|^k``.
    The bounds are computed exactly (Fractions) from the exact intermediate values, so they
    hold for any correctly rounded evaluation of the program, Python floats and NumPy arrays
    alike (running error analysis, N. J. Higham, "Accuracy and Stability of Numerical
    Algorithms", SIAM 2002, chapter 3). ``error / |value|`` is large where the terms of a sum
    cancel.
    """

    __slots__ = ("value", "error")
    UNIT = Fraction(1, 2**53)

    def __init__(self, value: int, error: Fraction = Fraction(0)) -> None:
        self.value, self.error = value, error

    @staticmethod
    def _of(x):
        return x if isinstance(x, _Rounding) else _Rounding(int(x))

    @staticmethod
    def _exact(value: int, *operands) -> bool:
        """Exact operands and a result that is a double: nothing is rounded."""
        return all(x.error == 0 for x in operands) and abs(value) < 2**1000 and int(float(value)) == value

    def _sum(self, other, sign: int):
        other = self._of(other)
        value = self.value + sign * other.value
        if self._exact(value, self, other):
            return _Rounding(value)
        return _Rounding(value, (1 + self.UNIT) * (self.error + other.error) + self.UNIT * abs(value))

    def __add__(self, other):
        return self._sum(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._sum(other, -1)

    def __rsub__(self, other):
        return self._of(other)._sum(self, -1)

    def __mul__(self, other):
        other = self._of(other)
        value = self.value * other.value
        if self._exact(value, self, other):
            return _Rounding(value)
        spread = abs(self.value) * other.error + abs(other.value) * self.error + self.error * other.error
        return _Rounding(value, (1 + self.UNIT) * spread + self.UNIT * abs(value))

    __rmul__ = __mul__

    def __neg__(self):
        return _Rounding(-self.value, self.error)

    def __pow__(self, k: int):
        size = abs(self.value) ** k
        spread = (abs(self.value) + self.error) ** k - size
        return _Rounding(self.value**k, (1 + 2 * self.UNIT) * spread + 2 * self.UNIT * size)


def _float_error_bounds(counts):
    """For every output of ``generated.evaluate``: the bound on its float evaluation's error."""
    return [_Rounding._of(out).error for out in generated.evaluate(*[_Rounding(c) for c in counts])]


#: The two Hui-Walter points nearly coincide here (F^2 = R / (Q_s0 Q_s1)^4 is about 1.8e-9;
#: population 1's tests are exactly independent): the radicand's twenty terms, whose sizes
#: sum to ~1.3e21, cancel to R ~ 1.4e12, and float evaluation keeps ~9 digits of R (~8 of the
#: prevalences' denominators, 2R evaluated apart). A blanket relative tolerance of 1e-9 failed
#: on it; the sketch's own rounding bound (about 3e-7 relative here) holds.
NEAR_COINCIDENT = [92, 124, 0, 13, 165, 199, 165, 199]


@example(NEAR_COINCIDENT)
@given(cross_tabs)
def test_generated_hui_walter_same_on_int_fraction_fmpq_float_numpy(counts):
    """Exact on int, Fraction, fmpq; on floats and arrays within the rounding bound of this sketch."""
    exact = generated.evaluate(*counts)
    assert all(isinstance(x, int) for x in exact)
    assert list(generated.evaluate(*[Fraction(c) for c in counts])) == list(exact)
    assert [int(x) for x in generated.evaluate(*[flint.fmpq(c) for c in counts])] == list(exact)
    as_float = generated.evaluate(*[float(c) for c in counts])
    as_array = generated.evaluate(*[np.array([c, c], dtype=np.float64) for c in counts])
    for e, f, a, bound in zip(exact, as_float, as_array, _float_error_bounds(counts)):
        assert abs(Fraction(f) - e) <= bound
        assert all(abs(Fraction(float(x)) - e) <= bound for x in np.broadcast_to(a, (2,)))


def test_float_error_bound_is_the_cancellation_of_the_near_coincident_sketch():
    """Why the sketch above loses digits: the radicand's terms cancel (F^2 ~ 1.8e-9),
    the float route is right."""
    exact = generated.evaluate(*NEAR_COINCIDENT)
    bounds = generated.evaluate(*[_Rounding(c) for c in NEAR_COINCIDENT])
    assert [_Rounding._of(b).value for b in bounds] == list(exact)
    radicand, size = exact[0], (sum(NEAR_COINCIDENT[:4]) * sum(NEAR_COINCIDENT[4:])) ** 4
    assert 10**9 * radicand < 10 * size  # F^2 = R / (Q_s0 Q_s1)^4 < 1e-8
    as_float = generated.evaluate(*[float(c) for c in NEAR_COINCIDENT])
    assert abs(Fraction(as_float[0]) - radicand) <= bounds[0].error
    assert 1e-9 < bounds[0].error / radicand < 1e-6  # so no blanket rel=1e-9 can be promised here
    # a sketch far from F = 0: the same bound is about a hundred units in the last place
    separated = [6007, 1003, 501, 2503, 1009, 2011, 1511, 5501]
    bounds = generated.evaluate(*[_Rounding(c) for c in separated])
    assert bounds[0].error / bounds[0].value < 1e-13


def test_hui_walter_moment_discriminant_is_d06s(form):
    """d06: the discriminant is (D0 - D1)^2 + 2 (D0 + D1) Delta_0 Delta_1 + (Delta_0 Delta_1)^2."""
    m = {
        name: sympy.Symbol(name)
        for name in ("m_s0_0_b", "m_s0_1_b", "m_s1_0_b", "m_s1_1_b", "D_s0_0_1", "D_s1_0_1")
    }
    delta = [m[f"m_s0_{i}_b"] - m[f"m_s1_{i}_b"] for i in (0, 1)]
    d0, d1 = m["D_s0_0_1"], m["D_s1_0_1"]
    compact = (d0 - d1) ** 2 + 2 * (d0 + d1) * delta[0] * delta[1] + (delta[0] * delta[1]) ** 2
    for name, (_, _, d) in form.moment_forms.items():
        assert sympy.expand(d - compact) == 0, name


def test_hui_walter_form_is_integer_and_division_free(form):
    for name, f in form.statistics:
        for expr in (f.num, f.root, f.den):
            poly = sympy.Poly(expr, *[sympy.Symbol(n) for n, _ in form.prelude])
            assert all(c.is_Integer for c in poly.coeffs()), name
    assert form.blind_spots[-1] == form.radicand  # F = 0: the two points coincide


_D06 = load_derivation("d06_hui_walter", "d06_hui_walter_codegen_test")
