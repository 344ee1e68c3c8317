r"""Generated LLM-judge data with a known truth: five judges grade answers pass/fail, two may abstain.

The shape of a real judge evaluation: every answer of a test set is graded by five judges,
``pass`` or ``fail``; two of the judges sometimes give no verdict, one by answering
``"unsure"``, the other by returning nothing (``None``). How often they abstain depends on
the answer's *difficulty*, and failing answers are harder to judge than passing ones, so
abstention tracks the true label: dropping the items with a missing verdict drops failing
answers more often and biases every estimate made on what is left. Counting abstentions as a
response (``missing="abstain"``) keeps every item.

Generation (seeded, :func:`llm_judges`): the true label is ``pass`` with probability
``pass_rate``; an item's difficulty is ``Beta(2, 5)`` for passing answers and ``Beta(5, 2)``
for failing ones; each judge answers correctly with its own probability per true label,
independently of the others given the true label; the two abstaining judges then withhold
their verdict with probability ``base + slope * difficulty``. Within one true label the two
abstainers' silences are mildly correlated through the difficulty, as real judges' would
be; the exact sample statistics are in :meth:`JudgesData.truth_point`, to measure what that
costs.

Examples
--------
>>> data = llm_judges(n_items=2000, seed=0)
>>> data.judges, data.labels
(('large_a', 'large_b', 'medium', 'small_unsure', 'small_silent'), ('pass', 'fail'))
>>> frame = data.frame()
>>> frame.shape, int(frame["small_silent"].isna().sum()) > 0
((2000, 7), True)
>>> sketch = data.sketch()
>>> sketch.abstain, sketch.missing_report.cells == int(frame["small_silent"].isna().sum())
(('unsure',), True)
>>> data.sketch(missing="drop").Q < 2000
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.numbers.seeds import check_seed

__all__ = ["JudgesData", "llm_judges", "JUDGES"]

#: Each judge's chance of the right verdict on a passing and on a failing answer, and its
#: abstention (base rate, slope in difficulty; ``None``: never abstains) and how it abstains.
JUDGES: dict[str, dict[str, Any]] = {
    "large_a": {"correct": (0.92, 0.85), "abstain": None},
    "large_b": {"correct": (0.88, 0.88), "abstain": None},
    "medium": {"correct": (0.83, 0.75), "abstain": None},
    "small_unsure": {"correct": (0.78, 0.70), "abstain": (0.02, 0.30), "says": "unsure"},
    "small_silent": {"correct": (0.75, 0.72), "abstain": (0.01, 0.20), "says": None},
}


@dataclass(frozen=True)
class JudgesData:
    r"""Five judges' verdicts on a test of answers, with the truth and each item's difficulty.

    Attributes
    ----------
    judges : tuple of str
        The judges' names (columns of :meth:`frame`).
    labels : tuple of str
        ``("pass", "fail")``.
    verdicts : numpy.ndarray
        ``items x judges`` objects: ``"pass"``, ``"fail"``, ``"unsure"`` or ``None``.
    truth : numpy.ndarray
        The true label of every item (objects).
    difficulty : numpy.ndarray
        Every item's difficulty in ``[0, 1]``.
    seed : int
        The seed the data was drawn with.

    Examples
    --------
    >>> data = llm_judges(n_items=500, seed=1)
    >>> point = data.truth_point()
    >>> point.response_rate("small_unsure", "unsure", "fail") > point.response_rate(
    ...     "small_unsure", "unsure", "pass"
    ... )
    True
    """

    judges: tuple[str, ...]
    labels: tuple[str, ...]
    verdicts: np.ndarray
    truth: np.ndarray
    difficulty: np.ndarray
    seed: int

    @property
    def n_items(self) -> int:
        """Number of graded answers."""
        return int(self.verdicts.shape[0])

    def frame(self) -> Any:
        """A pandas DataFrame: one column per judge (with gaps), ``truth`` and ``difficulty``."""
        import pandas as pd

        columns: dict[str, Any] = {name: self.verdicts[:, k] for k, name in enumerate(self.judges)}
        return pd.DataFrame({**columns, "truth": self.truth, "difficulty": self.difficulty})

    def sketch(self, missing: str = "abstain", labelled: bool = False) -> Sketch:
        """The judges' sketch: ``"unsure"`` is an abstention, ``None`` follows ``missing=``.

        ``labelled=True`` splits the counts by the true label (for checking estimates).
        """
        return Sketch.from_decisions(
            self.verdicts,
            labels=list(self.labels),
            classifiers=list(self.judges),
            truth=self.truth if labelled else None,
            abstain="unsure",
            missing=missing,
        )

    def truth_point(self, structure: Any = "independent") -> Any:
        """The exact sample statistics of the test (every response row, abstentions included): an
        :class:`~evalgebra.data.point.EvaluationPoint`."""
        from evalgebra.data.point import evaluation_point  # SymPy only when asked for

        return evaluation_point(self.sketch(labelled=True), structure=structure)


def llm_judges(n_items: int = 10_000, seed: int = 0, pass_rate: float = 0.6) -> JudgesData:
    r"""Draw a judge test: ``n_items`` answers graded pass/fail by five judges, two of whom may abstain.

    Parameters
    ----------
    n_items : int
        Answers graded (default 10,000).
    seed : int
        Seed of the NumPy generator: the same seed gives the same data.
    pass_rate : float
        Probability that an answer deserves ``pass``.

    Returns
    -------
    JudgesData

    Examples
    --------
    >>> a, b = llm_judges(300, seed=3), llm_judges(300, seed=3)
    >>> bool((a.verdicts == b.verdicts).all()), sorted(set(a.verdicts[:, 3]) - {"pass", "fail"})
    (True, ['unsure'])
    """
    if isinstance(n_items, bool) or not isinstance(n_items, int) or n_items < 1:
        raise SpecError(f"n_items must be a positive integer, got {n_items!r}")
    if not 0 < pass_rate < 1:
        raise SpecError(f"pass_rate must lie strictly between 0 and 1, got {pass_rate!r}")
    rng = np.random.default_rng(check_seed(seed))
    labels = ("pass", "fail")
    passing = rng.random(n_items) < pass_rate
    difficulty = np.where(passing, rng.beta(2, 5, n_items), rng.beta(5, 2, n_items))
    verdicts = np.empty((n_items, len(JUDGES)), dtype=object)
    for k, (_name, judge) in enumerate(JUDGES.items()):
        correct = rng.random(n_items) < np.where(passing, judge["correct"][0], judge["correct"][1])
        says_pass = correct == passing
        column = np.where(says_pass, "pass", "fail").astype(object)
        if judge["abstain"] is not None:
            base, slope = judge["abstain"]
            silent = rng.random(n_items) < base + slope * difficulty
            column[silent] = judge["says"]
        verdicts[:, k] = column
    truth = np.where(passing, labels[0], labels[1]).astype(object)
    return JudgesData(tuple(JUDGES), labels, verdicts, truth, difficulty, seed)
