"""Tests of evalgebra.evaluators.stream: batch ingestion, checkpoints, resuming."""

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalgebra.fileio
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.majority import evaluate_majority
from evalgebra.evaluators.stream import STREAM_FORMAT, StreamEvaluator
from evalgebra.testing import labelled_tests, specs

tests_ = labelled_tests(specs(max_populations=3, named=None), max_items=80)


def _one_shot(test):
    """The unlabelled sketch of the whole test, counted in one call."""
    return Sketch.from_decisions(
        test.decisions,
        labels=test.labels,
        classifiers=test.classifiers,
        population=test.population,
        populations=test.populations,
    )


def _stream(test):
    return StreamEvaluator(test.classifiers, test.labels, populations=test.populations)


def _population_argument(test, rows, how):
    """The batch's populations as indices, names, or (when all equal) one name."""
    pops = test.population[rows]
    if how == "names":
        return np.array(test.populations, dtype=object)[pops]
    if how == "single" and len(set(pops.tolist())) == 1:
        return test.populations[int(pops[0])]
    return pops


@given(tests_, st.data())
def test_stream_split_with_checkpoints_equals_one_shot_sketch(test, data):
    n = len(test.truth)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5)))
    bounds = [0, *cuts, n]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stream.json"
        stream = _stream(test)
        for start, stop in zip(bounds, bounds[1:]):
            rows = slice(start, stop)
            names = data.draw(st.booleans())
            batch = test.decision_names()[rows] if names else test.decisions[rows]
            how = data.draw(st.sampled_from(["indices", "names", "single"]))
            stream.ingest(batch, population=_population_argument(test, rows, how))
            if data.draw(st.booleans()):
                stream.checkpoint(path)
                resumed = StreamEvaluator.resume(path)
                assert resumed.items == stream.items and resumed.batches == stream.batches
                assert resumed.to_dict() == stream.to_dict()
                stream = resumed
    assert stream.items == n
    assert stream.sketch == _one_shot(test)


@given(tests_)
def test_stream_evaluate_equals_evaluating_the_one_shot_sketch(test):
    stream = _stream(test)
    half = len(test.truth) // 2
    for rows in (slice(0, half), slice(half, None)):
        stream.ingest(test.decisions[rows], population=test.population[rows])
    assert stream.evaluate("majority") == evaluate_majority(_one_shot(test))
    assert stream.evaluate("majority", ties="drop") == evaluate_majority(_one_shot(test), ties="drop")


def test_stream_sparse_state_for_many_patterns_equals_one_shot():
    rng = np.random.default_rng(7)
    decisions = rng.integers(0, 3, size=(500, 16))  # 3^16 > 2^24 patterns: sparse state
    stream = StreamEvaluator(16, 3)
    assert stream._dense is None
    for start in range(0, 500, 120):
        stream.ingest(decisions[start : start + 120])
    assert stream.sketch == Sketch.from_decisions(decisions, labels=3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.json"
        stream.checkpoint(path)
        resumed = StreamEvaluator.resume(path)
    resumed.ingest(decisions[:10])
    stream.ingest(decisions[:10])
    assert resumed.sketch == stream.sketch and resumed.items == 510


def test_stream_dataframe_batches_are_matched_by_column_name():
    pd = pytest.importorskip("pandas")
    stream = StreamEvaluator(["x", "y"], ["a", "b"])
    stream.ingest(pd.DataFrame({"y": ["b", "a"], "x": ["a", "a"]}))
    assert stream.sketch.counts() == {("a", "a"): 1, ("a", "b"): 1}
    with pytest.raises(SketchError, match="one column per classifier"):
        stream.ingest(pd.DataFrame({"x": ["a"], "z": ["b"]}))


def test_stream_empty_batches_change_nothing():
    stream = StreamEvaluator(3, 2)
    stream.ingest(np.zeros((0, 3), dtype=np.int64))
    assert stream.items == 0 and stream.batches == 0
    with pytest.raises(SketchError, match="no items yet"):
        stream.sketch  # noqa: B018 (reading the property is what raises)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "empty.json"
        stream.checkpoint(path)
        assert json.loads(path.read_text())["sketch"] is None
        resumed = StreamEvaluator.resume(path)
    assert resumed.items == 0 and resumed.settings() == stream.settings()


@pytest.mark.parametrize(
    "batch, population, message",
    [
        (
            np.zeros((2, 2), dtype=np.int64),
            None,
            r"batch 2: a batch must be items x 3 classifiers \(c0, c1, c2\), got shape \(2, 2\)",
        ),
        (np.zeros(3, dtype=np.int64), None, "got shape"),
        ([["a", "b", "x"]], None, r"unknown labels \['x'\]"),
        ([[0, 1, 2]], None, "label index 2 out of range"),
        ([[0, -1, 1]], None, "negative index"),
        ([["a", "b"], ["a"]], None, "different lengths"),
        ([["a", None, "b"]], None, "missing answer"),
        ([["a", 1, "b"]], None, "label 1 is not a string"),
        (np.array([[0.0, 1.0, 1.0]]), None, "not floats"),
        ([[True, False, True]], None, "not a string"),
    ],
)
def test_stream_ingest_rejects_bad_batches_and_keeps_its_state(batch, population, message):
    stream = StreamEvaluator(3, ["a", "b"])
    stream.ingest([[0, 1, 1]])
    before = stream.to_dict()
    with pytest.raises(SketchError, match=message):
        stream.ingest(batch, population=population)
    assert stream.to_dict() == before


def test_stream_ingest_rejects_bad_populations():
    stream = StreamEvaluator(2, 2, populations=["x", "y"])
    with pytest.raises(SketchError, match="give the batch's population"):
        stream.ingest([[0, 1]])
    with pytest.raises(SketchError, match="unknown population 'z'"):
        stream.ingest([[0, 1]], population="z")
    with pytest.raises(SketchError, match="unknown populations"):
        stream.ingest([[0, 1]], population=["z"])
    with pytest.raises(SketchError, match="population index out of range"):
        stream.ingest([[0, 1]], population=[2])
    with pytest.raises(SketchError, match="2 entries for 1 items"):
        stream.ingest([[0, 1]], population=[0, 1])
    assert stream.items == 0


def test_stream_rejects_bad_settings():
    with pytest.raises(SpecError):
        StreamEvaluator(2, ["a", "a"])
    with pytest.raises(SketchError, match="64-bit"):
        StreamEvaluator(70, 2)


def _checkpointed(folder, stream):
    path = Path(folder) / "state.json"
    stream.checkpoint(path)
    return path


def test_stream_resume_refuses_mismatched_checkpoints():
    stream = StreamEvaluator(["p", "q"], ["yes", "no"])
    stream.ingest([["yes", "no"], ["no", "no"]])
    with tempfile.TemporaryDirectory() as folder:
        path = _checkpointed(folder, stream)
        assert StreamEvaluator.resume(path, classifiers=["p", "q"], labels=["yes", "no"]).items == 2
        with pytest.raises(
            SketchError, match=r"written for labels \['yes', 'no'\], expected \['no', 'yes'\]"
        ):
            StreamEvaluator.resume(path, labels=["no", "yes"])
        with pytest.raises(SketchError, match="written for classifiers"):
            StreamEvaluator.resume(path, classifiers=["p", "q", "r"])
        with pytest.raises(SketchError, match="written for populations"):
            StreamEvaluator.resume(path, populations=["x"])
        document = json.loads(path.read_text())
        for change, message in [
            (lambda d: d.update(items=3), "says 3 items but its sketch holds 2"),
            (lambda d: d.update(format="evalgebra.sketch/1"), "not a stream checkpoint"),
            (lambda d: d.update(extra=1), "exactly the keys"),
            (lambda d: d["settings"].update(labels=["no", "yes"]), "differ from its settings"),
            (lambda d: d["settings"].update(labels="yes"), "must be a list of strings"),
            (lambda d: d.update(items=-1), "non-negative integer"),
            (lambda d: d.update(sketch=None), "holds no sketch"),
            (lambda d: d["sketch"]["counts"][0].update(decisions=["maybe", "no"]), "its sketch is invalid"),
        ]:
            broken = json.loads(json.dumps(document))
            change(broken)
            path.write_text(json.dumps(broken))
            with pytest.raises(SketchError, match=message):
                StreamEvaluator.resume(path)
        path.write_text(json.dumps(document)[:-20])
        with pytest.raises(SketchError, match="not valid JSON"):
            StreamEvaluator.resume(path)
        with pytest.raises(SketchError, match="cannot read"):
            StreamEvaluator.resume(Path(folder) / "absent.json")


def test_stream_resume_refuses_malformed_sketches_and_counts():
    # regressions: a string sketch was read as a file path, a list raised TypeError, a count
    # of 2^63 or more could overflow the 64-bit state
    stream = StreamEvaluator(["p", "q"], ["yes", "no"])
    stream.ingest([["yes", "no"], ["no", "no"]])
    with tempfile.TemporaryDirectory() as folder:
        path = _checkpointed(folder, stream)
        document = json.loads(path.read_text())
        other = Path(folder) / "other.json"
        other.write_text(stream.sketch.to_json())
        for change, message in [
            (lambda d: d.update(sketch=str(other)), "embedded sketch document"),
            (lambda d: d.update(sketch="other.json"), "embedded sketch document"),
            (lambda d: d.update(sketch=[1, 2]), "embedded sketch document"),
            (lambda d: d.update(sketch=7), "embedded sketch document"),
            (lambda d: d.update(items=2**63), "below 2"),
            (lambda d: d.update(items=2**64 + 2), "below 2"),
            (lambda d: d.update(batches=2**63), "below 2"),
            (lambda d: d["sketch"]["counts"][0].update(count=2**63), "its sketch is invalid"),
            (lambda d: d["sketch"]["counts"][0].update(count=[1]), "its sketch is invalid"),
        ]:
            broken = json.loads(json.dumps(document))
            change(broken)
            path.write_text(json.dumps(broken))
            with pytest.raises(SketchError, match=message):
                StreamEvaluator.resume(path)


def test_stream_resume_refuses_a_bare_string_of_expected_names():
    # regression: classifiers="pq" was taken as ["p", "q"]
    stream = StreamEvaluator(["p", "q"], ["y", "n"])
    stream.ingest([["y", "n"]])
    with tempfile.TemporaryDirectory() as folder:
        path = _checkpointed(folder, stream)
        for options in (
            {"classifiers": "pq"},
            {"labels": "yn"},
            {"populations": "all"},
            {"classifiers": 2},
            {"labels": ["y", 1]},
        ):
            with pytest.raises(SpecError, match="sequence of names"):
                StreamEvaluator.resume(path, **options)
        assert (
            StreamEvaluator.resume(path, classifiers=("p", "q"), labels=["y", "n"], populations=["all"]).items
            == 1
        )


@pytest.mark.parametrize("fail_in", ["replace", "fsync", "write"])
def test_stream_checkpoint_crash_leaves_the_old_checkpoint_intact(monkeypatch, fail_in):
    stream = StreamEvaluator(3, 2)
    stream.ingest([[0, 0, 1], [1, 1, 1]])
    with tempfile.TemporaryDirectory() as folder:
        path = _checkpointed(folder, stream)
        old_text = path.read_text()
        stream.ingest([[0, 0, 0]] * 5)

        def crash(*args, **kwargs):
            raise OSError("disk on fire")

        if fail_in == "replace":
            monkeypatch.setattr(evalgebra.fileio.os, "replace", crash)
        elif fail_in == "fsync":
            monkeypatch.setattr(evalgebra.fileio.os, "fsync", crash)
        else:
            real_fdopen = os.fdopen

            class HalfWriter:
                def __init__(self, handle):
                    self.handle = handle

                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    self.handle.close()

                def write(self, text):
                    self.handle.write(text[: len(text) // 2])
                    self.handle.flush()
                    raise OSError("disk full")

            monkeypatch.setattr(
                evalgebra.fileio.os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k))
            )
        with pytest.raises(OSError):
            stream.checkpoint(path)
        monkeypatch.undo()
        assert path.read_text() == old_text
        assert sorted(p.name for p in Path(folder).iterdir()) == ["state.json"]  # no temporary left
        resumed = StreamEvaluator.resume(path)
        assert resumed.items == 2 and resumed.sketch.counts() == {("a", "a", "b"): 1, ("b", "b", "b"): 1}
        stream.checkpoint(path)
        assert StreamEvaluator.resume(path).items == 7


def test_stream_checkpoint_document_format():
    stream = StreamEvaluator(["m1", "m2"], ["a", "b"], populations=["s0", "s1"])
    stream.ingest([[0, 1]], population="s1")
    document = stream.to_dict()
    assert document["format"] == STREAM_FORMAT
    assert document["settings"] == {
        "classifiers": ["m1", "m2"],
        "labels": ["a", "b"],
        "populations": ["s0", "s1"],
    }
    assert document["items"] == 1 and document["batches"] == 1
    assert document["sketch"]["format"] == "evalgebra.sketch/1"
    assert Sketch.read_json(document["sketch"]) == stream.sketch
    assert StreamEvaluator.from_sketch(stream.sketch).sketch == stream.sketch
    with pytest.raises(SketchError, match="unlabelled"):
        StreamEvaluator.from_sketch(Sketch.from_decisions([[0, 1]], truth=[0]))


def test_stream_ingests_ten_million_items_in_batches():
    # the sketching throughput brief: 10^7 items x 5 classifiers, batches of 10^6
    rng = np.random.default_rng(0)
    batch = rng.integers(0, 2, size=(10**6, 5))
    stream = StreamEvaluator(5, 2)
    for _ in range(10):
        stream.ingest(batch)
    assert stream.items == 10**7
    assert (
        stream.sketch.count_vector().tolist()
        == (10 * Sketch.from_decisions(batch, labels=2).count_vector()).tolist()
    )
