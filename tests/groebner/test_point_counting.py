"""Tests of evalgebra.groebner.counting: points of zero-dimensional ideals, exactly.

(Named apart from tests/samplewise/test_counting.py: test basenames are unique.)
"""

from __future__ import annotations

import pytest

from evalgebra.errors import SpecError
from evalgebra.groebner.counting import count_points, standard_monomials
from evalgebra.groebner.elimination import groebner_basis
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import PolyRing


def test_standard_monomials_under_leading_terms():
    assert standard_monomials([(2, 0), (0, 2)], 2) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_count_points_real_and_complex():
    ring = PolyRing(("x", "y"), "lex")
    basis = groebner_basis(Ideal(ring, [ring.parse("x^2 - 2"), ring.parse("y^3 - y")], is_groebner=False))
    assert count_points(basis) == (6, 6, 6)
    with pytest.raises(SpecError, match="zero-dimensional"):
        count_points(groebner_basis(Ideal(ring, [ring.parse("x^2 - 2")], is_groebner=False)))
