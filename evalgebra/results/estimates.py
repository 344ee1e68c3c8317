r"""Estimates: one candidate evaluation (prevalences, accuracies, rates), exact where the method is.

Exact values are :class:`fractions.Fraction` and the exact irrational numbers
(:class:`QuadraticNumber`, ``p + q*sqrt(d)``, two labels; :class:`AlgebraicNumber`, three or
more labels), so an irrational point is still exact; :func:`exact_text` writes text
:func:`sympy.sympify` reads. The irrational types are recognised by what they do
(:class:`ExactNumber`: they write that text), so results need no number module.

Examples
--------
>>> from fractions import Fraction
>>> from evalgebra.numbers import QuadraticNumber
>>> exact_text(QuadraticNumber(Fraction(1, 2), Fraction(1, 4), 5) + 1)
'3/2 + sqrt(5)/4'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, Union, runtime_checkable

import evalgebra.results.rendering as render

__all__ = ["Estimate", "Exact", "EXACT_TYPES", "ExactNumber", "exact_text"]


@runtime_checkable
class ExactNumber(Protocol):
    r"""An exact irrational number: it writes itself as text :func:`sympy.sympify` reads back.

    :class:`QuadraticNumber` and :class:`AlgebraicNumber` (every real algebraic number of the
    project) are exact numbers; floats and SymPy expressions are not.

    Examples
    --------
    >>> from evalgebra.numbers import AlgebraicNumber
    >>> isinstance(AlgebraicNumber([-2, 0, 1], 1), ExactNumber), isinstance(1.5, ExactNumber)
    (True, False)
    """

    def to_sympy_text(self) -> str:
        """The number as text :func:`sympy.sympify` reads back."""
        ...


Exact = Union[Fraction, ExactNumber]
#: The types of exact values (``int`` counts among them).
EXACT_TYPES = (Fraction, int, ExactNumber)


def exact_text(value: Any) -> str:
    """The text of an exact value that :func:`sympy.sympify` reads back to the same number.

    >>> from evalgebra.numbers import AlgebraicNumber
    >>> exact_text(Fraction(3, 4)), exact_text(AlgebraicNumber([-2, 0, 1], 1))
    ('3/4', 'CRootOf(x**2 - 2, 1)')
    """
    if isinstance(value, ExactNumber):
        return value.to_sympy_text()
    return str(Fraction(value))


@dataclass(frozen=True)
class Estimate:
    r"""One candidate evaluation: prevalence per label, accuracy per classifier and label.

    Values are exact (:class:`~fractions.Fraction`, :class:`QuadraticNumber`,
    :class:`AlgebraicNumber`) or floats when the method
    is numeric; ``None`` marks a statistic the method leaves undefined.

    ``interval`` (optional, keyword only) holds confidence intervals with the keys of the
    values: ``interval["prevalence"][label]``, ``interval["accuracy"][classifier][label]``
    (and ``interval["response"]``, ``interval["by_population"]`` where the estimate has them),
    each a ``(low, high)`` pair of floats, or ``None`` where the statistic is undefined (see
    :mod:`evalgebra.evaluators.intervals.confidence`; the evaluation's ``intervals`` says how they were made).

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
        values = self.values() + [
            v for rows in self.response.values() for row in rows.values() for v in row.values()
        ]
        values += [v for row in self.correlation.values() for v in row.values()]
        return all(isinstance(v, EXACT_TYPES) for v in values if v is not None)

    def response_rows(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``{classifier: {true label: {answer: rate}}}``: given, or implied by two labels' accuracies
        (else ``{}``).

        >>> Estimate({"a": Fraction(1, 4), "b": Fraction(3, 4)},
        ...          {"c0": {"a": Fraction(3, 4), "b": None}}).response_rows()["c0"]
        {'a': {'a': Fraction(3, 4), 'b': Fraction(1, 4)}, 'b': {'a': None, 'b': None}}
        """
        if self.response:
            return {c: {t: dict(row) for t, row in rows.items()} for c, rows in self.response.items()}
        labels = list(self.prevalence)
        flip = lambda v, same: v if v is None or same else 1 - v  # noqa: E731 - P_{i,b|a} = 1 - P_{i,a|a}
        if len(labels) != 2:
            return {}
        return {
            c: {t: {r: flip(row.get(t), r == t) for r in labels} for t in labels}
            for c, row in self.accuracy.items()
        }

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
        return render.frame(records, render.record_columns(records, render.RECORD_COLUMNS))

    def to_dict(self) -> dict[str, Any]:
        """``prevalence``, ``accuracy``, ``response`` (and ``correlation``: a list of ``{"classifiers": [...],
        "value": {label: G}}``) as floats (null: undefined or complex); when
        every value is exact, ``exact`` holds the same keys as text :func:`sympy.sympify` reads."""
        rows = self.response_rows()

        def table(convert: Any) -> dict[str, Any]:
            out: dict[str, Any] = {
                "prevalence": {k: convert(v) for k, v in self.prevalence.items()},
                "accuracy": {c: {k: convert(v) for k, v in row.items()} for c, row in self.accuracy.items()},
            }
            if rows:
                out["response"] = {
                    c: {t: {r: convert(v) for r, v in row.items()} for t, row in by_truth.items()}
                    for c, by_truth in rows.items()
                }
            if self.correlation:
                out["correlation"] = [
                    {"classifiers": list(subset), "value": {k: convert(v) for k, v in row.items()}}
                    for subset, row in self.correlation.items()
                ]
            return out

        out = table(render.float_or_none)
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
