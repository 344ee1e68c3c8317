r"""``python -m evalgebra.codegen --write | --check [--dir PATH] [--structures]`` and
``--spec SPEC --out DIR``.

``--write`` regenerates ``evalgebra/generated/`` from the derivations; ``--check`` exits 1
and names the files that regeneration would change (CI runs it through the tests). The
evaluators of correlated structures (``generated/structures/``) are included in the package's
folder, elsewhere with ``--structures``. ``--spec "N=4,R=2,structure=0-1,0-2" --out DIR``
derives the evaluator of one structure and writes it to ``DIR/n4_r2_01_02.py`` (the structure
relabelled to its canonical form; two labels).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from evalgebra.codegen.modules import GENERATED, check, write
from evalgebra.codegen.printer import CodegenError
from evalgebra.errors import EvalgebraError, SpecError


def parse_spec(text: str) -> tuple[int, int, list[tuple[int, ...]]]:
    """``N=4,R=2,structure=0-1,0-2`` -> ``(4, 2, [(0, 1), (0, 2)])`` (``structure`` last).

    >>> parse_spec("N=4,R=2,structure=0-1,0-2")
    (4, 2, [(0, 1), (0, 2)])
    """
    from evalgebra.structures import parse_structure

    head, _, structure = text.partition("structure=")
    fields = {}
    for part in filter(None, (p.strip() for p in head.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in ("N", "R") or not value.strip().isdigit():
            raise SpecError(
                f"--spec: {part!r} is not N=<int> or R=<int>; write e.g. N=4,R=2,structure=0-1,0-2"
            )
        fields[key.strip()] = int(value)
    if "N" not in fields:
        raise SpecError("--spec: N=<number of classifiers> is required, e.g. N=4,R=2,structure=0-1")
    subsets = parse_structure(structure.strip() or "independent", fields["N"], code=True)  # or "01 02"
    return fields["N"], fields.get("R", 2), list(subsets)


def _one_structure(spec_text: str, out: Path, progress: object) -> int:
    from evalgebra.codegen.cache import write_cached_module
    from evalgebra.codegen.structures import derive_structure

    n, r_count, structure = parse_spec(spec_text)
    if r_count != 2:
        raise SpecError(f"--spec: generated structure evaluators need R = 2, got R = {r_count}")
    form = derive_structure(n, structure, progress)  # type: ignore[arg-type]
    target = write_cached_module(out, form)  # recorded in out/MANIFEST.json: the runtime loads it
    print(
        f"{target}: eliminant of degree {form.degree} ({form.method}, parameter {form.parameter}), "
        f"derived in {form.seconds:.1f} s"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evalgebra.codegen", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate the files")
    mode.add_argument("--check", action="store_true", help="fail if regeneration would change a file")
    mode.add_argument(
        "--spec",
        metavar="SPEC",
        help='derive one structure\'s evaluator, e.g. "N=4,R=2,structure=0-1" (needs --out)',
    )
    parser.add_argument("--dir", type=Path, default=GENERATED, help=f"target folder (default {GENERATED})")
    parser.add_argument("--out", type=Path, help="folder for the module written by --spec")
    parser.add_argument(
        "--structures",
        action="store_true",
        help="also write/check generated/structures/ outside the package's folder",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress messages")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"[{time.perf_counter() - start:6.1f} s] {message}", file=sys.stderr)

    structures = True if args.structures else None
    if args.spec is not None:
        if args.out is None:
            parser.error("--spec needs --out DIR")
        try:
            return _one_structure(args.spec, args.out, progress)
        except (EvalgebraError, CodegenError) as error:
            print(f"python -m evalgebra.codegen: error: {error}", file=sys.stderr)
            return 2
    if args.write:
        changed = write(args.dir, progress, structures)
        print(f"{len(changed)} file(s) changed: {', '.join(changed) or '-'}")
        return 0
    stale = check(args.dir, progress, structures)
    if stale:
        print(f"generated code is stale: {', '.join(stale)} (run python -m evalgebra.codegen --write)")
        return 1
    print("generated code is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
