r"""The input of the consistency metrics: runs' predictions read into compact label codes.

``p`` runs each predict a label for the same ``N`` items; :class:`Runs` holds them as integer
codes ``0..R-1`` of shape ``(p, N)``, with the answer key (if given) coded alike and the
residuals ``e_i = [y != yhat_i]`` computed on demand. The checks of a metric's name, its
arity ``n`` and the number of subsets a call may visit live here too.

Examples
--------
>>> runs = Runs([["cat", "dog"], ["dog", "dog"]], ["cat", "cat"], True, "ec_l")
>>> runs.codes.tolist(), runs.truth.tolist(), runs.errors.tolist()
([[0, 1], [1, 1]], [0, 0], [[False, True], [True, True]])
>>> check_arity(3, 3, "pa_kappa")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
evalgebra.errors.SpecError: pa_kappa is defined for pairs only (n=2); n-ary metrics: ec_l, ec_g, ec_acc,
pa_acc
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from evalgebra.errors import SketchError, SpecError

__all__ = [
    "METRICS",
    "ERROR_METRICS",
    "PREDICTION_METRICS",
    "N_ARY_METRICS",
    "CLOSED_FORM_METRICS",
    "SURD_METRICS",
    "MAX_SUBSETS",
    "Runs",
    "read_labels",
    "compact_codes",
    "check_metric",
    "check_arity",
    "check_budget",
]

#: Metrics that compare the residuals ``e_i = [y != yhat_i]`` (they need the answer key).
ERROR_METRICS = ("ec_l", "ec_g", "ec_acc", "ec_corr")
#: Metrics that compare the predictions themselves.
PREDICTION_METRICS = ("pa_acc", "pa_kappa", "pa_v")
#: Every metric, error metrics first.
METRICS = ERROR_METRICS + PREDICTION_METRICS
#: Metrics defined for subsets of any size ``n >= 2``; the others are pairwise.
N_ARY_METRICS = ("ec_l", "ec_g", "ec_acc", "pa_acc")
#: Default bound on the subsets a call may visit or store.
MAX_SUBSETS = 10**6
#: Metrics whose mean over subsets has a closed form for every ``n``.
CLOSED_FORM_METRICS = ("ec_g", "ec_acc", "pa_acc")
#: Metrics that are square roots of rationals.
SURD_METRICS = ("ec_corr", "pa_v")


def read_labels(values: Any, what: str) -> tuple[np.ndarray, str]:
    """A label array and its kind (``"int"`` or ``"str"``), or a SketchError.

    Arrays keep their dtype; nested lists are read element by element, so a mix of
    numbers and strings is an error rather than silently turned into strings.
    """
    try:
        arr = np.asarray(values) if hasattr(values, "__array__") else np.asarray(values, dtype=object)
    except ValueError:
        arr = None
    if arr is None or (
        arr.dtype.kind == "O" and any(isinstance(v, (list, tuple, np.ndarray)) for v in arr.ravel().tolist())
    ):
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
        raise SketchError(
            f"{what}: labels must be integer codes or strings; found {odd[0]!r} "
            f"({type(odd[0]).__name__}); convert floats with int() or str()"
        )
    raise SketchError(
        f"{what}: labels must be integer codes or strings, not {arr.dtype} values; "
        "convert floats with .astype(int) or .astype(str)"
    )


def compact_codes(flat: np.ndarray) -> tuple[int, np.ndarray]:
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


class Runs:
    """Predictions as compact label codes ``(p, N)``, the truth as codes (or None)."""

    def __init__(self, predictions: Any, truth: Any, need_truth: bool, what: str) -> None:
        preds, kind = read_labels(predictions, "predictions")
        if preds.ndim != 2:
            raise SketchError(
                f"predictions must have shape (runs, items), one row per run; got {preds.shape}"
            )
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
            labels, truth_kind = read_labels(truth, "truth")
            if labels.ndim != 1 or labels.size != n_items:
                raise SketchError(
                    f"truth must hold one label per item: shape ({n_items},), got {labels.shape}"
                )
            if truth_kind != kind:
                raise SketchError(
                    f"predictions are {kind} labels but truth holds {truth_kind} labels; use one kind"
                )
            flat = np.concatenate([flat, labels])
        self.n_labels, inverse = compact_codes(flat)
        self.codes = inverse[: p * n_items].reshape(p, n_items)
        if truth is not None:
            truth_codes = inverse[p * n_items :]
        self.truth = truth_codes
        self._errors: np.ndarray | None = None

    @property
    def p(self) -> int:
        return int(self.codes.shape[0])

    @property
    def N(self) -> int:  # noqa: N802 - the note's number of samples
        return int(self.codes.shape[1])

    @property
    def errors(self) -> np.ndarray:
        """``e_i = [y != yhat_i]``, boolean ``(p, N)``."""
        if self._errors is None:
            if self.truth is None:
                raise SpecError("the residuals e_i = [y != yhat_i] need truth=")
            self._errors = self.codes != self.truth[None, :]
        return self._errors


def check_metric(metric: Any) -> str:
    """The metric's name in lower case, or a SpecError naming the accepted ones."""
    name = str(metric).lower() if isinstance(metric, str) else None
    if name not in METRICS:
        raise SpecError(f"unknown consistency metric {metric!r}; accepted: {', '.join(METRICS)}")
    return name


def check_arity(n: Any, p: int, name: str) -> int:
    """The subset size ``n`` as an int, checked against ``p`` runs and the metric's arity."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise SpecError(f"n (the subset size) must be an integer, got {n!r}")
    n = int(n)
    if not 2 <= n <= p:
        raise SpecError(f"n must satisfy 2 <= n <= p = {p} (the number of runs), got n={n}")
    if n > 2 and name not in N_ARY_METRICS:
        raise SpecError(f"{name} is defined for pairs only (n=2); n-ary metrics: {', '.join(N_ARY_METRICS)}")
    return n


def check_budget(p: int, n: int, max_subsets: int, name: str) -> int:
    """``C(p, n)``, or a SpecError when it exceeds ``max_subsets``."""
    total = math.comb(p, n)
    if total > max_subsets:
        hint = " or the closed-form mean of consistency()" if name in CLOSED_FORM_METRICS else ""
        raise SpecError(
            f"{name} with p={p}, n={n} visits C(p, n) = {total} subsets, more than "
            f"max_subsets={max_subsets}; raise max_subsets, use a smaller n{hint}"
        )
    return total
