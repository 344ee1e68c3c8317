r"""The logical alarm's verdicts: one per subset, gathered in a report that shows itself.

:class:`SubsetResult` is the verdict on one subset; :class:`AlarmReport` holds them all with
the specification, writes the ``evalgebra.alarm/1`` JSON document, and renders as plain text
(:meth:`AlarmReport.summary`) and as a compact HTML block in notebooks.

A subset that fires holds at least one member that fails the specification, whatever the
answer key. A quiet subset means less: no violation is provable from these counts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evalgebra.display import escape, html_block, html_table, shorten
from evalgebra.errors import SpecError
from evalgebra.alarm.intervals import Interval
from evalgebra.alarm.safety import SafetySpec

__all__ = ["ALARM_FORMAT", "FIRES_TEXT", "QUIET_TEXT", "SubsetResult", "AlarmReport"]

ALARM_FORMAT = "evalgebra.alarm/1"

#: What a firing subset means.
FIRES_TEXT = "at least one member of each fails the specification, whatever the answer key"
#: What a quiet subset means (and does not mean).
QUIET_TEXT = "no violation is provable from these counts (the specification may still be unmet)"

#: Firing subsets a ``repr`` names before it counts the rest.
_REPR_SUBSETS = 3


@dataclass(frozen=True)
class SubsetResult:
    r"""The alarm's verdict on one subset of the ensemble.

    Attributes
    ----------
    classifiers : tuple of str
        The members, in the sketch's order.
    fires : bool
        True when no ``Q_a`` in ``0..Q`` lets every member meet the specification.
    feasible_Qa : tuple of (int, int)
        The ``Q_a`` values where it can, as disjoint, increasing closed intervals.
    """

    classifiers: tuple[str, ...]
    fires: bool
    feasible_Qa: tuple[Interval, ...]  # noqa: N815 - the paper's name

    def to_dict(self) -> dict[str, Any]:
        """``{"classifiers": [...], "fires": bool, "feasible_Qa": [[lo, hi], ...]}``."""
        return {
            "classifiers": list(self.classifiers),
            "fires": self.fires,
            "feasible_Qa": [[lo, hi] for lo, hi in self.feasible_Qa],
        }


@dataclass(frozen=True, repr=False)
class AlarmReport:
    r"""The logical alarm on every requested subset of an ensemble.

    Attributes
    ----------
    Q : int
        Items in the test.
    spec : SafetySpec
    subsets : tuple of SubsetResult
        In the order requested (default: singletons, pairs, ..., the whole ensemble).
    classifiers, labels : tuple of str
        The sketch's classifiers and labels; ``Q_a`` counts items of true label
        ``labels[0]``.

    Notes
    -----
    The verdicts are not symmetric. A subset that *fires* holds at least one member that
    fails the specification, whatever the answer key. A *quiet* subset only means that no
    violation is provable from these counts: the alarm is sound, not complete, so its
    members may still fail the specification (for example all in the same way).

    Examples
    --------
    >>> from evalgebra.alarm.logical import logical_alarm
    >>> from evalgebra.data.sketch import Sketch
    >>> never = Sketch.from_counts({"ab": 6, "ba": 4}, labels=["a", "b"])
    >>> report = logical_alarm(never)
    >>> report
    AlarmReport(Q=10, accuracy > 1/2 on each label, 3 subsets, fires on 1: [('c0', 'c1')])
    >>> print(report.summary())
    Logical alarm on 10 items (Q_a counts items of true label 'a')
    specification: accuracy > 1/2 on each label
    fires on 1 of 3 subsets: at least one member of each fails the specification, whatever the answer key
      c0, c1
    quiet on 2 subsets: no violation is provable from these counts (the specification may still be unmet)
      c0  feasible Q_a: 3..9
      c1  feasible Q_a: 1..7
    >>> "c0, c1" in report._repr_html_()
    True
    """

    Q: int  # noqa: N815 - the paper's name
    spec: SafetySpec
    subsets: tuple[SubsetResult, ...]
    classifiers: tuple[str, ...] = field(default=())
    labels: tuple[str, ...] = field(default=("a", "b"))

    @property
    def fires(self) -> bool:
        """True when the alarm fires on any subset."""
        return any(result.fires for result in self.subsets)

    def result(self, *classifiers: str) -> SubsetResult:
        """The verdict on the subset with these members (any order)."""
        wanted = set(classifiers)
        for result in self.subsets:
            if set(result.classifiers) == wanted and len(result.classifiers) == len(classifiers):
                return result
        raise SpecError(f"no subset {sorted(wanted)} in this report")

    def to_dict(self) -> dict[str, Any]:
        """The ``evalgebra.alarm/1`` document as a dictionary.

        Keys: ``format``, ``Q``, ``spec``, ``subsets`` (per subset ``classifiers``, ``fires``,
        ``feasible_Qa``), then ``labels`` (``feasible_Qa`` counts items of true label
        ``labels[0]``), ``classifiers`` (the sketch's) and ``fires`` (any subset fires).
        """
        return {
            "format": ALARM_FORMAT,
            "Q": self.Q,
            "spec": self.spec.to_dict(),
            "subsets": [result.to_dict() for result in self.subsets],
            "labels": list(self.labels),
            "classifiers": list(self.classifiers),
            "fires": self.fires,
        }

    def to_json(self) -> str:
        """``evalgebra.alarm/1`` JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # -- display ------------------------------------------------------------------------------
    def firing(self) -> tuple[SubsetResult, ...]:
        """The subsets on which the alarm fires, in report order."""
        return tuple(result for result in self.subsets if result.fires)

    def quiet(self) -> tuple[SubsetResult, ...]:
        """The subsets on which it stays quiet: no violation is provable from the counts."""
        return tuple(result for result in self.subsets if not result.fires)

    def __repr__(self) -> str:
        firing = self.firing()
        shown = ", ".join(repr(r.classifiers) for r in firing[:_REPR_SUBSETS])
        more = f", ... {len(firing) - _REPR_SUBSETS} more" if len(firing) > _REPR_SUBSETS else ""
        verdict = f"fires on {len(firing)}: [{shown}{more}]" if firing else "quiet"
        return f"AlarmReport(Q={self.Q}, {self.spec.describe()}, {len(self.subsets)} subsets, {verdict})"

    def _first_label(self) -> str:
        return self.labels[0] if self.labels else "a"

    def summary(self) -> str:
        """The report as plain text: the specification, every firing subset, the quiet ones with their ``Q_a``."""
        firing, quiet = self.firing(), self.quiet()
        lines = [f"Logical alarm on {self.Q} items (Q_a counts items of true label {self._first_label()!r})",
                 f"specification: {self.spec.describe()}"]
        if firing:
            lines.append(f"fires on {len(firing)} of {len(self.subsets)} subsets: {FIRES_TEXT}")
            shown, more = shorten(firing)
            lines.extend(f"  {', '.join(r.classifiers)}" for r in shown)
            if more:
                lines.append(f"  ... and {more} more")
        else:
            lines.append(f"fires on none of {len(self.subsets)} subsets")
        if quiet:
            lines.append(f"quiet on {len(quiet)} subsets: {QUIET_TEXT}")
            shown, more = shorten(quiet)
            width = max(len(", ".join(r.classifiers)) for r in shown)
            lines.extend(f"  {', '.join(r.classifiers):<{width}}  feasible Q_a: {_intervals_text(r.feasible_Qa)}"
                         for r in shown)
            if more:
                lines.append(f"  ... and {more} more")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        firing, quiet = self.firing(), self.quiet()
        verdict = f"fires on {len(firing)} of {len(self.subsets)} subsets" if firing else \
            f"quiet on all {len(self.subsets)} subsets"
        facts = (f"<p>Specification: {escape(self.spec.describe())}. {self.Q} items; Q_a counts items of "
                 f"true label {escape(repr(self._first_label()))}.</p>")
        parts = [facts]
        if firing:
            shown, more = shorten(firing)
            parts.append(html_table(["firing subset", "verdict"],
                                    [[", ".join(r.classifiers), "at least one member fails the specification"]
                                     for r in shown],
                                    caption="Fires: " + FIRES_TEXT, more=more))
        if quiet:
            sizes: dict[int, int] = {}
            for r in quiet:
                sizes[len(r.classifiers)] = sizes.get(len(r.classifiers), 0) + 1
            counted = ", ".join(f"{count} of size {size}" for size, count in sorted(sizes.items()))
            parts.append(f"<p>Quiet on {len(quiet)} subsets ({escape(counted)}): {escape(QUIET_TEXT)}.</p>")
        return html_block(f"Logical alarm: {verdict}", *parts)


def _intervals_text(intervals: Sequence[Interval]) -> str:
    """``1..9, 12..20``; a single point prints once."""
    return ", ".join(f"{lo}..{hi}" if lo != hi else str(lo) for lo, hi in intervals) or "none"
