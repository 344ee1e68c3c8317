"""Helpers the benchmarks share: best-of-k timing and checks that ``python -O`` keeps.

Benchmarks import it as ``from _timing import ...``: their folder is on ``sys.path`` both when
run as scripts and through ``benchmarks/run.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

__all__ = ["best_time", "check"]


def check(condition: bool, message: str) -> None:
    """An assertion that ``python -O`` keeps."""
    if not condition:
        raise AssertionError(message)


def best_time(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result
