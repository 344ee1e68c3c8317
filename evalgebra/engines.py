r"""External engines (Singular, msolve) and the time limit of a call that names none.

Shared by the Gröbner backends (:mod:`evalgebra.groebner.backends.external`,
:mod:`evalgebra.groebner.runner`) and the runtime's per-sketch solver
(:mod:`evalgebra.evaluators.complete_pairs`), which must not import the Gröbner module.

Examples
--------
>>> import os
>>> os.environ.pop(TIME_LIMIT_VARIABLE, None) and None
>>> default_time_limit()
600.0
>>> engine_binary("no-such-engine", "EVALGEBRA_NO_SUCH_ENGINE") is None
True
"""

from __future__ import annotations

import math
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from evalgebra.errors import SpecError

__all__ = ["DEFAULT_TIME_LIMIT", "TIME_LIMIT_VARIABLE", "default_time_limit", "limit_seconds", "engine_binary"]

#: Seconds a Gröbner computation may run when neither the caller nor the environment names a limit.
DEFAULT_TIME_LIMIT = 600.0
#: The environment variable with the default limit: seconds, or ``none`` for no limit.
TIME_LIMIT_VARIABLE = "EVALGEBRA_TIME_LIMIT"


def default_time_limit() -> float | None:
    """The time limit of a call that names none, in seconds (``None``: no limit).

    ``EVALGEBRA_TIME_LIMIT`` when set (seconds, or ``none``/``off``/``inf``), else
    :data:`DEFAULT_TIME_LIMIT`.
    """
    text = os.environ.get(TIME_LIMIT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TIME_LIMIT
    if text.lower() in ("none", "off", "inf", "infinity"):
        return None
    return limit_seconds(text, f"{TIME_LIMIT_VARIABLE}={text[:40]!r}")


def limit_seconds(value: Any, what: str) -> float:
    """``value`` as a time limit in seconds above 0; ``SpecError`` naming ``what`` otherwise."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if not seconds > 0:  # NaN, zero and negatives
        raise SpecError(f"{what}: not a time limit; accepted: seconds above 0 (e.g. 600), or none for no limit")
    return seconds


def engine_binary(executable: str, variable: str) -> str | None:
    """An engine's executable: ``$variable`` when set, else on ``PATH``, else in a passagemath wheel
    (``site-packages/sage_wheels/bin``); None when none is found."""
    named = os.environ.get(variable)
    if named:
        return named
    found = shutil.which(executable)
    if found:
        return found
    for entry in sys.path:
        candidate = Path(entry) / "sage_wheels" / "bin" / executable
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None
