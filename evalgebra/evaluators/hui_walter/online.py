r"""Hui-Walter on a stream: the cross-tab grows batch by batch, the closed form is re-evaluated.

:class:`OnlineHuiWalterEvaluator` keeps the exact count of every decision pattern per population (a
:class:`~evalgebra.evaluators.stream.StreamEvaluator`) and, after every batch, evaluates
:func:`~evalgebra.evaluators.hui_walter.exact.evaluate_hui_walter` on the counts so far; the Gibbs
posterior of the current counts is one call away (:meth:`OnlineHuiWalterEvaluator.posterior`).

References
----------
.. [1] "Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter Paradigm for
   Performance Estimation in Online and Static Settings" (anonymous authors, under review
   at TMLR): Algorithm 2, the online setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.hui_walter.exact import (
    HuiWalterEstimate,
    as_float,
    check_hui_walter_decoding,
    evaluate_hui_walter,
)
from evalgebra.evaluators.hui_walter.gibbs import GibbsResult, Key, evaluate_hui_walter_gibbs
from evalgebra.evaluators.stream import StreamEvaluator
from evalgebra.results import Evaluation

__all__ = ["OnlineStep", "OnlineHuiWalterEvaluator"]


@dataclass(frozen=True)
class OnlineStep:
    """The state after one batch: items so far, the chosen evaluation (floats) and the alarm kinds."""

    items: int
    batches: int
    values: Mapping[Key, float | None]
    alarms: tuple[str, ...]


class OnlineHuiWalterEvaluator:
    r"""Hui-Walter on a stream: the cross-tab is updated per batch, the closed form re-evaluated.

    The state is the exact count of every decision pattern per population (a
    :class:`~evalgebra.evaluators.stream.StreamEvaluator`); nothing about single items is kept.
    After each batch the exact closed form (:func:`evaluate_hui_walter`) is evaluated on the
    counts so far and a float summary appended to :attr:`history`. Algorithm 2 of the Hui-Walter ensemble
    paper re-clusters the items to assign populations; here each batch says which population its
    items come from.

    Parameters
    ----------
    classifiers : int or sequence of str
        Two classifiers.
    labels : int or sequence of str
        Two labels (integer decisions index into them).
    populations : sequence of str
        Two or more populations.
    decoding : {"youden", "total_accuracy"}

    Examples
    --------
    >>> online = OnlineHuiWalterEvaluator(["t1", "t2"], ["pos", "neg"], ["p1", "p2"])
    >>> _ = online.update([[0, 0]] * 41 + [[0, 1]] * 49 + [[1, 0]] * 19 + [[1, 1]] * 91, "p1")
    >>> online.history[-1].alarms
    ('blind_spot',)
    >>> result = online.update([[0, 0]] * 43 + [[0, 1]] * 67 + [[1, 0]] * 37 + [[1, 1]] * 253, "p2")
    >>> online.cross_tab().tolist(), result.point.by_population["p2"]["pos"]
    ([[41, 49, 19, 91], [43, 67, 37, 253]], Fraction(1, 4))
    >>> online.history[-1].values[("accuracy", "t1", "pos")]
    0.8
    """

    def __init__(
        self,
        classifiers: int | Sequence[str] = 2,
        labels: int | Sequence[str] = 2,
        populations: Sequence[str] = ("s0", "s1"),
        decoding: str = "youden",
    ) -> None:
        check_hui_walter_decoding(decoding)
        self.stream = StreamEvaluator(classifiers, labels, populations=list(populations))
        if (
            len(self.stream.classifiers) != 2
            or len(self.stream.labels) != 2
            or len(self.stream.populations) < 2
        ):
            raise SpecError(
                "OnlineHuiWalterEvaluator needs 2 classifiers, 2 labels and at least 2 populations"
            )
        self.decoding = decoding
        self.history: list[OnlineStep] = []
        self._last: Evaluation | None = None

    @property
    def sketch(self) -> Sketch:
        """The (unlabelled) sketch of every item so far."""
        return self.stream.sketch

    def cross_tab(self) -> np.ndarray:
        """Counts of the patterns ``aa, ab, ba, bb`` per population, shape ``(populations, 4)``."""
        if self.stream.items == 0:
            return np.zeros((len(self.stream.populations), 4), dtype=np.int64)
        return np.array([self.sketch.count_vector(pop) for pop in self.stream.populations], dtype=np.int64)

    def update(self, decisions: Any, population: Any) -> Evaluation | None:
        r"""Count one batch and re-evaluate.

        Parameters
        ----------
        decisions : array-like
            ``items x 2`` label names or indices.
        population : str or array-like
            The batch's population, or one per item.

        Returns
        -------
        Evaluation or None
            The closed form on everything so far (alarms included); an empty batch changes
            nothing and returns the previous result (None before the first item).
        """
        batches = self.stream.batches
        self.stream.ingest(decisions, population)
        if self.stream.batches == batches:
            return self._last
        result = self._last = evaluate_hui_walter(self.sketch, self.decoding)
        point = result.point
        values: dict[Key, float | None] = {}
        if isinstance(point, HuiWalterEstimate):
            first = self.stream.labels[0]
            values.update(
                {("prevalence", pop): as_float(row[first]) for pop, row in point.by_population.items()}
            )
            values.update(
                {
                    ("accuracy", c, label): as_float(v)
                    for c, row in point.accuracy.items()
                    for label, v in row.items()
                }
            )
        self.history.append(
            OnlineStep(
                self.stream.items, self.stream.batches, values, tuple(sorted({a.kind for a in result.alarms}))
            )
        )
        return result

    def trace(self) -> dict[Key, np.ndarray]:
        """Per parameter the value after every batch (NaN where undefined); key ``("items",)`` the items."""
        keys: list[Key] = [("prevalence", pop) for pop in self.stream.populations] + [
            ("accuracy", c, label) for c in self.stream.classifiers for label in self.stream.labels
        ]
        out: dict[Key, np.ndarray] = {("items",): np.array([h.items for h in self.history], dtype=np.int64)}
        for key in keys:
            out[key] = np.array(
                [np.nan if h.values.get(key) is None else h.values[key] for h in self.history]
            )
        return out

    def posterior(self, **options: Any) -> GibbsResult:
        """The Gibbs posterior on the current cross-tab (options as :func:`evaluate_hui_walter_gibbs`)."""
        return evaluate_hui_walter_gibbs(self.sketch, **options)
