r"""Benchmark: peak memory of ``evalgebra sketch`` on a large items CSV, read whole and in chunks.

Issue 21 measured the whole-file CSV read at about 37 times the file's size in memory (a
215 MB file needed 7.9 GB); the reader now streams, and the target is that a
20-million-row CSV (3 classifiers + truth) read *without* ``--chunk-rows`` peaks under 600 MB.

The benchmark writes ``--rows`` items (3 classifiers, right with probability 0.8, 0.75 and 0.7,
and the truth; labels ``no``/``yes``, prevalence 0.3) to a temporary folder, then runs
``python -m evalgebra sketch FILE --truth y -o OUT.json`` in a subprocess, once as is (the
default chunk size) and once with ``--chunk-rows`` (``--chunk-rows`` option here), and prints
each run's peak resident memory (``ru_maxrss`` of that child, from ``os.wait4`` in a small
launcher process), wall and processor time (the processor time is what to compare on a busy
machine),
and the ratio of the two. Both sketches must be equal, and equal to the counts numpy made
while writing the file; ``--strict`` makes a whole read over the target (scaled to ``--rows``
only through the file, the limit stays 600 MB) exit 1.

Usage::

    python benchmarks/bench_csv_memory.py [--rows 20000000] [--chunk-rows 8192] [--seed 0] [--strict]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from evalgebra.data.items_csv import CHUNK_ROWS

ROOT = Path(__file__).resolve().parents[1]
TARGET_MB = 600
LABELS = ("no", "yes")
ACCURACY = (0.8, 0.75, 0.7)
BLOCK = 1 << 20


def write_items(path: Path, rows: int, seed: int) -> Counter:
    """Write the items CSV; the count of every (truth, answers) row written."""
    rng = np.random.default_rng(seed)
    # every row of 3 answers + truth as text, indexed by its 4 binary digits (truth last)
    texts = np.array([",".join(LABELS[(code >> (3 - k)) & 1] for k in range(4)) + "\n" for code in range(16)])
    tally = np.zeros(16, dtype=np.int64)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write("m1,m2,m3,y\n")
        for start in range(0, rows, BLOCK):
            n = min(BLOCK, rows - start)
            truth = (rng.random(n) < 0.3).astype(np.int64)
            code = truth.copy()
            for k, accuracy in enumerate(ACCURACY):
                right = rng.random(n) < accuracy
                code += np.where(right, truth, 1 - truth) << (3 - k)
            tally += np.bincount(code, minlength=16)
            handle.write("".join(texts[code].tolist()))
    out: Counter = Counter()
    for code, count in enumerate(tally.tolist()):
        if count:
            out[(LABELS[code & 1], tuple(LABELS[(code >> (3 - k)) & 1] for k in range(3)))] = count
    return out


#: Runs the command given in its arguments and prints its own peak resident kilobytes and seconds. A
#: child's ru_maxrss counts the memory of the process it was forked from, so the command is started
#: from this small process, not from the benchmark (which holds the numpy arrays that wrote the file).
_MEASURE = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_, status, usage = os.wait4(child.pid, 0)
error = child.stderr.read().decode()
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, time.perf_counter() - start,
      usage.ru_utime + usage.ru_stime)
print(error, file=sys.stderr)
"""


def peak_run(argv: list[str]) -> tuple[float, float, float]:
    """``(peak resident MB, wall seconds, processor seconds)`` of ``python -m evalgebra argv`` in a child."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-c", _MEASURE, sys.executable, "-m", "evalgebra", *argv]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    status, kilobytes, seconds, cpu = done.stdout.split()
    if status != "0":
        raise AssertionError(f"evalgebra {' '.join(argv)} failed ({status}): {done.stderr.strip()}")
    return int(kilobytes) / 1024, float(seconds), float(cpu)  # ru_maxrss is in kilobytes on Linux


def tally_of(path: Path) -> Counter:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return Counter(
        {
            (truth, tuple(c["decisions"])): c["count"]
            for truth, cells in doc["by_true_label"].items()
            for c in cells
        }
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000_000, help="items in the CSV (default 20000000)")
    parser.add_argument("--chunk-rows", type=int, default=8192, help="--chunk-rows of the chunked read")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--strict", action="store_true", help=f"exit 1 when the whole read peaks over {TARGET_MB} MB"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="evalgebra-bench-csv-") as folder:
        path = Path(folder) / "items.csv"
        start = time.perf_counter()
        expected = write_items(path, args.rows, args.seed)
        size_mb = path.stat().st_size / 2**20
        print(
            f"items CSV: {args.rows:,} rows x 3 classifiers + truth, {size_mb:.0f} MB "
            f"(written in {time.perf_counter() - start:.1f} s)"
        )
        runs = {}
        for name, extra in (("whole", []), ("chunked", ["--chunk-rows", str(args.chunk_rows)])):
            out = Path(folder) / f"{name}.json"
            runs[name] = peak_run(["sketch", str(path), "--truth", "y", "-o", str(out), *extra])
            if tally_of(out) != expected:
                raise AssertionError(f"the {name} read's sketch differs from the counts written")
        (whole_mb, whole_s, whole_cpu), (chunk_mb, chunk_s, chunk_cpu) = runs["whole"], runs["chunked"]
        verdict = "meets" if whole_mb < TARGET_MB else "MISSES"
        print(
            f"whole read (default chunk {CHUNK_ROWS}):  peak {whole_mb:6.0f} MB  {whole_s:6.1f} s "
            f"({whole_cpu:.1f} s CPU)  {whole_mb / size_mb:.2f}x the file; "
            f"target < {TARGET_MB} MB: {verdict}"
        )
        print(
            f"--chunk-rows {args.chunk_rows:<21}  peak {chunk_mb:6.0f} MB  {chunk_s:6.1f} s "
            f"({chunk_cpu:.1f} s CPU)  {chunk_mb / size_mb:.2f}x the file"
        )
        print(
            f"whole / chunked: {whole_mb / chunk_mb:.2f}x the memory, "
            f"{whole_cpu / chunk_cpu:.2f}x the CPU time; "
            f"both sketches equal the {args.rows:,} rows written ({args.rows / whole_cpu / 1e6:.2f} M rows "
            "per CPU second whole)"
        )
    return 1 if args.strict and whole_mb >= TARGET_MB else 0


if __name__ == "__main__":
    raise SystemExit(main())
