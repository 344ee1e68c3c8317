r"""Decision patterns as integers: ``code = sum_i d_i R^(N-1-i)`` (classifier 0 most significant).

Sorting codes sorts patterns lexicographically (``aaa, aab, aba, ...``), the canonical
pattern order used everywhere in evalgebra.

Examples
--------
>>> import numpy as np
>>> codes = encode(np.array([[0, 0, 1], [1, 1, 1]]), 2)
>>> codes.tolist(), decode(codes, 3, 2).tolist()
([1, 7], [[0, 0, 1], [1, 1, 1]])
"""

from __future__ import annotations

import numpy as np

from evalgebra.errors import SketchError

__all__ = ["encode", "decode", "max_classifiers", "recode"]

_INT64_LIMIT = 2**62


def max_classifiers(n_labels: int) -> int:
    """Largest ``N`` whose ``R^N`` pattern codes fit in a signed 64-bit integer."""
    n = 0
    while n_labels ** (n + 1) <= _INT64_LIMIT:
        n += 1
    return n


def _check_size(n_classifiers: int, n_labels: int) -> None:
    if n_labels**n_classifiers > _INT64_LIMIT:
        raise SketchError(
            f"{n_classifiers} classifiers with {n_labels} labels give {n_labels}^{n_classifiers} "
            f"patterns, more than 64-bit codes hold; at most {max_classifiers(n_labels)} "
            "classifiers are supported for this many labels"
        )


def encode(decisions: np.ndarray, n_labels: int) -> np.ndarray:
    """Integer codes of the rows of an ``items x classifiers`` array of label indices."""
    n_classifiers = decisions.shape[1]
    _check_size(n_classifiers, n_labels)
    codes = np.zeros(decisions.shape[0], dtype=np.int64)
    for i in range(n_classifiers):
        codes *= n_labels
        codes += decisions[:, i]
    return codes


def decode(codes: np.ndarray, n_classifiers: int, n_labels: int) -> np.ndarray:
    """The ``len(codes) x N`` array of label indices of pattern codes."""
    codes = np.asarray(codes, dtype=np.int64)
    digits = np.empty((codes.shape[0], n_classifiers), dtype=np.int64)
    rest = codes.copy()
    for i in range(n_classifiers - 1, -1, -1):
        digits[:, i] = rest % n_labels
        rest //= n_labels
    return digits


def recode(codes: np.ndarray, n_classifiers: int, n_labels: int, keep: list[int]) -> np.ndarray:
    """Codes of the sub-patterns on classifiers ``keep`` (in that order)."""
    return encode(decode(codes, n_classifiers, n_labels)[:, keep], n_labels)
