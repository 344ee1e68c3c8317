"""Mathematical LaTeX of generating sets and polynomials: names, escaping, bounded size."""

from __future__ import annotations

import time

import flint
import pytest
import sympy

from evalgebra.builder import FlintSystem, GeneratingSet, generating_set
from evalgebra.builder.latex import (
    LATEX_ROWS,
    LATEX_TERMS,
    aligned,
    flint_terms,
    key_of_name,
    latex_name,
    latex_text,
    terms_latex,
)
from evalgebra.spec import EnsembleSpec

# The generating set of three independent binary classifiers, as Jupyter shows it.
N3_R2_INDEPENDENT = "\n".join(
    [
        r"$$\begin{aligned}",
        r"f_{aaa} &= P_{0,a} P_{1,a} P_{2,a} P_{a} + \left(1 - P_{0,b}\right) \left(1 - P_{1,b}\right)"
        r" \left(1 - P_{2,b}\right) \left(1 - P_{a}\right) \\",
        r"f_{aab} &= P_{0,a} P_{1,a} P_{a} \left(1 - P_{2,a}\right) + P_{2,b} \left(1 - P_{0,b}\right)"
        r" \left(1 - P_{1,b}\right) \left(1 - P_{a}\right) \\",
        r"f_{aba} &= P_{0,a} P_{2,a} P_{a} \left(1 - P_{1,a}\right) + P_{1,b} \left(1 - P_{0,b}\right)"
        r" \left(1 - P_{2,b}\right) \left(1 - P_{a}\right) \\",
        r"f_{abb} &= P_{0,a} P_{a} \left(1 - P_{1,a}\right) \left(1 - P_{2,a}\right) + P_{1,b} P_{2,b}"
        r" \left(1 - P_{0,b}\right) \left(1 - P_{a}\right) \\",
        r"f_{baa} &= P_{0,b} \left(1 - P_{1,b}\right) \left(1 - P_{2,b}\right) \left(1 - P_{a}\right)"
        r" + P_{1,a} P_{2,a} P_{a} \left(1 - P_{0,a}\right) \\",
        r"f_{bab} &= P_{0,b} P_{2,b} \left(1 - P_{1,b}\right) \left(1 - P_{a}\right) + P_{1,a} P_{a}"
        r" \left(1 - P_{0,a}\right) \left(1 - P_{2,a}\right) \\",
        r"f_{bba} &= P_{0,b} P_{1,b} \left(1 - P_{2,b}\right) \left(1 - P_{a}\right) + P_{2,a} P_{a}"
        r" \left(1 - P_{0,a}\right) \left(1 - P_{1,a}\right) \\",
        r"f_{bbb} &= P_{0,b} P_{1,b} P_{2,b} \left(1 - P_{a}\right) + P_{a} \left(1 - P_{0,a}\right)"
        r" \left(1 - P_{1,a}\right) \left(1 - P_{2,a}\right) \\",
        r"& \text{classifiers: } 0 = \text{c0},\ 1 = \text{c1},\ 2 = \text{c2}"
        r" \quad \text{labels: } a = \text{a},\ b = \text{b}",
        r"\end{aligned}$$",
    ]
)


def test_repr_latex_generating_set_exact():
    assert GeneratingSet(EnsembleSpec(3, 2, "independent"))._repr_latex_() == N3_R2_INDEPENDENT


def test_to_latex_mathematical_names_in_every_space():
    assert generating_set(2, 2, space="R").to_latex(limit=1).splitlines()[1] == (
        r"Q_{a} Q_{b} n_{aa} &= Q_{a} \left(Q_{b} - R_{0,b|b}\right) \left(Q_{b} - R_{1,b|b}\right)"
        r" + Q_{b} R_{0,a|a} R_{1,a|a} \\"
    )
    correlated = generating_set(2, 3, "complete").to_latex(limit=1)
    assert r"G^{a}_{0,1}(a,a)" in correlated and r"P_{0,a|b}" in correlated
    strata = generating_set(2, 2, "complete", populations=2).to_latex(limit=1)
    assert strata.splitlines()[1].startswith(
        r"f^{(0)}_{aa} &= P^{(0)}_{a} \left(P_{0,a} P_{1,a} + G^{a}_{0,1}\right)"
    )
    assert "acc" not in strata and "prev" not in strata and "corr" not in strata


def test_to_latex_keeps_one_identity_per_pattern():
    gs = generating_set(2, 2, "complete")
    text = gs.to_latex(expand=True)
    assert text.startswith("\\begin{align*}\n") and text.endswith("\n\\end{align*}")
    assert text.count("&=") == len(gs.patterns)


def test_latex_legend_escapes_user_text():
    gs = GeneratingSet(EnsembleSpec(["x&y", "{z}", "back\\slash"], ["50%", "a_b", "#1 ~^$"]))
    assert gs.latex_legend() == (
        r"\text{classifiers: } 0 = \text{x\&y},\ 1 = \text{\{z\}},\ 2 = \text{back\textbackslash{}slash}"
        r" \quad \text{labels: } a = \text{50\%},\ b = \text{a\_b},\ c = \text{\#1 "
        r"\textasciitilde{}\textasciicircum{}\$}"
    )
    assert gs._repr_latex_().endswith("& " + gs.latex_legend() + "\n\\end{aligned}$$")
    assert "50%" not in gs._repr_latex_().replace(r"50\%", "")


def test_latex_text_escapes_every_special_character():
    assert latex_text("plain text 1.5") == r"\text{plain text 1.5}"
    assert latex_text("\\{}$&#_%~^") == (
        r"\text{\textbackslash{}\{\}\$\&\#\_\%\textasciitilde{}\textasciicircum{}}"
    )


def test_repr_latex_truncates_long_generating_sets():
    gs = generating_set(10, 2)
    start = time.monotonic()
    text = gs._repr_latex_()
    assert time.monotonic() - start < 10
    assert text.count("&=") == LATEX_ROWS
    assert rf"\vdots & \quad \text{{({2**10 - LATEX_ROWS} more identities)}}" in text
    assert len(text) < 20_000
    assert "1012 more identities" in gs.to_latex(limit=12)


def test_polynomials_show_in_mathematical_names():
    polys = generating_set(2, 2).polynomials()
    assert isinstance(polys, list) and len(polys) == 4
    text = polys._repr_latex_()
    assert text.count("&= 0") == 4 and "P_{0,a}" in text and "acc" not in text
    many = generating_set(5, 2).polynomials()
    assert "(20 more polynomials)" in many._repr_latex_()


def test_flint_system_repr_latex_truncates_terms():
    system = generating_set(6, 2, "complete").flint()
    assert isinstance(system, FlintSystem)
    text = system._repr_latex_()
    assert text.count("&= 0") == LATEX_ROWS and "(52 more polynomials)" in text
    rows = text.splitlines()[1 : LATEX_ROWS + 1]
    for row, poly in zip(rows, system.polynomials):
        assert len(poly) > LATEX_TERMS and f"({len(poly) - LATEX_TERMS} more terms)" in row
    assert "corr" not in text and "acc" not in text
    assert "G^{a}_{4,5}" in text


def test_terms_latex_counts_what_it_leaves_out():
    x, y = sympy.symbols("prev_a acc_0_a")
    names = {x: latex_name(x), y: latex_name(y)}
    assert terms_latex(sympy.Integer(0), names) == "0"
    assert terms_latex(-x * y, names) == "- P_{0,a} P_{a}"
    assert terms_latex(x - y, names) == "- P_{0,a} + P_{a}"
    assert terms_latex(x + y + 1, names, max_terms=2) == r"P_{0,a} + P_{a} + \dots \text{(1 more term)}"
    ctx = flint.fmpq_mpoly_ctx.get(("prev_a", "acc_0_a"), "lex")
    a, b = ctx.gens()
    poly = (a + b + 1) ** 3
    head, more = flint_terms(poly, [x, y], max_terms=3)
    assert more == len(poly) - 3 == 7
    assert terms_latex(head, names, more=more).endswith(r"\dots \text{(7 more terms)}")
    assert LATEX_TERMS >= 10


def test_aligned_display_and_document_forms():
    assert aligned(["x &= 1"]) == "\\begin{align*}\nx &= 1\n\\end{align*}"
    assert aligned(["x &= 1"], 2, display=True) == (
        "$$\\begin{aligned}\nx &= 1 \\\\\n\\vdots & \\quad \\text{(2 more)}\n\\end{aligned}$$"
    )


@pytest.mark.parametrize(
    "name",
    [
        "x",
        "u_0_1",
        "J_0_1_a",
        "acc_a",
        "resp_0_b",
        "corr_0_a",
        "f_0",
        "prev_0_a",
        "m_0",
        "D_0",
        "corr_0_1_a_a",
        "R_0_a",
    ],
)
def test_key_of_name_refuses_names_no_registry_makes(name):
    assert key_of_name(name) is None
    assert latex_name(name) == sympy.latex(sympy.Symbol(name))
