r"""Run every ``benchmarks/bench_*.py`` in turn and print a summary.

Each benchmark module exposes ``main(argv)``; it is called with no arguments (its
defaults are the documented benchmark sizes). A benchmark fails when it raises (an
assertion on its results included) or returns a non-zero status; the run then exits 1
after the others have run.

Usage::

    python benchmarks/run.py            # all benchmarks
    python benchmarks/run.py -k sketch  # those whose name (after "bench_") contains "sketch"
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover(selection: str | None = None) -> list[Path]:
    """The ``bench_*.py`` files of this folder, sorted by name."""
    found = sorted(HERE.glob("bench_*.py"))
    return [p for p in found if selection is None or selection in p.stem[len("bench_") :]]


def run_one(path: Path) -> tuple[str, float, str]:
    """Import ``path`` and call its ``main([])``: ``(status, seconds, detail)``."""
    start = time.perf_counter()
    try:
        spec = importlib.util.spec_from_file_location(f"benchmarks_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not callable(getattr(module, "main", None)):
            raise AttributeError(f"{path.name} has no main(argv)")
        status = module.main([])
    except SystemExit as exc:  # argparse errors and explicit exits
        status = exc.code
    except BaseException as exc:  # noqa: BLE001 - report every failure, keep going
        if isinstance(exc, KeyboardInterrupt):
            raise
        traceback.print_exc()
        sys.stderr.flush()
        return "FAILED", time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    if status not in (None, 0):
        return "FAILED", seconds, f"main returned {status!r}"
    return "ok", seconds, ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the benchmarks/bench_*.py scripts.")
    parser.add_argument("-k", dest="selection", help='only files whose name after "bench_" contains this')
    args = parser.parse_args(argv)
    paths = discover(args.selection)
    if not paths:
        print(f"no benchmarks found in {HERE}" + (f" matching {args.selection!r}" if args.selection else ""))
        return 1
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # lets benchmarks share helper modules
    results = []
    for path in paths:
        print(f"=== {path.name}", flush=True)
        results.append((path.name, *run_one(path)))
        print(flush=True)
    print("=== summary")
    width = max(len(name) for name, *_ in results)
    for name, status, seconds, detail in results:
        print(f"{name:<{width}}  {status:<6}  {seconds:8.1f} s  {detail}".rstrip())
    failed = [name for name, status, *_ in results if status != "ok"]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
