r"""The logical alarm's verdicts: one per subset, gathered in a report that shows itself.

:class:`SubsetResult` is the verdict on one subset; :class:`AlarmReport` holds them all with
the specification, writes the ``evalgebra.alarm/1`` JSON document, and renders as plain text
(:meth:`AlarmReport.summary`) and as a compact HTML block in notebooks.

A subset that fires holds at least one member that fails the specification, whatever the
answer key (a certificate proves it). A quiet subset means less: these counts cannot prove a
violation, because an answer key exists under which every member meets the specification
(the witness). An ``undecided`` subset is neither: no evidence could be certified.

The ``evalgebra.alarm/1`` document keeps its keys and their meaning and adds new ones after
them: per subset ``verdict``, ``feasible_Qa_progressions`` (``[[lo, hi, step], ...]``, never
listed value by value), ``feasible_Qa_exact``, ``witness``, ``certificate``, ``reason``,
``label_ranges`` and ``accuracy_ranges``; at the top ``undecided`` and ``minimal_firing``.
``feasible_Qa`` (``[[lo, hi], ...]``) is ``null`` when it would list more than
:data:`JSON_INTERVALS` runs or was not computed: read ``feasible_Qa_progressions``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evalgebra.alarm.certificates import Certificate, Witness
from evalgebra.alarm.intervals import Interval
from evalgebra.alarm.ranges import FeasibleSet
from evalgebra.alarm.safety import SafetySpec
from evalgebra.display import escape, html_block, html_table, shorten
from evalgebra.errors import SpecError

__all__ = [
    "ALARM_FORMAT",
    "FIRES_TEXT",
    "QUIET_TEXT",
    "UNDECIDED_TEXT",
    "JSON_INTERVALS",
    "SubsetResult",
    "AlarmReport",
]

ALARM_FORMAT = "evalgebra.alarm/1"

#: What a firing subset means.
FIRES_TEXT = "provably at least one of these misses the specification, whatever the answer key"
#: What a quiet subset means (and does not mean).
QUIET_TEXT = (
    "these counts cannot prove a violation (an answer key exists under which all meet it: "
    "see the witness); the specification may still be unmet"
)
#: What an undecided subset means.
UNDECIDED_TEXT = "neither a witness nor a certificate could be checked: no verdict"
#: Most runs ``feasible_Qa`` lists in JSON (beyond: null; read ``feasible_Qa_progressions``).
JSON_INTERVALS = 1000

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
        True when a certificate proves that no labelled test consistent with the counts lets
        every member meet the specification.
    feasible : FeasibleSet or None
        The ``Q_a`` at which they can, as arithmetic progressions (``None``: not computed).
        Built from a tuple of closed intervals too.
    verdict : str
        ``"fires"``, ``"quiet"`` or ``"undecided"``.
    witness : Witness or None
        Quiet: a labelled test (an integer split of the counts of these members, or of a
        superset of them: :meth:`~evalgebra.alarm.certificates.Witness.restrict`) under which all meet it.
    certificate : Farkas or Split or None
        Fires: the exactly checked proof (of these members or of a firing subset of them).
    reason : str
        Why a subset is undecided.
    label_ranges : dict or None
        Three or more labels: each label's least and greatest item count.
    accuracy : dict or None
        ``{classifier: {label: (least, greatest)}}`` exact accuracies (``accuracy=True``).
    """

    classifiers: tuple[str, ...]
    fires: bool
    feasible: Any = None
    verdict: str = ""
    witness: Witness | None = field(default=None, compare=False)
    certificate: Certificate | None = field(default=None, compare=False)
    reason: str = ""
    label_ranges: dict[str, tuple[int, int]] | None = None
    accuracy: dict[str, dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.feasible is not None and not isinstance(self.feasible, FeasibleSet):
            object.__setattr__(self, "feasible", FeasibleSet.from_intervals(self.feasible))
        if not self.verdict:
            object.__setattr__(self, "verdict", "fires" if self.fires else "quiet")

    @property
    def feasible_Qa(self) -> tuple[Interval, ...] | None:  # noqa: N802 - the paper's name
        """The feasible ``Q_a`` as disjoint, increasing closed intervals (None: not computed).

        A SpecError when they are more than :data:`~evalgebra.alarm.ranges.MAX_INTERVALS`:
        read :attr:`feasible` (arithmetic progressions) instead.
        """
        return None if self.feasible is None else self.feasible.intervals()

    def to_dict(
        self, classifiers: Sequence[str] = (), labels: Sequence[str] = (), abstain: Sequence[str] = ()
    ) -> dict[str, Any]:
        """``classifiers``, ``fires``, ``feasible_Qa`` (``[[lo, hi], ...]`` or null), then the added keys.

        ``classifiers``, ``labels`` and ``abstain`` are the ensemble's (they name the witness's and the
        certificate's patterns).
        """
        intervals = None
        if self.feasible is not None:
            try:
                intervals = [[lo, hi] for lo, hi in self.feasible.intervals(JSON_INTERVALS)]
            except SpecError:
                intervals = None
        names = list(classifiers) or list(self.classifiers)
        out: dict[str, Any] = {
            "classifiers": list(self.classifiers),
            "fires": self.fires,
            "feasible_Qa": intervals,
            "verdict": self.verdict,
            "feasible_Qa_progressions": None if self.feasible is None else self.feasible.to_list(),
            "feasible_Qa_exact": None if self.feasible is None else self.feasible.exact,
            "witness": None
            if self.witness is None or not labels
            else self.witness.restrict([names.index(c) for c in self.classifiers]).to_dict(
                names, labels, abstain
            ),
            "certificate": None
            if self.certificate is None or not labels
            else self.certificate.to_dict(names, labels, abstain),
            "reason": self.reason or None,
            "label_ranges": None
            if self.label_ranges is None
            else {k: list(v) for k, v in self.label_ranges.items()},
            "accuracy_ranges": None
            if self.accuracy is None
            else {
                c: {label: [None if v is None else str(v) for v in pair] for label, pair in row.items()}
                for c, row in self.accuracy.items()
            },
        }
        return out


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
    abstain : tuple of str
        The sketch's abstentions (answers that are not labels), if any.

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
    >>> print(report.summary())  # doctest: +NORMALIZE_WHITESPACE
    Logical alarm on 10 items (Q_a counts items of true label 'a')
    specification: accuracy > 1/2 on each label
    fires on 1 of 3 subsets: provably at least one of these misses the specification, whatever the answer key
      c0, c1
    quiet on 2 subsets: these counts cannot prove a violation (an answer key exists under which all meet
    it: see the witness); the specification may still be unmet
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
    abstain: tuple[str, ...] = field(default=())

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
        ``feasible_Qa``, then the keys added by :meth:`SubsetResult.to_dict`), then ``labels``
        (``feasible_Qa`` counts items of true label ``labels[0]``), ``classifiers`` (the
        sketch's), ``fires`` (any subset fires), ``undecided`` (any subset undecided) and
        ``minimal_firing`` (firing subsets no firing subset of the report is inside), and
        ``abstain`` (the sketch's abstentions) when it has any.
        """
        out = {
            "format": ALARM_FORMAT,
            "Q": self.Q,
            "spec": self.spec.to_dict(),
            "subsets": [
                result.to_dict(self.classifiers, self.labels, self.abstain) for result in self.subsets
            ],
            "labels": list(self.labels),
            "classifiers": list(self.classifiers),
            "fires": self.fires,
            "undecided": any(r.verdict == "undecided" for r in self.subsets),
            "minimal_firing": [list(r.classifiers) for r in self.minimal_firing()],
        }
        if self.abstain:
            out["abstain"] = list(self.abstain)
        return out

    def minimal_firing(self) -> tuple[SubsetResult, ...]:
        """Firing subsets of the report none of whose proper subsets in the report fires."""
        firing = self.firing()
        return tuple(r for r in firing if not any(set(o.classifiers) < set(r.classifiers) for o in firing))

    def undecided(self) -> tuple[SubsetResult, ...]:
        """The subsets on which no verdict could be certified."""
        return tuple(r for r in self.subsets if r.verdict == "undecided")

    def to_json(self) -> str:
        """``evalgebra.alarm/1`` JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # -- display ------------------------------------------------------------------------------
    def firing(self) -> tuple[SubsetResult, ...]:
        """The subsets on which the alarm fires, in report order."""
        return tuple(result for result in self.subsets if result.fires)

    def quiet(self) -> tuple[SubsetResult, ...]:
        """The subsets on which it stays quiet: no violation is provable from the counts."""
        return tuple(result for result in self.subsets if result.verdict == "quiet")

    def __repr__(self) -> str:
        firing = self.firing()
        shown = ", ".join(repr(r.classifiers) for r in firing[:_REPR_SUBSETS])
        more = f", ... {len(firing) - _REPR_SUBSETS} more" if len(firing) > _REPR_SUBSETS else ""
        verdict = f"fires on {len(firing)}: [{shown}{more}]" if firing else "quiet"
        return f"AlarmReport(Q={self.Q}, {self.spec.describe()}, {len(self.subsets)} subsets, {verdict})"

    def _first_label(self) -> str:
        return self.labels[0] if self.labels else "a"

    def summary(self) -> str:
        """The report as plain text: the specification, every firing subset, the quiet ones with their
        ``Q_a``.
        """
        firing, quiet = self.firing(), self.quiet()
        lines = [
            f"Logical alarm on {self.Q} items (Q_a counts items of true label {self._first_label()!r})",
            f"specification: {self.spec.describe()}",
        ]
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
            lines.extend(
                f"  {', '.join(r.classifiers):<{width}}  feasible Q_a: {_set_text(r.feasible)}" for r in shown
            )
            if more:
                lines.append(f"  ... and {more} more")
        undecided = self.undecided()
        if undecided:
            lines.append(f"undecided on {len(undecided)} subsets: {UNDECIDED_TEXT}")
            shown, more = shorten(undecided)
            lines.extend(f"  {', '.join(r.classifiers)}: {r.reason}" for r in shown)
            if more:
                lines.append(f"  ... and {more} more")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        firing, quiet = self.firing(), self.quiet()
        verdict = (
            f"fires on {len(firing)} of {len(self.subsets)} subsets"
            if firing
            else f"quiet on all {len(self.subsets)} subsets"
        )
        facts = (
            f"<p>Specification: {escape(self.spec.describe())}. {self.Q} items; Q_a counts items of "
            f"true label {escape(repr(self._first_label()))}.</p>"
        )
        parts = [facts]
        if firing:
            shown, more = shorten(firing)
            parts.append(
                html_table(
                    ["firing subset", "verdict"],
                    [
                        [", ".join(r.classifiers), "at least one member fails the specification"]
                        for r in shown
                    ],
                    caption="Fires: " + FIRES_TEXT,
                    more=more,
                )
            )
        if quiet:
            sizes: dict[int, int] = {}
            for r in quiet:
                sizes[len(r.classifiers)] = sizes.get(len(r.classifiers), 0) + 1
            counted = ", ".join(f"{count} of size {size}" for size, count in sorted(sizes.items()))
            parts.append(f"<p>Quiet on {len(quiet)} subsets ({escape(counted)}): {escape(QUIET_TEXT)}.</p>")
        return html_block(f"Logical alarm: {verdict}", *parts)


def _set_text(feasible: FeasibleSet | None) -> str:
    """``1..9, 12..20 step 2``; a single point prints once; ``not computed`` for None."""
    return "not computed" if feasible is None else feasible.text(8)
