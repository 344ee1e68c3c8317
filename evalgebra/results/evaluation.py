r"""What every evaluator returns: candidate points, the chosen one, alarms.

An evaluator turns an (unlabelled) sketch into an :class:`Evaluation`: one or more candidate
evaluations (:class:`~evalgebra.results.estimates.Estimate`: prevalence of every label and
accuracy of every classifier on every label, exact where the method is exact), the index of
the one decoding chose, the partition of every pattern's count by true label implied by it,
and the alarms raised on the way. Mathematical failure modes are alarms
(:class:`~evalgebra.results.alarms.Alarm`), never exceptions.

Examples
--------
>>> from fractions import Fraction
>>> from evalgebra.results.estimates import Estimate
>>> point = Estimate({"a": Fraction(1, 4), "b": Fraction(3, 4)}, {"c0": {"a": Fraction(3, 4), "b": 1}})
>>> Evaluation(method="majority", labels=("a", "b"), classifiers=("c0",), points=(point,), chosen=0).ok
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import evalgebra.results.rendering as render
from evalgebra.results.alarms import Alarm
from evalgebra.results.certificate import LikelihoodCertificate
from evalgebra.results.estimates import EXACT_TYPES, Estimate, exact_text
from evalgebra.results.fit import FitInfo
from evalgebra.results.intervals import IntervalInfo
from evalgebra.results.structure_evidence import StructureEvidence

__all__ = ["INDEPENDENT_METHODS", "Evaluation"]


#: The methods whose evaluations assume independent errors given the true label (``Evaluation.structure``
#: records ``"independent"`` unless a correlated structure is given).
INDEPENDENT_METHODS = ("algebraic", "hui_walter", "hui_walter_gibbs")


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    r"""The result of an evaluator on a sketch.

    Every field is keyword only: the evaluators make it, a reader reads its fields by name.

    Parameters
    ----------
    method : str
        ``"algebraic"``, ``"majority"``, ...
    labels, classifiers : tuple of str
    points : tuple of Estimate
        Every candidate evaluation (the algebraic evaluator gives two).
    chosen : int or None
        Index into ``points`` of the decoded evaluation; ``None`` when none could be chosen.
    partition : mapping
        ``partition[label]`` = list of ``(pattern, count)``: each pattern's count split by
        true label as the chosen point implies.
    alarms : tuple of Alarm
    trios : tuple of Evaluation
        For N > 3, the evaluation of every trio (their own ``trios`` are empty).
    intervals : IntervalInfo or None
        How the chosen point's confidence intervals (its ``interval``) were made; ``None``
        when none were asked for (``evaluate(..., intervals="bootstrap")``).
    structure : str or None
        The error structure the evaluation assumed: the correlated subsets as command-line text
        in the classifiers' names (``"c0-c1,c0-c2"``, from ``evaluate(sketch, structure=...)``);
        else ``"independent"`` for the methods that assume independent errors given the true
        label (:data:`INDEPENDENT_METHODS`, the default there), ``None`` for the others
        (majority vote assumes no error model). The ``repr``, :meth:`summary` and the HTML name a
        correlated structure; :meth:`to_dict` holds any recorded one.
    fit : FitInfo or None
        The maximum-likelihood fit of the same model, when one was made: its point is
        ``points[fit.fitted_index]``, and ``fit.verdict`` says whether it or an exact point was
        chosen (:mod:`evalgebra.results.fit`).
    structure_evidence : StructureEvidence or None
        With ``structure="auto"``: every candidate structure fitted, and why ``structure`` was chosen
        (:mod:`evalgebra.results.structure_evidence`).
    certificate : LikelihoodCertificate or None
        Whether the fitted point is proved the global maximum of the likelihood, when a
        certification was asked for (``evaluate(..., certify=True)``; :mod:`evalgebra.results.certificate`).

    Notes
    -----
    It shows itself compactly: a short ``repr``; in a notebook an HTML block with the chosen
    point's prevalences and accuracies (exact, with decimals), the alarms one line each and
    the trios summarised (how many, the spread of their prevalences); :meth:`summary` for a
    terminal; :meth:`to_frame` for pandas; :meth:`to_json` for files.

    Examples
    --------
    >>> from evalgebra.evaluators.independent.closed_form import evaluate_counts
    >>> result = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])
    >>> result
    Evaluation(algebraic; classifiers c1, c2, c3; labels a, b; chosen P_a=1/4, P_b=3/4; no alarms)
    >>> result.point.accuracy["c1"]["a"], result.ok
    (Fraction(3, 4), True)
    >>> print(result.summary())
    Evaluation by the algebraic method: 3 classifiers (c1, c2, c3), labels a, b
    chosen point:
      prevalence: P_a = 1/4 ≈ 0.2500   P_b = 3/4 ≈ 0.7500
      c1  acc on a = 3/4 ≈ 0.7500   acc on b = 2/3 ≈ 0.6667
      c2  acc on a = 4/5 ≈ 0.8000   acc on b = 3/5 ≈ 0.6000
      c3  acc on a = 5/6 ≈ 0.8333   acc on b = 1/2 ≈ 0.5000
    alarms: none
    """

    method: str
    labels: tuple[str, ...]
    classifiers: tuple[str, ...]
    points: tuple[Estimate, ...]
    chosen: int | None
    partition: Mapping[str, Sequence[tuple[tuple[str, ...], Any]]] = field(default_factory=dict)
    alarms: tuple[Alarm, ...] = ()
    trios: tuple[Evaluation, ...] = ()
    intervals: IntervalInfo | None = None
    structure: str | None = None
    fit: FitInfo | None = None
    structure_evidence: StructureEvidence | None = None
    certificate: LikelihoodCertificate | None = None

    def __post_init__(self) -> None:
        if self.structure is None and self.method in INDEPENDENT_METHODS:
            object.__setattr__(self, "structure", "independent")

    @property
    def point(self) -> Estimate | None:
        """The chosen estimate, or ``None``."""
        return None if self.chosen is None else self.points[self.chosen]

    @property
    def ok(self) -> bool:
        """True when no alarm was raised (see :attr:`verdict`, which says more)."""
        return not self.alarms

    @property
    def verdict(self) -> str:
        """``exact``, ``fitted``, ``fit_rejected`` or ``none`` (:mod:`evalgebra.results.fit`).

        With a fit, its verdict. Without one: ``exact`` when a point was chosen and no alarm but
        ``irrational`` was raised (the method's own point, computed exactly), else ``none``.
        """
        if self.fit is not None:
            return self.fit.verdict
        return "exact" if self.chosen is not None and self.alarm_kinds() <= {"irrational"} else "none"

    def point_kind(self, index: int) -> str:
        """``fitted`` for the fitted point, ``exact`` for an exact one, ``numeric`` for floats."""
        if self.fit is not None and index == self.fit.fitted_index:
            return "fitted"
        return "exact" if self.points[index].is_exact else "numeric"

    def alarm_kinds(self) -> set[str]:
        return {a.kind for a in self.alarms}

    def to_dict(self) -> dict[str, Any]:
        """The ``evalgebra.evaluation/1`` JSON document as a dictionary."""
        return {
            "format": "evalgebra.evaluation/1",
            "method": self.method,
            **({"structure": self.structure} if self.structure is not None else {}),
            "labels": list(self.labels),
            "classifiers": list(self.classifiers),
            "verdict": self.verdict,
            "points": [{"kind": self.point_kind(k), **p.to_dict()} for k, p in enumerate(self.points)],
            "chosen": self.chosen,
            "partition": {
                label: [
                    {
                        "decisions": list(pattern),
                        "count": render.float_or_none(count),
                        **({"exact": exact_text(count)} if isinstance(count, EXACT_TYPES) else {}),
                    }
                    for pattern, count in rows
                ]
                for label, rows in self.partition.items()
            },
            "alarms": [a.to_dict() for a in self.alarms],
            "trios": [t.to_dict() for t in self.trios],
            **({"intervals": self.intervals.to_dict()} if self.intervals is not None else {}),
            **({"fit": self.fit.to_dict()} if self.fit is not None else {}),
            **(
                {"structure_evidence": self.structure_evidence.to_dict()}
                if self.structure_evidence is not None
                else {}
            ),
            **({"certificate": self.certificate.to_dict()} if self.certificate is not None else {}),
        }

    def to_json(self) -> str:
        """The ``evalgebra.evaluation/1`` JSON document."""
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def __repr__(self) -> str:
        return render.evaluation_repr(self)

    def summary(self) -> str:
        """Plain text: the chosen point (or the candidates), the alarms one line each, the trios in one
        line."""
        return render.evaluation_summary(self)

    def _repr_html_(self) -> str:
        return render.evaluation_html(self)

    def to_frame(self) -> Any:
        """A :class:`pandas.DataFrame` of every candidate point, one row per statistic (pandas is optional).

        Columns ``point`` (index into ``points``), ``chosen`` (bool), ``statistic``
        (``prevalence``, ``accuracy`` or ``correlation``), ``label``, ``classifier``, ``value`` (float) and
        ``exact`` (the exact text, ``None`` for floats); ``low`` and ``high`` when the chosen
        point has intervals.
        """
        records = render.evaluation_records(self)
        columns = ("point", "chosen", *render.RECORD_COLUMNS)
        return render.frame(records, render.record_columns(records, columns))
