"""The builder's score equations (any spec) against the moment coordinates of the independent model."""

from __future__ import annotations

import pytest

from evalgebra.builder.score import score_equations
from evalgebra.engines import msolve_binary
from evalgebra.errors import SpecError
from evalgebra.evaluators.fitted import fit_sketch
from evalgebra.evaluators.fitted.certify import binary_counts
from evalgebra.likelihood import binary_score_system
from evalgebra.likelihood.solve import count_solutions, solve_score
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.sampled import sampled_binary_sketch as sampled_sketch

NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")


@NEEDS_MSOLVE
def test_builder_and_moment_routes_count_the_same_critical_points():
    counts = binary_counts(fit_sketch(sampled_sketch(3, 3, 400)).cells)
    builder = score_equations(EnsembleSpec(3, 2), counts)
    moments = binary_score_system(counts)
    assert count_solutions(builder, time_limit=120) == count_solutions(moments, time_limit=120) == 2
    found = solve_score(builder, time_limit=120)
    inside = [box for box in found.boxes if all(0 < (lo + hi) / 2 < 1 for lo, hi in box)]
    assert len(inside) in (0, 2)  # a label-swap pair, or none


def test_score_equations_take_a_sketch_and_refuse_bad_options():
    sketch = sampled_sketch(4, 3, 400)
    system = score_equations(EnsembleSpec(3, 2), sketch)
    assert system.unknowns[0] == "prev_a" and len(system.patterns) == len(sketch.counts())
    with pytest.raises(SpecError, match="nonzero must be one of"):
        score_equations(EnsembleSpec(3, 2), sketch, nonzero="all")
    with pytest.raises(SpecError, match="need 8 counts"):
        score_equations(EnsembleSpec(3, 2), [1, 2, 3])
