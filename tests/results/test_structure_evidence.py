"""StructureEvidence: the statement in words, the JSON, the text lines, the refusals."""

from __future__ import annotations

import json

import pytest

from evalgebra.results import Estimate, Evaluation, StructureCandidate, StructureEvidence
from evalgebra.results.structure_evidence import dependence_statement

POINT = Estimate({"a": 0.3, "b": 0.7}, {"c0": {"a": 0.8, "b": 0.9}})


def _candidate(structure, subsets, value, k, q=1000):
    import math

    bic = -2 * value + k * math.log(q)
    return StructureCandidate(structure, subsets, value, k, bic, None, None, None, True, POINT)


def test_statement_names_the_dependent_subsets_and_the_ties():
    assert dependence_statement((("x", "y", "z"),)) == "x, y and z are dependent"
    evidence = StructureEvidence(
        "bic",
        1000,
        (
            _candidate("independent", (), -1000.0, 9),
            _candidate("c0-c1", (("c0", "c1"),), -900.0, 11),
            _candidate("c2-c3", (("c2", "c3"),), -900.0, 11),
        ),
        1,
        "exhaustive",
        (),
        (2,),
    )
    text = evidence.statement()
    assert text.startswith("c0 and c1 are dependent; or, exactly as likely, c2 and c3 are dependent")
    document = json.loads(json.dumps(evidence.to_dict(), allow_nan=False))
    assert document["chosen"] == "c0-c1" and document["indistinguishable"] == ["c2-c3"]
    assert [row["delta_bic"] for row in document["candidates"]] == pytest.approx(
        [200 - 2 * 6.907755, 0, 0], abs=1e-4
    )
    lines = evidence.lines(shown=2)
    assert "(chosen)" in lines[1] and "(exactly as likely)" in lines[2] and "1 more" in lines[3]


def test_evaluation_carries_the_evidence_into_json_and_summary():
    evidence = StructureEvidence(
        "bic", 10, (_candidate("independent", (), -5.0, 9, 10),), 0, "exhaustive", ("n",)
    )
    result = Evaluation(
        method="algebraic",
        labels=("a", "b"),
        classifiers=("c0",),
        points=(POINT,),
        chosen=0,
        structure_evidence=evidence,
    )
    assert result.to_dict()["structure_evidence"]["statement"] == "no two classifiers are dependent"
    assert "structure chosen by BIC: no two classifiers are dependent" in result.summary()
    assert (
        "structure_evidence"
        not in Evaluation(
            method="algebraic", labels=("a", "b"), classifiers=("c0",), points=(POINT,), chosen=0
        ).to_dict()
    )


def test_unknown_criterion_is_refused():
    with pytest.raises(ValueError, match="criterion"):
        StructureEvidence("aic", 10, (), 0, "exhaustive", ())
