r"""The results of a trio search: one :class:`TrioResult` per candidate trio, gathered in a
:class:`TrioSearch` that ranks, counts failures and shows itself (a short ``repr``,
:meth:`TrioSearch.summary`, a compact HTML table of the best survivors).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np

from evalgebra.display import escape, html_block, html_table
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.results import Alarm, BatchResult, Estimate, Evaluation

__all__ = ["TrioResult", "TrioSearch", "float_evaluation"]

#: Survivors the HTML table shows before it counts the rest.
_HTML_TRIOS = 10


@dataclass(frozen=True)
class TrioResult:
    r"""One candidate trio of a search.

    Attributes
    ----------
    classifiers : tuple of 3 str
        Names, in pool order.
    indices : tuple of 3 int
        Positions in the pool.
    counts : tuple of 8 int
        The trio's pattern counts, ``aaa .. bbb``.
    labels : tuple of 2 str
    alarms : frozenset of str
        Every alarm kind its evaluation raises (those of ``evaluation``).
    failures : tuple of str
        The rejecting alarm kinds, sorted; empty for a survivor.
    score : float
        The ranking score (lower is better); ``nan`` when rejected, unscored, or without a
        partner to compare with.
    n_partners : int
        How many partners entered the score.
    rank : int or None
        0 for the best survivor; ``None`` for rejected trios.
    exact : bool
        Whether ``evaluation`` is exact (:func:`evaluate_counts`) or floating point
        (:func:`evaluate_batch`, which checks neither ``irrational`` nor ``empty_variety``).
    """

    classifiers: tuple[str, str, str]
    indices: tuple[int, int, int]
    counts: tuple[int, ...]
    labels: tuple[str, ...]
    alarms: frozenset[str]
    failures: tuple[str, ...]
    score: float = float("nan")
    n_partners: int = 0
    rank: int | None = None
    exact: bool = True

    @property
    def rejected(self) -> bool:
        return bool(self.failures)

    @cached_property
    def evaluation(self) -> Evaluation:
        """The trio's algebraic evaluation (computed on first use)."""
        if self.exact:
            return evaluate_counts(list(self.counts), self.labels, self.classifiers)
        with np.errstate(all="ignore"):
            return float_evaluation(evaluate_batch([self.counts]), 0, self.labels, self.classifiers)

    @property
    def estimate(self) -> Estimate | None:
        """The decoded evaluation, or ``None`` when none was chosen."""
        return self.evaluation.point


@dataclass(frozen=True, repr=False)
class TrioSearch:
    r"""The ranked result of :func:`search_trios`.

    Attributes
    ----------
    classifiers, labels : tuple of str
    Q : int
        Test size.
    graph : networkx.Graph
        The compatibility graph, blind-spot pairs removed (edge attribute ``covariance``).
    results : tuple of TrioResult
        Survivors by increasing score (unscored ones last), then rejected trios; ties and
        rejected trios in pool order.
    criterion : str or None
    reject : tuple of str
    exact : bool
        Whether evaluations are exact (``irrational`` and ``empty_variety`` are only checked
        when they are).
    """

    classifiers: tuple[str, ...]
    labels: tuple[str, ...]
    Q: int  # noqa: N815 - the paper's name for the test size
    graph: nx.Graph
    results: tuple[TrioResult, ...]
    criterion: str | None
    reject: tuple[str, ...]
    exact: bool
    _by_indices: dict[tuple[int, ...], TrioResult] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_indices.update((r.indices, r) for r in self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[TrioResult]:
        return iter(self.results)

    def __getitem__(self, trio: Sequence[str | int]) -> TrioResult:
        """The result of one trio, by names or indices in any order."""
        names = {name: k for k, name in enumerate(self.classifiers)}
        positions = [names.get(c, c) if isinstance(c, str) else int(c) for c in trio]
        key = tuple(sorted(p for p in positions if isinstance(p, int)))
        if len(key) != len(positions) or key not in self._by_indices:
            raise KeyError(f"{tuple(trio)!r} is not a candidate trio of this search")
        return self._by_indices[key]

    def survivors(self) -> list[TrioResult]:
        """Trios without a rejecting alarm, best first."""
        return [r for r in self.results if not r.rejected]

    def rejected(self) -> list[TrioResult]:
        """Trios with a rejecting alarm, in pool order."""
        return [r for r in self.results if r.rejected]

    def best(self, k: int = 1) -> list[TrioResult]:
        """The ``k`` best-ranked survivors (fewer when fewer survive)."""
        return self.survivors()[:k]

    def failure_counts(self) -> dict[str, int]:
        """How many candidate trios raised each alarm kind (a trio may raise several)."""
        counter: Counter[str] = Counter()
        for r in self.results:
            counter.update(r.alarms)
        return dict(sorted(counter.items()))

    def failure_rates(self) -> dict[str, float]:
        """Fraction of candidate trios raising each alarm kind, plus ``rejected``."""
        n = max(1, len(self.results))
        out = {kind: count / n for kind, count in self.failure_counts().items()}
        out["rejected"] = len(self.rejected()) / n
        return out

    # -- display ----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        best = self.best(1)
        shown = f", best={best[0].classifiers!r}" if best else ""
        return (
            f"TrioSearch({len(self.classifiers)} classifiers, Q={self.Q}, {len(self.results)} trios, "
            f"{len(self.survivors())} survive, criterion={self.criterion!r}{shown})"
        )

    def _rows(self, k: int) -> list[list[Any]]:
        return [
            [
                r.rank,
                ", ".join(r.classifiers),
                "" if r.score != r.score else f"{r.score:.4g}",
                ", ".join(sorted(r.alarms)) or "none",
            ]
            for r in self.best(k)
        ]

    def summary(self, k: int = 5) -> str:
        """Plain text: the search in one line, the ``k`` best survivors, the alarm counts."""
        lines = [
            f"Trio search: {len(self.classifiers)} classifiers, {self.Q} items, {len(self.results)} "
            f"candidate trios, {len(self.survivors())} survive (ranked by {self.criterion})"
        ]
        lines.extend(
            f"  {rank:>3}  {names}  score {score or '-'}  alarms: {alarms}"
            for rank, names, score, alarms in self._rows(k)
        )
        counts = ", ".join(f"{kind} {count}" for kind, count in self.failure_counts().items())
        lines.append(f"alarms raised: {counts or 'none'}; rejecting: {', '.join(self.reject)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        more = max(0, len(self.survivors()) - _HTML_TRIOS)
        table = html_table(
            ["rank", "trio", "score", "alarms"],
            self._rows(_HTML_TRIOS),
            caption=f"Best survivors (ranked by {self.criterion})",
            more=more,
        )
        counts = ", ".join(f"{kind} {count}" for kind, count in self.failure_counts().items())
        facts = (
            f"<p>{len(self.results)} candidate trios on {self.Q} items; {len(self.rejected())} rejected "
            f"({escape(', '.join(self.reject))}); alarms raised: {escape(counts or 'none')}.</p>"
        )
        return html_block(
            f"Trio search: {len(self.survivors())} of {len(self.results)} trios survive", facts, table
        )


# -- evaluation of the trios -----------------------------------------------------------------
def float_evaluation(out: BatchResult, t: int, labels: tuple[str, ...], names: tuple[str, ...]) -> Evaluation:
    """An :class:`Evaluation` in floating point from row ``t`` of :func:`evaluate_batch`."""
    kinds = [k for k in ("blind_spot", "complex", "outside_unit_cube") if out[k][t]]
    points = []
    for s in range(2):
        value = lambda x: float(x) if np.isfinite(x) else None  # noqa: E731
        p = value(out["prevalence"][t, s])
        acc = out["accuracy"][t, s]
        points.append(
            Estimate(
                {labels[0]: p, labels[1]: None if p is None else 1 - p},
                {c: {labels[0]: value(acc[i, 0]), labels[1]: value(acc[i, 1])} for i, c in enumerate(names)},
            )
        )
    chosen = int(out["chosen"][t])
    alarms = tuple(Alarm(k, "floating-point check (vectorised search)") for k in kinds)
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=names,
        points=tuple(points),
        chosen=None if chosen < 0 else chosen,
        partition={},
        alarms=alarms,
    )
