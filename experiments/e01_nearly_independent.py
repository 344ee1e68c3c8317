r"""e01: searching a pool of classifiers for nearly error-independent trios.

The search of sections 4-5 of *Streaming algorithms for evaluating noisy judges on unlabeled
data - binary classification* (Corrada-Emmanuel, arXiv:2306.01726), run on offline data; see
``docs/theory.md#nearly-independent-trios`` and ``docs/theory.md#failure-modes-and-alarms``.

A pool of logistic-regression classifiers is trained on disjoint feature subsets of offline
data (scikit-learn's breast-cancer and digits datasets, and Breiman's synthetic two-norm
problem generated here), each on its own 1/3 of a small training set. On the held-out
items, every trio of classifiers that share no feature is a candidate evaluation ensemble:
:func:`evalgebra.search.trios.search_trios` rejects it by the algebraic failure modes and
ranks the survivors. The experiment reports

1. failure rates against test size (the paper's Figure 2): the fraction of candidate trios
   raising each failure mode on random tests of each size, and the fraction rejected on
   every test of that size;
2. how well each ranking criterion predicts the true estimate error of the survivors
   (Spearman rank correlation, over survivors, per run), and the errors of the best-ranked
   trios against those of all survivors (the error a random survivor would have);
3. the best trio's evaluation against the truth (the paper's supplement, Figures 2-4).

The error of a trio is the largest absolute difference between its decoded algebraic
estimate and the true value over its seven statistics (prevalence, two accuracies per
member), the truth being the exact evaluation point of the labelled held-out items.

Writes a deterministic text report (no timings) and PNG figures.

Usage: ``python experiments/e01_nearly_independent.py [--seed 0] [--quick] [--out PATH] [--figures DIR]``
(full run: one to three minutes on two cores; ``--quick``: two datasets, one pool each, a few seconds).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evalgebra.data.point import EvaluationPoint, evaluation_point  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.independent.distance import containing_residuals  # noqa: E402
from evalgebra.fileio import write_output  # noqa: E402
from evalgebra.results import Estimate  # noqa: E402
from evalgebra.search.failure import FailureProfile, failure_profile  # noqa: E402
from evalgebra.search.result import TrioResult  # noqa: E402
from evalgebra.search.trios import CRITERIA, search_trios  # noqa: E402

NAME = "e01_nearly_independent"
LABELS = ("a", "b")
#: Test sizes of the failure profile (capped by each dataset's held-out items).
#: The criteria compared against the true errors (own_distance is exactly 0: checked exactly instead).
RANKED = ("disagreement", "extended_distance")
SIZES = (25, 50, 100, 200, 400, 800, 1600, 3200, 6400)


@dataclass(frozen=True)
class Setting:
    """How one dataset is split and which pool is trained on it."""

    name: str
    train: int  # training items (three disjoint folds)
    group: int  # features per classifier
    partitions: int  # random feature partitions in the pool
    note: str


FULL = (
    Setting(
        "twonorm", 600, 3, 4, "Breiman's two-norm: 20 independent N(+-2/sqrt(20), 1) features, 7400 items"
    ),
    Setting("breast_cancer", 300, 3, 2, "sklearn load_breast_cancer: 569 items, 30 correlated features"),
    Setting("digits", 600, 6, 2, "sklearn load_digits, label a = digit < 5: 1797 items, 64 pixels"),
)
QUICK = (
    Setting("twonorm", 600, 3, 2, FULL[0].note),
    Setting("breast_cancer", 300, 3, 1, FULL[1].note),
)


# -- data and pool ---------------------------------------------------------------------------------
def twonorm(n_items: int, rng: np.random.Generator, n_features: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """Breiman's two-norm problem: two unit-covariance Gaussians with means
    ``+-2/sqrt(20)`` per coordinate."""
    y = rng.integers(0, 2, n_items)
    shift = 2.0 / np.sqrt(n_features)
    x = rng.standard_normal((n_items, n_features)) + np.where(y == 0, shift, -shift)[:, None]
    return x, y


def load(name: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Features and 0/1 labels (0 is label ``a``) of an offline dataset, rows shuffled by ``rng``."""
    if name == "twonorm":
        x, y = twonorm(7400, rng)
    elif name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer()
        x, y = data.data, data.target
    elif name == "digits":
        from sklearn.datasets import load_digits

        data = load_digits()
        x, y = data.data, (data.target >= 5).astype(int)
    else:
        raise ValueError(f"unknown dataset {name!r}")
    order = rng.permutation(len(y))
    return np.asarray(x, dtype=float)[order], np.asarray(y)[order]


def train_pool(
    x: np.ndarray, y: np.ndarray, setting: Setting, rng: np.random.Generator
) -> tuple[list[tuple[int, ...]], list[object]]:
    """Classifiers on disjoint feature groups of ``setting.partitions`` random partitions.

    Within a partition the groups are disjoint; member ``g`` of a partition trains on fold
    ``g mod 3`` of the training items. Features with no variation are left out.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    varying = np.flatnonzero(x.std(axis=0) > 0)
    folds = np.array_split(np.arange(len(y)), 3)
    features: list[tuple[int, ...]] = []
    models: list[object] = []
    for _ in range(setting.partitions):
        order = rng.permutation(varying)
        for g in range(len(order) // setting.group):
            group = tuple(sorted(int(f) for f in order[g * setting.group : (g + 1) * setting.group]))
            fold = folds[g % 3]
            model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            model.fit(x[fold][:, group], y[fold])
            features.append(group)
            models.append(model)
    return features, models


def shared_features(features: Sequence[tuple[int, ...]]) -> list[tuple[int, int]]:
    """Pairs of classifiers whose feature groups overlap (they may not share a trio)."""
    return [
        (i, j)
        for i in range(len(features))
        for j in range(i + 1, len(features))
        if set(features[i]) & set(features[j])
    ]


# -- one run -------------------------------------------------------------------------------------
@dataclass
class RunResult:
    setting: Setting
    n_classifiers: int
    n_test: int
    n_candidates: int
    n_survivors: int
    profile: FailureProfile
    errors: dict[str, np.ndarray]  # criterion -> errors of the survivors, in ranked order
    scores: dict[str, np.ndarray]  # criterion -> their scores, in ranked order
    rejected_errors: np.ndarray  # rejected trios that still have a real decoded estimate
    own_zero: int  # survivors whose estimate satisfies their own containing variety exactly
    best: TrioResult | None  # best trio by the default criterion
    best_truth: EvaluationPoint | None
    mean_accuracy: float


def trio_error(estimate: Estimate | None, truth: EvaluationPoint, classifiers: Sequence[str]) -> float:
    """Largest absolute error over the prevalence of ``a`` and every member's two accuracies."""
    if estimate is None:
        return float("nan")
    pairs: list[tuple[Any, Any]] = [(estimate.prevalence["a"], truth.prevalence_of()["a"])]
    pairs += [
        (estimate.accuracy[c][label], truth.accuracy(c, label)) for c in classifiers for label in LABELS
    ]
    try:
        return max(abs(float(e) - float(t)) for e, t in pairs)
    except (TypeError, ValueError):  # an undefined or complex statistic
        return float("nan")


def run(setting: Setting, rng: np.random.Generator, sizes: Sequence[int], repeats: int) -> RunResult:
    """Train one pool, profile its failures, search it on all held-out items, compare with the truth."""
    x, y = load(setting.name, rng)
    x_train, y_train = x[: setting.train], y[: setting.train]
    x_test, y_test = x[setting.train :], y[setting.train :]
    features, models = train_pool(x_train, y_train, setting, rng)
    decisions = np.column_stack(
        [
            m.predict(x_test[:, f])  # type: ignore[attr-defined]
            for f, m in zip(features, models)
        ]
    )
    names = [f"c{k:02d}" for k in range(len(models))]
    pool = Sketch.from_decisions(decisions, labels=list(LABELS), classifiers=names, truth=y_test)
    exclude = shared_features(features)
    profile = failure_profile(pool, [s for s in sizes if s <= pool.Q], repeats, rng, exclude=exclude)
    truth = evaluation_point(pool, structure="independent")
    errors, scores = {}, {}
    searches = {criterion: search_trios(pool, exclude=exclude, criterion=criterion) for criterion in CRITERIA}
    for criterion, search in searches.items():
        survivors = search.survivors()
        errors[criterion] = np.array([trio_error(r.estimate, truth, r.classifiers) for r in survivors])
        scores[criterion] = np.array([r.score for r in survivors])
    default = searches[CRITERIA[0]]
    rejected_errors = np.array([trio_error(r.estimate, truth, r.classifiers) for r in default.rejected()])
    # the paper's literal criterion: each survivor's exact estimate on its own containing variety
    own_zero = 0
    for r in default.survivors():
        if r.estimate is not None:
            residuals = containing_residuals(r.estimate, pool.marginalise(list(r.classifiers)))
            own_zero += all(v == 0 for v in residuals.values())
    best = default.best(1)
    return RunResult(
        setting,
        len(models),
        pool.Q,
        len(default),
        len(default.survivors()),
        profile,
        errors,
        scores,
        rejected_errors[np.isfinite(rejected_errors)],
        own_zero,
        best[0] if best else None,
        truth.restrict(list(best[0].classifiers)) if best else None,
        float(np.mean(decisions == y_test[:, None])),
    )


# -- report and figures --------------------------------------------------------------------------
def _fmt(value: float, digits: int = 3) -> str:
    return "nan" if not np.isfinite(value) else f"{value:.{digits}f}"


def _mean(values: Sequence[float]) -> float:
    finite = [v for v in values if np.isfinite(v)]
    return float(np.mean(finite)) if finite else float("nan")


def _summary(values: np.ndarray) -> str:
    values = values[np.isfinite(values)]
    if not len(values):
        return "n=0"
    return (
        f"n={len(values)} median={_fmt(float(np.median(values)))} mean={_fmt(float(values.mean()))} "
        f"min={_fmt(float(values.min()))}"
    )


def report(runs: dict[str, list[RunResult]], argv: Sequence[str], inputs: str) -> str:
    from evalgebra.plots.search import spearman

    summary: list[tuple[str, float, float, float, float, float]] = []
    lines = [
        f"# Generated by experiments/{NAME}.py {' '.join(argv)}. Regenerate: python experiments/{NAME}.py "
        f"{' '.join(argv)}",
        f"# input sha256: {hashlib.sha256(inputs.encode()).hexdigest()}",
        "# error = largest absolute error of a trio's decoded estimate over its 7 statistics (truth: the "
        "labelled held-out items)",
    ]
    for name, results in runs.items():
        setting = results[0].setting
        lines += [
            "",
            f"## {name}: {setting.note}",
            f"pool: {setting.partitions} random partition(s) of the features into groups of {setting.group}, "
            f"logistic regression, {setting.train} training items in 3 disjoint folds; {len(results)} run(s)",
        ]
        for k, r in enumerate(results):
            lines.append(
                f"run {k}: {r.n_classifiers} classifiers (mean accuracy {_fmt(r.mean_accuracy)}), "
                f"{r.n_test} held-out items, {r.n_candidates} candidate trios, {r.n_survivors} survive "
                f"on all held-out items"
            )
        lines += ["", "### failure rates against test size (mean over runs; fraction of candidate trios)"]
        sizes = results[0].profile.sizes
        kinds = sorted({kind for r in results for kind in r.profile.rates})
        header = f"{'size':>6} " + " ".join(f"{kind:>17}" for kind in kinds) + f" {'always_rejected':>17}"
        lines.append(header)
        for s, size in enumerate(sizes):
            row = [
                np.mean([r.profile.rates.get(kind, (0.0,) * len(sizes))[s] for r in results])
                for kind in kinds
            ]
            always = np.mean([r.profile.always_rejected[s] for r in results])
            lines.append(f"{size:>6} " + " ".join(f"{v:>17.3f}" for v in row) + f" {always:>17.3f}")
        lines += [
            "",
            "### ranking: Spearman(score, error) over the survivors of each run; "
            "errors of the best-ranked trios",
        ]
        for criterion in RANKED:
            rhos = [spearman(r.scores[criterion], r.errors[criterion]) for r in results]
            top1 = [r.errors[criterion][0] if len(r.errors[criterion]) else np.nan for r in results]
            top5 = np.concatenate([r.errors[criterion][:5] for r in results])
            lines.append(
                f"{criterion:>18}: Spearman per run "
                + " ".join(_fmt(v, 2) for v in rhos)
                + f" (mean {_fmt(_mean(rhos), 2)})"
            )
            lines.append(f"{'':>18}  best trio's error per run: " + " ".join(_fmt(v) for v in top1))
            lines.append(f"{'':>18}  best 5 trios per run: {_summary(top5)}")
        all_errors = np.concatenate([r.errors[CRITERIA[0]] for r in results])
        oracle = [np.min(r.errors[CRITERIA[0]]) if len(r.errors[CRITERIA[0]]) else np.nan for r in results]
        lines.append(f"{'all survivors':>18}: {_summary(all_errors)}  (the error of a random survivor)")
        lines.append(
            f"{'rejected (real)':>18}: {_summary(np.concatenate([r.rejected_errors for r in results]))}"
        )
        lines.append(f"{'oracle':>18}: smallest survivor error per run " + " ".join(_fmt(v) for v in oracle))
        zero, total = sum(r.own_zero for r in results), sum(r.n_survivors for r in results)
        lines.append(
            f"{'own_distance':>18}: {zero} of {total} survivors lie exactly on their own containing "
            "variety (exact residuals 0): the literal criterion is 0 and ranks nothing"
        )
        summary.append(
            (
                name,
                _mean([spearman(r.scores["disagreement"], r.errors["disagreement"]) for r in results]),
                _mean(
                    [spearman(r.scores["extended_distance"], r.errors["extended_distance"]) for r in results]
                ),
                float(np.median(np.concatenate([r.errors["disagreement"][:5] for r in results]))),
                float(np.median(all_errors)),
                _mean(oracle),
            )
        )
        best, truth = results[0].best, results[0].best_truth
        if best is not None and truth is not None and best.estimate is not None:
            lines += [
                "",
                f"### best trio of run 0 ({CRITERIA[0]}): {', '.join(best.classifiers)} "
                f"(score {best.score:.3g}, {best.n_partners} partners, alarms: "
                f"{', '.join(sorted(best.alarms)) or 'none'})",
            ]
            est = best.estimate
            lines.append(f"{'statistic':>12} {'estimate':>9} {'truth':>9}")
            lines.append(
                f"{'P_a':>12} {float(est.prevalence['a']):>9.4f} {float(truth.prevalence_of()['a']):>9.4f}"
            )
            for c in best.classifiers:
                for label in LABELS:
                    lines.append(
                        f"{c + ' ' + label:>12} {float(est.accuracy[c][label]):>9.4f} "
                        f"{float(truth.accuracy(c, label)):>9.4f}"
                    )  # type: ignore[arg-type]
    lines += [
        "",
        "## summary: mean Spearman(score, error) per run; median error of the 5 best trios by "
        "disagreement, of all survivors; mean oracle error",
        f"{'dataset':>14} {'disagreement':>13} {'extended':>9} {'best 5':>7} {'all':>7} {'oracle':>7}",
    ]
    for name, rho_d, rho_e, top, everyone, oracle_error in summary:
        lines.append(
            f"{name:>14} {_fmt(rho_d, 2):>13} {_fmt(rho_e, 2):>9} {_fmt(top):>7} {_fmt(everyone):>7} "
            f"{_fmt(oracle_error):>7}"
        )
    return "\n".join(lines) + "\n"


def mean_profile(profiles: Sequence[FailureProfile]) -> FailureProfile:
    """The failure rates of several runs averaged (every run has the same sizes)."""
    kinds = sorted({kind for p in profiles for kind in p.rates})
    sizes = profiles[0].sizes
    rates = {
        kind: tuple(
            float(np.mean([p.rates.get(kind, (0.0,) * len(sizes))[s] for p in profiles]))
            for s in range(len(sizes))
        )
        for kind in kinds
    }
    always = tuple(float(np.mean([p.always_rejected[s] for p in profiles])) for s in range(len(sizes)))
    return FailureProfile(
        sizes,
        sum(p.repeats for p in profiles),
        round(np.mean([p.n_candidates for p in profiles])),
        rates,
        always,
    )


def figures(runs: dict[str, list[RunResult]], folder: Path, suffix: str) -> list[Path]:
    from matplotlib.figure import Figure

    from evalgebra.plots.search import (
        plot_error_groups,
        plot_estimate_vs_truth,
        plot_failure_profile,
        plot_score_vs_error,
    )

    folder.mkdir(parents=True, exist_ok=True)
    names = list(runs)
    written = []

    def save(fig: Figure, stem: str) -> None:
        path = folder / f"{NAME.split('_')[0]}_{stem}{suffix}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        written.append(path)

    fig = Figure(figsize=(4.6 * len(names), 3.8), layout="constrained")
    for ax, name in zip(fig.subplots(1, len(names), squeeze=False)[0], names):
        profile = mean_profile([r.profile for r in runs[name]])
        tests = profile.repeats // len(runs[name])
        plot_failure_profile(
            profile, ax=ax, title=f"{name} ({len(runs[name])} pool(s) x {tests} tests per size)"
        )
    fig.axes[0].legend(fontsize="x-small", loc="best")
    save(fig, "failure_rates")

    fig = Figure(figsize=(4.6 * len(names), 7.2), layout="constrained")
    grid = fig.subplots(2, len(names), squeeze=False)
    for row, (criterion, xlabel) in enumerate(
        (
            ("disagreement", "disagreement with neighbouring trios (median)"),
            ("extended_distance", "containing distance of T + m (median)"),
        )
    ):
        for ax, name in zip(grid[row], names):
            scores = np.concatenate([r.scores[criterion] for r in runs[name]])
            errors = np.concatenate([r.errors[criterion] for r in runs[name]])
            plot_score_vs_error(
                scores,
                errors,
                ax=ax,
                best=0,
                xlabel=xlabel,
                ylabel="true estimate error",
                title=f"{name}: {criterion}",
            )
    fig.suptitle(
        "survivors' score against their true error, all pools together (the report gives Spearman per pool)",
        fontsize="medium",
    )
    save(fig, "score_vs_error")

    fig = Figure(figsize=(4.6 * len(names), 4.0), layout="constrained")
    for ax, name in zip(fig.subplots(1, len(names), squeeze=False)[0], names):
        groups = {
            "best 5\ndisagreement": np.concatenate([r.errors["disagreement"][:5] for r in runs[name]]),
            "best 5\nextended": np.concatenate([r.errors["extended_distance"][:5] for r in runs[name]]),
            "all\nsurvivors": np.concatenate([r.errors[CRITERIA[0]] for r in runs[name]]),
            "rejected\n(real)": np.concatenate([r.rejected_errors for r in runs[name]]),
        }
        plot_error_groups(groups, ax=ax, title=name)
    save(fig, "best_vs_random")

    fig = Figure(figsize=(4.0 * len(names), 4.0), layout="constrained")
    for ax, name in zip(fig.subplots(1, len(names), squeeze=False)[0], names):
        best, truth = runs[name][0].best, runs[name][0].best_truth
        if best is not None and best.estimate is not None:
            plot_estimate_vs_truth(
                best.estimate, truth, ax=ax, title=f"{name}: best trio ({', '.join(best.classifiers)})"
            )
    save(fig, "best_trio")
    return written


# -- entry point ---------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"{NAME}.py", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    parser.add_argument("--quick", action="store_true", help="two datasets, one run, fewer tests (seconds)")
    parser.add_argument(
        "--out", type=Path, default=None, help=f"report file (default experiments/results/{NAME}[.quick].txt)"
    )
    parser.add_argument(
        "--figures",
        type=Path,
        default=None,
        help="folder of the PNG figures (default docs/figures; with --quick, none unless given)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    settings, n_runs, repeats = (QUICK, 1, 3) if args.quick else (FULL, 5, 10)
    out = args.out or ROOT / "experiments" / "results" / f"{NAME}{'.quick' if args.quick else ''}.txt"
    canonical = ["--seed", str(args.seed)] + (["--quick"] if args.quick else [])
    started = time.perf_counter()
    root = np.random.default_rng(args.seed)
    streams = root.spawn(len(settings))
    runs: dict[str, list[RunResult]] = {}
    for setting, stream in zip(settings, streams):
        runs[setting.name] = [run(setting, rng, SIZES, repeats) for rng in stream.spawn(n_runs)]
        print(f"{setting.name}: {n_runs} run(s) done at {time.perf_counter() - started:.1f} s", flush=True)
    inputs = repr((settings, n_runs, repeats, SIZES))
    out.parent.mkdir(parents=True, exist_ok=True)
    write_output(out, report(runs, canonical, inputs))
    folder = args.figures if args.figures is not None or args.quick else ROOT / "docs" / "figures"
    written = figures(runs, folder, "_quick" if args.quick else "") if folder is not None else []
    print(f"wrote {out} and {len(written)} figure(s) ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
