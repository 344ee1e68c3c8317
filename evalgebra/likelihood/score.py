r"""The score equations of a parametrised model, denominators cleared: the one implementation.

A model gives each pattern ``x`` a probability ``p_x(theta)``, a polynomial in the unknowns
``theta``; a sketch's counts ``n_x`` give the log-likelihood ``l = sum_x n_x log p_x``. Its
critical points solve the score equations ``dl/dtheta_k = sum_x n_x p_x^{-1} dp_x/dtheta_k = 0``,
rational in ``theta``. The Lagrangian form of Hosten, Khetan and Sturmfels [1]_ clears the
denominators with one auxiliary unknown per observed pattern,

.. math::

    q_x\, p_x(\theta) = 1, \qquad \sum_x n_x\, q_x\, \frac{\partial p_x}{\partial \theta_k} = 0,

so every solution has ``p_x = 1/q_x`` nonzero for every pattern seen, and patterns never seen
(``n_x = 0``) take no part. The degenerate loci where the critical points are not isolated (a
prevalence at 0, two labels alike) are saturated away with one more unknown ``t`` and
``t h(theta) = 1`` for the product ``h`` of the polynomials the caller names as nonzero. For
generic counts the number of solutions is the model's **ML degree** (in parameter space: each
point of the model counted once per parameter point that gives it, e.g. twice for the label
swap of two labels).

The system may be written in other unknowns ``phi`` through a substitution ``theta = s(phi)``:
the equations are then ``q_x p_x(s(phi)) = 1`` and ``sum_x n_x q_x (dp_x/dtheta_k)(s(phi)) = 0``
for *every* ``theta_k`` (the chain rule kept whole), so the solutions are the critical points of
``l`` in ``theta`` that lie in the image of ``s``. The independent model uses this to impose the
one-way marginals every critical point matches (:mod:`evalgebra.likelihood.independent`).

The builder (:func:`evalgebra.builder.score.score_equations`) gives this system for any spec's
generating set; the runtime certification
(:mod:`evalgebra.evaluators.fitted.certify`) for the independent model. Neither has a second
implementation.

Examples
--------
One binary classifier answering ``b`` with probability ``theta``, seen 3 times ``a`` and 1 time
``b``: the single critical point is ``theta = 1/4``.

>>> import flint
>>> ctx = flint.fmpq_mpoly_ctx.get(("theta",), "degrevlex")
>>> (theta,) = ctx.gens()
>>> system = score_system([1 - theta, theta], [3, 1])
>>> system.unknowns, system.auxiliary
(('theta',), ('q0', 'q1'))
>>> for line in system.texts(): print(line)
-theta*q0+q0-1
theta*q1-1
-3*q0+q1

References
----------
.. [1] S. Hosten, A. Khetan and B. Sturmfels, "Solving the likelihood equations", Foundations of
   Computational Mathematics 5 (2005).
.. [2] F. Catanese, S. Hosten, A. Khetan and B. Sturmfels, "The maximum likelihood degree",
   American Journal of Mathematics 128 (2006).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import SpecError

__all__ = ["ScoreSystem", "score_system", "integer_text"]

#: ``substitution(gens) -> theta``: the model's unknowns as polynomials in the system's unknowns.
Substitution = Callable[[Sequence[Any]], Sequence[Any]]


def integer_text(poly: Any) -> str:
    """A polynomial's text with its denominators cleared (an integer multiple: the same zeros).

    msolve reads rational coefficients, but not over a prime field; cleared, the text serves both.

    >>> import flint
    >>> ctx = flint.fmpq_mpoly_ctx.get(("x",), "degrevlex")
    >>> (x,) = ctx.gens()
    >>> integer_text(x / 6 - flint.fmpq(1, 4))
    '2*x-3'
    """
    scale = 1
    for c in poly.coeffs():
        scale = math.lcm(scale, int(c.q))
    return str(poly * scale).replace(" ", "")


@dataclass(frozen=True)
class ScoreSystem:
    r"""The score equations with cleared denominators: unknowns, auxiliary unknowns, polynomials.

    Attributes
    ----------
    unknowns : tuple of str
        The system's own unknowns (``phi``; ``theta`` when there is no substitution), first.
    auxiliary : tuple of str
        ``q0, q1, ...`` (one per observed pattern, in ``patterns`` order), then ``t`` when
        something is saturated.
    polynomials : tuple of flint.fmpq_mpoly
        ``q_x p_x - 1`` per observed pattern, one score equation per model unknown, then
        ``t h - 1``.
    patterns : tuple of int
        The positions (in the model's pattern order) of the observed patterns.
    context : flint.fmpq_mpoly_ctx
        The ring of ``polynomials`` (generators: ``unknowns + auxiliary``).

    Examples
    --------
    >>> import flint
    >>> ctx = flint.fmpq_mpoly_ctx.get(("theta",), "degrevlex")
    >>> (theta,) = ctx.gens()
    >>> system = score_system([1 - theta, theta, 0 * theta], [3, 1, 0])
    >>> system.patterns, len(system.polynomials), system.variables()
    ((0, 1), 3, ('theta', 'q0', 'q1'))
    """

    unknowns: tuple[str, ...]
    auxiliary: tuple[str, ...]
    polynomials: tuple[Any, ...]
    patterns: tuple[int, ...]
    context: Any

    def variables(self) -> tuple[str, ...]:
        """Every unknown, in the ring's order: ``unknowns`` then ``auxiliary``."""
        return self.unknowns + self.auxiliary

    def texts(self) -> list[str]:
        """The polynomials as integer text (:func:`integer_text`): what msolve and Singular read."""
        return [integer_text(p) for p in self.polynomials]


def _constant(context: Any, value: Any) -> Any:
    fraction = Fraction(value)
    return context.from_dict({(0,) * context.nvars(): flint.fmpq(fraction.numerator, fraction.denominator)})


def score_system(
    polynomials: Sequence[Any],
    counts: Sequence[Any],
    *,
    unknowns: Sequence[str] | None = None,
    substitution: Substitution | None = None,
    nonzero: Callable[[Sequence[Any]], Sequence[Any]] | None = None,
    ordering: str = "degrevlex",
) -> ScoreSystem:
    r"""The Lagrangian score equations of the model ``p_x = polynomials[x]`` at the counts ``n_x``.

    Parameters
    ----------
    polynomials : sequence of flint.fmpq_mpoly
        ``p_x(theta)``, one per pattern, all in one context whose generators are ``theta``.
    counts : sequence of int or Fraction
        ``n_x`` in the same order (0: a pattern never seen, left out).
    unknowns : sequence of str, optional
        Names of the system's unknowns ``phi`` (default: ``theta``'s names, no substitution).
    substitution : callable, optional
        ``substitution(phi_gens)``: ``theta`` as polynomials in the system's generators ``phi`` (one
        per generator of the model's context). Needs ``unknowns``.
    nonzero : callable, optional
        ``nonzero(phi_gens)``: polynomials whose product is saturated away (``t h = 1``).
    ordering : str
        The monomial ordering of the system's ring.

    Returns
    -------
    ScoreSystem

    Raises
    ------
    SpecError
        No polynomials, counts of another length, a negative count, no count above zero, or a
        substitution without names (or of the wrong length).
    """
    polys = list(polynomials)
    if not polys:
        raise SpecError("score_system needs the model's pattern polynomials; got none")
    if len(counts) != len(polys):
        raise SpecError(
            f"need one count per pattern polynomial: {len(polys)} polynomials, {len(counts)} counts"
        )
    values = [Fraction(c) for c in counts]
    if any(v < 0 for v in values) or not any(v > 0 for v in values):
        raise SpecError("counts must be at least 0, some above 0")
    model = polys[0].context()
    theta_names = tuple(str(name) for name in model.names())
    if substitution is not None and unknowns is None:
        raise SpecError("a substitution needs the names of the system's unknowns (unknowns=...)")
    names = tuple(unknowns) if unknowns is not None else theta_names
    seen = tuple(k for k, v in enumerate(values) if v > 0)
    auxiliary = tuple(f"q{j}" for j in range(len(seen))) + (("t",) if nonzero is not None else ())
    context = flint.fmpq_mpoly_ctx.get(names + auxiliary, ordering)
    gens = context.gens()
    phi = gens[: len(names)]
    one = _constant(context, 1)
    theta = list(substitution(phi)) if substitution is not None else list(phi)
    if len(theta) != len(theta_names):
        raise SpecError(f"the substitution must give {len(theta_names)} polynomials (one per model unknown)")
    theta = [one * v for v in theta]  # constants become polynomials of the system's ring

    def lift(poly: Any) -> Any:
        return poly.compose(*theta, ctx=context) if theta_names else one * poly

    q = gens[len(names) : len(names) + len(seen)]
    equations = [q[j] * lift(polys[k]) - one for j, k in enumerate(seen)]
    for index in range(len(theta_names)):
        score = 0 * one
        for j, k in enumerate(seen):
            derivative = polys[k].derivative(index)
            if not derivative.is_zero():
                score += _constant(context, values[k]) * q[j] * lift(derivative)
        if not score.is_zero():  # an unknown no observed pattern depends on gives no equation
            equations.append(score)
    if nonzero is not None:
        product = one
        for factor in nonzero(phi):
            product *= factor
        equations.append(gens[-1] * product - one)
    return ScoreSystem(names, auxiliary, tuple(equations), seen, context)
