r"""The invariants of a model: polynomial relations every test of the model satisfies.

:func:`model_invariants` answers the question a researcher asks first about an ensemble
model: which polynomial relations among the observed pattern frequencies hold on every
test of it (its observable axioms)? For the specs derived by
``derivations/d14_model_invariants.py`` it reads the committed result (instant); for any
other spec it derives them:

1. the ``(R+1)``-minors of every valid flattening (proved by the rank argument of
   :mod:`~evalgebra.groebner.invariants.flattenings`);
2. if these do not yet cut out the model near generic points (the Jacobian test of
   :mod:`~evalgebra.groebner.invariants.checks`), interpolation degree by degree
   (:mod:`~evalgebra.groebner.invariants.interpolation`), each candidate proved by
   substitution; candidates in the span of what is known (lower-degree invariants times
   monomials, the minors) are dropped.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> inv = model_invariants(EnsembleSpec(3, 3))          # committed: instant
>>> len(inv.polynomials), set(inv.degrees), inv.model_dimension, inv.variety_dimension
(27, {4}, 20, 20)
>>> inv.ideal
'cuts out the model near generic points'
>>> fresh = model_invariants(EnsembleSpec(4, 2, [(0, 1)]), committed=False)
>>> len(fresh.polynomials), fresh.variety_dimension == fresh.model_dimension == 11
(16, True)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder import GeneratingSet
from evalgebra.errors import SpecError
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.invariants.checks import (
    fmpq_values,
    jacobian_rank,
    model_dimension,
    model_frequencies,
)
from evalgebra.groebner.invariants.flattenings import minors_with_sources, observed_ring
from evalgebra.groebner.invariants.interpolation import interpolate, vanishes_on_model
from evalgebra.groebner.invariants.store import INVARIANTS_DERIVATION, committed_entry
from evalgebra.groebner.polys import PolyRing
from evalgebra.spec import EnsembleSpec

__all__ = ["ModelInvariants", "model_invariants", "derive_invariants", "IDEAL_STATUSES", "RANK_PROOF"]

#: What is known about the ideal the invariants generate, strongest first.
IDEAL_STATUSES = ("generates", "cuts out the model near generic points", "incomplete")
#: The proof recorded for a flattening minor.
RANK_PROOF = "rank: the flattening is a sum of R rank-one matrices on the whole model"
#: The proof recorded for an interpolated invariant.
SUBSTITUTION_PROOF = "substitution: zero after substituting the model's parametrisation"


@dataclass(frozen=True)
class ModelInvariants:
    r"""Invariants of a model in the observed pattern frequencies, with how they were found.

    Attributes
    ----------
    spec : EnsembleSpec
    ring : PolyRing
        The pattern frequencies ``f_aab`` in pattern order (degrevlex).
    polynomials : tuple of fmpq_mpoly
        Homogeneous, primitive integer coefficients: they vanish on frequencies and on counts.
    origins : tuple of str
        Per polynomial: the flattening and minor, or the interpolation degree.
    proofs : tuple of str
        Per polynomial: why it vanishes on the whole model (:data:`RANK_PROOF` or the substitution).
    model_dimension : int
        Rank of the parametrisation's Jacobian at random model points.
    variety_dimension : int
        ``K^N - 1`` minus the rank of the invariants' Jacobian there: the dimension of the
        variety they cut out near those points (never below the model's).
    ideal : str
        One of :data:`IDEAL_STATUSES`.
    ideal_proof : str
        How the ideal status was established (and what was only checked).
    checks : tuple of str
        Further checks run when they were derived.
    source : str
        ``"computed"`` or the committed derivation it was read from.
    seconds : float
        Wall time of this call.

    Notes
    -----
    In the simplex ``sum_d f_d = 1`` (implicit: every polynomial is homogeneous), the model
    of ``N`` classifiers with ``K`` responses has dimension :attr:`model_dimension` and
    codimension ``K^N - 1 - model_dimension``; that many independent invariants cut it out.

    Examples
    --------
    >>> from evalgebra.data.simulate import expected_sketch
    >>> from evalgebra.groebner.identifiability import random_point
    >>> spec = EnsembleSpec(4, 2)
    >>> inv = model_invariants(spec)
    >>> sketch = expected_sketch(random_point(spec, seed=3))
    >>> set(inv.values_at(sketch))
    {Fraction(0, 1)}
    """

    spec: EnsembleSpec
    ring: PolyRing
    polynomials: tuple[Any, ...]
    origins: tuple[str, ...]
    proofs: tuple[str, ...]
    model_dimension: int
    variety_dimension: int
    ideal: str
    ideal_proof: str
    checks: tuple[str, ...] = ()
    source: str = "computed"
    seconds: float = 0.0

    @property
    def degrees(self) -> tuple[int, ...]:
        """Total degree of each polynomial."""
        return tuple(p.total_degree() for p in self.polynomials)

    @property
    def codimension(self) -> int:
        """Codimension of the model in the simplex."""
        return self.spec.n_responses**self.spec.n_classifiers - 1 - self.model_dimension

    def values_at(self, sketch: Any) -> list[Fraction]:
        r"""Each polynomial at a sketch's pattern frequencies (or a sequence of them), exactly.

        A sketch must have this spec's classifiers and labels; a sequence lists the
        frequencies (or counts: the polynomials are homogeneous) in pattern order.

        Examples
        --------
        >>> inv = model_invariants(EnsembleSpec(4, 2))
        >>> inv.values_at([Fraction(1, 16)] * 16)[:2]          # the uniform table has rank 1
        [Fraction(0, 1), Fraction(0, 1)]
        """
        if hasattr(sketch, "frequencies"):
            values = GeneratingSet(self.spec).observed_values(sketch)
        else:
            values = list(sketch)
        if len(values) != self.ring.nvars:
            raise SpecError(f"need {self.ring.nvars} pattern frequencies, got {len(values)}")
        at = fmpq_values(values)
        return [Fraction(int(v.p), int(v.q)) for v in (p(*at) for p in self.polynomials)]

    def texts(self) -> list[str]:
        """The polynomials as text (``f_aaaa*f_abab - ...``).

        Examples
        --------
        >>> model_invariants(EnsembleSpec(4, 2, [(0, 1)])).texts()[0][:22]
        'f_aaba*f_abab*f_baaa -'
        """
        return [self.ring.text(p) for p in self.polynomials]

    def to_ideal(self) -> Ideal:
        """The polynomials as an :class:`~evalgebra.groebner.ideal.Ideal` (shows itself in LaTeX).

        Examples
        --------
        >>> model_invariants(EnsembleSpec(4, 2, [(0, 1)])).to_ideal()
        Ideal(model invariants: 16 generators in 16 variables, degrevlex, backend=-, coordinates=raw, 0.000 s)
        """
        return Ideal(self.ring, list(self.polynomials), "model invariants", is_groebner=False)

    def summary(self) -> str:
        """A few lines for the terminal: counts by degree and origin, dimensions, the ideal.

        Examples
        --------
        >>> print(model_invariants(EnsembleSpec(4, 2)).summary().splitlines()[1])
          48 of degree 3 (48 by flattening)
        """
        by_degree: dict[int, int] = {}
        for d in self.degrees:
            by_degree[d] = by_degree.get(d, 0) + 1
        kinds: dict[str, int] = {}
        for origin in self.origins:
            kind = origin.split(",")[0].split(" ")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        lines = [
            f"invariants of N={self.spec.n_classifiers}, R={self.spec.n_labels}, structure "
            f"{list(self.spec.structure) or 'independent'} ({self.source})",
            "  "
            + ", ".join(f"{c} of degree {d}" for d, c in sorted(by_degree.items()))
            + " ("
            + ", ".join(f"{c} by {k}" for k, c in sorted(kinds.items()))
            + ")",
            f"  model dimension {self.model_dimension}, variety of the invariants {self.variety_dimension}, "
            f"codimension {self.codimension}",
            f"  ideal: {self.ideal} ({self.ideal_proof})",
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"ModelInvariants({len(self.polynomials)} polynomials of degrees {sorted(set(self.degrees))}, "
            f"N={self.spec.n_classifiers}, R={self.spec.n_labels}, model dimension {self.model_dimension}, "
            f"{self.ideal}, {self.source})"
        )


def _span_rank(polys: Sequence[Any]) -> int:
    """Dimension of the linear span of polynomials of one ring."""
    monomials = sorted({m for p in polys for m in p.monoms()})
    if not monomials:
        return 0
    index = {m: k for k, m in enumerate(monomials)}
    rows = [[0] * len(monomials) for _ in polys]
    for row, p in zip(rows, polys):
        for m, c in zip(p.monoms(), p.coeffs()):
            row[index[m]] = c
    return flint.fmpq_mat(rows).rank()


def _multiples(ring: PolyRing, known: Sequence[Any], degree: int) -> list[Any]:
    """Every known invariant of lower degree times every monomial that brings it to ``degree``."""
    out = []
    for g in known:
        gap = degree - g.total_degree()
        if gap <= 0:
            continue
        for combo in itertools.combinations_with_replacement(range(ring.nvars), gap):
            exps = [0] * ring.nvars
            for k in combo:
                exps[k] += 1
            out.append(g * ring.q.from_dict({tuple(exps): 1}))
    return out


def derive_invariants(
    spec: EnsembleSpec, *, max_degree: int = 4, seed: int = 0, minors: bool = True
) -> ModelInvariants:
    r"""Derive a model's invariants (flattening minors, then interpolation), no committed result used.

    Parameters
    ----------
    spec : EnsembleSpec
        One population.
    max_degree : int
        The highest degree interpolated when the minors do not cut out the model.
    seed : int
        Seed of the model points (dimension, Jacobian, interpolation).
    minors : bool
        Start from the flattening minors (default); ``False`` interpolates from degree 2.

    Examples
    --------
    >>> inv = derive_invariants(EnsembleSpec(3, 2))       # three binary classifiers: no invariant
    >>> inv.polynomials, inv.model_dimension, inv.ideal
    ((), 7, 'generates')
    """
    start = time.perf_counter()
    ring = observed_ring(spec)
    dim = model_dimension(spec, seed)
    codim = spec.n_responses**spec.n_classifiers - 1 - dim
    x = model_frequencies(spec, seed)
    polys: list[Any] = []
    origins: list[str] = []
    proofs: list[str] = []
    if minors:
        found, sources = minors_with_sources(spec)
        polys += found
        origins += [s.describe() for s in sources]
        proofs += [RANK_PROOF] * len(found)
    rank = jacobian_rank(polys, x)
    degree = 2
    rejected = 0
    while rank < codim and degree <= max_degree:
        candidates = interpolate(spec, degree, seed)
        proved = vanishes_on_model(spec, candidates)
        rejected += proved.count(False)
        known = _multiples(ring, polys, degree) + [p for p in polys if p.total_degree() == degree]
        span = _span_rank(known)
        for candidate, ok in zip(candidates, proved):
            if not ok:
                continue
            bigger = _span_rank([*known, candidate])
            if bigger > span:
                known.append(candidate)
                span = bigger
                polys.append(candidate)
                origins.append(f"interpolation, degree {degree}")
                proofs.append(SUBSTITUTION_PROOF)
        rank = jacobian_rank(polys, x)
        degree += 1
    if codim == 0:
        status, why = "generates", "the model fills the simplex: its ideal is zero"
    elif rank == codim:
        status = "cuts out the model near generic points"
        why = f"proved: Jacobian rank {rank} = codimension at an exact model point; generation undecided"
    else:
        status = "incomplete"
        why = f"Jacobian rank {rank} < codimension {codim} with the invariants up to degree {max_degree}"
    checks = (f"{rejected} interpolation candidates rejected by substitution",) if rejected else ()
    return ModelInvariants(
        spec,
        ring,
        tuple(polys),
        tuple(origins),
        tuple(proofs),
        dim,
        spec.n_responses**spec.n_classifiers - 1 - rank,
        status,
        why,
        checks,
        "computed",
        time.perf_counter() - start,
    )


def model_invariants(
    spec: EnsembleSpec, *, committed: bool = True, max_degree: int = 4, seed: int = 0
) -> ModelInvariants:
    r"""The invariants of a spec's model in the observed pattern frequencies.

    Parameters
    ----------
    spec : EnsembleSpec
        One population, no abstentions needed (they are further responses).
    committed : bool
        Read the result of ``derivations/d14_model_invariants.py`` when it covers the spec
        (same number of classifiers and labels, same structure): instant, and it carries
        what the derivation proved about the ideal. ``False`` always derives.
    max_degree, seed
        Passed to :func:`derive_invariants`.

    Returns
    -------
    ModelInvariants

    Examples
    --------
    >>> inv = model_invariants(EnsembleSpec(4, 2))
    >>> len(inv.polynomials), inv.ideal, inv.source
    (48, 'generates', 'committed: derivations/d14_model_invariants.py')

    References
    ----------
    .. [1] E. S. Allman, C. Matias, J. A. Rhodes, "Identifiability of parameters in latent
       structure models with many observed variables", Annals of Statistics 37 (2009).
    """
    if committed:
        start = time.perf_counter()
        entry = committed_entry(spec)
        if entry is not None:
            ring = observed_ring(spec)
            rows = entry["polynomials"]
            if list(ring.names) == entry["variables"]:
                return ModelInvariants(
                    spec,
                    ring,
                    tuple(ring.parse(row["polynomial"]) for row in rows),
                    tuple(row["origin"] for row in rows),
                    tuple(row["proof"] for row in rows),
                    entry["model_dimension"],
                    entry["variety_dimension"],
                    entry["ideal"],
                    entry["ideal_proof"],
                    tuple(entry["checks"]),
                    f"committed: {INVARIANTS_DERIVATION}",
                    time.perf_counter() - start,
                )
    return derive_invariants(spec, max_degree=max_degree, seed=seed)
