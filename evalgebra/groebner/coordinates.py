r"""Observation coordinates: raw pattern frequencies and moment coordinates, both ways.

Moment coordinates (``docs/theory.md#moment-coordinates``) replace the ``R^N - 1`` free pattern
frequencies of a population by as many moments: the single frequencies
``m_i(r) = P(ans_i = r)`` and the joint central moments

.. math::

    D_T(r_T) = E\Big[\prod_{i \in T} (1[ans_i = r_i] - m_i(r_i))\Big], \quad |T| \ge 2,

for responses ``r`` other than the first label. The inverse has the shape of the
generating set with a single label:
``f_d = sum_{|T| != 1} D_T(d_T) prod_{i not in T} m_i(d_i)`` (``D_empty = 1``), where the
first label's entries follow from ``sum_r m_i(r) = 1`` and ``sum_r D_T(.., r, ..) = 0``.

In moment coordinates the independent model is small: with ``J_i = P_{i,a} + P_{i,b} - 1``
it gives ``D_ij = P_a P_b J_i J_j`` and ``D_123 = P_a P_b (P_a - P_b) J_1 J_2 J_3``
(as in *Algebraic Evaluation Theorems*, Corrada-Emmanuel), and correlations enter linearly.

Both maps are generic in the ring: they work on rationals (exact data) and on
python-flint polynomials (ideal generators).

Examples
--------
>>> from fractions import Fraction
>>> from evalgebra.spec import EnsembleSpec
>>> spec = EnsembleSpec(2, 2)
>>> freqs = [Fraction(1, 2), Fraction(1, 8), Fraction(1, 8), Fraction(1, 4)]  # aa ab ba bb
>>> moments = moments_of(spec, freqs)
>>> [str(v) for v in moments.values()]
['3/8', '3/8', '7/64']
>>> frequencies_of(spec, moments) == freqs
True
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableKey, VariableRegistry, correlation_expansion

__all__ = ["moments_of", "frequencies_of", "sketch_moments", "COORDINATES"]

COORDINATES = ("raw", "moments")


def _centre(tensor: np.ndarray, rows: Sequence[Sequence[Any]]) -> np.ndarray:
    result = tensor
    for axis, row in enumerate(rows):
        shape = [1] * tensor.ndim
        shape[axis] = len(row)
        p = np.empty(len(row), dtype=object)
        p[:] = list(row)
        result = result - p.reshape(shape) * result.sum(axis=axis, keepdims=True)
    return result


def moments_of(spec: EnsembleSpec, frequencies: Sequence[Any]) -> dict[VariableKey, Any]:
    """Moment coordinates of pattern frequencies (pattern order, every population).

    ``frequencies`` lists each population's ``R^N`` frequencies (summing to 1) in the
    canonical pattern order, populations one after another.
    """
    n, r_count = spec.n_classifiers, spec.n_labels
    size = r_count**n
    if len(frequencies) != size * spec.n_populations:
        raise SpecError(f"need {size * spec.n_populations} frequencies, got {len(frequencies)}")
    registry = VariableRegistry(spec)
    out: dict[VariableKey, Any] = {}
    for s in range(spec.n_populations):
        tensor = np.empty(size, dtype=object)
        tensor[:] = list(frequencies[s * size : (s + 1) * size])
        tensor = tensor.reshape((r_count,) * n)
        singles = []
        for i in range(n):
            axes = tuple(k for k in range(n) if k != i)
            singles.append(list(tensor.sum(axis=axes)) if axes else list(tensor))
        for key in registry.keys("moment"):
            if key.population != s:
                continue
            subset = key.classifiers
            if len(subset) == 1:
                out[key] = singles[subset[0]][key.labels[0]]
                continue
            axes = tuple(k for k in range(n) if k not in subset)
            marginal = tensor.sum(axis=axes) if axes else tensor
            centred = _centre(marginal, [singles[i] for i in subset])
            out[key] = centred[key.labels]
    return out


def frequencies_of(spec: EnsembleSpec, moments: Mapping[VariableKey, Any], one: Any = 1) -> list[Any]:
    """Pattern frequencies from moment coordinates (the inverse of :func:`moments_of`)."""
    n, r_count = spec.n_classifiers, spec.n_labels
    result = []
    for s in range(spec.n_populations):

        def single(i: int, r: int) -> Any:
            if r:
                return moments[VariableKey("moment", (i,), (r,), s)]
            return one - sum(moments[VariableKey("moment", (i,), (q,), s)] for q in range(1, r_count))

        def joint(subset: tuple[int, ...], responses: tuple[int, ...]) -> Any:
            terms = [
                sign * moments[VariableKey("moment", subset, free, s)]
                for sign, free in correlation_expansion(0, responses, r_count, dependent=0)
            ]
            return sum(terms[1:], terms[0])

        subsets = [t for size in (0, *range(2, n + 1)) for t in itertools.combinations(range(n), size)]
        for pattern in itertools.product(range(r_count), repeat=n):
            total = 0 * one
            for subset in subsets:
                term = joint(subset, tuple(pattern[i] for i in subset)) if subset else one
                for i in range(n):
                    if i not in subset:
                        term = term * single(i, pattern[i])
                total = total + term
            result.append(total)
    return result


def sketch_moments(sketch: Any) -> dict[Any, Fraction]:
    """Exact moment coordinates of a sketch, keyed by the registry's symbols."""
    spec = sketch.spec()
    registry = VariableRegistry(spec)
    frequencies: list[Fraction] = []
    for population in spec.populations:
        total = sketch.size(population)
        frequencies.extend(Fraction(int(c), total) for c in sketch.count_vector(population))
    return {registry.symbol(k): v for k, v in moments_of(spec, frequencies).items()}
