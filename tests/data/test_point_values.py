"""Tests of evalgebra.data.point_values: reading chosen values and completing the dependent ones."""

from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.point_values import complete_correlation, point_rational, rows_from_values
from evalgebra.errors import PointError
from evalgebra.spec import EnsembleSpec


def test_as_fraction_reads_exact_rationals():
    assert point_rational(sympy.Rational(3, 4), "x") == Fraction(3, 4)
    assert point_rational(flint.fmpq(-2, 6), "x") == Fraction(-1, 3)
    assert point_rational(np.int64(5), "x") == 5 and isinstance(point_rational(np.int64(5), "x"), Fraction)
    assert point_rational(" 7/21 ", "x") == Fraction(1, 3)
    with pytest.raises(PointError, match=r"where: cannot read \[1\] as an exact rational"):
        point_rational([1], "where")
    with pytest.raises(PointError, match=r"not exact"):
        point_rational(np.float64(0.5), "x")


def test_point_rows_complete_the_dependent_entries():
    spec = EnsembleSpec(2, 3, structure="complete")
    other = {"a": "b", "b": "c", "c": "a"}
    response = {
        0: {t: {t: "1/2", other[t]: "1/4"} for t in "abc"},
        1: {t: {t: 1, other[t]: 0} for t in "abc"},
    }
    prevalence, rows, correlation = rows_from_values(spec, {"a": "1/6", "b": "1/3"}, response=response)
    assert prevalence == [[Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]]
    assert rows[0][0] == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    assert rows[1][2] == [0, 0, 1]
    assert all(sum(row) == 1 for per_label in rows for row in per_label)
    assert set(correlation) == {(0, 1)}
    assert all(value == 0 for table in correlation[(0, 1)] for value in table.values())
    point = EvaluationPoint(spec, prevalence, rows, correlation)
    assert point == EvaluationPoint.from_values(spec, {"a": "1/6", "b": "1/3"}, response=response)


def test_complete_correlation_fills_by_the_sum_zero_rule_and_rejects_contradictions():
    table = complete_correlation({(0, 0): Fraction(1, 16)}, 0, 2, 2)
    assert table == {
        (0, 0): Fraction(1, 16),
        (0, 1): Fraction(-1, 16),
        (1, 0): Fraction(-1, 16),
        (1, 1): Fraction(1, 16),
    }
    with pytest.raises(PointError, match=r"contradicts the free values"):
        complete_correlation({(0, 0): Fraction(1, 16), (1, 1): Fraction(1, 8)}, 0, 2, 2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"prevalence": [1]}, r"prevalence: expected a mapping \(a dict\), got list"),
        ({"accuracy": [1]}, r"accuracy: expected a mapping \(a dict\), got list"),
        ({"accuracy": {0: 5}}, r"accuracy of classifier 0: expected a mapping \(a dict\), got int"),
        (
            {"accuracy": None, "response": {0: {"a": [1]}}},
            r"response row of classifier 'c0', true label 'a': expected a mapping",
        ),
        ({"correlation": {(0, 1): 3}}, r"correlation \(0, 1\): expected a mapping"),
        ({"correlation": {0: {"a": 1}}}, r"correlation: subset 0 must be a tuple"),
        ({"correlation": {(0, 1): {"a": {"a": 1}}}}, r"responses 'a' must be a tuple of 2 label names"),
        (
            {"prevalence": {"a": "0e99999999"}},
            r"prevalence 'a': exponent 99999999 of '0e99999999' is out of range",
        ),
    ],
)
def test_from_values_refuses_rows_that_are_not_mappings(kwargs, message):
    arguments = {"prevalence": {"a": "1/2"}, "accuracy": {0: {"a": 1, "b": 1}, 1: {"a": 1, "b": 1}}} | kwargs
    with pytest.raises(PointError, match=message):
        EvaluationPoint.from_values(EnsembleSpec(2, 2, structure="complete"), **arguments)
    with pytest.raises(PointError, match=r"spec: expected an EnsembleSpec, got int"):
        EvaluationPoint.from_values(3, {"a": "1/2"}, accuracy={})
