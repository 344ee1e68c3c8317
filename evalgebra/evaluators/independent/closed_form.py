r"""The exact closed form of three binary classifiers on one count vector: both evaluations, every failure
mode.

For three binary classifiers the evaluation variety of the independent model has two points,
swapped by ``P_a <-> P_b``, ``P_{i,a} <-> 1 - P_{i,b}`` (Theorem 2 of "Algebraic Evaluation
Theorems", Corrada-Emmanuel). The generated closed form
(:mod:`evalgebra.generated.three_independent`, derived from the lex Gröbner bases of
derivation d02) gives every statistic of both points as ``(num +- root sqrt(R)) / den`` with
integers computed from the pattern counts, so the points come out exactly: rational, in the
quadratic field ``Q(sqrt R)``, or complex.

Two entry points: :func:`exact_solution`, the integers alone (the fastest exact path, used by
the trio search), and :func:`evaluate_counts`, the full
:class:`~evalgebra.results.evaluation.Evaluation` with the partition of the counts.

Failure modes are alarms (:class:`~evalgebra.results.alarms.Alarm`), never exceptions:

``blind_spot``
    a factor of a denominator vanishes (``D_ij = 0``: an uncorrelated pair, which includes a
    constant classifier; ``D_012^2 + 4 D_01 D_02 D_12 = 0``: the two points coincide). The
    statistics it leaves undefined are ``None``.
``complex``
    ``R < 0``: the points are complex.
``irrational``
    ``R`` is not a square: the evaluations are irrational, which no finite labelled test on
    which the classifiers were sample-independent can give (Theorem 5 of the same paper): the
    alarm proves the classifiers were correlated on this test. Rational points prove nothing.
``outside_unit_cube``
    a prevalence or accuracy lies outside ``[0, 1]``.
``empty_variety``
    a point does not reproduce the observed pattern frequencies under the independent model
    (checked exactly with the generated model :mod:`evalgebra.generated.independent_model`).
``undecided``
    the decoding rule chooses neither point.

Examples
--------
>>> result = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])
>>> result.point.prevalence["a"], result.alarms
(Fraction(1, 4), ())

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorems 2 and 5, Table 1.
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": the failure modes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.deprecation import deprecated_alias
from evalgebra.errors import SketchError, SpecError
from evalgebra.generated import independent_model, three_independent
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.numbers.rationals import exact_rational, short_repr
from evalgebra.results import Alarm, Estimate, Evaluation

__all__ = [
    "TWO_LABEL_DECODINGS",
    "ALARM_DETAILS",
    "PAIR_MOMENT_INDEX",
    "TRIPLE_MOMENT_INDEX",
    "ExactSolution",
    "exact_solution",
    "evaluate_counts",
    "prevalence_bounds",
    "solve_counts",
]

#: Decoding rules: which of the two evaluations to report.
TWO_LABEL_DECODINGS = ("total_accuracy", "prevalence_range")

_STATS = three_independent.STATISTICS


class _Exact:
    """``(a + b sqrt(r)) / d`` with integers and no gcd per operation (fast; compare exactly)."""

    __slots__ = ("a", "b", "d", "r")

    def __init__(self, a: int, b: int, d: int, r: int) -> None:
        self.a, self.b, self.d, self.r = a, b, d, r

    def _lift(self, other: Any) -> _Exact:
        return other if isinstance(other, _Exact) else _Exact(other, 0, 1, self.r)

    def __add__(self, other: Any) -> _Exact:
        if other.__class__ is int:
            return _Exact(self.a + other * self.d, self.b, self.d, self.r)
        o = self._lift(other)
        if o.d == self.d:
            return _Exact(self.a + o.a, self.b + o.b, self.d, self.r)
        return _Exact(self.a * o.d + o.a * self.d, self.b * o.d + o.b * self.d, self.d * o.d, self.r)

    __radd__ = __add__

    def __neg__(self) -> _Exact:
        return _Exact(-self.a, -self.b, self.d, self.r)

    def __sub__(self, other: Any) -> _Exact:
        if other.__class__ is int:
            return _Exact(self.a - other * self.d, self.b, self.d, self.r)
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> _Exact:
        if other.__class__ is int:
            return _Exact(other * self.d - self.a, -self.b, self.d, self.r)
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> _Exact:
        if other.__class__ is int:
            return _Exact(self.a * other, self.b * other, self.d, self.r)
        o = self._lift(other)
        return _Exact(self.a * o.a + self.b * o.b * self.r, self.a * o.b + self.b * o.a, self.d * o.d, self.r)

    __rmul__ = __mul__

    def equals(self, num: int, den: int) -> bool:
        """Exactly equal to the rational ``num / den``."""
        return self.b == 0 and self.a * den == num * self.d

    def sign(self) -> int:
        """Exact sign of a real value (``r >= 0``)."""
        return _sign(self.a, self.b, self.r) * ((self.d > 0) - (self.d < 0))


def _sign(a: int, b: int, r: int) -> int:
    """Exact sign of ``a + b sqrt(r)`` for integers, ``r >= 0``."""
    sa, sb = (a > 0) - (a < 0), (b > 0) - (b < 0)
    if sb == 0 or sa == 0 or sa == sb:
        return sa or sb
    diff = a * a - b * b * r
    return sa * ((diff > 0) - (diff < 0))


class ExactSolution:
    r"""Both evaluations of a three-classifier sketch as integers, with every check done exactly.

    Statistic ``k`` of point ``j`` is ``(num[k] + SIGNS[j] * root[k] * sqrt(radicand)) / den[k]``.
    :meth:`value` turns one into a :class:`~fractions.Fraction` or
    :class:`~evalgebra.numbers.quadratic.QuadraticNumber` on demand.

    Attributes
    ----------
    counts : tuple of int
    radicand : int
    square : int or None
        ``sqrt(radicand)`` when it is an integer (rational points).
    num, root, den : tuple of int
        Per statistic, in ``STATISTICS`` order (prevalence of the first label, then each
        classifier's accuracy on the first and the second label).
    blind_spots : tuple of str
        The denominator factors that vanish.
    kinds : frozenset of str
        The alarm kinds raised (``complex``, ``irrational``, ``outside_unit_cube``,
        ``empty_variety``, ``blind_spot``).
    chosen : int or None
        The point with the larger mean total accuracy (within ``prevalence_range`` if given).
    """

    __slots__ = (
        "counts",
        "radicand",
        "square",
        "num",
        "root",
        "den",
        "blind_spots",
        "kinds",
        "chosen",
        "fast",
    )

    counts: tuple[int, ...]
    radicand: int
    square: int | None
    num: tuple[int, ...]
    root: tuple[int, ...]
    den: tuple[int, ...]
    blind_spots: tuple[str, ...]
    kinds: frozenset[str]
    chosen: int | None
    fast: list[list[Any] | None]

    STATISTICS = three_independent.STATISTICS

    def value(self, point: int, k: int) -> Any:
        """Statistic ``k`` of point ``point`` exactly (``None`` when its denominator vanishes)."""
        num, root, den = self.num[k], self.root[k], self.den[k]
        if den == 0:
            return None
        sign = three_independent.SIGNS[point]
        if root == 0 or self.square is not None:
            return Fraction(num + sign * root * (self.square or 0), den)
        s, r = _square_free_part(self.radicand)
        return QuadraticNumber(Fraction(num, den), Fraction(sign * root * s, den), r)

    def values(self, point: int) -> list[Any]:
        return [self.value(point, k) for k in range(len(self.num))]


def _exact(solution: ExactSolution, point: int) -> list[_Exact | None]:
    sign = three_independent.SIGNS[point]
    out: list[_Exact | None] = []
    for num, root, den in zip(solution.num, solution.root, solution.den):
        if den == 0:
            out.append(None)
        elif solution.square is not None:
            out.append(_Exact(num + sign * root * solution.square, 0, den, 0))
        else:
            out.append(_Exact(num, sign * root, den, solution.radicand))
    return out


_MOMENT_INDEX = [
    three_independent.MOMENTS.index(
        name.replace("m_", "B_").replace("_b", "") if name.startswith("m_") else name.replace("D_", "E_")
    )
    for name in independent_model.MOMENTS_3
]
_MOMENT_POWER = [1 if name.startswith("m_") else name.count("_") for name in independent_model.MOMENTS_3]


def exact_solution(
    counts: Sequence[int], prevalence_range: tuple[Fraction, Fraction] | None = None
) -> ExactSolution:
    r"""The exact solution of the three-classifier closed form, in integers (the fast exact path).

    Parameters
    ----------
    counts : sequence of 8 int
        Pattern counts ``aaa .. bbb`` (already validated).
    prevalence_range : (Fraction, Fraction), optional
        Decode to the point whose first-label prevalence lies in this range.

    Returns
    -------
    ExactSolution

    Examples
    --------
    >>> sol = exact_solution([84, 36, 51, 39, 68, 52, 77, 73])
    >>> sol.radicand, sol.square, sorted(sol.kinds), sol.chosen
    (1327104000000, 1152000, [], 0)
    >>> sol.value(0, 0), sol.value(1, 0)
    (Fraction(1, 4), Fraction(3, 4))
    """
    ints = tuple(counts)
    if len(ints) != 8 or any(c < 0 for c in ints):
        raise SketchError(f"need 8 non-negative integer pattern counts, got {list(ints)!r}")
    out = three_independent.solve(*ints)
    n_out, n_factors = 1 + 3 * len(_STATS), len(three_independent.BLIND_SPOTS)
    sol = ExactSolution()
    sol.counts = ints
    radicand = sol.radicand = out[0]
    sol.num, sol.root, sol.den = out[1:n_out:3], out[2:n_out:3], out[3:n_out:3]
    sol.blind_spots = tuple(
        f for f, v in zip(three_independent.BLIND_SPOTS, out[n_out : n_out + n_factors]) if v == 0
    )
    observed = out[n_out + n_factors :]
    square = math.isqrt(radicand) if radicand >= 0 else None
    sol.square = square if square is not None and square * square == radicand else None
    kinds = set()
    if _empty(observed, radicand):
        sol.num = sol.root = (0,) * len(_STATS)
        sol.den = (0,) * len(_STATS)  # no point: every statistic undefined
        sol.kinds, sol.chosen, sol.fast = frozenset({"empty_variety"}), None, [None, None]
        return sol
    if sol.blind_spots:
        kinds.add("blind_spot")
    if radicand < 0:
        kinds.add("complex")
    elif sol.square is None:
        kinds.add("irrational")
    q = sum(ints)
    first = _fast_point(sol, 0)
    # residuals in moment coordinates (a bijection on the simplex). One point suffices: the
    # second is the first with the true labels swapped (P_a <-> P_b, P_{i,a} <-> 1 - P_{i,b}),
    # under which the model's pattern probabilities are unchanged (and for irrational points it
    # is also the Galois conjugate of the first)
    defined = None not in first
    if defined:
        model = independent_model.moments_3(*first)
        if sol.square is not None:  # rational: python-flint fmpq, compared by cross-multiplying
            powers = (1, q, q * q, q * q * q)
            same = all(
                m.p * powers[power] == observed[i - 1] * m.q
                for m, i, power in zip(model, _MOMENT_INDEX, _MOMENT_POWER)
            )
        else:
            same = all(
                m.equals(observed[i - 1], q**power)
                for m, i, power in zip(model, _MOMENT_INDEX, _MOMENT_POWER)
            )
        if not same:
            kinds.add("empty_variety")
    chosen: int | None = None
    second: list[Any] | None = None
    if radicand >= 0:
        # The points are swapped by P_a <-> 1 - P_a, P_{i,a} <-> 1 - P_{i,b}, so the unit cube
        # holds both or neither, and both are defined or neither: one point is checked (the
        # tests check both exactly)
        if sol.square is not None:  # numerators against denominators, in integers
            root = three_independent.SIGNS[0] * sol.square  # point 0
            inside = all(
                d == 0 or (0 <= n + r * root <= d if d > 0 else d <= n + r * root <= 0)
                for n, r, d in zip(sol.num, sol.root, sol.den)
            )
        else:
            inside = all(v is None or _in_unit_interval(v) for v in first)
        if not inside:
            kinds.add("outside_unit_cube")
        if defined and prevalence_range is not None:
            second = _fast_point(sol, 1)
            lo, hi = (
                flint.fmpq(prevalence_range[0].numerator, prevalence_range[0].denominator),
                flint.fmpq(prevalence_range[1].numerator, prevalence_range[1].denominator),
            )
            usable = [
                j
                for j, point in enumerate((first, second))
                if _sign_of(point[0] - lo) >= 0 and _sign_of(hi - point[0]) >= 0
            ]
            if len(usable) == 1:
                chosen = usable[0]
        if defined and chosen is None and (prevalence_range is None or len(usable) == 2):
            # the label swap maps the summed total accuracy t to 3 - t: point 0 wins when 2 t > 3
            difference = _sign_of(2 * _total(first) - 3)
            chosen = None if difference == 0 else (0 if difference > 0 else 1)
        if defined and chosen is None:
            kinds.add("undecided")
    sol.kinds = frozenset(kinds)
    sol.chosen = chosen
    sol.fast = [first, second]  # fmpq (rational) or _Exact values; the second made on demand
    return sol


#: Positions of the pair moments ``E_0_1, E_0_2, E_1_2`` among the closed form's observed moments.
PAIR_MOMENT_INDEX = tuple(three_independent.MOMENTS.index(name) - 1 for name in ("E_0_1", "E_0_2", "E_1_2"))
#: Position of the triple moment ``E_0_1_2`` among the observed moments.
TRIPLE_MOMENT_INDEX = three_independent.MOMENTS.index("E_0_1_2") - 1


def _empty(observed: Sequence[int], radicand: int) -> bool:
    r"""True when no independent evaluation, real or complex, explains the moments.

    The generated model moments factor as ``D_ij = P_a P_b J_i J_j`` and
    ``D_012 = P_a P_b (P_a - P_b) J_0 J_1 J_2`` (``J_i = P_{i,a} + P_{i,b} - 1``), so
    ``R = Q^6 (P_a P_b J_0 J_1 J_2)^2``. Hence: one vanishing pair moment forces a second
    one (a vanishing ``J_i`` or ``P_a P_b`` kills two at least); two or three vanishing pair
    moments force ``D_012 = 0``; and ``R = 0`` forces a vanishing pair moment. Any other
    pattern of zeros has an empty variety (the tests confirm it with Gröbner bases); the
    remaining zero patterns leave a variety of positive dimension (a blind spot).
    """
    zeros = sum(1 for k in PAIR_MOMENT_INDEX if observed[k] == 0)
    if zeros == 0:
        return radicand == 0
    return zeros == 1 or observed[TRIPLE_MOMENT_INDEX] != 0


def _fast_point(sol: ExactSolution, j: int) -> list[Any]:
    """Point ``j`` in the fast exact representation: fmpq when rational, else :class:`_Exact`."""
    known = getattr(sol, "fast", None)
    if known is not None and known[j] is not None:
        return known[j]
    if sol.square is None:
        return _exact(sol, j)
    sign, root = three_independent.SIGNS[j], sol.square
    return [
        None if d == 0 else flint.fmpq(n + sign * r * root, d) for n, r, d in zip(sol.num, sol.root, sol.den)
    ]


def _converter(sol: ExactSolution) -> Any:
    """From the fast representation to ``Fraction`` / :class:`QuadraticNumber`."""
    if sol.square is not None:
        return lambda v: Fraction(int(v.p), int(v.q))
    s, r = _square_free_part(sol.radicand)
    return lambda v: QuadraticNumber(Fraction(v.a, v.d), Fraction(v.b * s, v.d), r)


def _sign_of(value: Any) -> int:
    """Exact sign of an ``fmpq`` or an :class:`_Exact`."""
    if isinstance(value, _Exact):
        return value.sign()
    return (value > 0) - (value < 0)


def _in_unit_interval(value: Any) -> bool:
    if isinstance(value, _Exact):
        sd = (value.d > 0) - (value.d < 0)
        return (
            _sign(value.a, value.b, value.r) * sd >= 0
            and _sign(value.d - value.a, -value.b, value.r) * sd >= 0
        )
    return bool(0 <= value <= 1)


def _total(point: list[Any]) -> Any:
    """Sum over the classifiers of the total accuracy ``P_a P_{i,a} + P_b P_{i,b}``."""
    p = point[0]
    total: Any = 0
    for i in range(3):
        total = total + p * point[1 + 2 * i] + (1 - p) * point[2 + 2 * i]
    return total


_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)


def _square_free_part(radicand: int) -> tuple[int, int]:
    """``radicand = s**2 * r`` with the squares of small primes taken out (``r`` keeps the sign)."""
    s, r = 1, radicand
    if r == 0:
        return 1, 0
    for p in _SMALL_PRIMES:
        while r % (p * p) == 0:
            r //= p * p
            s *= p
    return s, r


def _blind_spot_text(factor: str, names: Sequence[str]) -> str:
    if factor.startswith("E_") and factor.count("_") == 2:
        i, j = (int(k) for k in factor[2:].split("_"))
        return (
            f"{names[i]} and {names[j]} have zero sample covariance (a constant classifier or an "
            "uncorrelated pair); the third member's accuracies are undefined"
        )
    if factor == "Q":
        return "the test is empty"
    return (
        f"the prevalence quadratic degenerates ({factor} = 0): the two evaluations coincide or are undefined"
    )


def _estimate(values: Sequence[Any], labels: Sequence[str], classifiers: Sequence[str]) -> Estimate:
    prevalence_a = values[0]
    prevalence = {labels[0]: prevalence_a, labels[1]: None if prevalence_a is None else 1 - prevalence_a}
    accuracy = {
        c: {labels[0]: values[1 + 2 * i], labels[1]: values[2 + 2 * i]} for i, c in enumerate(classifiers)
    }
    return Estimate(prevalence, accuracy)


#: The detail text of each alarm kind the closed form raises.
ALARM_DETAILS = {
    "complex": "the discriminant is negative (R = {R}): complex evaluations",
    "irrational": "R = {R} is not a square: the evaluations lie in Q(sqrt({r})), so the classifiers were not "
    "sample-independent on this test",
    "outside_unit_cube": "an evaluation has a prevalence or accuracy outside [0, 1]",
    "empty_variety": "no independent evaluation, real or complex, reproduces the observed moments (a pattern "
    "of vanishing covariances the independent model cannot produce, or a failed exact residual)",
    "undecided": "the decoding rule chooses neither evaluation (an exact tie in total accuracy, or no point "
    "in the prevalence range)",
}


def _counts(counts: Sequence[Any]) -> list[int]:
    """Validated pattern counts: 8 non-negative integers, not all zero."""
    message = (
        f"need 8 non-negative integer pattern counts (pattern order aaa .. bbb), got {short_repr(counts)}"
    )
    if isinstance(counts, (str, bytes, dict)):
        raise SketchError(message)
    try:
        values = list(itertools.islice(iter(counts), 9))  # a long iterable is never copied whole
        ints = [int(c) for c in values]
        exact = all(c == x for c, x in zip(ints, values))
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        raise SketchError(message) from None
    if len(ints) != 8 or not exact or any(c < 0 for c in ints):
        raise SketchError(message)
    if sum(ints) == 0:
        raise SketchError("empty test: the counts sum to 0")
    return ints


def _names(names: Any, size: int, what: str) -> tuple[str, ...]:
    """``size`` distinct names (strings) as a tuple; a :class:`SpecError` otherwise."""
    try:
        listed = None if isinstance(names, (str, bytes)) else tuple(itertools.islice(iter(names), size + 1))
    except TypeError:
        listed = None
    if (
        listed is None
        or len(listed) != size
        or not all(isinstance(n, str) for n in listed)
        or len(set(listed)) != size
    ):
        raise SpecError(f"need {size} distinct {what} names (strings), got {short_repr(names)}")
    return listed


def prevalence_bounds(bounds: Any) -> tuple[Fraction, Fraction]:
    r"""A prevalence range ``(low, high)`` as rationals with ``0 <= low <= high <= 1``.

    Parameters
    ----------
    bounds : pair of Fraction, int or str
        Exact rationals (``"p/q"`` strings included); floats are refused.

    Returns
    -------
    (Fraction, Fraction)

    Examples
    --------
    >>> prevalence_bounds(("1/4", 1))
    (Fraction(1, 4), Fraction(1, 1))
    """
    if bounds is None:
        raise SpecError("decoding 'prevalence_range' needs prevalence_range=(low, high)")
    try:
        low, high = bounds
    except (TypeError, ValueError):
        raise SpecError(
            f"prevalence_range must be two rationals (low, high), e.g. ('1/10', '1/2'); "
            f"got {short_repr(bounds)}"
        ) from None
    low, high = (
        exact_rational(v, f"prevalence_range {name}", SpecError) for v, name in ((low, "low"), (high, "high"))
    )
    if not 0 <= low <= high <= 1:
        raise SpecError(f"prevalence_range must satisfy 0 <= low <= high <= 1, got ({low}, {high})")
    return low, high


def evaluate_counts(
    counts: Sequence[int],
    labels: Sequence[str] = ("a", "b"),
    classifiers: Sequence[str] = ("c1", "c2", "c3"),
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
) -> Evaluation:
    r"""Evaluate three binary classifiers from their 8 pattern counts (pattern order ``aaa .. bbb``).

    Parameters
    ----------
    counts : sequence of 8 int
    labels, classifiers : names for the result
    decoding : {"total_accuracy", "prevalence_range"}
        ``total_accuracy`` (default) picks the point with the larger mean total accuracy;
        ``prevalence_range`` the point whose prevalence of the first label lies in
        ``prevalence_range`` (ties broken by total accuracy).
    prevalence_range : (low, high), optional
        Rational bounds (``Fraction``, ``int`` or ``"p/q"`` strings).

    Returns
    -------
    Evaluation

    Examples
    --------
    A test on which the classifiers were exactly independent gives its truth back:

    >>> r = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])
    >>> r.point.prevalence, r.alarms
    ({'a': Fraction(1, 4), 'b': Fraction(3, 4)}, ())
    >>> r.point.accuracy["c1"]
    {'a': Fraction(3, 4), 'b': Fraction(2, 3)}
    >>> r.partition["a"][0]
    (('a', 'a', 'a'), Fraction(60, 1))
    """
    if not isinstance(decoding, str) or decoding not in TWO_LABEL_DECODINGS:
        raise SpecError(f"unknown decoding {short_repr(decoding)}; known: {', '.join(TWO_LABEL_DECODINGS)}")
    ints = _counts(counts)
    q = sum(ints)
    if prevalence_range is not None and decoding == "total_accuracy":
        decoding = "prevalence_range"  # a range given is a range meant
    if decoding == "prevalence_range":
        prevalence_range = prevalence_bounds(prevalence_range)
    labels, classifiers = _names(labels, 2, "label"), _names(classifiers, 3, "classifier")
    sol = exact_solution(ints, prevalence_range)
    alarms = [Alarm("blind_spot", _blind_spot_text(f, classifiers)) for f in sol.blind_spots]
    for kind in ("complex", "irrational", "outside_unit_cube", "empty_variety", "undecided"):
        if kind in sol.kinds:
            alarms.append(
                Alarm(kind, ALARM_DETAILS[kind].format(R=sol.radicand, r=_square_free_part(sol.radicand)[1]))
            )
    points = [sol.values(0), sol.values(1)]
    chosen = sol.chosen
    partition: dict[str, list[tuple[tuple[str, ...], Any]]] = {labels[0]: [], labels[1]: []}
    if chosen is not None:
        # Q P_ell prod_i P(d_i | ell) in the fast exact representation, converted once per cell
        point = _fast_point(sol, chosen)
        convert = _converter(sol)
        for pattern in itertools.product((0, 1), repeat=3):
            for ell in (0, 1):
                share: Any = (point[0] if ell == 0 else 1 - point[0]) * q
                for i, r in enumerate(pattern):
                    acc = point[1 + 2 * i + ell]
                    share = share * (acc if r == ell else 1 - acc)
                partition[labels[ell]].append((tuple(labels[r] for r in pattern), convert(share)))
    estimates = tuple(_estimate(p, labels, classifiers) for p in points)
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=classifiers,
        points=estimates,
        chosen=chosen,
        partition=partition,
        alarms=tuple(alarms),
    )


#: Deprecated: the old name of :func:`exact_solution`.
solve_counts = deprecated_alias(
    exact_solution,
    "solve_counts",
    "evalgebra.evaluators.independent.closed_form.exact_solution (or ev.evaluate_counts for an Evaluation)",
)
