"""evalgebra merge: sketches of parts of a test add up to the sketch of the whole; mismatches refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from evalgebra.cli import main
from evalgebra.data.sketch import Sketch


def _sketch_file(path: Path, rows: list[list[str]], truth: list[str] | None = None, **options) -> Path:
    path.write_text(Sketch.from_decisions(rows, classifiers=["m1", "m2"], truth=truth, **options).to_json())
    return path


def test_merge_parts_equal_the_whole(tmp_path: Path, capsys) -> None:
    rows = [["a", "b"], ["b", "b"], ["a", "a"], ["b", "a"], ["a", "b"]]
    truth = ["a", "b", "a", "b", "b"]
    parts = [
        _sketch_file(tmp_path / f"p{k}.json", rows[k::2], truth[k::2], labels=["a", "b"]) for k in range(2)
    ]
    out = tmp_path / "all.json"
    assert main(["merge", *map(str, parts), "-o", str(out)]) == 0
    whole = Sketch.from_decisions(rows, classifiers=["m1", "m2"], truth=truth)
    assert Sketch.from_json(out.read_text()) == whole
    assert main(["merge", str(parts[0])]) == 0  # one sketch merges to itself
    assert Sketch.from_json(capsys.readouterr().out) == Sketch.from_json(parts[0].read_text())


def test_merge_reads_stdin_and_refuses_mismatches(tmp_path: Path) -> None:
    first = _sketch_file(tmp_path / "a.json", [["a", "b"], ["b", "b"]])
    run = subprocess.run(
        [sys.executable, "-m", "evalgebra", "merge", "-", str(first)],
        input=first.read_text(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and Sketch.from_json(run.stdout).Q == 4
    other_labels = _sketch_file(tmp_path / "b.json", [["a", "c"], ["c", "c"]])
    labelled = _sketch_file(tmp_path / "c.json", [["a", "b"], ["b", "b"]], truth=["a", "b"])
    for bad, message in ((other_labels, "its labels are ['a', 'c']"), (labelled, "is unlabelled, ")):
        run = subprocess.run(
            [sys.executable, "-m", "evalgebra", "merge", str(first), str(bad)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2
        assert run.stderr.startswith(f"evalgebra: error: cannot merge {bad} into {first}")
        assert message in run.stderr and run.stderr.count("\n") == 1
    run = subprocess.run(
        [sys.executable, "-m", "evalgebra", "merge", str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stderr.startswith("evalgebra: error:")
