r"""The committed invariants: written by derivation d14, read by :func:`model_invariants`.

``derived.json`` (next to this module, shipped with the package) holds one entry per derived
spec: its number of classifiers and labels and its structure, the polynomials as text in the
pattern frequencies, their origins and proofs, the dimensions and what was proved about the
ideal. It is written only by ``python derivations/d14_model_invariants.py`` (deterministic
text: sorted keys, no timings; the timings go to the derivation's results folder) and read
back by :func:`~evalgebra.groebner.invariants.model.model_invariants` without recomputing anything.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> sorted(committed_specs())[:2]
[(3, 3, ()), (4, 2, ())]
>>> committed_entry(EnsembleSpec(5, 2)) is None
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from evalgebra.spec import EnsembleSpec

__all__ = [
    "STORE",
    "FORMAT",
    "committed_entry",
    "committed_specs",
    "to_entry",
    "store_text",
    "INVARIANTS_DERIVATION",
]

#: The committed file.
STORE = Path(__file__).resolve().parent / "derived.json"
#: Its format tag.
FORMAT = "evalgebra.invariants/1"
#: The derivation that writes it.
INVARIANTS_DERIVATION = "derivations/d14_model_invariants.py"

SpecKey = tuple[int, int, tuple[tuple[int, ...], ...]]


def _key(spec: EnsembleSpec) -> SpecKey | None:
    if spec.n_populations != 1 or spec.abstain:
        return None
    return (spec.n_classifiers, spec.n_labels, tuple(spec.structure))


@cache
def _entries() -> dict[SpecKey, dict[str, Any]]:
    if not STORE.exists():
        return {}
    data = json.loads(STORE.read_text(encoding="utf-8"))
    out = {}
    for entry in data["entries"]:
        key = (entry["classifiers"], entry["labels"], tuple(tuple(t) for t in entry["structure"]))
        out[key] = entry
    return out


def committed_specs() -> list[SpecKey]:
    """``(N, R, structure)`` of every committed entry.

    Examples
    --------
    >>> (4, 2, ((0, 1),)) in committed_specs()
    True
    """
    return list(_entries())


def committed_entry(spec: EnsembleSpec) -> dict[str, Any] | None:
    """The committed entry of a spec (same N, R and structure; one population, no abstentions), or None.

    Examples
    --------
    >>> entry = committed_entry(EnsembleSpec(["x", "y", "z", "w"], ["yes", "no"]))
    >>> entry["ideal"], len(entry["polynomials"])
    ('generates', 48)
    """
    key = _key(spec)
    return _entries().get(key) if key is not None else None


def to_entry(inv: Any) -> dict[str, Any]:
    """The JSON-ready entry of derived :class:`~evalgebra.groebner.invariants.model.ModelInvariants`.

    Examples
    --------
    >>> from evalgebra.groebner.invariants.model import derive_invariants
    >>> sorted(to_entry(derive_invariants(EnsembleSpec(2, 2))))[:3]
    ['checks', 'classifiers', 'ideal']
    """
    return {
        "classifiers": inv.spec.n_classifiers,
        "labels": inv.spec.n_labels,
        "structure": [list(t) for t in inv.spec.structure],
        "variables": list(inv.ring.names),
        "model_dimension": inv.model_dimension,
        "variety_dimension": inv.variety_dimension,
        "ideal": inv.ideal,
        "ideal_proof": inv.ideal_proof,
        "checks": list(inv.checks),
        "polynomials": [
            {"polynomial": inv.ring.text(p), "origin": o, "proof": r}
            for p, o, r in zip(inv.polynomials, inv.origins, inv.proofs)
        ],
    }


def store_text(entries: Sequence[dict[str, Any]]) -> str:
    """The text of ``derived.json`` for these entries (sorted by spec; deterministic).

    Examples
    --------
    >>> store_text([]).splitlines()[1]
    ' "format": "evalgebra.invariants/1",'
    """
    ordered = sorted(entries, key=lambda e: (e["classifiers"], e["labels"], e["structure"]))
    return (
        json.dumps({"format": FORMAT, "derivation": INVARIANTS_DERIVATION, "entries": ordered}, indent=1)
        + "\n"
    )
