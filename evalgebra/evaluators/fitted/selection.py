r"""Which judges are dependent: ``structure="auto"`` chooses a correlation structure by BIC.

The candidates are the independent model and every *pair* structure of the identifiability atlas
(``generated/structures/INDEX.json``) for the sketch's ``N`` binary classifiers: the graphs on the
classifiers whose isomorphism class the atlas lists with finitely many evaluations and whose
correlations the counts determine (:func:`identifiable_pair_structures`; on four classifiers the 38
labelled graphs of one pair, two adjacent pairs, the star, the path and the triangle). Each is
fitted by maximum likelihood (:mod:`evalgebra.evaluators.fitted.structures`) from the best fit of a
structure one pair smaller (the independent model's fitted point for one pair), so that a structure
is at least as likely as those inside it, and the rule is

.. math::

    \text{choose the smallest } \mathrm{BIC}_S = -2 \log L_S + k_S \log Q, \qquad k_S = 1 + 2N + 2|S|,

ties going to the fewer parameters (Schwarz [1]_). Each candidate's log-likelihood, parameters, BIC
and likelihood-ratio test against the independent model (``2 (log L_S - log L_0)`` on ``2|S|``
degrees of freedom, chi-square; the independent model is nested in each structure, with every
correlation zero an inner point of the correlations' range, so the usual asymptotics apply [2]_) go
into :class:`~evalgebra.results.structure_evidence.StructureEvidence`. BIC, not the test, decides:
its penalty grows with ``Q``, so that on independent judges it chooses the independent model with a
probability that tends to one, where a test at a fixed level would pick a correlated structure at
that level's rate times the number of candidates.

Candidates are limited so that the search stays fast: every one is fitted when there are at most
:data:`MAX_EXHAUSTIVE`; beyond that (five classifiers and more) the search is *greedy*, adding at
each step the pair that lowers the BIC most among those that keep the structure identifiable, and
stopping when none does; and the search stops after :data:`SELECTION_TIME_LIMIT` seconds (the notes say so).
Structures with subsets of three or more classifiers are evaluated with ``structure=`` but are not
candidates here: the question asked of a panel is which *pairs* of judges err together, and on four
classifiers the atlas's other finite structures leave their correlations free.

Sketches this does not apply to (more than two labels, abstentions, an ``N`` the atlas does not
cover) get the independent model as the one candidate, and a note saying why.

Examples
--------
>>> import numpy as np
>>> from evalgebra.data.sketch import Sketch
>>> from evalgebra.evaluators.fitted.structure_choice import pattern_names
>>> from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint
>>> model = StructureModel(4, ((1, 2),))
>>> truth = StructurePoint(0.35, np.array([[0.8, 0.75], [0.7, 0.8], [0.75, 0.85], [0.8, 0.7]]),
...                        np.array([[0.1, 0.08]]))
>>> counts = np.random.default_rng(1).multinomial(20_000, model.probabilities(truth))
>>> sketch = Sketch.from_counts(dict(zip(pattern_names(4, "ab"), counts.tolist())), labels=["a", "b"])
>>> from evalgebra.evaluators.dispatch import evaluate
>>> result = evaluate(sketch, structure="auto")
>>> result.structure, result.verdict
('c0-c3', 'fitted')
>>> print(result.structure_evidence.statement())  # doctest: +NORMALIZE_WHITESPACE
c0 and c3 are dependent; or, exactly as likely, c1 and c2 are dependent (the counts cannot tell
these structures apart; the evaluation shown is the first)
>>> len(result.structure_evidence.candidates), result.structure_evidence.search
(39, 'exhaustive')

References
----------
.. [1] G. Schwarz, "Estimating the dimension of a model", The Annals of Statistics 6 (1978).
.. [2] S. S. Wilks, "The large-sample distribution of the likelihood ratio for testing composite
   hypotheses", The Annals of Mathematical Statistics 9 (1938).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.correlated.structure_freedom import correlation_freedom
from evalgebra.evaluators.correlated.structure_lookup import atlas_entries
from evalgebra.evaluators.fitted.structure_choice import (
    range_bounds,
    structure_estimate,
    structure_start,
    with_structure_fit,
)
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint, fit_structure
from evalgebra.results import Evaluation, StructureCandidate, StructureEvidence
from evalgebra.structures import Structure, canonical_structure, structure_text

__all__ = [
    "select_structure",
    "identifiable_pair_structures",
    "MAX_EXHAUSTIVE",
    "SELECTION_TIME_LIMIT",
    "LIKELIHOOD_TIE",
]

#: Candidates fitted one and all when there are at most this many; beyond, the greedy search.
MAX_EXHAUSTIVE = 64
#: Seconds after which the search stops (the candidates fitted so far are compared).
SELECTION_TIME_LIMIT = 30.0
#: Log-likelihoods closer than this are equal to the fits' precision: candidates with as many parameters
#: are then reported as indistinguishable (``StructureEvidence.tied``).
LIKELIHOOD_TIE = 1e-3


@functools.cache
def _finite_classes(n_classifiers: int, n_labels: int) -> frozenset[Structure]:
    """Canonical forms of the atlas's finite pair structures whose correlations the counts determine."""
    out = set()
    for entry in atlas_entries():
        if (entry.n_classifiers, entry.n_labels) != (n_classifiers, n_labels) or not entry.finite:
            continue
        if not entry.structure or any(len(s) != 2 for s in entry.structure):
            continue
        canonical = canonical_structure(n_classifiers, entry.structure)
        if correlation_freedom(canonical, n_classifiers) == 0:
            out.add(canonical)
    return frozenset(out)


@functools.cache
def identifiable_pair_structures(n_classifiers: int, n_labels: int = 2) -> tuple[Structure, ...]:
    """Every labelled pair structure on ``n_classifiers`` that the atlas finds identifiable, with
    determined correlations, by number of pairs (the independent model not among them).

    >>> len(identifiable_pair_structures(4)), identifiable_pair_structures(4)[:2]
    (38, (((0, 1),), ((0, 2),)))
    >>> identifiable_pair_structures(3), identifiable_pair_structures(7)
    ((), ())
    """
    classes = _finite_classes(n_classifiers, n_labels)
    found = set()
    for structure in classes:  # every relabelling of each class (N! images each, few classes)
        for perm in itertools.permutations(range(n_classifiers)):
            found.add(tuple(sorted(tuple(sorted((perm[i], perm[j]))) for i, j in structure)))
    return tuple(sorted(found, key=lambda s: (len(s), s)))


def _extended(point: StructurePoint, source: Structure, target: Structure) -> StructurePoint:
    """A point of ``source`` as a point of ``target`` (a larger structure): the new correlations 0."""
    rows = {subset: row for subset, row in zip(source, point.correlation)}
    correlation = np.array([rows.get(subset, np.zeros(2)) for subset in target], dtype=float).reshape(-1, 2)
    return StructurePoint(point.prevalence, point.accuracy, correlation)


@dataclasses.dataclass
class _Search:
    """The fits made so far: structure -> (log-likelihood, point, converged)."""

    counts: np.ndarray
    n_classifiers: int
    independent: StructurePoint
    deadline: float
    fits: dict[Structure, tuple[float, StructurePoint, bool]] = dataclasses.field(default_factory=dict)
    stopped: bool = False

    def bic(self, structure: Structure) -> float:
        value = self.fits[structure][0]
        k = 1 + 2 * self.n_classifiers + 2 * len(structure)
        return -2.0 * value + k * math.log(float(self.counts.sum()))

    def fit(self, structure: Structure) -> bool:
        """Fit ``structure`` (from the independent point and its best fitted sub-structure); False past the
        deadline."""
        if structure in self.fits:
            return True
        if time.monotonic() > self.deadline:
            self.stopped = True
            return False
        smaller = [
            s for s in (tuple(t for t in structure if t != drop) for drop in structure) if s in self.fits
        ]
        best = max(smaller, key=lambda s: self.fits[s][0]) if smaller else ()
        starts = [
            (
                structure_text(best),
                _extended(self.fits[best][1] if smaller else self.independent, best, structure),
            )
        ]
        model = StructureModel(self.n_classifiers, structure)
        fit = fit_structure(model, self.counts, starts)
        self.fits[structure] = (fit.log_likelihood, fit.point, fit.converged)
        return True


def _exhaustive(search: _Search, candidates: tuple[Structure, ...]) -> None:
    for structure in candidates:  # by size: each structure's smaller ones are fitted first
        if not search.fit(structure):
            return


def _greedy(search: _Search, candidates: tuple[Structure, ...]) -> None:
    allowed = set(candidates)
    pairs = sorted({pair for structure in candidates for pair in structure})
    current: Structure = ()
    while True:
        grown = [
            s
            for s in (tuple(sorted((*current, pair))) for pair in pairs if pair not in current)
            if s in allowed
        ]
        for structure in grown:
            if not search.fit(structure):
                return
        if not grown:
            return
        best = min(grown, key=search.bic)
        if search.bic(best) >= search.bic(current):
            return
        current = best


def _refused(sketch: Sketch) -> str | None:
    if sketch.n_labels != 2:
        return (
            f"correlated structures are fitted for two labels; with {sketch.n_labels} labels the independent "
            "model is the only candidate"
        )
    if sketch.abstain:
        return (
            "correlated structures are fitted without abstentions; the independent model is the only "
            "candidate"
        )
    return None


def select_structure(
    sketch: Sketch,
    independent: Evaluation,
    *,
    level: float = 0.01,
    options: dict[str, Any] | None = None,
    time_limit: float = SELECTION_TIME_LIMIT,
) -> Evaluation:
    r"""The evaluation of the structure of smallest BIC, with every candidate's evidence.

    Parameters
    ----------
    sketch : Sketch
    independent : Evaluation
        The independent evaluation of ``sketch`` with its fit (``evaluate(sketch)``); returned as it is
        (with the evidence) when the independent model is chosen.
    level : float
        The level of the chosen structure's goodness-of-fit verdict.
    options : dict
        Decoding options (``prevalence_range``, ``decoding``), applied to every candidate.
    time_limit : float
        Seconds after which no further candidate is fitted.

    Returns
    -------
    Evaluation
        The chosen structure's evaluation (its exact points, when it has a generated evaluator, and its
        fitted point, chosen by the verdict), ``structure`` naming it, ``structure_evidence`` the rest.
    """
    options = dict(options or {})
    pooled = sketch.pooled().unlabelled()
    classifiers, labels = tuple(pooled.classifiers), tuple(pooled.labels)
    n, total = len(classifiers), pooled.Q
    notes: list[str] = []
    refusal = _refused(pooled)
    candidates: tuple[Structure, ...] = ()
    if refusal is not None:
        notes.append(refusal)
    else:
        candidates = identifiable_pair_structures(n, 2)
        if not candidates:
            notes.append(
                f"the identifiability atlas lists no identifiable pair structure on {n} classifiers: the "
                "independent model is the only candidate"
            )
    fit = independent.fit
    if refusal is not None or not candidates or fit is None or fit.fitted_index is None:
        k = (len(labels) - 1) + n * len(labels) * (len(pooled.responses) - 1)
        value = fit.log_likelihood if fit is not None else math.nan
        point = (
            independent.points[fit.fitted_index] if fit is not None and fit.fitted_index is not None else None
        )
        only = (
            ()
            if point is None
            else (
                StructureCandidate(
                    "independent",
                    (),
                    value,
                    k,
                    -2 * value + k * math.log(total),
                    None,
                    None,
                    None,
                    fit is not None and fit.converged,
                    point,
                ),
            )
        )
        evidence = StructureEvidence("bic", total, only, 0, "exhaustive", tuple(notes))
        return dataclasses.replace(independent, structure_evidence=evidence)
    start = structure_start(independent.points[fit.fitted_index], (), classifiers, labels)
    assert start is not None
    counts = pooled.count_vector().astype(float)
    search = _Search(counts, n, StructureModel(n, ()).inside(start), time.monotonic() + time_limit)
    search.fits[()] = (
        StructureModel(n, ()).log_likelihood(counts, search.independent),
        search.independent,
        True,
    )
    exhaustive = len(candidates) <= MAX_EXHAUSTIVE
    (_exhaustive if exhaustive else _greedy)(search, candidates)
    if not exhaustive:
        notes.append(
            f"{len(candidates)} identifiable pair structures: searched greedily (a pair added while the "
            "BIC falls)"
        )
    if search.stopped:
        notes.append(
            f"the search stopped after {time_limit:g} s with {len(search.fits) - 1} of {len(candidates)} "
            "structures fitted"
        )
    bounds = range_bounds(options)
    order = list(search.fits)
    smallest = min(search.bic(s) for s in order)
    near = [k for k, s in enumerate(order) if search.bic(s) <= smallest + 2 * LIKELIHOOD_TIE]
    best = min(near, key=lambda k: (len(order[k]), k))  # the fewer parameters, then the first in order
    tied = tuple(k for k in near if k != best and len(order[k]) == len(order[best]))
    base = search.fits[()][0]
    from scipy.stats import chi2

    rows = []
    for structure in order:
        value, found, converged = search.fits[structure]
        model = StructureModel(n, structure)
        statistic = max(0.0, 2.0 * (value - base)) if structure else None
        df = 2 * len(structure) if structure else None
        rows.append(
            StructureCandidate(
                _names(structure, classifiers),
                tuple(tuple(classifiers[i] for i in s) for s in structure),
                value,
                model.n_parameters,
                search.bic(structure),
                statistic,
                df,
                None if statistic is None else float(chi2.sf(statistic, df)),
                converged,
                structure_estimate(model.oriented(found, bounds), structure, classifiers, labels),
            )
        )
    evidence = StructureEvidence(
        "bic", total, tuple(rows), best, "exhaustive" if exhaustive else "greedy", tuple(notes), tied
    )
    chosen = order[best]
    if not chosen:
        return dataclasses.replace(independent, structure_evidence=evidence)
    result = _structured(pooled, chosen, options, notes)
    result = with_structure_fit(
        result,
        pooled,
        chosen,
        level=level,
        options=options,
        starts=[("auto", search.fits[chosen][1])],
        independent=search.independent,
    )
    evidence = dataclasses.replace(evidence, notes=tuple(notes))
    return dataclasses.replace(result, structure_evidence=evidence)


def _names(structure: Structure, classifiers: tuple[str, ...]) -> str:
    return ",".join("-".join(classifiers[i] for i in s) for s in structure) or "independent"


def _structured(
    sketch: Sketch, structure: Structure, options: dict[str, Any], notes: list[str]
) -> Evaluation:
    """The chosen structure's exact evaluation; without a generated evaluator, an evaluation with no exact
    point (the fitted point is added next), and a note."""
    from evalgebra.evaluators.correlated.structured import evaluate_structured

    taken = {k: options[k] for k in ("decoding", "prevalence_range") if k in options}
    try:
        return evaluate_structured(sketch, structure, **taken)
    except SpecError as error:
        notes.append(f"no exact evaluation of {_names(structure, tuple(sketch.classifiers))}: {error}")
        return Evaluation(
            method="algebraic",
            labels=tuple(sketch.labels),
            classifiers=tuple(sketch.classifiers),
            points=(),
            chosen=None,
            structure=_names(structure, tuple(sketch.classifiers)),
        )
