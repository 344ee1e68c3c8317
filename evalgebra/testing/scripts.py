r"""The repository's scripts (derivations, experiments) loaded as modules, for the tests that run them.

A derivation ``derivations/dNN_*.py`` or an experiment ``experiments/eNN_*.py`` is a script, not a
module of the package, so a test loads it from its file: afresh on every call (each run starts
from the script's own module state), registered in ``sys.modules`` under its name (dataclasses
look their module up there while the script runs). :data:`DERIVATIONS` and :data:`EXPERIMENTS`
are the folders of the source checkout the package is imported from.

Examples
--------
>>> d01 = load_derivation("d01_axioms")
>>> d01.__name__, callable(d01.main)
('d01_axioms', True)
>>> (DERIVATIONS / "results" / "d01_axioms.txt").is_file()
True
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["ROOT", "DERIVATIONS", "EXPERIMENTS", "load_script", "load_derivation"]

#: The source checkout: the folder holding ``evalgebra/``, ``derivations/`` and ``experiments/``.
ROOT = Path(__file__).resolve().parents[2]
#: The derivation scripts and, in ``results/``, their committed outputs.
DERIVATIONS = ROOT / "derivations"
#: The experiment scripts and, in ``results/``, their committed reports.
EXPERIMENTS = ROOT / "experiments"


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The script at ``path`` run as a module named ``name`` (default: the file's stem).

    The module stays in ``sys.modules`` under that name; a script that fails to run is
    taken out again and its error raised.
    """
    module_name = name or path.stem
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def load_derivation(stem: str, name: str | None = None) -> ModuleType:
    """``derivations/<stem>.py`` as a module (see :func:`load_script`); ``name`` defaults to ``stem``."""
    return load_script(DERIVATIONS / f"{stem}.py", name)
