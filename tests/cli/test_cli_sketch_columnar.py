"""evalgebra sketch on parquet files and in chunks, --classifiers/--ignore/--labels, ID columns flagged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalgebra.cli import main
from evalgebra.data.sketch import Sketch

pytest.importorskip("pyarrow")


def _frame(rows: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"item": np.arange(rows)})
    for name in ("m1", "m2", "m3"):
        frame[name] = rng.choice(["pos", "neg"], size=rows)
    frame["y"] = rng.choice(["pos", "neg"], size=rows)
    return frame


def _sketch(capsys) -> Sketch:
    return Sketch.from_json(capsys.readouterr().out)


def test_sketch_parquet_folder_csv_and_chunks_agree(tmp_path: Path, capsys) -> None:
    frame = _frame()
    frame.to_csv(tmp_path / "items.csv", index=False)
    folder = tmp_path / "parts"
    folder.mkdir()
    for k, piece in enumerate(np.array_split(np.arange(len(frame)), 3)):
        part = frame.iloc[piece].astype({"m1": "category", "y": "category"})
        part["m1"] = part["m1"].cat.reorder_categories(["pos", "neg"] if k % 2 else ["neg", "pos"])
        part.to_parquet(folder / f"{k}.parquet")
    expected = Sketch.from_decisions(frame[["m1", "m2", "m3"]], truth=frame["y"].to_numpy())
    for argv in (
        ["sketch", str(tmp_path / "items.csv"), "--ignore", "item", "--truth", "y"],
        ["sketch", str(folder), "--ignore", "item", "--truth", "y", "--chunk-rows", "50"],
        [
            "sketch",
            str(folder / "0.parquet"),
            "--classifiers",
            "m1,m2",
            "--classifiers",
            "m3",
            "--truth",
            "y",
        ],
        [
            "sketch",
            str(tmp_path / "items.csv"),
            "--classifiers",
            "m1,m2,m3",
            "--truth",
            "y",
            "--chunk-rows",
            "7",
            "--labels",
            "neg,pos",
        ],
    ):
        assert main(argv) == 0
        got = _sketch(capsys)
        assert got == (
            expected
            if "0.parquet" not in argv[1]
            else Sketch.from_decisions(
                frame.iloc[:134][["m1", "m2", "m3"]], truth=frame["y"].to_numpy()[:134]
            )
        )


def test_sketch_flags_an_id_column_instead_of_counting_it(tmp_path: Path) -> None:
    frame = _frame(300)
    frame.to_csv(tmp_path / "items.csv", index=False)
    frame.astype({"item": str}).to_parquet(tmp_path / "items.parquet")
    for path in ("items.csv", "items.parquet"):
        run = subprocess.run(
            [sys.executable, "-m", "evalgebra", "sketch", str(tmp_path / path), "--truth", "y"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.startswith("evalgebra: error: column 'item' has 300 distinct values in 300 rows")
        assert "--ignore" in run.stderr and run.stderr.count("\n") == 1


def test_sketch_columnar_options_refuse_bad_input(tmp_path: Path) -> None:
    frame = _frame(50)
    frame.to_parquet(tmp_path / "items.parquet")
    cases = [
        (["--ignore", "item", "--labels", "pos"], "--labels 'pos': give at least two distinct label names"),
        (["--ignore", "item", "--labels", "pos,other"], "unknown labels ['neg']"),
        (["--classifiers", "m1,nope"], "no column(s) ['nope']"),
        (["--ignore", "item", "--truth", "y", "--chunk-rows", "0"], "chunk_rows must be a positive integer"),
    ]
    for extra, message in cases:
        run = subprocess.run(
            [sys.executable, "-m", "evalgebra", "sketch", str(tmp_path / "items.parquet"), *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2, extra
        assert message in run.stderr and run.stderr.startswith("evalgebra: error:")


def test_sketch_stdin_in_chunks(tmp_path: Path) -> None:
    frame = _frame(120)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "evalgebra",
            "sketch",
            "-",
            "--ignore",
            "item",
            "--truth",
            "y",
            "--chunk-rows",
            "16",
        ],
        input=frame.to_csv(index=False),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0
    assert Sketch.from_json(run.stdout) == Sketch.from_decisions(
        frame[["m1", "m2", "m3"]], truth=frame["y"].to_numpy()
    )


@pytest.mark.parametrize("kind", ["list", "large_list", "struct", "map"])
def test_sketch_refuses_a_nested_parquet_column_in_one_line(tmp_path: Path, kind: str) -> None:
    """Issue: list or struct columns ended in a traceback
    (ArrowNotImplementedError from dictionary_encode)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = _frame(30).drop(columns="item")
    cells = [["pos"], ["neg", "pos"], None] * 10
    deep = {
        "list": pa.array(cells),
        "large_list": pa.array(cells, type=pa.large_list(pa.string())),
        "struct": pa.array([None if c is None else {"first": c[0]} for c in cells]),
        "map": pa.array(
            [None if c is None else [("first", c[0])] for c in cells], type=pa.map_(pa.string(), pa.string())
        ),
    }[kind]
    pq.write_table(
        pa.Table.from_pandas(frame, preserve_index=False).append_column("deep", deep),
        tmp_path / "items.parquet",
    )
    command = [sys.executable, "-m", "evalgebra", "sketch", str(tmp_path / "items.parquet"), "--truth", "y"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("evalgebra: error: ")
    assert f"column 'deep' has the nested type {kind}<" in run.stderr and "flatten it" in run.stderr
    run = subprocess.run([*command, "--ignore", "deep"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0
    expected = Sketch.from_decisions(frame[["m1", "m2", "m3"]], truth=frame["y"].to_numpy())
    assert Sketch.from_json(run.stdout) == expected
