r"""Size guards and exit gates of the command line.

The size guards refuse, before any work starts, what would not end soon.

Each guard computes the size of a request from the numbers alone (no spec, generating set or
table is built first: ``--classifiers 1000000000`` would otherwise build a billion names) and
raises :class:`~evalgebra.errors.SpecError` with the limit, the size asked for and what to do
instead. ``--force`` lifts the soft limits; the hard ones are the library's own.

- ``polys``: at most :data:`POLYNOMIAL_LIMIT` polynomials ``S R^N`` and :data:`TERM_LIMIT`
  products ``S R^N R (1 + |T|)`` (expanded output: terms ``S (2R-1)^(N+1) (1 + |T|)``);
  never more than ``2^62`` answer patterns ``R^N`` or :data:`FORCED_LIMIT` products;
- ``evaluate`` (algebraic method): the trios ``C(N, 3)``, each solved at ``R`` labels (``R!``
  assignments of the hidden labels, ``R^4`` exact partition values), at most about
  :data:`SECONDS_LIMIT` seconds by :data:`TRIO_SECONDS` (two labels: :data:`TRIO_LIMIT` trios);
- ``alarm`` (the default report, with feasible ``Q_a`` sets and label ranges): at most
  :data:`ALARM_WORK_LIMIT` units of :func:`alarm_work`, ``R`` times the compact patterns of every
  subset that needs integer programs (about :data:`SECONDS_LIMIT` seconds); ``--verdicts-only`` is
  not limited;
- ``point``: at most :data:`CORRELATION_LIMIT` correlation values ``R sum_T R^|T|``.

By default every guarded command so finishes, or refuses in one line, within about
:data:`SECONDS_LIMIT` seconds on one core.

``N`` classifiers, ``R`` labels, ``S`` populations, ``T`` the correlated subsets.

The exit gates say when a finished run exits with status 1: :func:`below_spec` (the
estimate-based gate of ``evaluate --min-accuracy``) and what ``--fail-on`` accepts
(:data:`EVALUATE_FAILURES`, :data:`ALARM_FAILURES`).

Examples
--------
>>> polys_size(3, 2, 1, 4)
(8, 80, 405)
>>> check_polys(30, 5, 1, 0, expanded=False, force=False)
Traceback (most recent call last):
...
evalgebra.errors.SpecError: polys: 30 classifiers with 5 labels make 5^30 answer patterns, more than 2^62
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb, factorial
from typing import Any

from evalgebra.errors import SpecError
from evalgebra.results import ALARM_KINDS, Evaluation

__all__ = [
    "POLYNOMIAL_LIMIT",
    "TERM_LIMIT",
    "TRIO_LIMIT",
    "TRIO_SECONDS",
    "TRIO_GROWTH",
    "SECONDS_LIMIT",
    "ALARM_WORK_LIMIT",
    "CORRELATION_LIMIT",
    "PATTERN_LIMIT",
    "FORCED_LIMIT",
    "structure_size",
    "polys_size",
    "check_polys",
    "check_trios",
    "trio_seconds",
    "alarm_work",
    "check_alarm",
    "check_correlations",
    "EVALUATE_FAILURES",
    "ALARM_FAILURES",
    "below_spec",
]

#: Polynomials ``polys`` builds without ``--force``.
POLYNOMIAL_LIMIT = 10**5
#: Products (or, expanded, terms) ``polys`` prints without ``--force`` (about five seconds).
TERM_LIMIT = 5 * 10**3
#: Seconds a guarded command may take without ``--force`` (its estimate from the sizes alone).
SECONDS_LIMIT = 20
#: Trios of two-label classifiers the algebraic evaluator solves without ``--force`` (20 classifiers).
TRIO_LIMIT = comb(20, 3)
#: Seconds of one trio's exact evaluation at ``R`` labels, measured on one core (2026-12, a trio of
#: 600 items, irrational points: the ``R^4`` partition values in number fields dominate from 6 labels);
#: beyond the table each label multiplies the time by :data:`TRIO_GROWTH`.
TRIO_SECONDS = {2: SECONDS_LIMIT / TRIO_LIMIT, 3: 0.3, 4: 0.5, 5: 1.6, 6: 2.5, 7: 9.0, 8: 30.0}
#: How many times longer one trio takes for each label beyond the largest in :data:`TRIO_SECONDS`.
TRIO_GROWTH = 4
#: Units of :func:`alarm_work` the default ``alarm`` report takes on without ``--force`` (0.005 to
#: 0.008 s a unit on one core at two labels; at more, 0.001 to 0.008 s a unit from 1,000 units up,
#: measured 2026-12 by ``benchmarks/bench_alarm.py --panels``: 4 x 4 x 300, 1,020 units, 1.0 s;
#: 4 x 6 x 400, 1,530 units, 1.5 s; 5 x 8 x 400, 8,184 units, 66 s; 6 x 8 x 600, 31,008 units,
#: 179 s; small panels cost more a unit, 3 x 4 x 300 252 units in 3.9 s).
ALARM_WORK_LIMIT = 2000
#: Correlation values ``point`` computes without ``--force`` (the complete structure on 8
#: binary classifiers; about a second).
CORRELATION_LIMIT = 2 * 10**4
#: Answer patterns that can be indexed at all (``R^N``).
PATTERN_LIMIT = 2**62
#: What ``--force`` still refuses (products, terms or values): beyond it no run ends.
FORCED_LIMIT = 10**9


def _patterns(n_classifiers: int, n_labels: int) -> int | None:
    """``R^N``, or None when it exceeds :data:`PATTERN_LIMIT` (computed without a huge power)."""
    if n_classifiers > PATTERN_LIMIT.bit_length():
        return None
    patterns = n_labels**n_classifiers
    return patterns if patterns <= PATTERN_LIMIT else None


def structure_size(structure: object, n_classifiers: int) -> int:
    """Number of correlated subsets: 0, ``2^N - N - 1`` (complete) or the subsets listed."""
    if structure == "independent":
        return 0
    if structure == "complete":
        return 2**n_classifiers - n_classifiers - 1
    return len(structure) if isinstance(structure, list) else 0


def polys_size(n_classifiers: int, n_labels: int, n_populations: int, n_subsets: int) -> tuple[int, int, int]:
    """``(polynomials, products, expanded terms)`` of a generating set (module table)."""
    polynomials = n_populations * n_labels**n_classifiers
    products = polynomials * n_labels * (1 + n_subsets)
    expanded = n_populations * (2 * n_labels - 1) ** (n_classifiers + 1) * (1 + n_subsets)
    return polynomials, products, expanded


def check_polys(
    n_classifiers: int, n_labels: int, n_populations: int, structure: object, expanded: bool, force: bool
) -> None:
    """Refuse a generating set beyond the limits of the module table (``--force`` lifts the soft ones)."""
    head = f"polys: {n_classifiers} classifiers with {n_labels} labels"
    if _patterns(n_classifiers, n_labels) is None:
        raise SpecError(f"{head} make {n_labels}^{n_classifiers} answer patterns, more than 2^62")
    if n_populations > FORCED_LIMIT:
        raise SpecError(f"polys: {n_populations} populations, more than {FORCED_LIMIT}")
    n_subsets = structure if isinstance(structure, int) else structure_size(structure, n_classifiers)
    polynomials, products, terms = polys_size(n_classifiers, n_labels, n_populations, n_subsets)
    size, noun = (terms, "terms once expanded") if expanded else (products, "products")
    if size > FORCED_LIMIT or polynomials > FORCED_LIMIT:
        raise SpecError(
            f"{head} and {n_subsets} correlated subsets make about {size:.3g} {noun}, "
            f"beyond what any run finishes ({FORCED_LIMIT:.0e}, even with --force)"
        )
    if force:
        return
    if polynomials > POLYNOMIAL_LIMIT:
        raise SpecError(
            f"{head} and {n_populations} population(s) make {polynomials} polynomials, more than "
            f"{POLYNOMIAL_LIMIT}; pass --force to build them anyway (time and memory grow with the count)"
        )
    if size > TERM_LIMIT:
        hint = "; print them unexpanded (--format text without --expand)" if expanded else ""
        raise SpecError(
            f"{head} and {n_subsets} correlated subsets make about {size} {noun}, more than "
            f"{TERM_LIMIT} (a few seconds){hint}; pass --force to print them anyway"
        )


def trio_seconds(n_labels: int) -> float:
    """Estimated seconds of one trio at ``n_labels`` labels (:data:`TRIO_SECONDS`, then x
    :data:`TRIO_GROWTH`).

    >>> trio_seconds(4), trio_seconds(9) == 30.0 * TRIO_GROWTH
    (0.5, True)
    """
    top = max(TRIO_SECONDS)
    if n_labels <= top:
        return TRIO_SECONDS[max(n_labels, 2)]
    return TRIO_SECONDS[top] * float(TRIO_GROWTH) ** min(n_labels - top, 64)


def check_trios(n_classifiers: int, force: bool, n_labels: int = 2) -> None:
    """Refuse an algebraic evaluation estimated past :data:`SECONDS_LIMIT` seconds unless forced.

    >>> check_trios(3, False, 7)
    >>> check_trios(14, False, 4)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: evaluate: 14 classifiers make 364 trios, each solved at 4 labels
    (4! = 24 assignments of the hidden labels): about 182 s, more than 20 s; choose some with
    --classifiers c1,c2,..., use --method majority, or pass --force
    """
    trios = comb(n_classifiers, 3) if n_classifiers >= 3 else 1
    seconds = trios * trio_seconds(n_labels)
    if seconds <= SECONDS_LIMIT * (1 + 1e-9) or force:
        return
    if n_labels == 2:
        head = f"{n_classifiers} classifiers make {trios} trios, more than {TRIO_LIMIT} (20 classifiers)"
    else:
        each = (
            f"{n_labels}! = {factorial(n_labels)} assignments"
            if n_labels <= 12
            else f"{n_labels}! assignments"
        )
        head = (
            f"{n_classifiers} classifiers make {trios} trio{'s' * (trios != 1)}, "
            f"each solved at {n_labels} labels "
            f"({each} of the hidden labels): about {seconds:.3g} s, more than {SECONDS_LIMIT} s"
        )
    raise SpecError(
        f"evaluate: {head}; choose some with --classifiers c1,c2,..., use --method majority, or pass --force"
    )


def alarm_work(
    n_classifiers: int, n_labels: int, n_cells: int, subsets: Sequence[Sequence[Any]] | None = None
) -> int:
    """Units of work of the default ``alarm`` report: ``R min(B^|S|, cells)`` over the subsets ``S``
    that need integer programs (all of them at three or more labels; at two labels those of three or
    more members: pairs have exact interval conditions). ``n_cells``: the sketch's non-empty cells.

    ``B`` is 2 at two labels and 3 beyond: each label's range ends come from its compact program
    (:mod:`evalgebra.alarm.perlabel`), whose patterns only say, member by member, whether the label,
    another one or an abstention was answered.

    >>> alarm_work(6, 2, 64), alarm_work(3, 3, 27), alarm_work(4, 4, 149)
    (1312, 189, 1020)
    """
    smallest = 1 if n_labels > 2 else 3
    base = min(n_labels, 3)

    def cost(k: int) -> int:
        return n_labels * min(base ** min(k, 64), n_cells) if k >= smallest else 0

    if subsets is not None:
        return sum(cost(len(set(s))) for s in subsets)
    return sum(comb(n_classifiers, k) * cost(k) for k in range(1, n_classifiers + 1))


def check_alarm(
    n_classifiers: int, n_labels: int, n_cells: int, subsets: Sequence[Sequence[Any]] | None, force: bool
) -> None:
    """Refuse a default ``alarm`` report past :data:`ALARM_WORK_LIMIT` units of :func:`alarm_work` unless
    forced.

    >>> check_alarm(12, 8, 586, None, False)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: alarm: the full report of 12 classifiers with 8 labels (4095 subsets,
    each with its feasible Q_a set and label ranges) is about 13,679,848 units of work, more than 2,000
    (about 20 s); use --verdicts-only, choose subsets with --subsets, or pass --force
    """
    work = alarm_work(n_classifiers, n_labels, n_cells, subsets)
    if work <= ALARM_WORK_LIMIT or force:
        return
    count = len(subsets) if subsets is not None else 2**n_classifiers - 1
    what = "label ranges" if n_labels > 2 else "exact integer programs"
    raise SpecError(
        f"alarm: the full report of {n_classifiers} classifiers with {n_labels} labels ({count} "
        f"subsets, each with its feasible Q_a set and {what}) is about {work:,} units of work, "
        f"more than {ALARM_WORK_LIMIT:,} (about {SECONDS_LIMIT} s); use --verdicts-only, choose subsets "
        "with --subsets, or pass --force"
    )


def check_correlations(n_classifiers: int, n_labels: int, structure: object, force: bool) -> None:
    """Refuse an evaluation point with more than :data:`CORRELATION_LIMIT` correlation values unless
    forced.
    """
    if structure == "complete":
        if n_classifiers > 40:
            values = FORCED_LIMIT + 1
        else:
            values = n_labels * ((n_labels + 1) ** n_classifiers - 1 - n_classifiers * n_labels)
    elif isinstance(structure, list):
        values = n_labels * sum(n_labels ** min(len(s), 64) for s in structure if len(s) >= 2)
    else:
        return
    if values > FORCED_LIMIT or (values > CORRELATION_LIMIT and not force):
        which = "the complete structure" if structure == "complete" else "this structure"
        raise SpecError(
            f"point: {which} on {n_classifiers} classifiers has {values} correlation values, more than "
            f"{CORRELATION_LIMIT}; use --structure independent, list the subsets (e.g. 0-1,1-2), "
            "or pass --force" + (" (too many even with --force)" if values > FORCED_LIMIT else "")
        )


#: What ``evaluate --fail-on`` accepts: a failed ``--min-accuracy`` check, or an alarm kind.
EVALUATE_FAILURES = ("below_spec", *sorted(ALARM_KINDS))
#: What ``alarm --fail-on`` accepts.
ALARM_FAILURES = ("fires", "undecided")


def below_spec(
    result: Evaluation, threshold: Fraction, strict: bool = True, show: Callable[[Any], str] = str
) -> list[str]:
    """Why the chosen point misses ``accuracy > threshold`` (``>=`` when not strict) on some label.

    One message per classifier and label below it (values written by ``show``); an undefined or
    complex accuracy, or no chosen point, cannot be checked and counts as missing it (the gate
    fails closed).

    >>> from evalgebra.evaluators.independent.closed_form import evaluate_counts
    >>> below_spec(evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]), Fraction(1, 2))
    ['c3 accuracy on b = 1/2 is not above 1/2']
    >>> below_spec(evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]), Fraction(1, 2), strict=False)
    []
    """
    point = result.point
    if point is None:
        return ["no point chosen: the accuracies cannot be checked (see the alarms)"]
    word = "above" if strict else "at least"
    found = []
    for c, row in point.accuracy.items():
        for label, value in row.items():
            try:
                met = value is not None and (value > threshold if strict else value >= threshold)
            except (TypeError, ValueError):  # a complex value has no order
                met = False
            if not met:
                found.append(f"{c} accuracy on {label} = {show(value)} is not {word} {threshold}")
    return found
