r"""Samplewise consistency metrics: how reproducible repeated predictions are, item by item.

``p`` runs (retrainings, bootstrap fits, perturbed hyperparameters, ...) each predict a label
for the same ``N`` items: ``predictions`` has shape ``(p, N)``, one row per run, labels given
as integer codes or as strings. A consistency metric compares the runs *item by item*, so
unlike accuracy or a confusion matrix it sees whether the *same* items are predicted the same
way. The error-based metrics also need the answer key ``truth`` (length ``N``) and compare
the residual vectors ``e_i = [y != yhat_i]``. Any number of labels is allowed.

============== ============================================== ===== ===========
metric         value on one subset ``S`` of ``n`` runs        arity range
============== ============================================== ===== ===========
``ec_l``       ``|AND e_S| / |OR e_S|`` (local; Jaccard)       any   ``[0, 1]``
``ec_g``       ``|AND e_S| / N`` (global)                      any   ``[0, 1]``
``ec_acc``     share of items where all ``e_i`` agree          any   ``[0, 1]``
``ec_corr``    Pearson correlation of ``e_i`` and ``e_j``      2     ``[-1, 1]``
``pa_acc``     share of items where all runs agree             any   ``[0, 1]``
``pa_kappa``   Cohen's kappa of ``yhat_i`` and ``yhat_j``      2     ``[-1, 1]``
``pa_v``       Cramer's V of ``yhat_i`` and ``yhat_j``         2     ``[0, 1]``
============== ============================================== ===== ===========

The consistency-metrics note [1]_ defines every candidate for a pair (``n = 2``); for ``n > 2`` the
set and agreement metrics extend with the intersection, union and all-equal over ``S``, and reduce to the
note's formulas at ``n = 2``. The **n-ary consistency** of ``p`` runs is the mean over all
``K = C(p, n)`` subsets (:func:`consistency`); :func:`consistency_values` returns the
per-subset values (the note's "metric reproducibility distribution") in
:func:`itertools.combinations` order, and :func:`item_consistency` summarises along the runs
first, one value per item, whose mean over items is the same number.

Exactness and undefined values. Every metric but ``ec_corr`` and ``pa_v`` is a ratio of
integer counts, returned as a :class:`~fractions.Fraction` (``exact=None`` or ``True``) or a
float (``exact=False``). ``ec_corr`` and ``pa_v`` are square roots of rationals: per subset
they are exact (:class:`~evalgebra.numbers.quadratic.QuadraticNumber`, or a Fraction when the
root is rational); their mean is a float. Where the note's formula is ``0/0`` the value
follows its boundary rule "identical vectors score 1": ``ec_l`` of two error-free runs,
``pa_kappa``, ``ec_corr`` and ``pa_v`` of two identical constant vectors are 1. ``ec_corr``
with one constant residual vector otherwise, and ``pa_v`` of a run that always predicts one
label otherwise, are undefined: ``None`` (``nan`` in float arrays); a mean over subsets with
an undefined value is ``None`` unless ``skip_undefined=True``.

Cost (``p`` runs, ``N`` items, ``R`` labels). ``ec_g``, ``ec_acc`` and ``pa_acc`` have a
closed form for every ``n``: a subset agrees on an item iff it lies inside the runs that gave
one answer there, so ``mean_S |AND e_S| = sum_k C(c_k, n) / C(p, n)`` with ``c_k`` the runs
erring on item ``k`` (and ``sum_r C(m_kr, n)`` for ``m_kr`` runs answering ``r``): ``O(pN)``,
exact, no subset is visited. Pairwise values cost ``O(p^2 N)`` in vectorised blocks (a
matrix product for the residuals, ``bincount`` contingency tables for ``pa_kappa``,
``pa_v``). ``ec_l`` for ``n > 2`` and :func:`consistency_values` visit every subset, in chunks,
on bit-packed residuals: ``O(C(p, n) n N / 8)`` byte operations. Anything that visits or
stores more than ``max_subsets`` subsets (default ``10**6``) raises :class:`SpecError` first.

Relation of the error metrics to the evaluation point (``docs/theory.md``, "Samplewise consistency
metrics"). Treat the runs as the classifiers of a labelled test with prevalences ``P_ell``,
per-label accuracies ``P_{i,ell} = P_{i,ell|ell}``, total accuracies ``A_i = sum_ell P_ell P_{i,ell}``
and pair correlations ``G^ell_ij(ell, ell)``. On the items of true label ``ell``, ``e_i = 1 - x_i`` with
``x_i = [ans_i = ell]``, so the residuals there have mean ``1 - P_{i,ell}`` and covariance
``cov_ell(e_i, e_j) = cov_ell(x_i, x_j) = G^ell_ij(ell, ell)`` (for ``R = 2``, the
``G^ell_ij`` of ``docs/theory.md``). Averaging over the labels (law of total covariance)::

    EC_g    = sum_ell P_ell [ (1 - P_{i,ell}) (1 - P_{j,ell}) + G^ell_ij(ell, ell) ]
    cov     = sum_ell P_ell G^ell_ij(ell, ell) + sum_ell P_ell (P_{i,ell} - A_i)(P_{j,ell} - A_j)
    EC_corr = cov / sqrt(A_i (1 - A_i) A_j (1 - A_j))
    EC_acc  = A_i + A_j - 1 + 2 EC_g,        EC_l = EC_g / (2 - A_i - A_j - EC_g)

and ``PA_acc`` is the share of items on which ``i`` and ``j`` answer alike: a sum of the
pair's *unlabelled* sketch frequencies, observable without an answer key. So the pairwise
error metrics are functions of the prevalences, per-label accuracies and the pair's error
correlations. The confusion matrices fix everything but ``G``; the correlations carry the
samplewise information the note asks for. Two consequences: (i) sample-independent runs
(every ``G = 0``) still have ``EC_corr != 0`` when both runs' accuracies vary with the label
(the second sum: shared label difficulty, not shared errors); (ii) when every accuracy is
flat across labels, ``EC_corr`` is the prevalence-weighted ``G`` over the pooled residual
standard deviations, and on the items of one label it is the Pearson-normalised
``G^ell_ij(ell, ell) / sqrt(P_{i,ell}(1 - P_{i,ell}) P_{j,ell}(1 - P_{j,ell}))``.

Examples
--------
The note's worked example: two runs with the same confusion matrix (7, 1, 1, 1) that
predict four of ten subjects differently.

>>> y = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
>>> runs = [[1, 1, 1, 1, 1, 1, 0, 1, 0, 1],
...         [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]]
>>> consistency(runs, "pa_acc")
Fraction(3, 5)
>>> consistency(runs, "ec_l", truth=y), consistency(runs, "pa_kappa")
(Fraction(0, 1), Fraction(-1, 4))
>>> consistency([runs[0], runs[0]], "pa_kappa")
Fraction(1, 1)

Notes
-----
Code names and the note's symbols:

======================= ==========================================================
code                    the note
======================= ==========================================================
``predictions[i]``      ``yhat_i`` (a run's prediction vector, ``y_i`` in the
                        "Candidate Metrics" section)
``truth``               ``y``
``p``, ``N``            ``p`` (or ``tau``) runs, ``N`` samples (``n`` in ``EC_g``)
``n``, ``K``            arity ``n``, ``K = C(p, n)`` subsets
errors / residuals      ``e_i = r_i = [y != yhat_i]``
``consistency``         the mean of ``C`` over ``C(Y, n)``
``consistency_values``  ``{m_ij}``, the pairwise reproducibility distribution
``item_consistency``    "summarise along the repetition dimension first"
======================= ==========================================================

The note's boundary rules (lines 171-175 for predictions, 226-229 for residuals, 198 for
accuracy), metric by metric, as the tests check them:

============ ====================== =============================== ========================
metric       1 exactly when         0 exactly when                  tends to 1 with accuracy
============ ====================== =============================== ========================
``ec_l``     residuals all equal    no subset errs together on an   no: disjoint errors give 0
                                    item, each errs somewhere
``ec_g``     all runs always wrong  no subset errs together on an   no: it tends to 0
                                    item
``ec_acc``   residuals all equal    (pairs) complementary residuals yes, ``>= 1 - n (1 - a)``
``ec_corr``  residuals all equal    uncorrelated; ``-1`` at         no
                                    complementary residuals
``pa_acc``   runs all identical     (pairs) perfect disagreement;   yes, ``>= 1 - n (1 - a)``
                                    for ``n >= 3`` also without it
``pa_kappa`` runs identical         chance agreement; perfect       yes, unless one label
                                    disagreement gives              dominates
                                    ``-p_e / (1 - p_e)``
``pa_v``     any relabelling, even  no association (undefined for   no
             total disagreement     a constant run)
============ ====================== =============================== ========================

So only ``ec_l``, ``ec_acc`` and ``ec_corr`` meet the residual rule (``ec_g`` does not:
equal residuals score their error rate, and ``ec_corr`` leaves ``[0, 1]``), and only
``pa_acc`` meets the prediction rules, for pairs.

Where the note and a computation disagree (we trust the computation):

- worked example (lines 56-129): "80 of which" is 8 of 10; the text's "subjects 7 and 8
  positive, 0 and 9 negative" contradicts its own arrays and tables (6, 7 positive; 8, 9
  negative); "every subject has been classified differently" is 4 of 10 (6-9); "F1-score of
  70%" is the macro F1, ``11/16``; the positive-class F1 is ``7/8``. "60% consistently
  predicted" is right: ``PA_acc = 3/5``.
- lines 456-459 head ``PA_acc`` but write ``PA_kappa``; ``y_i`` there is a run's
  prediction; ``n`` in ``EC_g`` (line 429) is the number of items, not the arity.
- line 157 asks ``C in [0, 1]`` and line 224 ``E >= 0``; ``ec_corr`` and ``pa_kappa`` take
  values in ``[-1, 1]``. The note leaves the ``0/0`` cases open (conventions above).

References
----------
.. [1] "Samplewise consistency metrics", an untitled draft note: sections "Samplewise Consistency
   Metrics" (boundary rules), "Samplewise Metrics Summarize Along Repetitions" (the mean
   over ``C(p, n)`` subsets) and "Candidate Metrics" (EC_l, EC_g, EC_acc, EC_corr, PA_acc,
   PA_kappa, PA_V).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.samplewise.counting import closed_mean, exact_mean, float_mean, ratio_parts, surd_parts
from evalgebra.samplewise.items import item_consistency
from evalgebra.samplewise.runs import (
    CLOSED_FORM_METRICS,
    ERROR_METRICS,
    MAX_SUBSETS,
    METRICS,
    N_ARY_METRICS,
    PREDICTION_METRICS,
    SURD_METRICS,
    Runs,
    check_arity,
    check_budget,
    check_metric,
)

__all__ = [
    "METRICS",
    "ERROR_METRICS",
    "PREDICTION_METRICS",
    "N_ARY_METRICS",
    "MAX_SUBSETS",
    "consistency",
    "consistency_values",
    "consistency_metrics",
    "item_consistency",
]


def consistency(
    predictions: Any,
    metric: str,
    truth: Any = None,
    *,
    n: int = 2,
    exact: bool | None = None,
    skip_undefined: bool = False,
    max_subsets: int = MAX_SUBSETS,
) -> Fraction | float | None:
    r"""The n-ary samplewise consistency of ``p`` runs: a metric's mean over all ``C(p, n)`` subsets.

    Parameters
    ----------
    predictions : array_like, shape (p, N)
        One row per run, one column per item: integer label codes or strings.
    metric : str
        One of :data:`~evalgebra.samplewise.runs.METRICS` (case-insensitive): ``ec_l``, ``ec_g``, ``ec_acc``,
        ``ec_corr``, ``pa_acc``, ``pa_kappa``, ``pa_v``.
    truth : array_like, shape (N,), optional
        The answer key, labels of the same kind; required by the ``ec_*`` metrics. To
        compare residual vectors you already have, pass them as ``predictions`` with
        ``truth`` all zero.
    n : int
        Subset size, ``2 <= n <= p``; ``n > 2`` only for :data:`~evalgebra.samplewise.runs.N_ARY_METRICS`.
    exact : bool, optional
        ``None``: a Fraction where the metric is rational, a float for ``ec_corr`` and
        ``pa_v``. ``True``: a Fraction (not available for ``ec_corr``, ``pa_v``).
        ``False``: a float.
    skip_undefined : bool
        Average over the subsets where the metric is defined instead of returning None.
    max_subsets : int
        Refuse (SpecError) computations that visit more subsets than this.

    Returns
    -------
    Fraction, float or None
        None when a subset's value is undefined (see the module notes).

    Raises
    ------
    SpecError
        Unknown metric, bad ``n``, missing truth, ``exact=True`` for a square-root metric,
        too many subsets.
    SketchError
        Predictions or truth of the wrong shape or kind.

    Examples
    --------
    >>> runs = [["cat", "dog", "dog", "cat"],
    ...         ["cat", "dog", "cat", "cat"],
    ...         ["dog", "dog", "cat", "cat"]]
    >>> consistency(runs, "pa_acc"), consistency(runs, "pa_acc", n=3)
    (Fraction(2, 3), Fraction(1, 2))
    >>> truth = ["cat", "dog", "dog", "dog"]
    >>> consistency(runs, "ec_l", truth), consistency(runs, "ec_g", truth, n=3)
    (Fraction(1, 2), Fraction(1, 4))
    >>> round(consistency(runs, "ec_corr", truth), 6)      # a mean of square roots
    0.496011
    >>> consistency(runs[:2], "ec_corr", ["cat", "dog", "dog", "cat"]) is None  # run 0 never errs
    True

    Notes
    -----
    ``(1/K) sum_{S in C(Y, n)} m(S)``, ``K = C(p, n)`` (the consistency-metrics note, "Samplewise
    Metrics Summarize Along Repetitions"); closed forms and costs in the module notes. The exact mean
    of ``ec_l`` or ``pa_kappa`` has the LCM of many denominators (``p = 200``: about 0.3 s more than the
    counting): for hundreds of runs prefer ``exact=False``.

    References
    ----------
    .. [1] "Samplewise consistency metrics", an untitled draft note, "Candidate Metrics".
    """
    name = check_metric(metric)
    runs = Runs(predictions, truth, name in ERROR_METRICS, name)
    return _mean(runs, name, n, exact, skip_undefined, max_subsets)


def _mean(
    runs: Runs, name: str, n: Any, exact: bool | None, skip_undefined: bool, max_subsets: int
) -> Fraction | float | None:
    n = check_arity(n, runs.p, name)
    if exact and name in SURD_METRICS:
        raise SpecError(
            f"the mean of {name} is a sum of square roots, not exact in evalgebra's types; use "
            "exact=None (a float) or consistency_values(..., exact=True) for exact per-pair values"
        )
    if name in CLOSED_FORM_METRICS:
        value = closed_mean(runs, name, n)
        return float(value) if exact is False else value
    check_budget(runs.p, n, max_subsets, name)
    if name in SURD_METRICS:
        return float_mean(surd_parts(runs, name, exact=False), skip_undefined)
    top, bottom = ratio_parts(runs, name, n)
    if exact is False:
        return float(np.mean(top / bottom))
    return exact_mean(top, bottom)


def consistency_values(
    predictions: Any,
    metric: str,
    truth: Any = None,
    *,
    n: int = 2,
    exact: bool | None = None,
    max_subsets: int = MAX_SUBSETS,
) -> np.ndarray:
    r"""The metric on every n-subset of the runs: the reproducibility distribution.

    Parameters
    ----------
    predictions, metric, truth, n, max_subsets
        As in :func:`consistency`.
    exact : bool, optional
        ``None`` or ``True``: an object array of exact values (Fractions; for ``ec_corr``
        and ``pa_v`` a :class:`~evalgebra.numbers.quadratic.QuadraticNumber` unless the
        root is rational) with ``None`` where undefined. ``False``: floats, ``nan`` where
        undefined.

    Returns
    -------
    numpy.ndarray, shape (C(p, n),)
        Subset ``k`` is the ``k``-th tuple of ``itertools.combinations(range(p), n)``; for
        ``n = 2`` that is the order of ``numpy.triu_indices(p, 1)``.

    Examples
    --------
    >>> runs = [[0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 0, 0]]
    >>> consistency_values(runs, "pa_acc").tolist()
    [Fraction(3, 4), Fraction(1, 2), Fraction(3, 4)]
    >>> consistency_values(runs, "pa_v").tolist()
    [QuadraticNumber(sqrt(3)/3), Fraction(0, 1), QuadraticNumber(sqrt(3)/3)]
    >>> consistency_values(runs, "pa_v", exact=False).round(4).tolist()
    [0.5774, 0.0, 0.5774]

    Notes
    -----
    The note's pairwise distribution ``{m_ij : i > j}`` ("Paired Samplewise Consistency
    Metrics"); any summary of it is a reproducibility metric, the mean being
    :func:`consistency`.
    """
    name = check_metric(metric)
    runs = Runs(predictions, truth, name in ERROR_METRICS, name)
    n = check_arity(n, runs.p, name)
    check_budget(runs.p, n, max_subsets, name)
    if name in SURD_METRICS:
        return surd_parts(runs, name, exact=exact is not False)
    top, bottom = ratio_parts(runs, name, n)
    if exact is False:
        return top / bottom
    out = np.empty(top.size, dtype=object)
    out[:] = [Fraction(int(a), int(b)) for a, b in zip(top.tolist(), bottom.tolist())]
    return out


def consistency_metrics(
    predictions: Any,
    truth: Any = None,
    *,
    n: int = 2,
    exact: bool = True,
    skip_undefined: bool = False,
    max_subsets: int = MAX_SUBSETS,
) -> dict[str, Fraction | float | None]:
    r"""Every applicable metric at once.

    The error metrics when ``truth`` is given; the pairwise ones only when ``n = 2``.

    Parameters
    ----------
    predictions, truth, n, skip_undefined, max_subsets
        As in :func:`consistency`.
    exact : bool
        ``True``: Fractions for the rational metrics (``ec_corr``, ``pa_v`` are floats);
        ``False``: floats throughout.

    Returns
    -------
    dict
        Metric name -> value, in :data:`~evalgebra.samplewise.runs.METRICS` order.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
    >>> runs = [[1, 1, 1, 1, 1, 1, 0, 1, 0, 1], [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]]
    >>> {k: str(v) for k, v in consistency_metrics(runs, y).items()}  # doctest: +NORMALIZE_WHITESPACE
    {'ec_l': '0', 'ec_g': '0', 'ec_acc': '3/5', 'ec_corr': '-0.25', 'pa_acc': '3/5', 'pa_kappa': '-1/4',
     'pa_v': '0.25'}
    """
    runs = Runs(predictions, truth, False, "consistency_metrics")
    names = [m for m in METRICS if truth is not None or m not in ERROR_METRICS]
    if check_arity(n, runs.p, "pa_acc") != 2:
        names = [m for m in names if m in N_ARY_METRICS]
    mode = None if exact else False
    return {m: _mean(runs, m, n, mode, skip_undefined, max_subsets) for m in names}
