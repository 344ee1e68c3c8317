r"""The one writer of every output path: files replaced whole, devices and FIFOs written in place.

Every file evalgebra writes on request (``-o``, ``--witness``, ``Sketch.write_json``, stream
checkpoints, generated modules, reports) goes through :func:`write_output`, which first asks
what the path names (:func:`output_target`):

- a regular file or a new path is replaced atomically: the text goes to a temporary file beside
  the target (``.NAME.PID.XXXX.tmp``), is flushed and synced, renamed over the target in one
  step, and the directory is synced so the rename itself survives a crash. A writer killed
  half-way leaves only its temporary file; the next write to the same target removes every
  such file whose writer is no longer running;
- a FIFO, a character device (``/dev/null``, ``/dev/full``, a terminal) or ``-`` (standard
  output) is opened and written in place, never replaced: the node stays what it was;
- a symbolic link is followed and its target is written by the rules above; a dangling link
  creates its target when the target's folder exists;
- anything else (a directory, a socket, a block device, a link into a missing folder, a link
  loop) is refused with one line that names the path and what it is.

A failed write (``ENOSPC`` on ``/dev/full``, a read-only folder ...) raises
:class:`~evalgebra.errors.OutputError`, one line; a reader that closed a pipe early raises
:class:`BrokenPipeError` as any write to a pipe does.

:func:`write_recorded` also records the file's SHA-256 (and the writer's fields, e.g. a protocol
number) in the folder's ``MANIFEST.json``, itself written atomically under a lock;
:func:`read_recorded` returns a file's text only when its bytes hash to that record, so a file
evalgebra did not write there, or one changed since, is never taken for its own.

Examples
--------
>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_output(target, "done\n")
>>> target.read_text()
'done\n'
>>> sorted(p.name for p in target.parent.iterdir())
['out.txt']
>>> link = target.parent / "link.txt"
>>> link.symlink_to(target)
>>> write_output(link, "again\n")
>>> link.is_symlink(), target.read_text()
(True, 'again\n')
>>> output_target("/dev/null").kind
'character device'
>>> write_recorded(target, "print('mine')\n", protocol=1)
>>> read_recorded(target)
("print('mine')\n", {'protocol': 1, 'sha256': '...'})
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalgebra.errors import EvalgebraError, OutputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: writers of one folder are not serialised
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "write_output",
    "output_target",
    "OutputTarget",
    "STDOUT",
    "stale_temporary_files",
    "RECORD_NAME",
    "UnrecordedFile",
    "write_recorded",
    "read_recorded",
]

#: The path that names standard output.
STDOUT = "-"

#: What to do instead, said after every refusal.
_ACCEPTED = "name a file (a new one, a regular file, a FIFO or a character device) or '-' (standard output)"

_REFUSED = {stat.S_IFDIR: "a directory", stat.S_IFSOCK: "a socket", stat.S_IFBLK: "a block device"}


@dataclass(frozen=True)
class OutputTarget:
    r"""Where :func:`write_output` puts the text of a path, and how.

    Attributes
    ----------
    path : Path
        The node written: the path itself, or the target of a symbolic link.
    kind : str
        ``"new file"``, ``"regular file"``, ``"FIFO"``, ``"character device"`` or ``"standard output"``.
    link : Path or None
        The symbolic link that was followed, if any.

    Examples
    --------
    >>> output_target("-")
    OutputTarget(path=PosixPath('-'), kind='standard output', link=None)
    """

    path: Path
    kind: str
    link: Path | None = None

    @property
    def in_place(self) -> bool:
        """Whether the node is opened and written in place (FIFO, device, stdout), not replaced."""
        return self.kind in ("FIFO", "character device", "standard output")

    def describe(self) -> str:
        """The path as a message names it: ``PATH``, ``LINK (a symbolic link to PATH)`` or
        ``standard output``.
        """
        if self.kind == "standard output":
            return self.kind
        return str(self.path) if self.link is None else f"{self.link} (a symbolic link to {self.path})"


def _refuse(name: str, what: str) -> OutputError:
    return OutputError(f"cannot write {name}: it is {what}; {_ACCEPTED}")


def _new_file(name: str, path: Path, link: Path | None) -> OutputTarget:
    folder = path.parent
    if folder.is_dir():
        return OutputTarget(path, "new file", link)
    missing = "does not exist" if not os.path.lexists(folder) else "is not a folder"
    if link is None:
        raise OutputError(
            f"cannot write {name}: the folder {folder} {missing}; create it or name another path"
        )
    raise _refuse(name, f"a symbolic link to {path}, whose folder {folder} {missing}")


def output_target(path: str | os.PathLike[str]) -> OutputTarget:
    """What ``path`` names for writing, with a symbolic link followed; refusals raise OutputError.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> output_target(folder / "new.json").kind
    'new file'
    >>> output_target(folder / "missing" / "new.json")  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    evalgebra.errors.OutputError: cannot write .../missing/new.json: the folder .../missing
    does not exist; ...
    """
    name = os.fspath(path)
    if not isinstance(name, str):
        raise OutputError(f"cannot write {name!r}: give the path as text")
    if name == STDOUT:
        return OutputTarget(Path(STDOUT), "standard output")
    if not name:
        raise OutputError(f"cannot write to an empty path; name a file, or {STDOUT} for standard output")
    if name.endswith(("/", os.sep)) and not os.path.isdir(name):
        raise OutputError(
            f"cannot write {name}: a path ending in a slash names a folder, and there is none; " + _ACCEPTED
        )
    given = Path(name)
    try:
        mode = given.lstat().st_mode
    except FileNotFoundError:
        return _new_file(name, given, None)
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {_reason(exc)}") from exc
    node, link = given, None
    if stat.S_ISLNK(mode):
        node, link = Path(os.path.realpath(given)), given
        try:
            mode = node.lstat().st_mode
        except FileNotFoundError:
            return _new_file(name, node, link)
        except OSError as exc:
            raise _refuse(
                name, f"a symbolic link to {node}, which cannot be reached ({_reason(exc)})"
            ) from exc
        if stat.S_ISLNK(mode):  # realpath stops where the links loop
            raise _refuse(name, "a symbolic link that loops back on itself")
    if stat.S_ISREG(mode):
        return OutputTarget(node, "regular file", link)
    if stat.S_ISFIFO(mode):
        return OutputTarget(node, "FIFO", link)
    if stat.S_ISCHR(mode):
        return OutputTarget(node, "character device", link)
    what = _REFUSED.get(stat.S_IFMT(mode), f"a special file (mode {stat.filemode(mode)})")
    raise _refuse(name, what if link is None else f"a symbolic link to {node}, {what}")


def _reason(exc: OSError) -> str:
    """An OSError in words, with what to do about it."""
    text = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{text}; free some space or name another path"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{text}; check its permissions or name another path"
    return f"{text}; name another path"


def write_output(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` by the rules of the module: replace a file, write a node in place.

    Raises
    ------
    OutputError
        The path names what cannot be written (a directory, a socket, a block device, a link
        into a missing folder), or the write failed (no space, no permission ...).
    BrokenPipeError
        A FIFO or standard output whose reader went away.
    """
    target = output_target(path)
    try:
        if target.kind == "standard output":
            sys.stdout.write(text)
            sys.stdout.flush()
        elif target.in_place:
            _write_in_place(target, text.encode("utf-8"))
        else:
            _replace(target.path, text)
    except (BrokenPipeError, OutputError):
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {target.describe()}: {_reason(exc)}") from exc


def _write_in_place(target: OutputTarget, data: bytes) -> None:
    """Open the FIFO or device ``target`` and write ``data`` to it whole (a FIFO waits for a reader)."""
    flags = (
        os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    )
    fd = os.open(target.path, flags)  # no O_CREAT, no O_TRUNC: the node is written, never made or cut
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):  # swapped since output_target looked
            raise OutputError(
                f"cannot write {target.describe()}: it changed from a {target.kind} while being "
                "opened; write again"
            )
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


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
        pid_text = name[len(prefix) :].split(".", 1)[0]
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


def _umask() -> int:
    """The process umask, read without changing it where Linux says it (threads never see it cleared)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0)  # elsewhere: the only portable way to read it
    os.umask(umask)
    return umask


def _take_mode(tmp: str, target: Path) -> None:
    """Give ``tmp`` the permission bits, owner and group of the file it replaces, or a new file's mode."""
    try:
        old = target.stat()
    except OSError:  # a new file: what open() would make
        os.chmod(tmp, 0o666 & ~_umask())
        return
    os.chmod(tmp, stat.S_IMODE(old.st_mode))
    if hasattr(os, "chown"):
        try:
            os.chown(tmp, old.st_uid, old.st_gid)
        except OSError:  # not permitted (not root, not the group's member): the writer's own
            pass


def _replace(target: Path, text: str) -> None:
    """Write ``text`` to the file ``target`` through a temporary file and an atomic rename.

    The temporary file is removed if the write fails; files left by writers that were killed
    are removed on the next write to the same path; the directory is synced after the rename.
    """
    directory = target.parent if str(target.parent) else Path(".")
    for stale in stale_temporary_files(target):
        try:
            stale.unlink()
        except OSError:  # removed by another writer meanwhile, or not ours to remove
            pass
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); give it the mode (and owner) an open() of the
        # target would keep, or the one a new file would get
        _take_mode(tmp, target)
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


#: The file in a folder that records what :func:`write_recorded` wrote there.
RECORD_NAME = "MANIFEST.json"


class UnrecordedFile(EvalgebraError):
    """A file its folder's ``MANIFEST.json`` does not record, or whose bytes changed since it was recorded."""


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
    """Write ``text`` atomically and record its SHA-256, with ``fields``, in the folder's
    ``MANIFEST.json``.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    with _locked(folder):
        write_output(target, text)
        files = _records(folder)
        files[target.name] = {**fields, "sha256": digest}
        write_output(folder / RECORD_NAME, json.dumps({"files": files}, indent=2, sort_keys=True) + "\n")


def read_recorded(path: str | os.PathLike[str]) -> tuple[str, dict[str, Any]]:
    """``(text, record)`` of a file :func:`write_recorded` wrote, its bytes read once and checked.

    Raises :class:`UnrecordedFile` (the message says why, in one line) when the folder's
    ``MANIFEST.json`` has no record of the file or the file's SHA-256 differs from it.
    """
    target = Path(path)
    record = _records(target.parent if str(target.parent) else Path(".")).get(target.name)
    if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
        raise UnrecordedFile(
            f"{target.name} is not recorded in the folder's {RECORD_NAME} (evalgebra did not write it)"
        )
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise UnrecordedFile(f"{target.name} cannot be read: {exc.strerror or exc}") from None
    if hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise UnrecordedFile(
            f"{target.name} changed since evalgebra wrote it (its SHA-256 differs from "
            f"{RECORD_NAME}'s record)"
        )
    try:
        return data.decode("utf-8"), dict(record)
    except UnicodeDecodeError:
        raise UnrecordedFile(f"{target.name} is not UTF-8 text") from None
