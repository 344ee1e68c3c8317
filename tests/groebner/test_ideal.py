"""Ideals show themselves in mathematical LaTeX, with bounded size."""

from __future__ import annotations

from evalgebra.builder.latex import LATEX_ROWS, LATEX_TERMS
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import PolyRing


def test_ideal_latex_mathematical_names():
    ring = PolyRing(("corr_0_1_a", "acc_0_a", "prev_a", "u_0_1"), "lex")
    ideal = Ideal(
        ring,
        [ring.parse("corr_0_1_a^2 - 1/2*prev_a"), ring.parse("acc_0_a*u_0_1 - 3")],
        "reduced Gröbner basis",
        is_groebner=True,
    )
    assert ideal.to_latex() == (
        "\\begin{align*}\n"
        r"\left(G^{a}_{0,1}\right)^{2} - \frac{P_{a}}{2} &= 0 \\"
        "\n"
        r"P_{0,a} u_{0 1} - 3 &= 0"
        "\n"
        "\\end{align*}"
    )
    assert ideal._repr_latex_() == (
        "$$\\begin{aligned}\n"
        r"& \text{reduced Gröbner basis: 2 generators in 4 variables} \\"
        "\n"
        r"\left(G^{a}_{0,1}\right)^{2} - \frac{P_{a}}{2} &= 0 \\"
        "\n"
        r"P_{0,a} u_{0 1} - 3 &= 0"
        "\n"
        "\\end{aligned}$$"
    )


def test_ideal_latex_truncates_rows_and_terms():
    names = tuple(f"acc_{i}_a" for i in range(8))
    ring = PolyRing(names, "degrevlex")
    total = ring.parse(" + ".join(names) + " + 1")
    generators = [total**3 - k for k in range(30)]
    ideal = Ideal(ring, generators, "test_ideal", is_groebner=False)
    text = ideal._repr_latex_()
    assert text.count("&= 0") == LATEX_ROWS
    assert rf"\text{{({30 - LATEX_ROWS} more generators)}}" in text
    assert f"({len(generators[0]) - LATEX_TERMS} more terms)" in text
    assert r"\text{test\_ideal: 30 generators in 8 variables}" in text
    assert len(text) < 40_000
    assert "(25 more generators)" in ideal.to_latex(limit=5)
