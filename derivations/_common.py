"""Argument handling shared by the derivation scripts (library calls only live in evalgebra)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def parse(
    name: str,
    doc: str,
    argv: Sequence[str] | None,
    extra: bool = False,
    flags: Sequence[tuple[str, str]] = (),
) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{name}.py", description=doc.strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of any random choice (default 0)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{name}.txt", help="result file")
    parser.add_argument(
        "--check", action="store_true", help="compare with the result file instead of writing it"
    )
    if extra:
        parser.add_argument("--full", action="store_true", help="also run the slow cases")
    for flag, text in flags:  # a derivation's own switches
        parser.add_argument(flag, action="store_true", help=text)
    return parser.parse_args(list(argv) if argv is not None else None)


def canonical_argv(args: argparse.Namespace, keys: Sequence[str] = ("seed",)) -> list[str]:
    """The arguments that change the result, in a fixed form (``--out``/``--check`` do not)."""
    out = []
    for key in keys:
        value = getattr(args, key)
        if isinstance(value, bool):
            if value:
                out.append(f"--{key}")
        else:
            out += [f"--{key}", str(value)]
    return out


# -- the identifiability atlas tables (d04 two labels, d09 three) ----------------------------
ATLAS_COLUMNS = (
    "N",
    "structure",
    "name",
    "unknowns",
    "observables",
    "rank",
    "rank_c",
    "dim",
    "gb_dim",
    "degree",
    "points",
    "real",
    "truth",
    "status",
)


def atlas_cell(value: object) -> str:
    """One table cell: "-" for unknown, yes/NO for booleans."""
    return "-" if value is None else "yes" if value is True else "NO" if value is False else str(value)


def atlas_cells(row: Any) -> list[str]:
    """The table cells of one :class:`~evalgebra.groebner.identifiability.Identifiability` row."""
    from evalgebra.structures import structure_code, structure_name

    n = row.n_classifiers
    return [
        str(n),
        structure_code(row.structure),
        structure_name(n, row.structure),
        str(row.unknowns),
        str(row.observables),
        str(row.rank),
        str(row.correlation_rank),
        str(row.dimension),
        atlas_cell(row.groebner_dimension),
        atlas_cell(row.degree),
        atlas_cell(row.points),
        atlas_cell(row.real_points),
        atlas_cell(row.contains_truth),
        row.status,
    ]


def atlas_table(rows: list[list[str]]) -> list[str]:
    """Aligned text of atlas rows under :data:`ATLAS_COLUMNS`."""
    widths = [max(len(r[k]) for r in rows + [list(ATLAS_COLUMNS)]) for k in range(len(ATLAS_COLUMNS))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [fmt(list(ATLAS_COLUMNS)), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]
