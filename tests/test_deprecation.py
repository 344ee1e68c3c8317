"""The public API in levels: a short top level, and every name of the previous release still working.

Each name ``evalgebra`` exported in the previous release is either still public or a deprecated
alias that warns (``DeprecationWarning``) naming its new home and is the object found there.
"""

from __future__ import annotations

import importlib
import inspect
import warnings

import pytest

import evalgebra
from evalgebra.deprecation import deprecated_alias, deprecation_message, warn_moved

#: ``evalgebra.__all__`` of the previous release (50 names from five levels).
PREVIOUS_RELEASE = (
    "EnsembleSpec VariableRegistry VariableKey GeneratingSet FlintSystem generating_set Sketch "
    "PartialSketch sketch_from_frame sketch_from_parquet sketch_from_csv_chunks sketch_from_dask "
    "EvaluationPoint evaluation_point LabelledTest expected_sketch labelled_test smallest_test_size "
    "evaluate evaluate_counts evaluate_batch majority_vote Evaluation Estimate Alarm QuadraticNumber "
    "AlgebraicNumber RealAlgebraic logical_alarm SafetySpec AlarmReport containing_distance "
    "StreamEvaluator evaluate_hui_walter gibbs_hui_walter OnlineHuiWalter consistency predict_proba "
    "predict expected_confusion crowd DawidSkeneAlgebraic datasets EvalgebraError SpecError "
    "SketchError PointError NumberError InexactError InconsistentIdealError"
).split()


def _home(name: str) -> object:
    module, path = evalgebra._MOVED[name]
    value: object = importlib.import_module(module)
    for part in path.split("."):
        value = getattr(value, part)
    return value


def test_deprecation_top_level_is_for_the_practitioner():
    assert len(evalgebra.__all__) <= 22, "the top level is the practitioner's (about 20 names)"
    assert len(set(evalgebra.__all__)) == len(evalgebra.__all__)
    assert not set(evalgebra.__all__) & set(evalgebra._MOVED), "a name is public or moved, not both"


def test_deprecation_nothing_of_the_previous_release_breaks():
    assert len(PREVIOUS_RELEASE) == 50
    lost = [n for n in PREVIOUS_RELEASE if n not in evalgebra.__all__ and n not in evalgebra._MOVED]
    assert not lost, f"names of the previous release that no longer work: {lost}"


@pytest.mark.parametrize("name", sorted(evalgebra._MOVED))
def test_deprecation_moved_name_warns_naming_its_home_and_is_the_same_object(name):
    module, path = evalgebra._MOVED[name]
    with pytest.warns(DeprecationWarning, match=rf"evalgebra\.{name} is deprecated.*use {module}\.{path}$"):
        old = getattr(evalgebra, name)
    home = _home(name)
    assert old is home or old == home  # a bound classmethod compares equal, not identical
    with pytest.warns(DeprecationWarning):  # never cached: every access warns
        getattr(evalgebra, name)
    assert name not in dir(evalgebra)


def test_deprecation_from_import_warns_too():
    with pytest.warns(DeprecationWarning, match="use evalgebra.builder.GeneratingSet"):
        from evalgebra import GeneratingSet
    from evalgebra.builder import GeneratingSet as home

    assert GeneratingSet is home


def test_deprecation_old_sketch_constructors_give_the_same_sketch():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"m1": ["a", "b", "a"], "m2": ["b", "b", "a"], "y": ["a", "b", "a"]})
    with pytest.warns(DeprecationWarning, match=r"use evalgebra\.Sketch\.from_frame"):
        old = evalgebra.sketch_from_frame(frame, truth="y")
    assert old == evalgebra.Sketch.from_frame(frame, truth="y")
    assert old == evalgebra.Sketch.from_decisions(frame[["m1", "m2"]], truth=frame["y"])


def test_deprecation_old_dask_constructor_warns_on_every_call():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from evalgebra.distributed import sketch_from_dask

    ddf = dd.from_pandas(pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}), npartitions=2)
    with pytest.warns(DeprecationWarning, match=r"sketch_from_dask is deprecated.*Sketch\.from_dask"):
        old = sketch_from_dask(ddf, scheduler="sync")
    assert old == evalgebra.Sketch.from_dask(ddf, scheduler="sync")
    assert inspect.signature(sketch_from_dask) == inspect.signature(evalgebra.Sketch.from_dask)


@pytest.mark.parametrize("name", ["Evaluation", "Estimate", "Alarm", "QuadraticNumber"])
def test_deprecation_evaluators_old_reexports_warn(name):
    import evalgebra.evaluators as evaluators

    with pytest.warns(DeprecationWarning, match=rf"evalgebra\.evaluators\.{name} is deprecated"):
        old = getattr(evaluators, name)
    home = "evalgebra.numbers" if name == "QuadraticNumber" else "evalgebra.results"
    assert old is getattr(importlib.import_module(home), name)
    assert name not in evaluators.__all__
    with pytest.raises(AttributeError):
        evaluators.no_such_name  # noqa: B018


def test_deprecation_warning_is_attributed_to_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evalgebra.EnsembleSpec  # noqa: B018
    assert caught[0].filename == __file__


def test_deprecation_helpers_share_one_wording():
    message = deprecation_message("old", "new")
    with pytest.warns(DeprecationWarning) as record:
        warn_moved("old", "new", stacklevel=2)
        deprecated_alias(lambda: 1, "old", "new")()
    assert [str(w.message) for w in record] == [message, message]
