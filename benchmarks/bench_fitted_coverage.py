r"""Benchmark: coverage and cost of the bootstrap of the fitted point (:mod:`evalgebra.evaluators.fitted`).

The target (issue 23): over 500 simulated sampled tests per case, the 95% intervals of the
fitted point cover the population's parameters 93-97% of the time; and a 300-item, 4-judge,
5-label bootstrap runs in under 30 s with a mean accuracy-interval width under 0.5.

Each simulated test draws ``--items`` items independently from a known population, as one
multinomial draw of the pattern counts (the law of drawing every item), with numpy and
``--seed``; it is evaluated (``evaluate``: the exact points and the fitted point), and the fitted
point's percentile intervals are computed from ``--n-boot`` resamples, each refitted by EM from
the full data's fitted point. Every interval is checked against the population's value.

Cases:

* ``binary3``: three binary classifiers, independent given the label (no degrees of freedom
  left: the fitted point is the exact one wherever that lies inside the simplex);
* ``binary4``: four binary classifiers, independent;
* ``pair``: four binary classifiers whose first two have correlated errors (the correlation
  ``G`` of the pair is ``--correlation`` on each label). The model fitted is the latent class
  model with the pair as one classifier of four answers (a pair free to correlate, the rest
  independent: the structure ``c0-c1``), started from the independent fit; the statistics are
  the prevalences, every classifier's accuracy (the pair's from the marginals of its joint
  rows) and the pair's correlation on each label;
* ``labels3``: three classifiers, three labels (prevalences, accuracies, every response rate);
* ``abstain3``: three binary classifiers that may abstain, more often on label ``b`` (every
  response rate, the abstention rates included).

Printed per case: tests, pooled coverage (and the lowest and highest over statistics), the mean
interval width, the failed and relabelled resamples, and the time of one bootstrap against one
evaluation (the baseline, measured in the same run).

``--judges N`` then runs N simulated 300-question tests of 4 LLM judges answering 5 labels,
with a few missing answers (counted as abstentions), times ``evaluate(..., intervals="bootstrap")``
with 1000 resamples, and prints the mean width of the accuracy intervals, against the exact
route (``fit=False``: the abstention evaluator on every resample) timed on ``--exact-resamples``
resamples and scaled to 1000. ``--strict`` exits 1 when a pooled coverage misses 93-97%, a
judges' run takes 30 s or more, or its mean accuracy width reaches 0.5.

Usage::

    python benchmarks/bench_fitted_coverage.py [--tests 500] [--items 2000] [--n-boot 1000]
        [--cases binary3,binary4,pair,labels3,abstain3] [--correlation 0.05] [--judges 3]
        [--exact-resamples 10] [--seed 0] [--strict]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np
from bench_intervals import POPULATIONS as EXACT_POPULATIONS  # the benchmarks folder is on sys.path
from bench_intervals import TARGET

from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.fitted.bootstrap import bootstrap_fit
from evalgebra.evaluators.fitted.em import Cells, Parameters, em
from evalgebra.evaluators.fitted.fit import sketch_cells, start_from_estimate

#: The exact bootstrap's independent cases (same populations, same 93-97% target), and one with abstentions.
POPULATIONS = {
    **{case: EXACT_POPULATIONS[case] for case in ("binary3", "binary4", "labels3")},
    "abstain3": (  # three binary classifiers, the third answer an abstention ("u"), rarer on label a
        [0.4, 0.6],
        [
            [[0.8, 0.15, 0.05], [0.2, 0.7, 0.1]],
            [[0.75, 0.2, 0.05], [0.25, 0.65, 0.1]],
            [[0.78, 0.2, 0.02], [0.3, 0.65, 0.05]],
        ],
    ),
}
POPULATIONS["pair"] = POPULATIONS["binary4"]


def pair_rows(response: list, correlation: float) -> np.ndarray:
    r"""``joint[l, d0, d1]``: the first two classifiers' answers on label ``l`` with correlation ``G``.

    ``P(d0, d1 | l) = P_{0,d0|l} P_{1,d1|l} + s0 s1 G`` with ``s = +1`` for the right answer and
    ``-1`` for the wrong one (the generating set's pair term for two labels).
    """
    joint = np.zeros((2, 2, 2))
    for ell in range(2):
        for d0, d1 in itertools.product(range(2), repeat=2):
            sign = (1 if d0 == ell else -1) * (1 if d1 == ell else -1)
            joint[ell, d0, d1] = response[0][ell][d0] * response[1][ell][d1] + sign * correlation
    if (joint < 0).any():
        raise SystemExit(f"--correlation {correlation} is too large for the pair's accuracies")
    return joint


def pattern_law(prevalence: list[float], response: list, joint: np.ndarray | None = None) -> np.ndarray:
    """Probability of every decision pattern (canonical order); ``joint``: the first pair's joint rows."""
    n, v = len(response), len(response[0][0])  # the responses: the labels, then any abstentions
    law = np.zeros(v**n)
    for code, pattern in enumerate(itertools.product(range(v), repeat=n)):
        total = 0.0
        for t, p in enumerate(prevalence):
            if joint is None:
                term = np.prod([response[i][t][d] for i, d in enumerate(pattern)])
            else:
                term = joint[t, pattern[0], pattern[1]] * np.prod(
                    [response[i][t][d] for i, d in enumerate(pattern) if i >= 2]
                )
            total += p * term
        law[code] = total
    return law


def merged_cells(cells: Cells) -> Cells:
    """The cells with classifiers 0 and 1 as one classifier whose answer is ``d0 * V + d1``."""
    v = cells.n_responses
    answers = np.column_stack([cells.answers[:, 0] * v + cells.answers[:, 1], cells.answers[:, 2:]])
    return Cells(answers, cells.weights, cells.population, cells.n_labels, v * v, cells.n_populations)


def merged_start(point: Parameters) -> Parameters:
    """An independent point as a point of the merged model: the pair's joint row is the product."""
    response = point.response
    n, r, v = response.shape
    joint = (response[0][:, :, None] * response[1][:, None, :]).reshape(r, v * v)
    rest = np.zeros((n - 2, r, v * v))
    rest[:, :, :v] = response[2:]
    return Parameters(point.prevalence, np.concatenate([joint[None], rest]))


def merged_statistics(prevalence: np.ndarray, response: np.ndarray, n_classifiers: int) -> np.ndarray:
    """``(B, stats)``: prevalences, every classifier's accuracies, the pair's correlation per label."""
    b, r = prevalence.shape[0], prevalence.shape[2]
    joint = response[:, 0].reshape(b, r, r, r)  # [b, l, d0, d1]
    labels = np.arange(r)
    acc0 = joint.sum(axis=3)[:, labels, labels]
    acc1 = joint.sum(axis=2)[:, labels, labels]
    rest = [response[:, i][:, labels, labels] for i in range(1, n_classifiers - 1)]
    both = joint[:, labels, labels, labels]
    return np.concatenate([prevalence[:, 0], acc0, acc1, *rest, both - acc0 * acc1], axis=1)


def truth_vector(case: str, correlation: float) -> tuple[np.ndarray, list[str]]:
    prevalence, response = POPULATIONS[case]
    r, n, v = len(prevalence), len(response), len(response[0][0])
    names = [f"prevalence {t}" for t in range(r)]
    values = list(prevalence)
    for i in range(n):
        values += [response[i][t][t] for t in range(r)]
        names += [f"accuracy c{i} {t}" for t in range(r)]
    if case == "pair":
        values += [correlation] * r
        names += [f"correlation c0-c1 {t}" for t in range(r)]
    elif r >= 3 or v > r:
        values += [response[i][t][a] for i in range(n) for t in range(r) for a in range(v)]
        names += [f"response c{i} {t} {a}" for i in range(n) for t in range(r) for a in range(v)]
    return np.array(values), names


def interval_vector(result, sketch: Sketch) -> np.ndarray:
    """``(stats, 2)`` of an evaluation's chosen point, in :func:`truth_vector`'s order."""
    point, labels, responses = result.point, list(result.labels), list(sketch.responses)
    rows = [point.interval["prevalence"][t] for t in labels]
    rows += [point.interval["accuracy"][c][t] for c in result.classifiers for t in labels]
    if len(labels) >= 3 or sketch.abstain:
        rows += [
            point.interval["response"][c][t][a] for c in result.classifiers for t in labels for a in responses
        ]
    return np.array([(np.nan, np.nan) if row is None else row for row in rows], dtype=float)


def run_case(case: str, args: argparse.Namespace, rng: np.random.Generator) -> dict:
    prevalence, response = POPULATIONS[case]
    r, n, v = len(prevalence), len(response), len(response[0][0])
    labels = [chr(ord("a") + k) for k in range(r)]
    abstain = ["u"] if v > r else []
    patterns = ["".join(p) for p in itertools.product(labels + abstain, repeat=n)]
    joint = pair_rows(response, args.correlation) if case == "pair" else None
    law = pattern_law(prevalence, response, joint)
    truth, names = truth_vector(case, args.correlation)
    hits = np.zeros(truth.size)
    seen = np.zeros(truth.size)
    width = np.zeros(truth.size)
    failed = relabelled = 0
    seconds = {"evaluate": 0.0, "bootstrap": 0.0}
    low_q, high_q = 0.025, 0.975
    for test in range(args.tests):
        counts = rng.multinomial(args.items, law)
        sketch = Sketch.from_counts(
            {p: int(c) for p, c in zip(patterns, counts) if c}, labels=labels, abstain=abstain or None
        )
        start = time.perf_counter()
        result = evaluate(sketch)
        seconds["evaluate"] += time.perf_counter() - start
        start = time.perf_counter()
        if case == "pair":
            cells = merged_cells(sketch_cells(sketch))
            independent = start_from_estimate(result.point, sketch)
            full = em(cells, merged_start(independent).inside())
            draws = bootstrap_fit(cells, full.parameters, args.n_boot, seed=test)
            values = merged_statistics(draws.prevalence, draws.response, n)[draws.usable]
            estimate = merged_statistics(full.parameters.prevalence[None], full.parameters.response[None], n)[
                0
            ]
            low, high = np.quantile(values, [low_q, high_q], axis=0)
            pairs = np.stack([np.minimum(low, estimate), np.maximum(high, estimate)], axis=1)
            failed += int((~draws.usable).sum())
            relabelled += int(draws.relabelled.sum())
        else:
            out = evaluate(sketch, intervals="bootstrap", n_boot=args.n_boot, seed=test)
            pairs = interval_vector(out, sketch)
            failed += out.intervals.n_failed
            relabelled += out.intervals.relabelled
        seconds["bootstrap"] += time.perf_counter() - start
        ok = np.isfinite(pairs).all(axis=1)
        seen += ok
        hits += ok & (pairs[:, 0] <= truth) & (truth <= pairs[:, 1])
        width += np.where(ok, pairs[:, 1] - pairs[:, 0], 0.0)
    per = hits / np.maximum(seen, 1)
    worst = int(np.argmin(per))
    return {
        "case": case,
        "tests": args.tests,
        "coverage": hits.sum() / max(1.0, seen.sum()),
        "low": per.min(),
        "low_name": names[worst],
        "high": per.max(),
        "width": width.sum() / max(1.0, seen.sum()),
        "failed": failed / (args.tests * args.n_boot),
        "relabelled": relabelled / (args.tests * args.n_boot),
        "bootstrap": seconds["bootstrap"] / args.tests,
        "evaluate": seconds["evaluate"] / args.tests,
    }


def judges_sketch(rng: np.random.Generator, items: int = 300, missing: float = 0.03) -> Sketch:
    """4 LLM judges answering 5 labels on ``items`` questions, each judge right with its own accuracy,
    wrong uniformly otherwise, an answer missing with probability ``missing``."""
    prevalence = np.array([0.3, 0.25, 0.2, 0.15, 0.1])
    accuracy = [0.85, 0.75, 0.65, 0.55]
    labels = list("abcde")
    truth = rng.choice(5, size=items, p=prevalence)
    decisions = np.empty((items, len(accuracy)), dtype=object)
    for i, acc in enumerate(accuracy):
        right = rng.random(items) < acc
        wrong = (truth + rng.integers(1, 5, items)) % 5
        answers = np.where(right, truth, wrong)
        decisions[:, i] = [labels[a] for a in answers]
        decisions[rng.random(items) < missing, i] = None
    return Sketch.from_decisions(decisions, labels=labels, missing="abstain")


def run_judges(args: argparse.Namespace, rng: np.random.Generator) -> list[dict]:
    rows = []
    for test in range(args.judges):
        sketch = judges_sketch(rng)
        start, cpu = time.perf_counter(), time.process_time()
        result = evaluate(sketch, intervals="bootstrap", n_boot=1000, seed=test)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        widths = [hi - lo for row in result.point.interval["accuracy"].values() for lo, hi in row.values()]
        exact = None
        if args.exact_resamples:
            start = time.perf_counter()
            evaluate(sketch, intervals="bootstrap", n_boot=args.exact_resamples, seed=test, fit=False)
            exact = (time.perf_counter() - start) / args.exact_resamples * 1000
        rows.append(
            {
                "seconds": seconds,
                "cpu": cpu,
                "width": float(np.mean(widths)),
                "widest": float(np.max(widths)),
                "failed": result.intervals.n_failed,
                "relabelled": result.intervals.relabelled,
                "verdict": result.verdict,
                "exact": exact,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=500)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--cases", default="binary3,binary4,pair,labels3,abstain3")
    parser.add_argument("--correlation", type=float, default=0.05)
    parser.add_argument("--judges", type=int, default=3)
    parser.add_argument("--exact-resamples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    bad = []
    cases = [c for c in args.cases.split(",") if c]
    if cases:
        print(
            f"{args.tests} simulated sampled tests of {args.items} items per case, {args.n_boot} resamples "
            "each; 95% percentile intervals of the fitted point against the population's values"
        )
        print(
            f"{'case':<8} {'coverage':>8} {'lowest (statistic)':>34} {'highest':>7} {'width':>7} "
            f"{'failed':>7} {'relabel':>7} {'boot s':>7} {'eval s':>7} {'ratio':>6}"
        )
    for case in cases:
        if case not in POPULATIONS:
            raise SystemExit(f"unknown case {case!r}; known: {', '.join(POPULATIONS)}")
        row = run_case(case, args, rng)
        lowest = f"{row['low']:.3f} ({row['low_name']})"
        print(
            f"{row['case']:<8} {row['coverage']:8.3f} {lowest:>34} {row['high']:7.3f} {row['width']:7.4f} "
            f"{100 * row['failed']:6.2f}% {100 * row['relabelled']:6.2f}% {row['bootstrap']:7.3f} "
            f"{row['evaluate']:7.3f} {row['bootstrap'] / row['evaluate']:6.1f}",
            flush=True,
        )
        if not TARGET[0] <= row["coverage"] <= TARGET[1]:
            bad.append(f"{case}: coverage {row['coverage']:.3f} outside {TARGET}")
    if args.judges:
        print(
            "\n4 LLM judges x 5 labels x 300 questions, ~3% answers missing (abstentions): "
            "evaluate(..., intervals='bootstrap'), 1000 resamples"
        )
        print(
            f"{'run':>3} {'wall s':>7} {'cpu s':>7} {'acc width':>9} {'widest':>7} {'failed':>6} "
            f"{'relabel':>7} {'verdict':>8} {'exact route s (scaled)':>23} {'speed-up':>8}"
        )
        for k, row in enumerate(run_judges(args, rng)):
            exact = "" if row["exact"] is None else f"{row['exact']:23.1f}"
            ratio = "" if row["exact"] is None else f"{row['exact'] / row['seconds']:8.1f}"
            print(
                f"{k:>3} {row['seconds']:7.2f} {row['cpu']:7.2f} {row['width']:9.3f} {row['widest']:7.3f} "
                f"{row['failed']:6d} {row['relabelled']:7d} {row['verdict']:>8} {exact} {ratio}",
                flush=True,
            )
            if row["seconds"] >= 30 or row["width"] >= 0.5:
                bad.append(f"judges run {k}: {row['seconds']:.1f} s, mean accuracy width {row['width']:.3f}")
    for line in bad:
        print("MISSED:", line)
    return 1 if args.strict and bad else 0


if __name__ == "__main__":
    sys.exit(main())
