r"""Generated pairwise-preference data with a known truth: a panel of LLM judges says A, B or tie.

LLM-as-judge preference evaluation: every item is a pair of responses, and each judge says
which is better, ``A`` or ``B``, or ``tie``. Three labels, so every judge has a 3 x 3
confusion matrix; ties are the hard label (judges split them). Two judges sometimes give
no verdict: ``small_unsure`` answers ``"unsure"`` (more often on true ties), ``small_silent``
returns nothing (a missing answer). ``small_unsure`` also has the position bias LLM judges
are known for: it leans to ``A``, the response shown first.

Generation (seeded, :func:`judge_preferences`): the true label is drawn with probabilities
:data:`PREFERENCE_PREVALENCE`; each judge then answers from its row of :data:`PANEL` for that true label,
independently of the others given the true label; the abstainers then withhold their verdict
with their rate on that true label. The draws are the truth; :meth:`PreferenceData.records`
gives the long ``item, judge, label`` rows (missing answers absent, ``unsure`` kept),
:meth:`PreferenceData.wide` one row per item with a column per judge (an empty cell when
missing).

Examples
--------
>>> data = judge_preferences(n_items=400, seed=0)
>>> data.judges, data.labels
(('large', 'medium', 'small_unsure', 'small_silent'), ('A', 'B', 'tie'))
>>> rows = data.records()
>>> len(rows) < 4 * 400, rows[0]
(True, ('p000', 'large', 'B'))
>>> data.wide().splitlines()[0]
'item,large,medium,small_unsure,small_silent'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.numbers.seeds import check_seed

__all__ = ["PreferenceData", "judge_preferences", "PANEL", "PREFERENCE_PREVALENCE", "LABELS"]

#: The three labels: response A better, response B better, a tie.
LABELS = ("A", "B", "tie")

#: How often each true label occurs.
PREFERENCE_PREVALENCE = (0.45, 0.40, 0.15)

#: Each judge's answer distribution over ``A, B, tie`` given the true label (rows in the order of
#: :data:`LABELS`), and its abstention: ``(rate on each true label, what it says)`` or ``None``.
PANEL: dict[str, dict[str, Any]] = {
    "large": {"rows": ((0.88, 0.06, 0.06), (0.06, 0.88, 0.06), (0.15, 0.15, 0.70)), "abstain": None},
    "medium": {"rows": ((0.80, 0.10, 0.10), (0.10, 0.80, 0.10), (0.25, 0.20, 0.55)), "abstain": None},
    "small_unsure": {
        "rows": ((0.82, 0.08, 0.10), (0.22, 0.68, 0.10), (0.35, 0.20, 0.45)),
        "abstain": ((0.05, 0.05, 0.25), "unsure"),
    },
    "small_silent": {
        "rows": ((0.74, 0.14, 0.12), (0.14, 0.74, 0.12), (0.25, 0.25, 0.50)),
        "abstain": ((0.08, 0.08, 0.08), None),
    },
}


@dataclass(frozen=True)
class PreferenceData:
    r"""A panel's preference verdicts on pairs of responses, with the truth.

    Attributes
    ----------
    judges, labels : tuple of str
    verdicts : numpy.ndarray
        ``items x judges`` objects: ``"A"``, ``"B"``, ``"tie"``, ``"unsure"`` or ``None``.
    truth : numpy.ndarray
        The true label of every item (objects).
    items : tuple of str
        The items' names (``p000``, ``p001``, ...).
    seed : int

    Examples
    --------
    >>> data = judge_preferences(n_items=300, seed=1)
    >>> [sorted(set(data.verdicts[:, k].tolist()) - set(data.labels), key=str) for k in (2, 3)]
    [['unsure'], [None]]
    """

    judges: tuple[str, ...]
    labels: tuple[str, ...]
    verdicts: np.ndarray
    truth: np.ndarray
    items: tuple[str, ...]
    seed: int

    @property
    def n_items(self) -> int:
        """Number of pairs judged."""
        return int(self.verdicts.shape[0])

    def records(self) -> list[tuple[str, str, str]]:
        """Long ``(item, judge, label)`` rows, item by item: missing answers absent, ``unsure`` kept."""
        return [
            (item, judge, value)
            for item, row in zip(self.items, self.verdicts.tolist())
            for judge, value in zip(self.judges, row)
            if value is not None
        ]

    def long(self) -> str:
        """The long rows as CSV text, ``item,judge,label`` (what ``evalgebra crowd`` reads)."""
        return "item,judge,label\n" + "".join(f"{t},{w},{r}\n" for t, w, r in self.records())

    def wide(self, truth: bool = False) -> str:
        """CSV text, one row per item: ``item`` and a column per judge (empty: missing), and ``truth``
        when asked (what ``evalgebra sketch`` reads)."""
        header = ["item", *self.judges, *(["truth"] if truth else [])]
        lines = [",".join(header)]
        for item, row, label in zip(self.items, self.verdicts.tolist(), self.truth.tolist()):
            cells = [item, *("" if v is None else v for v in row), *([label] if truth else [])]
            lines.append(",".join(cells))
        return "\n".join(lines) + "\n"


def judge_preferences(n_items: int = 600, seed: int = 0) -> PreferenceData:
    r"""Draw a preference test: ``n_items`` pairs judged ``A``, ``B`` or ``tie`` by the :data:`PANEL`.

    Parameters
    ----------
    n_items : int
        Pairs judged (default 600).
    seed : int
        Seed of the NumPy generator: the same seed gives the same data.

    Returns
    -------
    PreferenceData

    Examples
    --------
    >>> a, b = judge_preferences(200, seed=3), judge_preferences(200, seed=3)
    >>> bool((a.verdicts == b.verdicts).all()), a.n_items
    (True, 200)
    """
    if isinstance(n_items, bool) or not isinstance(n_items, int) or n_items < 1:
        raise SpecError(f"n_items must be a positive integer, got {n_items!r}")
    rng = np.random.default_rng(check_seed(seed))
    truth = rng.choice(len(LABELS), size=n_items, p=PREFERENCE_PREVALENCE)
    verdicts = np.empty((n_items, len(PANEL)), dtype=object)
    for k, judge in enumerate(PANEL.values()):
        rows = np.asarray(judge["rows"])
        cumulative = rows.cumsum(axis=1)[truth]
        answer = (rng.random(n_items)[:, None] > cumulative[:, :-1]).sum(axis=1)
        column = np.array(LABELS, dtype=object)[answer]
        if judge["abstain"] is not None:
            rates, says = judge["abstain"]
            silent = rng.random(n_items) < np.asarray(rates)[truth]
            column[silent] = says
        verdicts[:, k] = column
    items = tuple(f"p{k:0{max(3, len(str(n_items - 1)))}d}" for k in range(n_items))
    return PreferenceData(tuple(PANEL), LABELS, verdicts, np.array(LABELS, dtype=object)[truth], items, seed)
