r"""Score systems solved by msolve: the number of complex solutions and certified boxes around the real ones.

msolve [1]_ computes a rational parametrisation of a zero-dimensional system and isolates its
real solutions in boxes (:func:`~evalgebra.engines.msolve.msolve_parametrisation`): each box
holds exactly one real solution, and the number of complex solutions is the degree of the
parametrisation's eliminant. Over a prime field (``characteristic=``) it gives that degree
alone, far faster: for random counts this is the ML degree (equal over the rationals for all but
finitely many primes). Every run is supervised and limited in time
(:class:`~evalgebra.engines.supervision.EngineTimeout` past the limit).

Examples
--------
>>> import flint
>>> from evalgebra.likelihood.score import score_system
>>> ctx = flint.fmpq_mpoly_ctx.get(("theta",), "degrevlex")
>>> (theta,) = ctx.gens()
>>> found = solve_score(score_system([1 - theta, theta], [3, 1]), time_limit=60)
>>> found.dimension, found.degree, [(float(lo), float(hi)) for lo, hi in found.boxes[0]][:1]
(0, 1, [(0.25, 0.25)])
>>> count_solutions(score_system([1 - theta, theta], [3, 1]), characteristic=65521, time_limit=60)
1

References
----------
.. [1] J. Berthomieu, C. Eder and M. Safey El Din, "msolve: a library for solving polynomial
   systems", ISSAC 2021.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from evalgebra.engines import ExternalEngineError, msolve_parametrisation
from evalgebra.engines.msolve import parse_lists, run_msolve
from evalgebra.likelihood.score import ScoreSystem

__all__ = ["ScoreSolutions", "solve_score", "count_solutions", "MSOLVE_PRIME"]

#: The prime of :func:`count_solutions` by default (below ``2^30``: msolve hangs on some larger primes).
MSOLVE_PRIME = 1073741827


@dataclass(frozen=True)
class ScoreSolutions:
    r"""What msolve found: ``dimension`` (0: finitely many solutions; 1: infinitely many; -1: none),
    ``degree`` (complex solutions), ``boxes`` (per real solution, ``(low, high)`` of each of the
    system's own unknowns, exact).

    Examples
    --------
    >>> ScoreSolutions(0, 2, ()).degree
    2
    """

    dimension: int
    degree: int
    boxes: tuple[tuple[tuple[Fraction, Fraction], ...], ...]


def solve_score(system: ScoreSystem, *, time_limit: float | None = None, hint: str = "") -> ScoreSolutions:
    """The complex solution count and the certified real boxes of ``system`` (its unknowns only).

    ``EngineTimeout`` past ``time_limit`` seconds; ``ExternalEngineError`` when msolve is missing or
    fails.
    """
    data = msolve_parametrisation(list(system.variables()), system.texts(), time_limit=time_limit, hint=hint)
    return _read(data, len(system.unknowns))


def _read(data: Any, width: int) -> ScoreSolutions:
    if not isinstance(data, list) or not data:
        raise ExternalEngineError("cannot read msolve's parametrisation")
    if data[0] == -1:
        return ScoreSolutions(-1, 0, ())
    if data[0] != 0:
        return ScoreSolutions(int(data[0]), 0, ())
    body = data[1]
    degree = int(body[2])
    boxes: list[tuple[tuple[Fraction, Fraction], ...]] = []
    if len(data) > 2 and data[2] and data[2][0] == 1:
        for box in data[2][1]:
            boxes.append(tuple((Fraction(lo), Fraction(hi)) for lo, hi in box[:width]))
    return ScoreSolutions(0, degree, tuple(boxes))


def count_solutions(
    system: ScoreSystem, *, characteristic: int = MSOLVE_PRIME, time_limit: float | None = None
) -> int:
    """The number of solutions of ``system`` over the algebraic closure of the prime field (0: none;
    ``ExternalEngineError`` when there are infinitely many)."""
    text = run_msolve(
        list(system.variables()),
        system.texts(),
        ["-P", "1"],
        time_limit=time_limit,
        characteristic=characteristic,
    )
    data = parse_lists(text)
    if data[0] == -1:
        return 0
    if data[0] != 0:
        raise ExternalEngineError("the score system has infinitely many solutions (positive dimension)")
    return int(data[1][2])
