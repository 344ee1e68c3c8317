r"""Decision patterns as integers: ``code = sum_i d_i R^(N-1-i)`` (classifier 0 most significant).

Sorting codes sorts patterns lexicographically (``aaa, aab, aba, ...``), the canonical
pattern order used everywhere in evalgebra.

:func:`encode` and :func:`count_patterns` read the decisions in blocks of rows small
enough to stay in cache, in whatever integer dtype they come in (no ``int64`` copy of the
input), with one multiply-add per classifier (Horner's rule); :func:`count_patterns`
counts each block with ``numpy.bincount`` and never materialises the per-item codes.
Both trust their input: label indices in ``0..R-1`` (callers validate them first).

Examples
--------
>>> import numpy as np
>>> codes = encode(np.array([[0, 0, 1], [1, 1, 1]]), 2)
>>> codes.tolist(), decode(codes, 3, 2).tolist()
([1, 7], [[0, 0, 1], [1, 1, 1]])
>>> count_patterns(np.array([[0, 1], [1, 1], [0, 1]], dtype=np.int8), 2).tolist()
[0, 2, 0, 1]
"""

from __future__ import annotations

import numpy as np

from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int

__all__ = ["encode", "decode", "count_patterns", "check_size", "max_classifiers", "recode"]

_INT64_LIMIT = 2**62
#: Bytes of decisions (plus their codes) per block: well inside a core's L2 cache.
_BLOCK_BYTES = 1 << 20
_MIN_BLOCK_ROWS = 1 << 12


def max_classifiers(n_labels: int) -> int:
    """Largest ``N`` whose ``R^N`` pattern codes fit in a signed 64-bit integer."""
    if n_labels < 2:
        raise SketchError(f"need at least 2 labels, got {n_labels}")
    n = 0
    while n_labels ** (n + 1) <= _INT64_LIMIT:
        n += 1
    return n


def check_size(n_classifiers: int, n_labels: int) -> None:
    """Raise :class:`~evalgebra.errors.SketchError` when ``R^N`` codes overflow 64 bits."""
    for name, value in (("classifiers", n_classifiers), ("labels", n_labels)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
            raise SketchError(f"the number of {name} must be a positive integer, got {short_repr(value)}")
    # R^N is compared only once N is known to be small: 2^(10^9) alone takes seconds
    if n_labels > 1 and (n_classifiers > 62 or n_labels**n_classifiers > _INT64_LIMIT):
        raise SketchError(
            f"{show_int(int(n_classifiers))} classifiers with {show_int(int(n_labels))} labels give "
            f"{show_int(int(n_labels))}^{show_int(int(n_classifiers))} "
            f"patterns, more than 64-bit codes hold; at most {max_classifiers(n_labels)} "
            "classifiers are supported for this many labels"
        )


def _block_rows(decisions: np.ndarray) -> int:
    row_bytes = decisions.dtype.itemsize * decisions.shape[1] + 8
    return max(_MIN_BLOCK_ROWS, _BLOCK_BYTES // row_bytes)


def _work_dtype(dtype: np.dtype, top: int) -> np.dtype:
    """The input's own integer dtype when it holds ``top``, else the smallest wider one."""
    if dtype.kind in "iu" and dtype.itemsize < 8 and np.iinfo(dtype).max >= top:
        return dtype
    for candidate in (np.int16, np.int32):
        if np.dtype(candidate).itemsize >= dtype.itemsize and np.iinfo(candidate).max >= top:
            return np.dtype(candidate)
    return np.dtype(np.int64)


def _horner(block: np.ndarray, n_labels: int, out: np.ndarray, lead: np.ndarray | None) -> None:
    """``out = lead * R^N + code(block rows)`` in place, one multiply-add per column.

    Arithmetic is in ``out.dtype``; the caller makes sure it holds every result.
    """
    first = 0
    if lead is not None:
        np.copyto(out, lead, casting="unsafe")
    elif block.shape[1]:
        np.copyto(out, block[:, 0], casting="unsafe")
        first = 1
    else:
        out.fill(0)
    for i in range(first, block.shape[1]):
        np.multiply(out, n_labels, out=out, dtype=out.dtype, casting="unsafe")
        np.add(out, block[:, i], out=out, dtype=out.dtype, casting="unsafe")


def encode(decisions: np.ndarray, n_labels: int, lead: np.ndarray | None = None) -> np.ndarray:
    """Integer codes of the rows of an ``items x classifiers`` array of label indices.

    ``lead`` (one integer per row, optional) is a leading digit: the result is then
    ``lead * R^N + code``, e.g. ``true label * R^N + code``.
    """
    decisions = np.asarray(decisions)
    n_items, n_classifiers = decisions.shape
    check_size(n_classifiers, n_labels)
    codes = np.empty(n_items, dtype=np.int64)
    step = _block_rows(decisions)
    for start in range(0, n_items, step):
        stop = min(start + step, n_items)
        _horner(
            decisions[start:stop], n_labels, codes[start:stop], None if lead is None else lead[start:stop]
        )
    return codes


def count_patterns(
    decisions: np.ndarray, n_labels: int, lead: np.ndarray | None = None, n_lead: int = 1
) -> np.ndarray:
    """Dense counts of the codes :func:`encode` gives: ``int64``, length ``n_lead * R^N``.

    ``lead`` holds one leading digit in ``0..n_lead-1`` per row (e.g. the true label), so
    count ``k * R^N + c`` is that of pattern code ``c`` among rows with ``lead == k``.
    """
    decisions = np.asarray(decisions)
    n_items, n_classifiers = decisions.shape
    check_size(n_classifiers, n_labels)
    cells = n_lead * n_labels**n_classifiers
    step = _block_rows(decisions)
    if cells > step or n_items <= step:
        # one bincount over all codes: a count vector per block would cost more than the block
        return np.bincount(encode(decisions, n_labels, lead), minlength=cells).astype(np.int64, copy=False)
    total = np.zeros(cells, dtype=np.int64)
    # codes < cells <= step fit the input's own small dtype (no widening casts) if it has one
    buffer = np.empty(step, dtype=_work_dtype(decisions.dtype, cells - 1))
    for start in range(0, n_items, step):
        stop = min(start + step, n_items)
        out = buffer[: stop - start]
        _horner(decisions[start:stop], n_labels, out, None if lead is None else lead[start:stop])
        total += np.bincount(out, minlength=cells)
    return total


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
