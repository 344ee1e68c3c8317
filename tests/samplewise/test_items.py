"""Tests of evalgebra.samplewise.items: one consistency value per item."""

from fractions import Fraction

import pytest

from evalgebra.errors import SpecError
from evalgebra.samplewise.items import item_consistency
from evalgebra.samplewise.metrics import consistency


def test_item_consistency_mean_is_the_consistency():
    runs = [[0, 1, 1, 0, 2], [0, 1, 0, 0, 1], [1, 1, 0, 2, 2]]
    truth = [0, 1, 1, 0, 2]
    for metric in ("pa_acc", "ec_acc", "ec_g"):
        values = item_consistency(runs, metric, truth, n=2)
        assert sum(values, Fraction(0)) / 5 == consistency(runs, metric, truth, n=2)


def test_item_consistency_refuses_metrics_that_do_not_decompose():
    with pytest.raises(SpecError, match="does not decompose over items"):
        item_consistency([[0, 1], [1, 1]], "pa_kappa")
