r"""Evaluation ideals, their Gröbner bases and elimination ideals.

:func:`evaluation_ideal` turns an ensemble spec into the generators of its evaluation
ideal in raw or moment coordinates, with the observations symbolic or given by a sketch;
:func:`groebner_basis` and :func:`eliminate` run a backend on it (python-flint by
default) with an optional time limit and progress report, and return an
:class:`~evalgebra.groebner.ideal.Ideal` that records backend, ordering, coordinates and
wall time.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> ideal = evaluation_ideal(EnsembleSpec(1, 2))
>>> axiom = eliminate(ideal, [])          # nothing to eliminate: the reduced lex basis
>>> print(axiom)
acc_0_a*prev_a + acc_0_b*prev_a - acc_0_b - prev_a + f_b
f_a + f_b - 1
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder import GeneratingSet
from evalgebra.errors import SpecError
from evalgebra.groebner.coordinates import COORDINATES, moments_of, sketch_moments
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.runner import StepProgress, run_backend
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import KINDS, VariableRegistry, auxiliary_name

__all__ = ["evaluation_ideal", "groebner_basis", "eliminate", "saturate", "DEFAULT_BLOCKS"]

#: Default variable order: eliminated first (left), prevalence last among unknowns.
DEFAULT_BLOCKS = ("correlation", "response", "accuracy", "prevalence")


def _fmpq(value: Any) -> Any:
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def _names(items: Sequence[Any]) -> list[str]:
    return [str(v) for v in items]


def evaluation_ideal(
    spec: EnsembleSpec | GeneratingSet,
    *,
    coordinates: str = "raw",
    observed: Any = None,
    space: str = "P",
    blocks: Sequence[str] = DEFAULT_BLOCKS,
    ordering: str = "lex",
) -> Ideal:
    r"""Generators of the evaluation ideal of a spec.

    Parameters
    ----------
    spec : EnsembleSpec or GeneratingSet
    coordinates : {"raw", "moments"}
        Observations as pattern frequencies (``f_aab``; counts ``n_aab`` in R-space) or
        as moment coordinates (``m_0_b``, ``D_0_1``; P-space only).
    observed : Sketch, optional
        Substitute the sketch's exact observations; default keeps them symbolic.
    space : {"P", "R"}
    blocks : sequence of kind names
        Unknowns in this block order (each block in registry order), then observables.
    ordering : {"lex", "deglex", "degrevlex"}

    Returns
    -------
    Ideal
        Not yet a Gröbner basis (``is_groebner`` is False); its ``registry`` attribute
        is the variable registry used.
    """
    gs = spec if isinstance(spec, GeneratingSet) else GeneratingSet(spec, space)
    if coordinates not in COORDINATES:
        raise SpecError(f"coordinates must be one of {COORDINATES}, got {coordinates!r}")
    registry = gs.registry
    unknowns = list(registry.variables(tuple(b for b in blocks if b not in ("observed", "moment"))))
    missing = set(registry.variables()) - set(unknowns)
    unknowns += [v for v in registry.variables() if v in missing]
    if coordinates == "raw":
        # the builder makes these polynomials; only the ring is shared with moments
        system = gs.flint(
            observed=None if observed is None else gs.observed_values(observed),
            order=unknowns,
            ordering=ordering,
        )
        ring = PolyRing([s.name for s in system.symbols], ordering)
        generators = list(system.polynomials)
    else:
        if gs.space != "P":
            raise SpecError("moment coordinates are defined in P-space")
        observables = list(registry.observables("moments")) if observed is None else []
        ring = PolyRing(_names(unknowns + observables), ordering)
        gens = dict(zip(ring.names, ring.gens()))
        one = ring.q.from_dict({(0,) * ring.nvars: 1})
        model = gs.model(lambda key: gens[str(registry.symbol(key))], one)
        model_moments = moments_of(gs.spec, model)
        if observed is None:
            values = {k: gens[str(registry.symbol(k))] for k in model_moments}
        else:
            exact = sketch_moments(observed)
            values = {k: one * _fmpq(exact[registry.symbol(k)]) for k in model_moments}
        generators = [values[k] - m for k, m in model_moments.items()]
    ideal = Ideal(
        ring,
        [g for g in generators if g.coeffs()],
        "evaluation ideal generators",
        coordinates=coordinates,
        is_groebner=False,
    )
    ideal.registry = registry  # type: ignore[attr-defined]
    return ideal


def _resolve(ideal: Ideal, variables: Sequence[Any] | str) -> list[str]:
    registry: VariableRegistry | None = getattr(ideal, "registry", None)
    items = [variables] if isinstance(variables, str) else list(variables)
    names: list[str] = []
    for item in items:
        if isinstance(item, str) and item in KINDS:
            if registry is None:
                raise SpecError(f"cannot resolve kind {item!r}: the ideal has no registry")
            names += _names(
                registry.observables("moments")
                if item == "moment"
                else registry.observables()
                if item == "observed"
                else registry.variables((item,))
            )
        else:
            names.append(str(item))
    unknown = [n for n in names if n not in ideal.ring.names]
    if unknown:
        raise SpecError(f"variables not in the ring: {unknown}")
    return names


def _finish(
    ideal: Ideal,
    ring: PolyRing,
    basis: list[Any],
    description: str,
    backend: str,
    seconds: float,
    eliminated: Sequence[str],
) -> Ideal:
    out = Ideal(
        ring,
        basis,
        description,
        backend,
        ideal.coordinates,
        seconds,
        True,
        tuple(ideal.eliminated) + tuple(eliminated),
    )
    registry = getattr(ideal, "registry", None)
    if registry is not None:
        out.registry = registry  # type: ignore[attr-defined]
    return out


def groebner_basis(
    ideal: Ideal,
    *,
    ordering: str | None = None,
    order: Sequence[Any] | None = None,
    backend: str = "flint",
    time_limit: float | None = None,
    progress: StepProgress | None = None,
) -> Ideal:
    """The reduced Gröbner basis of an ideal (optionally in another ordering or order)."""
    names = _names(order) if order is not None else list(ideal.ring.names)
    if sorted(names) != sorted(ideal.ring.names):
        raise SpecError("order must list every variable of the ring exactly once")
    ring = PolyRing(names, ordering or ideal.ring.ordering)
    polys = [ring.convert(p, ideal.ring) for p in ideal.generators]
    start = time.perf_counter()
    out_ring, basis = run_backend(backend, "groebner", ring, polys, (), time_limit, progress)
    return _finish(ideal, out_ring, basis, "reduced Gröbner basis", backend, time.perf_counter() - start, ())


def eliminate(
    ideal: Ideal,
    variables: Sequence[Any] | str,
    *,
    backend: str = "flint",
    time_limit: float | None = None,
    progress: StepProgress | None = None,
) -> Ideal:
    """The elimination ideal: reduced lex basis of ``ideal`` intersected with the other variables.

    ``variables`` are symbols, names or kind names ("correlation", "accuracy", ...).
    """
    names = _resolve(ideal, variables)
    start = time.perf_counter()
    out_ring, basis = run_backend(
        backend, "eliminate", ideal.ring, list(ideal.generators), names, time_limit, progress
    )
    return _finish(ideal, out_ring, basis, "elimination ideal", backend, time.perf_counter() - start, names)


def saturate(
    ideal: Ideal,
    factor: Any,
    *,
    backend: str = "flint",
    time_limit: float | None = None,
    progress: StepProgress | None = None,
) -> Ideal:
    r"""The saturation ``I : h^infinity`` (points where ``h != 0``), by Rabinowitsch's trick.

    ``factor`` is a polynomial of the ideal's ring (or its text). The result is the
    reduced lex basis in the ideal's variables. In R-space, saturating by
    ``prod_ell Q_ell`` keeps the tests on which every label occurs and removes the
    factors the homogenisation introduced.

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "lex")
    >>> ideal = Ideal(ring, [ring.parse("x*y - x")], is_groebner=False)
    >>> print(saturate(ideal, "x"))
    y - 1
    """
    h = ideal.ring.parse(factor) if isinstance(factor, str) else factor
    helper = auxiliary_name("t", ())
    ring = PolyRing((helper, *ideal.ring.names), "lex")
    t = ring.gens()[0]
    gens = [ring.convert(p, ideal.ring) for p in ideal.generators]
    gens.append(t * ring.convert(h, ideal.ring) - 1)
    start = time.perf_counter()
    out_ring, basis = run_backend(backend, "eliminate", ring, gens, [helper], time_limit, progress)
    return _finish(
        ideal,
        out_ring,
        basis,
        f"saturation by {ideal.ring.text(h)}",
        backend,
        time.perf_counter() - start,
        (),
    )
