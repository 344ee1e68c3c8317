"""The one writer: files replaced whole (synced, no temporary files left for long), FIFOs and devices
written in place, links followed, everything else refused in one line; recorded files are read back
only when their bytes are the ones recorded."""

from __future__ import annotations

import errno
import io
import os
import stat
import subprocess
import sys

import pytest

import evalgebra.fileio as fileio
from evalgebra.errors import OutputError
from evalgebra.fileio import (
    RECORD_NAME,
    OutputTarget,
    UnrecordedFile,
    output_target,
    read_recorded,
    stale_temporary_files,
    write_output,
    write_recorded,
)
from evalgebra.testing.output_nodes import (
    OLD_TEXT,
    OUTPUT_KINDS,
    WRITTEN_KINDS,
    NodeUnavailable,
    check_output_kept,
    make_output_node,
    node_state,
    write_and_observe,
)

TEXT = '{"written": "é"}\n'


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def test_write_output_removes_files_of_killed_writers(tmp_path):
    target = tmp_path / "out.json"
    dead = tmp_path / f".out.json.{_dead_pid()}.x1y2.tmp"
    dead.write_text("half a file")
    alive = tmp_path / f".out.json.{os.getppid()}.z3.tmp"  # a running writer's file stays
    alive.write_text("being written")
    other = tmp_path / f".other.json.{_dead_pid()}.q.tmp"  # another target's file is not ours
    other.write_text("x")
    assert stale_temporary_files(target) == [dead]
    write_output(target, "{}\n")
    assert target.read_text() == "{}\n"
    assert not dead.exists() and alive.exists() and other.exists()


def test_write_output_after_a_kill_minus_nine(tmp_path):
    target = tmp_path / "big.txt"
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, evalgebra.fileio as f, os\n"
                "f.os.replace = lambda *a: (print('written', flush=True), sys.stdin.read())\n"
                f"f.write_output({str(target)!r}, 'x' * 100000)\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None and writer.stdout.readline().strip() == "written"
    writer.kill()
    writer.wait()
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and not target.exists()
    write_output(target, "whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]


def test_write_output_syncs_the_file_and_its_directory(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def record(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(fileio.os, "fsync", record)
    write_output(tmp_path / "a.txt", "a")
    assert synced == [False, True]


def test_write_output_leaves_nothing_when_the_write_fails(tmp_path, monkeypatch):
    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", fail)
    with pytest.raises(OutputError, match="disk full"):
        write_output(tmp_path / "a.txt", "a")
    assert list(tmp_path.iterdir()) == []


def make_node(folder, kind):
    """``make_output_node``, skipping the test (with the reason) where the system forbids the node."""
    try:
        return make_output_node(folder, kind)
    except NodeUnavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_write_output_keeps_every_node_what_it_was(tmp_path, capsys, kind):
    path = make_node(tmp_path, kind)
    before = node_state(path)
    error, fifo_data = write_and_observe(path, lambda p: write_output(p, TEXT))
    written = check_output_kept(kind, path, before, error, fifo_data, tmp_path)
    if kind == "standard output":
        written = capsys.readouterr().out
    assert written == (TEXT if kind in WRITTEN_KINDS and "device" not in kind else None)


@pytest.mark.parametrize(
    "kind", ["fifo", "null device", "symlink to file", "dangling symlink", "symlink to fifo"]
)
def test_write_output_check_can_fail(tmp_path, kind):
    """The contract rejects a writer that replaces the node, as the one of issue 21 did."""
    path = make_node(tmp_path, kind)
    before = node_state(path)

    def replacing(target):  # the old writer: rename a file over whatever the path is
        (tmp_path / "new").write_text(TEXT)
        os.replace(tmp_path / "new", target)

    error, fifo_data = write_and_observe(path, replacing)
    with pytest.raises(AssertionError):
        check_output_kept(kind, path, before, error, fifo_data, tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "null device", "full device", "existing file", "dangling symlink"])
def test_output_target_says_how_each_node_is_written(tmp_path, kind):
    path = make_node(tmp_path, kind)
    target = output_target(path)
    expected = {
        "fifo": "FIFO",
        "null device": "character device",
        "full device": "character device",
        "existing file": "regular file",
        "dangling symlink": "new file",
    }[kind]
    assert target.kind == expected and target.in_place == (expected in ("FIFO", "character device"))
    if kind == "dangling symlink":
        assert target.link == path and target.path == tmp_path / f"target-of-{path.name}"


def test_write_output_refuses_a_node_swapped_for_a_file_and_keeps_the_file(tmp_path, monkeypatch):
    """A FIFO replaced by a regular file between the look and the open: refused, the file not cut."""
    path = tmp_path / "out.json"
    path.write_text(OLD_TEXT)
    monkeypatch.setattr(fileio, "output_target", lambda p: OutputTarget(path, "FIFO"))
    with pytest.raises(OutputError, match="changed from a FIFO"):
        write_output(path, TEXT)
    assert path.read_text() == OLD_TEXT


def test_write_output_standard_output_errors(monkeypatch):
    class Full(io.StringIO):
        def flush(self):
            raise OSError(errno.ENOSPC, "No space left on device")

    class Gone(io.StringIO):
        def flush(self):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(OutputError, match="^cannot write standard output: No space left on device; free"):
        write_output("-", TEXT)
    monkeypatch.setattr(sys, "stdout", Gone())  # the reader left: the CLI's quiet status 141, not an error
    with pytest.raises(BrokenPipeError):
        write_output("-", TEXT)


def test_write_output_refuses_a_trailing_slash_without_a_folder(tmp_path):
    with pytest.raises(OutputError, match="ending in a slash"):
        write_output(f"{tmp_path / 'new'}/", TEXT)
    assert list(tmp_path.iterdir()) == []


def test_write_output_follows_a_chain_of_links_to_the_last_target(tmp_path):
    (tmp_path / "real.json").write_text(OLD_TEXT)
    (tmp_path / "one").symlink_to("real.json")
    (tmp_path / "two").symlink_to("one")
    write_output(tmp_path / "two", TEXT)
    assert (tmp_path / "two").is_symlink() and (tmp_path / "one").is_symlink()
    assert (tmp_path / "real.json").read_text("utf-8") == TEXT
    assert stat.S_ISREG(os.lstat(tmp_path / "real.json").st_mode)


def test_read_recorded_returns_what_write_recorded_wrote_and_nothing_else(tmp_path):
    target = tmp_path / "module.py"
    write_recorded(target, "x = 'é'\n", protocol=3)
    assert read_recorded(target) == (
        "x = 'é'\n",
        {"protocol": 3, "sha256": read_recorded(target)[1]["sha256"]},
    )
    write_recorded(target, "x = 2\n", protocol=3)  # a rewrite replaces the record
    assert read_recorded(target)[0] == "x = 2\n"
    planted = tmp_path / "planted.py"
    planted.write_text("x = 3\n")
    with pytest.raises(UnrecordedFile, match="planted.py is not recorded"):
        read_recorded(planted)
    target.write_text("x = 2  # changed\n")
    with pytest.raises(UnrecordedFile, match="module.py changed since evalgebra wrote it"):
        read_recorded(target)
    (tmp_path / RECORD_NAME).write_text("{not json")
    with pytest.raises(UnrecordedFile, match="not recorded"):  # an unreadable manifest records nothing
        read_recorded(target)


def _record_many(folder: str, start: int) -> None:
    for k in range(start, start + 15):
        write_recorded(os.path.join(folder, f"f{k}.txt"), f"{k}\n")


def test_write_recorded_from_processes_at_once_keeps_every_record(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_record_many, args=(str(tmp_path), 100 * w)) for w in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    for w in range(4):
        for k in range(100 * w, 100 * w + 15):
            assert read_recorded(tmp_path / f"f{k}.txt")[0] == f"{k}\n"


def test_write_output_keeps_a_replaced_files_mode_owner_and_group(tmp_path):
    target = tmp_path / "private.json"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    group = next((g for g in sorted(os.getgroups()) if g != os.stat(target).st_gid), None)
    if os.geteuid() == 0 and group is None:
        group = 1  # root may give any group
    if group is not None:
        os.chown(target, -1, group)
    before = os.stat(target)
    write_output(target, TEXT)
    after = os.stat(target)
    assert target.read_text("utf-8") == TEXT
    assert stat.S_IMODE(after.st_mode) == 0o600
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)


def test_write_output_gives_a_new_file_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_output(tmp_path / "new.json", TEXT)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640


def test_write_output_refuses_an_empty_path():
    with pytest.raises(OutputError, match="empty path"):
        write_output("", TEXT)
