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

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SpecError

__all__ = ["SafetySpec"]


def _threshold(value: Any, what: str, strict: bool) -> Fraction | None:
    """A rational threshold in ``[0, 1)`` (``[0, 1]`` when not strict), or None."""
    if value is None:
        return None
    if isinstance(value, (bool, float)):
        raise SpecError(f"{what}: {value!r} is not exact; give an int, a Fraction or a 'p/q' string")
    if isinstance(value, str):
        try:
            number = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise SpecError(f"{what}: cannot read {value!r} as a rational such as '1/2'") from None
    elif isinstance(value, (int, Fraction, np.integer)):
        number = Fraction(int(value)) if isinstance(value, np.integer) else Fraction(value)
    else:
        raise SpecError(f"{what}: give an int, a Fraction or a 'p/q' string, got {type(value).__name__}")
    if number < 0 or number > 1 or (strict and number == 1):
        accepted = "0 <= threshold < 1 (strict)" if strict else "0 <= threshold <= 1"
        raise SpecError(f"{what}: {number} is out of range; accepted: {accepted}")
    return number


@dataclass(frozen=True)
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
    >>> SafetySpec(0.5)
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: min_accuracy: 0.5 is not exact; give an int, a Fraction or a 'p/q' string
    """

    min_accuracy: Fraction | None = Fraction(1, 2)
    min_total_accuracy: Fraction | None = None
    strict: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.strict, bool):
            raise SpecError(f"strict must be True or False, got {self.strict!r}")
        object.__setattr__(self, "min_accuracy", _threshold(self.min_accuracy, "min_accuracy", self.strict))
        object.__setattr__(
            self, "min_total_accuracy", _threshold(self.min_total_accuracy, "min_total_accuracy", self.strict)
        )

    def _exceeds(self, count: int, threshold: Fraction, size: int) -> bool:
        value = count * threshold.denominator - threshold.numerator * size
        return value > 0 if self.strict else value >= 0

    def met_by(self, correct_a: int, correct_b: int, q_a: int, q_b: int) -> bool:
        r"""Whether a classifier with these R-space counts meets the specification.

        ``correct_a = R_{a_i,a}`` of ``q_a`` true-``a`` items, ``correct_b = R_{b_i,b}``
        of ``q_b`` true-``b`` items.
        """
        if self.min_accuracy is not None and not (
            self._exceeds(correct_a, self.min_accuracy, q_a) and self._exceeds(correct_b, self.min_accuracy, q_b)
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
        return " and ".join(parts) or "no condition"

    def to_dict(self) -> dict[str, Any]:
        """Thresholds as exact ``"p/q"`` strings (``None`` when absent)."""
        return {
            "min_accuracy": None if self.min_accuracy is None else str(self.min_accuracy),
            "min_total_accuracy": None if self.min_total_accuracy is None else str(self.min_total_accuracy),
            "strict": self.strict,
        }
