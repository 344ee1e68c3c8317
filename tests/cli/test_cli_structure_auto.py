"""``evalgebra evaluate --structure auto``: the dependent judges in words, the evidence in the JSON."""

from __future__ import annotations

import json

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.fitted.structure_choice import pattern_names
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint


def _write(tmp_path, structure, correlation):
    model = StructureModel(4, structure)
    truth = StructurePoint(
        0.3,
        np.array([[0.8, 0.75], [0.7, 0.8], [0.75, 0.85], [0.8, 0.7]]),
        np.array([correlation] * len(structure)).reshape(-1, 2),
    )
    counts = np.random.default_rng(5).multinomial(20_000, model.probabilities(truth))
    path = tmp_path / "sketch.json"
    Sketch.from_counts(dict(zip(pattern_names(4, "ab"), counts.tolist())), labels=["a", "b"]).write_json(path)
    return path


def test_cli_structure_auto_names_the_dependent_pair(cli, tmp_path):
    path = _write(tmp_path, ((0, 2),), (0.1, 0.08))
    status, out, _ = cli("evaluate", path, "--structure", "auto")
    assert status == 0 and "structure chosen by BIC: " in out
    assert "c0 and c2 are dependent" in out and "fitted by maximum likelihood (chosen)" in out
    status, text, _ = cli("evaluate", path, "--structure", "auto", "--json")
    document = json.loads(text)
    assert status == 0 and document["structure"] in ("c0-c2", "c1-c3")
    evidence = document["structure_evidence"]
    assert evidence["criterion"] == "bic" and len(evidence["candidates"]) == 39
    assert {evidence["chosen"], *evidence["indistinguishable"]} >= {"c0-c2", "c1-c3"}


def test_cli_structure_auto_on_independent_judges(cli, tmp_path):
    status, out, _ = cli("evaluate", _write(tmp_path, (), ()), "--structure", "auto")
    assert status == 0 and "no two classifiers are dependent" in out
    assert "method algebraic; structure independent" in out
