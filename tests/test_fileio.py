"""Atomic writes: whole files or none, synced, and no temporary files left for long."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

import evalgebra.fileio as fileio
from evalgebra.fileio import stale_temporary_files, write_text_atomic


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
