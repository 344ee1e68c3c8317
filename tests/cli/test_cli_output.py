"""``sketch -o`` and ``alarm --witness`` keep what they are pointed at (issue 21).

A FIFO is written through (a reader thread takes the text), a character device made in the
test folder with the numbers of ``/dev/null`` or ``/dev/full`` stays a device (``/dev/full``
gives one error line), a symbolic link stays the same link with its target replaced, and a
directory, a socket or a block device is refused in one line. The nodes are made by
:mod:`evalgebra.testing.output_nodes`, never the real ones in ``/dev``.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest

from evalgebra.cli import main
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError
from evalgebra.testing.output_nodes import (
    OUTPUT_KINDS,
    NodeUnavailable,
    check_output_kept,
    make_output_node,
    node_state,
    write_and_observe,
)

ITEMS = "c1,c2,c3\na,a,b\nb,b,b\na,b,a\nb,b,b\n"
#: A trio whose whole ensemble is quiet above accuracy 1/3: it has a witness.
QUIET = {
    "".join(p): 3 + 5 * (len(set(p)) == 1) + (k % 3) for k, p in enumerate(itertools.product("ab", repeat=3))
}


def _node(folder, kind):
    try:
        return make_output_node(folder, kind)
    except NodeUnavailable as exc:
        pytest.skip(str(exc))


def _cli_writer(capsys, argv):
    """A writer for ``write_and_observe``: runs ``main(argv + [path])``; a status-2 line raises."""
    outputs = {}

    def write(path):
        status = main([*map(str, argv), str(path)])
        out, err = capsys.readouterr()
        outputs.update(status=status, out=out, err=err)
        if status == 2:
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("evalgebra: error: "), err
            raise EvalgebraError(lines[0])
        assert status == 0 and "Traceback" not in err, (status, err)

    return write, outputs


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_sketch_output_keeps_every_node_what_it_was(tmp_path, capsys, kind):
    items = tmp_path / "items.csv"
    items.write_text(ITEMS)
    assert main(["sketch", str(items), "-o", str(tmp_path / "reference.json")]) == 0  # a new regular file
    reference = Sketch.read_json(tmp_path / "reference.json")
    capsys.readouterr()
    assert reference.counts() == {("a", "a", "b"): 1, ("b", "b", "b"): 2, ("a", "b", "a"): 1}
    path = _node(tmp_path, kind)
    before = node_state(path)
    write, outputs = _cli_writer(capsys, ["sketch", items, "-o"])
    error, fifo_data = write_and_observe(path, write)
    written = check_output_kept(kind, path, before, error, fifo_data, tmp_path)
    if kind == "standard output":
        written = outputs["out"]
    if written is not None:
        assert Sketch.from_json(written) == reference
    if kind in ("null device", "symlink to null device"):
        assert outputs["status"] == 0 and f"wrote {path}" in outputs["err"]


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_alarm_witness_keeps_every_node_what_it_was(tmp_path, capsys, kind):
    sketch = tmp_path / "sketch.json"
    Sketch.from_counts(QUIET, labels=["a", "b"]).write_json(sketch)
    path = _node(tmp_path, kind)
    before = node_state(path)
    write, outputs = _cli_writer(capsys, ["alarm", sketch, "--min-accuracy", "1/3", "--witness"])
    error, fifo_data = write_and_observe(path, write)
    written = check_output_kept(kind, path, before, error, fifo_data, tmp_path)
    if kind == "standard output":  # the report, then the witness
        written = outputs["out"][outputs["out"].index('{\n  "format"') :]
    if written is not None:
        witness = Sketch.from_json(written)
        assert witness.is_labelled and witness.unlabelled() == Sketch.read_json(sketch)


@pytest.mark.parametrize(
    "device, status, line", [("null device", 0, "wrote "), ("full device", 2, "No space left on device")]
)
def test_sketch_output_onto_a_device_in_a_real_process(tmp_path, device, status, line):
    """The issue's command, as root or not: the device node stays a device."""
    items = tmp_path / "items.csv"
    items.write_text(ITEMS)
    path = _node(tmp_path, device)
    before = os.lstat(path)
    done = subprocess.run(
        [sys.executable, "-m", "evalgebra", "sketch", str(items), "-o", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == status and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and line in lines[0], done.stderr
    after = os.lstat(path)
    assert (after.st_mode, after.st_rdev, after.st_ino) == (before.st_mode, before.st_rdev, before.st_ino)
