r"""File helpers shared by every stage: writes that never leave half a file behind, and files
read back only when they are what evalgebra wrote.

A write goes to a temporary file beside the target (``.NAME.PID.XXXX.tmp``), is flushed and
synced, renamed over the target in one step, and the directory is synced so the rename itself
survives a crash. A writer killed half-way leaves only its temporary file; the next write to
the same target removes every such file whose writer is no longer running.

:func:`write_recorded` also records the file's SHA-256 (and the writer's fields, e.g. a protocol
number) in the folder's ``MANIFEST.json``, itself written atomically under a lock;
:func:`read_recorded` returns a file's text only when its bytes hash to that record, so a file
evalgebra did not write there, or one changed since, is never taken for its own.

Examples
--------
>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_text_atomic(target, "done\n")
>>> target.read_text()
'done\n'
>>> sorted(p.name for p in target.parent.iterdir())
['out.txt']
>>> write_recorded(target, "print('mine')\n", protocol=1)
>>> read_recorded(target)
("print('mine')\n", {'protocol': 1, 'sha256': '...'})
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evalgebra.errors import EvalgebraError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: writers of one folder are not serialised
    fcntl = None  # type: ignore[assignment]

__all__ = ["write_text_atomic", "stale_temporary_files", "RECORD_NAME", "UnrecordedFile", "write_recorded",
           "read_recorded"]

#: The file in a folder that records what :func:`write_recorded` wrote there.
RECORD_NAME = "MANIFEST.json"


class UnrecordedFile(EvalgebraError):
    """A file its folder's ``MANIFEST.json`` does not record, or whose bytes changed since it was recorded."""


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


def _records(folder: Path) -> dict[str, Any]:
    """The ``files`` table of ``folder``'s manifest; empty when there is none or it cannot be read."""
    try:
        manifest = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = manifest.get("files") if isinstance(manifest, dict) else None
    return files if isinstance(files, dict) else {}


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the folder's manifest lock (writers of one folder take turns)."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    with open(folder / f".{RECORD_NAME}.lock", "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def write_recorded(path: str | os.PathLike[str], text: str, **fields: Any) -> None:
    """Write ``text`` atomically and record its SHA-256, with ``fields``, in the folder's ``MANIFEST.json``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    with _locked(folder):
        write_text_atomic(target, text)
        files = _records(folder)
        files[target.name] = {**fields, "sha256": digest}
        write_text_atomic(folder / RECORD_NAME, json.dumps({"files": files}, indent=2, sort_keys=True) + "\n")


def read_recorded(path: str | os.PathLike[str]) -> tuple[str, dict[str, Any]]:
    """``(text, record)`` of a file :func:`write_recorded` wrote, its bytes read once and checked.

    Raises :class:`UnrecordedFile` (the message says why, in one line) when the folder's
    ``MANIFEST.json`` has no record of the file or the file's SHA-256 differs from it.
    """
    target = Path(path)
    record = _records(target.parent if str(target.parent) else Path(".")).get(target.name)
    if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
        raise UnrecordedFile(f"{target.name} is not recorded in the folder's {RECORD_NAME} "
                             "(evalgebra did not write it)")
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise UnrecordedFile(f"{target.name} cannot be read: {exc.strerror or exc}") from None
    if hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise UnrecordedFile(f"{target.name} changed since evalgebra wrote it (its SHA-256 differs from "
                             f"{RECORD_NAME}'s record)")
    try:
        return data.decode("utf-8"), dict(record)
    except UnicodeDecodeError:
        raise UnrecordedFile(f"{target.name} is not UTF-8 text") from None
