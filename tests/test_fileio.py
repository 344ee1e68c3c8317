"""Atomic writes: whole files or none, synced, and no temporary files left for long; recorded files are
read back only when their bytes are the ones recorded."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

import evalgebra.fileio as fileio
from evalgebra.fileio import (RECORD_NAME, UnrecordedFile, read_recorded, stale_temporary_files, write_recorded,
                              write_text_atomic)


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def test_write_text_atomic_removes_files_of_killed_writers(tmp_path):
    target = tmp_path / "out.json"
    dead = tmp_path / f".out.json.{_dead_pid()}.x1y2.tmp"
    dead.write_text("half a file")
    alive = tmp_path / f".out.json.{os.getppid()}.z3.tmp"  # a running writer's file stays
    alive.write_text("being written")
    other = tmp_path / f".other.json.{_dead_pid()}.q.tmp"  # another target's file is not ours
    other.write_text("x")
    assert stale_temporary_files(target) == [dead]
    write_text_atomic(target, "{}\n")
    assert target.read_text() == "{}\n"
    assert not dead.exists() and alive.exists() and other.exists()


def test_write_text_atomic_after_a_kill_minus_nine(tmp_path):
    target = tmp_path / "big.txt"
    writer = subprocess.Popen([sys.executable, "-c", (
        "import sys, evalgebra.fileio as f, os\n"
        "f.os.replace = lambda *a: (print('written', flush=True), sys.stdin.read())\n"
        f"f.write_text_atomic({str(target)!r}, 'x' * 100000)\n")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdout.readline().strip() == "written"
    writer.kill()
    writer.wait()
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and not target.exists()
    write_text_atomic(target, "whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]


def test_write_text_atomic_syncs_the_file_and_its_directory(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def record(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(fileio.os, "fsync", record)
    write_text_atomic(tmp_path / "a.txt", "a")
    assert synced == [False, True]


def test_write_text_atomic_leaves_nothing_when_the_write_fails(tmp_path, monkeypatch):
    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_text_atomic(tmp_path / "a.txt", "a")
    assert list(tmp_path.iterdir()) == []


def test_read_recorded_returns_what_write_recorded_wrote_and_nothing_else(tmp_path):
    target = tmp_path / "module.py"
    write_recorded(target, "x = 'é'\n", protocol=3)
    assert read_recorded(target) == ("x = 'é'\n", {"protocol": 3, "sha256": read_recorded(target)[1]["sha256"]})
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

