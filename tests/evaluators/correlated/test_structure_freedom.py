"""Structures whose correlations the counts leave free: detected exactly, refused with a fix that works.

Independent routes: the Gröbner route's dimension of the correlations (the committed table of
derivation d10), and the truth of exact simulations (the trio the refusal names evaluates to
the truth's prevalence and accuracies).
"""

from __future__ import annotations

import re

import pytest

from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.correlated.structure_freedom import correlation_freedom, independent_trios
from evalgebra.evaluators.correlated.structure_lookup import MissingStructureModule, atlas_entries
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.groebner.identifiability import random_point
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import structure_text
from evalgebra.testing.scripts import DERIVATIONS

TABLE = DERIVATIONS / "results" / "d10_correlated_structures.txt"


def _d10_free_column() -> dict[tuple[int, tuple[tuple[int, ...], ...]], int]:
    out = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not re.match(r"^[345]  \S", line):
            continue
        cells = re.split(r"\s{2,}", line.strip())
        structure = () if cells[1] == "-" else tuple(tuple(int(c) for c in part) for part in cells[1].split())
        if cells[9] != "-":
            out[(int(cells[0]), structure)] = int(cells[9])
    return out


FREE_N4 = [
    e.structure
    for e in atlas_entries()
    if (e.n_classifiers, e.n_labels) == (4, 2) and e.finite and correlation_freedom(e.structure, 4)
]


def test_correlation_freedom_equals_the_groebner_route_on_every_computed_structure():
    column = _d10_free_column()
    assert len(column) >= 52
    assert {key: correlation_freedom(key[1], key[0]) for key in column} == column


def test_correlation_freedom_counts_25_free_structures_of_37_on_four_classifiers():
    finite = [
        e for e in atlas_entries() if (e.n_classifiers, e.n_labels) == (4, 2) and e.finite and e.structure
    ]
    assert (len(finite), len(FREE_N4)) == (36, 25)  # the 37th finite structure is the independent one


def test_independent_trios_hold_no_subset_of_the_structure():
    structure = ((0, 1), (1, 2, 3))
    trios = independent_trios(structure, 4)
    assert trios == [(0, 2, 3)]
    assert all(not set(s) <= set(t) for t in trios for s in structure)


@pytest.mark.parametrize("structure", FREE_N4, ids=structure_text)
def test_evaluate_refuses_free_correlations_and_the_named_trio_recovers_the_truth(structure):
    truth = random_point(EnsembleSpec(4, 2, structure), 1)
    sketch = expected_sketch(truth).unlabelled()
    with pytest.raises(SpecError, match="leave its correlations free") as refused:
        evaluate(sketch, structure=list(structure))
    assert not isinstance(
        refused.value, MissingStructureModule
    )  # evaluate --derive does not try to derive it
    message = str(refused.value)
    assert "\n" not in message and "-dimensional family of them fits each of its 2 evaluations" in message
    named = re.search(r"marginalise\((\[.*?\])\)", message)
    assert (named is not None) == bool(independent_trios(structure, 4))
    if named is None:
        return
    trio = eval(named.group(1))  # noqa: S307 - the message's own list of names
    result = evaluate(sketch.marginalise(trio))
    prevalence = truth.prevalence_of()["a"]
    assert prevalence in [p.prevalence["a"] for p in result.points]
    point = next(p for p in result.points if p.prevalence["a"] == prevalence)
    assert all(point.accuracy[c] == {k: truth.accuracy(c, k) for k in ("a", "b")} for c in trio)


def test_cli_evaluate_refuses_free_correlations_with_exit_2_and_derives_nothing(
    tmp_path, monkeypatch, capsys
):
    from evalgebra.cli import main

    monkeypatch.setenv("EVALGEBRA_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "sketch.json"
    expected_sketch(random_point(EnsembleSpec(4, 2, [(0, 1, 2, 3)]), 0)).unlabelled().write_json(path)
    assert main(["evaluate", str(path), "--structure", "0-1-2-3", "--derive"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "evalgebra: error: structure 0-1-2-3 on 4 classifiers: the counts leave its correlations free"
    )
    assert "deriving" not in err and "--classifiers c0,c1,c2" in err
    assert main(["evaluate", str(path), "--classifiers", "c0,c1,c2"]) == 0


def test_cli_structure_with_an_empty_member_is_refused_not_guessed(tmp_path, capsys):
    from evalgebra.cli import main

    path = tmp_path / "sketch.json"
    expected_sketch(random_point(EnsembleSpec(4, 2, [(0, 1)]), 0)).unlabelled().write_json(path)
    for text in ("0--1", "0-1-", "0-1,,2-3"):  # "0--2" must not become the pair 0-2 when 0-1-2 was meant
        assert main(["evaluate", str(path), "--structure", text]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"evalgebra: error: --structure {text!r}: an empty member"), err


# -- other structures evaluate() cannot answer: refused with the reason and what works -----------------
def test_evaluate_structure_with_three_labels_is_refused_for_two_labels_only(tmp_path, monkeypatch, capsys):
    from evalgebra.cli import main

    monkeypatch.setenv("EVALGEBRA_CACHE", str(tmp_path / "cache"))
    sketch = expected_sketch(random_point(EnsembleSpec(4, 3), 0)).unlabelled()
    with pytest.raises(
        SpecError, match=r"with R = 3: correlated structures are evaluated for two labels only"
    ):
        evaluate(sketch, structure="0-1")
    assert evaluate(sketch, structure="independent").structure == "independent"
    path = tmp_path / "r3.json"
    sketch.write_json(path)
    assert main(["evaluate", str(path), "--structure", "0-1", "--derive"]) == 2  # nothing to derive for R = 3
    err = capsys.readouterr().err
    assert "two labels only" in err and "python -m evalgebra.codegen" not in err and "deriving" not in err


def test_evaluate_structure_with_abstentions_names_what_works():
    from evalgebra.data.sketch import Sketch

    spec = EnsembleSpec(4, 2, [(0, 1)])
    rows = [
        list(p)
        for p, c in expected_sketch(random_point(spec, 0)).unlabelled().counts().items()
        for _ in range(c)
    ]
    rows[0][1] = "x"  # one abstention
    sketch = Sketch.from_decisions(rows, abstain=["x"])
    with pytest.raises(
        SpecError, match=r"with the correlated structure 0-1: .*collapse_responses\(\{'x': 'b'\}\)"
    ):
        evaluate(sketch, structure="c0-c1")
    assert (
        evaluate(sketch, structure=[]).to_dict() == evaluate(sketch).to_dict()
    )  # empty structure: independent
    assert evaluate(sketch.collapse_responses({"x": "b"}), structure="0-1").structure == "c0-c1"
