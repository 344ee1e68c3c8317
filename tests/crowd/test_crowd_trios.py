"""Dense crowds: every trio on the tasks all three answered, checked on exact simulations."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from evalgebra.crowd.trios import dense_trios
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec


def long_rows(sketch):
    """Every item of a labelled sketch as long (task, worker, label) rows, and the answer key."""
    rows, truth, n = [], {}, 0
    for label, counts in sketch.by_true_label().items():
        for pattern, count in counts.items():
            for _ in range(count):
                task = f"t{n:05d}"
                rows.extend((task, c, answer) for c, answer in zip(sketch.classifiers, pattern))
                truth[task] = label
                n += 1
    return rows, truth


def point(n_labels):
    spec = EnsembleSpec(4, n_labels)
    if n_labels == 2:
        return EvaluationPoint.from_values(
            spec,
            {"a": "1/3"},
            accuracy={
                0: {"a": "3/4", "b": "2/3"},
                1: {"a": "4/5", "b": "3/5"},
                2: {"a": "5/6", "b": "3/4"},
                3: {"a": "2/3", "b": "4/5"},
            },
        )
    rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    other = {"a": {"a": "3/5", "b": "1/5"}, "b": {"a": "1/5", "b": "7/10"}, "c": {"a": "1/10", "b": "1/5"}}
    return EvaluationPoint.from_values(
        spec, {"a": "1/2", "b": "3/10"}, response={0: rows, 1: other, 2: rows, 3: other}
    )


@pytest.mark.parametrize("n_labels", [2, 3])
def test_dense_trios_exact_recover_every_trio_and_the_combination(n_labels):
    truth = point(n_labels)
    rows, _ = long_rows(expected_sketch(truth))
    report = dense_trios(rows, exact=True)
    assert len(report.trios) == 4 and report.too_sparse == {} and report.alarms == ()
    labels = truth.spec.labels
    for names, shared, evaluation in report.trios:
        assert shared == expected_sketch(truth).Q
        assert evaluation.point.prevalence == truth.prevalence_of()
        assert all(isinstance(v, Fraction) for v in evaluation.point.prevalence.values())
        for c in names:
            for t in labels:
                assert evaluation.point.accuracy[c][t] == truth.accuracy(c, t)
    assert np.allclose(report.priors, [float(truth.prevalence_of()[x]) for x in labels])
    for k, c in enumerate(report.workers):
        expected = [[float(truth.response_rate(c, r, t)) for r in labels] for t in labels]
        assert np.allclose(report.rows[k], expected)
        assert report.items[k] == 3 * expected_sketch(truth).Q  # each worker is in three of the four trios


def test_dense_trios_float_route_agrees_with_the_exact_route():
    rows, _ = long_rows(expected_sketch(point(3)))
    exact, fast = dense_trios(rows, exact=True), dense_trios(rows)
    assert np.allclose(exact.rows, fast.rows) and np.allclose(exact.priors, fast.priors)


def test_dense_trios_name_workers_without_enough_shared_tasks():
    rows, _ = long_rows(expected_sketch(point(2)))
    rows = [row for row in rows if row[1] != "c3" or row[0] < "t00010"]  # c3 answered ten tasks only
    report = dense_trios(rows, min_items=20)
    assert list(report.too_sparse) == ["c3"] and "at least 20 tasks" in report.too_sparse["c3"]
    assert np.isnan(report.rows[report.workers.index("c3")]).all()
    assert [names for names, _, _ in report.trios] == [("c0", "c1", "c2")]
    with pytest.raises(SpecError, match="min_items"):
        dense_trios(rows, min_items=0)


def _renamed_truth():
    """Four workers, three labels: trios decode three different renamings of the truth on their own."""
    rows = {
        "c0": ("122", "113", "311"),
        "c1": ("212", "113", "122"),
        "c2": ("131", "311", "113"),
        "c3": ("311", "221", "113"),
    }
    response = {
        c: {t: {a: Fraction(int(v), 5) for a, v in zip("abc", row)} for t, row in zip("abc", by_truth)}
        for c, by_truth in rows.items()
    }
    return EvaluationPoint.from_values(EnsembleSpec(4, 3), {"a": "1/2", "b": "1/3"}, response=response)


@pytest.mark.parametrize("exact", [True, False])
def test_dense_trios_align_trios_that_decode_different_renamings(exact):
    """Regression (issue 21): the trios were averaged as decoded, each in its own labelling."""
    truth = _renamed_truth()
    rows, _ = long_rows(expected_sketch(truth))
    report = dense_trios(rows, exact=exact)
    decoded = {tuple(round(float(p), 9) for p in e.point.prevalence.values()) for _, _, e in report.trios}
    assert len(decoded) > 1  # the trios decode different renamings
    labels = truth.spec.labels
    matches = []
    for perm in itertools.permutations(range(3)):  # report label perm[k] is the truth's label k
        prevalence = [float(truth.prevalence_of()[t]) for t in labels]
        expected_rows = [
            [[float(truth.response_rate(c, a, t)) for a in labels] for t in labels] for c in report.workers
        ]
        renamed_priors = [prevalence[perm.index(m)] for m in range(3)]
        renamed_rows = [[by_truth[perm.index(m)] for m in range(3)] for by_truth in expected_rows]
        matches.append(np.allclose(report.priors, renamed_priors) and np.allclose(report.rows, renamed_rows))
    assert matches.count(True) == 1
    assert "trio_disagreement" not in {a.kind for a in report.alarms} and report.too_sparse == {}
