"""The crowd-kit-shaped face: crowd-kit's attribute shapes, value types kept, and the estimator behind it."""

import numpy as np
import pandas as pd
import pytest

from evalgebra.crowd.facade import DawidSkeneAlgebraic
from evalgebra.crowd.fit import crowd_fit
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


def test_fit_is_the_crowd_fit_from_the_algebraic_start(fitted):
    data, model = fitted
    direct = crowd_fit(data.records())
    assert np.allclose(model.probas_.to_numpy(), direct.posteriors)
    w = data.workers[7]
    assert np.allclose(model.errors_.xs(w, level="worker").to_numpy().T, direct.rows[7])
    assert model.fit_.converged and model.evaluation_ is not None
    start = sparse_evaluation(data.records())  # the algebraic start, unrefined
    assert np.allclose(model.evaluation_.priors, start.priors)
    capped = DawidSkeneAlgebraic(refine=0).fit(data.answers())  # no EM step: the better start itself
    assert capped.fit_.iterations == 0


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


def test_fit_names_too_sparse_workers_and_estimates_them_by_em():
    data = sparse_crowd(seed=0, n_tasks=900)
    frame = pd.concat([data.answers(), pd.DataFrame({"task": ["t0000"], "worker": ["late"], "label": ["a"]})])
    model = DawidSkeneAlgebraic().fit(frame)
    assert list(model.too_sparse_) == ["late"]  # too sparse for the algebraic start
    late = model.errors_.xs("late", level="worker")
    assert np.allclose(late.sum(axis=0), 1.0) and model.items_["late"] == 1


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
    model = DawidSkeneAlgebraic().fit(degenerate)  # no algebraic start: majority vote's, said so
    assert model.evaluation_ is None and model.fit_.start == "majority"
    assert model.fit_.notes[0].startswith("the algebraic start failed")


def test_fit_holds_true_labels_and_falls_back_on_bigbench_mistake():
    from evalgebra.datasets.crowd import sketch_crowd

    data = sketch_crowd("bigbench_mistake")
    model = DawidSkeneAlgebraic().fit(data.answers())  # it raised SketchError before issue 23
    assert model.fit_.start == "majority" and model.fit_.converged
    gold = data.true_labels().iloc[::10]
    given = DawidSkeneAlgebraic().fit(data.answers(), true_labels=gold)
    assert given.labels_.loc[gold.index].tolist() == gold.tolist()
    assert given.probas_.loc[gold.index].max(axis=1).eq(1.0).all()
