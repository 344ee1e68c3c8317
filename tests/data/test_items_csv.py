"""The items-CSV reader: one parser, so any chunk size gives the same sketch or the same error.

The sketches are checked against an independent route: the text parsed whole by the csv
module, trimmed by hand and counted by ``Sketch.from_decisions``.
"""

from __future__ import annotations

import csv
import io
import tracemalloc
from itertools import chain

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evalgebra.data.items_csv as items_csv
from evalgebra.data.items_csv import CHUNK_ROWS, read_items_csv
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError, SketchError

NAMES = ["m1", " m2", "m3 ", "y", "g", "", "1", '"q,r"', "m1"]
CELLS = ["a", "b", " a ", "0", "1", " 1", "10", "", " ", "u", '"a"', '" b "', '"x,y"', '"two\nlines"']


@st.composite
def items_csv_cases(draw: st.DrawFn) -> tuple[str, dict]:
    """CSV text with spaces, quotes, numeric labels, ragged rows, blank lines and odd headers, and options."""
    header = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5))
    if draw(st.integers(0, 3)):  # mostly a sound header, so that the rows get read
        header = draw(st.permutations(["m1", " m2", "y", "g", "m3 "]))[: draw(st.integers(1, 5))]
    width = len(header)
    good = st.sampled_from(["a", "b", " a ", "0", "1", " 1", "10"])
    cell = st.one_of(good, good, good, st.sampled_from(CELLS))
    ragged = st.sampled_from([0] * 12 + [-1, 1]).filter(lambda d: width + d > 0)  # a few rows one field off
    row = ragged.flatmap(lambda d: st.lists(cell, min_size=width + d, max_size=width + d))
    rows = draw(st.lists(st.one_of(*[row] * 8, st.just([])), max_size=10))  # [] is a blank line
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(",".join(r) for r in [header, *rows]) + draw(st.sampled_from(["", end]))
    names = [h.strip() for h in header]

    def column(name: str) -> st.SearchStrategy:  # the header's column, or now and then one it lacks
        return st.sampled_from([None, name, name] if name in names else [None] * 8 + ["zz"])

    labels = st.sampled_from([None, None, ["1", "0"], ["a", "b"], ["0", "1", "10", "a", "b"]])
    options = dict(
        truth=draw(column("y")),
        population=draw(column("g")),
        labels=draw(labels),
        abstain=draw(st.sampled_from([None, "u"])),
        missing=draw(st.sampled_from(["error", "abstain", "drop"])),
    )
    if options["truth"] is not None and options["truth"] == options["population"]:
        options["population"] = None
    return text, options


def _outcome(text: str, **options) -> tuple[Sketch | None, str | None]:
    try:
        return Sketch(*read_items_csv(io.StringIO(text, newline=""), **options)), None
    except EvalgebraError as exc:
        return None, str(exc)


def _by_hand(text: str, truth: str | None, population: str | None, labels, abstain, missing) -> Sketch:
    """The sketch of a sound items CSV, parsed whole and trimmed by hand (the independent route)."""
    records = list(csv.reader(io.StringIO(text, newline="")))
    header = [h.strip() for h in records[0]]
    body = [[cell.strip() for cell in record] for record in records[1:] if record]
    answers = [k for k, h in enumerate(header) if h not in (truth, population)]
    return Sketch.from_decisions(
        [[row[k] or None for k in answers] for row in body],
        classifiers=[header[k] for k in answers],
        truth=None if truth is None else [row[header.index(truth)] for row in body],
        population=None if population is None else [row[header.index(population)] for row in body],
        labels=labels,
        abstain=abstain,
        missing=missing,
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items_csv_cases(), st.integers(1, 4))
def test_chunked_and_whole_reads_give_the_same_sketch_or_the_same_error(case, chunk_rows):
    text, options = case
    whole, whole_error = _outcome(text, **options)
    chunked, chunked_error = _outcome(text, chunk_rows=chunk_rows, **options)
    assert chunked_error == whole_error
    if whole_error is not None:
        assert "\n" not in whole_error
        return
    assert chunked == whole and chunked.missing_report == whole.missing_report
    expected = _by_hand(text, **options)
    assert whole == expected and whole.labels == expected.labels
    assert whole.missing_report == expected.missing_report
    assert Sketch.from_csv(io.StringIO(text, newline=""), **options) == whole


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from('a,\r\n"'), max_size=40), st.integers(1, 5))
def test_lines_are_split_as_readline_splits_them(text, block):
    """Lines come from blocks of text, split at \\n, \\r\\n and \\r as ``readline`` splits them."""
    expected = list(iter(io.StringIO(text, newline="").readline, ""))
    saved = items_csv.BLOCK_CHARS
    items_csv.BLOCK_CHARS = block
    try:
        got = list(chain.from_iterable(items_csv._line_blocks(io.StringIO(text, newline=""))))
    finally:
        items_csv.BLOCK_CHARS = saved
    assert got == expected


# -- the reproducers of issue 21: what --chunk-rows (pandas) read wrong ------------------------------
NUMERIC = "m1,m2,y\n1,1,1\n1,0,1\n0,0,0\n0,1,1\n"


@pytest.mark.parametrize("chunk_rows", [1, 3, CHUNK_ROWS])
def test_numeric_cells_are_label_names_in_the_order_given(chunk_rows):
    table = Sketch(*read_items_csv(io.StringIO(NUMERIC), truth="y", labels=["1", "0"], chunk_rows=chunk_rows))
    assert table.labels == ("1", "0")  # the order given, not positions 1 and 0
    assert table.by_true_label() == {"1": {("1", "1"): 1, ("1", "0"): 1, ("0", "1"): 1}, "0": {("0", "0"): 1}}
    unordered = Sketch(*read_items_csv(io.StringIO(NUMERIC), truth="y", chunk_rows=chunk_rows))
    assert unordered.labels == ("0", "1")  # the sorted names, never renamed a, b
    assert unordered.by_true_label() == table.by_true_label()


@pytest.mark.parametrize("chunk_rows", [1, CHUNK_ROWS])
def test_spaces_around_cells_and_names_are_trimmed(chunk_rows):
    text = " m1 ,m2 , y\n a ,b, a \nb , b,b\n"
    sk = Sketch(*read_items_csv(io.StringIO(text), truth="y", chunk_rows=chunk_rows))
    assert sk.classifiers == ("m1", "m2") and sk.labels == ("a", "b")
    assert sk.by_true_label() == {"a": {("a", "b"): 1}, "b": {("b", "b"): 1}}


@pytest.mark.parametrize("chunk_rows", [1, 2, CHUNK_ROWS])
@pytest.mark.parametrize(
    "text, message",
    [
        ("m1,m2\na,b\nb,a,a\n", "CSV line 3: 3 fields, header has 2"),
        ("m1,m2\na,b\nb\n", "CSV line 3: 1 fields, header has 2"),
        (",m2\na,b\nb,a\n", "CSV column 1 has no name in the header"),
        ("m1, \na,b\nb,a\n", "CSV column 2 has no name in the header"),
    ],
)
def test_extra_fields_and_empty_names_are_refused_alike(chunk_rows, text, message):
    with pytest.raises(SketchError, match=message):
        read_items_csv(io.StringIO(text), chunk_rows=chunk_rows)


@pytest.mark.parametrize("chunk_rows", [1, 2, 3, CHUNK_ROWS])
def test_the_first_error_in_the_file_is_reported_whatever_the_chunks(chunk_rows):
    text = "m1,m2,y\na,b,a\nb,a,b\na,,a\nb,a,b,x\nc,a,b\n"  # missing on line 4, ragged line 5, unknown line 6
    with pytest.raises(SketchError, match=r"^CSV line 4: missing answer in column 'm2'"):
        read_items_csv(io.StringIO(text), truth="y", labels=["a", "b"], chunk_rows=chunk_rows)
    with pytest.raises(SketchError, match=r"^CSV line 5: 4 fields, header has 3"):
        read_items_csv(
            io.StringIO(text), truth="y", labels=["a", "b"], missing="abstain", chunk_rows=chunk_rows
        )
    fixed = text.replace(",x\n", "\n")
    with pytest.raises(SketchError, match=r"^CSV line 6: unknown labels \['c'\] in column 'm1'; labels are"):
        read_items_csv(
            io.StringIO(fixed), truth="y", labels=["a", "b"], missing="abstain", chunk_rows=chunk_rows
        )
    with pytest.raises(SketchError, match=r"^CSV line 3: the true label 'b' is an abstention"):
        read_items_csv(io.StringIO(fixed), truth="y", abstain="b", chunk_rows=chunk_rows)
    with pytest.raises(SketchError, match=r"disagree on item 2 \('a' vs 'b'\); keep one \(CSV line 5\)"):
        read_items_csv(io.StringIO("m,y,y\na,a,a\n\nb,b,b\na,a,b\n"), truth="y", chunk_rows=chunk_rows)


@pytest.mark.parametrize("chunk_rows", [1, 2, 4, CHUNK_ROWS])
def test_distinct_answers_past_the_cap_are_refused_at_their_line(monkeypatch, chunk_rows):
    monkeypatch.setattr(items_csv, "MAX_INFERRED_LABELS", 5)
    text = "id,m\n" + "".join(f"v{k},a\n" for k in range(10))  # responses a, v0, ...: the 6th is on line 6
    with pytest.raises(
        SketchError,
        match=r"^CSV line 6: column 'id' brings the distinct answers past 5: "
        r"it looks like an item ID",
    ):
        read_items_csv(io.StringIO(text), flag_ids=True, chunk_rows=chunk_rows)
    assert Sketch(*read_items_csv(io.StringIO(text), chunk_rows=chunk_rows)).labels[0] == "a"  # no cap asked
    wide = ",".join(f"c{k}" for k in range(40)) + "\n"  # 3^40 codes overflow 64 bits: 2 responses at most
    rows = [["a"] * 40, ["a"] * 5 + ["b"] * 35, ["c"] + ["a"] * 39, ["d"] * 40]
    with pytest.raises(
        SketchError,
        match=r"^CSV line 4: column 'c0' brings the distinct answers to 3: 40 "
        r"classifiers with 3 labels",
    ):
        read_items_csv(io.StringIO(wide + "".join(",".join(r) + "\n" for r in rows)), chunk_rows=chunk_rows)


@pytest.mark.parametrize("chunk_rows", [7, 50, CHUNK_ROWS])
def test_id_columns_are_judged_over_the_whole_file(chunk_rows):
    text = "item,m1,m2\n" + "".join(f"{k},{'ab'[k % 2]},{'ab'[k % 3 == 0]}\n" for k in range(40))
    with pytest.raises(SketchError, match=r"^column 'item' has 40 distinct values in 40 rows: it looks like"):
        read_items_csv(io.StringIO(text), flag_ids=True, chunk_rows=chunk_rows)
    table = read_items_csv(io.StringIO(text), flag_ids=True, ignore=["item"], chunk_rows=chunk_rows)
    assert table.classifiers == ("m1", "m2") and sum(table.count.tolist()) == 40
    assert read_items_csv(io.StringIO(text), classifiers=["m2"], chunk_rows=chunk_rows).classifiers == ("m2",)


def test_options_are_checked_before_the_file_is_read():
    text = "m1,y\na,a\nb,b\n"
    for options, message in [
        ({"chunk_rows": 0}, "chunk_rows must be a positive integer"),
        ({"classifiers": "m1"}, "classifiers must be a list of column names"),
        ({"classifiers": ["m1", "zz"]}, r"CSV has no column\(s\) \['zz'\]"),
        ({"classifiers": ["y"], "truth": "y"}, "'y' is the truth column; it cannot"),
        ({"labels": ["a", "b"], "abstain": "a"}, "named as labels and as abstentions"),
    ]:
        with pytest.raises(SketchError, match=message):
            read_items_csv(io.StringIO(text), **options)


def test_a_whole_file_read_holds_one_chunk_not_the_file():
    rows = 200_000
    text = "m1,m2,m3,y\n" + "a,b,a,b\nb,b,a,a\n" * (rows // 2)
    tracemalloc.start()
    try:
        sk = Sketch(*read_items_csv(io.StringIO(text), truth="y"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sk.Q == rows
    # the text was made before tracing began: what is traced is the reading
    assert peak < 30 * 2**20, f"{peak / 2**20:.0f} MB for {len(text) / 2**20:.0f} MB of text"


@pytest.mark.parametrize("chunk_rows", [1, 2, CHUNK_ROWS])
def test_populations_given_keep_their_order_and_refuse_others(chunk_rows):
    text = "m1,m2,g\na,b,s\nb,b,t\na,a,s\nb,a,u\n"
    known = text.replace("u\n", "t\n")
    sk = Sketch(
        *read_items_csv(io.StringIO(known), population="g", populations=["t", "s"], chunk_rows=chunk_rows)
    )
    assert sk.populations == ("t", "s") and sk.marginalise(["m1", "m2"]).Q == 4
    with pytest.raises(SketchError, match=r"^CSV line 5: unknown populations \['u'\] in column 'g'"):
        read_items_csv(io.StringIO(text), population="g", populations=["t", "s"], chunk_rows=chunk_rows)
