r"""The vectorised statistics behind the confidence intervals: every evaluator on many count vectors at once.

Each ``*_statistics`` function takes the observed cells (pattern codes) of a sketch and returns
a function from resampled counts ``(M, K)`` (one row per resample, one column per cell) to
``(values (M, keys), reasons (M,))``: the chosen point's statistics in the order of
:func:`~evalgebra.evaluators.intervals.confidence.statistic_keys`, and per row ``""`` or why its evaluation
failed. :mod:`evalgebra.evaluators.intervals.confidence` draws the resamples and turns the values into
intervals; the delta method runs the same functions on complex counts (complex step) or on
perturbed counts (central differences).

Examples
--------
>>> codes = np.arange(8)
>>> run = binary_statistics(codes, 3, np.array([0.25, 0.75, 2 / 3, 0.8, 0.6, 5 / 6, 0.5]), None)
>>> values, reasons = run(np.array([[84.0, 36, 51, 39, 68, 52, 77, 73]]))
>>> np.round(values[0, :3], 6).tolist(), reasons.tolist()
([0.25, 0.75, 0.75], [''])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from evalgebra.data.patterns import decode
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.majority import vote_design
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels
from evalgebra.generated import three_independent

__all__ = [
    "Statistics",
    "binary_delta_statistics",
    "binary_statistics",
    "closed_form_point",
    "decoded_side",
    "dense_counts",
    "majority_statistics",
    "many_label_statistics",
    "mirror_points",
    "redecode",
    "trio_codes",
    "align_to_reference",
]

#: ``counts (M, K) -> (values (M, keys), reasons (M,))``; a reason is ``""`` where the row succeeded.
Statistics = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def dense_counts(counts: np.ndarray, codes: np.ndarray, size: int) -> np.ndarray:
    """Scatter ``(M, K)`` cell counts into ``(M, size)`` dense pattern counts (codes may repeat)."""
    onehot = np.zeros((codes.size, size))
    onehot[np.arange(codes.size), codes] = 1.0
    return counts @ onehot


def trio_codes(codes: np.ndarray, n_classifiers: int, n_labels: int, members: Sequence[int]) -> np.ndarray:
    digits = decode(codes, n_classifiers, n_labels)[:, list(members)]
    return (digits[:, 0] * n_labels + digits[:, 1]) * n_labels + digits[:, 2]


# -- vectorised evaluators: binary trios ---------------------------------------------------------
def mirror_points(stats: np.ndarray) -> np.ndarray:
    """The label swap on ``[..., (P_a, acc_0_a, acc_0_b, ...)]``: ``P_a -> 1 - P_a``,
    ``acc_a <-> 1 - acc_b``."""
    out = 1 - stats
    out[..., 1::2], out[..., 2::2] = 1 - stats[..., 2::2], 1 - stats[..., 1::2]
    return out


def decoded_side(stats: np.ndarray, bounds: tuple[float, float] | None) -> np.ndarray:
    """0 (keep), 1 (mirror) or -1 (undecided) per row: the prevalence range, else the summed total
    accuracy."""
    p = stats[..., 0]
    defined = np.isfinite(stats[..., 1::2]) & np.isfinite(stats[..., 2::2])
    total = np.where(
        defined, p[..., None] * stats[..., 1::2] + (1 - p[..., None]) * stats[..., 2::2], 0.0
    ).sum(-1)
    difference = 2 * total - defined.sum(-1)
    side = np.where(difference > 0, 0, np.where(difference < 0, 1, -1))
    if bounds is not None:
        inside = np.stack(
            [(bounds[0] <= p) & (p <= bounds[1]), (bounds[0] <= 1 - p) & (1 - p <= bounds[1])], -1
        )
        side = np.where(inside.all(-1), side, np.where(inside[..., 0], 0, np.where(inside[..., 1], 1, -1)))
    return np.where(np.isfinite(p), side, -1)


def binary_statistics(
    codes: np.ndarray, n_classifiers: int, reference: np.ndarray, bounds: tuple[float, float] | None
) -> Statistics:
    """Two labels: the closed form of every trio, aligned with the reference point, averaged, decoded.

    ``reference`` is the chosen point's ``(P_a, acc_0_a, acc_0_b, ...)``. With three classifiers
    the resample's own decoding picks the point; with more, each trio's point nearest the
    reference is kept (the exact path aligns the trios with each other instead: the same when
    they agree), the trios' mean is decoded against its mirror like the exact combined point.
    """
    trios = list(itertools.combinations(range(n_classifiers), 3))
    codes_of = [trio_codes(codes, n_classifiers, 2, t) for t in trios]

    def run(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        size = counts.shape[0]
        total = np.zeros((size, 1 + 2 * n_classifiers))
        weight = np.zeros_like(total)
        reasons = np.full(size, "", dtype=object)
        for members, tc in zip(trios, codes_of):
            out = evaluate_batch(dense_counts(counts, tc, 8))
            stats = np.concatenate(
                [out["prevalence"][:, :, None], out["accuracy"].reshape(size, 2, 6)], axis=2
            )
            columns = [0, *(1 + 2 * i + s for i in members for s in (0, 1))]
            if n_classifiers == 3:
                pick = out["chosen"] if bounds is None else decoded_side(stats[:, 0], bounds)
            else:
                pick = np.nansum(np.abs(stats - reference[columns]), axis=2).argmin(axis=1)
            chosen = stats[np.arange(size), np.maximum(pick, 0)]
            usable = np.isfinite(chosen).all(axis=1) & ~out["complex"] & (pick >= 0)
            for name in ("complex", "empty_variety", "blind_spot", "undecided"):
                flag = (pick < 0) if name == "undecided" else out[name]
                reasons[(reasons == "") & flag & ~usable] = name
            total[:, columns] += np.where(usable[:, None], chosen, 0.0)
            weight[:, columns] += usable[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / weight
        if n_classifiers > 3:  # the trios' mean is a point when one trio is usable; decode it
            side = decoded_side(mean, bounds)
            mean = np.where((side == 1)[:, None], mirror_points(mean), mean)
            some = weight[:, 0] > 0
            reasons = np.where(
                some, np.where(side < 0, "undecided", ""), np.where(reasons == "", "undefined", reasons)
            )
        values = np.concatenate([mean[:, :1], 1 - mean[:, :1], mean[:, 1:]], axis=1)
        return values, reasons.astype(object)

    return run


def closed_form_point(dense: np.ndarray, sign: int) -> np.ndarray:
    """``(P_a, acc_0_a, ...)`` of the closed form's point with the given sign, on real or complex counts."""
    out = three_independent.solve(*dense.T)
    root = np.sqrt(np.asarray(out[0], dtype=complex))
    stats = [
        (out[1 + 3 * k] + sign * out[2 + 3 * k] * root) / out[3 + 3 * k]
        for k in range(len(three_independent.STATISTICS))
    ]
    return np.stack(np.broadcast_arrays(*stats), axis=1)


def binary_delta_statistics(
    codes: np.ndarray,
    n_classifiers: int,
    reference: np.ndarray,
    bounds: tuple[float, float] | None,
    counts: np.ndarray,
) -> Statistics:
    """The binary closed form with every discrete choice (point of each trio, side) fixed at the data:
    analytic."""
    trios = list(itertools.combinations(range(n_classifiers), 3))
    plan = []
    for members in trios:
        tc = trio_codes(codes, n_classifiers, 2, members)
        columns = [0, *(1 + 2 * i + s for i in members for s in (0, 1))]
        at_data = [
            closed_form_point(dense_counts(counts[None, :].astype(float), tc, 8), s)[0]
            for s in three_independent.SIGNS
        ]
        real = [np.isfinite(p).all() and np.allclose(p.imag, 0) for p in at_data]
        if not all(real):
            continue
        gaps = [np.nansum(np.abs(p.real - reference[columns])) for p in at_data]
        plan.append((tc, columns, three_independent.SIGNS[int(np.argmin(gaps))]))
    weight = np.zeros(1 + 2 * n_classifiers)
    for _, columns, _ in plan:
        weight[columns] += 1

    def run(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        total = np.zeros((z.shape[0], weight.size), dtype=complex)
        for tc, columns, sign in plan:
            total[:, columns] += closed_form_point(dense_counts(z, tc, 8), sign)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / weight
        if n_classifiers > 3 and decoded_side(mean[:1].real, bounds)[0] == 1:
            mean = mirror_points(mean)
        return np.concatenate([mean[:, :1], 1 - mean[:, :1], mean[:, 1:]], axis=1), np.full(
            z.shape[0], "", dtype=object
        )

    return run


# -- vectorised evaluators: many labels, majority -------------------------------------------------
def redecode(
    prevalence: np.ndarray, response: np.ndarray, labels: Sequence[str], decoding: str, option: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Relabel batch points (decoded by total accuracy) by ``prevalence_order`` or ``known_prevalences``."""
    r = len(labels)
    rows = np.arange(prevalence.shape[0])[:, None]
    undecided: Any = np.zeros(prevalence.shape[0], dtype=bool)
    if decoding == "prevalence_order":
        ranked = np.argsort(-prevalence, axis=1, kind="stable")  # current label index by rank
        wanted = [list(labels).index(name) for name in option]
        sigma = np.empty_like(ranked)
        sigma[:, wanted] = ranked  # new label wanted[k] <- current label ranked[k]
        ordered = np.take_along_axis(prevalence, ranked, axis=1)
        undecided = (np.diff(ordered, axis=1) >= 0).any(axis=1)
    elif decoding == "known_prevalences":
        perms = np.array(list(itertools.permutations(range(r))))
        known = np.array([float(option[name]) for name in labels])
        cost = np.abs(prevalence[:, perms] - known).sum(axis=2)
        sigma = perms[cost.argmin(axis=1)]
        top = np.sort(cost, axis=1)
        undecided = top[:, 1] - top[:, 0] <= 1e-12
    else:
        return prevalence, response, undecided
    out_prevalence = prevalence[rows, sigma]
    # the hidden labels (rows of each response matrix) are renamed; the answers (columns) stay
    out_response = response[rows[:, :, None], np.arange(3)[None, :, None], sigma[:, None, :]]
    return out_prevalence, out_response, undecided


def align_to_reference(
    prevalence: np.ndarray, response: np.ndarray, members: Sequence[int], reference: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""Rename each batch trio point's hidden labels to match the reference point (its decoded evaluation).

    The vectorised form of the trios' alignment (:mod:`evalgebra.evaluators.trio_alignment`): the renaming
    with the least summed absolute difference from the reference over the prevalences and the trio's
    response rows. ``prevalence`` is ``(n, R)``, ``response`` ``(n, 3, R, R)`` (classifier slot, true label,
    answer); ``reference`` holds the ensemble's ``(P, accuracies, responses)`` as the statistics are keyed.
    """
    r = prevalence.shape[1]
    n_classifiers = (reference.size - r) // (r + r * r)
    ref_prevalence = reference[:r]
    ref_rows = reference[r + n_classifiers * r :].reshape(n_classifiers, r, r)[list(members)]  # (3, R, R)
    perms = np.array(list(itertools.permutations(range(r))))  # perm[trio label] = reference label
    gaps = np.abs(prevalence[:, None, :] - ref_prevalence[perms][None]).sum(axis=2)
    moved = ref_rows[:, perms].transpose(1, 0, 2, 3)  # (P, 3, R, R): reference rows under each renaming
    gaps = gaps + np.nansum(np.abs(response[:, None] - moved[None]), axis=(2, 3, 4))
    best = perms[np.argmin(np.where(np.isfinite(gaps), gaps, np.inf), axis=1)]
    source = np.argsort(best, axis=1)  # source[m] = the trio's label that becomes reference label m
    rows = np.arange(prevalence.shape[0])[:, None]
    renamed = response[rows[:, :, None], np.arange(3)[None, :, None], source[:, None, :]]
    return prevalence[rows, source], renamed


def many_label_statistics(
    codes: np.ndarray,
    n_classifiers: int,
    labels: Sequence[str],
    decoding: str,
    option: Any,
    reference: np.ndarray | None = None,
) -> Statistics:
    """Three or more labels: the batched eigenvector route on every trio, decoded, averaged.

    With more than three classifiers and the chosen point as ``reference``, each trio's point is
    renamed to match the reference (:func:`align_to_reference`) before the mean, as the exact path
    aligns its trios; decoded trios alone can hold different renamings."""
    r = len(labels)
    trios = list(itertools.combinations(range(n_classifiers), 3))
    codes_of = [trio_codes(codes, n_classifiers, r, t) for t in trios]

    def run(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        size = counts.shape[0]
        prevalence = np.zeros((size, r))
        response = np.zeros((size, n_classifiers, r, r))
        n_prevalence = np.zeros(size)
        n_response = np.zeros((size, n_classifiers))
        reasons = np.full(size, "", dtype=object)
        for members, tc in zip(trios, codes_of):
            out = evaluate_batch_many_labels(dense_counts(counts, tc, r**3), r)
            if n_classifiers > 3 and reference is not None:
                p, rows = align_to_reference(out["prevalence"], out["response"], members, reference)
                undecided = np.zeros(size, dtype=bool)
            else:
                p, rows, undecided = redecode(out["prevalence"], out["response"], labels, decoding, option)
            ok = out["ok"] & ~undecided & np.isfinite(p).all(axis=1)
            reasons[(reasons == "") & ~out["ok"]] = "no_real_point"
            reasons[(reasons == "") & undecided] = "undecided"
            prevalence += np.where(ok[:, None], p, 0.0)
            n_prevalence += ok
            for slot, i in enumerate(members):
                response[:, i] += np.where(ok[:, None, None], rows[:, slot], 0.0)
                n_response[:, i] += ok
        with np.errstate(invalid="ignore", divide="ignore"):
            prevalence /= n_prevalence[:, None]
            response /= n_response[:, :, None, None]
        reasons[n_prevalence > 0] = ""
        accuracy = np.diagonal(response, axis1=2, axis2=3).reshape(size, -1)
        values = np.concatenate([prevalence, accuracy, response.reshape(size, -1)], axis=1)
        reasons[(reasons == "") & (n_prevalence == 0)] = "undefined"
        return values, reasons

    return run


def majority_statistics(
    codes: np.ndarray, n_classifiers: int, labels: Sequence[str], ties: Any
) -> Statistics:
    """Majority voting: imputed shares of every cell as one design matrix; ratios of linear forms."""
    r = len(labels)
    if isinstance(ties, str) and ties in ("split", "drop"):
        index_ties: Any = ties
    else:
        index_ties = [list(labels).index(t) for t in ([ties] if isinstance(ties, str) else ties)]
    design = vote_design(decode(codes, n_classifiers, r), r, index_ties)

    def run(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sums = counts @ design
        imputed, agreed = sums[:, :r], sums[:, r:].reshape(-1, n_classifiers, r)
        with np.errstate(invalid="ignore", divide="ignore"):
            prevalence = imputed / imputed.sum(axis=1, keepdims=True)
            accuracy = agreed / imputed[:, None, :]
        values = np.concatenate([prevalence, accuracy.reshape(len(counts), -1)], axis=1)
        return np.where(np.abs(values) == np.inf, np.nan, values), np.full(len(counts), "", dtype=object)

    return run
