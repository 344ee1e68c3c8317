"""evalgebra sketch --abstain/--missing: abstentions from a CSV with gaps, reports, refusals."""

from __future__ import annotations

import json

from evalgebra.cli import main

CSV = "j1,j2,j3,y\npass,pass,fail,pass\nfail,,fail,fail\npass,unsure,pass,pass\npass,fail,unsure,pass\n"


def _write(tmp_path):
    path = tmp_path / "items.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


def test_sketch_missing_error_names_the_options(tmp_path, capsys):
    assert main(["sketch", str(_write(tmp_path)), "--truth", "y"]) == 2
    err = capsys.readouterr().err
    assert "missing answer in column 'j2'; pass --missing abstain" in err and "--missing drop" in err


def test_sketch_abstain_and_missing_abstain_count_every_item(tmp_path, capsys):
    assert (
        main(["sketch", str(_write(tmp_path)), "--truth", "y", "--abstain", "unsure", "--missing", "abstain"])
        == 0
    )
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["abstain"] == ["unsure"] and sum(c["count"] for c in data["counts"]) == 4
    assert "missing answers: 1 in 1 of 4 items (j2 1), counted as the abstention 'unsure'" in err


def test_sketch_missing_drop_says_how_many(tmp_path, capsys):
    assert (
        main(["sketch", str(_write(tmp_path)), "--truth", "y", "--abstain", "unsure", "--missing", "drop"])
        == 0
    )
    out, err = capsys.readouterr()
    assert sum(c["count"] for c in json.loads(out)["counts"]) == 3 and "1 items dropped" in err


def test_sketch_value_outside_labels_is_refused_naming_abstain(tmp_path, capsys):
    assert (
        main(
            ["sketch", str(_write(tmp_path)), "--truth", "y", "--labels", "pass,fail", "--missing", "abstain"]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "unknown labels ['unsure']" in err and "name them with --abstain NAME" in err
    assert (
        main(
            [
                "sketch",
                str(_write(tmp_path)),
                "--truth",
                "y",
                "--labels",
                "pass,fail",
                "--abstain",
                "unsure",
                "--missing",
                "abstain",
            ]
        )
        == 0
    )
