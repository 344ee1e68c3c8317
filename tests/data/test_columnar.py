"""Columnar input: parquet files, CSV in chunks and pandas frames give the sketch from_decisions gives."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.columnar import (
    ProgressBar,
    arrow_column,
    choose_columns,
    pandas_column,
)
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

LABELS = ["cat", "dog", "fox"]


def _frame(seed: int, rows: int, n_classifiers: int = 3, n_labels: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    data = {f"m{j}": rng.choice(LABELS[:n_labels], size=rows) for j in range(n_classifiers)}
    data["truth"] = rng.choice(LABELS[:n_labels], size=rows)
    data["id"] = np.arange(rows) + 1000 * seed
    return pd.DataFrame(data)


def _write_dictionary(frame: pd.DataFrame, path: Path, order: list[str]) -> None:
    """Write ``frame`` with every label column dictionary-encoded in the dictionary order ``order``."""
    arrays = {}
    for name in frame.columns:
        if name == "id":
            arrays[name] = pa.array(frame[name].to_numpy())
            continue
        indices = pa.array([order.index(v) for v in frame[name]], type=pa.int32())
        arrays[name] = pa.DictionaryArray.from_arrays(indices, pa.array(order))
    pq.write_table(pa.table(arrays), path, row_group_size=97)


def test_sketch_from_parquet_dictionaries_in_different_orders_counted_by_name(tmp_path: Path) -> None:
    first, second = _frame(1, 500), _frame(2, 300)
    _write_dictionary(first, tmp_path / "a.parquet", ["cat", "dog", "fox"])
    _write_dictionary(second, tmp_path / "b.parquet", ["fox", "cat", "dog"])  # the codes mean other labels
    both = pd.concat([first, second], ignore_index=True)
    expected = Sketch.from_decisions(both[["m0", "m1", "m2"]], truth=both["truth"].to_numpy())
    for chunk_rows in (1, 64, 1 << 20):
        got = Sketch.from_parquet(tmp_path, ignore=["id"], truth="truth", chunk_rows=chunk_rows)
        assert got == expected
    # reading the codes by position (the undocumented fast path) would be wrong here
    codes = [pq.read_table(tmp_path / f"{n}.parquet").column("m0").chunk(0).indices.to_numpy() for n in "ab"]
    by_position = np.bincount(np.concatenate(codes), minlength=3)
    assert by_position.tolist() != [int((both["m0"] == x).sum()) for x in LABELS]


def test_sketch_from_parquet_plain_strings_integers_nulls_and_pandas_categoricals(tmp_path: Path) -> None:
    frame = _frame(3, 400)
    frame.loc[[5, 17, 300], "m1"] = None
    frame.to_parquet(tmp_path / "strings.parquet")
    expected = Sketch.from_decisions(
        frame[["m0", "m1", "m2"]], truth=frame["truth"].to_numpy(), missing="abstain"
    )
    got = Sketch.from_parquet(
        tmp_path / "strings.parquet",
        classifiers=["m0", "m1", "m2"],
        truth="truth",
        missing="abstain",
        chunk_rows=50,
    )
    assert got == expected and got.missing_report == expected.missing_report
    with pytest.raises(SketchError, match="missing answer at item 5, classifier 'm1'"):
        Sketch.from_parquet(tmp_path / "strings.parquet", classifiers=["m0", "m1"], chunk_rows=50)
    cats = frame.astype({c: "category" for c in ("m0", "m1", "m2", "truth")})
    cats.to_parquet(tmp_path / "cats.parquet")
    got = Sketch.from_parquet(
        tmp_path / "cats.parquet", ignore=["id"], truth="truth", missing="drop", chunk_rows=77
    )
    assert got == Sketch.from_decisions(
        frame[["m0", "m1", "m2"]], truth=frame["truth"].to_numpy(), missing="drop"
    )
    positions = pd.DataFrame(np.random.default_rng(0).integers(0, 2, size=(300, 4)), columns=list("wxyz"))
    positions.to_parquet(tmp_path / "ints.parquet")
    got = Sketch.from_parquet(tmp_path / "ints.parquet", chunk_rows=64, labels=["neg", "pos"])
    assert got == Sketch.from_decisions(positions, labels=["neg", "pos"])


def test_sketch_from_parquet_flags_an_id_column_and_bad_input(tmp_path: Path) -> None:
    frame = _frame(4, 200).astype({"id": str})
    frame.to_parquet(tmp_path / "f.parquet")
    with pytest.raises(
        SketchError, match="column 'id' has 200 distinct values in 200 rows: it looks like an item ID"
    ):
        Sketch.from_parquet(tmp_path / "f.parquet", truth="truth")
    with pytest.raises(SketchError, match=r"no column\(s\) \['nope'\]"):
        Sketch.from_parquet(tmp_path / "f.parquet", classifiers=["m0", "nope"])
    with pytest.raises(SketchError, match="no such file or folder"):
        Sketch.from_parquet(tmp_path / "absent.parquet")
    (tmp_path / "junk.parquet").write_text("not parquet")
    with pytest.raises(SketchError, match="cannot read .* as parquet"):
        Sketch.from_parquet(tmp_path / "junk.parquet")
    with pytest.raises(SketchError, match="chunk_rows must be a positive integer"):
        Sketch.from_parquet(tmp_path / "f.parquet", ignore=["id"], chunk_rows=0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6), st.integers(2, 60), st.booleans(), st.sampled_from(["error", "abstain", "drop"])
)
def test_sketch_from_frame_equals_from_decisions(
    seed: int, rows: int, categorical: bool, missing: str
) -> None:
    frame = _frame(seed, rows, n_labels=2)
    if missing != "error" and rows > 3:
        frame.loc[[0, rows - 1], "m2"] = None
    if categorical:
        frame = frame.astype({c: "category" for c in ("m0", "m1", "m2", "truth")})
    labels = LABELS[:2]  # named: two rows may show one label only, and an inferred label set needs two
    expected = Sketch.from_decisions(
        frame[["m0", "m1", "m2"]], truth=frame["truth"].to_numpy(), missing=missing, labels=labels
    )
    assert Sketch.from_frame(frame, ignore=["id"], truth="truth", missing=missing, labels=labels) == expected


def test_sketch_from_frame_categories_in_other_orders_and_unused() -> None:
    frame = _frame(7, 100)
    reordered = frame.copy()
    for name in ("m0", "m1", "m2", "truth"):
        reordered[name] = pd.Categorical(frame[name], categories=["fox", "zebra", "dog", "cat"])
    assert Sketch.from_frame(reordered, ignore=["id"], truth="truth") == Sketch.from_frame(
        frame, ignore=["id"], truth="truth"
    )
    assert "zebra" not in Sketch.from_frame(reordered, ignore=["id"]).labels  # listed but never used


@pytest.mark.parametrize("chunk_rows", [1, 7, 1000])
def test_sketch_from_csv_chunks_equals_from_csv(chunk_rows: int) -> None:
    frame = _frame(9, 150).drop(columns="id")
    frame.loc[3, "m0"] = ""
    text = frame.to_csv(index=False)
    for missing in ("abstain", "drop"):
        expected = Sketch.from_csv(io.StringIO(text), truth="truth", missing=missing)
        got = Sketch.from_csv_chunks(io.StringIO(text), truth="truth", missing=missing, chunk_rows=chunk_rows)
        assert got == expected


def test_sketch_from_csv_chunks_refuses_missing_files_and_columns(tmp_path: Path) -> None:
    with pytest.raises(SketchError, match="no such file"):
        Sketch.from_csv_chunks(tmp_path / "none.csv")
    with pytest.raises(SketchError, match=r"CSV has no column 'y'; columns are \['a', 'b'\]"):
        Sketch.from_csv_chunks(io.StringIO("a,b\nx,y\n"), truth="y")


def test_column_helpers_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    codes, keys = pandas_column(pd.Series(["b", "a", None, "b"]))
    assert [keys[c] if c >= 0 else None for c in codes] == ["b", "a", None, "b"]
    with pytest.raises(SketchError, match="not floats"):
        pandas_column(pd.Series([0.5, 1.0]))
    codes, keys = arrow_column(pa.chunked_array([["x", None], ["y"]]))
    assert codes.tolist() == [0, -1, 1] and keys == ["x", "y"]
    with pytest.raises(SketchError, match="booleans are not labels"):
        arrow_column(pa.array([True]))
    assert choose_columns(["a", "b", "c"], ["c", "a"], None, [None]) == ["c", "a"]
    bar = ProgressBar(10, enabled=True)
    bar.update(4)
    bar.close()
    assert bar.done == 4


def test_progress_plain_line_without_tqdm_and_bar_on_parquet(tmp_path: Path, monkeypatch, capsys) -> None:
    import sys

    import evalgebra.data.columnar as columnar

    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    clock = iter([0.0, 5.0, 10.0, 15.0])
    monkeypatch.setattr(columnar.time, "monotonic", lambda: next(clock))
    bar = ProgressBar(2_000_000, enabled=True)
    bar.update(1_000_000)
    bar.close()
    assert "evalgebra: read 1000000 of 2000000 rows" in capsys.readouterr().err
    monkeypatch.undo()
    _frame(5, 300).to_parquet(tmp_path / "f.parquet")
    Sketch.from_parquet(tmp_path / "f.parquet", ignore=["id"], truth="truth", chunk_rows=100, progress=True)
    assert "300" in capsys.readouterr().err  # tqdm's bar, on standard error


# -- nested Arrow types: refused up front, one line, the column and its type named -------------
#: Leaf types of the nested columns drawn below.
LEAVES = st.sampled_from(["string", "int64", "int8", "large_string", "bool", "float64"])


@st.composite
def nested_types(draw, depth: int = 2):
    """A nested Arrow type that parquet stores: lists (plain, large, fixed-size), structs, maps, nested."""
    leaf = depth == 0 or draw(st.booleans())
    inner = pa.type_for_alias(draw(LEAVES)) if leaf else draw(nested_types(depth - 1))
    kind = draw(st.sampled_from(["list", "large_list", "fixed_size_list", "struct", "map"]))
    if kind == "list":
        return pa.list_(inner)
    if kind == "large_list":
        return pa.large_list(inner)
    if kind == "fixed_size_list":
        return pa.list_(inner, draw(st.integers(1, 3)))
    if kind == "struct":
        return pa.struct([pa.field(f"f{k}", inner) for k in range(draw(st.integers(1, 2)))])
    return pa.map_(pa.string(), inner)


def _nested_frame(kind, rows: int = 6) -> tuple[pd.DataFrame, object]:
    """A flat frame (two classifiers, a truth) and an Arrow column of ``kind`` with values,
    nulls among them."""
    flat = _frame(11, rows, n_classifiers=2, n_labels=2).drop(columns="id")
    values = pa.array([None] * rows, type=kind)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):  # with some values too, not only nulls
        leaf = kind.value_type
        if pa.types.is_string(leaf) or pa.types.is_large_string(leaf):
            values = pa.array([["cat"], None, [], ["dog", "cat"], ["fox"], None][:rows], type=kind)
    return flat, values


@settings(max_examples=40, deadline=None)
@given(
    kind=nested_types(),
    where=st.sampled_from(["classifier", "truth", "ignored"]),
    chunk_rows=st.sampled_from([1, 4, 1 << 20]),
)
def test_sketch_from_parquet_refuses_nested_columns_in_one_line(
    tmp_path_factory, kind, where, chunk_rows
) -> None:
    flat, values = _nested_frame(kind)
    table = pa.Table.from_pandas(flat, preserve_index=False).append_column("deep", values)
    path = tmp_path_factory.mktemp("nested") / "items.parquet"
    pq.write_table(table, path)
    stored = pq.ParquetFile(path).schema_arrow.field("deep").type
    assert stored == kind  # the same type (parquet may rename a list's item field to "element")
    truth = "deep" if where == "truth" else "truth"
    options = {"ignore": ["deep"]} if where == "ignored" else {}
    if where == "ignored":  # picking other columns, as the message says, works
        got = Sketch.from_parquet(path, truth=truth, chunk_rows=chunk_rows, **options)
        assert got == Sketch.from_decisions(flat[["m0", "m1"]], truth=flat["truth"].to_numpy())
        return
    with pytest.raises(SketchError) as refused:
        Sketch.from_parquet(
            path, truth=truth, chunk_rows=chunk_rows, ignore=["truth"] if where == "truth" else None
        )
    message = str(refused.value)
    assert "\n" not in message and f"column 'deep' has the nested type {stored}, not" in message
    assert str(path) in message and "flatten it" in message and "--ignore" in message


def test_nested_columns_refused_in_memory_arrow_and_pandas() -> None:
    """Types parquet cannot hold (unions, dictionaries and run-end encodings of lists) and pandas cells."""
    lists = pa.array([["a"], ["b"], ["a"]])
    arrays = [
        pa.UnionArray.from_sparse(
            pa.array([0, 1, 0], type=pa.int8()), [pa.array(["a", "b", "a"]), pa.array([1, 2, 3])]
        ),
        pa.UnionArray.from_dense(
            pa.array([0, 0, 0], type=pa.int8()),
            pa.array([0, 1, 2], type=pa.int32()),
            [pa.array(["a", "b", "a"])],
        ),
        pa.DictionaryArray.from_arrays(pa.array([0, 1, 0]), pa.array([["a"], ["b"]])),
        pa.RunEndEncodedArray.from_arrays(pa.array([2, 3], type=pa.int32()), pa.array([["a"], ["b"]])),
        pa.chunked_array([lists.slice(0, 1), lists.slice(1)]),
    ]
    for array in arrays:
        with pytest.raises(SketchError, match=r"^column 'm9' has the nested type .*; flatten it"):
            arrow_column(array, "m9")
    with pytest.raises(SketchError, match=r"^a column has the nested type list<item: string>"):
        arrow_column(lists)
    frame = pd.DataFrame(
        {"m0": ["a", "b", "a"], "m1": pd.Series(list(lists.to_pylist()), dtype=pd.ArrowDtype(lists.type))}
    )
    with pytest.raises(SketchError, match=r"^column 'm1' has the nested type list<item: string>"):
        Sketch.from_frame(frame)
    frame["m1"] = lists.to_pylist()  # plain Python lists in an object column
    with pytest.raises(SketchError, match=r"^column 'm1' holds unhashable type: 'list'.*flatten it"):
        Sketch.from_frame(frame)
    assert Sketch.from_frame(frame, ignore=["m1"]) == Sketch.from_decisions(frame[["m0"]])


# -- column names and odd frames (issue 21: KeyError and AttributeError escaped) ---------------------
def test_sketch_from_frame_reads_integer_column_names_as_text() -> None:
    frame = pd.DataFrame({0: ["a", "b", "a"], 1: ["a", "a", "b"], 2: ["b", "b", "b"], 3: ["a", "b", "b"]})
    got = Sketch.from_frame(frame, truth=3)
    assert got.classifiers == ("0", "1", "2")
    assert (
        got
        == Sketch.from_frame(frame, truth="3")
        == Sketch.from_decisions(frame[[0, 1, 2]], truth=frame[3].to_numpy())
    )
    assert Sketch.from_frame(frame, classifiers=[2, 0], ignore=3).classifiers == ("2", "0")
    assert Sketch.from_frame(frame, classifiers="1", ignore=[3, 0, 2]).classifiers == ("1",)


@pytest.mark.parametrize(
    "frame, message",
    [
        (
            pd.DataFrame([["a", "b"]], columns=pd.MultiIndex.from_tuples([("x", "1"), ("x", "2")])),
            r"the columns are a MultiIndex of 2 levels; flatten them first",
        ),
        (pd.DataFrame(), r"the DataFrame has no columns"),
        (pd.DataFrame({"m1": [], "m2": []}), r"the DataFrame has no rows; a sketch needs at least one item"),
        (pd.DataFrame([["a", "b", "a"]], columns=["m", "m", "n"]), r"column name 'm' appears twice"),
        (pd.DataFrame([["a", "b"]], columns=[1, "1"]), r"column name '1' appears twice \(1 and '1'\)"),
        (
            np.array([["a", "b"]]),
            r"expected a pandas DataFrame, got ndarray; for an array of decisions use "
            r"Sketch.from_decisions",
        ),
        ([["a", "b"]], r"expected a pandas DataFrame, got list"),
    ],
)
def test_sketch_from_frame_refuses_odd_frames_in_one_line(frame, message) -> None:
    with pytest.raises(SketchError, match=message):
        Sketch.from_frame(frame)


def test_partial_from_frame_of_no_rows_adds_nothing() -> None:
    from evalgebra.data.columnar import partial_from_frame

    empty, full = pd.DataFrame({"m1": [], "m2": []}), pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]})
    assert Sketch(*partial_from_frame(empty).merge(partial_from_frame(full)).table()) == Sketch.from_frame(
        full
    )


@pytest.mark.parametrize("option", [{"ignore": 3.5}, {"classifiers": {"m1": 1}}, {"ignore": b"m1"}])
def test_choose_columns_takes_names_or_lists_of_names(option) -> None:
    with pytest.raises(SketchError, match="give a column name or a list of them"):
        Sketch.from_frame(pd.DataFrame({"m1": ["a"], "m2": ["b"]}), **option)


def test_sketch_from_frame_refuses_unhashable_cells_and_unprintable_names() -> None:
    with pytest.raises(SketchError, match=r"column 'm1' holds .*: a cell is not a label \(unhashable\)"):
        Sketch.from_frame(pd.DataFrame({"m1": [["a"], "b"], "m2": ["a", "b"]}))
    with pytest.raises(SketchError, match=r"columns: an integer of 16610 bits is too long for a name"):
        Sketch.from_frame(pd.DataFrame({10**5000: ["a", "b"], "m2": ["a", "b"]}))


@pytest.mark.parametrize("labels", [None, ["1", "0"], ["0", "1"]])
@pytest.mark.parametrize("progress", [False, True])
def test_sketch_from_csv_chunks_reads_numeric_labels_as_names(labels, progress, capsys) -> None:
    """Issue 21: numeric label cells were read as label positions (swapped, or renamed a/b)."""
    text = " m1 , m2 ,truth\n1, 0,1\n0,0 ,0\n1,1,1\n0,1,0\n1,1,0\n"
    got = Sketch.from_csv_chunks(
        io.StringIO(text), truth="truth", labels=labels, chunk_rows=2, progress=progress
    )
    rows = [[c.strip() for c in line.split(",")] for line in text.splitlines()[1:]]
    want = Sketch.from_decisions(
        pd.DataFrame([r[:2] for r in rows], columns=["m1", "m2"]), truth=[r[2] for r in rows], labels=labels
    )
    assert got == want == Sketch.from_csv(io.StringIO(text), truth="truth", labels=labels)
    assert set(got.labels) == {"0", "1"}
