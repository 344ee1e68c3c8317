"""evalgebra sketch on an items CSV: whole and --chunk-rows reads are one parser (issue 21 reproducers)."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from evalgebra.cli import main
from evalgebra.data.sketch import Sketch

CHUNKS = ([], ["--chunk-rows", "1"], ["--chunk-rows", "2"])


def _sketch(capsys, *argv: str) -> tuple[int, dict | None, str]:
    status = main(["sketch", *argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


def _tally(doc: dict) -> dict:
    return {
        label: {tuple(c["decisions"]): c["count"] for c in cells}
        for label, cells in doc["by_true_label"].items()
    }


@pytest.mark.parametrize("chunks", CHUNKS)
def test_numeric_label_names_are_names_not_positions(tmp_path, capsys, chunks):
    rows = [("1", "1", "1"), ("1", "0", "1"), ("0", "0", "0"), ("0", "1", "1"), ("1", "1", "0")]
    path = tmp_path / "items.csv"
    path.write_text("m1,m2,y\n" + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    expected: dict[str, Counter] = {}
    for m1, m2, y in rows:  # counted by hand
        expected.setdefault(y, Counter())[(m1, m2)] += 1
    status, doc, err = _sketch(capsys, str(path), "--truth", "y", "--labels", "1,0", *chunks)
    assert status == 0, err
    assert doc["labels"] == ["1", "0"] and _tally(doc) == {y: dict(c) for y, c in expected.items()}
    status, doc, err = _sketch(capsys, str(path), "--truth", "y", *chunks)
    assert status == 0, err
    assert doc["labels"] == ["0", "1"] and _tally(doc) == {y: dict(c) for y, c in expected.items()}


@pytest.mark.parametrize("chunks", CHUNKS)
def test_spaces_around_cells_and_header_names_are_trimmed(tmp_path, capsys, chunks):
    path = tmp_path / "items.csv"
    path.write_text(" m1 , m2,y \n a ,b , a\nb, b,b \n", encoding="utf-8")
    status, doc, err = _sketch(capsys, str(path), "--truth", "y", *chunks)
    assert status == 0, err
    assert doc["classifiers"] == ["m1", "m2"] and doc["labels"] == ["a", "b"]
    assert _tally(doc) == {"a": {("a", "b"): 1}, "b": {("b", "b"): 1}}


@pytest.mark.parametrize(
    "text, says",
    [
        ("m1,m2\na,b\nb,a,b\n", "CSV line 3: 3 fields, header has 2"),
        ("m1,m2\na,b\nb\n", "CSV line 3: 1 fields, header has 2"),
        (",m2,m3\na,b,a\nb,a,b\n", "CSV column 1 has no name in the header"),
    ],
)
def test_extra_fields_and_empty_header_names_are_refused_alike(tmp_path, capsys, text, says):
    path = tmp_path / "items.csv"
    path.write_text(text, encoding="utf-8")
    errors = set()
    for chunks in CHUNKS:
        status, _, err = _sketch(capsys, str(path), *chunks)
        assert status == 2 and err.count("\n") == 1 and says in err, (chunks, err)
        errors.add(err)
    assert len(errors) == 1


def test_standard_input_in_chunks_and_whole(capsys, monkeypatch):
    text = "\ufeffm1,m2,y\r\n1,0,1\r\n0,0,0\r\n"
    outs = []
    for chunks in CHUNKS:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
        status, doc, err = _sketch(capsys, "-", "--truth", "y", "--labels", "1,0", *chunks)
        assert status == 0, err
        outs.append(doc)
    assert outs[0] == outs[1] == outs[2] and outs[0]["classifiers"] == ["m1", "m2"]
    expected = {"1": {("1", "0"): 1}, "0": {("0", "0"): 1}}
    assert Sketch.from_json(json.dumps(outs[0])).by_true_label() == expected


def test_max_input_bytes_no_longer_caps_a_streamed_csv(tmp_path, capsys):
    path = tmp_path / "items.csv"
    path.write_text("m1,m2\n" + "a,b\nb,b\n" * 100, encoding="utf-8")
    status, doc, err = _sketch(capsys, str(path), "--max-input-bytes", "100")
    assert status == 0, err
    assert sum(c["count"] for c in doc["counts"]) == 200
