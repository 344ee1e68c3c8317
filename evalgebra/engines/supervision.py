r"""External engines run as supervised processes: nothing a run starts or writes outlives it.

An engine runs in a scratch folder of its own (under the temporary folder, ``TMPDIR``) as the
leader of a process group of its own, which the kernel is asked to end when the process that
started it ends (Linux). :func:`run_engine` ends the group and removes the folder on every way
out: a result, a failure, the time limit, ``KeyboardInterrupt``. A caller ended by a signal it
does not handle (``SIGTERM``, ``SIGKILL``) runs no clean-up of its own; for that, a small reaper
process (:func:`start_reaper`), which waits on a pipe whose only write end the caller holds,
sees the pipe close without the word "done", ends the groups it was told about and removes the
folder. It waits in the kernel, so a computation that holds the interpreter cannot delay it.

The Gröbner runner (:mod:`evalgebra.groebner.runner`) guards its forked children with the same
reaper, so an engine a backend starts inside the runner's child is guarded twice.

Examples
--------
>>> import sys
>>> run = run_engine([sys.executable, "-c", "print(open('in.txt').read().upper())"],
...                  inputs={"in.txt": "done"}, time_limit=60)
>>> run.stdout
'DONE\n'
>>> try:
...     run_engine([sys.executable, "-c", "import time; time.sleep(30)"], time_limit=0.2)
... except EngineTimeout as timeout:
...     print(str(timeout).split(" ", 1)[1])
did not finish within 0.2 s
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalgebra.errors import EvalgebraError

__all__ = [
    "ExternalEngineError",
    "EngineTimeout",
    "EngineRun",
    "run_engine",
    "start_engine",
    "die_with_parent",
    "end_group",
    "start_reaper",
    "watch_group",
    "release_reaper",
]

_DONE = b"x"  # what a caller that cleaned up itself writes to its reaper before closing the pipe


class ExternalEngineError(EvalgebraError):
    """An external engine failed, printed something that could not be read, or is not installed."""


class EngineTimeout(ExternalEngineError):
    """An external engine did not finish within its time limit (it was ended, with its folder)."""


@dataclass(frozen=True)
class EngineRun:
    """What a finished engine left: its standard output and the text of the files asked for.

    Attributes
    ----------
    stdout : str
        The engine's standard output.
    files : dict
        File name -> text of each output file asked for.
    """

    stdout: str
    files: dict[str, str]


_PR_SET_PDEATHSIG = 1


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name, use_errno=True) if name else None
    except OSError:
        return None


_LIBC = _libc()


def die_with_parent() -> None:  # pragma: no cover - runs in the engine process before exec
    """Ask the kernel (Linux) to end this process when the process that started it ends."""
    if _LIBC is not None and hasattr(_LIBC, "prctl"):
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def start_engine(argv: Sequence[str], cwd: str) -> subprocess.Popen[str]:
    """Start an engine process that leads a process group of its own and dies with the process that
    started it (on Linux). Its standard streams are pipes of text; read them with ``communicate``."""
    posix = os.name == "posix"
    return subprocess.Popen(  # noqa: S603 - argv is the engine binary and fixed flags
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        preexec_fn=die_with_parent if posix else None,
        process_group=0 if posix else None,
    )


def end_group(pid: int) -> None:
    """End a process and everything in its process group (``SIGKILL``); nothing when it is gone."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:  # not (yet) a group leader: end the process alone
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # already gone
            pass


def start_reaper(scratch: str, group: int | None = None) -> tuple[int, int]:
    """Fork a process that cleans up if the caller dies: ``(its pid, the write end of its pipe)``.

    The reaper reads its pipe until the caller closes it. Ending with the byte ``x`` (written by
    :func:`release_reaper`) means the caller cleaned up itself. Otherwise the caller was killed:
    the reaper ends ``group`` and every group :func:`watch_group` named, and removes ``scratch``.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the reaper, which leaves by os._exit
        try:
            os.setpgrp()  # out of the caller's group, so a signal to the group does not end it
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.close(write_end)
            received = bytearray()
            while chunk := os.read(read_end, 4096):
                received += chunk
            if not received.endswith(_DONE):
                named = [int(word) for word in received.split() if word.isdigit()]
                for leader in ([group] if group is not None else []) + named:
                    end_group(leader)
                shutil.rmtree(scratch, ignore_errors=True)
        finally:
            os._exit(0)
    os.close(read_end)
    return pid, write_end


def watch_group(pipe: int, pid: int) -> None:
    """Tell a reaper (by the write end of its pipe) to end the process group ``pid`` if the caller dies."""
    os.write(pipe, f"{pid}\n".encode("ascii"))


def release_reaper(reaper: int, pipe: int) -> None:
    """Tell a reaper that the caller cleaned up itself, and wait for it to leave."""
    os.write(pipe, _DONE)
    os.close(pipe)
    os.waitpid(reaper, 0)


def run_engine(
    argv: Sequence[str],
    *,
    stdin: str | None = None,
    inputs: Mapping[str, str] | None = None,
    outputs: Sequence[str] = (),
    time_limit: float | None = None,
    prefix: str = "evalgebra-engine-",
    hint: str = "",
) -> EngineRun:
    """Run an engine in a scratch folder of its own, supervised (see the module's docstring).

    ``inputs`` (file name -> text) are written into the folder first, the engine runs there (so
    ``argv`` names them relatively) with ``stdin`` on its standard input, and the ``outputs`` it
    wrote are read back before the folder is removed. ``time_limit`` in seconds (``None``: none);
    ``hint`` says how to raise it in the :class:`EngineTimeout` message. A failure (exit status
    other than 0, an output not written) raises :class:`ExternalEngineError`.
    """
    name = Path(argv[0]).name
    folder = tempfile.mkdtemp(prefix=prefix)
    reaper, pipe = start_reaper(folder)
    process: subprocess.Popen[str] | None = None
    try:
        for file_name, text in (inputs or {}).items():
            Path(folder, file_name).write_text(text, encoding="utf-8")
        try:
            process = start_engine(argv, folder)
        except OSError as exc:
            raise ExternalEngineError(f"cannot start {name}: {exc.strerror or exc}") from None
        watch_group(pipe, process.pid)
        try:
            out, err = process.communicate(stdin, timeout=time_limit)
        except subprocess.TimeoutExpired:
            how = f" ({hint})" if hint else ""
            raise EngineTimeout(f"{name} did not finish within {time_limit:g} s{how}") from None
        if process.returncode != 0:
            said = " ".join(err.split())[:500]
            raise ExternalEngineError(f"{name} failed (exit {process.returncode}): {said}")
        files = {}
        for file_name in outputs:
            try:
                files[file_name] = Path(folder, file_name).read_text(encoding="utf-8")
            except OSError:
                raise ExternalEngineError(f"{name} finished without writing {file_name}") from None
        return EngineRun(out, files)
    finally:
        if process is not None:
            if process.poll() is None:  # a time-out, an interrupt: end the engine and all it started
                end_group(process.pid)
                process.wait()
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        shutil.rmtree(folder, ignore_errors=True)
        release_reaper(reaper, pipe)
