r"""What every member of an ensemble must meet: the logical alarm's safety specification.

A :class:`SafetySpec` holds exact accuracy thresholds, per label and in total, and says
whether a classifier with given R-space counts meets them. The alarm
(:func:`evalgebra.alarm.logical.logical_alarm`) asks whether some answer key lets every
member of a subset meet it.

References
----------
.. [1] A. Corrada-Emmanuel and I. Parker, "A logical alarm for misaligned binary
   classifiers": eqs. 1-2, the specifications.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.numbers.rationals import parse_rational

__all__ = ["SafetySpec"]


def _threshold(value: Any, what: str, strict: bool) -> Fraction | None:
    """A rational threshold in ``[0, 1)`` (``[0, 1]`` when not strict), or None."""
    if value is None:
        return None
    if isinstance(value, (bool, float)):
        raise SpecError(f"{what}: {value!r} is not exact; give an int, a Fraction or a 'p/q' string")
    if isinstance(value, str):
        number = parse_rational(value, what, SpecError)
    elif isinstance(value, (int, Fraction, np.integer)):
        number = Fraction(int(value)) if isinstance(value, np.integer) else Fraction(value)
    else:
        raise SpecError(f"{what}: give an int, a Fraction or a 'p/q' string, got {type(value).__name__}")
    if number < 0 or number > 1 or (strict and number == 1):
        accepted = "0 <= threshold < 1 (strict)" if strict else "0 <= threshold <= 1"
        raise SpecError(f"{what}: {number} is out of range; accepted: {accepted}")
    return number


def _overrides(value: Any, what: str, strict: bool) -> tuple[tuple[str, Fraction | None], ...]:
    """``{name: threshold}`` as sorted pairs (``None`` thresholds kept: no condition)."""
    if value is None:
        return ()
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        value = dict(value)
    if not isinstance(value, Mapping):
        raise SpecError(f"{what} must be a mapping of names to thresholds, got {type(value).__name__}")
    out = []
    for key, threshold in value.items():
        if not isinstance(key, str):
            raise SpecError(f"{what}: keys are label or classifier names (str), got {key!r}")
        out.append((key, _threshold(threshold, f"{what}[{key!r}]", strict)))
    return tuple(sorted(out))


def _per_classifier(
    value: Any, strict: bool
) -> tuple[tuple[str, tuple[tuple[str, Fraction | None], ...]], ...]:
    """``{classifier: threshold or {label: threshold}}`` as sorted pairs (``""`` keys every label)."""
    if value is None:
        return ()
    if isinstance(value, tuple):
        value = dict(value)
    if not isinstance(value, Mapping):
        raise SpecError(f"by_classifier must be a mapping of classifier names, got {type(value).__name__}")
    out = []
    for name, thresholds in value.items():
        if not isinstance(name, str):
            raise SpecError(f"by_classifier: keys are classifier names (str), got {name!r}")
        if isinstance(thresholds, (Mapping, tuple)):
            out.append((name, _overrides(thresholds, f"by_classifier[{name!r}]", strict)))
        else:
            out.append((name, (("", _threshold(thresholds, f"by_classifier[{name!r}]", strict)),)))
    return tuple(sorted(out))


@dataclass(frozen=True, repr=False)
class SafetySpec:
    r"""What every member of an ensemble must meet: rational accuracy thresholds.

    Parameters
    ----------
    min_accuracy : Fraction, int, str or None
        Threshold ``theta`` on the accuracy on *each* label (eq. 1 of the logical-alarm paper):
        ``R_{a_i,a} > theta Q_a`` and ``R_{b_i,b} > theta Q_b``. Default 1/2. ``None``:
        no per-label condition.
    min_total_accuracy : Fraction, int, str or None
        Threshold ``tau`` on the total accuracy (eq. 2 of the paper):
        ``R_{a_i,a} + R_{b_i,b} > tau Q``. Default ``None`` (no condition).
    strict : bool
        ``>`` (the paper's "better than 50%", default) or ``>=``. Conditions are read with
        denominators cleared, so on a label no item has a strict per-label threshold is
        never met (``0 > 0``) and a non-strict one always is (``0 >= 0``).
    by_label : mapping of label name to threshold, optional
        Per-label thresholds that differ by label: they replace ``min_accuracy`` on those
        labels (``None``: no condition on that label).
    by_classifier : mapping of classifier name to a threshold or to {label: threshold}, optional
        Thresholds of one classifier: a single value for every label, or per label; they
        replace ``by_label`` and ``min_accuracy`` for that classifier.
    answered_only : bool
        For classifiers that may abstain. ``False`` (default): an abstention is not a correct
        answer, so the accuracy on label ``l`` is ``P(answer = l | truth = l)`` over all the
        items of that label, and a classifier that abstains on many items misses the
        thresholds. ``True``: the accuracy among answered items, ``P(answer = l | truth = l,
        answered)``, and the total accuracy among the items the classifier answered (a label
        it answered no item of never meets a strict threshold). The same for classifiers that
        always answer.

    Thresholds are exact: ints, :class:`~fractions.Fraction` or ``"p/q"`` strings in
    ``[0, 1)`` (``[0, 1]`` when not strict); floats are rejected.

    Examples
    --------
    >>> SafetySpec()
    SafetySpec(min_accuracy=Fraction(1, 2), min_total_accuracy=None, strict=True)
    >>> SafetySpec("2/3", min_total_accuracy="3/4").to_dict()
    {'min_accuracy': '2/3', 'min_total_accuracy': '3/4', 'strict': True}
    >>> SafetySpec().met_by(correct_a=3, correct_b=2, q_a=5, q_b=3)
    True
    >>> SafetySpec("1/2", by_label={"b": "2/3"}).threshold("c0", "b")
    Fraction(2, 3)
    >>> SafetySpec(by_classifier={"c1": {"a": "3/4"}}).describe()
    'accuracy > 1/2 on each label; c1: accuracy > 3/4 on a'
    >>> SafetySpec("2/3", answered_only=True).describe()
    'accuracy > 2/3 on each label among answered items'
    >>> SafetySpec(0.5)
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: min_accuracy: 0.5 is not exact; give an int, a Fraction or a 'p/q' string
    """

    min_accuracy: Fraction | None = Fraction(1, 2)
    min_total_accuracy: Fraction | None = None
    strict: bool = True
    by_label: Any = field(default=None)
    by_classifier: Any = field(default=None)
    answered_only: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.strict, bool):
            raise SpecError(f"strict must be True or False, got {self.strict!r}")
        if not isinstance(self.answered_only, bool):
            raise SpecError(f"answered_only must be True or False, got {self.answered_only!r}")
        object.__setattr__(self, "min_accuracy", _threshold(self.min_accuracy, "min_accuracy", self.strict))
        object.__setattr__(
            self, "min_total_accuracy", _threshold(self.min_total_accuracy, "min_total_accuracy", self.strict)
        )
        object.__setattr__(self, "by_label", _overrides(self.by_label, "by_label", self.strict))
        object.__setattr__(self, "by_classifier", _per_classifier(self.by_classifier, self.strict))

    def __repr__(self) -> str:
        extra = ""
        if self.by_label:
            extra += f", by_label={dict(self.by_label)!r}"
        if self.by_classifier:
            extra += f", by_classifier={ {k: dict(v) for k, v in self.by_classifier}!r}"
        if self.answered_only:
            extra += ", answered_only=True"
        return (
            f"SafetySpec(min_accuracy={self.min_accuracy!r}, min_total_accuracy={self.min_total_accuracy!r}, "
            f"strict={self.strict!r}{extra})"
        )

    @property
    def uniform(self) -> bool:
        """True when one per-label threshold holds for every classifier and label."""
        return not self.by_label and not self.by_classifier

    def threshold(self, classifier: str, label: str) -> Fraction | None:
        """The threshold on ``classifier``'s accuracy on ``label`` (``None``: no condition)."""
        for name, overrides in self.by_classifier:
            if name == classifier:
                table = dict(overrides)
                if label in table:
                    return table[label]
                if "" in table:
                    return table[""]
        table = dict(self.by_label)
        if label in table:
            return table[label]
        return self.min_accuracy

    def total_threshold(self, classifier: str) -> Fraction | None:
        """The threshold on ``classifier``'s total accuracy (the same for every classifier)."""
        return self.min_total_accuracy

    def names(self) -> tuple[set[str], set[str]]:
        """The label names and classifier names the overrides mention."""
        labels = {k for k, _ in self.by_label} | {k for _, v in self.by_classifier for k, _ in v if k}
        return labels, {k for k, _ in self.by_classifier}

    def _exceeds(self, count: int, threshold: Fraction, size: int) -> bool:
        value = count * threshold.denominator - threshold.numerator * size
        return value > 0 if self.strict else value >= 0

    def met_by(self, correct_a: int, correct_b: int, q_a: int, q_b: int) -> bool:
        r"""Whether a classifier with these R-space counts meets the specification.

        ``correct_a = R_{a_i,a}`` of ``q_a`` true-``a`` items, ``correct_b = R_{b_i,b}``
        of ``q_b`` true-``b`` items (a classifier that answers every item: with abstentions
        and ``answered_only``, pass the answered items of each label as ``q_a``, ``q_b``).
        """
        if self.min_accuracy is not None and not (
            self._exceeds(correct_a, self.min_accuracy, q_a)
            and self._exceeds(correct_b, self.min_accuracy, q_b)
        ):
            return False
        if self.min_total_accuracy is not None:
            return self._exceeds(correct_a + correct_b, self.min_total_accuracy, q_a + q_b)
        return True

    def describe(self) -> str:
        """The specification in words, e.g. ``"accuracy > 1/2 on each label"``."""
        sign = ">" if self.strict else ">="
        parts = []
        if self.min_accuracy is not None:
            parts.append(f"accuracy {sign} {self.min_accuracy} on each label")
        if self.min_total_accuracy is not None:
            parts.append(f"total accuracy {sign} {self.min_total_accuracy}")
        text = " and ".join(parts) or "no condition"
        if self.answered_only and parts:
            text += " among answered items"

        def listed(pairs: tuple[tuple[str, Fraction | None], ...]) -> str:
            return ", ".join(
                f"accuracy {sign} {t} on {k}"
                if k
                else f"accuracy {sign} {t} on each label"
                if t is not None
                else f"no condition on {k or 'any label'}"
                for k, t in pairs
            )

        if self.by_label:
            text += f"; by label: {listed(self.by_label)}"
        for name, overrides in self.by_classifier:
            text += f"; {name}: {listed(overrides)}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """Thresholds as exact ``"p/q"`` strings (``None`` when absent)."""
        out: dict[str, Any] = {
            "min_accuracy": None if self.min_accuracy is None else str(self.min_accuracy),
            "min_total_accuracy": None if self.min_total_accuracy is None else str(self.min_total_accuracy),
            "strict": self.strict,
        }
        if self.answered_only:
            out["answered_only"] = True
        if self.by_label:
            out["by_label"] = {k: None if t is None else str(t) for k, t in self.by_label}
        if self.by_classifier:
            out["by_classifier"] = {
                name: {k or "*": None if t is None else str(t) for k, t in overrides}
                for name, overrides in self.by_classifier
            }
        return out
