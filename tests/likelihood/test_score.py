"""The score equations: one implementation, checked by independent routes.

Routes: the binomial score solved by hand; the moment model against the mixture written in
rates (exact rationals); the critical point msolve finds against EM's fixed point on a sampled
test; the builder's system (any spec, rates) against the moment coordinates (the same count).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import flint
import numpy as np
import pytest

from evalgebra.data.sketch import Sketch
from evalgebra.engines import msolve_binary
from evalgebra.errors import SpecError
from evalgebra.evaluators.fitted import fit_sketch
from evalgebra.evaluators.fitted.certify import binary_counts
from evalgebra.likelihood import binary_score_system, moment_model, rates_from_moments, score_system
from evalgebra.likelihood.independent import moment_coefficient
from evalgebra.likelihood.solve import count_solutions, solve_score
from evalgebra.testing.sampled import sampled_binary_sketch

NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")


def sampled_sketch(seed: int, n: int = 3, size: int = 400) -> Sketch:
    return sampled_binary_sketch(seed, n, size)


def test_moment_coefficient_matches_its_definition():
    # c_r(k) = u^{1 - r/2} kappa_r(p) with k = (1 - 2p)/sqrt(u): at p = 1/5, sqrt(u) = 2/5, k = 3/2
    p, root = Fraction(1, 5), Fraction(2, 5)
    k = flint.fmpq(3, 2)
    for r in range(2, 7):
        kappa = (1 - p) ** (r - 1) + (-1) ** r * p ** (r - 1)
        expected = root**2 * kappa / root**r
        value = moment_coefficient(r)(k)
        assert Fraction(int(value.p), int(value.q)) == expected


@pytest.mark.parametrize("n", [2, 3, 4])
def test_moment_model_equals_the_mixture_in_rates(n):
    polys, names = moment_model(n)
    rng = np.random.default_rng(n)
    p, root, k = Fraction(1, 5), Fraction(2, 5), Fraction(3, 2)  # k = (1 - 2p) / sqrt(u)
    delta = [Fraction(int(v), 20) for v in rng.integers(-6, 7, n)]
    phi = [Fraction(int(v), 20) for v in rng.integers(7, 14, n)]
    low = [f - p * d for f, d in zip(phi, delta)]
    high = [f + (1 - p) * d for f, d in zip(phi, delta)]
    values = [k, *(root * d for d in delta), *phi]
    args = [flint.fmpq(v.numerator, v.denominator) for v in values]
    for poly, pattern in zip(polys, itertools.product((0, 1), repeat=n)):
        mixture = (1 - p) * np.prod(
            [low[i] if x else 1 - low[i] for i, x in enumerate(pattern)]
        ) + p * np.prod([high[i] if x else 1 - high[i] for i, x in enumerate(pattern)])
        got = poly(*args)
        assert Fraction(int(got.p), int(got.q)) == mixture
    back = rates_from_moments(float(k), [float(root * d) for d in delta], [float(f) for f in phi])
    assert back[0] == pytest.approx(float(p)) and back[1] == pytest.approx([float(v) for v in low])


def test_score_system_refuses_bad_input():
    ctx = flint.fmpq_mpoly_ctx.get(("theta",), "degrevlex")
    (theta,) = ctx.gens()
    with pytest.raises(SpecError, match="one count per pattern"):
        score_system([theta, 1 - theta], [1])
    with pytest.raises(SpecError, match="at least 0"):
        score_system([theta, 1 - theta], [0, 0])
    with pytest.raises(SpecError, match="needs the names"):
        score_system([theta, 1 - theta], [1, 2], substitution=lambda g: g)


@NEEDS_MSOLVE
def test_score_system_binomial_critical_point_is_the_frequency():
    ctx = flint.fmpq_mpoly_ctx.get(("theta",), "degrevlex")
    (theta,) = ctx.gens()
    found = solve_score(score_system([1 - theta, theta], [7, 5]), time_limit=60)
    assert found.degree == 1 and len(found.boxes) == 1
    low, high = found.boxes[0][0]
    assert low <= Fraction(5, 12) <= high


@NEEDS_MSOLVE
@pytest.mark.parametrize("seed", [1, 2])
def test_binary_score_system_critical_point_is_ems_fixed_point(seed):
    sketch = sampled_sketch(seed)
    fitted = fit_sketch(sketch)
    counts = binary_counts(fitted.cells)
    found = solve_score(binary_score_system(counts), time_limit=120)
    marginal = [
        sum(c for code, c in enumerate(counts) if (code >> (2 - i)) & 1) / sum(counts) for i in range(3)
    ]
    inside = []
    for box in found.boxes:
        k, *y = (float((lo + hi) / 2) for lo, hi in box)
        p, low, high = rates_from_moments(k, y, marginal)
        if 0 < p < 1 and all(0 < v < 1 for v in (*low, *high)):
            inside.append((p, low, high))
    assert found.degree == 2 == count_solutions(binary_score_system(counts), time_limit=120)
    if fitted.goodness.g2 < 1e-6:  # EM reached the saturated likelihood: it sits on a critical point
        assert len(inside) == 2
        em_b = fitted.parameters.response[:, 1, 1]  # P(answer b | b)
        assert any(np.allclose(np.array(high), em_b, atol=1e-6) for _, _, high in inside)
