"""Argument handling shared by the derivation scripts (library calls only live in evalgebra)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def parse(name: str, doc: str, argv: Sequence[str] | None, extra: bool = False) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"{name}.py", description=doc.strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of any random choice (default 0)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{name}.txt", help="result file")
    parser.add_argument("--check", action="store_true", help="compare with the result file instead of writing it")
    if extra:
        parser.add_argument("--full", action="store_true", help="also run the slow cases")
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
