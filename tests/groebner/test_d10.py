"""Correlated structures (derivation d10): fast rows against the committed tables; the full run is slow.

The user guide's closed form for the one-pair structure is read from its page
(``docs/guide/correlated.md``, which also evaluates it in a doctest) and evaluated on the exact
sketch of a correlated test: it gives the truth's prevalence (exact round trip).
"""

from __future__ import annotations

import re

import pytest
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    standard_transformations,
)

from evalgebra.data.simulate import expected_sketch
from evalgebra.groebner.coordinates import sketch_moments
from evalgebra.groebner.identifiability import random_point
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.scripts import DERIVATIONS, ROOT, load_derivation

RESULT = DERIVATIONS / "results" / "d10_correlated_structures.txt"
MARKDOWN = DERIVATIONS / "results" / "d10_correlated_structures.md"
GUIDE = ROOT / "docs" / "guide" / "correlated.md"


def _committed(n: int, text: str) -> list[str]:
    rows = [
        re.split(r"\s{2,}", line.strip())
        for line in RESULT.read_text(encoding="utf-8").splitlines()
        if line.startswith(f"{n}  {text}  ")
    ]
    assert len(rows) == 1, (n, text)
    return rows[0]


FAST = [
    ((0, 1),),
    ((0, 1), (0, 2), (0, 3)),
    ((0, 1), (0, 2), (1, 3)),
    ((0, 1, 2, 3),),
    ((0, 1), (0, 2), (1, 2, 3)),
]


@pytest.mark.parametrize("structure", FAST)
def test_d10_fast_rows_match_committed_tables(structure):
    d10 = load_derivation("d10_correlated_structures")
    cells, timings, form = d10.row(4, structure, seed=0, limit=120.0, points=None)
    committed = _committed(4, cells[1])
    assert cells[:3] == committed[:3]
    assert cells[4:] == committed[4:]  # the points column comes from the atlas
    assert "groebner" in timings
    cells[3] = committed[3]
    published = MARKDOWN.read_text(encoding="utf-8").splitlines()
    assert d10.markdown_row(cells, form) in published


def _d(text: str) -> sympy.Expr:
    """A guide/table polynomial in ``D_T`` (``D_023^2 + 4 D_02 D_03 D_23``) as SymPy, symbols ``D_0_2_3``."""
    text = re.sub(r"D_(\d+)", lambda m: "D_" + "_".join(m.group(1)), text)
    return parse_expr(text, transformations=standard_transformations + (implicit_multiplication, convert_xor))


def _round_trip(k_text: str, c_text: str, structure, truth_prevalence) -> None:
    spec = EnsembleSpec(4, 2, structure)
    truth = random_point(spec, 3)
    sketch = expected_sketch(truth)
    moments = {
        sympy.Symbol(str(key)): sympy.Rational(v.numerator, v.denominator)
        for key, v in sketch_moments(sketch).items()
    }
    k, c = _d(k_text).xreplace(moments), _d(c_text).xreplace(moments)
    roots = {
        sympy.nsimplify(sympy.Rational(1, 2) * (1 + sign * k / sympy.sqrt(k**2 + 4 * c))) for sign in (-1, 1)
    }
    assert truth_prevalence(truth) in roots
    assert all(r.is_Rational for r in roots)  # the sketch is explained by the structure: rational points


def test_guide_prints_the_one_pair_closed_form_and_it_gives_the_truth():
    section = GUIDE.read_text(encoding="utf-8")
    found = re.search(r"P_a = 1/2 \(1 -\+ (D_\d+) / sqrt\(\1\^2 \+ 4 ([D_\d ]+)\)\)", section)
    assert found is not None, "the one-pair closed form is missing from docs/guide/correlated.md"
    _round_trip(found.group(1), found.group(2), [(0, 1)], lambda p: sympy.Rational(p.prevalence_of()["a"]))
    assert "d10_correlated_structures.md" in section


@pytest.mark.parametrize("structure", [((0, 1), (0, 2), (1, 2, 3)), ((0, 1),), ((0, 1), (0, 2), (0, 3))])
def test_published_closed_forms_give_the_truth(structure):
    d10 = load_derivation("d10_correlated_structures")
    start = f"| 4 | `{d10.structure_code(structure)}` |"
    rows = [line for line in MARKDOWN.read_text(encoding="utf-8").splitlines() if line.startswith(start)]
    assert len(rows) == 1
    k_text, c_text = (cell.strip().strip("`") for cell in rows[0].strip("|").split("|")[-2:])
    _round_trip(k_text, c_text, structure, lambda p: sympy.Rational(p.prevalence_of()["a"]))


@pytest.mark.slow
def test_d10_full_run_matches_committed_table():
    assert load_derivation("d10_correlated_structures").main(["--check"]) == 0


def test_guide_pair_table_agrees_with_the_published_table():
    section = GUIDE.read_text(encoding="utf-8")
    published = {}
    for line in MARKDOWN.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 9 and cells[0] == "4":
            published[cells[1].strip("`")] = cells[3:7]
    checked = 0
    for line in section.splitlines():
        found = re.match(r"^\| [^|`]*`([0-9,-]+)` \| (\d+) \| (\d+) \| (\w+) \| (\w+) \|", line)
        if found:
            text = " ".join(part.replace("-", "") for part in found.group(1).split(","))
            assert published[text] == list(found.groups()[1:]), line
            checked += 1
    assert checked == 5  # one pair, two adjacent pairs, star, path, triangle
