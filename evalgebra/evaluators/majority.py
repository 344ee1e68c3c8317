r"""The majority-voting evaluator: impute the answer key by plurality vote, then count.

Every item's true label is imputed as the label most of the ensemble gave it (the
plurality; for ``R = 2`` and odd ``N`` the majority). Prevalences and accuracies are then
read off the imputed key exactly, as integer ratios, for any ``N >= 1`` classifiers and
``R >= 2`` labels:

* prevalence of ``ell`` = fraction of the items imputed ``ell``;
* accuracy of classifier ``i`` on ``ell`` = fraction of the items imputed ``ell`` that
  ``i`` labelled ``ell``.

Classifiers that may abstain (a sketch with ``abstain``) vote only when they answer a label:
an abstention is no vote, so an item is imputed by the plurality of the labels given to it,
and an item on which every classifier abstained has no plurality and is left out of the
imputed key (whatever the tie rule). An abstention is never a correct answer: accuracy on
``ell`` stays the fraction of the items imputed ``ell`` that ``i`` labelled ``ell``, and the
estimate's ``response`` rows give the rate of every answer, abstentions included.

Ties (two or more labels with the most votes) are resolved by a rule, ``ties``:

===================== =====================================================================
``ties``              a tied pattern's count goes
===================== =====================================================================
``"split"`` (default) to every tied label in equal shares (exact fractions: a three-way
                      tie on 5 items gives 5/3 to each)
``"drop"``            nowhere: tied items are left out of the imputed key, so prevalences
                      and accuracies are over the items with a clear plurality only
a label name          to that label when it is among the tied ones, else to the first tied
                      label in the sketch's label order
a sequence of labels  to the tied label listed first (labels not listed come after the
                      listed ones, in the sketch's label order)
===================== =====================================================================

The words ``"split"`` and ``"drop"`` always name the rules; to prefer a label that is
literally called ``"split"``, pass ``["split"]``. ``"split"`` and ``"drop"`` treat every
label alike; a preference that does not list every label falls back on the sketch's
label order, so give a complete order when that order means nothing.

The method never alarms on its own: whatever the sketch, majority voting returns integer
ratios in ``[0, 1]``, *seemingly correct* estimates, even when its assumptions (error
independent members, each better than chance on every label) fail badly ("Algebraic Evaluation Theorems",
S1-S8 and the discussion of eq. 5; "Streaming algorithms for evaluating noisy judges on
unlabeled data", section 2, eqs. 5-7). The only alarm is
``blind_spot``: a label that no item is imputed has undefined accuracies (``None``), and
a test whose items all tie (``ties="drop"``) or have no vote leaves everything undefined.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> sk = Sketch.from_counts({"aaa": 6, "aab": 2, "abb": 1, "bbb": 3}, labels=["a", "b"])
>>> ev = evaluate_majority(sk)
>>> ev.point.prevalence
{'a': Fraction(2, 3), 'b': Fraction(1, 3)}
>>> ev.point.accuracy["c2"]
{'a': Fraction(3, 4), 'b': Fraction(1, 1)}
>>> ev.partition["b"]  # doctest: +NORMALIZE_WHITESPACE
[(('a', 'a', 'a'), Fraction(0, 1)), (('a', 'a', 'b'), Fraction(0, 1)), (('a', 'b', 'b'), Fraction(1, 1)),
 (('b', 'b', 'b'), Fraction(3, 1))]
>>> ev.alarms
()

Notes
-----
Code names and the math ("Algebraic Evaluation Theorems", S1-S8; ``docs/theory.md``):

=========================== ===================================================
code                        math
=========================== ===================================================
``prevalence[ell]``         ``P_ell^(MV)``: imputed ``ell`` items over the imputed total
``accuracy[i][ell]``        ``P_{i,ell}^(MV)``
``partition[ell]``          the imputed answer key: each pattern's count assigned to ``ell``
=========================== ===================================================

For ``N = 3``, ``R = 2`` this is the closed form of "Algebraic Evaluation Theorems",
``P_a^(MV) = f_aaa + f_aab + f_aba + f_baa`` (S1) and, for the first classifier,
``P_{1,a}^(MV) = (f_aaa + f_aab + f_aba) / P_a^(MV)`` (S3), and so on to S8. "Streaming algorithms for
evaluating noisy judges on unlabeled data" prints the same statistic as
``1 - f_baa / (f_aaa + f_aab + f_aba + f_aba)`` (its eq. 6), with ``f_aba`` where ``f_baa`` belongs in the
denominator; the tests check S1-S8, which are right.

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems", Materials and Methods, eqs. S1-S8, and
   Table 1 (the "MV" columns).
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification", section 2, eqs. 5-7.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Union

import numpy as np

from evalgebra.data.patterns import check_size, decode
from evalgebra.data.sketch import DENSE_LIMIT, Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.rationals import short_repr, show_int
from evalgebra.results import Alarm, Estimate, Evaluation

__all__ = ["TIE_RULES", "evaluate_majority", "majority_vote_counts", "vote_design", "vote_weights"]

#: The named tie rules; a label name or a sequence of labels is also accepted.
TIE_RULES = ("split", "drop")

Ties = Union[str, Sequence[str]]

_INT64_SAFE = 2**62


def _priority(ties: Any, labels: Sequence[Any]) -> np.ndarray:
    """Rank of every label (0 = preferred) for a label-preference tie rule."""
    listed = [ties] if isinstance(ties, (str, int, np.integer)) else list(ties)
    unknown = [t for t in listed if t not in labels]
    if unknown or len(set(listed)) != len(listed):
        raise SpecError(
            f"ties: {short_repr(listed)} must be 'split', 'drop', a label or distinct labels among "
            f"{list(labels)}" + (f"; unknown {short_repr(unknown)}" if unknown else "; repeated labels")
        )
    order = listed + [lab for lab in labels if lab not in listed]
    rank = np.empty(len(labels), dtype=np.int64)
    for position, lab in enumerate(order):
        rank[list(labels).index(lab)] = position
    return rank


def _rule(ties: Any, labels: Sequence[Any]) -> tuple[str, np.ndarray | None]:
    """``("split" | "drop" | "prefer", rank or None)`` from a ``ties`` argument."""
    if isinstance(ties, str) and ties in TIE_RULES:
        return ties, None
    if isinstance(ties, (bytes, bool)) or ties is None:
        raise SpecError(f"ties: {short_repr(ties)} must be 'split', 'drop', a label or a sequence of labels")
    try:
        return "prefer", _priority(ties, labels)
    except (TypeError, ValueError) as exc:  # unhashable, or arrays compared to labels
        if isinstance(exc, SpecError):
            raise
        raise SpecError(
            f"ties: {short_repr(ties)} must be 'split', 'drop', a label or a sequence of labels"
        ) from None


def vote_weights(digits: np.ndarray, n_labels: int, ties: Any = "split") -> tuple[np.ndarray, int]:
    r"""Integer shares of each pattern imputed to each label, and their common denominator.

    Parameters
    ----------
    digits : numpy.ndarray
        ``patterns x N`` response indices (one row per decision pattern); indices from
        ``n_labels`` up are abstentions, which do not vote.
    n_labels : int
        ``R``.
    ties : {"split", "drop"}, int or sequence of int
        The tie rule, with labels given by index (see the module docstring).

    Returns
    -------
    weights : numpy.ndarray
        ``patterns x R`` non-negative ``int64``: pattern ``p`` gives ``weights[p, ell] / scale``
        of its count to label ``ell``. Each row sums to ``scale`` (or 0 for a tie dropped and
        for a pattern of abstentions only).
    scale : int
        The common denominator: the lcm of the tie sizes met with ``"split"``, else 1.

    Examples
    --------
    >>> w, scale = vote_weights(np.array([[0, 0, 1], [0, 1, 2]]), 3)
    >>> w.tolist(), scale
    ([[3, 0, 0], [1, 1, 1]], 3)
    >>> vote_weights(np.array([[0, 1]]), 2, ties=[1])[0].tolist()
    [[0, 1]]
    >>> vote_weights(np.array([[0, 2], [2, 2]]), 2, ties=[1])[0].tolist()  # 2: an abstention
    [[1, 0], [0, 0]]
    """
    digits = np.asarray(digits, dtype=np.int64)
    n_patterns = digits.shape[0]
    tally = np.zeros((n_patterns, n_labels), dtype=np.int64)
    for ell in range(n_labels):
        tally[:, ell] = (digits == ell).sum(axis=1)
    top = tally.max(axis=1, initial=0)
    tied = (tally == top[:, None]) & (top[:, None] > 0)
    n_tied = tied.sum(axis=1)
    rule, rank = _rule(ties, list(range(n_labels)))
    if rule == "split":
        sizes = {int(k) for k in np.unique(n_tied) if k > 0}
        scale = math.lcm(*sizes) if sizes else 1
        share = np.where(n_tied > 0, scale // np.maximum(n_tied, 1), 0)
        return tied.astype(np.int64) * share[:, None], scale
    if rule == "drop":
        return (tied & (n_tied == 1)[:, None]).astype(np.int64), 1
    assert rank is not None
    masked = np.where(tied, rank[None, :], n_labels)
    voted = np.flatnonzero(n_tied > 0)  # a pattern of abstentions only has no label to prefer
    weights = np.zeros((n_patterns, n_labels), dtype=np.int64)
    weights[voted, masked[voted].argmin(axis=1)] = 1
    return weights, 1


def vote_design(digits: np.ndarray, n_labels: int, ties: Any = "split") -> np.ndarray:
    r"""The linear forms of majority voting: a pattern's imputed shares, and its agreeing shares.

    Counts (one column per pattern) times this matrix give, per sketch, the items imputed
    each label and, per classifier, the items imputed each label that it labelled so:
    prevalences and accuracies are ratios of these sums.

    Parameters
    ----------
    digits : numpy.ndarray
        ``patterns x N`` response indices, as for :func:`vote_weights`.
    n_labels : int
        ``R``.
    ties : {"split", "drop"}, int or sequence of int
        The tie rule, with labels given by index, as for :func:`vote_weights`.

    Returns
    -------
    numpy.ndarray
        ``patterns x (R + N R)`` float64, in units of the common denominator of
        :func:`vote_weights`: column ``ell`` is the share of the pattern imputed ``ell``,
        column ``R + i R + ell`` that share when classifier ``i`` answered ``ell``.

    Examples
    --------
    >>> vote_design(np.array([[0, 0, 1], [0, 1, 1]]), 2).tolist()
    [[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]]
    """
    digits = np.asarray(digits, dtype=np.int64)
    weights, _ = vote_weights(digits, n_labels, ties)
    agree = digits[:, :, None] == np.arange(n_labels)[None, None, :]
    shares = (weights[:, None, :] * agree).reshape(digits.shape[0], digits.shape[1] * n_labels)
    return np.concatenate([weights, shares], axis=1).astype(np.float64)


def _exact(values: np.ndarray) -> list[int]:
    return [int(v) for v in values.ravel()]


def evaluate_majority(sketch: Sketch, ties: Ties = "split") -> Evaluation:
    r"""Evaluate an ensemble by imputing every item's label by plurality vote.

    Parameters
    ----------
    sketch : Sketch
        Any ``N >= 1``, ``R >= 2``. A labelled sketch's answer key is ignored; several
        populations are pooled; abstentions do not vote (module docstring).
    ties : {"split", "drop"}, str or sequence of str
        How items whose vote is tied are imputed (module docstring): shared equally among
        the tied labels (default), left out, or given to a preferred label.

    Returns
    -------
    Evaluation
        ``method="majority"``, one exact :class:`Estimate` (``chosen=0``), the imputed key
        as ``partition`` (every observed pattern under every label, in canonical pattern
        order, with the :class:`~fractions.Fraction` of its count imputed to that label)
        and a ``blind_spot`` alarm for each label no item is imputed (its accuracies are
        ``None``). No other alarm is ever raised: majority voting cannot tell when it is
        wrong (see the module's references). With abstentions the estimate also holds
        ``response[classifier][label][answer]``, the rate of every answer on the items
        imputed ``label``.

    Raises
    ------
    SketchError
        ``sketch`` is not a :class:`Sketch`.
    SpecError
        ``ties`` is not a rule or names unknown labels.

    Examples
    --------
    Two classifiers that disagree tie; the default splits the tied items:

    >>> from evalgebra.data.sketch import Sketch
    >>> sk = Sketch.from_counts({"aa": 2, "ab": 3, "bb": 1}, labels=["a", "b"])
    >>> evaluate_majority(sk).point.prevalence
    {'a': Fraction(7, 12), 'b': Fraction(5, 12)}
    >>> evaluate_majority(sk, ties="drop").point.prevalence
    {'a': Fraction(2, 3), 'b': Fraction(1, 3)}
    >>> ev = evaluate_majority(sk, ties="b")
    >>> ev.point.prevalence, ev.point.accuracy["c0"]
    ({'a': Fraction(1, 3), 'b': Fraction(2, 3)}, {'a': Fraction(1, 1), 'b': Fraction(1, 4)})

    A label nobody's vote carries is a blind spot:

    >>> ev = evaluate_majority(Sketch.from_counts({"aab": 4}, labels=["a", "b", "c"]))
    >>> ev.point.accuracy["c2"], [a.kind for a in ev.alarms]
    ({'a': Fraction(0, 1), 'b': None, 'c': None}, ['blind_spot', 'blind_spot'])

    An abstention is no vote, and no correct answer:

    >>> sk = Sketch.from_decisions([["a", "a", "?"], ["b", "?", "?"], ["?", "?", "?"]], abstain=["?"])
    >>> ev = evaluate_majority(sk)
    >>> ev.point.prevalence, ev.point.accuracy["c2"], ev.point.response["c2"]["a"]["?"]
    ({'a': Fraction(1, 2), 'b': Fraction(1, 2)}, {'a': Fraction(0, 1), 'b': Fraction(0, 1)}, Fraction(1, 1))
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"evaluate_majority needs a Sketch, got {type(sketch).__name__}")
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    n_labels = len(labels)
    rule, rank = _rule(ties, labels)
    # label indices, never names, from here on (a label may be called "split")
    index_ties: Any = rule if rank is None else [int(k) for k in np.argsort(rank)]
    counts = sketch.counts()
    patterns = list(counts)
    responses = tuple(sketch.responses)  # labels first, then abstentions (which do not vote)
    digits = np.array([[responses.index(answer) for answer in p] for p in patterns], dtype=np.int64)
    weights, scale = vote_weights(digits, n_labels, index_ties)
    number = np.array([counts[p] for p in patterns], dtype=np.int64)
    if sketch.Q * scale >= _INT64_SAFE:
        number, weights = number.astype(object), weights.astype(object)
    shares = number[:, None] * weights  # patterns x R, in units of 1/scale
    imputed = _exact(shares.sum(axis=0))
    agreed = [
        _exact((shares * (digits[:, i][:, None] == np.arange(n_labels)[None, :])).sum(axis=0))
        for i in range(len(classifiers))
    ]
    total = sum(imputed)
    prevalence = {lab: (Fraction(imputed[ell], total) if total else None) for ell, lab in enumerate(labels)}
    accuracy = {
        name: {
            lab: (Fraction(agreed[i][ell], imputed[ell]) if imputed[ell] else None)
            for ell, lab in enumerate(labels)
        }
        for i, name in enumerate(classifiers)
    }
    response = _response_rates(sketch, digits, shares, imputed) if sketch.abstain else {}
    alarms = []
    if total == 0:
        why = (
            "a tie left out by ties='drop' or has no vote (every classifier abstained)"
            if sketch.abstain
            else "a tie and ties='drop' leaves them all out"
        )
        alarms.append(
            Alarm(
                "blind_spot",
                f"every one of the {sketch.Q} items is {why}: no prevalence or accuracy is defined",
            )
        )
    else:
        for ell, lab in enumerate(labels):
            if not imputed[ell]:
                alarms.append(
                    Alarm(
                        "blind_spot",
                        f"majority voting imputes no item the label {lab!r}: the "
                        f"accuracies on {lab!r} are undefined (None)",
                    )
                )
    rows = shares.tolist()
    partition = {
        lab: [(pattern, Fraction(int(row[ell]), scale)) for pattern, row in zip(patterns, rows)]
        for ell, lab in enumerate(labels)
    }
    estimate = Estimate(prevalence=prevalence, accuracy=accuracy, response=response)
    return Evaluation(
        method="majority",
        labels=labels,
        classifiers=classifiers,
        points=(estimate,),
        chosen=0,
        partition=partition,
        alarms=tuple(alarms),
    )


def _response_rates(
    sketch: Sketch, digits: np.ndarray, shares: np.ndarray, imputed: list[int]
) -> dict[str, dict[str, dict[str, Fraction | None]]]:
    """``{classifier: {imputed label: {answer: rate}}}``, abstentions included, exactly."""
    out: dict[str, dict[str, dict[str, Fraction | None]]] = {}
    for i, name in enumerate(sketch.classifiers):
        # answered[k][ell]: shares of the items imputed ell that this classifier answered k
        answered = [
            _exact((shares * (digits[:, i] == k)[:, None]).sum(axis=0)) for k in range(sketch.n_responses)
        ]
        out[name] = {
            lab: {
                answer: (Fraction(answered[k][ell], imputed[ell]) if imputed[ell] else None)
                for k, answer in enumerate(sketch.responses)
            }
            for ell, lab in enumerate(sketch.labels)
        }
    return out


def majority_vote_counts(
    counts: Any, n_classifiers: int, n_labels: int, ties: Any = "split"
) -> tuple[np.ndarray, np.ndarray]:
    r"""Majority-vote evaluations of many sketches at once, in floating point.

    Parameters
    ----------
    counts : array-like of int
        ``sketches x R^N`` (or one ``R^N`` vector): dense pattern counts in canonical
        order, as :meth:`Sketch.count_vector` gives them.
    n_classifiers, n_labels : int
        ``N`` and ``R``.
    ties : {"split", "drop"}, int or sequence of int
        As for :func:`evaluate_majority`, with labels given by index.

    Returns
    -------
    prevalence : numpy.ndarray
        ``sketches x R`` (``R`` for one vector).
    accuracy : numpy.ndarray
        ``sketches x N x R``; NaN where no item is imputed the label (and everywhere for a
        sketch whose items were all dropped as ties).

    Notes
    -----
    Counts are combined as integer multiples of the tie shares in float64, exact while
    ``Q`` times the tie denominator stays below ``2^53``; only the final divisions round.
    For exact results use :func:`evaluate_majority`.

    Examples
    --------
    >>> prev, acc = majority_vote_counts([[6, 2, 0, 1, 0, 0, 0, 3]], 3, 2)
    >>> prev.tolist(), acc[0, 2].tolist()
    ([[0.6666666666666666, 0.3333333333333333]], [0.75, 1.0])
    """
    check_size(n_classifiers, n_labels)
    n_classifiers, n_labels = int(n_classifiers), int(n_labels)  # Python ints: no fixed-width powers
    if n_labels < 2:
        raise SketchError(f"majority voting needs at least 2 labels, got {n_labels}")
    n_patterns = n_labels**n_classifiers
    if n_patterns > DENSE_LIMIT:
        raise SketchError(
            f"{n_patterns} patterns are too many for dense count vectors; use evaluate_majority"
        )
    try:
        matrix = np.asarray(counts)
    except (TypeError, ValueError, OverflowError):
        raise SketchError(
            f"counts must be an array of shape (sketches, {n_patterns}) of non-negative integers; "
            f"cannot read this {type(counts).__name__} as one"
        ) from None
    single, shape = matrix.ndim == 1, matrix.shape
    matrix = np.atleast_2d(matrix)
    if matrix.ndim != 2 or matrix.shape[1] != n_patterns:
        raise SketchError(
            f"counts must have shape (sketches, {n_patterns}) for {show_int(int(n_classifiers))} classifiers "
            f"and {show_int(int(n_labels))} labels, got {shape}"
        )
    if matrix.dtype.kind not in "iu" or (matrix.size and int(matrix.min()) < 0):
        raise SketchError("counts must be non-negative integers")
    digits = decode(np.arange(n_patterns), n_classifiers, n_labels)
    sums = matrix.astype(np.float64) @ vote_design(digits, n_labels, ties)
    imputed = sums[:, :n_labels]
    agreed = sums[:, n_labels:].reshape(-1, n_classifiers, n_labels)
    total = imputed.sum(axis=1, keepdims=True)
    prevalence = np.divide(imputed, total, out=np.full_like(imputed, np.nan), where=total > 0)
    denominator = np.broadcast_to(imputed[:, None, :], agreed.shape)
    accuracy = np.divide(agreed, denominator, out=np.full_like(agreed, np.nan), where=denominator > 0)
    if single:
        return prevalence[0], accuracy[0]
    return prevalence, accuracy
