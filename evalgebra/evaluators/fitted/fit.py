r"""The fitted evaluation: the model point closest to the data, from every algebraic start.

Where a test's counts lie exactly on the independent model, its exact evaluation points
reproduce them and one of them *is* the maximum-likelihood point (the likelihood cannot exceed
the saturated one, which they reach). Elsewhere (every sampled test) no point reproduces the
counts, the exact points may lie outside the simplex or be complex, and the best honest answer is
the point of the model, inside the simplex, that makes the counts most likely. :func:`fit_sketch`
finds it by EM (:mod:`evalgebra.evaluators.fitted.em`) from each start it is given (the exact
points, moved inside the simplex, and majority vote), keeps every run, and chooses the largest
log-likelihood; the labels of the chosen run are those of its start, so the algebra's decoding of
the hidden labels carries over.

The fit is judged by the likelihood-ratio statistic against the saturated model,

.. math::

    G^2 = 2 \sum_{s,d} n_s(d) \log \frac{n_s(d)}{Q_s\, p_s(d)},

with ``df = S (K^N - 1) - S (R - 1) - N R (K - 1)`` degrees of freedom; its chi-square p-value
[1]_ is given only where the asymptotics hold (``df > 0`` and at least
:data:`MIN_EXPECTED` items expected per pattern on average); elsewhere it is ``None``, with why.

Examples
--------
>>> from evalgebra import datasets
>>> fitted = fit_sketch(datasets.load("acs_employment").unlabelled())
>>> fitted.converged, fitted.goodness.df, round(fitted.goodness.g2, 6)
(True, 0, 0.0)

References
----------
.. [1] A. Agresti, "Categorical Data Analysis", Wiley (2013), section 1.5 (the likelihood-ratio
   chi-square statistic).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError
from evalgebra.evaluators.fitted.em import Cells, EMFit, Parameters, em, maximise
from evalgebra.results.estimates import Estimate

__all__ = [
    "Goodness",
    "FittedModel",
    "sketch_cells",
    "start_from_estimate",
    "majority_start",
    "goodness_of_fit",
    "chi_square_goodness",
    "fit_sketch",
    "MIN_EXPECTED",
    "TIE",
]

#: Items expected per pattern, on average, below which the chi-square p-value is not given.
MIN_EXPECTED = 5.0
#: Runs whose log-likelihoods differ by at most ``TIE * (1 + |L|)`` reach the same maximum.
TIE = 1e-9


@dataclass(frozen=True)
class Goodness:
    """How well the fitted point explains the counts: ``g2``, ``df``, ``p_value`` (or ``None`` and
    ``note``)."""

    g2: float
    df: int
    p_value: float | None
    note: str


@dataclass(frozen=True)
class FittedModel:
    """The maximum-likelihood point found, every run behind it, its goodness of fit, and the cells fitted."""

    labels: tuple[str, ...]
    classifiers: tuple[str, ...]
    responses: tuple[str, ...]
    populations: tuple[str, ...]
    parameters: Parameters
    log_likelihood: float
    saturated_log_likelihood: float
    goodness: Goodness
    runs: tuple[EMFit, ...]
    chosen: int
    start_names: tuple[str, ...]
    cells: Cells

    @property
    def converged(self) -> bool:
        return self.runs[self.chosen].converged

    def estimate(self) -> Estimate:
        """The fitted point as an :class:`~evalgebra.results.estimates.Estimate` of floats (pooled
        prevalence)."""
        prevalence = self.parameters.prevalence
        sizes = self.cells.sizes()
        pooled = (sizes[:, None] * prevalence).sum(axis=0) / sizes.sum()
        response = {
            c: {
                t: {a: float(self.parameters.response[i, ell, k]) for k, a in enumerate(self.responses)}
                for ell, t in enumerate(self.labels)
            }
            for i, c in enumerate(self.classifiers)
        }
        accuracy = {c: {t: rows[t][t] for t in self.labels} for c, rows in response.items()}
        return Estimate(
            {t: float(pooled[ell]) for ell, t in enumerate(self.labels)}, accuracy, response=response
        )


def sketch_cells(sketch: Sketch) -> Cells:
    """The sketch's non-empty cells, pooled over any answer key, one row per pattern and population."""
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    pop, _, code, count = sketch.table()
    keys = (
        pop.astype(np.int64) * sketch.n_patterns + code.astype(np.int64)
        if sketch.n_patterns < 2**40
        else None
    )
    if keys is None:
        raise SketchError(f"{sketch.n_patterns} patterns per population are too many to fit")
    unique, inverse = np.unique(keys, return_inverse=True)
    weights = np.bincount(inverse, weights=count).astype(float)
    population = (unique // sketch.n_patterns).astype(np.int64)
    answers = decode(unique % sketch.n_patterns, sketch.n_classifiers, sketch.n_responses).astype(np.int64)
    return Cells(answers, weights, population, sketch.n_labels, sketch.n_responses, len(sketch.populations))


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def start_from_estimate(estimate: Estimate, sketch: Sketch) -> Parameters | None:
    """An estimate's rates as a start (``None`` when a prevalence or a rate is missing or not real).

    Every population starts from the estimate's (pooled) prevalence; abstention rates the estimate
    lacks start at 0 (moved inside the simplex by :meth:`~Parameters.inside`).
    """
    labels, responses = sketch.labels, sketch.responses
    rows = estimate.response_rows()
    try:
        prevalence = np.array([_float(estimate.prevalence[t]) for t in labels])
        response = np.array(
            [
                [[_float(rows[c][t].get(a, 0.0)) for a in responses] for t in labels]
                for c in sketch.classifiers
            ]
        )
    except (KeyError, TypeError, AttributeError):
        return None
    if not np.all(np.isfinite(prevalence)) or not np.all(np.isfinite(response)):
        return None
    return Parameters(np.repeat(prevalence[None, :], len(sketch.populations), axis=0), response)


def majority_start(cells: Cells) -> Parameters:
    """The rates majority vote implies: each cell's label the most frequent answer (ties shared)."""
    votes = np.zeros((cells.answers.shape[0], cells.n_labels))
    for i in range(cells.n_classifiers):
        answered = cells.answers[:, i] < cells.n_labels
        votes[np.flatnonzero(answered), cells.answers[answered, i]] += 1
    top = votes.max(axis=1, keepdims=True)
    posterior = (votes == top).astype(float)
    posterior /= posterior.sum(axis=1, keepdims=True)
    return maximise(cells, posterior)


def goodness_of_fit(cells: Cells, log_likelihood: float, saturated: float) -> Goodness:
    """``G^2`` of a fit against the saturated model, its degrees of freedom and (where valid) p-value."""
    n, r, k, s = cells.n_classifiers, cells.n_labels, cells.n_responses, cells.n_populations
    patterns = float(k) ** n
    free = s * (patterns - 1)
    params = s * (r - 1) + n * r * (k - 1)
    df = int(free - params) if free < 2**62 else 2**62
    return chi_square_goodness(2.0 * (saturated - log_likelihood), df, float(cells.sizes().min()) / patterns)


def chi_square_goodness(g2: float, df: int, expected: float) -> Goodness:
    """The :class:`Goodness` of a statistic ``g2`` on ``df`` degrees of freedom, with ``expected`` items per
    pattern on average: a chi-square p-value only where ``df > 0`` and ``expected >=`` :data:`MIN_EXPECTED`.

    >>> chi_square_goodness(3.0, 5, 100.0).p_value > 0.5, chi_square_goodness(3.0, 0, 100.0).p_value
    (True, None)
    """
    g2 = max(0.0, g2)
    if df <= 0:
        return Goodness(
            g2, df, None, "the model has as many parameters as the counts have frequencies: no test of fit"
        )
    if expected < MIN_EXPECTED:
        return Goodness(
            g2,
            df,
            None,
            f"{expected:.3g} items expected per pattern (fewer than {MIN_EXPECTED:g}): "
            "the chi-square approximation does not hold",
        )
    from scipy.stats import chi2

    return Goodness(g2, df, float(chi2.sf(g2, df)), "chi-square approximation")


def fit_sketch(
    sketch: Sketch,
    starts: Sequence[tuple[str, Parameters]] = (),
    *,
    tolerance: float = 1e-12,
    max_iterations: int = 20_000,
    majority: bool = True,
) -> FittedModel:
    """The maximum-likelihood point of the independent model found from ``starts`` (and majority vote).

    Parameters
    ----------
    sketch : Sketch
        Counts pooled over any answer key; populations keep prevalences of their own.
    starts : sequence of (name, Parameters)
        Points to start EM from (moved inside the simplex first), e.g. the exact evaluation points.
    majority : bool
        Also start from majority vote (:func:`majority_start`).

    Returns
    -------
    FittedModel
        Every run, the one with the largest log-likelihood chosen (the first among equals: within
        :data:`TIE` of the largest, so that the labels of the earliest start reaching it are kept).
    """
    cells = sketch_cells(sketch)
    named = [(name, start.inside()) for name, start in starts]
    if majority or not named:
        named.append(("majority", majority_start(cells).inside()))
    runs = tuple(em(cells, start, tolerance=tolerance, max_iterations=max_iterations) for _, start in named)
    values = [run.log_likelihood for run in runs]
    top = max(values)
    # runs that reach the same maximum from starts with other labels differ in L by rounding only: the
    # first of them keeps its start's labels (the chosen exact point comes first)
    chosen = next(k for k, value in enumerate(values) if value >= top - TIE * (1 + abs(top)))
    saturated = cells.saturated_log_likelihood()
    best = runs[chosen]
    goodness = goodness_of_fit(cells, best.log_likelihood, saturated)
    return FittedModel(
        tuple(sketch.labels),
        tuple(sketch.classifiers),
        tuple(sketch.responses),
        tuple(sketch.populations),
        best.parameters,
        best.log_likelihood,
        saturated,
        goodness,
        runs,
        chosen,
        tuple(name for name, _ in named),
        cells,
    )
