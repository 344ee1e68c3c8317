r"""Results of ideal computations: bases that print, and remember how they were made.

An :class:`Ideal` holds exact generators (python-flint ``fmpq_mpoly``) in a
:class:`~evalgebra.groebner.polys.PolyRing`, plus the backend, ordering, coordinates and
wall time of the computation that produced it. It prints as text and LaTeX, converts to
SymPy and, when it is a Gröbner basis, reports dimension and degree. In Jupyter it shows
its first generators in mathematical LaTeX (``prev_a`` as :math:`P_{a}`, ``acc_0_a`` as
:math:`P_{0,a}`) and counts the rest.

Examples
--------
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "degrevlex")
>>> ideal = Ideal(ring, [ring.parse("x - y"), ring.parse("y^2 - 1")], "example")
>>> print(ideal)
x - y
y^2 - 1
>>> ideal.dimension(), ideal.degree()
(0, 2)
>>> ring = PolyRing(("prev_a", "acc_0_a"), "lex")
>>> print(Ideal(ring, [ring.parse("acc_0_a^2 - prev_a"), ring.parse("prev_a - 1/2")]).to_latex())
\begin{align*}
P_{0,a}^{2} - P_{a} &= 0 \\
P_{a} - \frac{1}{2} &= 0
\end{align*}
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy

from evalgebra.builder.latex import LATEX_ROWS, aligned, latex_text
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.varieties import degree, dimension

__all__ = ["Ideal"]


@dataclass
class Ideal:
    """Generators of an ideal with the provenance of their computation.

    Attributes
    ----------
    ring : PolyRing
        Variables and monomial ordering of the generators.
    generators : list of fmpq_mpoly
    description : str
        What the generators are (e.g. "reduced Gröbner basis", "elimination ideal").
    backend : str
        The engine that computed them ("" when not computed).
    coordinates : str
        "raw" (pattern frequencies) or "moments".
    wall_time : float
        Seconds the computation took.
    is_groebner : bool
        True when the generators are a reduced Gröbner basis for ``ring.ordering``.
    eliminated : tuple of str
        Variables eliminated to get here.
    """

    ring: PolyRing
    generators: list[Any]
    description: str = ""
    backend: str = ""
    coordinates: str = "raw"
    wall_time: float = 0.0
    is_groebner: bool = True
    eliminated: tuple[str, ...] = field(default_factory=tuple)

    def __len__(self) -> int:
        return len(self.generators)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.generators)

    def __str__(self) -> str:
        return "\n".join(self.ring.text(p) for p in self.generators)

    def __repr__(self) -> str:
        return (
            f"Ideal({self.description or 'ideal'}: {len(self.generators)} generators in "
            f"{self.ring.nvars} variables, {self.ring.ordering}, backend={self.backend or '-'}, "
            f"coordinates={self.coordinates}, {self.wall_time:.3f} s)"
        )

    @property
    def variables(self) -> tuple[str, ...]:
        return self.ring.names

    def to_sympy(self) -> list[sympy.Expr]:
        """The generators as SymPy expressions in symbols named like the ring's variables."""
        return [self.ring.to_sympy(p) for p in self.generators]

    def to_latex(self, limit: int | None = None) -> str:
        """One generator per line of a LaTeX ``align*`` environment, in mathematical names.

        ``limit`` shows the first generators only and counts the rest; every generator
        shows at most :data:`~evalgebra.builder.latex.LATEX_TERMS` terms.
        """
        return aligned(*self._latex_rows(limit), noun="generators")

    def _latex_rows(self, limit: int | None) -> tuple[list[str], int]:
        shown = self.generators[:limit]
        return [f"{self.ring.latex(p)} &= 0" for p in shown], len(self.generators) - len(shown)

    def _repr_latex_(self) -> str:
        rows, more = self._latex_rows(LATEX_ROWS)
        title = (
            f"{self.description or 'ideal'}: {len(self.generators)} generators in {self.ring.nvars} variables"
        )
        return aligned([f"& {latex_text(title)}", *rows], more, "generators", display=True)

    def leading_monomials(self) -> list[tuple[int, ...]]:
        return [p.monoms()[0] for p in self.generators if p.coeffs()]

    def dimension(self) -> int:
        """Dimension of the variety (``-1`` when empty); needs a Gröbner basis."""
        self._require_groebner()
        return dimension(self.leading_monomials(), self.ring.nvars)

    def degree(self) -> int:
        """Degree of the variety; needs a basis in a graded ordering unless zero-dimensional."""
        self._require_groebner()
        leading = self.leading_monomials()
        if self.ring.ordering == "lex" and dimension(leading, self.ring.nvars) > 0:
            raise ValueError("the degree of a positive-dimensional variety needs a graded ordering")
        return degree(leading, self.ring.nvars)

    def _require_groebner(self) -> None:
        if not self.is_groebner:
            raise ValueError("these generators are not a Gröbner basis")

    def polynomials_in(self, variables: Sequence[str]) -> list[Any]:
        """The generators that involve only the given variables."""
        allowed = {k for k, n in enumerate(self.ring.names) if n in set(variables)}
        return [p for p in self.generators if all(k in allowed for k, e in enumerate(p.degrees()) if e)]
