r"""Writing a derived structure evaluator into a cache folder, recorded so that the runtime will load it.

The runtime (:func:`evalgebra.evaluators.correlated.structure_lookup.find_structure_module`) imports a
module of the cache folder only when the folder's ``MANIFEST.json`` records the file's SHA-256
and a protocol it loads (:func:`evalgebra.fileio.read_recorded`). This is the one place that
writes such modules: ``python -m evalgebra.codegen --spec ... --out DIR`` and ``evalgebra
evaluate --derive`` both come here.

Examples
--------
>>> import tempfile, pathlib
>>> from evalgebra.codegen.structures import derive_structure
>>> from evalgebra.fileio import read_recorded
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> target = write_cached_module(folder, derive_structure(4, [(0, 1)]))
>>> target.name, read_recorded(target)[1]["protocol"] == CACHE_PROTOCOL
('n4_r2_01.py', True)
"""

from __future__ import annotations

from pathlib import Path

from evalgebra.codegen.structure_modules import structure_source
from evalgebra.codegen.structures import StructureForm
from evalgebra.fileio import write_recorded

__all__ = ["CACHE_PROTOCOL", "write_cached_module"]

#: The version of the contract between a cached module and ``evalgebra.generated.structures.common``
#: (names imported, entry points): raised when it changes, so that the runtime refuses modules written
#: for another one. The runtime's side: ``evalgebra.evaluators.correlated.structure_lookup.LOADED_PROTOCOL``.
CACHE_PROTOCOL = 1


def write_cached_module(folder: Path, form: StructureForm) -> Path:
    """Write ``form``'s module into ``folder`` (made if missing) and record it; the path written."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{form.module}.py"
    write_recorded(
        target,
        structure_source(form),
        protocol=CACHE_PROTOCOL,
        generator="evalgebra.codegen.structures",
        structure=[list(subset) for subset in form.structure],
        n_classifiers=form.n_classifiers,
    )
    return target
