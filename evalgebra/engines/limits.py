r"""The time limit of an engine call that names none.

Every external computation (a Gröbner basis through :mod:`evalgebra.groebner.runner`, msolve on a
K5 sketch) is limited in time: by the caller's limit or, when it names none, by
:func:`default_time_limit`.

Examples
--------
>>> import os
>>> os.environ.pop(TIME_LIMIT_VARIABLE, None) and None
>>> default_time_limit()
600.0
>>> limit_seconds("2.5", "--time-limit")
2.5
"""

from __future__ import annotations

import math
import os
from typing import Any

from evalgebra.errors import SpecError

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "LONGEST_LIMIT",
    "TIME_LIMIT_VARIABLE",
    "PROGRESS_VARIABLE",
    "default_time_limit",
    "limit_seconds",
    "finite_limit",
]

#: Seconds a Gröbner computation may run when neither the caller nor the environment names a limit.
DEFAULT_TIME_LIMIT = 600.0
#: The environment variable with the default limit: seconds, or ``none`` for no limit.
TIME_LIMIT_VARIABLE = "EVALGEBRA_TIME_LIMIT"
#: The environment variable that turns progress lines of a long computation on (``1``) or off (``0``)
#: whatever the terminal.
PROGRESS_VARIABLE = "EVALGEBRA_PROGRESS"
#: Seconds (about 30 years) above which a limit is no limit: waits of more overflow the system's timers.
LONGEST_LIMIT = 1e9


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
    return finite_limit(limit_seconds(text, f"{TIME_LIMIT_VARIABLE}={text[:40]!r}"))


def finite_limit(seconds: float) -> float | None:
    """``seconds``, or ``None`` (no limit) above :data:`LONGEST_LIMIT`.

    >>> finite_limit(600.0), finite_limit(1e300)
    (600.0, None)
    """
    return None if seconds > LONGEST_LIMIT else seconds


def limit_seconds(value: Any, what: str) -> float:
    """``value`` as a time limit in seconds above 0; ``SpecError`` naming ``what`` otherwise."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if not seconds > 0:  # NaN, zero and negatives
        raise SpecError(
            f"{what}: not a time limit; accepted: seconds above 0 (e.g. 600), or none for no limit"
        )
    return seconds
