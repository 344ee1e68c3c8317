r"""Benchmark: the algebraic evaluator, vectorised and exact, and a whole stream evaluation.

The issue's targets, on the reference machine (2 cores), checked here, never in unit tests:

1. ``evaluate_batch(counts)`` on ``k = 10^6`` three-classifier sketches (a ``(k, 8)`` array of
   pattern counts): **10^6 sketches/s**.
2. ``exact_solution(counts)``, one sketch at a time (``int`` counts in, exact integer
   representation out, every failure mode decided exactly): **10^4 sketches/s**.
   ``evaluate_counts`` (full ``Evaluation`` objects: ``Fraction``/``QuadraticNumber``
   values and the partition) is reported too, with no target.
3. A stream of ``10^7`` items by 5 classifiers: ingesting it in batches into a
   ``StreamEvaluator``, evaluating every trio (``evaluate`` on the sketch, 10
   trios) and the logical alarm on all 31 subsets (``logical_alarm``): **under 2 s** in all.

Data (numpy, from ``--seed``; built outside the timing)
-------------------------------------------------------
Trio sketches (targets 1 and 2) are *expected* sketches: the exact counts of a labelled
test of ``Q`` items whose sample statistics are a chosen rational point, as
:func:`evalgebra.data.simulate.expected_sketch` makes them, computed here for all ``k``
at once in integers. Per sketch a denominator ``d`` in {8, 10, 12, 16, 20}, accuracies
``x_i/d`` (label a) and ``y_i/d`` (label b) with ``0.55 d <= x_i, y_i <= d - 1``, and
``Q = (k_a + k_b) d^3`` log-uniform in about ``[10^3, 10^5]`` with ``Q_a = k_a d^3``. The mix:

* 47.5 % ``independent``: no correlation (both points rational, the truth among them);
* 47.5 % ``correlated``: pair and triple error correlations ``e/d^2`` and ``e/d^3`` per
  label, ``e`` in ``-2..2`` (mild; points mostly irrational, some complex or outside the
  unit cube); a draw that would give a negative count is made independent instead;
* 5 % degenerate, in equal parts: ``constant`` (classifier 0 always answers a),
  ``coin`` (classifier 0 right with probability 1/2 on each label: uncorrelated with the
  others), ``one_label`` (no item of label b), ``unanimous`` (every classifier always
  answers a: one pattern). All are blind spots.

A sample of every kind is checked against ``expected_sketch`` of the same point; on the
target-2 sample, ``exact_solution`` must recover the point of every independent sketch and
call every degenerate one a blind spot.

The stream (target 3): true label a with probability 0.3; classifier ``i`` right,
independently, with probability ``ACCURACY[i % 5]`` (on a, on b); ``int8`` label codes.

Baselines (measured in the same run, on the same data; speed-up = baseline / measured)
--------------------------------------------------------------------------------------
1. ``python-float loop``: :func:`closed_form_floats`, the same closed form written out
   per sketch in Python floats, timed on ``--loop-sketches`` sketches and scaled linearly
   to ``k`` (``~``); and the ``exact_solution loop`` (the exact per-sketch path), its time
   per sketch from target 2 scaled to ``k`` (``~``). Asserted before timing: the float loop
   agrees with ``evaluate_batch`` to ``1e-9`` (relative above 1) on every statistic of
   every sketch it is run on, with the same blind spots, complex cases, unit-cube flags and
   choice; ``evaluate_batch`` agrees with the exact values of ``exact_solution`` the same way
   on the target-2 sample.
2. ``sympy``: :func:`closed_form_sympy`, the same closed form evaluated exactly with
   ``sympy.Rational`` and ``sympy.sqrt``, deciding the same failure modes (blind spot,
   complex, irrational, outside the unit cube, empty variety) and the same choice, on
   ``--sympy-sketches`` sketches; asserted to give exactly the same values, alarms and
   choice as ``exact_solution``.
3. ``pandas route``: ``pandas.DataFrame(decisions).value_counts()`` turned into a
   ``Sketch`` (``Sketch.from_counts``), then the same ``evaluate`` and
   ``logical_alarm``; asserted to give the same sketch, evaluation and alarm report.

Timing: best of ``--repeat`` runs (``time.perf_counter``); for the stream (and the pandas
route), each stage's best and the best whole run (the verdict); the SymPy baseline runs
once. Verdicts ("meets"/"MISSES") are given at the sizes the targets are set for
(``>= 10^6`` sketches; ``>= 10^4`` sketches timed one at a time; ``>= 10^7`` items by 5
classifiers), else "(not gated)"; ``--strict`` makes a miss exit 1.
``--profile`` prints a cProfile of each gated stage. The load average is printed at the
start and the end: the machine is shared, so compare runs with that in mind.

Usage::

    python benchmarks/bench_evaluate.py [--quick] [--sketches 1000000] [--exact-sketches 20000]
                                        [--full-sketches 5000] [--sympy-sketches 300]
                                        [--loop-sketches 100000] [--items 10000000]
                                        [--classifiers 5] [--batch 1000000] [--repeat 3]
                                        [--seed 0] [--profile] [--strict]
    python benchmarks/run.py -k evaluate
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import math
import os
import pstats
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import sympy
from _timing import best_time  # noqa: E402 - the benchmarks folder is on sys.path
from _timing import check as _check  # noqa: E402

from evalgebra import Sketch
from evalgebra.alarm.logical import logical_alarm
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.independent.closed_form import evaluate_counts, exact_solution
from evalgebra.evaluators.stream import StreamEvaluator
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.spec import EnsembleSpec

TARGET_MANY_RATE = 1e6  # sketches/s, evaluate_batch
TARGET_MANY_SKETCHES = 1_000_000
TARGET_EXACT_RATE = 1e4  # sketches/s, exact_solution
TARGET_EXACT_SKETCHES = 10_000
TARGET_STREAM_SECONDS = 2.0
TARGET_STREAM_ITEMS = 10_000_000
TARGET_STREAM_CLASSIFIERS = 5
TOLERANCE = 1e-9

FULL = {
    "sketches": 1_000_000,
    "exact_sketches": 20_000,
    "full_sketches": 5_000,
    "sympy_sketches": 300,
    "loop_sketches": 100_000,
    "items": 10_000_000,
    "batch": 1_000_000,
}
QUICK = {
    "sketches": 20_000,
    "exact_sketches": 1_000,
    "full_sketches": 300,
    "sympy_sketches": 20,
    "loop_sketches": 5_000,
    "items": 1_000_000,
    "batch": 200_000,
}

DENOMINATORS = (8, 10, 12, 16, 20)
KINDS = ("independent", "correlated", "constant", "coin", "one_label", "unanimous")
SHARES = (0.475, 0.475, 0.0125, 0.0125, 0.0125, 0.0125)
PAIRS = ((0, 1), (0, 2), (1, 2))
#: pattern order aaa, aab, ..., bbb: digit i is classifier i's answer (0 = a, 1 = b)
PATTERNS = np.array(list(itertools.product((0, 1), repeat=3)), dtype=np.int64)
#: stream ensemble: (accuracy on a, accuracy on b) of classifier i % 5; prevalence of a 0.3
ACCURACY = ((0.9, 0.85), (0.8, 0.75), (0.75, 0.8), (0.65, 0.7), (0.95, 0.6))
PREVALENCE_A = 0.3
LABELS = ("a", "b")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def _profile(title: str, function: Callable[[], Any], lines: int = 14) -> None:
    """Print the top of a cProfile of one call, by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    function()
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(lines)
    body = text.getvalue().strip().splitlines()
    start = next((k for k, line in enumerate(body) if line.lstrip().startswith("ncalls")), 0)
    print(f"--- profile: {title}")
    print("\n".join(body[max(0, start - 2) :]))


# -- trio sketches ---------------------------------------------------------------------------
def expected_counts(
    d: np.ndarray,
    k_a: np.ndarray,
    k_b: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    e_pair: np.ndarray,
    e_trio: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact pattern counts ``Q_ell pi_ell(d)`` summed over the two true labels, shape (k, 8).

    ``Q_ell = k_ell d^3``; ``pi_ell(d) = prod_i P(d_i | ell) + sum_pairs (e/d^2) s_i s_j
    P(d_m | ell) + (e/d^3) s_0 s_1 s_2`` with ``s_i = +1`` when classifier ``i`` is right
    (the generating set with correlations), so every count is an integer:
    ``k_ell (prod of numerators + e s_i s_j numerator_m + e s_0 s_1 s_2)``. Also returns
    which rows are realisable (no negative count for either true label).
    """
    counts = np.zeros((len(d), 8), dtype=np.int64)
    realisable = np.ones(len(d), dtype=bool)
    for ell, (k_ell, right) in enumerate(((k_a, x), (k_b, y))):
        # numerator (over d) of P(answer r | truth ell) for each classifier: shape (k, 3, 2)
        numerators = np.empty((len(d), 3, 2), dtype=np.int64)
        numerators[:, :, ell] = right
        numerators[:, :, 1 - ell] = d[:, None] - right
        factor = numerators[:, np.arange(3)[None, :], PATTERNS]  # (k, 8, 3)
        sign = np.where(PATTERNS == ell, 1, -1)  # (8, 3)
        term = factor.prod(axis=2)
        for p, (i, j) in enumerate(PAIRS):
            m = 3 - i - j
            term += e_pair[:, ell, p, None] * sign[None, :, i] * sign[None, :, j] * factor[:, :, m]
        term += e_trio[:, ell, None] * sign.prod(axis=1)[None, :]
        counts += k_ell[:, None] * term
        realisable &= ~((term < 0) & (k_ell[:, None] > 0)).any(axis=1)
    return counts, realisable


def make_trios(rng: np.random.Generator, k: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``k`` expected trio sketches (int64, shape (k, 8)) and the parameters of each."""
    kind = rng.choice(len(KINDS), size=k, p=SHARES)
    d = rng.choice(np.array(DENOMINATORS, dtype=np.int64), size=k)
    units = np.maximum(2, np.rint(10 ** rng.uniform(3, 5, size=k) / d**3)).astype(np.int64)
    k_a = rng.integers(1, units)
    low = np.ceil(0.55 * d).astype(np.int64)[:, None]
    x = rng.integers(low, d[:, None], size=(k, 3))  # better than chance on each label: 0.55 d <= x <= d - 1
    y = rng.integers(low, d[:, None], size=(k, 3))
    correlated = kind == KINDS.index("correlated")
    e_pair = rng.integers(-2, 3, size=(k, 2, 3)) * correlated[:, None, None]
    e_trio = rng.integers(-2, 3, size=(k, 2)) * correlated[:, None]
    for name, rows in ((n, kind == KINDS.index(n)) for n in KINDS[2:]):
        if name == "constant":
            x[rows, 0], y[rows, 0] = d[rows], 0
        elif name == "coin":
            x[rows, 0] = y[rows, 0] = d[rows] // 2
        elif name == "one_label":
            k_a[rows] = units[rows]
        elif name == "unanimous":
            x[rows], y[rows] = d[rows, None], 0
    k_b = units - k_a
    counts, realisable = expected_counts(d, k_a, k_b, x, y, e_pair, e_trio)
    negative = ~realisable
    if negative.any():  # too strong a correlation for these accuracies: drop it
        e_pair[negative], e_trio[negative] = 0, 0
        counts[negative] = expected_counts(
            d[negative],
            k_a[negative],
            k_b[negative],
            x[negative],
            y[negative],
            e_pair[negative],
            e_trio[negative],
        )[0]
    params = {
        "kind": kind,
        "d": d,
        "k_a": k_a,
        "k_b": k_b,
        "x": x,
        "y": y,
        "e_pair": e_pair,
        "e_trio": e_trio,
    }
    return counts, params


def check_trios(counts: np.ndarray, params: dict[str, np.ndarray], per_kind: int) -> int:
    """Assert that up to ``per_kind`` sketches of every kind equal ``expected_sketch`` of their point."""
    checked = 0
    spec = EnsembleSpec(3, 2, structure="complete")
    for kind_index, name in enumerate(KINDS):
        for row in np.flatnonzero(params["kind"] == kind_index)[:per_kind]:
            d, k_a, k_b = (int(params[key][row]) for key in ("d", "k_a", "k_b"))
            correlation: dict[tuple[int, ...], dict[str, Fraction]] = {
                pair: {
                    label: Fraction(int(params["e_pair"][row, ell, p]), d * d)
                    for ell, label in enumerate(LABELS)
                }
                for p, pair in enumerate(PAIRS)
            }
            correlation[(0, 1, 2)] = {
                label: Fraction(int(params["e_trio"][row, ell]), d**3) for ell, label in enumerate(LABELS)
            }
            point = EvaluationPoint.from_values(
                spec,
                {"a": Fraction(k_a, k_a + k_b)},
                accuracy={
                    i: {
                        "a": Fraction(int(params["x"][row, i]), d),
                        "b": Fraction(int(params["y"][row, i]), d),
                    }
                    for i in range(3)
                },
                correlation=correlation,
            )
            sketch = expected_sketch(point, (k_a + k_b) * d**3)
            _check(
                sketch.unlabelled().count_vector().tolist() == counts[row].tolist(),
                f"trio sketch {row} ({name}) differs from expected_sketch of its point",
            )
            checked += 1
    return checked


def check_truth(solutions: Sequence[Any], rows: np.ndarray, params: dict[str, np.ndarray]) -> None:
    """Assert that ``exact_solution`` recovers the truth of every independent sketch (its chosen,
    rational point) and calls every degenerate sketch a blind spot."""
    for sol, row in zip(solutions, rows.tolist()):
        kind = KINDS[int(params["kind"][row])]
        if kind == "independent":
            d, k_a, k_b = (int(params[key][row]) for key in ("d", "k_a", "k_b"))
            truth = [Fraction(k_a, k_a + k_b)]
            for i in range(3):
                truth += [Fraction(int(params["x"][row, i]), d), Fraction(int(params["y"][row, i]), d)]
            _check(
                sol.square is not None and sol.chosen is not None and sol.values(sol.chosen) == truth,
                f"independent sketch {row}: exact_solution did not recover its point",
            )
        elif kind != "correlated":
            _check("blind_spot" in sol.kinds, f"{kind} sketch {row}: no blind spot")


# -- baseline 1: the closed form in Python floats ----------------------------------------------
def _moments(n: Sequence[Any]) -> tuple[Any, ...]:
    """``Q``, the b-counts ``B_i`` and the scaled central moments ``E_ij = Q^2 D_ij``, ``E_012``."""
    n_aaa, n_aab, n_aba, n_abb, n_baa, n_bab, n_bba, n_bbb = n
    q = n_aaa + n_aab + n_aba + n_abb + n_baa + n_bab + n_bba + n_bbb
    b0 = n_baa + n_bab + n_bba + n_bbb
    b1 = n_aba + n_abb + n_bba + n_bbb
    b2 = n_aab + n_abb + n_bab + n_bbb
    b01, b02, b12, b012 = n_bba + n_bbb, n_bab + n_bbb, n_abb + n_bbb, n_bbb
    e01 = q * b01 - b0 * b1
    e02 = q * b02 - b0 * b2
    e12 = q * b12 - b1 * b2
    e012 = q * q * b012 - q * (b0 * b12 + b1 * b02 + b2 * b01) + 2 * b0 * b1 * b2
    return q, (b0, b1, b2), (e12, e02, e01), e012


def closed_form_floats(counts: Sequence[int]) -> tuple[float, list[list[float]], bool, bool, int]:
    r"""Both evaluations of one trio from the closed form, in Python floats (baseline 1).

    With ``R = E_012^2 + 4 E_01 E_02 E_12`` and ``s = +1`` (point 0) or ``-1`` (point 1):
    ``P_a = 1/2 + s E_012 / (2 sqrt R)``,
    ``P_{i,b} = B_i/Q + (E_012 + s sqrt R) / (2 Q E_jk)``,
    ``P_{i,a} = 1 - B_i/Q - (E_012 - s sqrt R) / (2 Q E_jk)`` (``{j, k}`` the partners of
    ``i``; Theorem 2 of "Algebraic Evaluation Theorems", in the moments of derivation d02).
    Undefined statistics (``R = 0``, ``E_jk = 0``), empty varieties and complex points
    (``R < 0``) are ``nan``.

    Returns
    -------
    radicand, [point 0, point 1] (7 values each, ``STATISTICS`` order), blind spot, outside
    the unit cube (all 14 values finite and one outside ``[0, 1]``), chosen point (the
    larger summed total accuracy; -1 when a value is not finite or on a tie).
    """
    q, b, e, e012 = _moments([float(c) for c in counts])
    radicand = e012 * e012 + 4.0 * e[0] * e[1] * e[2]
    blind = radicand == 0 or q == 0 or 0 in e
    nan = math.nan
    zeros = sum(1 for v in e if v == 0)
    # the independent model cannot vanish on one covariance alone, nor on two or three with
    # E_012 != 0, nor give R = 0 with none: no point at all (the empty variety)
    empty = (zeros == 0 and radicand == 0) or zeros == 1 or (zeros >= 2 and e012 != 0)
    if radicand < 0 or empty:
        return radicand, [[nan] * 7, [nan] * 7], blind, False, -1
    root = math.sqrt(radicand)
    points = []
    for sign in (1.0, -1.0):
        point = [0.5 + sign * e012 / (2.0 * root) if radicand > 0 else nan]
        for b_i, e_jk in zip(b, e):
            if e_jk == 0:
                point += [nan, nan]
            else:
                point += [
                    1.0 - b_i / q - (e012 - sign * root) / (2.0 * q * e_jk),
                    b_i / q + (e012 + sign * root) / (2.0 * q * e_jk),
                ]
        points.append(point)
    if not all(math.isfinite(v) for point in points for v in point):
        return radicand, points, blind, False, -1
    outside = any(v < 0 or v > 1 for point in points for v in point)
    totals = [sum(p[0] * p[1 + 2 * i] + (1 - p[0]) * p[2 + 2 * i] for i in range(3)) for p in points]
    chosen = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else -1
    return radicand, points, blind, outside, chosen


def _close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise: both not finite, or within ``TOLERANCE`` (relative above 1)."""
    with np.errstate(invalid="ignore"):
        near = np.abs(a - b) <= TOLERANCE * np.maximum(1.0, np.abs(a))
    return near | (~np.isfinite(a) & ~np.isfinite(b))


def _stats(out: dict[str, np.ndarray]) -> np.ndarray:
    """``evaluate_batch`` output as (k, 2, 7): prevalence, then accuracies in ``STATISTICS`` order."""
    return np.concatenate([out["prevalence"][:, :, None], out["accuracy"].reshape(-1, 2, 6)], axis=2)


def _ambiguous(stats: np.ndarray) -> np.ndarray:
    """Sketches with a value within ``TOLERANCE`` of 0 or 1 (flags may differ by rounding)."""
    with np.errstate(invalid="ignore"):
        return ((np.abs(stats) < TOLERANCE) | (np.abs(stats - 1) < TOLERANCE)).any(axis=(1, 2))


def check_floats(many: dict[str, np.ndarray], counts: np.ndarray) -> None:
    """Assert that :func:`closed_form_floats` agrees with ``evaluate_batch`` on every row."""
    rows = [closed_form_floats(row) for row in counts.tolist()]
    loop = np.array([r[1] for r in rows])
    fast = _stats(many)
    bad = ~_close(fast, loop).all(axis=(1, 2))
    _check(
        not bad.any(),
        f"python-float loop and evaluate_batch differ on {int(bad.sum())} sketches, "
        f"first {counts[np.argmax(bad)].tolist()}",
    )
    clear = ~_ambiguous(fast)
    for k, name in ((2, "blind_spot"), (3, "outside_unit_cube"), (4, "chosen")):
        flags = np.array([r[k] for r in rows])
        _check(
            np.array_equal(flags[clear], many[name][clear]),
            f"python-float loop and evaluate_batch differ on {name}",
        )
    _check(np.array_equal(np.array([r[0] < 0 for r in rows]), many["complex"]), "complex cases differ")


def check_exact_floats(many: dict[str, np.ndarray], solutions: Sequence[Any]) -> None:
    """Assert that ``evaluate_batch`` agrees with the exact values of ``exact_solution``."""
    exact = np.full((len(solutions), 2, 7), np.nan)
    for row, sol in enumerate(solutions):
        if sol.radicand >= 0:
            for j in (0, 1):
                exact[row, j] = [math.nan if v is None else float(v) for v in sol.values(j)]
    fast = _stats(many)
    bad = ~_close(fast, exact).all(axis=(1, 2))
    _check(
        not bad.any(),
        f"evaluate_batch differs from exact_solution on {int(bad.sum())} sketches, "
        f"first {list(solutions[int(np.argmax(bad))].counts)}",
    )
    clear = ~_ambiguous(fast)
    flags = {
        "blind_spot": np.array([bool(s.blind_spots) for s in solutions]),
        "complex": np.array(["complex" in s.kinds for s in solutions]),
        "chosen": np.array([-1 if s.chosen is None else s.chosen for s in solutions]),
    }
    for name, values in flags.items():
        _check(
            np.array_equal(values[clear], many[name][clear]),
            f"evaluate_batch and exact_solution differ on {name}",
        )


# -- baseline 2: the closed form in SymPy ----------------------------------------------------
def closed_form_sympy(counts: Sequence[int]) -> dict[str, Any]:
    r"""Both evaluations of one trio, exactly, with ``sympy.Rational`` and ``sympy.sqrt`` (baseline 2).

    The formulas of :func:`closed_form_floats` on SymPy integers, and the same decisions as
    ``exact_solution``: ``blind_spot`` (``R = 0`` or an ``E_jk = 0``; those statistics are
    ``None``), ``complex`` (``R < 0``), ``irrational`` (``sqrt R`` not an integer),
    ``outside_unit_cube`` (a value of a real point outside ``[0, 1]``), ``empty_variety``
    (point 0's independent-model pattern frequencies differ from the observed ones) and the
    chosen point (the larger summed total accuracy, real points only).
    """
    n = [sympy.Integer(c) for c in counts]
    q, b, e, e012 = _moments(n)
    radicand = e012**2 + 4 * e[0] * e[1] * e[2]
    root = sympy.sqrt(radicand)
    kinds = set()
    if radicand == 0 or 0 in e:
        kinds.add("blind_spot")
    if radicand < 0:
        kinds.add("complex")
    elif not root.is_Integer:
        kinds.add("irrational")
    half = sympy.Rational(1, 2)
    points: list[list[Any]] = []
    for sign in (1, -1):
        point: list[Any] = [half + sign * e012 / (2 * root) if radicand != 0 else None]
        for b_i, e_jk in zip(b, e):
            if e_jk == 0:
                point += [None, None]
            else:
                point += [
                    1 - b_i / q - (e012 - sign * root) / (2 * q * e_jk),
                    b_i / q + (e012 + sign * root) / (2 * q * e_jk),
                ]
        points.append(point)
    first = points[0]
    if None not in first:
        p_a = first[0]
        for pattern, observed in zip(PATTERNS.tolist(), n):
            model = p_a * q
            other = (1 - p_a) * q
            for i, r in enumerate(pattern):
                acc_a, acc_b = first[1 + 2 * i], first[2 + 2 * i]
                model *= acc_a if r == 0 else 1 - acc_a
                other *= 1 - acc_b if r == 0 else acc_b
            if sympy.expand(model + other - observed) != 0:
                kinds.add("empty_variety")
                break
    chosen = None
    if radicand >= 0:
        if any(v is not None and (v < 0 or v > 1) for point in points for v in point):
            kinds.add("outside_unit_cube")
        usable = [j for j in (0, 1) if None not in points[j]]
        if len(usable) == 1:
            chosen = usable[0]
        elif len(usable) == 2:
            totals = [sum(p[0] * p[1 + 2 * i] + (1 - p[0]) * p[2 + 2 * i] for i in range(3)) for p in points]
            difference = sympy.expand(totals[0] - totals[1])
            chosen = None if difference == 0 else 0 if difference > 0 else 1
    return {"points": points, "kinds": frozenset(kinds), "chosen": chosen}


def _as_sympy(value: Any) -> Any:
    if isinstance(value, QuadraticNumber):
        return _as_sympy(value.p) + _as_sympy(value.q) * sympy.sqrt(_as_sympy(value.d))
    return sympy.Rational(value.numerator, value.denominator)


def check_sympy(results: Sequence[dict[str, Any]], solutions: Sequence[Any]) -> None:
    """Assert that the SymPy baseline and ``exact_solution`` agree exactly."""
    for result, sol in zip(results, solutions):
        where = f"sketch {list(sol.counts)}"
        _check(
            result["kinds"] == sol.kinds,
            f"{where}: sympy alarms {sorted(result['kinds'])}, exact_solution {sorted(sol.kinds)}",
        )
        _check(
            result["chosen"] == sol.chosen,
            f"{where}: sympy chose {result['chosen']}, exact_solution {sol.chosen}",
        )
        for j in (0, 1):
            for k, (mine, theirs) in enumerate(zip(result["points"][j], sol.values(j))):
                if mine is None or theirs is None:
                    _check(
                        mine is None and theirs is None,
                        f"{where}: statistic {k} of point {j} undefined in one",
                    )
                else:
                    _check(
                        sympy.expand(mine - _as_sympy(theirs)) == 0,
                        f"{where}: statistic {k} of point {j}: sympy {mine}, exact_solution {theirs}",
                    )


# -- target 3: the stream --------------------------------------------------------------------
def make_decisions(rng: np.random.Generator, n_items: int, n_classifiers: int, chunk: int) -> np.ndarray:
    """``int8`` label codes, items x classifiers (0 = a, 1 = b), drawn chunk by chunk."""
    rates = np.array(
        [ACCURACY[i % len(ACCURACY)] for i in range(n_classifiers)], dtype=np.float32
    ).T  # (2, N)
    decisions = np.empty((n_items, n_classifiers), dtype=np.int8)
    for start in range(0, n_items, chunk):
        stop = min(n_items, start + chunk)
        truth = (rng.random(stop - start, dtype=np.float32) >= PREVALENCE_A).astype(np.int8)
        right = rng.random((stop - start, n_classifiers), dtype=np.float32) < rates[truth]
        decisions[start:stop] = np.where(right, truth[:, None], 1 - truth[:, None])
    return decisions


def stream_route(decisions: np.ndarray, batch: int) -> tuple[list[float], tuple[Any, Any, Any]]:
    """StreamEvaluator in batches, every trio, the alarm: stage times and results."""
    n_classifiers = decisions.shape[1]
    start = time.perf_counter()
    stream = StreamEvaluator(n_classifiers, list(LABELS))
    for first in range(0, len(decisions), batch):
        stream.ingest(decisions[first : first + batch])
    sketch = stream.sketch
    sketched = time.perf_counter()
    evaluation = evaluate(sketch)
    evaluated = time.perf_counter()
    report = logical_alarm(sketch)
    done = time.perf_counter()
    return [sketched - start, evaluated - sketched, done - evaluated], (sketch, evaluation, report)


def pandas_route(
    decisions: np.ndarray, classifiers: Sequence[str]
) -> tuple[list[float], tuple[Any, Any, Any]]:
    """Baseline 3: ``value_counts`` over a DataFrame into a sketch, then the same evaluation."""
    start = time.perf_counter()
    value_counts = pd.DataFrame(decisions, columns=list(classifiers)).value_counts()
    counts = {tuple(LABELS[v] for v in key): int(c) for key, c in value_counts.items() if c}
    sketch = Sketch.from_counts(counts, labels=list(LABELS), classifiers=list(classifiers))
    sketched = time.perf_counter()
    evaluation = evaluate(sketch)
    evaluated = time.perf_counter()
    report = logical_alarm(sketch)
    done = time.perf_counter()
    return [sketched - start, evaluated - sketched, done - evaluated], (sketch, evaluation, report)


# -- the run ---------------------------------------------------------------------------------
def _best_stages(route: Callable[[], list[float]], repeat: int) -> tuple[list[float], float]:
    """Each stage's best time over ``repeat`` runs of ``route``, and the best whole run."""
    stage_best, total_best = [math.inf] * 3, math.inf
    for _ in range(repeat):
        stages = route()
        stage_best = [min(a, b) for a, b in zip(stage_best, stages)]
        total_best = min(total_best, sum(stages))
    return stage_best, total_best


def _rate(size: int, seconds: float) -> str:
    return f"{size / seconds:.3g}/s"


def _verdict(gated: bool, met: bool) -> str:
    return ("meets" if met else "MISSES") if gated else "(not gated)"


def _row(name: str, size: str, seconds: float, rate: str, target: str, verdict: str, baseline: str) -> str:
    return f"{name:<34} {size:>11} {seconds:>9.3f} {rate:>11} {target:>9} {verdict:<12} {baseline}"


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller default sizes (a smoke run; not gated)")
    for key in FULL:
        parser.add_argument(
            f"--{key.replace('_', '-')}",
            dest=key,
            type=int,
            default=None,
            help=f"default {FULL[key]} ({QUICK[key]} with --quick)",
        )
    parser.add_argument("--classifiers", type=int, default=TARGET_STREAM_CLASSIFIERS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of each gated stage")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a gated target is missed")
    args = parser.parse_args(argv)
    for key in FULL:
        if getattr(args, key) is None:
            setattr(args, key, (QUICK if args.quick else FULL)[key])
    if min(args.repeat, args.classifiers - 2, *(getattr(args, key) for key in FULL)) < 1:
        parser.error("sizes and --repeat must be positive; --classifiers at least 3")
    if args.classifiers > 12:
        parser.error("--classifiers: at most 12 (the alarm runs on all 2^N - 1 subsets)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _options(argv)
    rng = np.random.default_rng(args.seed)
    print(
        f"bench_evaluate: algebraic evaluator (vectorised, exact) and stream; best of {args.repeat}, "
        f"seed {args.seed}{', --quick' if args.quick else ''}; {_load()}"
    )

    # data
    counts, params = make_trios(rng, args.sketches)
    checked = check_trios(counts, params, per_kind=8)
    picks = np.sort(rng.choice(args.sketches, size=min(args.exact_sketches, args.sketches), replace=False))
    exact_rows = counts[picks].tolist()
    loop_rows = counts[: min(args.loop_sketches, args.sketches)]
    sympy_rows = exact_rows[: args.sympy_sketches]
    full_rows = exact_rows[: args.full_sketches]
    mix = ", ".join(f"{name} {int((params['kind'] == k).sum())}" for k, name in enumerate(KINDS))
    q = counts.sum(axis=1)
    print(
        f"trio sketches: {args.sketches} ({mix}); Q {int(q.min())}..{int(q.max())} (median "
        f"{int(np.median(q))}); {checked} checked against expected_sketch"
    )

    # correctness before timing
    solutions = [exact_solution(row) for row in exact_rows]
    check_truth(solutions, picks, params)
    check_floats(evaluate_batch(loop_rows), loop_rows)
    check_exact_floats(evaluate_batch(np.array(exact_rows, dtype=np.int64)), solutions)
    sympy_results = [closed_form_sympy(row) for row in sympy_rows]
    check_sympy(sympy_results, solutions[: len(sympy_rows)])
    for row, sol in zip(full_rows[:200], solutions):
        result = evaluate_counts(row)
        values = [
            [point.prevalence["a"]]
            + [point.accuracy[c][label] for c in result.classifiers for label in LABELS]
            for point in result.points
        ]
        _check(
            result.chosen == sol.chosen and values == [sol.values(0), sol.values(1)],
            f"evaluate_counts and exact_solution differ on {row}",
        )
    kinds = {
        kind: sum(kind in s.kinds for s in solutions)
        for kind in ("irrational", "complex", "blind_spot", "outside_unit_cube", "empty_variety")
    }
    rational = sum(s.square is not None for s in solutions)
    print(
        f"exact sample of {len(solutions)}: rational {rational}, "
        + ", ".join(f"{k} {v}" for k, v in kinds.items())
        + f"; agreement asserted: float loop = evaluate_batch ({len(loop_rows)}, {TOLERANCE:g}), "
        "evaluate_batch = "
        f"exact_solution ({len(solutions)}, {TOLERANCE:g}), sympy = exact_solution ({len(sympy_rows)}, exact)"
    )

    # target 1 and 2: timings
    many_seconds, _ = best_time(lambda: evaluate_batch(counts), args.repeat)
    loop_list = loop_rows.tolist()
    loop_seconds, _ = best_time(lambda: [closed_form_floats(row) for row in loop_list], args.repeat)
    exact_seconds, _ = best_time(lambda: [exact_solution(row) for row in exact_rows], args.repeat)
    full_seconds, _ = best_time(lambda: [evaluate_counts(row) for row in full_rows], args.repeat)
    sympy_seconds, _ = best_time(lambda: [closed_form_sympy(row) for row in sympy_rows], 1)

    # target 3: data, correctness, timings
    decisions = make_decisions(rng, args.items, args.classifiers, args.batch)
    names = tuple(f"c{i}" for i in range(args.classifiers))
    _, (sketch, evaluation, report) = stream_route(decisions, args.batch)
    _, (base_sketch, base_evaluation, base_report) = pandas_route(decisions, names)
    _check(sketch.Q == args.items and sketch == base_sketch, "stream sketch differs from the pandas sketch")
    _check(
        evaluation.to_dict() == base_evaluation.to_dict(),
        "evaluations of the stream and pandas sketches differ",
    )
    _check(
        report.to_dict() == base_report.to_dict(), "alarm reports of the stream and pandas sketches differ"
    )
    _check(len(evaluation.trios) == math.comb(args.classifiers, 3), "not every trio evaluated")
    _check(len(report.subsets) == 2**args.classifiers - 1, "not every subset in the alarm")
    stage_best, total_best = _best_stages(lambda: stream_route(decisions, args.batch)[0], args.repeat)
    pandas_stages, pandas_seconds = _best_stages(lambda: pandas_route(decisions, names)[0], args.repeat)

    # the table
    gated_many = args.sketches >= TARGET_MANY_SKETCHES
    gated_exact = len(exact_rows) >= TARGET_EXACT_SKETCHES
    gated_stream = args.items >= TARGET_STREAM_ITEMS and args.classifiers == TARGET_STREAM_CLASSIFIERS
    many_rate = args.sketches / many_seconds
    exact_rate = len(exact_rows) / exact_seconds
    per_loop = loop_seconds / len(loop_rows)
    per_exact = exact_seconds / len(exact_rows)
    per_sympy = sympy_seconds / len(sympy_rows)
    print(
        f"targets: evaluate_batch {TARGET_MANY_RATE:.0e} sketches/s at >= {TARGET_MANY_SKETCHES:.0e}; "
        f"exact_solution {TARGET_EXACT_RATE:.0e} sketches/s (>= {TARGET_EXACT_SKETCHES} timed); stream "
        f"{TARGET_STREAM_SECONDS:g} s at {TARGET_STREAM_ITEMS:.0e} x {TARGET_STREAM_CLASSIFIERS}. Speed-up = "
        "baseline time / measured time, same run; ~ = baseline timed on fewer sketches, scaled linearly"
    )
    print(f"{'case':<34} {'size':>11} {'seconds':>9} {'rate':>11} {'target':>9} {'':<12} baselines")
    rows = [
        _row(
            "evaluate_batch (vectorised)",
            str(args.sketches),
            many_seconds,
            _rate(args.sketches, many_seconds),
            f"{TARGET_MANY_RATE:.0e}/s",
            _verdict(gated_many, many_rate >= TARGET_MANY_RATE),
            f"{per_loop * args.sketches / many_seconds:.3g}x python-float loop "
            f"(~{per_loop * args.sketches:.1f} s); "
            f"{per_exact * args.sketches / many_seconds:.3g}x exact_solution loop "
            f"(~{per_exact * args.sketches:.1f} s)",
        ),
        _row(
            "exact_solution (exact, per sketch)",
            str(len(exact_rows)),
            exact_seconds,
            _rate(len(exact_rows), exact_seconds),
            f"{TARGET_EXACT_RATE:.0e}/s",
            _verdict(gated_exact, exact_rate >= TARGET_EXACT_RATE),
            f"{per_sympy / per_exact:.3g}x sympy closed form ({per_sympy * 1e3:.2f} ms/sketch over "
            f"{len(sympy_rows)})",
        ),
        _row(
            "evaluate_counts (Evaluation)",
            str(len(full_rows)),
            full_seconds,
            _rate(len(full_rows), full_seconds),
            "-",
            "(no target)",
            f"{per_sympy * len(full_rows) / full_seconds:.3g}x sympy closed form",
        ),
        _row(
            f"stream: ingest ({math.ceil(args.items / args.batch)} batches)",
            f"{args.items}x{args.classifiers}",
            stage_best[0],
            _rate(args.items, stage_best[0]),
            "",
            "",
            f"{pandas_stages[0] / stage_best[0]:.3g}x value_counts + Sketch.from_counts "
            f"({pandas_stages[0]:.3f} s)",
        ),
        _row(
            f"stream: evaluate ({len(evaluation.trios)} trios)",
            "",
            stage_best[1],
            "",
            "",
            "",
            f"(same call in the pandas route: {pandas_stages[1]:.3f} s)",
        ),
        _row(
            f"stream: logical_alarm ({len(report.subsets)} subsets)",
            "",
            stage_best[2],
            "",
            "",
            "",
            f"(same call in the pandas route: {pandas_stages[2]:.3f} s)",
        ),
        _row(
            "stream: total (best run)",
            f"{args.items}x{args.classifiers}",
            total_best,
            _rate(args.items, total_best),
            f"{TARGET_STREAM_SECONDS:g} s",
            _verdict(gated_stream, total_best < TARGET_STREAM_SECONDS),
            f"{pandas_seconds / total_best:.3g}x pandas value_counts route ({pandas_seconds:.2f} s)",
        ),
    ]
    print("\n".join(rows))
    print(
        f"stream result: alarms {sorted(evaluation.alarm_kinds())}; alarm fires on "
        f"{sum(r.fires for r in report.subsets)} of {len(report.subsets)} subsets; at the end {_load()}"
    )

    missed = [
        name
        for name, gated, met in (
            ("evaluate_batch", gated_many, many_rate >= TARGET_MANY_RATE),
            ("exact_solution", gated_exact, exact_rate >= TARGET_EXACT_RATE),
            ("stream", gated_stream, total_best < TARGET_STREAM_SECONDS),
        )
        if gated and not met
    ]
    gated = [
        name
        for name, flag in (
            ("evaluate_batch", gated_many),
            ("exact_solution", gated_exact),
            ("stream", gated_stream),
        )
        if flag
    ]
    if not gated:
        print("targets not checked at these sizes (--quick or smaller than the targets' sizes)")
    else:
        print(
            f"targets met by {[g for g in gated if g not in missed]}"
            + (f"; MISSED by {missed}" if missed else "")
        )
    if args.profile:
        if gated_many:
            _profile("evaluate_batch", lambda: evaluate_batch(counts))
        if gated_exact:
            _profile("exact_solution loop", lambda: [exact_solution(row) for row in exact_rows])
        if gated_stream:
            _profile("stream route", lambda: stream_route(decisions, args.batch))
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
