r"""File helpers shared by every stage: writes that never leave half a file behind.

A write goes to a temporary file beside the target (``.NAME.PID.XXXX.tmp``), is flushed and
synced, renamed over the target in one step, and the directory is synced so the rename itself
survives a crash. A writer killed half-way leaves only its temporary file; the next write to
the same target removes every such file whose writer is no longer running.

Examples
--------
>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_text_atomic(target, "done\n")
>>> target.read_text()
'done\n'
>>> sorted(p.name for p in target.parent.iterdir())
['out.txt']
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomic", "stale_temporary_files"]


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def stale_temporary_files(target: str | os.PathLike[str]) -> list[Path]:
    """Temporary files of earlier writes to ``target`` whose writer is no longer running.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / ".out.txt.999999999.abcd.tmp").write_text("half")
    >>> [p.name for p in stale_temporary_files(folder / "out.txt")]
    ['.out.txt.999999999.abcd.tmp']
    """
    target = Path(target)
    directory = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    found = []
    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid_text = name[len(prefix):].split(".", 1)[0]
        if pid_text.isascii() and pid_text.isdigit() and not _running(int(pid_text)):
            found.append(entry)
    return sorted(found)


def _sync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # a platform or file system that cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on directories; the rename is done
        pass
    finally:
        os.close(fd)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and an atomic rename.

    The temporary file is removed if the write fails; files left by writers that were killed
    are removed on the next write to the same path; the directory is synced after the rename.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    for stale in stale_temporary_files(target):
        try:
            stale.unlink()
        except OSError:  # removed by another writer meanwhile, or not ours to remove
            pass
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_directory(directory)
