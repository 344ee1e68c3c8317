r"""How much a panel agrees: Krippendorff's alpha, Fleiss' kappa and Cohen's kappa, exactly.

The three chance-corrected agreement statistics a judge-panel user expects, computed from the
answers alone (no truth, no model), as exact rationals (:class:`fractions.Fraction`): every
one is a ratio of integer counts.

====================================  =========================================================
:func:`krippendorff_alpha`            nominal alpha from per-task vote counts; missing answers
                                      are native (a task counts with the answers it has)
:func:`fleiss_kappa`                  Fleiss' kappa from per-task vote counts, every task with
                                      the same number of answers
:func:`cohen_kappa`                   Cohen's kappa of two workers from their confusion table
:func:`panel_agreement`               all three from a :class:`~evalgebra.crowd.table.CrowdTable`
====================================  =========================================================

Abstentions and missing answers
-------------------------------
An abstention (an ``abstain=`` answer such as ``unsure``) is no value: it is dropped like an
answer never given, so that "both unsure" is not counted as agreement. Then

- **Krippendorff's alpha** takes the missing answers as its definition does: every task with
  at least two answers is *pairable* and contributes its answers, weighted ``1/(m_u - 1)`` by its
  number of answers ``m_u``; a task with fewer than two answers contributes nothing.
- **Fleiss' kappa** is defined for a fixed number ``n`` of raters per task. :func:`panel_agreement`
  computes it on the tasks with exactly ``n`` answers, ``n`` being ``raters=`` or, by default,
  the most common number of answers among tasks with two or more (the larger on a tie), and
  says how many tasks that leaves out (:attr:`Agreement.fleiss_items`). Nothing is imputed.
- **Cohen's kappa** of two workers uses the tasks both answered with a label.

A statistic whose chance agreement is 1 (every value the same label) is 0/0: it is ``None``.

Notes
-----
With ``n_uc`` the answers ``c`` on task ``u``, ``m_u = sum_c n_uc`` and sums over the pairable tasks:
``n_c = sum_u n_uc``, ``n = sum_c n_c``, the coincidences on the diagonal ``o_cc = sum_u n_uc (n_uc - 1)
/ (m_u - 1)``, and

``alpha = ((n - 1) sum_c o_cc - sum_c n_c (n_c - 1)) / (n (n - 1) - sum_c n_c (n_c - 1))``

(``1 - D_o / D_e`` with the nominal difference). Fleiss' kappa on ``N`` tasks of ``n`` answers
is ``(P - P_e) / (1 - P_e)``, ``P = (sum_uc n_uc^2 - N n) / (N n (n - 1))``, ``P_e = sum_c (n_c / (N
n))^2``. On complete data the two are tied: ``1 - alpha = (1 - kappa) (N n - 1) / (N n)``.

References
----------
Klaus Krippendorff, *Computing Krippendorff's Alpha-Reliability* (2011), and *Content Analysis:
An Introduction to Its Methodology*. Joseph L. Fleiss, *Measuring nominal scale agreement among
many raters*, Psychological Bulletin 76 (1971). Jacob Cohen, *A coefficient of agreement for
nominal scales*, Educational and Psychological Measurement 20 (1960).

Examples
--------
>>> rows = [("t1", "x", "A"), ("t1", "y", "A"), ("t1", "z", "B"),
...         ("t2", "x", "B"), ("t2", "y", "B"), ("t2", "z", "unsure"),
...         ("t3", "x", "tie"), ("t3", "y", "tie"), ("t3", "z", "tie")]
>>> from evalgebra.crowd.table import crowd_table
>>> result = panel_agreement(crowd_table(rows), abstain=["unsure"])
>>> result.alpha, result.fleiss, result.fleiss_items
(Fraction(2, 3), Fraction(5, 11), 2)
>>> print(result.summary())  # doctest: +NORMALIZE_WHITESPACE
agreement (labels A, B, tie; 1 abstention(s) as missing): Krippendorff's alpha = 0.6667 (nominal; 8 values
on 3 tasks); Fleiss' kappa = 0.4545 (the 2 tasks with 3 answers; 1 other task(s) left out)
Cohen's kappa (tasks both answered): x-y 1.0000 (3), x-z 0.3333 (2), y-z 0.3333 (2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.crowd.table import CrowdTable
from evalgebra.errors import SketchError, SpecError

__all__ = [
    "Agreement",
    "panel_agreement",
    "krippendorff_alpha",
    "fleiss_kappa",
    "cohen_kappa",
    "votes_of",
    "PAIRS_LISTED",
    "MAX_PAIR_WORKERS",
]

#: Up to this many worker pairs :meth:`Agreement.summary` lists every Cohen's kappa; beyond, their range.
PAIRS_LISTED = 15

#: :func:`panel_agreement` computes Cohen's kappa of every pair for crowds of up to this many workers.
MAX_PAIR_WORKERS = 300


def _counts(votes: Any, what: str) -> np.ndarray:
    """``votes`` as a 2-d array of non-negative integers (tasks x labels), or a SketchError."""
    array = np.asarray(votes)
    if array.ndim != 2 or array.shape[1] < 1:
        raise SketchError(f"{what}: need a 2-d table of counts (tasks x labels), got shape {array.shape}")
    if array.dtype == bool or not np.issubdtype(array.dtype, np.number):
        raise SketchError(f"{what}: the counts must be non-negative integers, got {array.dtype} values")
    if array.size and (bool(np.any(array < 0)) or not bool(np.all(array == np.round(array)))):
        raise SketchError(f"{what}: the counts must be non-negative integers")
    return array.astype(np.int64)


def _ratio(numerator: int, denominator: int) -> Fraction | None:
    return None if denominator == 0 else Fraction(numerator, denominator)


def krippendorff_alpha(votes: Any) -> Fraction | None:
    r"""Krippendorff's alpha for nominal data from ``votes[u, c]``, the answers ``c`` on task ``u``.

    Tasks may have any number of answers (missing answers are simply not counted); tasks
    with fewer than two are not pairable and contribute nothing.

    Parameters
    ----------
    votes : array-like of int, shape (tasks, labels)

    Returns
    -------
    Fraction or None
        ``None`` when undefined: no pairable task, or every pairable answer the same label.

    Examples
    --------
    Two coders, four tasks, agreeing on three (one ``B``/``A`` split):

    >>> krippendorff_alpha([[2, 0], [2, 0], [0, 2], [1, 1]])
    Fraction(8, 15)
    >>> krippendorff_alpha([[3, 0], [1, 0]]) is None       # every value A: 0/0
    True
    """
    counts = _counts(votes, "krippendorff_alpha")
    sizes = counts.sum(axis=1)
    pairable = counts[sizes >= 2]
    sizes = sizes[sizes >= 2]
    if len(sizes) == 0:
        return None
    diagonal = Fraction(0)
    same = (pairable * (pairable - 1)).sum(axis=1)
    for m in np.unique(sizes).tolist():
        diagonal += Fraction(int(same[sizes == m].sum()), m - 1)
    totals = pairable.sum(axis=0)
    n = int(totals.sum())
    chance = int((totals * (totals - 1)).sum())
    denominator = n * (n - 1) - chance
    if denominator == 0:
        return None
    return ((n - 1) * diagonal - chance) / denominator


def fleiss_kappa(votes: Any) -> Fraction | None:
    r"""Fleiss' kappa from ``votes[u, c]``, every task with the same number ``n >= 2`` of answers.

    Parameters
    ----------
    votes : array-like of int, shape (tasks, labels)

    Returns
    -------
    Fraction or None
        ``None`` when undefined (every answer the same label).

    Raises
    ------
    SketchError
        Tasks with different numbers of answers, fewer than two answers, or no task: Fleiss'
        kappa needs a fixed number of raters (:func:`panel_agreement` picks the tasks with one
        number; :func:`krippendorff_alpha` takes them all).

    Examples
    --------
    >>> fleiss_kappa([[2, 0], [2, 0], [0, 2], [1, 1]])       # Scott's pi for two raters
    Fraction(7, 15)
    >>> fleiss_kappa([[2, 0], [1, 2]])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SketchError: fleiss_kappa: every task needs the same number of answers (got 2 to 3);
    take the tasks with one number, or use krippendorff_alpha, which takes missing answers
    """
    counts = _counts(votes, "fleiss_kappa")
    sizes = counts.sum(axis=1)
    if len(sizes) == 0:
        raise SketchError("fleiss_kappa: no tasks")
    if int(sizes.min()) != int(sizes.max()):
        raise SketchError(
            f"fleiss_kappa: every task needs the same number of answers (got {int(sizes.min())} to "
            f"{int(sizes.max())}); take the tasks with one number, or use krippendorff_alpha, which "
            "takes missing answers"
        )
    raters, tasks = int(sizes[0]), len(sizes)
    if raters < 2:
        raise SketchError(f"fleiss_kappa: every task needs at least two answers, got {raters}")
    total = tasks * raters
    observed = Fraction(int((counts * counts).sum()) - total, total * (raters - 1))
    totals = counts.sum(axis=0)
    chance = Fraction(int((totals * totals).sum()), total * total)
    return None if chance == 1 else (observed - chance) / (1 - chance)


def cohen_kappa(confusion: Any) -> Fraction | None:
    r"""Cohen's kappa of two workers from ``confusion[a, b]``: the tasks the first answered ``a`` and the
    second ``b``.

    Parameters
    ----------
    confusion : array-like of int, shape (labels, labels)

    Returns
    -------
    Fraction or None
        ``(p_o - p_e) / (1 - p_e)``; ``None`` when ``p_e = 1`` (both always gave one same label)
        or no task is shared.

    Examples
    --------
    >>> cohen_kappa([[20, 5], [10, 15]])       # p_o = 35/50, p_e = 25/50
    Fraction(2, 5)
    """
    table = _counts(confusion, "cohen_kappa")
    if table.shape[0] != table.shape[1]:
        raise SketchError(f"cohen_kappa: need a square table (labels x labels), got shape {table.shape}")
    total = int(table.sum())
    if total == 0:
        return None
    agree = int(np.trace(table))
    chance = int((table.sum(axis=1) * table.sum(axis=0)).sum())
    return _ratio(total * agree - chance, total * total - chance)


@dataclass(frozen=True)
class Agreement:
    r"""A panel's agreement: Krippendorff's alpha, Fleiss' kappa, Cohen's kappa of every pair.

    Attributes
    ----------
    labels, workers : tuple of str
        The labels counted (abstentions left out) and the workers.
    tasks : int
        Tasks in the table.
    abstentions : int
        Answers dropped as abstentions.
    alpha : Fraction or None
        Krippendorff's alpha (nominal), over the pairable tasks.
    pairable_values, pairable_tasks : int
        The answers and tasks alpha counts (tasks with at least two answers).
    fleiss : Fraction or None
        Fleiss' kappa on the tasks with exactly ``fleiss_raters`` answers (``None``: undefined
        or no such task).
    fleiss_raters, fleiss_items : int
        That number of answers, and how many tasks have it.
    cohen : dict of (str, str) -> (Fraction or None, int)
        For every pair of workers: Cohen's kappa and the tasks both answered (empty beyond
        :data:`MAX_PAIR_WORKERS` workers).
    """

    labels: tuple[str, ...]
    workers: tuple[str, ...]
    tasks: int
    abstentions: int
    alpha: Fraction | None
    pairable_values: int
    pairable_tasks: int
    fleiss: Fraction | None
    fleiss_raters: int
    fleiss_items: int
    cohen: dict[tuple[str, str], tuple[Fraction | None, int]]

    def to_dict(self) -> dict[str, Any]:
        r"""The statistics as JSON-ready values (floats; exact ``"p/q"`` text beside them).

        >>> from evalgebra.crowd.table import crowd_table
        >>> rows = [(t, w, "ab"[(t + (w == 0)) % 2]) for t in range(4) for w in range(3)]  # w 0 dissents
        >>> panel_agreement(crowd_table(rows)).to_dict()["krippendorff_alpha"]
        {'value': -0.2222222222222222, 'exact': '-2/9', 'values': 12, 'tasks': 4}
        """

        def number(value: Fraction | None) -> dict[str, Any]:
            return (
                {"value": None, "exact": None}
                if value is None
                else {"value": float(value), "exact": str(value)}
            )

        return {
            "labels": list(self.labels),
            "abstentions": self.abstentions,
            "krippendorff_alpha": {
                **number(self.alpha),
                "values": self.pairable_values,
                "tasks": self.pairable_tasks,
            },
            "fleiss_kappa": {**number(self.fleiss), "raters": self.fleiss_raters, "tasks": self.fleiss_items},
            "cohen_kappa": [
                {"workers": list(pair), **number(kappa), "tasks": shared}
                for pair, (kappa, shared) in self.cohen.items()
            ],
        }

    def summary(self) -> str:
        r"""Plain text: alpha and Fleiss' kappa on one line, the pairs' Cohen's kappa on the next.

        Up to :data:`PAIRS_LISTED` pairs are listed (with the tasks behind each); beyond, the
        range and median over the pairs that share at least ten tasks, the lowest pair named.
        """
        head = f"agreement (labels {', '.join(self.labels)}"
        head += f"; {self.abstentions} abstention(s) as missing): " if self.abstentions else "): "
        head += f"Krippendorff's alpha = {_text(self.alpha)} (nominal; {self.pairable_values} values on "
        head += f"{self.pairable_tasks} tasks); Fleiss' kappa = {_text(self.fleiss)}"
        if self.fleiss_items:
            others = self.pairable_tasks - self.fleiss_items
            head += f" (the {self.fleiss_items} tasks with {self.fleiss_raters} answers"
            head += f"; {others} other task(s) left out)" if others else ")"
        lines = [head]
        if not self.cohen:
            lines.append(f"Cohen's kappa per pair: not computed for more than {MAX_PAIR_WORKERS} workers")
        elif len(self.cohen) <= PAIRS_LISTED:
            pairs = ", ".join(f"{a}-{b} {_text(k)} ({n})" for (a, b), (k, n) in self.cohen.items())
            lines.append(f"Cohen's kappa (tasks both answered): {pairs}")
        else:
            kept = sorted(
                (float(k), a, b) for (a, b), (k, n) in self.cohen.items() if k is not None and n >= 10
            )
            if kept:
                low, a, b = kept[0]
                median = float(np.median([k for k, _, _ in kept]))
                lines.append(
                    f"Cohen's kappa over the {len(kept)} of {len(self.cohen)} pairs sharing at least 10 "
                    f"tasks: {low:.4f} ({a}-{b}) to {kept[-1][0]:.4f}, median {median:.4f}"
                )
            else:
                lines.append(f"Cohen's kappa: none of the {len(self.cohen)} pairs shares 10 tasks")
        return "\n".join(lines)


def _text(value: Fraction | None) -> str:
    return "undefined" if value is None else f"{float(value):.4f}"


def _common(sizes: np.ndarray) -> int:
    """The most common number of answers among tasks with two or more (the larger on a tie); 0: none."""
    many = sizes[sizes >= 2]
    if len(many) == 0:
        return 0
    values, counts = np.unique(many, return_counts=True)
    return int(values[counts == counts.max()].max())


def panel_agreement(table: CrowdTable, abstain: Iterable[str] = (), raters: int | None = None) -> Agreement:
    r"""Krippendorff's alpha, Fleiss' kappa and every pair's Cohen's kappa of a crowd's answers.

    Parameters
    ----------
    table : CrowdTable
    abstain : iterable of str
        Answers that are no label (e.g. ``unsure``): dropped as missing. Names not among the
        table's labels are ignored.
    raters : int, optional
        The tasks Fleiss' kappa is computed on: those with exactly this many (label) answers.
        Default: the most common number among tasks with two or more answers.

    Returns
    -------
    Agreement

    Raises
    ------
    SpecError
        ``raters`` below 2, or every answer an abstention.

    Examples
    --------
    >>> from evalgebra.crowd.table import crowd_table
    >>> rows = [(t, w, "ab"[(t * w) % 3 == 1]) for t in range(30) for w in range(4) if (t + w) % 5]
    >>> result = panel_agreement(crowd_table(rows), raters=3)
    >>> result.fleiss_items, result.pairable_tasks, result.pairable_values
    (24, 30, 96)
    >>> round(float(result.alpha), 4), round(float(result.fleiss), 4)
    (-0.1875, -0.2)
    """
    if raters is not None and raters < 2:
        raise SpecError(f"raters={raters}: Fleiss' kappa needs at least two answers per task")
    skip = set(abstain)
    keep_labels = [k for k, name in enumerate(table.labels) if name not in skip]
    if not keep_labels:
        raise SpecError(f"every label of the table {list(table.labels)} is named as an abstention")
    position = np.full(table.n_labels, -1, dtype=np.int64)
    position[keep_labels] = np.arange(len(keep_labels))
    answer = position[table.answer]
    kept = answer >= 0
    task, worker, answer = table.task[kept], table.worker[kept], answer[kept]
    n_labels = len(keep_labels)
    votes = np.bincount(task * n_labels + answer, minlength=table.n_tasks * n_labels).reshape(-1, n_labels)
    sizes = votes.sum(axis=1)
    chosen = raters if raters is not None else _common(sizes)
    fixed = votes[sizes == chosen] if chosen else votes[:0]
    fleiss = fleiss_kappa(fixed) if len(fixed) else None
    cohen = _pairs(table, task, worker, answer, n_labels) if table.n_workers <= MAX_PAIR_WORKERS else {}
    return Agreement(
        labels=tuple(table.labels[k] for k in keep_labels),
        workers=table.workers,
        tasks=table.n_tasks,
        abstentions=int((~kept).sum()),
        alpha=krippendorff_alpha(votes),
        pairable_values=int(sizes[sizes >= 2].sum()),
        pairable_tasks=int((sizes >= 2).sum()),
        fleiss=fleiss,
        fleiss_raters=chosen,
        fleiss_items=len(fixed),
        cohen=cohen,
    )


def _pairs(
    table: CrowdTable, task: np.ndarray, worker: np.ndarray, answer: np.ndarray, n_labels: int
) -> dict[tuple[str, str], tuple[Fraction | None, int]]:
    """Every pair of workers' Cohen's kappa and shared tasks: ``X^T X`` of the sparse one-hot answers."""
    from scipy.sparse import csr_matrix

    n_workers = table.n_workers
    ones = np.ones(len(task), dtype=np.int64)
    onehot = csr_matrix(
        (ones, (task, worker * n_labels + answer)), shape=(table.n_tasks, n_workers * n_labels)
    )
    joint = (onehot.T @ onehot).toarray().reshape(n_workers, n_labels, n_workers, n_labels)
    # per pair (i, j): shared tasks, agreements and the chance term sum_a rows_a cols_a, in integers
    total = joint.sum(axis=(1, 3))
    agree = np.einsum("iaja->ij", joint)
    chance = np.einsum("iaj,ija->ij", joint.sum(axis=3), joint.sum(axis=1))
    numerator, denominator = total * agree - chance, total * total - chance
    first, second = np.triu_indices(n_workers, 1)
    out: dict[tuple[str, str], tuple[Fraction | None, int]] = {}
    for i, j, top, bottom, shared in zip(
        first.tolist(),
        second.tolist(),
        numerator[first, second].tolist(),
        denominator[first, second].tolist(),
        total[first, second].tolist(),
    ):
        out[(table.workers[i], table.workers[j])] = (_ratio(top, bottom) if shared else None, shared)
    return out


def votes_of(labels: Sequence[str], answers: Iterable[Sequence[str | None]]) -> np.ndarray:
    r"""``votes[u, c]`` from wide rows of answers (``None`` for a missing answer), for the functions here.

    >>> votes_of(["A", "B"], [["A", "A", None], ["B", "A", "B"]]).tolist()
    [[2, 0], [1, 2]]
    """
    position = {name: k for k, name in enumerate(labels)}
    rows = [list(row) for row in answers]
    out = np.zeros((len(rows), len(position)), dtype=np.int64)
    for u, row in enumerate(rows):
        for value in row:
            if value is None:
                continue
            if value not in position:
                raise SketchError(f"answer {value!r} on row {u} is not among the labels {list(labels)}")
            out[u, position[value]] += 1
    return out
