"""The logical alarm's segments are the derived single-classifier axiom (derivation d01), not a copy.

The alarm solves the logical-alarm paper's axiom by hand for speed (``R_{b_i,b} = Q_b - R_{a_i} + R_{a_i,a}``
along each segment); here the R-space ideal is derived afresh with the Gröbner module and every
segment end point is checked to lie on it, and to be maximal under the range constraints.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.alarm.logical import axiom_segments
from evalgebra.data.sketch import Sketch
from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis
from evalgebra.spec import EnsembleSpec


@pytest.fixture(scope="module")
def axiom():
    basis = groebner_basis(evaluation_ideal(EnsembleSpec(1, 2), space="R")).to_sympy()
    names = {str(s): s for p in basis for s in p.free_symbols}
    return basis, names


@given(st.lists(st.integers(0, 2), min_size=1, max_size=40))
def test_axiom_segments_lie_on_the_derived_axiom(axiom, decisions):
    basis, names = axiom
    sketch = Sketch.from_decisions(np.array(decisions)[:, None] % 2, labels=["a", "b"])
    q = sketch.Q
    n_a = sketch.counts().get(("a",), 0)
    lo, hi = axiom_segments(sketch, 0)
    for q_a in range(q + 1):
        q_b = q - q_a
        if lo[q_a] > hi[q_a]:
            continue
        for x in (int(lo[q_a]), int(hi[q_a])):
            y = q_b - n_a + x  # the alarm's solved form
            values = {"R_0_a_a": x, "R_0_b_b": y, "Q_a": q_a, "Q_b": q_b, "n_a": n_a, "n_b": q - n_a}
            point = {names[k]: v for k, v in values.items() if k in names}
            assert all(p.subs(point) == 0 for p in basis)
            assert 0 <= x <= q_a and 0 <= y <= q_b
        # maximal: one step beyond either end leaves the range constraints
        for x in (int(lo[q_a]) - 1, int(hi[q_a]) + 1):
            y = q_b - n_a + x
            assert not (0 <= x <= q_a and 0 <= y <= q_b)


def test_derived_axiom_is_linear_with_unit_coefficients(axiom):
    basis, names = axiom
    x, y = names["R_0_a_a"], names["R_0_b_b"]
    line = [p for p in basis if p.has(x)]
    assert len(line) == 1
    poly = sympy.Poly(line[0], x, y)
    assert sorted(abs(c) for c in (poly.coeff_monomial(x), poly.coeff_monomial(y))) == [1, 1]
