r"""The logical alarm: can every member of an ensemble meet a safety specification?

From an unlabelled sketch of ``N`` binary classifiers alone, the alarm asks, for every
subset of the ensemble, whether *some* number ``Q_a`` of true-``a`` items in ``0..Q``
admits an evaluation, consistent with the observed counts, in which every member of the
subset meets a :class:`SafetySpec` (every classifier better than 1/2 on each label, say,
or total accuracy above a threshold). When none does, the alarm **fires**: at least one
member of the subset provably fails the specification, whatever the answer key. The
alarm is sound (it never fires when every member meets the specification) but not
complete: members that fail in the same way do not trigger it (the logical-alarm paper [1]_, section 3.2).

For each subset the report gives the values of ``Q_a`` at which the specification can
still be met, as closed integer intervals ``((lo, hi), ...)``. The first label of the
sketch plays the paper's label ``a``: ``Q_a`` counts items whose true label is
``sketch.labels[0]``. Sketches with several populations are pooled, and a labelled
sketch is used as if unlabelled (its answer key is ignored).

Examples
--------
The paper's Table 2: three LLMs grading PaLM2 (``a`` = "incorrect", ``b`` = "correct"):

>>> from evalgebra import datasets
>>> report = logical_alarm(datasets.load("bigbench_mistake"))
>>> [r.classifiers for r in report.subsets if r.fires]
[('mistral_large', 'gpt4_turbo'), ('claude_haiku', 'mistral_large', 'gpt4_turbo')]
>>> report.result("claude_haiku").feasible_Qa, report.result("gpt4_turbo").feasible_Qa
(((12, 280),), ((188, 280),))
>>> report.result("claude_haiku", "gpt4_turbo").feasible_Qa
((188, 280),)
>>> [a.classifiers for a in alarm_as_alarms(report)]
[('mistral_large', 'gpt4_turbo')]

Judges may abstain (a sketch with ``abstain=[...]``): an abstention is not a correct answer, so
a judge that abstains on too many items fires alone; ``SafetySpec(answered_only=True)`` asks about
the accuracy among answered items instead (:mod:`evalgebra.alarm.program`):

>>> from evalgebra.data.sketch import Sketch
>>> rows = [["a", "?"], ["b", "?"], ["a", "a"], ["b", "?"]]
>>> panel = Sketch.from_decisions(rows, labels=["a", "b"], abstain=["?"])
>>> [r.classifiers for r in logical_alarm(panel).minimal_firing()]
[('c1',)]
>>> logical_alarm(panel, SafetySpec(answered_only=True)).result("c1").verdict  # it never answers b
'fires'

The counts of the paper's Figure 2 (``c0`` answered ``a`` on 60 of 100 items, ``c1`` on 20,
both on 20; the figure shows ``Q_a = 60``, where no evaluation meets the specification):

>>> from evalgebra.data.sketch import Sketch
>>> toy = Sketch.from_counts({"aa": 20, "ab": 40, "bb": 40}, labels=["a", "b"])
>>> report = logical_alarm(toy, SafetySpec("1/2"), subsets=[["c0", "c1"]])
>>> report.fires, report.subsets[0].feasible_Qa
(False, ((21, 39),))

Notes
-----
Names used below and in the code of :mod:`evalgebra.alarm.intervals`, and the
math (the paper writes R-space with these symbols; ``docs/theory.md``, "The logical alarm"):

==================  =====================================================================
code                math
==================  =====================================================================
``q_a``, ``q_b``    ``Q_a`` (assumed), ``Q_b = Q - Q_a``
``r_a[i]``          ``R_{a_i}``: items classifier ``i`` answered ``a`` (observed)
``x_i``             ``R_{a_i,a}``: true-``a`` items ``i`` answered ``a`` (unknown)
``y_i``             ``R_{b_i,b} = Q_b - R_{a_i} + x_i`` (the axiom, seed eq. 7)
``n_aa`` ...        ``R_{a_i a_j}``, ``R_{a_i b_j}``, ``R_{b_i a_j}``, ``R_{b_i b_j}``:
                    the pair's observed 2 x 2 table
``z``               ``R_{a_i a_j, a}``: true-``a`` items both answered ``a`` (unknown)
``lo``, ``hi``      the segment of ``x_i`` left at ``q_a`` (``lo > hi``: empty)
==================  =====================================================================

*Single classifier* (the paper's eqs. 3-4 and 7-9; the ``N = 1`` axiom of ``docs/theory.md``).
At an assumed ``Q_a`` the axiom fixes ``y_i = Q_b - R_{a_i} + x_i``, so the evaluations
of classifier ``i`` form the lattice segment ``max(0, Q_a - R_{b_i}) <= x_i <=
min(Q_a, R_{a_i})`` (``0 <= y_i <= Q_b`` and ``0 <= x_i <= Q_a``). It is never empty.

*Specification* (the paper's eqs. 1-2), with denominators cleared so that it stays integer:
with ``strict=True`` (the paper's "> 50%")

* ``x_i > theta Q_a``, i.e. ``x_i >= floor(theta Q_a) + 1``;
* ``y_i > theta Q_b``, i.e. ``x_i >= floor(theta Q_b) + 1 - Q_b + R_{a_i}``;
* ``x_i + y_i > tau Q`` (``P_a P_{a_i,a} + P_b P_{b_i,b} = (x_i + y_i)/Q``), i.e.
  ``x_i >= ceil((floor(tau Q) + 1 - Q_b + R_{a_i}) / 2)``;

with ``strict=False`` ``ceil(.)`` replaces ``floor(.) + 1``. The specification only raises
the lower end of the segment: ``lo_i = max(axiom, spec bounds)``, ``hi_i = min(Q_a,
R_{a_i})``. In this form a strict per-label threshold cannot be met on a label that no
item has (``0 > 0`` is false), so ``Q_a = 0`` and ``Q_a = Q`` are never feasible with a
strict ``min_accuracy``; a non-strict one is met there vacuously. Every condition
``lo_i <= hi_i`` is monotone in ``Q_a``, so a single classifier's feasible set is one
interval.

*Pair* (the paper's appendix A.2.2-A.2.3, eqs. 25-33). Eqs. 25-28 split each cell of the pair's
observed table into its true-``a`` and true-``b`` parts (eq. 28 corrected: it prints the
product ``R_{a_i,a} R_{a_j,a}`` where ``- R_{a_i,a} - R_{a_j,a}`` belongs); the pair
relation (eqs. 31-33) fixes ``z + R_{b_i b_j,b} = Q_b - (R_{a_i} + R_{a_j}) + R_{a_i a_j}
+ x_i + x_j``. Each part counts items, so it lies between 0 and its cell::

    0 <= z <= n_aa,   0 <= x_i - z <= n_ab,   0 <= x_j - z <= n_ba,
    0 <= Q_a - x_i - x_j + z <= n_bb.

Eliminating ``z`` (Fourier-Motzkin; every coefficient of ``z`` is +-1, so the
elimination is exact over the integers) leaves the two segments and four cuts, one per
corner of the pair's rectangle::

    (C1)  x_i + x_j >= Q_a - n_bb      (the paper's cut: R_{a_i a_j,a} + R_{b_i b_j,b} >= 0)
    (C2)  x_i + x_j <= Q_a + n_aa      (R_{a_i a_j,a} <= R_{a_i a_j})
    (C3)  x_i - x_j <= n_ab            (i right and j wrong on a-items <= R_{a_i b_j})
    (C4)  x_j - x_i <= n_ba

In label-``b`` coordinates the same cuts read ``Q_b - n_aa <= y_i + y_j <= Q_b + n_bb``,
``y_i - y_j <= n_ba``, ``y_j - y_i <= n_ab``. Every integer point of this octagon extends
to an integer ``z``, hence to a labelled test with the pair's observed counts: for one
pair the constraints are *exact*, not merely necessary.

*Pair with specification.* The box ``[lo_i, hi_i] x [lo_j, hi_j]`` (segments tightened by
the specification) holds an integer point of the octagon iff::

    lo_i <= hi_i,  lo_j <= hi_j,  lo_i + lo_j <= Q_a + n_aa,  hi_i + hi_j >= Q_a - n_bb,
    lo_i - hi_j <= n_ab,  lo_j - hi_i <= n_ba,

i.e. iff each corner of the box lies on the inner side of the cut facing it. (Eliminate
``x_j``, then ``x_i``. The only non-unit conditions met on the way, ``2 x_i <= Q_a +
R_{a_i}`` and ``2 x_i >= Q_a - R_{b_i}``, follow from the single segment, so every bound
stays integral and the elimination stays exact.)

*Rounding.* A pair's feasible set need not be one interval: rounding couples to the parity
of ``Q_a``. With ``theta = 1/2``, both members need ``x >= floor(Q_a/2) + 1``, and C2 then
asks ``2 floor(Q_a/2) + 2 <= Q_a + n_aa``, which for ``n_aa = 1`` holds at odd ``Q_a`` only.

*Subsets* (issue 12). These conditions are exact for one classifier and for a pair (given
the pair's own counts) and only necessary for three or more members. :func:`logical_alarm`
therefore decides every subset with the integer program of :mod:`evalgebra.alarm.program`
(any number of labels and thresholds), each verdict carrying exact evidence
(:mod:`evalgebra.alarm.certificates`); the interval method below stays the fast path for the
feasible ``Q_a`` of singles and pairs, their cross-check, and the candidate superset from which
:func:`~evalgebra.alarm.ranges.exact_qa_set` removes the holes of larger subsets.

*Solving for every* ``Q_a``. :mod:`evalgebra.alarm.intervals` solves these
conditions for all ``Q_a`` in ``0..Q`` at once. Along a residue class ``Q_a = L k + s``
(``L`` the denominator of ``theta``, or 1, made even by a total threshold) every bound above is
linear in ``k``, so each subset passes on one interval of ``k`` per class, found by integer
division in work independent of ``Q``; when ``L`` is large against ``Q`` the conditions are
evaluated at every ``Q_a`` instead (the scan, also the tests' reference). Either way the
report's intervals are the maximal runs of passing ``Q_a``, isolated points included, and
no ``x`` is enumerated.

The paper names only cut C1; C2-C4 follow from the same eqs. 25-28. Its appendix promises
an example of the corner cut for Table 2 but gives none, and its Figure 4 traces use the
single-classifier axiom alone. On Table 2 the cuts change nothing: only the pair
(Mistral Large, GPT4-Turbo) fires, as the paper states, and the other pairs' feasible sets
are the intersections of their members' ones. Its main-text pair axiom (eq. 6)
prints ``- Q_a`` where eq. 32 has ``- Q_b``; this module follows eq. 32.

References
----------
.. [1] A. Corrada-Emmanuel and I. Parker, "A logical alarm for misaligned binary
   classifiers": section 3 (the
   alarm), eqs. 1-2 (specifications), 7-9 (segments), appendix A.2 (eqs. 25-33, the
   pair relation and its corner cut), A.3 (Table 2, BIG-Bench-Mistake).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from evalgebra.alarm.certificates import Certificate, Witness
from evalgebra.alarm.intervals import (
    Interval,
    Observed,
    residue_period,
    scan,
    segments,
    solve_residues,
    subset_masks,
)
from evalgebra.alarm.program import Program, build_program
from evalgebra.alarm.ranges import (
    BUDGET,
    FLOAT_EXACT,
    FeasibleSet,
    accuracy_ranges,
    exact_qa_set,
    label_ranges,
    pairwise_sets,
)
from evalgebra.alarm.report import AlarmReport, SubsetResult
from evalgebra.alarm.safety import SafetySpec
from evalgebra.alarm.shared import SharedRanges
from evalgebra.alarm.solve import Optimum, Verdict, decide
from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.results import Alarm

__all__ = [
    "logical_alarm",
    "feasible_qa",
    "axiom_segments",
    "alarm_as_alarms",
    "minimal_firing",
]

#: Most feasible ``Q_a`` values of one subset kept to serve its subsets.
_MAX_KNOWN = 10_000
#: Largest ensemble for which ``subsets=None`` lists every subset.
_MAX_ALL_SUBSETS = 12

# The solvers' names from before they moved to alarm_intervals, still used by
# tests/alarm/test_logical.py and benchmarks/bench_alarm.py. (Their tuning constants,
# _BLOCK, _RESIDUES and _INT64_SAFE, are read there: patch them in alarm_intervals.)
_masks = subset_masks
_period = residue_period
_scan = scan
_solve_residues = solve_residues


# -- observed counts --------------------------------------------------------------------
def _check_sketch(sketch: Sketch) -> None:
    if not isinstance(sketch, Sketch):
        raise SketchError(f"the logical alarm needs a Sketch, got {type(sketch).__name__}")


def _observe(sketch: Sketch) -> Observed:
    _check_sketch(sketch)
    if sketch.abstain:
        raise SketchError(
            f"the interval method is for classifiers that always answer a label; this sketch has "
            f"abstentions {list(sketch.abstain)} (logical_alarm takes them: an abstention is not a "
            "correct answer)"
        )
    if sketch.n_labels != 2:
        raise SketchError(
            f"the interval method is for binary classifiers (R = 2); this sketch has "
            f"{sketch.n_labels} labels {list(sketch.labels)} (logical_alarm takes any number)"
        )
    _, _, code, count = sketch.table()  # populations pooled, answer key ignored
    n = sketch.n_classifiers
    said_a = decode(code, n, 2) == 0
    r_a = tuple(int(count[said_a[:, i]].sum()) for i in range(n))
    both_a = {
        (i, j): int(count[said_a[:, i] & said_a[:, j]].sum()) for i, j in itertools.combinations(range(n), 2)
    }
    return Observed(tuple(sketch.classifiers), int(count.sum()), r_a, both_a)


def _patterns(sketch: Sketch) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every observed pattern (response indices: labels, then abstentions) with its count, populations
    and answer key pooled."""
    _, _, code, count = sketch.table()
    merged: dict[tuple[int, ...], int] = {}
    for row, c in zip(decode(code, sketch.n_classifiers, sketch.n_responses).tolist(), count.tolist()):
        merged[tuple(row)] = merged.get(tuple(row), 0) + int(c)
    keys = sorted(merged)
    return keys, [merged[k] for k in keys]


# -- the public functions -----------------------------------------------------------------
def _subset_indices(sketch: Sketch, subsets: Iterable[Iterable[str | int]] | None) -> list[tuple[int, ...]]:
    n = sketch.n_classifiers
    if subsets is None:
        if n > _MAX_ALL_SUBSETS:
            raise SpecError(
                f"{n} classifiers have {2**n - 1} subsets; pass subsets=[...] to choose some "
                f"(all subsets are the default up to {_MAX_ALL_SUBSETS} classifiers)"
            )
        return [c for size in range(1, n + 1) for c in itertools.combinations(range(n), size)]
    if isinstance(subsets, (str, bytes)) or not isinstance(subsets, Iterable):
        raise SpecError(f"subsets must be a list of classifier collections, got {subsets!r}")
    spec = sketch.spec()
    result = []
    for subset in subsets:
        if isinstance(subset, (str, bytes)) or not isinstance(subset, Iterable):
            raise SpecError(
                f"each subset must be a collection of classifier names or indices, got {subset!r}"
            )
        indices = [spec.classifier_index(c.item() if isinstance(c, np.generic) else c) for c in subset]
        if not indices or len(set(indices)) != len(indices):
            raise SpecError(f"each subset needs one or more distinct classifiers, got {list(subset)!r}")
        result.append(tuple(sorted(indices)))
    if not result:
        raise SpecError("subsets is empty; give one or more collections of classifiers, or None for all")
    return result


def _check_spec(spec: Any, sketch: Sketch | None = None) -> SafetySpec:
    if not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    if sketch is not None:
        labels, classifiers = spec.names()
        unknown = sorted(labels - set(sketch.labels)) + sorted(classifiers - set(sketch.classifiers))
        if unknown:
            raise SpecError(
                f"spec names {unknown}, not labels {list(sketch.labels)} or classifiers "
                f"{list(sketch.classifiers)} of this sketch"
            )
    return spec


class _Verdicts:
    """Verdicts of subsets, reusing evidence: a witness covers every subset of its members, a
    certificate every superset of its members (feasibility is monotone)."""

    def __init__(self, sketch: Sketch, spec: SafetySpec) -> None:
        self.patterns, self.counts = _patterns(sketch)
        self.sketch, self.spec = sketch, spec
        self.quiet: list[Witness] = []
        self.firing: list[tuple[frozenset[int], Certificate]] = []
        self.undecided: dict[tuple[int, ...], str] = {}

    def program(self, subset: tuple[int, ...]) -> Program:
        return build_program(
            self.patterns,
            self.counts,
            self.sketch.n_labels,
            subset,
            self.spec,
            self.sketch.classifiers,
            self.sketch.labels,
        )

    def known(self, subset: tuple[int, ...]) -> Verdict | None:
        members = set(subset)
        for witness in self.quiet:
            if members <= set(witness.members):  # kept whole: SubsetResult.to_dict restricts it
                return Verdict("quiet", witness=witness)
        for owners, proof in self.firing:
            if owners <= members:
                return Verdict("fires", certificate=proof)
        return None

    def __call__(self, subset: tuple[int, ...]) -> Verdict:
        found = self.known(subset)
        if found is not None:
            return found
        if subset in self.undecided:
            return Verdict("undecided", reason=self.undecided[subset])
        verdict = self._solve(subset)
        if verdict.kind == "quiet":  # grow the witness: one labelled test then answers many subsets
            grown = subset
            for j in range(self.sketch.n_classifiers):
                bigger = tuple(sorted({*grown, j}))
                if j in grown or self.known(bigger) is not None or bigger in self.undecided:
                    continue
                if self._solve(bigger).kind == "quiet":
                    grown = bigger
        return verdict

    def _solve(self, subset: tuple[int, ...]) -> Verdict:
        if self.sketch.Q > FLOAT_EXACT:  # the solver's floating point cannot hold these counts
            self.undecided[subset] = (
                f"{self.sketch.Q} items is beyond the 2^53 the solver's floating point "
                "holds exactly; singles and pairs are decided by the exact interval method"
            )
            return Verdict("undecided", reason=self.undecided[subset])
        verdict = decide(self.program(subset))
        if verdict.kind == "quiet" and verdict.witness is not None:
            self.quiet.append(verdict.witness)
        elif verdict.kind == "fires" and verdict.certificate is not None:
            self.firing.append((frozenset(subset), verdict.certificate))
        else:
            self.undecided[subset] = verdict.reason
        return verdict


def logical_alarm(
    sketch: Sketch,
    spec: SafetySpec | None = None,
    subsets: Iterable[Iterable[str | int]] | None = None,
    *,
    prevalences: bool = True,
    accuracy: bool = False,
    budget: int = BUDGET,
) -> AlarmReport:
    r"""Run the logical alarm on every subset of an ensemble: exact verdicts with evidence.

    Parameters
    ----------
    sketch : Sketch
        Any number of labels, abstentions allowed (never a correct answer; see
        ``SafetySpec(answered_only=True)``); populations are pooled and an answer key, if any, is
        ignored.
    spec : SafetySpec, optional
        Default ``SafetySpec()``: better than 1/2 on each label, strictly.
    subsets : iterable of collections of classifier names or indices, optional
        Default: every non-empty subset, singletons first, then pairs, ... (up to 12
        classifiers; beyond, choose the subsets).
    prevalences : bool
        Also give each quiet subset its exact feasible ``Q_a`` (items of ``labels[0]``; see
        :func:`~evalgebra.alarm.ranges.exact_qa_set`) and, with three or more labels, each
        label's least and greatest count. ``False``: verdicts only (the fast path).
    accuracy : bool
        Also give each quiet subset every member's exact accuracy range on each label.
    budget : int
        Default 64. For a subset of three or more members, the candidate ``Q_a`` between the
        exact least and greatest are decided one by one when there are at most ``budget``;
        beyond, the interior is resolved by blocks with at most ``budget`` solver calls
        (:func:`~evalgebra.alarm.ranges.exact_qa_set`). Either way a set left unresolved says
        so (``feasible.exact`` False: exact ends, superset between); a larger budget costs time.

    Returns
    -------
    AlarmReport
        Per subset ``fires`` (a certificate proves that no labelled test consistent with the
        counts lets every member meet ``spec``), quiet (a witness: one that does) or
        ``undecided`` (neither could be certified; never a guess).

    Raises
    ------
    SketchError
        Not a sketch.
    SpecError
        A bad ``spec`` or ``subsets``.

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> sk = Sketch.from_counts({"aa": 5, "ab": 1, "ba": 1, "bb": 3}, labels=["a", "b"])
    >>> report = logical_alarm(sk)
    >>> report.fires, [r.feasible_Qa for r in report.subsets]
    (False, [((3, 9),), ((3, 9),), ((3, 9),)])
    >>> entry = report.to_dict()["subsets"][2]
    >>> entry["classifiers"], entry["fires"], entry["feasible_Qa"], entry["verdict"]
    (['c0', 'c1'], False, [[3, 9]], 'quiet')
    >>> report.to_dict()["spec"]
    {'min_accuracy': '1/2', 'min_total_accuracy': None, 'strict': True}

    Two classifiers that never agree cannot both be right on more than half of the
    items of a label (cut C2 with ``n_aa = 0``):

    >>> never = Sketch.from_counts({"ab": 6, "ba": 4}, labels=["a", "b"])
    >>> [(r.classifiers, r.fires) for r in logical_alarm(never).subsets]
    [(('c0',), False), (('c1',), False), (('c0', 'c1'), True)]

    A trio the pairwise conditions miss (six items, accuracy above 1/3 on each label):

    >>> trio = Sketch.from_counts({"abb": 1, "bab": 1, "bba": 1, "bbb": 3}, labels=["a", "b"])
    >>> logical_alarm(trio, SafetySpec("1/3")).result("c0", "c1", "c2").verdict
    'fires'
    """
    _check_sketch(sketch)
    spec = _check_spec(SafetySpec() if spec is None else spec, sketch)
    indices = _subset_indices(sketch, subsets)
    verdicts = _Verdicts(sketch, spec)
    union = tuple(sorted(set().union(*indices)))
    verdicts(union)  # one program often answers every subset
    order = sorted(range(len(indices)), key=lambda k: len(indices[k]))
    found: dict[int, Verdict] = {k: verdicts(indices[k]) for k in order}
    names, labels = tuple(sketch.classifiers), tuple(sketch.labels)
    interval_sets: dict[tuple[int, ...], FeasibleSet] = {}
    if (
        sketch.n_labels == 2
        and not sketch.abstain
        and spec.uniform
        and (prevalences or any(len(s) <= 2 for s in indices))
    ):
        observed = _observe(sketch)
        small = [s for s in indices if len(s) <= 2 or prevalences]
        interval_sets = dict(zip(small, pairwise_sets(observed, spec, small)))
    shared: dict[tuple[int, ...], dict[int, tuple[Optimum, Optimum]]] = {}
    if prevalences and (sketch.n_labels > 2 or not interval_sets):
        evidence = SharedRanges(verdicts.program, sketch.n_labels, verdicts.quiet)
        wanted = range(sketch.n_labels) if sketch.n_labels > 2 else (0,)
        for k in sorted(range(len(indices)), key=lambda k: -len(indices[k])):  # witnesses flow down
            if found[k].kind == "quiet" and indices[k] not in shared:
                shared[indices[k]] = evidence.label_range(indices[k], wanted)
    proved: list[tuple[set[int], set[int]]] = []  # feasible Q_a of a subset hold for its subsets
    results: dict[int, SubsetResult] = {}
    for k in sorted(range(len(indices)), key=lambda k: -len(indices[k])):
        subset = indices[k]
        verdict = found[k]
        pairwise = interval_sets.get(subset)
        reason = verdict.reason
        if pairwise is not None and len(subset) <= 2:
            if verdict.kind == "undecided":  # the pair conditions are exact (Notes): their verdict stands
                verdict = Verdict("fires" if not pairwise else "quiet")
                reason = "decided by the exact pair conditions (interval method); the solver gave no evidence"
            elif (verdict.kind == "fires") != (not pairwise):
                verdict, reason = Verdict("undecided"), "the interval method and the program disagree"
        feasible: FeasibleSet | None = None
        ranges: dict[str, tuple[int, int]] | None = None
        accuracies = None
        if verdict.kind == "fires":
            feasible = FeasibleSet()
        elif verdict.kind == "quiet" and prevalences:
            program = verdicts.program(subset)
            ends = shared.get(subset)
            if pairwise is not None and len(subset) <= 2:
                feasible = pairwise
            else:
                known = (
                    set().union(*(v for m, v in proved if set(subset) <= m)) if ends is not None else set()
                )
                if ends is not None:  # so is the Q_a of every checked witness of a superset
                    known |= {counts[0] for held, _, counts in evidence.witnesses if set(subset) <= held}
                feasible = exact_qa_set(program, pairwise, budget, None if ends is None else ends[0], known)
                if ends is not None and feasible.exact and feasible.count() <= _MAX_KNOWN:
                    proved.append((set(subset), set(feasible)))
            if sketch.n_labels > 2:
                ranges = _label_ranges(ends if ends is not None else label_ranges(program), labels)
            if accuracy:
                accuracies = _accuracies(program, names, labels)
        elif verdict.kind == "quiet" and accuracy:
            accuracies = _accuracies(verdicts.program(subset), names, labels)
        results[k] = SubsetResult(
            tuple(names[i] for i in subset),
            verdict.kind == "fires",
            feasible,
            verdict.kind,
            verdict.witness,
            verdict.certificate,
            reason,
            ranges,
            accuracies,
        )
    ordered = tuple(results[k] for k in range(len(indices)))
    return AlarmReport(sum(verdicts.counts), spec, ordered, names, labels, tuple(sketch.abstain))


def _label_ranges(
    found: dict[int, tuple[Optimum, Optimum]], labels: Sequence[str]
) -> dict[str, tuple[int, int]] | None:
    out = {}
    for ell, (low, high) in found.items():
        if low.value is None or high.value is None:
            return None
        out[labels[ell]] = (int(low.value), -int(high.value))
    return out


def _accuracies(program: Program, names: Sequence[str], labels: Sequence[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for (i, ell), (lo, hi, _) in accuracy_ranges(program).items():
        out.setdefault(names[i], {})[labels[ell]] = (lo, hi)
    return out


def minimal_firing(
    sketch: Sketch, spec: SafetySpec | None = None, max_size: int | None = None
) -> tuple[tuple[str, ...], ...]:
    r"""The smallest subsets on which the alarm fires (no proper subset fires), without all ``2^N - 1``.

    When the whole ensemble can meet ``spec`` (one program, one witness) nothing fires and
    nothing else is solved. Otherwise subsets are visited by size, skipping supersets of a
    firing subset (they fire too) and subsets of a witnessed quiet one. Subsets left
    undecided are not reported.

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> sk = Sketch.from_counts({"abb": 6, "baa": 4}, labels=["a", "b"])
    >>> minimal_firing(sk)
    (('c0', 'c1'), ('c0', 'c2'))
    """
    _check_sketch(sketch)
    spec = _check_spec(SafetySpec() if spec is None else spec, sketch)
    n = sketch.n_classifiers
    verdicts = _Verdicts(sketch, spec)
    if verdicts(tuple(range(n))).kind == "quiet":
        return ()
    firing: list[tuple[int, ...]] = []
    for size in range(1, (n if max_size is None else min(n, max_size)) + 1):
        for subset in itertools.combinations(range(n), size):
            if any(set(f) <= set(subset) for f in firing):
                continue
            if verdicts(subset).kind == "fires":
                firing.append(subset)
    return tuple(tuple(sketch.classifiers[i] for i in subset) for subset in firing)


def feasible_qa(
    sketch: Sketch, classifiers: Iterable[str | int], spec: SafetySpec | None = None
) -> tuple[Interval, ...]:
    r"""The ``Q_a`` values at which every member of one subset can meet ``spec``.

    The per-``Q_a`` data of the logical-alarm paper's Figure 4 traces, as intervals: for a single
    classifier, a pair or a larger subset (exact, as in :func:`logical_alarm`).

    Examples
    --------
    >>> from evalgebra import datasets
    >>> sk = datasets.load("bigbench_mistake")
    >>> feasible_qa(sk, ["mistral_large"]), feasible_qa(sk, ["claude_haiku", "mistral_large"])
    (((1, 53),), ((12, 53),))

    A pair's set can be several intervals (rounding meets the parity of ``Q_a``):

    >>> from evalgebra.data.sketch import Sketch
    >>> odd = Sketch.from_counts({"aa": 1, "ab": 2, "ba": 2, "bb": 1}, labels=["a", "b"])
    >>> feasible_qa(odd, ["c0"]), feasible_qa(odd, ["c0", "c1"])
    (((1, 5),), ((1, 1), (3, 3), (5, 5)))
    """
    _check_sketch(sketch)
    if isinstance(classifiers, (str, bytes)) or not isinstance(classifiers, Iterable):
        raise SpecError(f"classifiers must be a collection of names or indices, e.g. [{classifiers!r}]")
    found = logical_alarm(sketch, spec, [list(classifiers)]).subsets[0].feasible_Qa
    return () if found is None else found


def axiom_segments(
    sketch: Sketch, classifier: str | int, spec: SafetySpec | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""For every ``Q_a`` in ``0..Q``, the segment ``lo <= R_{a_i,a} <= hi`` left to a classifier.

    Without ``spec``: the single-classifier axiom's segment (the logical-alarm paper, eqs. 7-9); with
    it, the part of the segment where the classifier meets the specification. Entry
    ``k`` is for ``Q_a = k``; ``lo > hi`` marks an empty segment. ``R_{b_i,b} = Q - Q_a -
    R_{a_i} + R_{a_i,a}`` along it. The data of that paper's Figures 1 and 4.

    Returns
    -------
    lo, hi : numpy.ndarray
        Integer arrays of length ``Q + 1`` (``int64``, or ``object`` for huge numbers).

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> sk = Sketch.from_counts({"a": 3, "b": 1}, labels=["a", "b"])
    >>> lo, hi = axiom_segments(sk, "c0")
    >>> lo.tolist(), hi.tolist()
    ([0, 0, 1, 2, 3], [0, 1, 2, 3, 3])
    >>> lo, hi = axiom_segments(sk, "c0", SafetySpec())
    >>> (lo <= hi).tolist()
    [False, False, False, True, False]
    """
    observed = _observe(sketch)
    if spec is not None:
        spec = _check_spec(spec)
    i = sketch.spec().classifier_index(classifier)
    return segments(observed, spec, i)


def alarm_as_alarms(report: AlarmReport, minimal: bool = True) -> tuple[Alarm, ...]:
    r"""The firing subsets of a report as ``misaligned`` :class:`~evalgebra.results.alarms.Alarm` s.

    Parameters
    ----------
    report : AlarmReport
    minimal : bool
        Keep only firing subsets none of whose proper subsets in the report fires (a
        superset of a firing subset always fires too). ``False``: every firing subset.

    Examples
    --------
    >>> from evalgebra import datasets
    >>> (alarm,) = alarm_as_alarms(logical_alarm(datasets.load("bigbench_mistake")))
    >>> alarm.kind, alarm.classifiers
    ('misaligned', ('mistral_large', 'gpt4_turbo'))
    >>> print(alarm.detail)  # doctest: +NORMALIZE_WHITESPACE
    no Q_a in 0..281 lets every member meet the specification (accuracy > 1/2 on each label):
    at least one of mistral_large, gpt4_turbo fails it
    """
    firing = [r for r in report.subsets if r.fires]
    if minimal:
        firing = [r for r in firing if not any(set(o.classifiers) < set(r.classifiers) for o in firing)]
    return tuple(
        Alarm(
            kind="misaligned",
            detail=(
                f"no Q_a in 0..{report.Q} lets every member meet the specification "
                f"({report.spec.describe()}): at least one of {', '.join(r.classifiers)} fails it"
            ),
            classifiers=r.classifiers,
        )
        for r in firing
    )
