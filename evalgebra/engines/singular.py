r"""The Singular driver: a script on standard input, run supervised, its printed lines back.

Singular [1]_ runs quietly (``-q``), without the user's ``.singularrc`` (``--no-rc``) and without
warnings; the script ends with ``quit;``. The run goes through
:func:`~evalgebra.engines.supervision.run_engine` (a scratch folder and a process group of its
own). Writing the script and reading polynomials from the lines is the Gröbner backend's part
(:class:`~evalgebra.groebner.backends.external.SingularBackend`): this module knows text only.

Examples
--------
>>> from evalgebra.engines.binaries import singular_binary
>>> singular_binary() is None or run_singular("print(2 + 3);\nquit;\n", time_limit=60)
['5']

References
----------
.. [1] W. Decker, G.-M. Greuel, G. Pfister, H. Schönemann, "Singular: a computer algebra system
   for polynomial computations".
"""

from __future__ import annotations

from evalgebra.engines.binaries import SINGULAR_VARIABLE, singular_binary
from evalgebra.engines.supervision import ExternalEngineError, run_engine

__all__ = ["run_singular"]


def run_singular(script: str, *, time_limit: float | None = None) -> list[str]:
    """The non-empty lines Singular prints running ``script``; ``ExternalEngineError`` when it is
    missing or fails, :class:`~evalgebra.engines.supervision.EngineTimeout` past ``time_limit`` seconds."""
    binary = singular_binary()
    if binary is None:
        raise ExternalEngineError(
            "Singular is not installed: run make setup (it installs the "
            "passagemath-singular wheel), install Debian's singular, or set "
            f"{SINGULAR_VARIABLE} to its path"
        )
    run = run_engine(
        [binary, "-q", "--no-rc", "--no-warn"],
        stdin=script,
        time_limit=time_limit,
        prefix="evalgebra-singular-",
    )
    return [line.strip() for line in run.stdout.splitlines() if line.strip()]
