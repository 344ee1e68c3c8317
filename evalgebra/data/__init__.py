r"""The data layer: sketches (counts of decision patterns), their readers and writers, exact
evaluation points and exact simulation.

It sits at the foundation with the spec and the variable registry: the algebra (builder,
Gröbner module) and the runtime (evaluators, alarm, seed systems) both consume it, and it
imports neither.
"""

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import LabelledTest, expected_sketch, labelled_test, smallest_test_size
from evalgebra.data.sketch import Sketch

__all__ = [
    "Sketch",
    "EvaluationPoint",
    "evaluation_point",
    "LabelledTest",
    "expected_sketch",
    "labelled_test",
    "smallest_test_size",
]
