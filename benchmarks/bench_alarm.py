r"""Benchmark: the logical alarm (``evalgebra.alarm.logical.logical_alarm``).

The issue's targets: ``N = 5`` classifiers, all 31 subsets, under 1 s at ``Q = 10^6``
items on the reference machine (2 cores), and well under 1 s at ``Q = 10^7`` (the alarm
is one stage of the 2 s sketch + trios + alarm budget of ``bench_evaluate.py``). The
target is checked here (at every ``Q >= 10^6`` with ``N = 5``), never in unit tests.

The ensemble: prevalence of ``a`` 0.3; classifiers right with probability (on ``a``, on
``b``) ``(0.9, 0.9)``, ``(0.8, 0.7)``, ``(0.7, 0.8)``, ``(0.6, 0.4)``, ``(0.95, 0.2)``,
repeated for larger ``--classifiers``, independently given the label. The pattern counts
are drawn with numpy (``--seed``) from the multinomial law of the (true label, decisions)
cells, which is the law of drawing every item's decisions, so a ``10^9``-item sketch costs
nothing to build; the answer key is dropped. Cases are specifications: ``per-label``
(accuracy > 1/2 on each label, the paper's), ``total`` (total accuracy > 3/5) and ``both``,
each at every size of ``--items`` (default ``10^6``, ``10^7``, ``10^9``).

Each line gives the best of ``--repeat`` runs (``time.perf_counter``), ``Q_a`` values per
second, the ratio to the target (below 1 meets it; ``--strict`` makes a miss exit 1) and
the speed-up over three baselines, each asserted to give the same verdicts and intervals
as ``logical_alarm`` on the test it runs on:

* ``scan``: the module's previous route, kept as its reference (``alarm._scan``): every
  condition evaluated for every ``Q_a`` in ``0..Q``, vectorised with numpy in blocks,
  ``O(N^2 Q)``. Run once at ``min(Q, --scan-items)`` items and, above, scaled up linearly
  to ``Q`` (marked ``~``; at ``10^9`` it would take minutes);
* ``per-Q_a loop``: the same conditions evaluated ``Q_a`` by ``Q_a`` in pure Python, at
  ``--loop-items`` items, scaled up linearly to ``Q`` (``~``);
* ``lattice``: brute-force enumeration, for each ``Q_a`` and each pair, of the lattice
  points ``R_{a_i,a}`` of one member's segment, with the other member's range from the
  pair's by-label cells (``O(Q^2)``), at ``--lattice-items`` items; the ratio is at that
  size (``logical_alarm`` timed there too), not scaled.

``logical_alarm`` solves the conditions on residue classes of ``Q_a`` (the Notes of
:mod:`evalgebra.alarm.intervals`), so its time does not grow with ``Q``; the scan is the route it replaced.

Usage::

    python benchmarks/bench_alarm.py [--items 1000000,10000000,1000000000] [--classifiers 5]
                                     [--repeat 3] [--scan-items 10000000] [--loop-items 20000]
                                     [--lattice-items 400] [--seed 0] [--strict]
    python benchmarks/bench_alarm.py --exact [--seed 0] [--strict]   # the exact alarm, N = 3..10, R = 2..4
    python benchmarks/bench_alarm.py --panels [--seed 0]   # judges that abstain; N = 12 R = 8, N = 20 R = 5

The pairwise rows time the interval method (``pairwise_report``), the exact alarm's fast path and
cross-check; ``--exact`` times ``logical_alarm(prevalences=False)`` and ``minimal_firing``: targets
N = 10, R = 2, Q = 10^9 under 1 s when nothing fires and N = 5, R = 3 under 1 s. Its grid runs
Q = 12, 10^3, 10^6, 10^9 with every classifier right with 0.8, with 0.55, and "one bad" (``c0``
never agrees with ``c1``, the others right with 0.8: ``c0, c1`` and its supersets fire); at Q = 12
every verdict is checked against a brute-force enumeration of the labelled tests (``brute_force``),
timed in the same run, and the ``x`` columns give baseline time / exact time (pairwise for R = 2,
brute force where it runs).
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from _timing import best_time  # noqa: E402 - the benchmarks folder is on sys.path
from _timing import check as _check  # noqa: E402

from evalgebra import Sketch
from evalgebra.alarm import logical as alarm
from evalgebra.alarm.intervals import feasible_intervals
from evalgebra.alarm.logical import logical_alarm, minimal_firing
from evalgebra.alarm.report import AlarmReport, SubsetResult
from evalgebra.alarm.safety import SafetySpec

TARGET_SECONDS = 1.0
TARGET_ITEMS = 1_000_000
TARGET_CLASSIFIERS = 5
ACCURACY = ((0.9, 0.9), (0.8, 0.7), (0.7, 0.8), (0.6, 0.4), (0.95, 0.2))
PREVALENCE_A = 0.3
DEFAULT_ITEMS = (1_000_000, 10_000_000, 1_000_000_000)
SPECS = {
    "per-label": SafetySpec("1/2"),
    "total": SafetySpec(None, "3/5"),
    "both": SafetySpec("1/2", "3/5"),
}


def make_sketch(rng: np.random.Generator, n_items: int, n_classifiers: int) -> Sketch:
    """An unlabelled sketch of the benchmark ensemble on ``n_items`` items."""
    rates = np.array([ACCURACY[k % len(ACCURACY)] for k in range(n_classifiers)])
    patterns = list(itertools.product((0, 1), repeat=n_classifiers))  # 0 = a, 1 = b
    said = np.array(patterns, dtype=bool)  # True: answered b
    cells = []
    for truth, prevalence in ((0, PREVALENCE_A), (1, 1 - PREVALENCE_A)):
        right = rates[:, truth]  # P(classifier answers the true label)
        answered_truth = said == bool(truth)
        cells.append(prevalence * np.where(answered_truth, right, 1 - right).prod(axis=1))
    probabilities = np.concatenate(cells)
    counts = rng.multinomial(n_items, probabilities / probabilities.sum())
    by_pattern = counts[: len(patterns)] + counts[len(patterns) :]
    named = {tuple("ab"[v] for v in p): int(c) for p, c in zip(patterns, by_pattern) if c}
    return Sketch.from_counts(named, labels=["a", "b"])


# -- baselines -------------------------------------------------------------------------------
def _observed(sketch: Sketch) -> tuple[int, list[int], dict[tuple[int, int], tuple[int, int, int, int]]]:
    """``Q``, ``R_{a_i}`` and every pair's ``(n_aa, n_ab, n_ba, n_bb)``."""
    counts = sketch.counts()
    n = sketch.n_classifiers
    r_a = [sum(c for p, c in counts.items() if p[i] == "a") for i in range(n)]
    tables = {}
    for i, j in itertools.combinations(range(n), 2):
        n_aa = sum(c for p, c in counts.items() if p[i] == "a" and p[j] == "a")
        tables[(i, j)] = (n_aa, r_a[i] - n_aa, r_a[j] - n_aa, sketch.Q - r_a[i] - r_a[j] + n_aa)
    return sketch.Q, r_a, tables


def _least_above(threshold: Fraction, size: int, strict: bool) -> int:
    top = threshold.numerator * size
    return top // threshold.denominator + 1 if strict else -(-top // threshold.denominator)


def _segment(spec: SafetySpec, q: int, q_a: int, r_a: int) -> tuple[int, int]:
    q_b = q - q_a
    lo, hi = max(0, r_a - q_b), min(q_a, r_a)
    if spec.min_accuracy is not None:
        lo = max(lo, _least_above(spec.min_accuracy, q_a, spec.strict))
        lo = max(lo, _least_above(spec.min_accuracy, q_b, spec.strict) - q_b + r_a)
    if spec.min_total_accuracy is not None:
        lo = max(lo, -(-(_least_above(spec.min_total_accuracy, q, spec.strict) - q_b + r_a) // 2))
    return lo, hi


def _intervals(values: list[int]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for v in values:
        if out and out[-1][1] + 1 == v:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return tuple(out)


def _subsets(n: int) -> list[tuple[int, ...]]:
    return [c for size in range(1, n + 1) for c in itertools.combinations(range(n), size)]


def per_qa_loop(sketch: Sketch, spec: SafetySpec) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Baseline: the alarm's conditions evaluated ``Q_a`` by ``Q_a`` in pure Python."""
    q, r_a, tables = _observed(sketch)
    n = sketch.n_classifiers
    feasible: dict[tuple[int, ...], list[int]] = {s: [] for s in _subsets(n)}
    for q_a in range(q + 1):
        seg = [_segment(spec, q, q_a, r) for r in r_a]
        ok_single = [lo <= hi for lo, hi in seg]
        ok_pair = {}
        for (i, j), (n_aa, n_ab, n_ba, n_bb) in tables.items():
            (lo_i, hi_i), (lo_j, hi_j) = seg[i], seg[j]
            ok_pair[(i, j)] = (
                ok_single[i]
                and ok_single[j]
                and lo_i + lo_j <= q_a + n_aa
                and hi_i + hi_j >= q_a - n_bb
                and lo_i - hi_j <= n_ab
                and lo_j - hi_i <= n_ba
            )
        for subset in feasible:
            if len(subset) == 1:
                good = ok_single[subset[0]]
            else:
                good = all(ok_pair[p] for p in itertools.combinations(subset, 2))
            if good:
                feasible[subset].append(q_a)
    return {s: _intervals(v) for s, v in feasible.items()}


def lattice(sketch: Sketch, spec: SafetySpec) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Baseline: per ``Q_a`` and pair, enumerate ``R_{a_i,a}`` on its segment (``O(Q^2)``)."""
    q, r_a, tables = _observed(sketch)
    n = sketch.n_classifiers
    feasible: dict[tuple[int, ...], list[int]] = {s: [] for s in _subsets(n)}
    for q_a in range(q + 1):
        seg = [_segment(spec, q, q_a, r) for r in r_a]
        ok_pair = {}
        for (i, j), (n_aa, n_ab, n_ba, n_bb) in tables.items():
            (lo_i, hi_i), (lo_j, hi_j) = seg[i], seg[j]
            found = False
            for x_i in range(lo_i, hi_i + 1):
                # x_j with some joint-correct z: 0 <= z <= n_aa, 0 <= x_i - z <= n_ab,
                # 0 <= x_j - z <= n_ba, 0 <= q_a - x_i - x_j + z <= n_bb
                for z in range(max(0, x_i - n_ab), min(n_aa, x_i) + 1):
                    low = max(lo_j, z, q_a - x_i + z - n_bb)
                    high = min(hi_j, z + n_ba, q_a - x_i + z)
                    if low <= high:
                        found = True
                        break
                if found:
                    break
            ok_pair[(i, j)] = found
        for subset in feasible:
            if len(subset) == 1:
                good = seg[subset[0]][0] <= seg[subset[0]][1]
            else:
                good = all(ok_pair[p] for p in itertools.combinations(subset, 2))
            if good:
                feasible[subset].append(q_a)
    return {s: _intervals(v) for s, v in feasible.items()}


def _as_map(report: AlarmReport, sketch: Sketch) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    index = {name: k for k, name in enumerate(sketch.classifiers)}
    return {tuple(index[c] for c in r.classifiers): r.feasible_Qa for r in report.subsets}


# -- the run ---------------------------------------------------------------------------------
def scan_route(sketch: Sketch, spec: SafetySpec) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Baseline: the per-``Q_a`` scan the module keeps as its reference."""
    observed = alarm._observe(sketch)
    subsets = _subsets(sketch.n_classifiers)
    return {s: tuple(found) for s, found in zip(subsets, alarm._scan(observed, spec, subsets))}


class Baselines:
    """Each baseline timed once per specification (and scan size), checked, and cached."""

    def __init__(self, args: argparse.Namespace, rng: np.random.Generator) -> None:
        self.args = args
        self.rng = rng
        self.sketches: dict[int, Sketch] = {}
        self.cache: dict[tuple[str, str, int], float] = {}

    def sketch(self, n_items: int) -> Sketch:
        if n_items not in self.sketches:
            self.sketches[n_items] = make_sketch(self.rng, n_items, self.args.classifiers)
        return self.sketches[n_items]

    def _timed(
        self, kind: str, name: str, sketch: Sketch, route: Callable[[], Any], spec: SafetySpec
    ) -> float:
        key = (kind, name, sketch.Q)
        if key not in self.cache:
            seconds, result = best_time(route, 1)
            _check(
                result == _as_map(pairwise_report(sketch, spec), sketch),
                f"{name}: {kind} disagrees at Q={sketch.Q}",
            )
            self.cache[key] = seconds
        return self.cache[key]

    def scan(self, name: str, spec: SafetySpec, sketch: Sketch) -> tuple[float, bool]:
        """Scan seconds at ``Q`` (scaled when run on fewer items) and whether scaled."""
        small = sketch if sketch.Q <= self.args.scan_items else self.sketch(self.args.scan_items)
        seconds = self._timed("scan", name, small, lambda: scan_route(small, spec), spec)
        return seconds * (sketch.Q + 1) / (small.Q + 1), small is not sketch

    def loop(self, name: str, spec: SafetySpec, sketch: Sketch) -> float:
        small = self.sketch(min(self.args.loop_items, sketch.Q))
        seconds = self._timed("per-Q_a loop", name, small, lambda: per_qa_loop(small, spec), spec)
        return seconds * (sketch.Q + 1) / (small.Q + 1)

    def lattice(self, name: str, spec: SafetySpec, sketch: Sketch) -> tuple[float, float]:
        """Lattice enumeration and ``logical_alarm`` seconds, both at ``--lattice-items``."""
        tiny = self.sketch(min(self.args.lattice_items, sketch.Q))
        seconds = self._timed("lattice", name, tiny, lambda: lattice(tiny, spec), spec)
        alarm_seconds, _ = best_time(lambda: pairwise_report(tiny, spec), self.args.repeat)
        return seconds, alarm_seconds


def pairwise_report(sketch: Sketch, spec: SafetySpec) -> AlarmReport:
    """The interval method alone (the exact alarm's fast path and cross-check), as a report."""
    observed = alarm._observe(sketch)
    subsets = _subsets(sketch.n_classifiers)
    results = tuple(
        SubsetResult(tuple(sketch.classifiers[i] for i in s), not found, tuple(found))
        for s, found in zip(subsets, feasible_intervals(observed, spec, subsets))
    )
    return AlarmReport(sketch.Q, spec, results, tuple(sketch.classifiers), tuple(sketch.labels))


# -- the exact alarm (issue 12): every subset's verdict and the minimal firing subsets ----------
EXACT_GRID = [(n, r) for r in (2, 3, 4) for n in range(3, 11) if r**n <= 1100]
EXACT_ITEMS = (12, 10**3, 10**6, 10**9)
#: Accuracy cases: every classifier right with this probability, or ``"one bad"``: ``c0`` never
#: agrees with ``c1`` (it answers the label after ``c1``'s), the others right with 0.8: the pair
#: ``c0, c1`` and every superset fire, at every size.
EXACT_ACCURACY: tuple[float | str, ...] = (0.8, 0.55, "one bad")
EXACT_TARGETS = {(10, 2): 1.0, (5, 3): 1.0}
#: Most states the brute-force enumeration keeps before it is skipped ("-").
BRUTE_STATES = 200_000


def make_labelled_sketch(
    rng: np.random.Generator, n_items: int, n_classifiers: int, n_labels: int, accuracy: float | str
) -> Sketch:
    """Uniform prevalences; each classifier right with its accuracy, otherwise a uniform other label."""
    labels = "abcd"[:n_labels]
    bad = accuracy == "one bad"
    right_rate = 0.8 if bad else float(accuracy)
    patterns = list(itertools.product(range(n_labels), repeat=n_classifiers))
    cells: dict[str, int] = {}
    for truth in range(n_labels):
        law = np.ones(len(patterns))
        for i in range(n_classifiers):
            if bad and i == 0:  # c0 never agrees with c1: the next label after c1's answer
                law *= np.array([float(p[0] == (p[1] + 1) % n_labels) for p in patterns])
                continue
            rates = np.full(n_labels, (1 - right_rate) / (n_labels - 1))
            rates[truth] = right_rate
            law *= np.array([rates[p[i]] for p in patterns])
        share = n_items // n_labels + (1 if truth < n_items % n_labels else 0)
        for p, c in zip(patterns, rng.multinomial(share, law / law.sum())):
            if c:
                key = "".join(labels[k] for k in p)
                cells[key] = cells.get(key, 0) + int(c)
    return Sketch.from_counts(cells, labels=list(labels))


def _above(spec: SafetySpec, count: int, threshold: Fraction | None, size: int) -> bool:
    """``count / size`` above ``threshold`` (strictly when the spec is strict; None: no condition)."""
    if threshold is None:
        return True
    margin = count * threshold.denominator - threshold.numerator * size
    return margin > 0 if spec.strict else margin >= 0


def brute_force(sketch: Sketch, spec: SafetySpec) -> dict[tuple[str, ...], bool] | None:
    """Baseline: every labelled test enumerated (by its members' correct counts and label counts).

    A subset is quiet iff some labelled test lets all its members meet ``spec``: the final
    states give, each, the set of classifiers meeting it. None when the states pass
    :data:`BRUTE_STATES`.
    """
    labels, names = list(sketch.labels), list(sketch.classifiers)
    r, n = len(labels), len(names)
    states = {(tuple(0 for _ in range(n * r)), tuple(0 for _ in range(r)))}
    for pattern, count in sketch.unlabelled().counts().items():
        index = [labels.index(x) for x in pattern]
        splits = [c for c in itertools.product(range(count + 1), repeat=r) if sum(c) == count]
        states = {
            (
                tuple(v + (split[k % r] if index[k // r] == k % r else 0) for k, v in enumerate(correct)),
                tuple(a + b for a, b in zip(sizes, split)),
            )
            for correct, sizes in states
            for split in splits
        }
        if len(states) > BRUTE_STATES:
            return None
    meeting = set()
    for correct, sizes in states:
        good = frozenset(
            i
            for i in range(n)
            if all(
                _above(spec, correct[i * r + ell], spec.threshold(names[i], labels[ell]), sizes[ell])
                for ell in range(r)
            )
        )
        meeting.add(good)
    return {tuple(names[i] for i in s): not any(set(s) <= m for m in meeting) for s in _subsets(n)}


def exact_cases(args: argparse.Namespace) -> list[str]:
    """Time the exact report (verdicts only) and the minimal firing subsets over the grid; check them."""
    rng = np.random.default_rng(args.seed)
    missed = []
    print(
        "\nexact alarm: logical_alarm(prevalences=False) (every subset's verdict with its evidence) and "
        "minimal_firing; R = 2 checked against the interval method (exact for pairs, necessary beyond); "
        "where the labelled tests can be enumerated (small Q), every verdict checked against brute force; "
        "x columns: baseline time / exact report time"
    )
    print(
        f"{'N':>3} {'R':>2} {'items':>11} {'acc':>7} {'subsets':>8} {'fires':>6} {'undec':>6} "
        f"{'report s':>9} {'minimal s':>9} {'pairwise s':>10} {'x pairw':>8} {'brute s':>9} "
        f"{'x brute':>8}  target"
    )
    for n, r in EXACT_GRID:
        for n_items in EXACT_ITEMS:
            for accuracy in EXACT_ACCURACY:
                sketch = make_labelled_sketch(rng, n_items, n, r, accuracy)
                spec = SafetySpec(Fraction(1, 2) if r == 2 else Fraction(1, 3) + Fraction(1, 20))
                seconds, report = best_time(lambda: logical_alarm(sketch, spec, prevalences=False), 1)
                minimal_seconds, minimal = best_time(lambda: minimal_firing(sketch, spec), 1)
                firing = {r_.classifiers for r_ in report.minimal_firing()}
                _check(firing == set(minimal), f"N={n} R={r}: minimal firing subsets differ")
                pairwise_seconds = float("nan")
                if r == 2:
                    pairwise_seconds, pairwise = best_time(lambda: pairwise_report(sketch, spec), 1)
                    for exact, necessary in zip(report.subsets, pairwise.subsets):
                        if necessary.fires:
                            _check(
                                exact.fires, f"N={n}: pairwise fires on {exact.classifiers}, exact does not"
                            )
                        if len(exact.classifiers) <= 2 and exact.verdict != "undecided":
                            _check(exact.fires == necessary.fires, f"N={n}: pair verdicts differ")
                brute_seconds, brute = (
                    best_time(lambda: brute_force(sketch, spec), 1)
                    if n_items <= 100
                    else (float("nan"), None)
                )
                if brute is None:
                    brute_seconds = float("nan")
                else:
                    for result in report.subsets:
                        _check(
                            result.verdict != "undecided" and result.fires == brute[result.classifiers],
                            f"N={n} R={r} Q={n_items}: {result.classifiers} disagrees with brute force",
                        )
                target = EXACT_TARGETS.get((n, r))
                quiet = not report.fires
                gated = target is not None and (r == 3 or quiet) and n_items == 10**9
                verdict = "" if not gated else ("meets" if seconds < target else "MISSES")
                if gated and seconds >= target:
                    missed.append(f"N={n} R={r} Q={n_items}")
                print(
                    f"{n:>3} {r:>2} {n_items:>11} {accuracy!s:>7} {len(report.subsets):>8} "
                    f"{sum(x.fires for x in report.subsets):>6} {len(report.undecided()):>6} {seconds:>9.3f} "
                    f"{minimal_seconds:>9.3f} {pairwise_seconds:>10.4f} {pairwise_seconds / seconds:>8.3g} "
                    f"{brute_seconds:>9.3f} {brute_seconds / seconds:>8.3g}  {verdict}",
                    flush=True,
                )
    return missed


#: Panels of judges: (N, R, Q) of the full default report timed against the previous routes.
PANEL_FULL = ((3, 4, 300), (4, 4, 300), (4, 6, 400))
#: Panels whose full report is timed alone (the previous route's maxima take minutes each: one of
#: 6 x 8 x 600 ran 204 s and stayed undecided).
PANEL_NEW_ONLY = ((5, 8, 400),)
#: Panels timed for verdicts and minimal firing subsets only (the full report is refused up front).
PANEL_VERDICTS = ((12, 8, 600), (20, 5, 600))


def make_panel(
    rng: np.random.Generator, n_items: int, n_judges: int, n_labels: int, abstain: float
) -> Sketch:
    """Judges right with 0.75 (else a uniform other label), abstaining with ``abstain``; uniform truth."""
    labels = [f"l{k}" for k in range(n_labels)]
    truth = rng.integers(0, n_labels, n_items)
    right = rng.random((n_items, n_judges)) < 0.75
    other = (truth[:, None] + rng.integers(1, n_labels, (n_items, n_judges))) % n_labels
    answers = np.where(right, truth[:, None], other)
    skip = rng.random((n_items, n_judges)) < abstain
    names = labels + ["skip"]
    rows = [[names[n_labels if s else a] for a, s in zip(row, sk)] for row, sk in zip(answers, skip)]
    return Sketch.from_decisions(rows, labels=labels, abstain=["skip"])


def per_subset_ranges(sketch: Sketch, spec: SafetySpec) -> dict[tuple[str, ...], Any]:
    """Today's route before the shared evidence: every quiet subset optimised on its own."""
    from evalgebra.alarm.ranges import exact_qa_set, label_ranges

    verdicts = alarm._Verdicts(sketch, spec)
    out: dict[tuple[str, ...], Any] = {}
    n = sketch.n_classifiers
    for size in range(1, n + 1):
        for subset in itertools.combinations(range(n), size):
            if verdicts(subset).kind != "quiet":
                continue
            program = verdicts.program(subset)
            ranges = {ell: (int(lo.value), -int(hi.value)) for ell, (lo, hi) in label_ranges(program).items()}
            out[tuple(sketch.classifiers[i] for i in subset)] = (tuple(exact_qa_set(program)), ranges)
    return out


def previous_shared(program: Any, ell: int, sign: int, start: Any) -> Any:
    """The shared step before the compact programs: a Farkas certificate of the label's rows alone at the
    best witness's value, on the whole program's unknowns (else the whole program is optimised)."""
    from evalgebra.alarm.certificates import check_certificate, farkas_certificate
    from evalgebra.alarm.program import Program, Row
    from evalgebra.alarm.shared import label_rows
    from evalgebra.alarm.solve import Optimum

    value = sign * start.restrict(program.members).label_counts()[ell]
    below = Row(((("count", ell), -sign),), 1 - value, "below")
    rows = label_rows(program, ell) + (below,)
    relaxed = Program(
        program.members, program.patterns, program.counts, program.n_labels, program.labels, rows
    )
    found = farkas_certificate(relaxed)
    if found is not None and check_certificate(program.with_rows(below), found):
        return Optimum(value, start, found)
    return None


def previous_report(sketch: Sketch, spec: SafetySpec) -> AlarmReport:
    """The full report by the previous route (shared evidence, whole-program optima; no compact programs)."""
    from evalgebra.alarm import shared

    compact_route = shared.label_end
    shared.label_end = previous_shared  # type: ignore[assignment]
    try:
        return logical_alarm(sketch, spec)
    finally:
        shared.label_end = compact_route


def _same_report(report: AlarmReport, old: AlarmReport) -> None:
    for result, before in zip(report.subsets, old.subsets):
        _check(result.verdict == before.verdict, f"{result.classifiers}: verdicts differ")
        if result.feasible is not None and before.feasible is not None and result.feasible.exact:
            if before.feasible.exact:
                _check(tuple(result.feasible) == tuple(before.feasible), f"{result.classifiers}: Q_a differ")
        if result.label_ranges is not None and before.label_ranges is not None:
            _check(result.label_ranges == before.label_ranges, f"{result.classifiers}: label ranges differ")


def panel_cases(args: argparse.Namespace) -> None:
    """Panels of judges with abstentions: the full report against the previous routes, and big panels."""
    from evalgebra.cli.guards import alarm_work, check_alarm
    from evalgebra.errors import SpecError

    rng = np.random.default_rng(args.seed)
    spec = SafetySpec()
    print(
        "\npanels (judges right with 0.75, abstaining on 10%): full default report (compact label programs)"
    )
    print("vs the previous route (shared evidence, whole-program optima) and the per-subset route")
    print(
        f"{'N':>3} {'R':>2} {'Q':>5} {'units':>7} {'report s':>9} {'previous s':>10} {'x':>6} "
        f"{'per-subset s':>12} {'x':>6}"
    )
    for n, r, q in PANEL_FULL + PANEL_NEW_ONLY:
        sketch = make_panel(rng, q, n, r, 0.1)
        units = alarm_work(n, r, len(sketch.counts()))
        seconds, report = best_time(lambda: logical_alarm(sketch, spec), 1)
        line = f"{n:>3} {r:>2} {q:>5} {units:>7} {seconds:>9.2f}"
        if (n, r, q) in PANEL_FULL:
            previous_seconds, previous = best_time(lambda: previous_report(sketch, spec), 1)
            _same_report(report, previous)
            line += f" {previous_seconds:>10.2f} {previous_seconds / seconds:>6.2f}"
        else:
            line += f" {'not run':>10} {'':>6}"
        if (n, r, q) in PANEL_FULL[:2]:
            old_seconds, old = best_time(lambda: per_subset_ranges(sketch, spec), 1)
            for result in report.quiet():
                want = old[result.classifiers]
                _check(tuple(result.feasible) == want[0], f"{result.classifiers}: feasible Q_a differ")
                got = {sketch.labels.index(k): v for k, v in (result.label_ranges or {}).items()}
                _check(got == want[1], f"{result.classifiers}: label ranges differ")
            line += f" {old_seconds:>12.2f} {old_seconds / seconds:>6.2f}"
        inexact = sum(1 for res in report.subsets if res.feasible is not None and not res.feasible.exact)
        print(line + (f"  ({inexact} Q_a sets with unresolved interiors)" if inexact else ""), flush=True)
    print("big panels: verdicts of every subset (prevalences=False) and minimal firing subsets; full report")
    for n, r, q in PANEL_VERDICTS:
        sketch = make_panel(rng, q, n, r, 0.1)
        subsets = None if n <= 12 else [list(sketch.classifiers)]
        seconds, report = best_time(lambda: logical_alarm(sketch, spec, subsets, prevalences=False), 1)
        minimal_seconds, minimal = best_time(lambda: minimal_firing(sketch, spec, max_size=2), 1)
        try:
            check_alarm(n, r, len(sketch.counts()), None, False)
            refused = "not refused"
        except SpecError as error:
            units = str(error).split("is about ")[1].split(" units")[0]
            refused = f"full report refused up front: about {units} units of work"
        print(
            f"{n:>3} {r:>2} {q:>5} verdicts {seconds:.2f} s ({len(report.subsets)} subsets, "
            f"{len(report.undecided())} undecided), minimal firing (size <= 2) {minimal_seconds:.2f} s "
            f"{list(minimal)}; {refused}",
            flush=True,
        )


def run_case(name: str, spec: SafetySpec, sketch: Sketch, baselines: Baselines) -> dict[str, Any]:
    """Time one specification at one size against the baselines (which are checked)."""
    args = baselines.args
    seconds, report = best_time(lambda: pairwise_report(sketch, spec), args.repeat)
    _check(len(report.subsets) == 2**sketch.n_classifiers - 1, f"{name}: not every subset reported")
    _check(canonical(report), f"{name}: intervals not disjoint, increasing, within 0..Q")
    scan_seconds, scan_scaled = baselines.scan(name, spec, sketch)  # checked where it ran
    lattice_seconds, tiny_seconds = baselines.lattice(name, spec, sketch)
    return {
        "case": name,
        "items": sketch.Q,
        "classifiers": sketch.n_classifiers,
        "seconds": seconds,
        "qa_per_s": (sketch.Q + 1) / seconds,
        "target_ratio": seconds / TARGET_SECONDS,
        "firing": sum(r.fires for r in report.subsets),
        "scan": scan_seconds,
        "scan_scaled": scan_scaled,
        "loop_scaled": baselines.loop(name, spec, sketch),
        "lattice_seconds": lattice_seconds,
        "tiny_seconds": tiny_seconds,
        "gated": sketch.Q >= TARGET_ITEMS and sketch.n_classifiers == TARGET_CLASSIFIERS,
    }


def canonical(report: AlarmReport) -> bool:
    """Every subset's intervals disjoint, increasing, non-adjacent and within ``0..Q``."""
    for result in report.subsets:
        found = result.feasible_Qa
        if any(lo > hi or lo < 0 or hi > report.Q for lo, hi in found):
            return False
        if any(b[0] <= a[1] + 1 for a, b in zip(found, found[1:])):
            return False
    return True


def _format(row: dict[str, Any], args: argparse.Namespace) -> str:
    verdict = ("meets" if row["target_ratio"] < 1 else "MISSES") if row["gated"] else "(not gated)"
    mark = "~" if row["scan_scaled"] else ""
    return (
        f"{row['case']:<10} {row['items']:>10} {row['classifiers']:>3} {row['firing']:>6} "
        f"{row['seconds'] * 1e3:>8.2f} {row['qa_per_s']:>9.3g} {row['target_ratio']:>7.4f} {verdict:<12} "
        f"{row['scan'] / row['seconds']:>8.3g}x ({mark}{row['scan']:.2f} s) "
        f"{row['loop_scaled'] / row['seconds']:>8.3g}x (~{row['loop_scaled']:.3g} s) "
        f"{row['lattice_seconds'] / row['tiny_seconds']:>7.3g}x ({row['lattice_seconds']:.2f} s "
        f"vs {row['tiny_seconds'] * 1e3:.1f} ms at Q={args.lattice_items})"
    )


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(float(part)) if "e" in part.lower() else int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--items: comma-separated item counts, got {text!r}") from None
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=_sizes, default=DEFAULT_ITEMS, help="comma-separated sizes Q")
    parser.add_argument("--classifiers", type=int, default=TARGET_CLASSIFIERS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--scan-items",
        type=int,
        default=10_000_000,
        help="largest Q the scan baseline runs at (scaled beyond)",
    )
    parser.add_argument("--loop-items", type=int, default=20_000, help="items for the per-Q_a loop baseline")
    parser.add_argument("--lattice-items", type=int, default=400, help="items for the lattice baseline")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a gated case misses the target")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="time the exact alarm (N = 3..10, R = 2..4, Q = 10^3..10^9) instead",
    )
    parser.add_argument(
        "--panels",
        action="store_true",
        help="time panels of judges with abstentions (full report vs per-subset route; N = 12, 20)",
    )
    args = parser.parse_args(argv)
    if args.panels:
        panel_cases(args)
        return 0
    if args.exact:
        missed_exact = exact_cases(args)
        print("exact targets: " + (f"MISSED by {missed_exact}" if missed_exact else "all gated cases met"))
        return 1 if missed_exact and args.strict else 0
    sizes = args.items
    if min(*sizes, args.classifiers, args.repeat, args.scan_items, args.loop_items, args.lattice_items) < 1:
        parser.error("sizes and --repeat must be positive")
    if args.classifiers > 8:
        parser.error("--classifiers: at most 8 (2^N - 1 subsets, and the baselines are slow)")

    rng = np.random.default_rng(args.seed)
    baselines = Baselines(args, rng)
    print(
        f"bench_alarm: logical_alarm, {args.classifiers} classifiers, all {2**args.classifiers - 1} subsets, "
        f"best of {args.repeat}, seed {args.seed}"
    )
    print(
        f"target {TARGET_SECONDS} s at Q >= {TARGET_ITEMS:.0e}, N = {TARGET_CLASSIFIERS} "
        "(ratio < 1 meets it); "
        f"speed-ups are baseline time / logical_alarm time; scan timed at Q <= {args.scan_items}, per-Q_a "
        f"loop at Q = {args.loop_items}, both scaled linearly beyond (~); lattice enumeration compared at "
        f"Q = {args.lattice_items}"
    )
    print(
        f"{'case':<10} {'items':>10} {'N':>3} {'fires':>6} {'ms':>8} {'Q_a/s':>9} "
        f"{'target':>7} {'':<12} {'vs scan (previous route)':<25} {'vs per-Q_a loop':<22} "
        f"{'vs lattice enumeration'}"
    )
    rows = []
    for n_items in sizes:
        sketch = baselines.sketch(n_items)
        for name, spec in SPECS.items():
            row = run_case(name, spec, sketch, baselines)
            print(_format(row, args), flush=True)
            rows.append(row)
    gated = [f"{r['case']}@{r['items']}" for r in rows if r["gated"]]
    missed = [f"{r['case']}@{r['items']}" for r in rows if r["gated"] and r["target_ratio"] >= 1]
    if not gated:
        print(f"target not checked: it applies at >= {TARGET_ITEMS} items x {TARGET_CLASSIFIERS} classifiers")
    else:
        print(
            f"target met by {len(gated) - len(missed)} of {len(gated)} gated cases"
            + (f"; MISSED by {missed}" if missed else "")
        )
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
