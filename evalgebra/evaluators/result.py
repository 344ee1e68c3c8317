r"""What every evaluator returns: candidate points, the chosen one, alarms.

An evaluator turns an (unlabelled) sketch into an :class:`Evaluation`: one or more candidate
evaluations (:class:`Estimate`: prevalence of every label and accuracy of every classifier on
every label, exact where the method is exact), the index of the one decoding chose, the
partition of every pattern's count by true label implied by it, and the alarms raised on the
way. Mathematical failure modes are alarms (:class:`Alarm`), never exceptions.

Exact values are :class:`fractions.Fraction`, :class:`~evalgebra.numbers.quadratic.QuadraticNumber` (``p + q*sqrt(d)``, two
labels) or :class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber` (three or more labels),
so an irrational point is still exact; :func:`exact_text` writes text :func:`sympy.sympify` reads.

Examples
--------
>>> from fractions import Fraction
>>> exact_text(QuadraticNumber(Fraction(1, 2), Fraction(1, 4), 5) + 1)
'3/2 + sqrt(5)/4'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Union

import evalgebra.evaluators.render as render
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
from evalgebra.numbers.quadratic import QuadraticNumber

__all__ = [
    "ALARM_KINDS",
    "Alarm",
    "Estimate",
    "Evaluation",
    "Exact",
    "EXACT_TYPES",
    "INTERVAL_KINDS",
    "INDEPENDENT_METHODS",
    "IntervalInfo",
    "exact_text",
]

#: Every kind of alarm an evaluator may raise, with what it means.
ALARM_KINDS: dict[str, str] = {
    "empty_variety": "the sketch has no evaluation under the evaluator's model (exact residual check)",
    "complex": "the evaluations are complex: the discriminant is negative",
    "outside_unit_cube": "an evaluation has a prevalence or accuracy outside [0, 1]",
    "irrational": "the discriminant is not a rational square: the classifiers were not sample "
    "independent on this test",
    "blind_spot": "a degenerate sketch (a constant classifier or an uncorrelated pair) leaves the "
    "closed form undefined",
    "trio_disagreement": "the trios of a larger ensemble give different evaluations",
    "undecided": "the decoding rule chooses neither evaluation (a tie, or none in the prevalence range)",
    "misaligned": "no evaluation lets every member meet the safety specification",
}


#: The kinds of confidence interval (:mod:`evalgebra.evaluators.intervals`), with what they are.
INTERVAL_KINDS: dict[str, str] = {
    "bootstrap": "percentile intervals of a multinomial bootstrap over the sketch's pattern counts",
    "delta": "the delta method: the closed form's gradient times the multinomial covariance of the counts",
}


#: The methods whose evaluations assume independent errors given the true label (``Evaluation.structure``
#: records ``"independent"`` unless a correlated structure is given).
INDEPENDENT_METHODS = ("algebraic", "hui_walter", "hui_walter_gibbs")


Exact = Union[Fraction, QuadraticNumber, AlgebraicNumber]
#: The types of exact values (``int`` counts among them).
EXACT_TYPES = (Fraction, int, QuadraticNumber, AlgebraicNumber)


def exact_text(value: Any) -> str:
    """The text of an exact value that :func:`sympy.sympify` reads back to the same number.

    >>> exact_text(Fraction(3, 4)), exact_text(AlgebraicNumber([-2, 0, 1], 1))
    ('3/4', 'CRootOf(x**2 - 2, 1)')
    """
    if isinstance(value, (QuadraticNumber, AlgebraicNumber)):
        return value.to_sympy_text()
    return str(Fraction(value))


def _number(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):  # complex
        return None


@dataclass(frozen=True)
class Alarm:
    r"""A failure mode or warning found by an evaluator.

    Parameters
    ----------
    kind : str
        One of :data:`ALARM_KINDS`.
    detail : str
        What was found, in words and numbers.
    classifiers : tuple of str
        The classifiers concerned (empty: the whole ensemble).

    Examples
    --------
    >>> alarm = Alarm("undecided", "an exact tie in total accuracy")
    >>> alarm.to_dict()
    {'kind': 'undecided', 'detail': 'an exact tie in total accuracy'}
    >>> Alarm("unknown", "?")
    Traceback (most recent call last):
    ...
    ValueError: unknown alarm kind 'unknown'; known: ['blind_spot', 'complex', 'empty_variety', 'irrational', 'misaligned', 'outside_unit_cube', 'trio_disagreement', 'undecided']
    """

    kind: str
    detail: str
    classifiers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ALARM_KINDS:
            raise ValueError(f"unknown alarm kind {self.kind!r}; known: {sorted(ALARM_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "detail": self.detail}
        if self.classifiers:
            out["classifiers"] = list(self.classifiers)
        return out


@dataclass(frozen=True)
class Estimate:
    r"""One candidate evaluation: prevalence per label, accuracy per classifier and label.

    Values are exact (:class:`~fractions.Fraction`, :class:`QuadraticNumber`,
    :class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber`) or floats when the method
    is numeric; ``None`` marks a statistic the method leaves undefined.

    ``interval`` (optional, keyword only) holds confidence intervals with the keys of the
    values: ``interval["prevalence"][label]``, ``interval["accuracy"][classifier][label]``
    (and ``interval["response"]``, ``interval["by_population"]`` where the estimate has them),
    each a ``(low, high)`` pair of floats, or ``None`` where the statistic is undefined (see
    :mod:`evalgebra.evaluators.intervals`; the evaluation's ``intervals`` says how they were made).

    ``response[classifier][true label][answer]`` (optional, keyword only) holds every rate
    ``P_{i,answer|true label}`` (three or more labels; ``accuracy`` is its diagonal); with two
    labels the rows follow from the accuracies (:meth:`response_rows`).

    ``correlation[(classifier, ...)][true label]`` (optional, keyword only) holds the error
    correlation ``G^ell_T`` of every subset ``T`` of a correlated structure (two labels: the
    value at the all-correct answers), from ``evaluate(sketch, structure=...)``.

    It shows itself in a notebook as a compact table (``_repr_html_``), in a terminal with
    :meth:`summary`, and as a pandas table with :meth:`to_frame`.

    Examples
    --------
    >>> e = Estimate({"a": Fraction(1, 4), "b": Fraction(3, 4)},
    ...              {"c0": {"a": Fraction(3, 4), "b": Fraction(2, 3)}})
    >>> e
    Estimate(prevalence a=1/4, b=3/4; accuracy of 1 classifiers)
    >>> e.total_accuracy("c0")
    Fraction(11, 16)
    >>> print(e.summary())
    prevalence: P_a = 1/4 ≈ 0.2500   P_b = 3/4 ≈ 0.7500
    c0  acc on a = 3/4 ≈ 0.7500   acc on b = 2/3 ≈ 0.6667
    """

    prevalence: Mapping[str, Any]
    accuracy: Mapping[str, Mapping[str, Any]]
    response: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict, kw_only=True)
    interval: Mapping[str, Any] = field(default_factory=dict, kw_only=True)
    correlation: Mapping[tuple[str, ...], Mapping[str, Any]] = field(default_factory=dict, kw_only=True)

    @property
    def is_exact(self) -> bool:
        """True when every defined value is exact (rational or algebraic)."""
        values = self.values() + [v for rows in self.response.values() for row in rows.values() for v in row.values()]
        values += [v for row in self.correlation.values() for v in row.values()]
        return all(isinstance(v, EXACT_TYPES) for v in values if v is not None)

    def response_rows(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``{classifier: {true label: {answer: rate}}}``: given, or implied by two labels' accuracies (else ``{}``).

        >>> Estimate({"a": Fraction(1, 4), "b": Fraction(3, 4)},
        ...          {"c0": {"a": Fraction(3, 4), "b": None}}).response_rows()["c0"]
        {'a': {'a': Fraction(3, 4), 'b': Fraction(1, 4)}, 'b': {'a': None, 'b': None}}
        """
        if self.response:
            return {c: {t: dict(row) for t, row in rows.items()} for c, rows in self.response.items()}
        labels = list(self.prevalence)
        flip = lambda v, same: v if v is None or same else 1 - v  # noqa: E731 - P_{i,b|a} = 1 - P_{i,a|a}
        return {} if len(labels) != 2 else {c: {t: {r: flip(row.get(t), r == t) for r in labels} for t in labels}
                                            for c, row in self.accuracy.items()}

    def values(self) -> list[Any]:
        """Prevalences, then accuracies classifier by classifier."""
        return list(self.prevalence.values()) + [v for row in self.accuracy.values() for v in row.values()]

    def total_accuracy(self, classifier: str) -> Any:
        """``sum_ell P_ell * P_{i,ell}``, exact when the estimate is."""
        total: Any = 0
        for label, p in self.prevalence.items():
            total = total + p * self.accuracy[classifier][label]
        return total

    def __repr__(self) -> str:
        return render.estimate_repr(self)

    def summary(self) -> str:
        """The estimate as plain text: the prevalences, then one line per classifier."""
        return "\n".join(render.estimate_lines(self))

    def _repr_html_(self) -> str:
        return render.estimate_html(self)

    def to_frame(self) -> Any:
        """A :class:`pandas.DataFrame`, one row per statistic (pandas is optional).

        Columns ``statistic`` (``prevalence``, ``accuracy``, or ``correlation`` with the subset
        as ``classifier``, ``"c0,c1"``), ``label``, ``classifier``, ``value`` (float) and
        ``exact`` (the exact text, ``None`` for floats); ``low`` and ``high`` when the estimate
        has intervals.
        """
        records = render.estimate_records(self)
        return render.frame(records, render.record_columns(records, _COLUMNS))

    def to_dict(self) -> dict[str, Any]:
        """``prevalence``, ``accuracy``, ``response`` (and ``correlation``: a list of ``{"classifiers": [...],
        "value": {label: G}}``) as floats (null: undefined or complex); when
        every value is exact, ``exact`` holds the same keys as text :func:`sympy.sympify` reads."""
        rows = self.response_rows()

        def table(convert: Any) -> dict[str, Any]:
            out: dict[str, Any] = {"prevalence": {k: convert(v) for k, v in self.prevalence.items()},
                                   "accuracy": {c: {k: convert(v) for k, v in row.items()}
                                                for c, row in self.accuracy.items()}}
            if rows:
                out["response"] = {c: {t: {r: convert(v) for r, v in row.items()} for t, row in by_truth.items()}
                                   for c, by_truth in rows.items()}
            if self.correlation:
                out["correlation"] = [{"classifiers": list(subset), "value": {k: convert(v) for k, v in row.items()}}
                                      for subset, row in self.correlation.items()]
            return out

        out = table(_number)
        if self.is_exact:
            out["exact"] = table(lambda v: None if v is None else exact_text(v))  # undefined stays null
        if self.interval:
            out["interval"] = _pairs(self.interval)
        return out


def _pairs(tree: Any) -> Any:
    """An interval tree for JSON: ``(low, high)`` pairs become ``[low, high]`` lists."""
    if isinstance(tree, Mapping):
        return {k: _pairs(v) for k, v in tree.items()}
    return None if tree is None else [float(tree[0]), float(tree[1])]


@dataclass(frozen=True)
class IntervalInfo:
    r"""How the confidence intervals of an evaluation were made.

    Parameters
    ----------
    kind : str
        One of :data:`INTERVAL_KINDS` (``"bootstrap"`` or ``"delta"``).
    level : float
        The nominal coverage, e.g. ``0.95``.
    n_boot : int or None
        Resamples drawn (bootstrap).
    seed : int or None
        The seed of the resampling (bootstrap; ``None``: fresh entropy, not reproducible).
    failed : mapping of str to int
        Resamples whose evaluation failed, by reason (an alarm kind such as ``complex``,
        ``blind_spot``, ``undecided``, or ``undefined``: a statistic of the estimate was
        undefined on the resample). They are left out of the percentiles and counted here.

    Examples
    --------
    >>> info = IntervalInfo("bootstrap", 0.95, n_boot=1000, seed=0, failed={"complex": 12})
    >>> info.n_failed, info.failed_share
    (12, 0.012)
    >>> info.text()
    '95% bootstrap intervals (1000 resamples, seed 0; 12 failed (1.2%): complex 12)'
    """

    kind: str
    level: float
    n_boot: int | None = None
    seed: int | None = None
    failed: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in INTERVAL_KINDS:
            raise ValueError(f"unknown interval kind {self.kind!r}; known: {sorted(INTERVAL_KINDS)}")

    @property
    def n_failed(self) -> int:
        """Resamples whose evaluation failed (all reasons)."""
        return sum(self.failed.values())

    @property
    def failed_share(self) -> float | None:
        """The share of the resamples that failed (``None`` without resamples)."""
        return self.n_failed / self.n_boot if self.n_boot else None

    def text(self) -> str:
        """One line: level, kind, resamples, seed and the failures by reason."""
        text = f"{100 * self.level:g}% {self.kind} intervals"
        if self.kind == "bootstrap":
            seed = "no seed" if self.seed is None else f"seed {self.seed}"
            failed = ""
            if self.n_failed:
                failed = (f"; {self.n_failed} failed ({100 * (self.failed_share or 0):.3g}%): "
                          + ", ".join(f"{k} {v}" for k, v in sorted(self.failed.items())))
            text += f" ({self.n_boot} resamples, {seed}{failed})"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "n_boot": self.n_boot, "seed": self.seed,
                "failed": dict(self.failed), "failed_share": self.failed_share}


@dataclass(frozen=True)
class Evaluation:
    r"""The result of an evaluator on a sketch.

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

    Notes
    -----
    It shows itself compactly: a short ``repr``; in a notebook an HTML block with the chosen
    point's prevalences and accuracies (exact, with decimals), the alarms one line each and
    the trios summarised (how many, the spread of their prevalences); :meth:`summary` for a
    terminal; :meth:`to_frame` for pandas; :meth:`to_json` for files.

    Examples
    --------
    >>> from evalgebra.evaluators.closed_form import evaluate_counts
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

    def __post_init__(self) -> None:
        if self.structure is None and self.method in INDEPENDENT_METHODS:
            object.__setattr__(self, "structure", "independent")

    @property
    def point(self) -> Estimate | None:
        """The chosen estimate, or ``None``."""
        return None if self.chosen is None else self.points[self.chosen]

    @property
    def ok(self) -> bool:
        """True when no alarm was raised."""
        return not self.alarms

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
            "points": [p.to_dict() for p in self.points],
            "chosen": self.chosen,
            "partition": {
                label: [{"decisions": list(pattern), "count": _number(count),
                         **({"exact": exact_text(count)} if isinstance(count, EXACT_TYPES) else {})}
                        for pattern, count in rows]
                for label, rows in self.partition.items()
            },
            "alarms": [a.to_dict() for a in self.alarms],
            "trios": [t.to_dict() for t in self.trios],
            **({"intervals": self.intervals.to_dict()} if self.intervals is not None else {}),
        }

    def to_json(self) -> str:
        """The ``evalgebra.evaluation/1`` JSON document."""
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def __repr__(self) -> str:
        return render.evaluation_repr(self)

    def summary(self) -> str:
        """Plain text: the chosen point (or the candidates), the alarms one line each, the trios in one line."""
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
        return render.frame(records, render.record_columns(records, ("point", "chosen", *_COLUMNS)))


_COLUMNS = ("statistic", "label", "classifier", "value", "exact")
