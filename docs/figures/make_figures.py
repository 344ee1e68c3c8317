"""Regenerate the README figures: ``python docs/figures/make_figures.py``.

* ``alarm_trace.png``: the logical alarm on the BIG-Bench-Mistake graders (*A logical alarm
  for misaligned binary classifiers*, Figure 4), :func:`evalgebra.plots.alarm.plot_alarm_trace`;
* ``alarm_accuracy_ranges.png``: each BIG-Bench-Mistake grader's exact accuracy range on each
  label from the counts alone, over every answer key and over those under which it meets
  the specification, with the truth, :func:`evalgebra.plots.alarm.plot_accuracy_ranges`;
* ``evaluation_space.png``: a pair's possible evaluations at one assumed ``Q_a``, per label
  (*A logical alarm for misaligned binary classifiers*, Figure 2: ``Q = 100``,
  ``R_{a_1} = 60``, ``R_{a_2} = 20``, ``Q_a = 60``),
  :func:`evalgebra.plots.evaluation_space.plot_pair_evaluations`;
* ``partition_acs.png``: the ACS employment test partitioned by true label, truth against the
  algebraic evaluator and majority voting (*Algebraic Evaluation Theorems*, Table 1),
  :func:`evalgebra.plots.evaluation.plot_partition`;
* ``consistency.png``: the metrics of *Samplewise consistency metrics* over every pair of
  eight simulated runs (items of random difficulty: a run errs on an item with that item's
  probability), :func:`evalgebra.plots.consistency.plot_consistency`;
* ``many_labels.png``: three classifiers and three labels from an exact simulation: the six
  candidate points (label permutations) and the chosen one against the truth,
  :func:`evalgebra.plots.many_labels.plot_label_permutations` (the README's example).

The papers: A. Corrada-Emmanuel, I. Parker and R. Bharadwaj, *A logical alarm for misaligned
binary classifiers* (arXiv:2409.11052); A. Corrada-Emmanuel, *Algebraic Evaluation Theorems*;
*Samplewise consistency metrics* (draft manuscript). See ``docs/theory.md#the-logical-alarm``,
``docs/theory.md#majority-voting`` and ``docs/theory.md#samplewise-consistency-metrics``.

The PNGs carry no software version or date, so a rerun with the same matplotlib gives the
same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")

from evalgebra import datasets  # noqa: E402
from evalgebra.data.point import EvaluationPoint  # noqa: E402
from evalgebra.data.simulate import expected_sketch  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.evaluators.dispatch import evaluate  # noqa: E402
from evalgebra.plots.alarm import plot_accuracy_ranges, plot_alarm_trace  # noqa: E402
from evalgebra.plots.consistency import plot_consistency  # noqa: E402
from evalgebra.plots.evaluation import plot_partition  # noqa: E402
from evalgebra.plots.evaluation_space import plot_pair_evaluations  # noqa: E402
from evalgebra.plots.many_labels import plot_label_permutations  # noqa: E402
from evalgebra.spec import EnsembleSpec  # noqa: E402

HERE = Path(__file__).resolve().parent

#: The three-label example of the guide: response[classifier][true label][answer] (the last answer
#: completes each row).
MANY_LABELS = {
    "c0": {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}},
    "c1": {"a": {"a": "3/5", "b": "1/5"}, "b": {"a": "1/5", "b": "7/10"}, "c": {"a": "1/10", "b": "1/10"}},
    "c2": {"a": {"a": "4/5", "b": "1/10"}, "b": {"a": "1/5", "b": "3/5"}, "c": {"a": "1/10", "b": "3/10"}},
}


def main(argv: list[str] | None = None) -> int:
    out = Path(argv[0]) if argv else HERE
    out.mkdir(parents=True, exist_ok=True)
    save = {"dpi": 110, "metadata": {"Software": None}}
    plot_alarm_trace(datasets.load("bigbench_mistake")).savefig(out / "alarm_trace.png", **save)
    plot_accuracy_ranges(datasets.load("bigbench_mistake")).savefig(out / "alarm_accuracy_ranges.png", **save)
    pair = Sketch.from_counts({"aa": 20, "ab": 40, "bb": 40}, labels=["a", "b"])
    plot_pair_evaluations(pair, 60).savefig(out / "evaluation_space.png", **save)
    acs = datasets.load("acs_employment")
    results = {m: evaluate(acs.unlabelled(), m) for m in ("algebraic", "majority")}
    plot_partition(acs, results).savefig(out / "partition_acs.png", **save)
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 2, size=400)
    difficulty = rng.beta(0.6, 3.0, size=400)  # most items easy, a few hard
    runs = np.where(rng.random((8, 400)) < difficulty, 1 - truth, truth)
    plot_consistency(runs, truth).savefig(out / "consistency.png", **save)
    three = EvaluationPoint.from_values(
        EnsembleSpec(["c0", "c1", "c2"], ["a", "b", "c"]), {"a": "1/2", "b": "3/10"}, response=MANY_LABELS
    )
    plot_label_permutations(evaluate(expected_sketch(three).unlabelled()), three).savefig(
        out / "many_labels.png", **save
    )
    for name in (
        "alarm_trace.png",
        "alarm_accuracy_ranges.png",
        "evaluation_space.png",
        "partition_acs.png",
        "consistency.png",
        "many_labels.png",
    ):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
