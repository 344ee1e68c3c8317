r"""The data layer: sketches (counts of decision patterns), their readers and writers, exact
evaluation points and exact simulation.

It sits at the foundation with the spec and the variable registry: the algebra (builder,
Gröbner module) and the runtime (evaluators, alarm, seed systems) both consume it, and it
imports neither. Inside, imports flow one way::

    numbers, patterns, cells, encoding -> readers -> sketch_json -> show -> sketch
        -> point_values -> point -> simulate

The readers return plain cell tables (:class:`~evalgebra.data.cells.CellTable`) that
:class:`Sketch` assembles in its ``from_*`` constructors, so no reader imports the class.

Examples
--------
>>> from evalgebra.data import Sketch, evaluation_point
>>> sk = sum(Sketch.from_decisions([[a, b]], labels=["a", "b"], truth=[t])
...          for a, b, t in [("a", "a", "a"), ("a", "b", "b"), ("b", "b", "b")])
>>> sk.Q, evaluation_point(sk).accuracy(0, "b")
(3, Fraction(1, 2))
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
