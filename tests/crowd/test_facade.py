"""The crowd-kit-shaped face: crowd-kit's attribute shapes, value types kept, and the estimator behind it."""

import numpy as np
import pandas as pd
import pytest

from evalgebra.crowd.facade import DawidSkeneAlgebraic
from evalgebra.crowd.sparse import sparse_evaluation
from evalgebra.datasets.crowd import sparse_crowd
from evalgebra.errors import SketchError


@pytest.fixture(scope="module")
def fitted():
    data = sparse_crowd(seed=4, n_tasks=1500)
    return data, DawidSkeneAlgebraic().fit(data.answers())


def test_fit_leaves_crowd_kit_shaped_attributes(fitted):
    data, model = fitted
    assert model.labels_.name == "agg_label" and model.labels_.index.name == "task"
    assert list(model.labels_.index) == list(data.tasks)
    assert model.probas_.shape == (data.n_tasks, 3) and model.probas_.columns.name == "label"
    assert np.allclose(model.probas_.sum(axis=1), 1.0)
    assert model.labels_.tolist() == model.probas_.idxmax(axis=1).tolist()
    assert model.priors_.name == "prior" and list(model.priors_.index) == list(data.labels)
    assert np.isclose(model.priors_.sum(), 1.0)
    assert model.errors_.index.names == ["worker", "label"] and list(model.errors_.columns) == list(
        data.labels
    )
    # errors_.loc[(w, answered), true]: every worker's column (true label) sums to 1 over the answers
    assert np.allclose(model.errors_.groupby(level="worker").sum().to_numpy(), 1.0)
    assert model.items_.index.name == "worker" and model.too_sparse_ == {}


def test_fit_is_the_sparse_evaluation_with_refinement(fitted):
    data, model = fitted
    direct = sparse_evaluation(data.records(), refine=5)
    assert np.allclose(model.probas_.to_numpy(), direct.posteriors)
    w = data.workers[7]
    assert np.allclose(model.errors_.xs(w, level="worker").to_numpy().T, direct.rows[7])
    assert model.evaluation_.refined == 5


def test_fit_predict_and_fit_predict_proba(fitted):
    data, model = fitted
    frame = data.answers()
    assert DawidSkeneAlgebraic().fit_predict(frame).equals(model.labels_)
    assert DawidSkeneAlgebraic().fit_predict_proba(frame).equals(model.probas_)


def test_fit_keeps_integer_tasks_and_labels():
    data = sparse_crowd(seed=2, n_tasks=800, n_workers=12, per_task=4, n_labels=2)
    frame = data.answers()
    frame["task"] = frame["task"].str[1:].astype(int)
    frame["label"] = frame["label"].map({"a": 0, "b": 1})
    model = DawidSkeneAlgebraic().fit(frame)
    assert model.labels_.dtype.kind == "i" and set(model.labels_) <= {0, 1}
    assert model.labels_.index.dtype.kind == "i" and model.labels_.index[0] == 0
    assert list(model.probas_.columns) == [0, 1] and model.errors_.loc[("w00", 0), 0] > 0


def test_fit_names_too_sparse_workers_and_leaves_them_out_of_errors():
    data = sparse_crowd(seed=0, n_tasks=900)
    frame = pd.concat([data.answers(), pd.DataFrame({"task": ["t0000"], "worker": ["late"], "label": ["a"]})])
    model = DawidSkeneAlgebraic().fit(frame)
    assert list(model.too_sparse_) == ["late"]
    assert "late" not in model.errors_.index.get_level_values("worker") and model.items_["late"] <= 1


def test_fit_refuses_what_it_cannot_read():
    with pytest.raises(SketchError, match="DataFrame"):
        DawidSkeneAlgebraic().fit([("t", "w", "a")])
    with pytest.raises(SketchError, match="no column"):
        DawidSkeneAlgebraic().fit(pd.DataFrame({"item": ["t"], "worker": ["w"], "label": ["a"]}))
    frame = sparse_crowd(seed=0, n_tasks=100).answers()
    frame.loc[3, "label"] = None
    with pytest.raises(SketchError, match="missing label"):
        DawidSkeneAlgebraic().fit(frame)
    degenerate = pd.DataFrame(
        [(f"t{t}", f"w{w}", "a" if w % 2 else "b") for t in range(20) for w in range(6)],
        columns=["task", "worker", "label"],
    )
    with pytest.raises(SketchError, match="no split"):
        DawidSkeneAlgebraic().fit(degenerate)
