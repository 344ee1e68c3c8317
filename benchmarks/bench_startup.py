r"""Benchmark: how fast the command line starts, and what a Gröbner call costs under its time limit.

Start-up (median of ``--repeat`` fresh processes each; the machine's load moves every figure, the
ratios measured in the same run are what to read):

* ``python -c pass``: the interpreter alone, the floor;
* ``import evalgebra`` against the baseline ``import evalgebra`` followed by every public name
  (what the package's import loaded before its names became lazy: SymPy, NumPy, SciPy);
* ``evalgebra --help`` (``python -m evalgebra --help``) against the baseline of the same with
  SymPy and every public name loaded first.

Gröbner calls (median per call over ``--calls`` calls of a two-variable system, in this process):
in the caller (``time_limit=math.inf``), in the long-lived child that calls under the default
time limit share, and in a child of their own (an explicit ``time_limit``: a fork per call, the
baseline).

Run: ``python benchmarks/bench_startup.py [--repeat 7] [--calls 50]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

EAGER = "import evalgebra, sympy\nfor name in evalgebra.__all__:\n    getattr(evalgebra, name)\n"
HELP = "from evalgebra.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"


def _seconds(code: str, repeat: int) -> float:
    """Median wall time of ``python -c code`` in a fresh process, run from the repository."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _per_call(calls: int, **options: float) -> float:
    from evalgebra.groebner.polys import PolyRing
    from evalgebra.groebner.runner import run_backend

    ring = PolyRing(("x", "y"), "lex")
    polys = [ring.parse("x^2 - y"), ring.parse("x*y - 1")]
    run_backend("flint", "groebner", ring, polys, **options)  # start what the route starts
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        run_backend("flint", "groebner", ring, polys, **options)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="fresh processes per start-up figure")
    parser.add_argument("--calls", type=int, default=50, help="Gröbner calls per route")
    args = parser.parse_args(argv)

    floor = _seconds("pass", args.repeat)
    lazy, eager = _seconds("import evalgebra", args.repeat), _seconds(EAGER, args.repeat)
    help_now, help_eager = _seconds(HELP, args.repeat), _seconds(EAGER + HELP, args.repeat)
    print(f"start-up, median of {args.repeat} processes (ms)")
    print(f"  {'python -c pass':<34}{floor * 1e3:9.0f}")
    print(
        f"  {'import evalgebra':<34}{lazy * 1e3:9.0f}   baseline (every name) {eager * 1e3:7.0f}"
        f"   ratio {eager / lazy:5.1f}x   saved {(eager - lazy) * 1e3:6.0f}"
    )
    print(
        f"  {'evalgebra --help':<34}{help_now * 1e3:9.0f}   baseline (every name) {help_eager * 1e3:7.0f}"
        f"   ratio {help_eager / help_now:5.1f}x   saved {(help_eager - help_now) * 1e3:6.0f}"
    )

    inside = _per_call(args.calls, time_limit=math.inf)
    shared = _per_call(args.calls)
    own = _per_call(args.calls, time_limit=600.0)
    print(f"Gröbner call overhead, median of {args.calls} calls (ms)")
    print(f"  {'in the caller (time_limit=inf)':<34}{inside * 1e3:9.2f}")
    print(
        f"  {'shared child (default limit)':<34}{shared * 1e3:9.2f}   baseline (a child per call) "
        f"{own * 1e3:7.2f}   ratio {own / shared:5.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
