r"""Ranking the surviving trios of a pool search by their neighbours.

:func:`~evalgebra.search.trios.search_trios` rejects the trios of a pool whose evaluation
raises a failure-mode alarm; the survivors are all seemingly correct, and this module ranks
them, lowest score first. Its inputs are arrays: the candidate trios, both points of each
trio's floating-point evaluation (:func:`trio_points` of
:func:`~evalgebra.evaluators.independent.batch.evaluate_batch`), which point was decoded, which trios
survive, each classifier's frequency of answering the second label, and the 4-cliques of the
compatibility graph (the partners). The search builds them; nothing here reads a sketch.

The ranking criterion
---------------------
The streaming-evaluation paper [1]_ (section 5, Figure 3) ranks a trio by the distance of its
independent estimate from the containing variety of its own sketch. That distance is **identically zero**: the
containing variety of binary classifiers is cut out by one polynomial per classifier,
``P_a (P_{i,a} - f_{i,a}) - P_b (P_{i,b} - f_{i,b})``, which says only that the estimate
reproduces the classifier's observed frequency of answering ``a``; the algebraic estimate of
a trio reproduces all eight pattern frequencies, so it lies on the variety exactly (Notes of
:mod:`evalgebra.evaluators.independent.distance`). The ``"own_distance"`` criterion computes it: round-off
(below ``1e-15``), unrelated to the true error. A trio's own sketch cannot tell a nearly
independent trio from a correlated one whose evaluation happens to be seemingly correct.

What can tell them apart is **another sketch**. The true values of a trio's statistics are
shared by every larger ensemble holding it: if a trio ``T`` and a *partner* ``m`` (compatible
with all three members: ``T + {m}`` is a 4-clique of the compatibility graph) were
independent, the four trios of ``T + {m}`` would evaluate the statistics they share
identically. Each other trio's two points are aligned to ``T``'s decoded point (the nearer
on their shared statistics), and two scores are offered, each the **median over partners**
(one partner correlated with one member should not condemn a good trio):

``"disagreement"`` (default)
    the largest absolute difference, over the shared statistics (prevalence, accuracies of
    the two shared members), between ``T``'s point and an aligned point of the three other
    trios of ``T + {m}``.
``"extended_distance"``
    the paper's measure moved to where it is informative: the Euclidean distance of the
    combined estimate of ``T + {m}`` (the mean of the four aligned points per statistic, as
    :func:`~evalgebra.evaluators.independent.algebraic.evaluate_independent` combines trios) from the
    containing variety *of the 4-classifier sketch* (as
    :func:`~evalgebra.evaluators.independent.distance.containing_distance`, vectorised).

Why disagreement is the default. For a fixed prevalence the containing variety is affine in
the accuracies, so the mean of points that share a prevalence lies on it however much their
accuracies differ: the extended distance only sees the trios' disagreement on the
prevalence (to first order, weighted by the members' ``P_{i,a} + P_{i,b} - 1``); the
disagreement on the accuracies, which correlated members cause as well, is invisible to it.
Experiment e01
(``experiments/e01_nearly_independent.py``, ``experiments/results/``) bears this out: over
five pools each of two-norm, breast-cancer and digits classifiers trained on disjoint
features, the mean Spearman correlation between score and true error of the survivors is
0.54, 0.34 and 0.11 for the disagreement against 0.33, 0.17 and -0.08 for the extended
distance. Neither is a strong predictor: the best-ranked trios are only modestly better than
a random survivor (median error 0.012 against 0.016 on two-norm, 0.114 against 0.133 on
breast cancer) and far from the best survivor in hindsight.

Examples
--------
Four classifiers that make independent errors on 512 items (decisions simulated exactly from a
rational point): the four trios of the one quad agree exactly, so every trio scores 0 with
one partner.

>>> import numpy as np
>>> from evalgebra.evaluators.independent.batch import evaluate_batch
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.search.trios import trio_counts
>>> from evalgebra.data.simulate import labelled_test
>>> from evalgebra.spec import EnsembleSpec
>>> point = EvaluationPoint.from_values(EnsembleSpec(4, 2), {"a": "1/4"}, accuracy={
...     0: {"a": "3/4", "b": "1/2"}, 1: {"a": "3/4", "b": "3/4"}, 2: {"a": "1/2", "b": "3/4"},
...     3: {"a": 1, "b": "3/4"}})
>>> decisions = labelled_test(point, 512).decisions  # label indices: 1 = "b"
>>> trios = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
>>> many = evaluate_batch(trio_counts(decisions, trios))
>>> score, used = trio_scores(trios, trio_points(many), many["chosen"], np.ones(4, dtype=bool),
...                           "disagreement", decisions.mean(axis=0), np.array([[0, 1, 2, 3]]))
>>> np.round(score, 12).tolist(), used.tolist()
([0.0, 0.0, 0.0, 0.0], [1, 1, 1, 1])

Notes
-----
Code names and the math: a row of ``points`` is ``(P_a, P_{i,a}, P_{i,b}, P_{j,a}, P_{j,b},
P_{k,a}, P_{k,b})`` for trio ``(i, j, k)``, one per point of its evaluation; ``chosen`` is the
decoded point (``Evaluation.chosen``, -1 when none) and ``score`` the criterion's value there;
``freq_b`` is ``f_{i,b}``, the frequency with which classifier ``i`` answers the second label.
A partner is counted by the pair (trio, quad): ``t_idx``, ``m_idx`` and ``q_idx`` index the
trio, the partner and their 4-clique; the score is the median over a trio's pairs of the
per-pair value, ``used`` (``TrioResult.n_partners``) the number of pairs with at least one
usable other trio (its points finite). Everything is vectorised over pairs, in blocks of
``2**18`` pairs to bound the memory; the extended distance is :func:`containing_distances`,
the containing distance of many estimates at once.

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
       data - binary classification": section 5
       (containing variety, eqs 22-23, Figure 3).
"""

from __future__ import annotations

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.generated import containing_variety
from evalgebra.results.batch import BatchResult

__all__ = ["CRITERIA", "trio_points", "containing_distances", "trio_scores"]

#: Ranking criteria (lower is better); see the module docstring.
CRITERIA = ("disagreement", "extended_distance", "own_distance")


def trio_points(out: BatchResult) -> np.ndarray:
    r"""Both points of each trio's evaluation as rows of 7 statistics.

    Parameters
    ----------
    out : dict of ndarray
        The result of :func:`~evalgebra.evaluators.independent.batch.evaluate_batch` for ``k`` trios.

    Returns
    -------
    ndarray, shape (k, 2, 7)
        Per trio and point: the prevalence ``P_a``, then each member's accuracy on ``a`` and
        on ``b``.

    Examples
    --------
    >>> from evalgebra.evaluators.independent.batch import evaluate_batch
    >>> points = trio_points(evaluate_batch([[84, 36, 51, 39, 68, 52, 77, 73]]))
    >>> points.shape, points[0, :, 0].tolist()
    ((1, 2, 7), [0.25, 0.75])
    """
    k = len(out["prevalence"])
    return np.concatenate([out["prevalence"][:, :, None], out["accuracy"].reshape(k, 2, 6)], axis=2)


def containing_distances(
    prevalence: np.ndarray, acc_a: np.ndarray, acc_b: np.ndarray, freq_b: np.ndarray
) -> np.ndarray:
    r"""Vectorised :func:`~evalgebra.evaluators.independent.distance.containing_distance`, in floating point.

    Parameters
    ----------
    prevalence : ndarray, shape (k,)
        ``P_a`` of each of ``k`` estimates of ensembles of equal size ``n``.
    acc_a, acc_b : ndarray, shape (k, n)
        Each member's accuracy on ``a`` and on ``b``.
    freq_b : ndarray, shape (k, n)
        Each member's observed frequency of answering ``b`` in the sketch measured against.

    Returns
    -------
    ndarray, shape (k,)
        The Euclidean distance of each estimate from its containing variety.

    Notes
    -----
    The generated line coefficients are affine in the prevalence, so each residual ``h_i(t)``
    is affine in ``t`` and ``w(t) = alpha^2 + beta^2`` (the same for every classifier)
    quadratic; the minimum of ``g(t) = (t - t_hat)^2 + sum_i h_i(t)^2 / w(t)`` is at a real
    root of the quintic ``g'(t) w(t)^2``, found from batched companion matrices.

    Examples
    --------
    With ``P_a = 1/4``, accuracies ``3/4`` and ``1/2`` reproduce a frequency ``7/16`` of
    answering ``b`` (``P_a (1 - P_{i,a}) + P_b P_{i,b}``): on the variety. Against a frequency
    of ``1/2`` the same estimate is off it, a little nearer than its residual at ``P_a = 1/4``
    (``1/16`` over ``sqrt(alpha^2 + beta^2)``, about 0.079) since the prevalence may move too:

    >>> d = containing_distances(np.array([0.25, 0.25]), np.array([[0.75], [0.75]]),
    ...                          np.array([[0.5], [0.5]]), np.array([[0.4375], [0.5]]))
    >>> np.round(d, 4).tolist()
    [0.0, 0.074]
    """
    k = len(prevalence)
    a0, b0, _ = containing_variety.line(0.0, 0.0)
    a1, b1, _ = containing_variety.line(1.0, 0.0)
    _, _, g0 = containing_variety.line(0.0, freq_b)
    _, _, g1 = containing_variety.line(1.0, freq_b)
    # h_i(t) = c0 + c1 t, w(t) = w0 + w1 t + w2 t^2 (coefficient arrays, low order first)
    c0 = a0 * acc_a + b0 * acc_b + g0
    c1 = (a1 - a0) * acc_a + (b1 - b0) * acc_b + (g1 - g0)
    da, db = a1 - a0, b1 - b0
    w = np.array([a0 * a0 + b0 * b0, 2 * (a0 * da + b0 * db), da * da + db * db])
    P = np.polynomial.polynomial  # noqa: N806
    w2 = P.polymul(w, w)
    wd = P.polyder(w)
    crit = np.zeros((k, 6))
    t_hat = prevalence
    # 2 (t - t_hat) w^2
    crit[:, :5] += 2 * np.outer(-t_hat, w2)
    crit[:, 1:6] += 2 * w2[None, :]
    # sum_i 2 h h' w - h^2 w'
    hh = np.stack([c0 * c0, 2 * c0 * c1, c1 * c1], axis=2)  # h^2: (k, n, 3)
    hd = np.stack([c0 * c1, c1 * c1], axis=2)  # h h': (k, n, 2)
    term = 2 * (hd[..., 0:1] * w[None, None, :]).sum(axis=1)  # constant part of h h' times w
    crit[:, 0:3] += term
    crit[:, 1:4] += 2 * (hd[..., 1:2] * w[None, None, :]).sum(axis=1)
    for power in range(3):
        crit[:, power : power + 2] -= hh[..., power].sum(axis=1)[:, None] * wd[None, :]
    lead = crit[:, 5:6]
    companion = np.zeros((k, 5, 5))
    companion[:, 1:, :-1] = np.eye(4)
    companion[:, :, -1] = -crit[:, :5] / lead
    finite = np.isfinite(companion).all(axis=(1, 2))
    roots = np.full((k, 5), np.nan, dtype=complex)
    if finite.any():
        roots[finite] = np.linalg.eigvals(companion[finite])
    real = np.abs(roots.imag) <= 1e-9 * np.maximum(1.0, np.abs(roots))
    t = np.where(real, roots.real, np.nan)
    t = np.concatenate([t, t_hat[:, None]], axis=1)
    wt = w[0] + w[1] * t + w[2] * t * t
    h = c0[:, None, :] + c1[:, None, :] * t[:, :, None]
    g = (t - t_hat[:, None]) ** 2 + (h * h).sum(axis=2) / wt
    with np.errstate(invalid="ignore"):
        return np.sqrt(np.maximum(np.nanmin(np.where(np.isnan(g), np.inf, g), axis=1), 0.0))


def trio_scores(
    trios: np.ndarray,
    points: np.ndarray,
    chosen: np.ndarray,
    survive: np.ndarray,
    criterion: str,
    freq_b: np.ndarray,
    quads: np.ndarray,
    partners: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The score and number of partners of every trio (nan and 0 where not scored).

    Parameters
    ----------
    trios : ndarray of int, shape (k, 3)
        The candidate trios, each sorted, as pool indices (rows in any order, no repeats).
    points : ndarray, shape (k, 2, 7)
        Both points of each trio's evaluation (:func:`trio_points`).
    chosen : ndarray of int, shape (k,)
        The decoded point of each trio, -1 when none (never scored).
    survive : ndarray of bool, shape (k,)
        The trios to score; the others are still used as other trios of a partner's quad.
    criterion : {"disagreement", "extended_distance", "own_distance"}
        See the module docstring.
    freq_b : ndarray, shape (n,)
        Each pool classifier's frequency of answering the second label.
    quads : ndarray of int, shape (q, 4)
        The sorted 4-cliques of the compatibility graph: every 3 of a quad's members must be
        a row of ``trios``. Unused by ``"own_distance"``.
    partners : int, optional
        Use at most this many partners per trio, the first in pool order.

    Returns
    -------
    score : ndarray, shape (k,)
        Lower is better; ``nan`` for trios not surviving, without a decoded point, or
        without a usable partner.
    used : ndarray of int64, shape (k,)
        How many partners entered each score (0 for ``"own_distance"``).

    Raises
    ------
    SpecError
        An unknown criterion.

    Examples
    --------
    In the module docstring (a simulated independent quad).
    """
    if criterion not in CRITERIA:
        raise SpecError(f"unknown criterion {criterion!r}; known: {', '.join(CRITERIA)}")
    n_tri = len(trios)
    score = np.full(n_tri, np.nan)
    used = np.zeros(n_tri, dtype=np.int64)
    live = survive & (chosen >= 0)
    if not live.any():
        return score, used
    rows = np.flatnonzero(live)
    ref = points[rows, chosen[rows]]  # (r, 7)
    if criterion == "own_distance":
        members = trios[rows]
        score[rows] = containing_distances(ref[:, 0], ref[:, 1::2], ref[:, 2::2], freq_b[members])
        used[rows] = 0
        return score, used
    if not len(quads):
        return score, used
    n = len(freq_b)
    key = (trios[:, 0] * n + trios[:, 1]) * n + trios[:, 2]
    order = np.argsort(key)

    def lookup(rows3: np.ndarray) -> np.ndarray:
        k = (rows3[:, 0] * n + rows3[:, 1]) * n + rows3[:, 2]
        return order[np.searchsorted(key, k, sorter=order)]

    # every (trio, partner) pair: the trio is a quad minus one member, the partner that member
    combos_t, combos_m, combos_q = [], [], []
    for drop in range(4):
        keep = [c for c in range(4) if c != drop]
        combos_t.append(lookup(quads[:, keep]))
        combos_m.append(quads[:, drop])
        combos_q.append(np.arange(len(quads)))
    t_idx = np.concatenate(combos_t)
    m_idx = np.concatenate(combos_m)
    q_idx = np.concatenate(combos_q)
    mask = live[t_idx]
    t_idx, m_idx, q_idx = t_idx[mask], m_idx[mask], q_idx[mask]
    if partners is not None:  # the first ``partners`` partners of each trio, in pool order
        sort = np.lexsort((m_idx, t_idx))
        t_idx, m_idx, q_idx = t_idx[sort], m_idx[sort], q_idx[sort]
        start = np.searchsorted(t_idx, t_idx, side="left")
        keep_rows = (np.arange(len(t_idx)) - start) < partners
        t_idx, m_idx, q_idx = t_idx[keep_rows], m_idx[keep_rows], q_idx[keep_rows]
    if not len(t_idx):
        return score, used

    def values(t_part: np.ndarray, m_part: np.ndarray, q_part: np.ndarray) -> np.ndarray:
        """The criterion for each (trio, partner) pair of a block; nan where no other trio is usable."""
        members = trios[t_part]  # (c, 3)
        reference = points[t_part, chosen[t_part]]  # (c, 7)
        quad = quads[q_part]  # (c, 4)
        prevalence_sum = reference[:, 0].copy()
        prevalence_n = np.ones(len(t_part))
        acc_sum = np.stack([reference[:, 1::2], reference[:, 2::2]], axis=2)  # (c, 3, 2) members of T
        acc_n = np.ones((len(t_part), 3))
        partner_sum = np.zeros((len(t_part), 2))
        partner_n = np.zeros(len(t_part))
        worst = np.full(len(t_part), np.nan)
        arange = np.arange(len(t_part))
        for drop in range(3):  # the other trios drop one member of T
            other = np.stack([quad[arange, c] for c in range(4)], axis=1)
            other = np.where(other == members[:, drop : drop + 1], -1, other)
            other = np.sort(other, axis=1)[:, 1:]  # the quad without T's member ``drop``, sorted
            u = lookup(other)
            cand = points[u]  # (c, 2, 7)
            usable = np.isfinite(cand).all(axis=(1, 2))
            # slot of each member of u inside T (-1 for the partner)
            slot = np.full((len(t_part), 3), -1)
            for s in range(3):
                for r in range(3):
                    slot[:, s] = np.where(other[:, s] == members[:, r], r, slot[:, s])
            gaps = np.abs(cand[:, :, 0] - reference[:, None, 0])
            diffs = [np.abs(cand[:, :, 0] - reference[:, None, 0])]
            for s in range(3):
                shared = slot[:, s] >= 0
                r = np.maximum(slot[:, s], 0)
                for side in range(2):
                    gap = np.abs(cand[:, :, 1 + 2 * s + side] - reference[arange, 1 + 2 * r + side][:, None])
                    gap = np.where(shared[:, None], gap, 0.0)
                    gaps = gaps + gap
                    diffs.append(gap)
            near = np.where(gaps[:, 1] < gaps[:, 0], 1, 0)
            aligned = cand[arange, near]  # (c, 7)
            spread = np.max(np.stack([d[arange, near] for d in diffs], axis=1), axis=1)
            worst = np.where(usable, np.fmax(worst, spread), worst)
            prevalence_sum += np.where(usable, aligned[:, 0], 0.0)
            prevalence_n += usable
            for s in range(3):
                shared = (slot[:, s] >= 0) & usable
                r = np.maximum(slot[:, s], 0)
                pair = np.stack([aligned[:, 1 + 2 * s], aligned[:, 2 + 2 * s]], axis=1)
                acc_sum[arange, r] += np.where(shared[:, None], pair, 0.0)
                acc_n[arange, r] += shared
                is_partner = (slot[:, s] < 0) & usable
                partner_sum += np.where(is_partner[:, None], pair, 0.0)
                partner_n += is_partner
        valid = partner_n > 0
        if criterion == "disagreement":
            value = worst
        else:
            partner_mean = partner_sum / np.maximum(partner_n, 1)[:, None]
            combined_a = np.concatenate([acc_sum[:, :, 0] / acc_n, partner_mean[:, :1]], axis=1)
            combined_b = np.concatenate([acc_sum[:, :, 1] / acc_n, partner_mean[:, 1:]], axis=1)
            who = np.concatenate([members, m_part[:, None]], axis=1)
            value = np.full(len(t_part), np.nan)
            if valid.any():
                value[valid] = containing_distances(
                    (prevalence_sum / prevalence_n)[valid],
                    combined_a[valid],
                    combined_b[valid],
                    freq_b[who[valid]],
                )
        return np.where(valid, value, np.nan)

    step = 1 << 18  # pairs per block: bounded memory for large pools
    value = np.concatenate(
        [
            values(t_idx[k : k + step], m_idx[k : k + step], q_idx[k : k + step])
            for k in range(0, len(t_idx), step)
        ]
    )
    valid = ~np.isnan(value)
    t_idx, value = t_idx[valid], value[valid]
    if not len(t_idx):
        return score, used
    sort = np.lexsort((value, t_idx))
    t_idx, value = t_idx[sort], value[sort]
    # the median of each trio's run of sorted values
    starts = np.flatnonzero(np.concatenate([[True], t_idx[1:] != t_idx[:-1]]))
    sizes = np.diff(np.concatenate([starts, [len(t_idx)]]))
    trio = t_idx[starts]
    score[trio] = (value[starts + (sizes - 1) // 2] + value[starts + sizes // 2]) / 2
    used[trio] = sizes
    return score, used
