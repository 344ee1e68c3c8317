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

The seed defines every candidate for a pair (``n = 2``); for ``n > 2`` the set and agreement
metrics extend with the intersection, union and all-equal over ``S``, and reduce to the
seed's formulas at ``n = 2``. The **n-ary consistency** of ``p`` runs is the mean over all
``K = C(p, n)`` subsets (:func:`consistency`); :func:`consistency_values` returns the
per-subset values (the seed's "metric reproducibility distribution") in
:func:`itertools.combinations` order, and :func:`item_consistency` summarises along the runs
first, one value per item, whose mean over items is the same number.

Exactness and undefined values. Every metric but ``ec_corr`` and ``pa_v`` is a ratio of
integer counts, returned as a :class:`~fractions.Fraction` (``exact=None`` or ``True``) or a
float (``exact=False``). ``ec_corr`` and ``pa_v`` are square roots of rationals: per subset
they are exact (:class:`~evalgebra.evaluators.result.QuadraticNumber`, or a Fraction when the
root is rational); their mean is a float. Where the seed's formula is ``0/0`` the value
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

Relation of the error metrics to the evaluation point (``MATH.md`` section 1). Treat the
runs as the classifiers of a labelled test with prevalences ``P_ell``, per-label accuracies
``P_{i,ell} = P_{i,ell|ell}``, total accuracies ``A_i = sum_ell P_ell P_{i,ell}`` and pair
correlations ``G^ell_ij(ell, ell)``. On the items of true label ``ell``, ``e_i = 1 - x_i`` with
``x_i = [ans_i = ell]``, so the residuals there have mean ``1 - P_{i,ell}`` and covariance
``cov_ell(e_i, e_j) = cov_ell(x_i, x_j) = G^ell_ij(ell, ell)`` (for ``R = 2``, ``MATH.md``'s
``G^ell_ij``). Averaging over the labels (law of total covariance)::

    EC_g    = sum_ell P_ell [ (1 - P_{i,ell}) (1 - P_{j,ell}) + G^ell_ij(ell, ell) ]
    cov     = sum_ell P_ell G^ell_ij(ell, ell) + sum_ell P_ell (P_{i,ell} - A_i)(P_{j,ell} - A_j)
    EC_corr = cov / sqrt(A_i (1 - A_i) A_j (1 - A_j))
    EC_acc  = A_i + A_j - 1 + 2 EC_g,        EC_l = EC_g / (2 - A_i - A_j - EC_g)

and ``PA_acc`` is the share of items on which ``i`` and ``j`` answer alike: a sum of the
pair's *unlabelled* sketch frequencies, observable without an answer key. So the pairwise
error metrics are functions of the prevalences, per-label accuracies and the pair's error
correlations. The confusion matrices fix everything but ``G``; the correlations carry the
samplewise information the seed asks for. Two consequences: (i) sample-independent runs
(every ``G = 0``) still have ``EC_corr != 0`` when both runs' accuracies vary with the label
(the second sum: shared label difficulty, not shared errors); (ii) when every accuracy is
flat across labels, ``EC_corr`` is the prevalence-weighted ``G`` over the pooled residual
standard deviations, and on the items of one label it is the Pearson-normalised
``G^ell_ij(ell, ell) / sqrt(P_{i,ell}(1 - P_{i,ell}) P_{j,ell}(1 - P_{j,ell}))``.

Examples
--------
The seed's worked example: two runs with the same confusion matrix (7, 1, 1, 1) that
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
Code names and the seed's symbols:

======================= ==========================================================
code                    seed 003
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

The seed's boundary rules (lines 171-175 for predictions, 226-229 for residuals, 198 for
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

Where the seed and a computation disagree (``MATH.md``: trust the computation):

- worked example (lines 56-129): "80 of which" is 8 of 10; the text's "subjects 7 and 8
  positive, 0 and 9 negative" contradicts its own arrays and tables (6, 7 positive; 8, 9
  negative); "every subject has been classified differently" is 4 of 10 (6-9); "F1-score of
  70%" is the macro F1, ``11/16``; the positive-class F1 is ``7/8``. "60% consistently
  predicted" is right: ``PA_acc = 3/5``.
- lines 456-459 head ``PA_acc`` but write ``PA_kappa``; ``y_i`` there is a run's
  prediction; ``n`` in ``EC_g`` (line 429) is the number of items, not the arity.
- line 157 asks ``C in [0, 1]`` and line 224 ``E >= 0``; ``ec_corr`` and ``pa_kappa`` take
  values in ``[-1, 1]``. The seed leaves the ``0/0`` cases open (conventions above).

References
----------
.. [1] "Samplewise consistency metrics", seed 003: sections "Samplewise Consistency
   Metrics" (boundary rules), "Samplewise Metrics Summarize Along Repetitions" (the mean
   over ``C(p, n)`` subsets) and "Candidate Metrics" (EC_l, EC_g, EC_acc, EC_corr, PA_acc,
   PA_kappa, PA_V).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.result import QuadraticNumber

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

ERROR_METRICS = ("ec_l", "ec_g", "ec_acc", "ec_corr")
PREDICTION_METRICS = ("pa_acc", "pa_kappa", "pa_v")
METRICS = ERROR_METRICS + PREDICTION_METRICS
#: Metrics defined for subsets of any size ``n >= 2``; the others are pairwise.
N_ARY_METRICS = ("ec_l", "ec_g", "ec_acc", "pa_acc")
#: Default bound on the subsets a call may visit or store.
MAX_SUBSETS = 10**6

_CLOSED = ("ec_g", "ec_acc", "pa_acc")  # mean has a closed form for every n
_SURD = ("ec_corr", "pa_v")  # square roots of rationals
_BLOCK = 1 << 22  # elements per vectorised block
_POPCOUNT = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
_PRIMES = tuple(k for k in range(2, 1000) if all(k % d for d in range(2, math.isqrt(k) + 1)))


# -- input ---------------------------------------------------------------------------------
def _labels(values: Any, what: str) -> tuple[np.ndarray, str]:
    """A label array and its kind (``"int"`` or ``"str"``), or a SketchError.

    Arrays keep their dtype; nested lists are read element by element, so a mix of
    numbers and strings is an error rather than silently turned into strings.
    """
    try:
        arr = np.asarray(values) if hasattr(values, "__array__") else np.asarray(values, dtype=object)
    except ValueError:
        arr = None
    if arr is None or (arr.dtype.kind == "O" and any(
        isinstance(v, (list, tuple, np.ndarray)) for v in arr.ravel().tolist()
    )):
        raise SketchError(f"{what} must be rectangular: every run predicts every item once")
    kind = arr.dtype.kind
    if arr.size == 0 or kind in "iub":
        return arr.astype(np.int64), "int"
    if kind in "US":
        return arr.astype(str), "str"
    if kind == "O":
        flat = arr.ravel().tolist()
        if all(isinstance(v, str) for v in flat):
            return arr.astype(str), "str"
        if all(isinstance(v, (int, np.integer)) for v in flat):
            return arr.astype(np.int64), "int"
        odd = [v for v in flat if not isinstance(v, (str, int, np.integer))]
        if not odd:
            raise SketchError(f"{what}: labels must be all integer codes or all strings, not a mix")
        raise SketchError(f"{what}: labels must be integer codes or strings; found {odd[0]!r} "
                          f"({type(odd[0]).__name__}); convert floats with int() or str()")
    raise SketchError(
        f"{what}: labels must be integer codes or strings, not {arr.dtype} values; "
        "convert floats with .astype(int) or .astype(str)"
    )


def _compact(flat: np.ndarray) -> tuple[int, np.ndarray]:
    """Codes ``0..R-1`` of the distinct labels (in sorted order) and ``R``."""
    if flat.dtype.kind == "i":
        low, high = int(flat.min()), int(flat.max())
        if high - low <= max(4 * flat.size, 1 << 16):  # a lookup table beats sorting
            present = np.zeros(high - low + 1, dtype=bool)
            present[flat - low] = True
            table = np.cumsum(present) - 1
            return int(present.sum()), table[flat - low].astype(np.int64)
    names, inverse = np.unique(flat, return_inverse=True)
    return int(names.size), inverse.astype(np.int64).ravel()


class _Runs:
    """Predictions as compact label codes ``(p, N)``, the truth as codes (or None)."""

    def __init__(self, predictions: Any, truth: Any, need_truth: bool, what: str) -> None:
        preds, kind = _labels(predictions, "predictions")
        if preds.ndim != 2:
            raise SketchError(f"predictions must have shape (runs, items), one row per run; got {preds.shape}")
        p, n_items = preds.shape
        if p < 2:
            raise SketchError(f"consistency compares runs: need at least 2 rows, got {p}")
        if n_items == 0:
            raise SketchError("predictions have no items (zero columns)")
        if need_truth and truth is None:
            raise SpecError(f"{what} compares residuals y != yhat_i: give truth= (one label per item)")
        flat = preds.ravel()
        truth_codes = None
        if truth is not None:
            labels, truth_kind = _labels(truth, "truth")
            if labels.ndim != 1 or labels.size != n_items:
                raise SketchError(f"truth must hold one label per item: shape ({n_items},), got {labels.shape}")
            if truth_kind != kind:
                raise SketchError(f"predictions are {kind} labels but truth holds {truth_kind} labels; use one kind")
            flat = np.concatenate([flat, labels])
        self.n_labels, inverse = _compact(flat)
        self.codes = inverse[: p * n_items].reshape(p, n_items)
        if truth is not None:
            truth_codes = inverse[p * n_items:]
        self.truth = truth_codes
        self._errors: np.ndarray | None = None

    @property
    def p(self) -> int:
        return int(self.codes.shape[0])

    @property
    def N(self) -> int:  # noqa: N802 - the seed's number of samples
        return int(self.codes.shape[1])

    @property
    def errors(self) -> np.ndarray:
        """``e_i = [y != yhat_i]``, boolean ``(p, N)``."""
        if self._errors is None:
            if self.truth is None:
                raise SpecError("the residuals e_i = [y != yhat_i] need truth=")
            self._errors = self.codes != self.truth[None, :]
        return self._errors


def _metric(metric: Any) -> str:
    name = str(metric).lower() if isinstance(metric, str) else None
    if name not in METRICS:
        raise SpecError(f"unknown consistency metric {metric!r}; accepted: {', '.join(METRICS)}")
    return name


def _arity(n: Any, p: int, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise SpecError(f"n (the subset size) must be an integer, got {n!r}")
    n = int(n)
    if not 2 <= n <= p:
        raise SpecError(f"n must satisfy 2 <= n <= p = {p} (the number of runs), got n={n}")
    if n > 2 and name not in N_ARY_METRICS:
        raise SpecError(
            f"{name} is defined for pairs only (n=2); n-ary metrics: {', '.join(N_ARY_METRICS)}"
        )
    return n


def _budget(p: int, n: int, max_subsets: int, name: str) -> int:
    total = math.comb(p, n)
    if total > max_subsets:
        hint = " or the closed-form mean of consistency()" if name in _CLOSED else ""
        raise SpecError(
            f"{name} with p={p}, n={n} visits C(p, n) = {total} subsets, more than "
            f"max_subsets={max_subsets}; raise max_subsets, use a smaller n{hint}"
        )
    return total


# -- counting ------------------------------------------------------------------------------
def _combinations(p: int, n: int, chunk: int) -> Iterator[np.ndarray]:
    """Index arrays ``(k, n)`` of the n-subsets of ``range(p)``, itertools order, in chunks."""
    source = itertools.combinations(range(p), n)
    while True:
        block = np.fromiter(
            itertools.chain.from_iterable(itertools.islice(source, chunk)), dtype=np.int64
        )
        if block.size == 0:
            return
        yield block.reshape(-1, n)


def _popcount(packed: np.ndarray) -> np.ndarray:
    return _POPCOUNT[packed].sum(axis=-1)


def _set_counts(runs: _Runs, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``|AND e_S|`` and ``|OR e_S|`` for every n-subset (combinations order)."""
    errors = runs.errors
    p = runs.p
    if n == 2:
        gram = np.zeros((p, p), dtype=np.int64)
        step = 1 << 16  # float32 sums of at most 2**16 ones are exact
        for start in range(0, runs.N, step):
            block = errors[:, start:start + step].astype(np.float32)
            gram += np.rint(block @ block.T).astype(np.int64)
        rows, cols = np.triu_indices(p, 1)
        inter = gram[rows, cols]
        diagonal = np.diag(gram)
        return inter, diagonal[rows] + diagonal[cols] - inter
    packed = np.packbits(errors, axis=1)
    chunk = max(1, _BLOCK // (n * packed.shape[1]))
    inters, unions = [], []
    for index in _combinations(p, n, chunk):
        members = packed[index]
        inters.append(_popcount(np.bitwise_and.reduce(members, axis=1)))
        unions.append(_popcount(np.bitwise_or.reduce(members, axis=1)))
    return np.concatenate(inters), np.concatenate(unions)


def _pair_blocks(p: int, width: int) -> Iterator[tuple[int, int, int, int]]:
    """``(i, j0, j1, offset)``: pairs ``(i, j)``, ``j0 <= j < j1``, start at ``offset``."""
    chunk = max(1, _BLOCK // max(width, 1))
    offset = 0
    for i in range(p - 1):
        for j0 in range(i + 1, p, chunk):
            j1 = min(p, j0 + chunk)
            yield i, j0, j1, offset
            offset += j1 - j0


def _agreements(codes: np.ndarray, n: int) -> np.ndarray:
    """Items on which all runs of each n-subset give one answer (combinations order)."""
    p, n_items = codes.shape
    if n == 2:
        out = np.empty(math.comb(p, 2), dtype=np.int64)
        for i, j0, j1, at in _pair_blocks(p, n_items):
            out[at:at + j1 - j0] = (codes[j0:j1] == codes[i]).sum(axis=1)
        return out
    chunk = max(1, _BLOCK // (n * n_items))
    parts = []
    for index in _combinations(p, n, chunk):
        members = codes[index]
        parts.append((members[:, 1:] == members[:, :1]).all(axis=1).sum(axis=1))
    return np.concatenate(parts)


def _label_counts(runs: _Runs) -> np.ndarray:
    """``(p, R)``: how often each run gives each label."""
    p, r_count = runs.p, runs.n_labels
    keys = (np.arange(p, dtype=np.int64)[:, None] * r_count + runs.codes).ravel()
    return np.bincount(keys, minlength=p * r_count).reshape(p, r_count)


def _ratio_parts(runs: _Runs, name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer numerators and positive denominators of a rational metric per subset."""
    n_items = runs.N
    if name in ERROR_METRICS:
        inter, union = _set_counts(runs, n)
        if name == "ec_l":
            empty = union == 0
            return np.where(empty, 1, inter), np.where(empty, 1, union)
        top = inter if name == "ec_g" else inter + (n_items - union)
        return top, np.full(top.shape, n_items, dtype=np.int64)
    agree = _agreements(runs.codes, n)
    if name == "pa_acc":
        return agree, np.full(agree.shape, n_items, dtype=np.int64)
    counts = _label_counts(runs)  # pa_kappa: (N A - S) / (N^2 - S), S = sum_r c_ir c_jr
    rows, cols = np.triu_indices(runs.p, 1)
    chance = (counts[rows] * counts[cols]).sum(axis=1)
    top, bottom = n_items * agree - chance, n_items * n_items - chance
    constant = bottom == 0  # both runs give one and the same label everywhere
    return np.where(constant, 1, top), np.where(constant, 1, bottom)


def _surd_parts(runs: _Runs, name: str, exact: bool) -> np.ndarray:
    """Per pair: float values (nan undefined) or exact values (None undefined)."""
    p, n_items = runs.p, runs.N
    if name == "ec_corr":
        inter, _ = _set_counts(runs, 2)
        rows, cols = np.triu_indices(p, 1)
        wrong = runs.errors.sum(axis=1).astype(np.int64)
        a, b = wrong[rows], wrong[cols]
        equal_constant = (a == b) & ((a == 0) | (a == n_items))
        if not exact:
            top = n_items * inter.astype(np.float64) - a.astype(np.float64) * b
            spread_a = a * (n_items - a).astype(np.float64)
            spread = np.sqrt(spread_a * (b * (n_items - b).astype(np.float64)))  # one root: exact
            with np.errstate(divide="ignore", invalid="ignore"):
                value = np.clip(top / spread, -1.0, 1.0)
            value[(inter == a) & (inter == b)] = 1.0  # equal residuals: exactly 1, not 1 - ulp
            value[(inter == 0) & (a + b == n_items)] = -1.0  # complementary residuals
            value[spread == 0] = np.nan
            value[equal_constant] = 1.0
            return value
        out = np.empty(inter.size, dtype=object)
        columns = zip(inter.tolist(), a.tolist(), b.tolist(), equal_constant.tolist())
        for k, (both, ai, bj, same) in enumerate(columns):
            spread_sq = ai * (n_items - ai) * bj * (n_items - bj)
            if same:
                out[k] = Fraction(1)
            elif spread_sq == 0:
                out[k] = None
            else:
                top = n_items * both - ai * bj
                out[k] = _signed_root((top > 0) - (top < 0), Fraction(top * top, spread_sq))
        return out
    return _cramers_v(runs, exact)


def _signed_root(sign: int, square: Fraction) -> Fraction | QuadraticNumber:
    """``sign * sqrt(square)`` exactly: a Fraction when the root is rational.

    ``sqrt(a/b) = s sqrt(r) / b`` with ``a b = s**2 r``; the squares of the primes below 1000
    are taken out of ``r`` (a tidy form, not a proof that ``r`` is square-free: compare exact
    values by their squares, ``v * v``, which are Fractions).
    """
    if square == 0:
        return Fraction(0)
    radicand, scale = square.numerator * square.denominator, 1
    for prime in _PRIMES:
        if prime * prime > radicand:
            break
        while radicand % (prime * prime) == 0:
            radicand //= prime * prime
            scale *= prime
    root = math.isqrt(radicand)
    if root * root == radicand:
        return Fraction(sign * scale * root, square.denominator)
    return QuadraticNumber(0, Fraction(sign * scale, square.denominator), radicand)


def _cramers_v(runs: _Runs, exact: bool) -> np.ndarray:
    """Cramer's V of every pair from its contingency table (nonempty rows and columns)."""
    p, r_count = runs.p, runs.n_labels
    codes = runs.codes
    cells = r_count * r_count
    out = np.empty(math.comb(p, 2), dtype=object if exact else np.float64)
    for i, j0, j1, at in _pair_blocks(p, max(runs.N, cells)):
        m = j1 - j0
        keys = (np.arange(m, dtype=np.int64)[:, None] * cells + codes[i] * r_count + codes[j0:j1]).ravel()
        tables = np.bincount(keys, minlength=m * cells).reshape(m, r_count, r_count)
        row, col = tables.sum(axis=2), tables.sum(axis=1)
        shared = np.minimum((row > 0).sum(axis=1), (col > 0).sum(axis=1))
        same_constant = (shared == 1) & (np.einsum("kaa->k", tables) == runs.N)
        if not exact:
            outer = row[:, :, None].astype(np.float64) * col[:, None, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                s = np.where(tables > 0, tables.astype(np.float64) ** 2 / outer, 0.0).sum(axis=(1, 2))
                square = (s - 1.0) / (shared - 1)
            value = np.sqrt(np.clip(square, 0.0, 1.0))
            value[np.einsum("kaa->k", tables) == runs.N] = 1.0  # identical runs: exactly 1
            value[shared < 2] = np.nan
            value[same_constant] = 1.0
            out[at:at + m] = value
            continue
        for k in range(m):
            if same_constant[k]:
                out[at + k] = Fraction(1)
            elif shared[k] < 2:
                out[at + k] = None
            else:
                a_idx, b_idx = np.nonzero(tables[k])
                s = sum(
                    (Fraction(int(tables[k, a, b]) ** 2, int(row[k, a]) * int(col[k, b]))
                     for a, b in zip(a_idx.tolist(), b_idx.tolist())),
                    Fraction(0),
                )
                out[at + k] = _signed_root(1, (s - 1) / (int(shared[k]) - 1))
    return out


def _closed_form(runs: _Runs, name: str) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Blocks of runs a subset must lie in to count on an item, in chunks of items.

    Yields ``(item, size)`` arrays: for each item, the size of each block: ``ec_g`` the runs
    erring there, ``ec_acc`` the erring and the correct runs, ``pa_acc`` the runs giving
    each label. A subset counts on the item iff it lies inside one block.
    """
    p, n_items, r_count = runs.p, runs.N, runs.n_labels
    step = max(1, _BLOCK // p)
    for first in range(0, n_items, step):
        last = min(n_items, first + step)
        items = np.arange(first, last, dtype=np.int64)
        if name in ("ec_g", "ec_acc"):
            wrong = runs.errors[:, first:last].sum(axis=0).astype(np.int64)
            if name == "ec_g":
                yield items, wrong
            else:
                yield np.concatenate([items, items]), np.concatenate([wrong, p - wrong])
            continue
        keys = np.sort((items * r_count + runs.codes[:, first:last]).ravel())
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        yield keys[starts] // r_count, np.diff(np.r_[starts, keys.size])


def _closed_mean(runs: _Runs, name: str, n: int) -> Fraction:
    histogram = np.zeros(runs.p + 1, dtype=np.int64)
    for _, sizes in _closed_form(runs, name):
        histogram += np.bincount(sizes, minlength=runs.p + 1)
    total = sum(int(h) * math.comb(m, n) for m, h in enumerate(histogram.tolist()) if h)
    return Fraction(total, runs.N * math.comb(runs.p, n))


def _exact_mean(top: np.ndarray, bottom: np.ndarray) -> Fraction:
    """Mean of ``top / bottom`` exactly.

    Numerators over one denominator are added as integers first, then the Fractions are
    summed pairwise (a balanced tree keeps the big-integer gcds small until the end).
    """
    denominators, where = np.unique(bottom, return_inverse=True)
    numerators = np.zeros(denominators.size, dtype=object)
    np.add.at(numerators, where.ravel(), top.astype(object))
    terms = [Fraction(int(a), int(b)) for a, b in zip(numerators.tolist(), denominators.tolist())]
    while len(terms) > 1:
        terms = [sum(terms[k:k + 2], Fraction(0)) for k in range(0, len(terms), 2)]
    return terms[0] / int(top.size)


def _float_mean(values: np.ndarray, skip_undefined: bool) -> float | None:
    defined = ~np.isnan(values)
    if not defined.all() and not skip_undefined:
        return None
    return float(values[defined].mean()) if defined.any() else None


# -- public API ----------------------------------------------------------------------------
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
        One of :data:`METRICS` (case-insensitive): ``ec_l``, ``ec_g``, ``ec_acc``,
        ``ec_corr``, ``pa_acc``, ``pa_kappa``, ``pa_v``.
    truth : array_like, shape (N,), optional
        The answer key, labels of the same kind; required by the ``ec_*`` metrics. To
        compare residual vectors you already have, pass them as ``predictions`` with
        ``truth`` all zero.
    n : int
        Subset size, ``2 <= n <= p``; ``n > 2`` only for :data:`N_ARY_METRICS`.
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
    ``(1/K) sum_{S in C(Y, n)} m(S)``, ``K = C(p, n)`` (seed 003, "Samplewise Metrics Summarize
    Along Repetitions"); closed forms and costs in the module notes. The exact mean of ``ec_l``
    or ``pa_kappa`` has the LCM of many denominators (``p = 200``: about 0.3 s more than the
    counting): for hundreds of runs prefer ``exact=False``.

    References
    ----------
    .. [1] "Samplewise consistency metrics", seed 003, "Candidate Metrics".
    """
    name = _metric(metric)
    runs = _Runs(predictions, truth, name in ERROR_METRICS, name)
    return _mean(runs, name, n, exact, skip_undefined, max_subsets)


def _mean(
    runs: _Runs, name: str, n: Any, exact: bool | None, skip_undefined: bool, max_subsets: int
) -> Fraction | float | None:
    n = _arity(n, runs.p, name)
    if exact and name in _SURD:
        raise SpecError(
            f"the mean of {name} is a sum of square roots, not exact in evalgebra's types; use "
            "exact=None (a float) or consistency_values(..., exact=True) for exact per-pair values"
        )
    if name in _CLOSED:
        value = _closed_mean(runs, name, n)
        return float(value) if exact is False else value
    _budget(runs.p, n, max_subsets, name)
    if name in _SURD:
        return _float_mean(_surd_parts(runs, name, exact=False), skip_undefined)
    top, bottom = _ratio_parts(runs, name, n)
    if exact is False:
        return float(np.mean(top / bottom))
    return _exact_mean(top, bottom)


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
        and ``pa_v`` a :class:`~evalgebra.evaluators.result.QuadraticNumber` unless the
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
    The seed's pairwise distribution ``{m_ij : i > j}`` ("Paired Samplewise Consistency
    Metrics"); any summary of it is a reproducibility metric, the mean being
    :func:`consistency`.
    """
    name = _metric(metric)
    runs = _Runs(predictions, truth, name in ERROR_METRICS, name)
    n = _arity(n, runs.p, name)
    _budget(runs.p, n, max_subsets, name)
    if name in _SURD:
        return _surd_parts(runs, name, exact=exact is not False)
    top, bottom = _ratio_parts(runs, name, n)
    if exact is False:
        return top / bottom
    out = np.empty(top.size, dtype=object)
    out[:] = [Fraction(int(a), int(b)) for a, b in zip(top.tolist(), bottom.tolist())]
    return out


def item_consistency(
    predictions: Any,
    metric: str = "pa_acc",
    truth: Any = None,
    *,
    n: int = 2,
    exact: bool | None = None,
) -> np.ndarray:
    r"""Per item: the share of n-subsets of runs that agree there (for ``ec_g``: all err there).

    ``pa_acc`` counts subsets giving one answer, ``ec_acc`` subsets all right or all wrong,
    ``ec_g`` subsets all wrong. This is the seed's other order of summary: first along the runs, one value per item,
    then (by the caller) over the items; the mean over items equals :func:`consistency`.
    It names the individuals a model treats inconsistently, which aggregate metrics hide.

    Parameters
    ----------
    predictions, truth, n
        As in :func:`consistency`.
    metric : {"pa_acc", "ec_acc", "ec_g"}
        The metrics that decompose over items.
    exact : bool, optional
        ``None``/``True``: Fractions (object array); ``False``: floats.

    Returns
    -------
    numpy.ndarray, shape (N,)

    Examples
    --------
    >>> runs = [[1, 1, 0, 1], [1, 0, 0, 1], [1, 1, 1, 0]]
    >>> item_consistency(runs).tolist()
    [Fraction(1, 1), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    >>> item_consistency(runs, "ec_g", truth=[1, 1, 1, 1], exact=False).round(3).tolist()
    [0.0, 0.0, 0.333, 0.0]
    """
    name = _metric(metric)
    if name not in _CLOSED:
        raise SpecError(
            f"{name} does not decompose over items; item_consistency accepts {', '.join(_CLOSED)}"
        )
    runs = _Runs(predictions, truth, name in ERROR_METRICS, name)
    n = _arity(n, runs.p, name)
    subsets = math.comb(runs.p, n)
    if exact is False:
        weights = np.array([math.comb(m, n) for m in range(runs.p + 1)], dtype=np.float64)
        totals = np.zeros(runs.N, dtype=np.float64)
        for items, sizes in _closed_form(runs, name):
            totals += np.bincount(items, weights=weights[sizes], minlength=runs.N)
        return totals / subsets
    combs = np.array([math.comb(m, n) for m in range(runs.p + 1)], dtype=object)
    exact_totals = np.zeros(runs.N, dtype=object)
    for items, sizes in _closed_form(runs, name):
        np.add.at(exact_totals, items, combs[sizes])
    out = np.empty(runs.N, dtype=object)
    out[:] = [Fraction(int(t), subsets) for t in exact_totals]
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
        Metric name -> value, in :data:`METRICS` order.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
    >>> runs = [[1, 1, 1, 1, 1, 1, 0, 1, 0, 1], [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]]
    >>> {k: str(v) for k, v in consistency_metrics(runs, y).items()}
    {'ec_l': '0', 'ec_g': '0', 'ec_acc': '3/5', 'ec_corr': '-0.25', 'pa_acc': '3/5', 'pa_kappa': '-1/4', 'pa_v': '0.25'}
    """
    runs = _Runs(predictions, truth, False, "consistency_metrics")
    names = [m for m in METRICS if truth is not None or m not in ERROR_METRICS]
    if _arity(n, runs.p, "pa_acc") != 2:
        names = [m for m in names if m in N_ARY_METRICS]
    mode = None if exact else False
    return {m: _mean(runs, m, n, mode, skip_undefined, max_subsets) for m in names}
