"""Tests of evalgebra.data.sketch_json: round trips of sketch JSON v1 and strict reading."""

import io
import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.data.sketch_json import SKETCH_FORMAT, json_table, sketch_to_json
from evalgebra.errors import EvalgebraError, SketchError
from evalgebra.testing import labelled_tests, specs

tests_ = labelled_tests(specs(max_populations=3, named=None), max_items=40)


# -- JSON round trips --------------------------------------------------------------------------
@given(tests_, st.booleans())
def test_read_json_inverts_to_json(test, labelled):
    sketch = test.sketch() if labelled else test.sketch().unlabelled()
    text = sketch.to_json()
    assert Sketch.read_json(text) == sketch
    assert Sketch.from_json(json.loads(text)) == sketch
    assert Sketch.read_json(io.StringIO(text)) == sketch
    assert Sketch.read_json(text).to_json() == text  # canonical
    data = json.loads(text)
    assert data["format"] == SKETCH_FORMAT
    assert ("by_true_label" in data) == labelled
    assert ("populations" in data) == (len(test.populations) > 1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sketch.json"
        sketch.write_json(path)
        assert Sketch.read_json(path) == sketch
        assert Sketch.read_json(str(path)) == sketch
        assert [p.name for p in Path(folder).iterdir()] == ["sketch.json"]  # no temporary left


@pytest.mark.parametrize("truth", [None, ["a", "b"]])
def test_read_json_inverts_to_json_with_an_empty_population(truth):
    sketch = Sketch.from_decisions(
        [["a", "b"], ["b", "b"]], truth=truth, population=np.array([0, 0]), populations=["p", "q"]
    )
    assert Sketch.read_json(sketch.to_json()) == sketch


def test_json_table_is_the_table_the_sketch_is_built_from():
    sketch = Sketch.from_decisions([["a", "b"], ["b", "b"]], truth=["a", "b"], population=["p", "q"])
    assert Sketch(*json_table(sketch.to_json())) == sketch
    assert sketch_to_json(sketch) == sketch.to_json()


# -- errors: JSON ----------------------------------------------------------------------------------
def _good():
    return json.loads(
        Sketch.from_decisions([["a", "b"], ["b", "b"], ["a", "b"]], truth=["a", "b", "b"]).to_json()
    )


def _with(**changes):
    data = _good()
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        (
            _with(format="evalgebra.sketch/2"),
            r"not an evalgebra sketch: format is 'evalgebra.sketch/2', expected 'evalgebra.sketch/1'",
        ),
        (_with(format=None), r"not an evalgebra sketch: format is None"),
        (_with(comment="hi"), r"unknown keys \['comment'\]; a v1 sketch has"),
        (_with(counts=None), r"sketch JSON lacks 'counts'"),
        (_with(labels="ab"), r"'labels' must be a list of strings"),
        (
            _with(
                counts=[
                    {"decisions": ["a", "b"], "count": 2},
                    {"decisions": ["a", "b"], "count": 0},
                    {"decisions": ["b", "b"], "count": 1},
                ]
            ),
            r"counts: pattern \('a', 'b'\) listed twice",
        ),
        (
            _with(counts=[{"decisions": ["a", "b"], "count": 2, "weight": 1}]),
            r"counts\[0\] must have exactly the keys 'decisions' and 'count'",
        ),
        (
            _with(counts=[{"decisions": "ab", "count": 2}]),
            r"counts\[0\].decisions must be a list of label names",
        ),
        (
            _with(counts=[{"decisions": ["a", "b"], "count": -2}]),
            r"counts\[0\]: counts must be non-negative integers, got -2",
        ),
        (
            _with(counts=[{"decisions": ["a", "b"], "count": 2.0}]),
            r"counts\[0\]: counts must be non-negative integers, got 2.0",
        ),
        (
            _with(counts=[{"decisions": ["a", "b"], "count": True}]),
            r"counts must be non-negative integers, got True",
        ),
        (_with(counts={"ab": 2}), r"counts must be a list of"),
        (
            _with(counts=[{"decisions": ["a", "b"], "count": 1}, {"decisions": ["b", "b"], "count": 1}]),
            r"inconsistent totals: pattern \('a', 'b'\) has count 1 but by_true_label sums to 2",
        ),
        (_with(by_true_label=[]), r"by_true_label must map each true label to a list of counts"),
        (_with(populations={}), r"'populations' must map population names to their counts"),
        ([1, 2], r"a sketch file holds one JSON object"),
    ],
)
def test_read_json_rejects_malformed_sketches(data, message):
    with pytest.raises(SketchError, match=message):
        Sketch.from_json(data if not isinstance(data, list) else io.StringIO(json.dumps(data)))


def test_read_json_rejects_inconsistent_populations_and_bad_text(tmp_path):
    sketch = Sketch.from_decisions([["a", "b"], ["b", "b"]], truth=["a", "b"], population=["p", "q"])
    data = json.loads(sketch.to_json())
    data["populations"]["q"]["counts"] = [{"decisions": ["b", "b"], "count": 2}]
    data["populations"]["q"]["by_true_label"]["b"] = [{"decisions": ["b", "b"], "count": 2}]
    with pytest.raises(
        SketchError, match=r"inconsistent totals: top-level counts differ from the sum of the populations"
    ):
        Sketch.from_json(data)
    data = json.loads(sketch.to_json())
    del data["populations"]["q"]["by_true_label"]
    with pytest.raises(
        SketchError, match=r"populations\['q'\]: by_true_label must be given here iff at the top level"
    ):
        Sketch.from_json(data)
    with pytest.raises(SketchError, match=r"not valid JSON"):
        Sketch.from_json('{"format": ')
    with pytest.raises(SketchError, match=r"cannot read sketch file"):
        Sketch.from_json(str(tmp_path / "missing.json"))


def test_read_json_rejects_labels_that_are_not_a_valid_spec():
    with pytest.raises(EvalgebraError, match=r"labels: need at least 2, got 1"):
        Sketch.from_json(_with(labels=["a"]))
    with pytest.raises(EvalgebraError, match=r"labels: names must be distinct"):
        Sketch.from_json(_with(labels=["a", "a"]))


_name = st.text(min_size=1, max_size=6).filter(lambda s: s != "{")


@given(
    st.lists(_name, min_size=1, max_size=3, unique=True),
    st.lists(_name, min_size=2, max_size=3, unique=True),
    st.lists(_name, min_size=1, max_size=2, unique=True),
    st.integers(1, 20),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_read_json_inverts_to_json_for_any_names(classifiers, labels, populations, n_items, seed, labelled):
    rng = np.random.default_rng(seed)
    n_items = max(n_items, len(populations))
    population = np.concatenate(
        [np.arange(len(populations)), rng.integers(0, len(populations), n_items - len(populations))]
    )
    sketch = Sketch.from_decisions(
        rng.integers(0, len(labels), size=(n_items, len(classifiers))),
        labels=labels,
        classifiers=classifiers,
        truth=rng.integers(0, len(labels), size=n_items) if labelled else None,
        population=population,
        populations=populations,
    )
    assert Sketch.read_json(sketch.to_json()) == sketch


# -- hardening: files, sizes, keys and numbers --------------------------------------------------
def test_read_json_refuses_undecodable_oversized_and_endless_files(tmp_path, monkeypatch):
    import time

    monkeypatch.chdir(tmp_path)  # a short relative name: the message shortens long paths (pytest -n's are)
    bad = Path("bad.json")
    bad.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(
        SketchError,
        match=r"sketch file '.*bad.json' is not UTF-8 text \(byte 0xff at offset 12\); save it as UTF-8",
    ):
        Sketch.read_json(bad)
    good = tmp_path / "good.json"
    sketch = Sketch.from_counts({"ab": 2, "bb": 1}, labels=["a", "b"])
    sketch.write_json(good)
    with pytest.raises(
        SketchError, match=r"is larger than 100 bytes \(MAX_JSON_BYTES\); pass max_bytes= to read it"
    ):
        Sketch.read_json(good, max_bytes=100)
    assert Sketch.read_json(good, max_bytes=10_000) == sketch
    start = time.perf_counter()
    with pytest.raises(SketchError, match=r"not valid JSON: sketch file '/dev/zero' begins with '\\x00'"):
        Sketch.from_json("/dev/zero")
    assert time.perf_counter() - start < 2
    with pytest.raises(
        SketchError, match=r"a sketch is read from a path, a file object, JSON text or a dict; got int"
    ):
        Sketch.from_json(5)


def test_read_json_reads_a_file_whose_name_begins_with_a_brace(tmp_path, monkeypatch):
    sketch = Sketch.from_counts({"ab": 2}, labels=["a", "b"])
    monkeypatch.chdir(tmp_path)
    sketch.write_json("{odd}.json")
    assert Sketch.from_json("{odd}.json") == sketch
    with pytest.raises(SketchError, match=r"not valid JSON"):
        Sketch.from_json("{missing}.json")


def test_read_json_refuses_duplicate_keys_huge_integers_and_deep_nesting():
    text = sketch_to_json(Sketch.from_counts({"ab": 2}, labels=["a", "b"]))
    duplicated = text.replace('"labels": ["a", "b"],', '"labels": ["a", "b"], "labels": ["b", "a"],')
    with pytest.raises(
        SketchError, match=r"duplicate key 'labels' in a JSON object; each key may appear once"
    ):
        Sketch.from_json(duplicated)
    with pytest.raises(SketchError, match=r"a JSON integer of 5000 digits is too large"):
        Sketch.from_json(text.replace('"count": 2', '"count": ' + "9" * 5000))
    with pytest.raises(SketchError, match=r"the JSON is nested too deeply"):
        Sketch.from_json('{"a":' * 100_000 + "1" + "}" * 100_000)
    with pytest.raises(SketchError, match=r"counts must total below 2\^62 \(got an integer of 16610 bits\)"):
        Sketch.from_json(dict(json.loads(text), counts=[{"decisions": ["a", "b"], "count": 10**5000}]))
