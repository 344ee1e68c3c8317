r"""Alarms: the mathematical failure modes and warnings an evaluator finds, as results.

A failure mode of an evaluation (complex or irrational points, a blind spot, an undecided
decoding, ...) is never an exception: the evaluator returns its :class:`Alarm` with the
evaluation. :data:`ALARM_KINDS` lists every kind, with what it means.

Examples
--------
>>> Alarm("blind_spot", "classifier c1 is constant", classifiers=("c1",)).to_dict()
{'kind': 'blind_spot', 'detail': 'classifier c1 is constant', 'classifiers': ['c1']}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ALARM_KINDS", "Alarm"]

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


@dataclass(frozen=True)
class Alarm:
    r"""A failure mode or warning found by an evaluator.

    Parameters
    ----------
    kind : str
        One of :data:`ALARM_KINDS`.
    detail : str
        What was found, in words and numbers.
    classifiers : tuple of str (keyword only)
        The classifiers concerned (empty: the whole ensemble).

    Examples
    --------
    >>> alarm = Alarm("undecided", "an exact tie in total accuracy")
    >>> alarm.to_dict()
    {'kind': 'undecided', 'detail': 'an exact tie in total accuracy'}
    >>> Alarm("unknown", "?")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: unknown alarm kind 'unknown'; known: ['blind_spot', 'complex', 'empty_variety',
        'irrational', 'misaligned', 'outside_unit_cube', 'trio_disagreement', 'undecided']
    """

    kind: str
    detail: str
    classifiers: tuple[str, ...] = field(default=(), kw_only=True)

    def __post_init__(self) -> None:
        if self.kind not in ALARM_KINDS:
            raise ValueError(f"unknown alarm kind {self.kind!r}; known: {sorted(ALARM_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "detail": self.detail}
        if self.classifiers:
            out["classifiers"] = list(self.classifiers)
        return out
