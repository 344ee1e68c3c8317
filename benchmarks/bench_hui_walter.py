r"""Benchmark: Hui-Walter evaluation on the Wisconsin breast-cancer data against the known truth.

The static experiment of "Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter
Paradigm for Performance Estimation in Online and Static Settings", rebuilt offline with
scikit-learn's bundled copy of the data (569 tumours, 212 malignant):

1. Two populations from a Gaussian mixture (two components, full covariances) fitted to
   five standardised features, as the paper's latent-profile step (mean radius, mean texture,
   mean smoothness, mean compactness, texture error). No label is used.
2. A stratified split: 200 training items, 369 test items (the paper's sizes).
3. Two classifiers on disjoint features, trained on the training items: a random forest
   on size and concavity features, an RBF support-vector classifier on texture, smoothness
   and symmetry features (chosen so that the tests' errors share little information).
4. On the test items, with the answer key dropped: the exact closed form
   (:func:`~evalgebra.evaluators.hui_walter.exact.evaluate_hui_walter`), the Gibbs sampler with
   Beta(1, 1) priors on the count sketch (posterior means, 95% equal-tailed intervals) and
   the online variant (the cross-tab updated every ``--batch`` items in a random order).
   Truth: each population's share of malignant tumours and each classifier's accuracy on
   malignant (sensitivity) and benign (specificity) tumours over the test items.
5. The same on ``--repeats`` other train/test splits, for this feature partition and for
   one that breaks the Hui-Walter assumption (the ten ``mean`` features against the ten
   ``worst`` features: the same measurements summarised twice, so the errors correlate):
   how often the credible intervals hold the truth, and the largest error.
6. Time of the sampler on the sketch and on the same cross-tab with every count x 1000: a
   sweep costs the same for 369 items as for 369,000.

Prints the tables and writes the figure (``--figure``; default
``docs/figures/hui_walter_breast_cancer.png``). Needs scikit-learn and matplotlib (the
``test`` extra). Nothing here is imported by the package.

Usage::

    python benchmarks/bench_hui_walter.py [--seed 0] [--repeats 6] [--batch 10]
                                          [--iterations 4000] [--figure PATH | --no-figure]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evalgebra.data.point import evaluation_point  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.hui_walter import GibbsResult, OnlineHuiWalterEvaluator, evaluate_hui_walter_gibbs  # noqa: E402
from evalgebra.evaluators.hui_walter.exact import HuiWalterEstimate, evaluate_hui_walter, hui_walter_truth  # noqa: E402
from evalgebra.results import Evaluation  # noqa: E402

LABELS = ("malignant", "benign")  # scikit-learn's target: 0 = malignant, 1 = benign
CLASSIFIERS = ("rf", "svc")
POPULATIONS = ("pop1", "pop2")
TEST_SIZE = 369
#: the Hui-Walter paper's latent-profile features
MIXTURE_FEATURES = ("mean radius", "mean texture", "mean smoothness", "mean compactness", "texture error")
PARTITIONS = {
    "size | texture": (
        ("mean radius", "mean perimeter", "mean area", "mean concave points", "worst concave points"),
        ("mean texture", "worst texture", "texture error", "mean smoothness", "mean symmetry"),
    ),
    "mean | worst": (
        (
            "mean radius",
            "mean texture",
            "mean perimeter",
            "mean area",
            "mean smoothness",
            "mean compactness",
            "mean concavity",
            "mean concave points",
            "mean symmetry",
            "mean fractal dimension",
        ),
        (
            "worst radius",
            "worst texture",
            "worst perimeter",
            "worst area",
            "worst smoothness",
            "worst compactness",
            "worst concavity",
            "worst concave points",
            "worst symmetry",
            "worst fractal dimension",
        ),
    ),
}
MAIN = "size | texture"
DEFAULT_FIGURE = ROOT / "docs" / "figures" / "hui_walter_breast_cancer.png"


@dataclass
class Run:
    """One train/test split: the labelled test sketch and every estimate."""

    sketch: Sketch
    order: np.ndarray  # test items in stream order
    decisions: np.ndarray  # test items x 2 label indices
    population: np.ndarray  # test items
    closed: Evaluation
    posterior: GibbsResult
    truth: dict[tuple[str, ...], Any]


def _columns(names: Sequence[str], wanted: Sequence[str]) -> list[int]:
    return [list(names).index(w) for w in wanted]


def populations(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Features, targets, the mixture's population of every item, the feature names."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.mixture import GaussianMixture
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer()
    names = list(data.feature_names)
    z = StandardScaler().fit_transform(data.data[:, _columns(names, MIXTURE_FEATURES)])
    mixture = GaussianMixture(2, covariance_type="full", n_init=5, random_state=seed).fit(z)
    component = mixture.predict(z)
    # name the components by size (pop1 = the larger), so the names do not depend on the fit's order
    if np.sum(component == 0) < np.sum(component == 1):
        component = 1 - component
    return data.data, data.target, component, names


def run(
    x: np.ndarray,
    y: np.ndarray,
    population: np.ndarray,
    names: list[str],
    partition: str,
    seed: int,
    iterations: int,
) -> Run:
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    first, second = (_columns(names, f) for f in PARTITIONS[partition])
    train, test = train_test_split(np.arange(len(y)), test_size=TEST_SIZE, random_state=seed, stratify=y)
    forest = RandomForestClassifier(n_estimators=200, random_state=seed).fit(x[train][:, first], y[train])
    svc = make_pipeline(StandardScaler(), SVC()).fit(x[train][:, second], y[train])
    decisions = np.column_stack([forest.predict(x[test][:, first]), svc.predict(x[test][:, second])])
    sketch = Sketch.from_decisions(
        decisions,
        labels=LABELS,
        classifiers=CLASSIFIERS,
        truth=y[test],
        population=population[test],
        populations=POPULATIONS,
    )
    unlabelled = sketch.unlabelled()
    closed = evaluate_hui_walter(unlabelled)
    posterior = evaluate_hui_walter_gibbs(
        unlabelled, iterations=iterations, burn_in=iterations // 4, seed=seed
    )
    order = np.random.default_rng(seed).permutation(len(test))
    return Run(sketch, order, decisions, population[test], closed, posterior, hui_walter_truth(sketch))


def closed_values(result: Evaluation) -> dict[tuple[str, ...], float | None]:
    point = result.point
    if not isinstance(point, HuiWalterEstimate):
        return {}
    out: dict[tuple[str, ...], float | None] = {
        ("prevalence", pop): _float(point.by_population[pop][LABELS[0]]) for pop in POPULATIONS
    }
    out.update(
        {("accuracy", c, label): _float(point.accuracy[c][label]) for c in CLASSIFIERS for label in LABELS}
    )
    return out


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _name(key: tuple[str, ...]) -> str:
    if key[0] == "prevalence":
        return f"malignant share, {key[1]}"
    return f"{key[1]} accuracy on {key[2]}"


def main_table(result: Run) -> list[str]:
    closed = closed_values(result.closed)
    lines = [
        f"{'statistic':<28} {'truth':>7} {'closed form':>11} {'Gibbs mean':>10}  {'95% interval':<18} covers"
    ]
    for key, (mean, low, high) in result.posterior.summary().items():
        truth = float(result.truth[key])
        value = closed.get(key)
        shown = "-" if value is None else f"{value:.3f}"
        lines.append(
            f"{_name(key):<28} {truth:7.3f} {shown:>11} {mean:10.3f}  [{low:.3f}, {high:.3f}]     "
            f"{'yes' if low <= truth <= high else 'NO'}"
        )
    return lines


def error_correlations(sketch: Sketch) -> str:
    """The tests' error correlation within each true label, from the answer key (exact)."""
    point = evaluation_point(sketch.pooled(), structure="complete")
    parts = []
    for label in LABELS:
        g = point.correlation_value((0, 1), label, (label, label))
        p0, p1 = point.accuracy(0, label), point.accuracy(1, label)
        if g is None or p0 is None or p1 is None:
            continue
        scale = float(p0 * (1 - p0) * p1 * (1 - p1)) ** 0.5
        parts.append(f"{label} {float(g) / scale if scale else float('nan'):+.2f}")
    return ", ".join(parts)


def figure(result: Run, online: OnlineHuiWalterEvaluator, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = list(result.posterior.parameters)
    closed = closed_values(result.closed)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.6), gridspec_kw={"width_ratios": [1, 1.25]})
    ys = np.arange(len(keys))[::-1]
    for y_pos, key, (mean, low, high) in zip(ys, keys, result.posterior.summary().values()):
        left.plot(
            [low, high],
            [y_pos, y_pos],
            color="tab:blue",
            lw=2.5,
            solid_capstyle="butt",
            label="Gibbs 95% interval" if y_pos == ys[0] else None,
        )
        left.plot(
            mean, y_pos, "o", color="tab:blue", ms=5, label="Gibbs posterior mean" if y_pos == ys[0] else None
        )
        value = closed.get(key)
        if value is not None:
            left.plot(
                value,
                y_pos + 0.22,
                "D",
                color="tab:orange",
                ms=5,
                label="closed form (exact)" if y_pos == ys[0] else None,
            )
        left.plot(
            float(result.truth[key]), y_pos, "k|", ms=16, mew=2, label="truth" if y_pos == ys[0] else None
        )
    left.set_yticks(ys, [_name(k) for k in keys])
    left.set_xlim(0, 1.02)
    left.set_xlabel("value")
    left.set_title(f"static: {result.sketch.Q} test items, answer key hidden")
    left.legend(loc="lower left", fontsize=8, frameon=False)
    left.grid(axis="x", alpha=0.3)

    trace = online.trace()
    items = trace[("items",)]
    colours = plt.get_cmap("tab10")
    for k, key in enumerate(keys):
        right.plot(items, trace[key], color=colours(k), lw=1.4, label=_name(key))
        right.axhline(float(result.truth[key]), color=colours(k), ls=":", lw=1)
    right.set_ylim(0, 1.02)
    right.set_xlim(0, items[-1])
    right.set_xlabel("test items streamed")
    right.set_title(f"online: closed form every {items[0]} items (dotted: truth)")
    right.legend(loc="center", bbox_to_anchor=(0.6, 0.4), fontsize=7.5, ncol=2, frameon=False)
    right.grid(alpha=0.3)
    fig.suptitle(
        "Hui-Walter on the Wisconsin breast-cancer data: two populations (Gaussian mixture), "
        "random forest and SVC on disjoint features",
        fontsize=10,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def stream(result: Run, batch: int) -> OnlineHuiWalterEvaluator:
    online = OnlineHuiWalterEvaluator(CLASSIFIERS, LABELS, POPULATIONS)
    for start in range(0, len(result.order), batch):
        chosen = result.order[start : start + batch]
        online.update(result.decisions[chosen], result.population[chosen])
    if online.sketch != result.sketch.unlabelled():
        raise AssertionError("the online cross-tab differs from the batch sketch")
    return online


def timing(sketch: Sketch, iterations: int) -> list[str]:
    pop, truth, code, count = sketch.unlabelled().table()
    scaled = Sketch(sketch.classifiers, sketch.labels, pop, truth, code, count * 1000, sketch.populations)
    lines = []
    for name, sk in (("test items", sketch.unlabelled()), ("x 1000", scaled)):
        start = time.perf_counter()
        evaluate_hui_walter_gibbs(sk, iterations=iterations, burn_in=0, seed=0)
        seconds = time.perf_counter() - start
        lines.append(
            f"{name:<11} Q = {sk.Q:>7}: {iterations} sweeps x 4 chains in {seconds:.2f} s "
            f"({1e6 * seconds / iterations:.0f} us per sweep)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seed", type=int, default=0, help="mixture, split, forest and sampler seed (default 0)"
    )
    parser.add_argument("--repeats", type=int, default=6, help="train/test splits per partition (default 6)")
    parser.add_argument("--batch", type=int, default=10, help="items per online batch (default 10)")
    parser.add_argument(
        "--iterations", type=int, default=4000, help="Gibbs sweeps kept per chain (default 4000)"
    )
    parser.add_argument(
        "--figure", type=Path, default=DEFAULT_FIGURE, help=f"PNG to write (default {DEFAULT_FIGURE})"
    )
    parser.add_argument("--no-figure", action="store_true", help="do not draw the figure")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        import sklearn
    except ImportError:
        print("scikit-learn is not installed (pip install -e '.[test]'): skipped")
        return 0

    x, y, population, names = populations(args.seed)
    print(f"scikit-learn {sklearn.__version__}; Gaussian mixture on {', '.join(MIXTURE_FEATURES)}")
    for k, pop in enumerate(POPULATIONS):
        members = population == k
        print(f"  {pop}: {members.sum()} tumours, {np.mean(y[members] == 0):.3f} malignant")

    main_run = run(x, y, population, names, MAIN, args.seed, args.iterations)
    print(
        f"\nfeatures {MAIN}: rf on {', '.join(PARTITIONS[MAIN][0])}; svc on {', '.join(PARTITIONS[MAIN][1])}"
    )
    print(
        "cross-tab (rf, svc) aa ab ba bb per population: "
        + "; ".join(f"{pop} {main_run.sketch.count_vector(pop).tolist()}" for pop in POPULATIONS)
    )
    print(
        "error correlation of the two tests within each true label (truth): "
        f"{error_correlations(main_run.sketch)}"
    )
    print(f"closed form alarms: {', '.join(sorted(main_run.closed.alarm_kinds())) or 'none'}")
    print("\n".join(main_table(main_run)))
    print(
        f"R-hat: max {np.nanmax(main_run.posterior.rhat):.3f}; chains mirrored by the label-switching rule: "
        f"{int(np.sum(main_run.posterior.switched > 0.5))} of {len(main_run.posterior.switched)}"
    )

    online = stream(main_run, args.batch)
    final = online.history[-1]
    print(
        f"\nonline: {len(online.history)} batches of {args.batch}; final cross-tab equals the batch sketch; "
        f"alarms after the last batch: {', '.join(final.alarms) or 'none'}"
    )
    defined = [h for h in online.history if h.values]
    if defined:
        print(f"  first evaluation with a chosen point after {defined[0].items} items")

    print(
        f"\n{args.repeats} train/test splits per feature partition (seeds "
        f"{args.seed}..{args.seed + args.repeats - 1}):"
    )
    print("(per split the largest error over the six statistics; medians over the splits)")
    print(
        f"{'features':<16} {'intervals holding the truth':>28} {'Gibbs error':>20} {'closed-form error':>21}"
        f"  {'error corr. (median)':>20}"
    )
    for partition in PARTITIONS:
        covered, total, gibbs_errors, closed_errors, correlations = 0, 0, [], [], []
        for seed in range(args.seed, args.seed + args.repeats):
            result = (
                main_run
                if (partition == MAIN and seed == args.seed)
                else run(x, y, population, names, partition, seed, args.iterations // 2)
            )
            flags = result.posterior.covers(result.truth)
            covered += sum(flags.values())
            total += len(flags)
            gibbs_errors.append(
                max(abs(m - float(result.truth[k])) for k, (m, _, _) in result.posterior.summary().items())
            )
            closed = closed_values(result.closed)
            if closed and None not in closed.values():
                closed_errors.append(
                    max(abs(float(v) - float(result.truth[k])) for k, v in closed.items() if v is not None)
                )
            correlations.append(error_correlations(result.sketch))
        values = [float(part.split()[-1]) for c in correlations for part in c.split(", ")]
        print(
            f"{partition:<16} {covered:>15} of {total:<10} {np.median(gibbs_errors):>8.3f} (median) "
            f"{np.median(closed_errors) if closed_errors else float('nan'):>12.3f} (median)  "
            f"{np.median(values):>+18.2f}"
        )

    print("\nGibbs sampler on the count sketch (cost independent of the number of items):")
    print("\n".join(timing(main_run.sketch, min(args.iterations, 2000))))
    if not args.no_figure:
        figure(main_run, online, args.figure)
        print(f"\nwrote {args.figure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
