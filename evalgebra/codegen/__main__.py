r"""``python -m evalgebra.codegen --write | --check [--dir PATH]``.

``--write`` regenerates ``evalgebra/generated/`` from the derivations; ``--check`` exits 1
and names the files that regeneration would change (CI runs it through the tests).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from evalgebra.codegen.modules import GENERATED, check, write


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evalgebra.codegen", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate the files")
    mode.add_argument("--check", action="store_true", help="fail if regeneration would change a file")
    parser.add_argument("--dir", type=Path, default=GENERATED, help=f"target folder (default {GENERATED})")
    parser.add_argument("--quiet", action="store_true", help="no progress messages")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"[{time.perf_counter() - start:6.1f} s] {message}", file=sys.stderr)

    if args.write:
        changed = write(args.dir, progress)
        print(f"{len(changed)} file(s) changed: {', '.join(changed) or '-'}")
        return 0
    stale = check(args.dir, progress)
    if stale:
        print(f"generated code is stale: {', '.join(stale)} (run python -m evalgebra.codegen --write)")
        return 1
    print("generated code is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
