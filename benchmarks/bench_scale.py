r"""Benchmark: sketching 10^8 items x 5 classifiers from parquet, one process against 2 Dask workers.

The issue's target: a test of ``--rows`` items (default :math:`10^8`) by ``--classifiers``
binary classifiers (default 5) with an answer key, in ``--files`` parquet files (default 10),
is sketched with bounded memory (peak RSS under 2 GiB) and, on ``--workers`` Dask worker
processes of a ``LocalCluster`` (default 2), at least 1.5x faster than in one process.

The files are written once into ``--folder`` (default ``/tmp/evalgebra_bench_scale``; reused
while their manifest matches the arguments): label columns dictionary-encoded, each file
listing its dictionary in its own order (so a reader matching codes by position would count
wrong). While writing, the pattern counts by true label are tallied from the generator's own
indices (``numpy.bincount``, independent of the readers) and kept in the manifest.

Every route runs in a child process of its own (best of ``--repeat`` runs, the data in the page
cache after the first), whose peak resident memory is read with ``resource.getrusage`` (for Dask,
the client process and the largest worker process):

``single``
    :meth:`evalgebra.Sketch.from_parquet`, record batches of ``--chunk-rows``,
    Arrow decoding with its own threads (so one process already uses every core part of the time).
``single-1t``
    The same on one Arrow thread: one process, one core (the baseline of the speed-up).
``dask``
    :func:`evalgebra.distributed.sketch_parquet_dask`, one task per file on the workers, each on
    one Arrow thread; the time excludes starting the cluster (printed apart).
``naive``
    What a new user writes: ``pandas.read_parquet`` of every file, concatenated, then
    ``Sketch.from_decisions``, on the first ``--naive-rows`` rows only (default 10^6) and
    scaled linearly to ``--rows`` (marked ``~``; skipped with ``--naive-rows 0``).

The counts of every route are asserted equal to the tallied ones (and to each other).
Printed: seconds, items per second, peak RSS, the speed-up of the workers over the single
process (target >= 1.5x; ``--strict`` makes a miss, or a peak over 2 GiB, exit 1).

Usage::

    python benchmarks/bench_scale.py [--rows 100000000] [--files 10] [--classifiers 5]
                                     [--workers 2] [--chunk-rows 1048576] [--folder DIR]
                                     [--naive-rows 1000000] [--repeat 3] [--seed 0] [--strict]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time, check  # noqa: E402

LABELS = ("negative", "positive")
GIB = 1 << 30


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**8, help="items in all (default 10^8)")
    parser.add_argument("--files", type=int, default=10, help="parquet files (default 10)")
    parser.add_argument("--classifiers", type=int, default=5, help="binary classifiers (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="Dask worker processes (default 2)")
    parser.add_argument(
        "--chunk-rows", type=int, default=1 << 20, help="rows per record batch (default 2^20)"
    )
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "evalgebra_bench_scale")
    parser.add_argument(
        "--naive-rows", type=int, default=10**6, help="rows read by the naive route (default 10^6; 0: skip)"
    )
    parser.add_argument("--arrow-threads", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs per route (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--child", choices=("single", "dask", "naive"), help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(list(argv) if argv is not None else None)


def _names(n_classifiers: int) -> list[str]:
    return [f"judge{j}" for j in range(n_classifiers)]


# -- the data, written once ----------------------------------------------------------------
def _write(args: argparse.Namespace) -> dict[str, Any]:
    """Write the files (unless their manifest matches) and return the manifest."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    manifest_path = args.folder / "manifest.json"
    wanted = {"rows": args.rows, "files": args.files, "classifiers": args.classifiers, "seed": args.seed}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("wanted") == wanted and all((args.folder / f).exists() for f in manifest["paths"]):
            return manifest
    args.folder.mkdir(parents=True, exist_ok=True)
    for old in args.folder.glob("*.parquet"):
        old.unlink()
    rng = np.random.default_rng(args.seed)
    n = args.classifiers
    tally = np.zeros(2 * 2**n, dtype=np.int64)  # truth * 2^N + pattern, labels in LABELS order
    paths = []
    start = time.perf_counter()
    for k, rows in enumerate(np.diff(np.linspace(0, args.rows, args.files + 1).astype(np.int64)).tolist()):
        truth = (rng.random(rows) < 0.3).astype(np.int8)
        accuracy = 0.6 + 0.3 * rng.random(n)
        columns = {}
        code = truth.astype(np.int64)
        for j in range(n):
            right = rng.random(rows) < accuracy[j]
            answer = np.where(right, truth, 1 - truth).astype(np.int8)
            columns[f"judge{j}"] = answer
            code = code * 2 + answer
        tally += np.bincount(code, minlength=tally.size)
        columns["truth"] = truth
        order = list(LABELS) if k % 2 == 0 else list(LABELS[::-1])  # every other file flips its dictionary
        table = {}
        for name, values in columns.items():
            indices = values if order == list(LABELS) else (1 - values).astype(np.int8)
            table[name] = pa.DictionaryArray.from_arrays(pa.array(indices, type=pa.int8()), pa.array(order))
        path = f"part{k:03d}.parquet"
        pq.write_table(pa.table(table), args.folder / path, row_group_size=1 << 20)
        paths.append(path)
        print(
            f"  wrote {path}: {rows:,} rows ({time.perf_counter() - start:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    manifest = {"wanted": wanted, "paths": paths, "tally": tally.tolist()}
    manifest_path.write_text(json.dumps(manifest))
    return manifest


# -- the routes, each in a child process ---------------------------------------------------------
def _child(args: argparse.Namespace) -> None:
    import pandas  # noqa: F401 - imported before the clocks start, in every route
    import pyarrow.parquet  # noqa: F401

    from evalgebra import Sketch

    _warm(args.arrow_threads)
    manifest = json.loads((args.folder / "manifest.json").read_text())
    paths = [args.folder / p for p in manifest["paths"]]
    out: dict[str, Any] = {}
    options = dict(
        classifiers=_names(args.classifiers), truth="truth", labels=list(LABELS), chunk_rows=args.chunk_rows
    )
    if args.child == "single":
        cpu = time.process_time()
        out["seconds"], sketch = best_time(lambda: Sketch.from_parquet(paths, **options), args.repeat)
        out["cpu"] = (time.process_time() - cpu) / args.repeat
    elif args.child == "dask":
        from evalgebra.distributed.sketching import sketch_parquet_dask
        from evalgebra.distributed.sweep import local_cluster

        start = time.perf_counter()
        with local_cluster(args.workers, memory_limit=None) as client:
            client.run(_warm, args.arrow_threads)  # every worker up, with its imports done
            out["startup"] = time.perf_counter() - start
            cpu = sum(client.run(time.process_time).values())
            out["seconds"], sketch = best_time(
                lambda: sketch_parquet_dask(paths, client=client, split_every=4, **options), args.repeat
            )
            out["cpu"] = (sum(client.run(time.process_time).values()) - cpu) / args.repeat
            out["worker_rss"] = max(
                client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss).values()
            )
    else:
        import pandas as pd

        start = time.perf_counter()
        frame, read = [], 0
        for path in paths:  # whole files, as a user would, until enough rows are in
            frame.append(pd.read_parquet(path))
            read += len(frame[-1])
            if read >= args.naive_rows:
                break
        frame = pd.concat(frame, ignore_index=True).iloc[: args.naive_rows]
        sketch = Sketch.from_decisions(
            frame[_names(args.classifiers)], truth=frame["truth"].to_numpy(), labels=list(LABELS)
        )
        out["seconds"] = time.perf_counter() - start
        out["rows"] = len(frame)
    out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["sketch"] = sketch.to_json()
    args.result.write_text(json.dumps(out))


def _warm(arrow_threads: int = 0) -> None:
    import pandas  # noqa: F401
    import pyarrow
    import pyarrow.parquet  # noqa: F401

    if arrow_threads > 0:
        pyarrow.set_cpu_count(arrow_threads)

    import evalgebra.data.columnar  # noqa: F401


def _run_child(args: argparse.Namespace, route: str, arrow_threads: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        result = Path(folder) / "result.json"
        command = [
            sys.executable,
            __file__,
            "--child",
            route,
            "--result",
            str(result),
            "--folder",
            str(args.folder),
            "--classifiers",
            str(args.classifiers),
            "--workers",
            str(args.workers),
            "--chunk-rows",
            str(args.chunk_rows),
            "--naive-rows",
            str(args.naive_rows),
            "--arrow-threads",
            str(arrow_threads),
            "--repeat",
            str(args.repeat),
        ]
        subprocess.run(command, check=True)
        return json.loads(result.read_text())


def _tally_counts(tally: list[int], n_classifiers: int) -> dict[str, dict[tuple[str, ...], int]]:
    out: dict[str, dict[tuple[str, ...], int]] = {label: {} for label in LABELS}
    for code, count in enumerate(tally):
        if count:
            truth, pattern = divmod(code, 2**n_classifiers)
            bits = tuple(LABELS[(pattern >> (n_classifiers - 1 - j)) & 1] for j in range(n_classifiers))
            out[LABELS[truth]][bits] = count
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    if args.child:
        _child(args)
        return 0
    from evalgebra import Sketch

    print(
        f"bench_scale: {args.rows:,} items x {args.classifiers} classifiers (+ truth) in {args.files} "
        f"parquet files under {args.folder}; chunks of {args.chunk_rows:,} rows; {args.workers} Dask workers"
    )
    manifest = _write(args)
    expected = _tally_counts(manifest["tally"], args.classifiers)
    # one process with Arrow's own decoding threads (it already uses every core while it decodes),
    # one process on one thread, and the workers on one thread each (the workers share the cores)
    results = {
        "single": _run_child(args, "single", 0),
        "single-1t": _run_child(args, "single", 1),
        "dask": _run_child(args, "dask", 1),
    }
    if args.naive_rows > 0:
        results["naive"] = _run_child(args, "naive", 0)
    failures = 0
    for route, out in results.items():
        sketch = Sketch.from_json(out["sketch"])
        if route == "naive":
            scale = args.rows / out["rows"]
            check(sketch.Q == out["rows"], "naive: wrong number of items")
        else:
            scale = 1.0
            check(sketch.by_true_label() == expected, f"{route}: the counts differ from the tallied counts")
            check(sketch.Q == args.rows, f"{route}: {sketch.Q} items, expected {args.rows}")
        seconds = out["seconds"] * scale
        rss = max(out["rss"], out.get("worker_rss", 0)) * 1024  # ru_maxrss is in KiB on Linux
        mark = "~" if scale != 1.0 else " "
        line = (
            f"  {route:9s} {mark}{seconds:8.2f} s  {args.rows / seconds / 1e6:7.1f} M items/s  "
            f"peak RSS {out['rss'] / 1024:7.0f} MiB"
        )
        if "cpu" in out:
            line += f"  CPU {out['cpu']:6.2f} s/run"
        if "worker_rss" in out:
            line += (
                f" (client), {out['worker_rss'] / 1024:.0f} MiB (largest worker); "
                f"cluster start {out['startup']:.1f} s"
            )
        if route == "naive":
            line += f"  (measured on {out['rows']:,} rows, scaled x{scale:g}; memory not scaled)"
        print(line)
        if route != "naive" and rss >= 2 * GIB:
            print(f"  {route}: peak RSS {rss / GIB:.2f} GiB is over the 2 GiB bound")
            failures += 1
    speedup = results["single-1t"]["seconds"] / results["dask"]["seconds"]
    verdict = "meets" if speedup >= 1.5 else "misses"
    print(
        f"  speed-up of {args.workers} Dask workers (one thread each) over one process on one thread: "
        f"{speedup:.2f}x ({verdict} the 1.5x target)"
    )
    print(
        f"  over one process with Arrow's decoding threads: "
        f"{results['single']['seconds'] / results['dask']['seconds']:.2f}x"
    )
    # the work itself: CPU seconds per run; on idle cores the wall time is CPU / workers
    work = results["dask"]["cpu"] / results["single-1t"]["cpu"]
    print(
        f"  CPU seconds of the {args.workers} workers together / one thread's: {work:.2f} (1 = no extra work "
        f"from splitting; speed-up on {args.workers} idle cores ~ {args.workers / work:.2f}x); wall/CPU of "
        f"the workers {results['dask']['seconds'] * args.workers / results['dask']['cpu']:.2f} (1 = cores to "
        "themselves)"
    )
    if "naive" in results:
        naive = results["naive"]["seconds"] * args.rows / results["naive"]["rows"]
        print(
            "  single-process chunked route over the naive route: "
            f"{naive / results['single']['seconds']:.1f}x"
        )
    print("  counts of every route equal the counts tallied while writing: yes")
    failures += speedup < 1.5
    return 1 if failures and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
