r"""Finding the processes a test started, by a marker in their environment (Linux ``/proc``).

A test that kills a caller sets a unique environment variable (the marker) for it; every process
the caller starts inherits it, so the survivors are exactly the live processes whose initial
environment holds the marker. Zombies (ended, not yet reaped) are not counted.

Examples
--------
>>> marked_processes("EVALGEBRA_NO_SUCH_MARKER_31415") if HAS_PROC else []
[]
>>> wait_for(lambda: True, 1)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["HAS_PROC", "marked_processes", "command_line", "wait_for"]

#: True where processes can be listed through ``/proc`` with their environments.
HAS_PROC = Path("/proc/self/environ").exists()


def marked_processes(marker: str) -> list[int]:
    """The live processes whose environment holds ``marker`` (children inherit it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


def command_line(pid: int) -> str:
    """A process's command line, words joined by spaces ("" when it is gone)."""
    try:
        return (
            (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """True as soon as ``condition()`` holds, polling every 50 ms; its last value after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
