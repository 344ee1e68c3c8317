r"""Counting for the consistency metrics: per-subset integer counts and exact means.

Everything here works on :class:`~evalgebra.samplewise.runs.Runs` in vectorised blocks of at
most ``_BLOCK`` elements: intersections and unions of residual sets (bit-packed for ``n > 2``),
agreements, contingency tables, the closed forms of the means, and the exact arithmetic that
turns integer counts into ``Fraction`` or square-root values.

Examples
--------
>>> signed_root(-1, Fraction(1, 4)), signed_root(1, Fraction(1, 3))
(Fraction(-1, 2), QuadraticNumber(sqrt(3)/3))
>>> exact_mean(np.array([1, 1, 2]), np.array([2, 3, 3]))
Fraction(1, 2)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.samplewise.runs import ERROR_METRICS, Runs

__all__ = [
    "subset_chunks",
    "popcount",
    "set_counts",
    "pair_blocks",
    "agreements",
    "label_counts",
    "ratio_parts",
    "surd_parts",
    "signed_root",
    "cramers_v",
    "closed_form_blocks",
    "closed_mean",
    "exact_mean",
    "float_mean",
]

_BLOCK = 1 << 22  # elements per vectorised block
_POPCOUNT = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
_PRIMES = tuple(k for k in range(2, 1000) if all(k % d for d in range(2, math.isqrt(k) + 1)))


def subset_chunks(p: int, n: int, chunk: int) -> Iterator[np.ndarray]:
    """Index arrays ``(k, n)`` of the n-subsets of ``range(p)``, itertools order, in chunks."""
    source = itertools.combinations(range(p), n)
    while True:
        block = np.fromiter(itertools.chain.from_iterable(itertools.islice(source, chunk)), dtype=np.int64)
        if block.size == 0:
            return
        yield block.reshape(-1, n)


def popcount(packed: np.ndarray) -> np.ndarray:
    """Set bits of each row of a ``uint8`` array (summed over the last axis)."""
    return _POPCOUNT[packed].sum(axis=-1)


def set_counts(runs: Runs, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``|AND e_S|`` and ``|OR e_S|`` for every n-subset (combinations order)."""
    errors = runs.errors
    p = runs.p
    if n == 2:
        gram = np.zeros((p, p), dtype=np.int64)
        step = 1 << 16  # float32 sums of at most 2**16 ones are exact
        for start in range(0, runs.N, step):
            block = errors[:, start : start + step].astype(np.float32)
            gram += np.rint(block @ block.T).astype(np.int64)
        rows, cols = np.triu_indices(p, 1)
        inter = gram[rows, cols]
        diagonal = np.diag(gram)
        return inter, diagonal[rows] + diagonal[cols] - inter
    packed = np.packbits(errors, axis=1)
    chunk = max(1, _BLOCK // (n * packed.shape[1]))
    inters, unions = [], []
    for index in subset_chunks(p, n, chunk):
        members = packed[index]
        inters.append(popcount(np.bitwise_and.reduce(members, axis=1)))
        unions.append(popcount(np.bitwise_or.reduce(members, axis=1)))
    return np.concatenate(inters), np.concatenate(unions)


def pair_blocks(p: int, width: int) -> Iterator[tuple[int, int, int, int]]:
    """``(i, j0, j1, offset)``: pairs ``(i, j)``, ``j0 <= j < j1``, start at ``offset``."""
    chunk = max(1, _BLOCK // max(width, 1))
    offset = 0
    for i in range(p - 1):
        for j0 in range(i + 1, p, chunk):
            j1 = min(p, j0 + chunk)
            yield i, j0, j1, offset
            offset += j1 - j0


def agreements(codes: np.ndarray, n: int) -> np.ndarray:
    """Items on which all runs of each n-subset give one answer (combinations order)."""
    p, n_items = codes.shape
    if n == 2:
        out = np.empty(math.comb(p, 2), dtype=np.int64)
        for i, j0, j1, at in pair_blocks(p, n_items):
            out[at : at + j1 - j0] = (codes[j0:j1] == codes[i]).sum(axis=1)
        return out
    chunk = max(1, _BLOCK // (n * n_items))
    parts = []
    for index in subset_chunks(p, n, chunk):
        members = codes[index]
        parts.append((members[:, 1:] == members[:, :1]).all(axis=1).sum(axis=1))
    return np.concatenate(parts)


def label_counts(runs: Runs) -> np.ndarray:
    """``(p, R)``: how often each run gives each label."""
    p, r_count = runs.p, runs.n_labels
    keys = (np.arange(p, dtype=np.int64)[:, None] * r_count + runs.codes).ravel()
    return np.bincount(keys, minlength=p * r_count).reshape(p, r_count)


def ratio_parts(runs: Runs, name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer numerators and positive denominators of a rational metric per subset."""
    n_items = runs.N
    if name in ERROR_METRICS:
        inter, union = set_counts(runs, n)
        if name == "ec_l":
            empty = union == 0
            return np.where(empty, 1, inter), np.where(empty, 1, union)
        top = inter if name == "ec_g" else inter + (n_items - union)
        return top, np.full(top.shape, n_items, dtype=np.int64)
    agree = agreements(runs.codes, n)
    if name == "pa_acc":
        return agree, np.full(agree.shape, n_items, dtype=np.int64)
    counts = label_counts(runs)  # pa_kappa: (N A - S) / (N^2 - S), S = sum_r c_ir c_jr
    rows, cols = np.triu_indices(runs.p, 1)
    chance = (counts[rows] * counts[cols]).sum(axis=1)
    top, bottom = n_items * agree - chance, n_items * n_items - chance
    constant = bottom == 0  # both runs give one and the same label everywhere
    return np.where(constant, 1, top), np.where(constant, 1, bottom)


def surd_parts(runs: Runs, name: str, exact: bool) -> np.ndarray:
    """Per pair: float values (nan undefined) or exact values (None undefined)."""
    p, n_items = runs.p, runs.N
    if name == "ec_corr":
        inter, _ = set_counts(runs, 2)
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
                out[k] = signed_root((top > 0) - (top < 0), Fraction(top * top, spread_sq))
        return out
    return cramers_v(runs, exact)


def signed_root(sign: int, square: Fraction) -> Fraction | QuadraticNumber:
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


def cramers_v(runs: Runs, exact: bool) -> np.ndarray:
    """Cramer's V of every pair from its contingency table (nonempty rows and columns)."""
    p, r_count = runs.p, runs.n_labels
    codes = runs.codes
    cells = r_count * r_count
    out = np.empty(math.comb(p, 2), dtype=object if exact else np.float64)
    for i, j0, j1, at in pair_blocks(p, max(runs.N, cells)):
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
            out[at : at + m] = value
            continue
        for k in range(m):
            if same_constant[k]:
                out[at + k] = Fraction(1)
            elif shared[k] < 2:
                out[at + k] = None
            else:
                a_idx, b_idx = np.nonzero(tables[k])
                s = sum(
                    (
                        Fraction(int(tables[k, a, b]) ** 2, int(row[k, a]) * int(col[k, b]))
                        for a, b in zip(a_idx.tolist(), b_idx.tolist())
                    ),
                    Fraction(0),
                )
                out[at + k] = signed_root(1, (s - 1) / (int(shared[k]) - 1))
    return out


def closed_form_blocks(runs: Runs, name: str) -> Iterator[tuple[np.ndarray, np.ndarray]]:
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


def closed_mean(runs: Runs, name: str, n: int) -> Fraction:
    """The exact mean over all n-subsets of a closed-form metric, without visiting a subset."""
    histogram = np.zeros(runs.p + 1, dtype=np.int64)
    for _, sizes in closed_form_blocks(runs, name):
        histogram += np.bincount(sizes, minlength=runs.p + 1)
    total = sum(int(h) * math.comb(m, n) for m, h in enumerate(histogram.tolist()) if h)
    return Fraction(total, runs.N * math.comb(runs.p, n))


def exact_mean(top: np.ndarray, bottom: np.ndarray) -> Fraction:
    """Mean of ``top / bottom`` exactly.

    Numerators over one denominator are added as integers first, then the Fractions are
    summed pairwise (a balanced tree keeps the big-integer gcds small until the end).
    """
    denominators, where = np.unique(bottom, return_inverse=True)
    numerators = np.zeros(denominators.size, dtype=object)
    np.add.at(numerators, where.ravel(), top.astype(object))
    terms = [Fraction(int(a), int(b)) for a, b in zip(numerators.tolist(), denominators.tolist())]
    while len(terms) > 1:
        terms = [sum(terms[k : k + 2], Fraction(0)) for k in range(0, len(terms), 2)]
    return terms[0] / int(top.size)


def float_mean(values: np.ndarray, skip_undefined: bool) -> float | None:
    """Mean of float values; None if one is ``nan`` (undefined) unless skipped, or if none is defined."""
    defined = ~np.isnan(values)
    if not defined.all() and not skip_undefined:
        return None
    return float(values[defined].mean()) if defined.any() else None
