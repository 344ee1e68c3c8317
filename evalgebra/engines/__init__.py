r"""External engines (msolve, Singular): where they are, how long they may run, and running them supervised.

Shared by the Gröbner backends (:mod:`evalgebra.groebner.backends.external`,
:mod:`evalgebra.groebner.runner`) and the runtime's per-sketch solver
(:mod:`evalgebra.evaluators.correlated.complete_pairs`), which must not import the Gröbner package; nothing
here imports SymPy. One idea per module:

* :mod:`~evalgebra.engines.binaries`: the executables (a named path, ``PATH``, a passagemath wheel);
* :mod:`~evalgebra.engines.limits`: the time limit of a call that names none (``EVALGEBRA_TIME_LIMIT``);
* :mod:`~evalgebra.engines.supervision`: a run in a scratch folder and a process group of its own,
  both ended on a time-out, an interrupt or the caller's death;
* :mod:`~evalgebra.engines.msolve`, :mod:`~evalgebra.engines.singular`: the two drivers.

Examples
--------
>>> import os
>>> os.environ.pop(TIME_LIMIT_VARIABLE, None) and None
>>> default_time_limit()
600.0
>>> engine_binary("no-such-engine", "EVALGEBRA_NO_SUCH_ENGINE") is None
True
"""

from evalgebra.engines.binaries import (
    MSOLVE_VARIABLE,
    SINGULAR_VARIABLE,
    engine_binary,
    msolve_binary,
    singular_binary,
)
from evalgebra.engines.limits import (
    DEFAULT_TIME_LIMIT,
    LONGEST_LIMIT,
    TIME_LIMIT_VARIABLE,
    default_time_limit,
    finite_limit,
    limit_seconds,
)
from evalgebra.engines.msolve import msolve_groebner, msolve_parametrisation, parse_basis, parse_lists
from evalgebra.engines.singular import run_singular
from evalgebra.engines.supervision import (
    EngineRun,
    EngineTimeout,
    ExternalEngineError,
    die_with_parent,
    end_group,
    release_reaper,
    run_engine,
    start_engine,
    start_reaper,
    watch_group,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "TIME_LIMIT_VARIABLE",
    "LONGEST_LIMIT",
    "MSOLVE_VARIABLE",
    "SINGULAR_VARIABLE",
    "default_time_limit",
    "limit_seconds",
    "finite_limit",
    "engine_binary",
    "msolve_binary",
    "singular_binary",
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
    "msolve_groebner",
    "msolve_parametrisation",
    "parse_basis",
    "parse_lists",
    "run_singular",
]
