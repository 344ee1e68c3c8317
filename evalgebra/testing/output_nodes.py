r"""Output targets of every kind for the tests of :mod:`evalgebra.fileio` and of the ``-o`` options.

:func:`make_output_node` makes one target of a kind in :data:`OUTPUT_KINDS` in a folder (a
FIFO, a private character device with the numbers of ``/dev/null`` or ``/dev/full``, a link ...),
:func:`node_state` says what a path is (what a write must keep), :class:`FifoReader` drains a
FIFO in a thread, and :func:`output_kinds` is the Hypothesis strategy over the kinds.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> link = make_output_node(folder, "symlink to file")
>>> node_state(link).kind, node_state(link).target_kind
('symlink', 'regular file')
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import stat
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalgebra.errors import EvalgebraError

__all__ = [
    "OUTPUT_KINDS",
    "WRITTEN_KINDS",
    "REFUSED",
    "OLD_TEXT",
    "NodeUnavailable",
    "NodeState",
    "FifoReader",
    "make_output_node",
    "node_state",
    "write_and_observe",
    "check_output_kept",
    "output_kinds",
]

#: Kinds the writer writes (the node keeps its kind; a new path or dangling link gains a file).
WRITTEN_KINDS = (
    "new file",
    "existing file",
    "fifo",
    "null device",
    "full device",
    "symlink to file",
    "symlink to fifo",
    "symlink to null device",
    "dangling symlink",
    "standard output",
)
#: Every kind :func:`make_output_node` makes; those not in :data:`WRITTEN_KINDS` are refused.
OUTPUT_KINDS = WRITTEN_KINDS + (
    "directory",
    "symlink to directory",
    "dangling symlink into nowhere",
    "symlink loop",
    "socket",
    "block device",
    "missing folder",
)

#: What the one-line refusal of each refused kind says the path is.
REFUSED = {
    "directory": "it is a directory",
    "symlink to directory": ", a directory",
    "socket": "it is a socket",
    "block device": "it is a block device",
    "symlink loop": "loops back on itself",
    "dangling symlink into nowhere": "does not exist",
    "missing folder": "does not exist",
}

#: The old contents of every regular file made here (a refusal or a failed write keeps them).
OLD_TEXT = "old contents\n"

_DEVICES = {"null": os.makedev(1, 3), "full": os.makedev(1, 7)}
_KINDS = {
    stat.S_IFREG: "regular file",
    stat.S_IFDIR: "directory",
    stat.S_IFLNK: "symlink",
    stat.S_IFIFO: "fifo",
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
    stat.S_IFSOCK: "socket",
}


class NodeUnavailable(Exception):
    """This system does not let the test make the node (no CAP_MKNOD, a ``nodev`` mount ...)."""


@dataclass(frozen=True)
class NodeState:
    """What a path is: its kind, device numbers, link text, and the same of a link's target."""

    kind: str | None
    device: int | None = None
    link: str | None = None
    target_kind: str | None = None
    target_device: int | None = None


def _kind(path: str | os.PathLike[str]) -> tuple[str | None, int | None]:
    try:
        mode = os.lstat(path)
    except FileNotFoundError:
        return None, None
    kind = _KINDS.get(stat.S_IFMT(mode.st_mode), "other")
    return kind, (mode.st_rdev if kind in ("character device", "block device") else None)


def node_state(path: str | os.PathLike[str]) -> NodeState:
    """The :class:`NodeState` of ``path`` (kind ``None`` where nothing is)."""
    kind, device = _kind(path)
    if kind != "symlink":
        return NodeState(kind, device)
    target_kind, target_device = _kind(os.path.realpath(path))
    return NodeState(kind, None, os.readlink(path), target_kind, target_device)


def _device(path: Path, name: str, block: bool = False) -> None:
    kind = stat.S_IFBLK if block else stat.S_IFCHR
    try:
        os.mknod(path, 0o666 | kind, os.makedev(7, 250) if block else _DEVICES[name])
    except OSError as exc:
        raise NodeUnavailable(f"cannot make a device node here ({exc.strerror}); needs CAP_MKNOD") from exc
    if block:
        return
    try:
        os.close(os.open(path, os.O_WRONLY))
    except OSError as exc:
        raise NodeUnavailable(
            f"a device node made here cannot be opened ({exc.strerror}; a nodev mount or a device cgroup)"
        ) from exc


def _socket(path: Path) -> None:
    short = Path(tempfile.mkdtemp(prefix="s"))  # a socket's path is at most ~107 bytes: bind short, then move
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(short / "s"))
        os.replace(short / "s", path)
    except OSError as exc:
        raise NodeUnavailable(f"cannot make a socket node here ({exc.strerror})") from exc
    finally:
        if (short / "s").exists():
            (short / "s").unlink()
        short.rmdir()


def make_output_node(folder: Path, kind: str, name: str = "out.json") -> Path:
    """Make ``folder/name`` a node of ``kind`` (see :data:`OUTPUT_KINDS`); the path to write.

    Regular files start with :data:`OLD_TEXT`; link targets are beside the link. Raises
    :class:`NodeUnavailable` when the system forbids the node.
    """
    path = folder / name
    target = folder / f"target-of-{name}"
    if kind == "standard output":
        return Path("-")
    if kind == "new file":
        pass
    elif kind == "missing folder":
        path = folder / "no-such-folder" / name
    elif kind == "existing file":
        path.write_text(OLD_TEXT)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind in ("null device", "full device"):
        _device(path, kind.split()[0])
    elif kind == "block device":
        _device(path, "block", block=True)
    elif kind == "directory":
        path.mkdir()
    elif kind == "socket":
        _socket(path)
    elif kind == "symlink loop":
        path.symlink_to(path.name)
    elif kind == "dangling symlink":
        path.symlink_to(target.name)
    elif kind == "dangling symlink into nowhere":
        path.symlink_to(Path("no-such-folder") / target.name)
    elif kind.startswith("symlink to "):
        make_output_node(
            folder,
            {"file": "existing file", "null device": "null device"}.get(
                kind.removeprefix("symlink to "), kind.removeprefix("symlink to ")
            ),
            target.name,
        )
        path.symlink_to(target.name)
    else:
        raise ValueError(f"unknown output kind {kind!r}; known: {', '.join(OUTPUT_KINDS)}")
    return path


class FifoReader:
    """Read a FIFO in a thread while a test writes it (``with FifoReader(path) as reader: ...; reader.data``).

    The FIFO is opened (non-blocking) on entering, so a writer's ``open`` never waits, and a test
    whose write was refused, or that replaced the FIFO, does not hang: on leaving, the thread
    stops and what is left in the pipe is read.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.path.realpath(path)
        self.data = b""
        self._chunks: list[bytes] = []
        self._fd = -1
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def _drain(self) -> bool:
        """Read what the pipe holds; whether the writer has gone (end of file)."""
        while True:
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                return False
            if not chunk:
                return True
            self._chunks.append(chunk)

    def _read(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        while not self._stop.is_set():
            # Linux reports POLLHUP only once a writer has come and gone: a FIFO never opened stays quiet
            for _, events in poller.poll(50):
                if events & select.POLLIN:
                    self._drain()
                if events & select.POLLHUP and self._drain():
                    return

    def __enter__(self) -> FifoReader:
        self._fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self._drain()
        os.close(self._fd)
        self.data = b"".join(self._chunks)


def write_and_observe(path: Path, write: Callable[[Path], Any]) -> tuple[Exception | None, bytes | None]:
    """Run ``write(path)`` with a :class:`FifoReader` on a FIFO (or a link to one).

    Returns the :class:`~evalgebra.errors.EvalgebraError` raised (or None) and the bytes the
    FIFO received (None when the path is no FIFO).
    """
    state = node_state(path)
    fifo = "fifo" in (state.kind, state.target_kind)
    with FifoReader(path) if fifo else contextlib.nullcontext() as reader:
        try:
            write(path)
            error: Exception | None = None
        except EvalgebraError as exc:
            error = exc
    return error, (reader.data if reader is not None else None)


def check_output_kept(
    kind: str, path: Path, before: NodeState, error: Exception | None, fifo_data: bytes | None, folder: Path
) -> str | None:
    """Assert the contract of :func:`evalgebra.fileio.write_output` for a target of ``kind``.

    ``before`` is the :func:`node_state` of ``path`` before the write, ``error`` and ``fifo_data``
    what :func:`write_and_observe` returned. A refused kind must give one line that names the path
    and what it is, and leave the node as it was; a written kind keeps its node kind (a link stays
    the same link). Returns the text written (that of the file or the FIFO), None when nothing
    can be read back (a device, standard output, a refusal).
    """
    after = node_state(path)
    assert not list(folder.rglob("*.tmp")), "a temporary file was left"
    if kind not in WRITTEN_KINDS:
        assert error is not None, f"{kind}: written, not refused"
        assert REFUSED[kind] in str(error) and str(path) in str(error), (kind, str(error))
        assert "\n" not in str(error) and after == before, (kind, before, after)
        return None
    if kind == "full device":
        assert error is not None and "No space left on device" in str(error) and "\n" not in str(error)
        assert after == before and after.kind == "character device", (before, after)
        return None
    assert error is None, (kind, str(error))
    if kind == "new file":
        assert before.kind is None and after.kind == "regular file", after
    elif kind == "dangling symlink":
        assert (
            after.link == before.link and before.target_kind is None and after.target_kind == "regular file"
        )
    else:
        assert after == before, (kind, before, after)
    if "regular file" in (after.kind, after.target_kind):
        assert OLD_TEXT != path.read_text("utf-8")
        return path.read_text("utf-8")
    if fifo_data is not None:
        return fifo_data.decode("utf-8")
    return None


def output_kinds() -> Any:
    """The Hypothesis strategy over :data:`OUTPUT_KINDS` (needs the ``test`` extra)."""
    from hypothesis import strategies as st

    return st.sampled_from(OUTPUT_KINDS)
