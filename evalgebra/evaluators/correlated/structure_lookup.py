r"""Which generated evaluator evaluates a correlation structure: the atlas and the module lookup.

A correlation structure (the hypergraph of classifier subsets whose error correlations are
free, :class:`~evalgebra.spec.EnsembleSpec`) is evaluated by a *generated module*: the
eliminant of the evaluation ideal in the prevalence of the first label and the
back-substitution of every other unknown, derived once per structure by
``python -m evalgebra.codegen --spec ...``. Modules come from two places:

* the package, :mod:`evalgebra.generated.structures` (``n{N}_r{R}_{name}.py``), whose
  ``INDEX.json`` also lists the structures of the identifiability atlas with their dimension
  (a structure of positive dimension is refused: it is not identifiable);
* the user's cache folder, ``$EVALGEBRA_CACHE`` if set, else ``~/.cache/evalgebra/structures``,
  where ``python -m evalgebra.codegen --spec ... --out DIR`` and ``evaluate --derive`` write.
  A module there is imported only when the folder's ``MANIFEST.json``, which those writers keep,
  records its SHA-256 and a protocol this runtime loads (:data:`LOADED_PROTOCOL`): the file's
  bytes are read once, checked, and those bytes run. Any other file there (planted, changed,
  written for another protocol) is never run; a structure it would serve is missing, and the
  message names the file and why (``evaluate --derive`` writes a recorded one over it).

Every module carries the interface it was written for, its own ``PROTOCOL``
(:data:`~evalgebra.generated.runtime.PROTOCOL`, which the generator writes). A module of another
protocol, the package's or the cache folder's, is refused, never guessed at: the structure is
missing, the message says which file and what to run (``evaluate --derive`` regenerates it into
the cache folder; a stale packaged module is a stale checkout: ``python -m evalgebra.codegen
--write``).

A module serves every structure isomorphic to its own: the classifiers are renamed by a
hypergraph isomorphism (:func:`~evalgebra.structures.isomorphism`) and the counts permuted
to the module's classifier order. Structures are read and written by :mod:`evalgebra.structures`.

Examples
--------
>>> find_structure_module(((2, 3),), 4, 2).sigma
(2, 3, 0, 1)
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from evalgebra.errors import SpecError
from evalgebra.fileio import RECORD_NAME, UnrecordedFile, read_recorded
from evalgebra.generated.runtime import PROTOCOL as MODULE_PROTOCOL
from evalgebra.structures import Structure, isomorphism, parse_structure, structure_text

__all__ = [
    "CACHE_VARIABLE",
    "LOADED_PROTOCOL",
    "AtlasEntry",
    "StructureMatch",
    "cache_dir",
    "atlas_entries",
    "find_structure_module",
    "available_structures",
    "MissingStructureModule",
]

#: The environment variable naming the folder searched for generated structure modules.
CACHE_VARIABLE = "EVALGEBRA_CACHE"
#: The protocol of the cached modules this runtime loads: the contract with
#: ``evalgebra.generated.structures.common`` that the generator records with each module it writes
#: (``evalgebra.codegen.cache.CACHE_PROTOCOL``; a test checks that they agree).
LOADED_PROTOCOL = 1

_PACKAGE = "evalgebra.generated.structures"
_MODULE_NAME = re.compile(r"^n(\d+)_r(\d+)_[A-Za-z0-9_]+\.py$")


def cache_dir() -> Path:
    """The folder searched for user-generated modules: ``$EVALGEBRA_CACHE``, else
    ``~/.cache/evalgebra/structures``."""
    value = os.environ.get(CACHE_VARIABLE)
    return Path(value).expanduser() if value else Path.home() / ".cache" / "evalgebra" / "structures"


@dataclass(frozen=True)
class AtlasEntry:
    r"""One structure of the identifiability atlas (``generated/structures/INDEX.json``).

    Attributes
    ----------
    n_classifiers, n_labels : int
    structure : tuple of tuple of int
    dimension : int or None
        Dimension of the family of evaluations explaining a generic sketch (0: finitely many).
    points : int or None
        Number of evaluations when finite.
    module : str or None
        The generated module's name in :mod:`evalgebra.generated.structures`, if committed.
    """

    n_classifiers: int
    n_labels: int
    structure: Structure
    dimension: int | None
    points: int | None
    module: str | None

    @property
    def finite(self) -> bool:
        return self.dimension == 0


def _first(row: dict[str, Any], *keys: str) -> Any:
    return next((row[k] for k in keys if k in row), None)


def _entry(row: dict[str, Any]) -> AtlasEntry | None:
    n, r = _first(row, "N", "n_classifiers"), _first(row, "R", "n_labels")
    raw = _first(row, "structure")
    if n is None or r is None or raw is None:
        return None
    if isinstance(raw, str):  # "01 23" (the atlas's code) or "0-1,2-3"
        structure = parse_structure(raw, int(n), code=True)
    else:
        structure = tuple(sorted((tuple(sorted(int(i) for i in s)) for s in raw), key=lambda s: (len(s), s)))
    dim = _first(row, "dim", "dimension")
    finite = _first(row, "finite")
    if dim is None and finite is not None:
        dim = 0 if finite else None
    return AtlasEntry(
        int(n),
        int(r),
        structure,
        None if dim is None else int(dim),
        _first(row, "points"),
        _first(row, "module"),
    )


@functools.lru_cache(maxsize=1)
def atlas_entries() -> tuple[AtlasEntry, ...]:
    """Every structure listed in the package's ``generated/structures/INDEX.json`` (empty when absent)."""
    path = Path(__file__).resolve().parents[2] / "generated" / "structures" / "INDEX.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    rows: Any = (
        document.get("structures", document.get("entries", [])) if isinstance(document, dict) else document
    )
    if not isinstance(rows, list):
        return ()
    entries = (_entry(row) for row in rows if isinstance(row, dict))
    return tuple(e for e in entries if e is not None)


class MissingStructureModule(SpecError):
    r"""A structure that may be identifiable but has no generated evaluator yet (a :class:`SpecError`).

    Attributes ``structure``, ``n_classifiers`` and ``n_labels`` say what to derive (the command
    line derives it into :func:`cache_dir` with ``evaluate --derive``).

    Examples
    --------
    >>> error = MissingStructureModule("no evaluator", ((0, 1),), 5, 2)
    >>> isinstance(error, SpecError), error.structure, error.n_classifiers
    (True, ((0, 1),), 5)
    """

    def __init__(self, message: str, structure: Structure, n_classifiers: int, n_labels: int) -> None:
        super().__init__(message)
        self.structure = structure
        self.n_classifiers = n_classifiers
        self.n_labels = n_labels


@dataclass(frozen=True)
class StructureMatch:
    r"""A generated module that evaluates a structure, and the renaming that maps onto it.

    Attributes
    ----------
    module : module
        ``N_CLASSIFIERS``, ``N_LABELS``, ``STRUCTURE``, ``DEGREE``, ``UNKNOWNS``,
        ``eliminant(counts)``, ``back_substitute(counts, prevalence)``.
    sigma : tuple of int
        ``sigma[i]``: the module's index of the user's classifier ``i``.
    structure : tuple of tuple of int
        The user's structure (canonical).
    origin : str
        Where the module came from (package module name or file path).
    """

    module: Any
    sigma: tuple[int, ...]
    structure: Structure
    origin: str

    @property
    def inverse(self) -> tuple[int, ...]:
        """``inverse[m]``: the user's classifier at the module's index ``m``."""
        out = [0] * len(self.sigma)
        for i, m in enumerate(self.sigma):
            out[m] = i
        return tuple(out)


def _stale(module: ModuleType) -> str | None:
    """Why a module is not loaded: written for another interface than this runtime's (its ``PROTOCOL``);
    None when it is current."""
    found = getattr(module, "PROTOCOL", None)
    if found == MODULE_PROTOCOL:
        return None
    written = "before module protocols" if found is None else f"for module protocol {found!r}"
    return f"was written {written}; this evalgebra loads module protocol {MODULE_PROTOCOL}"


@functools.cache
def _packaged_or_stale(name: str) -> ModuleType | str | None:
    """The package's module ``name``; why it is refused (text) when stale; None when it is missing."""
    try:
        module = importlib.import_module(f"{_PACKAGE}.{name}")
    except ImportError:
        return None
    reason = _stale(module)
    if reason is None:
        return module
    return f"{_PACKAGE}.{name} {reason} (a stale checkout: run python -m evalgebra.codegen --write)"


def _packaged(name: str) -> ModuleType | None:
    found = _packaged_or_stale(name)
    return found if isinstance(found, ModuleType) else None


def _module_from_source(path: Path, source: str) -> ModuleType | None:
    """The module that ``source`` (the checked bytes of ``path``) defines; None when it fails to run."""
    spec = importlib.util.spec_from_loader(
        f"evalgebra_cache_{path.stem}_{abs(hash(path))}", loader=None, origin=str(path)
    )
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(path)
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
        exec(code, module.__dict__)  # noqa: S102 - the bytes the manifest records, nothing else
    except Exception:  # noqa: BLE001 - a broken file in the user's cache is skipped, not fatal
        return None
    return module


@functools.lru_cache(maxsize=32)
def _cached_modules(
    folder: str, stamp: tuple[tuple[str, int, int], ...], record: tuple[int, int] | None
) -> tuple[tuple[tuple[str, ModuleType], ...], tuple[str, ...]]:
    """The valid modules of a cache folder that its manifest records, and why each other file was refused
    (re-read when a file there or the manifest changes: ``stamp``, ``record``)."""
    out, refused = [], []
    for name, _, _ in stamp:
        path = Path(folder) / name
        try:
            source, entry = read_recorded(path)
        except UnrecordedFile as reason:
            refused.append(str(reason))
            continue
        if entry.get("protocol") != LOADED_PROTOCOL:
            refused.append(
                f"{name} was written for protocol {entry.get('protocol')!r}; this evalgebra loads "
                f"protocol {LOADED_PROTOCOL}"
            )
            continue
        module = _module_from_source(path, source)
        if module is None:
            continue
        stale = _stale(module)
        if stale is None:
            out.append((str(path), module))
        else:
            refused.append(f"{name} {stale}")
    return tuple(out), tuple(refused)


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _cache_candidates(n: int, r: int) -> tuple[tuple[tuple[str, ModuleType], ...], tuple[str, ...]]:
    """``(origin, module)`` of the cache folder's recorded modules for ``n`` classifiers and ``r`` labels, and
    one line per file there that was refused."""
    folder = cache_dir()
    try:
        files = sorted(p for p in folder.iterdir() if _MODULE_NAME.match(p.name))
    except OSError:
        return (), ()
    stamp = tuple(
        (p.name, *found)
        for p in files
        if tuple(map(int, _MODULE_NAME.match(p.name).groups())) == (n, r)  # type: ignore[union-attr]
        and (found := _stat(p)) is not None
    )
    return _cached_modules(str(folder), stamp, _stat(folder / RECORD_NAME)) if stamp else ((), ())


def _module_structure(module: Any) -> Structure:
    return tuple(sorted((tuple(sorted(s)) for s in module.STRUCTURE), key=lambda s: (len(s), s)))


def find_structure_module(structure: Structure, n_classifiers: int, n_labels: int) -> StructureMatch:
    r"""The generated module evaluating ``structure`` on ``n_classifiers`` with ``n_labels`` labels.

    The atlas (``INDEX.json``) is consulted first: a structure isomorphic to one of positive
    dimension is refused. Then the package's modules and the cache folder's are searched for an
    isomorphic structure.

    Raises
    ------
    SpecError
        Not identifiable (the message names the dimension of the family of evaluations), or
        no generated module (the message gives the command that generates one).

    Examples
    --------
    >>> find_structure_module(((2, 3),), 4, 2).module.__name__
    'evalgebra.generated.structures.n4_r2_01'
    >>> find_structure_module(((0, 1), (2, 3)), 4, 2)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: structure 0-1,2-3 on 4 classifiers is not identifiable: a 1-dimensional
    family of evaluations fits every sketch; accepted: a structure with finitely many evaluations (see the
    identifiability atlas in docs/guide/correlated.md)
    """
    text = structure_text(structure)
    atlas = None
    stale: list[str] = []
    for entry in atlas_entries():
        if (entry.n_classifiers, entry.n_labels) != (n_classifiers, n_labels):
            continue
        sigma = isomorphism(structure, entry.structure, n_classifiers)
        if sigma is None:
            continue
        atlas = entry
        if entry.dimension is not None and entry.dimension > 0:
            raise SpecError(
                f"structure {text} on {n_classifiers} classifiers is not identifiable: a "
                f"{entry.dimension}-dimensional family of evaluations fits every sketch; accepted: a "
                "structure with finitely many evaluations (see the identifiability atlas in "
                "docs/guide/correlated.md)"
            )
        found = _packaged_or_stale(entry.module) if entry.module else None
        module = found if isinstance(found, ModuleType) else None
        if isinstance(found, str):
            stale.append(found)
        if module is not None:
            return StructureMatch(
                module,
                _mapping(structure, module, n_classifiers, sigma),
                structure,
                f"{_PACKAGE}.{entry.module}",
            )
        break
    cached, refused = _cache_candidates(n_classifiers, n_labels)
    refused = (*stale, *refused)
    for origin, module in cached:
        if (module.N_CLASSIFIERS, module.N_LABELS) != (n_classifiers, n_labels):
            continue
        sigma = isomorphism(structure, _module_structure(module), n_classifiers)
        if sigma is not None:
            return StructureMatch(module, sigma, structure, origin)
    if atlas is not None and atlas.finite:
        status = (
            f"is identifiable ({atlas.points or 'finitely many'} evaluations) but has no generated evaluator"
        )
    else:
        status = "has no generated evaluator (and is not in the identifiability atlas)"
    raise MissingStructureModule(
        f"structure {text} on {n_classifiers} classifiers with R = {n_labels} {status}; generate one with "
        f"python -m evalgebra.codegen --spec 'N={n_classifiers},R={n_labels},structure={text}' "
        f"--out {cache_dir()} "
        f"(the folder ${CACHE_VARIABLE} names, searched here; the command line's evaluate --derive does it)"
        + (f"; not loaded: {'; '.join(refused)}" if refused else ""),
        structure,
        n_classifiers,
        n_labels,
    )


def available_structures() -> list[tuple[int, int, Structure, str]]:
    """``(N, R, structure, origin)`` of every generated module found: the package's, then the cache
    folder's."""
    out = [
        (e.n_classifiers, e.n_labels, e.structure, f"{_PACKAGE}.{e.module}")
        for e in atlas_entries()
        if e.module and _packaged(e.module) is not None
    ]
    folder = cache_dir()
    try:
        sizes = sorted(
            {tuple(map(int, m.groups())) for p in folder.iterdir() if (m := _MODULE_NAME.match(p.name))}
        )
    except OSError:
        sizes = []
    for n, r in sizes:
        out.extend((n, r, _module_structure(module), origin) for origin, module in _cache_candidates(n, r)[0])
    return out


def _mapping(structure: Structure, module: Any, n: int, sigma: tuple[int, ...]) -> tuple[int, ...]:
    """The renaming onto the module's own structure (the atlas lists it in canonical form)."""
    own = _module_structure(module)
    direct = isomorphism(structure, own, n)
    return sigma if direct is None else direct
