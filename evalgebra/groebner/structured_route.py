r"""The reference route for correlated ensembles: every evaluation point of a sketch, exactly.

For a spec with two labels and any correlation structure, :func:`structured_solution`
builds the evaluation ideal of one sketch in moment coordinates (the observations are the
sketch's exact rationals), computes a Gröbner basis, and returns

* the *eliminant*: the monic generator of the ideal's intersection with ``Q[prev_a]``,
  whose roots are the prevalences of the first label at the points of the variety;
* one :class:`Component` per irreducible factor of the eliminant: the lex Gröbner basis
  of the ideal plus that factor (prevalence last). When it is in *shape position*
  (every other unknown ``x`` has a generator ``x - h_x(prev_a)``), the points over that
  factor are ``(theta, h_x(theta), ...)`` for the roots ``theta`` of the factor: an exact
  representation in the number field ``Q[theta] / (factor)``;
* the rational points, evaluated.

This is slow but independent of the generated evaluators (:mod:`evalgebra.codegen.structures`),
which tests compare against it exactly; the command line may use it as a fallback.

Examples
--------
One correlated pair among four classifiers: two points, swapped by relabelling.

>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.groebner.identifiability import random_point
>>> from evalgebra.data.simulate import expected_sketch
>>> spec = EnsembleSpec(4, 2, [(0, 1)])
>>> truth = random_point(spec, seed=0)
>>> solution = structured_solution(spec, expected_sketch(truth))
>>> solution.degree, [str(p["prev_a"]) for p in solution.points]
(2, ['3/13', '10/13'])
>>> solution.points[0]["corr_0_1_a"] == truth.correlation_value((0, 1), "a", ("a", "a"))
True

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": Theorems 1 and 3 (the generating set with correlations).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import SpecError
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.solving import univariate_eliminant
from evalgebra.spec import EnsembleSpec

__all__ = ["Component", "StructuredSolution", "structured_solution", "unknown_names"]

PREVALENCE_NAME = "prev_a"


def unknown_names(spec: EnsembleSpec) -> tuple[str, ...]:
    """Registry names of every unknown: the prevalence, the accuracies, then the correlations.

    >>> unknown_names(EnsembleSpec(3, 2, [(0, 1)]))
    ('prev_a', 'acc_0_a', 'acc_0_b', 'acc_1_a', 'acc_1_b', 'acc_2_a', 'acc_2_b', 'corr_0_1_a', 'corr_0_1_b')
    """
    from evalgebra.builder import GeneratingSet

    registry = GeneratingSet(spec).registry
    names = [str(v) for v in registry.variables(("prevalence", "accuracy", "correlation"))]
    return tuple(names)


def _fraction(value: Any) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _coefficients(poly: Any, position: int) -> tuple[Fraction, ...]:
    """Coefficients (low -> high) of a polynomial in one variable of an ``fmpq_mpoly`` ring."""
    degree = poly.degrees()[position] if poly.coeffs() else 0
    out = [Fraction(0)] * (degree + 1)
    for monomial, c in zip(poly.monoms(), poly.coeffs()):
        out[monomial[position]] = _fraction(c)
    return tuple(out)


def _horner(coefficients: tuple[Fraction, ...], x: Any) -> Any:
    value = 0 * x
    for c in reversed(coefficients):
        value = value * x + c
    return value


@dataclass(frozen=True)
class Component:
    r"""The points over one irreducible factor of the eliminant.

    Attributes
    ----------
    factor : tuple of Fraction
        Monic irreducible polynomial in ``prev_a``, coefficients low -> high.
    multiplicity : int
        Its multiplicity in the eliminant.
    shape : bool
        True when every unknown is a polynomial in ``prev_a`` modulo the factor
        (the shape lemma holds over it): one point per root.
    values : dict of str to tuple of Fraction
        With ``shape``: each unknown's polynomial (low -> high, degree below the factor's)
        whose value at a root of the factor is that unknown's value at the point.
    basis : Ideal
        The lex Gröbner basis of the ideal plus the factor (prevalence last).
    """

    factor: tuple[Fraction, ...]
    multiplicity: int
    shape: bool
    values: dict[str, tuple[Fraction, ...]]
    basis: Ideal

    @property
    def degree(self) -> int:
        return len(self.factor) - 1

    def point(self) -> dict[str, Fraction] | None:
        """The point, when the factor is linear and the shape lemma holds; else None."""
        if self.degree != 1 or not self.shape:
            return None
        root = -self.factor[0] / self.factor[1]
        return {name: _horner(poly, root) for name, poly in self.values.items()}


@dataclass(frozen=True)
class StructuredSolution:
    r"""Every evaluation point of one sketch under a correlation structure.

    Attributes
    ----------
    spec : EnsembleSpec
    eliminant : tuple of Fraction
        Monic polynomial in ``prev_a`` (low -> high) whose roots are the points' prevalences
        (``(1,)`` when no point explains the sketch).
    components : tuple of Component
        One per irreducible factor of the eliminant.
    unknowns : tuple of str
        Registry names: prevalence, accuracies, correlations.
    dimension : int
        Dimension of the variety in the prevalence and accuracies (0 for finitely many
        points, -1 when empty).
    wall_time : float
        Seconds, Gröbner bases included.
    basis : Ideal
        The degrevlex basis the eliminant was read from.
    correlation_freedom : int
        0 when the correlations are pinned down too; else the dimension of the family of
        correlations explaining the sketch, which are then eliminated (the points and
        :attr:`unknowns` hold the prevalence and accuracies only).
    """

    spec: EnsembleSpec
    eliminant: tuple[Fraction, ...]
    components: tuple[Component, ...]
    unknowns: tuple[str, ...]
    dimension: int
    wall_time: float = 0.0
    basis: Ideal | None = field(default=None, repr=False)
    correlation_freedom: int = 0

    @property
    def degree(self) -> int:
        """Degree of the eliminant."""
        return len(self.eliminant) - 1

    @property
    def points(self) -> list[dict[str, Fraction]]:
        """The rational points, by prevalence (each a dict over :attr:`unknowns`)."""
        found = [c.point() for c in self.components]
        return sorted((p for p in found if p is not None), key=lambda p: p[PREVALENCE_NAME])

    @property
    def shape(self) -> bool:
        """True when the shape lemma holds over every factor."""
        return all(c.shape for c in self.components)


def _shape_values(basis: Ideal, unknowns: tuple[str, ...]) -> dict[str, tuple[Fraction, ...]] | None:
    """``x -> h_x`` when the lex basis holds ``x - h_x(prev_a)`` for every unknown ``x``."""
    ring = basis.ring
    position = ring.names.index(PREVALENCE_NAME)
    values: dict[str, tuple[Fraction, ...]] = {}
    for poly in basis.generators:
        degrees = poly.degrees()
        used = [k for k, d in enumerate(degrees) if d and k != position]
        if not used:
            continue
        if len(used) != 1 or degrees[used[0]] != 1:
            return None
        k = used[0]
        head = poly.derivative(k)
        if not head.is_constant():
            return None
        rest = poly - head * ring.gens()[k]
        values[ring.names[k]] = tuple(-c / _fraction(head.coeffs()[0]) for c in _coefficients(rest, position))
    if set(values) != set(unknowns) - {PREVALENCE_NAME}:
        return None
    values[PREVALENCE_NAME] = (Fraction(0), Fraction(1))
    return {name: values[name] for name in unknowns}


def structured_solution(
    spec: EnsembleSpec,
    sketch: Any,
    *,
    backend: str = "flint",
    time_limit: float | None = None,
) -> StructuredSolution:
    r"""Every evaluation point of a sketch under the spec's correlation structure, exactly.

    Parameters
    ----------
    spec : EnsembleSpec
        Two labels, one population, any structure (its correlations are the unknowns
        besides the prevalence and the accuracies).
    sketch : Sketch
        Observed counts of the same classifiers and labels.
    backend : str
        Gröbner engine (python-flint by default).
    time_limit : float, optional
        Seconds allowed for each Gröbner computation
        (:class:`~evalgebra.groebner.runner.GroebnerTimeout` past it).

    Returns
    -------
    StructuredSolution

    Raises
    ------
    SpecError
        When the spec does not have two labels and one population, or when the sketch
        is explained by a positive-dimensional family (the message names its dimension).

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> spec = EnsembleSpec(3, 2)
    >>> sk = Sketch.from_counts(dict(zip(["aaa", "aab", "aba", "abb", "baa", "bab", "bba", "bbb"],
    ...                                  [568, 553, 649, 1813, 3534, 3607, 1068, 8208])), labels=["a", "b"])
    >>> solution = structured_solution(spec, sk)
    >>> solution.degree, solution.shape, [c.degree for c in solution.components]
    (2, True, [2])
    """
    if spec.n_labels != 2 or spec.n_populations != 1:
        raise SpecError(
            "the structured reference route handles two labels and one population; "
            f"got R = {spec.n_labels}, {spec.n_populations} population(s)"
        )
    start = time.perf_counter()
    unknowns = unknown_names(spec)
    ideal = evaluation_ideal(spec, coordinates="moments", observed=sketch, ordering="degrevlex")
    graded = groebner_basis(ideal, backend=backend, time_limit=time_limit)
    dimension = graded.dimension()
    free = 0
    if dimension > 0 and spec.structure:
        # the correlations may be free while the prevalence and accuracies are pinned down
        projected = eliminate(ideal, "correlation", backend=backend, time_limit=time_limit)
        basic = groebner_basis(projected, ordering="degrevlex", backend=backend, time_limit=time_limit)
        if basic.dimension() == 0:
            graded, free, dimension = basic, dimension, 0
            unknowns = tuple(name for name in unknowns if name in basic.ring.names)
        else:
            dimension = basic.dimension()
    if dimension > 0:
        raise SpecError(
            f"structure {spec.structure}: the sketch is explained by a {dimension}-dimensional "
            "family of evaluations (prevalence and accuracies), not finitely many points"
        )
    if dimension < 0:
        return StructuredSolution(spec, (Fraction(1),), (), unknowns, -1, time.perf_counter() - start, graded)
    eliminant_poly = univariate_eliminant(graded, PREVALENCE_NAME)
    eliminant = _coefficients(eliminant_poly, graded.ring.names.index(PREVALENCE_NAME))
    univariate = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in eliminant])
    order = [name for name in graded.ring.names if name != PREVALENCE_NAME] + [PREVALENCE_NAME]
    components = []
    _, factors = univariate.factor()
    for factor, multiplicity in sorted(
        factors, key=lambda f: (f[0].degree(), [_fraction(c) for c in f[0].coeffs()])
    ):
        monic_factor = factor / factor.coeffs()[-1]
        coefficients = tuple(_fraction(c) for c in monic_factor.coeffs())
        ring = graded.ring
        gens = dict(zip(ring.names, ring.gens()))
        one = ring.q.from_dict({(0,) * ring.nvars: 1})
        extra = sum(
            (
                gens[PREVALENCE_NAME] ** k * flint.fmpq(c.numerator, c.denominator)
                for k, c in enumerate(coefficients)
            ),
            0 * one,
        )
        with_factor = Ideal(ring, list(graded.generators) + [extra], is_groebner=False)
        lex = groebner_basis(with_factor, ordering="lex", order=order, backend=backend, time_limit=time_limit)
        values = _shape_values(lex, unknowns)
        components.append(Component(coefficients, int(multiplicity), values is not None, values or {}, lex))
    return StructuredSolution(
        spec, eliminant, tuple(components), unknowns, 0, time.perf_counter() - start, graded, free
    )
