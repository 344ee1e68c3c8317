r"""Which judges are dependent: the evidence behind ``evaluate(sketch, structure="auto")``.

``structure="auto"`` fits every candidate structure by maximum likelihood and chooses the one of
smallest BIC (:mod:`evalgebra.evaluators.fitted.selection`). The evaluation it returns is that of the
chosen structure (``Evaluation.structure`` names it as always: ``c0-c1``, ``independent``), and
:class:`StructureEvidence` records each candidate (:class:`StructureCandidate`): its log-likelihood,
parameters, BIC, the likelihood-ratio test against the independent model, and its fitted point.

Examples
--------
>>> from evalgebra.results.estimates import Estimate
>>> point = Estimate({"a": 0.3, "b": 0.7}, {})
>>> independent = StructureCandidate("independent", (), -1000.0, 9, 2089.1, None, None, None, True, point)
>>> pair = StructureCandidate("c0-c1", (("c0", "c1"),), -960.0, 11, 2028.9, 80.0, 2, 4.2e-18, True, point)
>>> evidence = StructureEvidence("bic", 1000, (independent, pair), 1, "exhaustive", ())
>>> evidence.statement()
'c0 and c1 are dependent'
>>> evidence.to_dict()["chosen"], evidence.to_dict()["candidates"][1]["delta_bic"]
('c0-c1', 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evalgebra.results.estimates import Estimate

__all__ = ["SELECTION_CRITERIA", "StructureCandidate", "StructureEvidence", "dependence_statement"]

#: The criteria a structure can be chosen by, with the rule each states.
SELECTION_CRITERIA: dict[str, str] = {
    "bic": "the smallest BIC = -2 log L + k log Q (k free parameters, Q items); ties to the fewer parameters",
}


@dataclass(frozen=True)
class StructureCandidate:
    r"""One candidate structure and its maximum-likelihood fit.

    Parameters
    ----------
    structure : str
        Its text in the classifiers' names (``"c0-c1"``, ``"independent"``).
    subsets : tuple of tuple of str
        The correlated subsets by name.
    log_likelihood : float
        ``sum_d n_d log p(d)`` at the fitted point.
    n_parameters : int
        Free parameters ``k`` (prevalence, accuracies, correlations).
    bic : float
        ``-2 log L + k log Q``.
    lr_statistic, lr_df, lr_p_value : float, int, float or None
        The likelihood ratio against the independent model, ``2 (log L - log L_independent)``, on
        ``lr_df`` degrees of freedom, and its chi-square p-value (``None`` for the independent model).
    converged : bool
        Whether the fit converged.
    point : Estimate
        The fitted point (prevalence, accuracies, correlations), decoded.

    Examples
    --------
    >>> c = StructureCandidate("independent", (), -10.0, 9, 40.7, None, None, None, True,
    ...                        Estimate({"a": 0.5, "b": 0.5}, {}))
    >>> c.to_dict(delta_bic=0.0)["lr_p_value"] is None
    True
    """

    structure: str
    subsets: tuple[tuple[str, ...], ...]
    log_likelihood: float
    n_parameters: int
    bic: float
    lr_statistic: float | None
    lr_df: int | None
    lr_p_value: float | None
    converged: bool
    point: Estimate

    def to_dict(self, delta_bic: float) -> dict[str, Any]:
        """The candidate as plain JSON values, with its BIC above the smallest (``delta_bic``)."""
        return {
            "structure": self.structure,
            "log_likelihood": self.log_likelihood,
            "n_parameters": self.n_parameters,
            "bic": self.bic,
            "delta_bic": delta_bic,
            "lr_statistic": self.lr_statistic,
            "lr_df": self.lr_df,
            "lr_p_value": self.lr_p_value,
            "converged": self.converged,
            "point": self.point.to_dict(),
        }


def dependence_statement(subsets: tuple[tuple[str, ...], ...]) -> str:
    """The correlated subsets in words.

    >>> dependence_statement(()), dependence_statement((("c0", "c1"),))
    ('no two classifiers are dependent', 'c0 and c1 are dependent')
    >>> dependence_statement((("c0", "c1"), ("c0", "c2")))
    'c0 and c1 are dependent; so are c0 and c2'
    """
    if not subsets:
        return "no two classifiers are dependent"

    def words(subset: tuple[str, ...]) -> str:
        return " and ".join([", ".join(subset[:-1]), subset[-1]]) if len(subset) > 1 else subset[0]

    first, *rest = subsets
    return f"{words(first)} are dependent" + "".join(f"; so are {words(s)}" for s in rest)


@dataclass(frozen=True)
class StructureEvidence:
    r"""The candidates ``structure="auto"`` fitted and the one its criterion chose.

    Parameters
    ----------
    criterion : str
        One of :data:`SELECTION_CRITERIA` (``"bic"``).
    n_items : int
        ``Q``, the items the BIC's penalty counts.
    candidates : tuple of StructureCandidate
        Every structure fitted, the independent model first.
    chosen : int
        Index of the chosen candidate.
    search : str
        ``"exhaustive"`` (every identifiable structure of the atlas) or ``"greedy"`` (pairs added one
        at a time while the BIC falls), with why in ``notes``.
    notes : tuple of str
        What limited the candidates (labels, abstentions, the atlas, the time limit).
    tied : tuple of int
        Other candidates exactly as likely as the chosen one, with as many parameters (to the fits'
        precision): the counts cannot tell them from it (on four classifiers a pair and the pair of
        the two others explain the same distributions, say), so the choice among them is the first
        in order, and the statement names them all.

    Examples
    --------
    >>> e = StructureEvidence("bic", 10, (), 0, "exhaustive", ("two labels only",))
    >>> e.rule
    'the smallest BIC = -2 log L + k log Q (k free parameters, Q items); ties to the fewer parameters'
    """

    criterion: str
    n_items: int
    candidates: tuple[StructureCandidate, ...]
    chosen: int
    search: str
    notes: tuple[str, ...]
    tied: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.criterion not in SELECTION_CRITERIA:
            raise ValueError(f"unknown criterion {self.criterion!r}; known: {', '.join(SELECTION_CRITERIA)}")

    @property
    def rule(self) -> str:
        """The criterion's rule, in words."""
        return SELECTION_CRITERIA[self.criterion]

    @property
    def chosen_candidate(self) -> StructureCandidate | None:
        return self.candidates[self.chosen] if self.candidates else None

    def statement(self) -> str:
        """The chosen structure's correlated subsets in words (``"c0 and c1 are dependent"``)."""
        chosen = self.chosen_candidate
        text = dependence_statement(chosen.subsets if chosen is not None else ())
        if not self.tied:
            return text
        others = "; or ".join(dependence_statement(self.candidates[k].subsets) for k in self.tied)
        return (
            f"{text}; or, exactly as likely, {others} (the counts cannot tell these structures apart; the "
            "evaluation shown is the first)"
        )

    def to_dict(self) -> dict[str, Any]:
        """The evidence as plain JSON values: the rule, the chosen structure, every candidate."""
        best = min((c.bic for c in self.candidates), default=0.0)
        chosen = self.chosen_candidate
        return {
            "criterion": self.criterion,
            "rule": self.rule,
            "n_items": self.n_items,
            "search": self.search,
            "chosen": chosen.structure if chosen is not None else None,
            "statement": self.statement(),
            "indistinguishable": [self.candidates[k].structure for k in self.tied],
            "notes": list(self.notes),
            "candidates": [c.to_dict(c.bic - best) for c in self.candidates],
        }

    def lines(self, shown: int = 5) -> list[str]:
        """Text lines: the statement, then the ``shown`` candidates of smallest BIC."""
        out = [f"structure chosen by {self.criterion.upper()}: {self.statement()}"]
        if not self.candidates:
            return out + [f"  {note}" for note in self.notes]
        best = min(c.bic for c in self.candidates)
        ranked = sorted(range(len(self.candidates)), key=lambda k: self.candidates[k].bic)
        for k in ranked[:shown]:
            c = self.candidates[k]
            test = (
                ""
                if c.lr_p_value is None
                else f", LR {c.lr_statistic:.4g} on {c.lr_df} df (p = {c.lr_p_value:.3g})"
            )
            mark = " (chosen)" if k == self.chosen else " (exactly as likely)" if k in self.tied else ""
            out.append(f"  {c.structure}: BIC {c.bic:.2f} (+{c.bic - best:.2f}){test}{mark}")
        if len(ranked) > shown:
            out.append(f"  ... and {len(ranked) - shown} more candidates (--json lists every one)")
        out.extend(f"  {note}" for note in self.notes)
        return out
