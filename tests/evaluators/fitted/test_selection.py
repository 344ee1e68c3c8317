"""evaluate(sketch, structure="auto"): the candidates, the BIC rule, the evidence, the refusals.

The candidate list is checked against the atlas by isomorphism; the choice against the rule (the
smallest BIC, recomputed here from each candidate's log-likelihood and parameter count); on simulated
sampled tests with one strongly correlated pair the true pair is among the chosen (or the structures
as likely as it: on four classifiers a pair and the pair of the two others explain the same
distributions, which a fit shows here), and on independent judges the independent model is chosen.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from evalgebra import datasets
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.correlated.structure_lookup import atlas_entries
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.fitted.selection import identifiable_pair_structures
from evalgebra.evaluators.fitted.structure_choice import pattern_names
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint, fit_structure
from evalgebra.structures import isomorphism

ACCURACY = np.array([[0.8, 0.75], [0.7, 0.8], [0.75, 0.85], [0.8, 0.7]])


def _sampled(structure, correlation, seed, items=20_000, prevalence=0.3):
    model = StructureModel(4, structure)
    truth = StructurePoint(prevalence, ACCURACY, np.array([correlation] * len(structure)).reshape(-1, 2))
    counts = np.random.default_rng(seed).multinomial(items, model.probabilities(truth))
    return Sketch.from_counts(dict(zip(pattern_names(4, "ab"), counts.tolist())), labels=["a", "b"])


def test_identifiable_pair_structures_are_the_atlas_finite_graphs():
    found = identifiable_pair_structures(4)
    assert len(found) == len(set(found)) == 38
    finite = [e.structure for e in atlas_entries() if (e.n_classifiers, e.n_labels) == (4, 2) and e.finite]
    infinite = [
        e.structure for e in atlas_entries() if (e.n_classifiers, e.n_labels) == (4, 2) and not e.finite
    ]
    for structure in found:
        assert any(isomorphism(structure, entry, 4) is not None for entry in finite)
        assert not any(isomorphism(structure, entry, 4) is not None for entry in infinite)
    assert ((0, 1), (2, 3)) not in found and identifiable_pair_structures(3) == ()


@pytest.mark.parametrize("pair", [(0, 1), (1, 3)])
def test_auto_finds_a_strong_pair(pair):
    sketch = _sampled((pair,), (0.1, 0.08), seed=sum(pair))
    result = evaluate(sketch, structure="auto")
    evidence = result.structure_evidence
    names = {f"c{pair[0]}-c{pair[1]}"}
    chosen = {evidence.candidates[k].structure for k in (evidence.chosen, *evidence.tied)}
    assert names <= chosen and result.structure in chosen
    assert f"c{pair[0]} and c{pair[1]} are dependent" in evidence.statement()
    # the rule: the smallest BIC, recomputed from the log-likelihoods and parameter counts
    bics = [-2 * c.log_likelihood + c.n_parameters * math.log(sketch.Q) for c in evidence.candidates]
    assert bics == pytest.approx([c.bic for c in evidence.candidates])
    assert evidence.candidates[evidence.chosen].bic <= min(bics) + 2e-3
    assert len(evidence.candidates) == 39 and evidence.candidates[0].structure == "independent"
    assert result.verdict in ("fitted", "fit_rejected") and result.point_kind(result.chosen) == "fitted"
    document = json.loads(result.to_json())
    assert document["structure"] == result.structure and document["structure_evidence"]["criterion"] == "bic"
    row = document["structure_evidence"]["candidates"][1]
    assert {"log_likelihood", "n_parameters", "bic", "lr_p_value", "point"} <= set(row)


def test_auto_keeps_independent_judges_independent():
    sketch = _sampled((), (), seed=11)
    result = evaluate(sketch, structure="auto")
    assert result.structure == "independent"
    assert result.structure_evidence.statement() == "no two classifiers are dependent"
    assert result.points == evaluate(sketch).points  # the independent evaluation itself


def test_a_pair_and_the_other_two_explain_the_same_distributions():
    """On four classifiers the models of c1-c2 and of c0-c3 coincide: auto reports both as tied."""
    truth = StructurePoint(0.35, ACCURACY, np.array([[0.1, 0.08]]))
    exact = StructureModel(4, ((1, 2),)).probabilities(truth) * 1e6
    other = StructureModel(4, ((0, 3),))
    start = StructurePoint(0.35, np.full((4, 2), 0.75), np.zeros((1, 2)))
    fit = fit_structure(other, exact, [("start", start)])
    assert fit.log_likelihood == pytest.approx(fit.saturated_log_likelihood, abs=1e-6)
    assert abs(other.oriented(fit.point).prevalence - 0.35) > 0.01  # and it says something else
    result = evaluate(_sampled(((1, 2),), (0.1, 0.08), seed=1), structure="auto")
    tied = {result.structure_evidence.candidates[k].structure for k in result.structure_evidence.tied}
    assert {result.structure, *tied} >= {"c1-c2", "c0-c3"}


def test_auto_with_three_labels_or_abstentions_has_one_candidate():
    sketch = datasets.load("acs_employment").unlabelled()
    assert evaluate(sketch, structure="auto").structure_evidence.statement().startswith("no two")
    rng = np.random.default_rng(0)
    decisions = rng.integers(0, 3, (300, 4))
    three = Sketch.from_decisions(decisions, labels=["a", "b", "c"])
    result = evaluate(three, structure="auto")
    assert result.structure == "independent" and len(result.structure_evidence.candidates) == 1
    assert "two labels" in result.structure_evidence.notes[0]


def test_auto_refuses_what_it_cannot_do():
    sketch = _sampled((), (), seed=2, items=2000)
    with pytest.raises(SpecError, match="majority method"):
        evaluate(sketch, method="majority", structure="auto")
    with pytest.raises(SpecError, match="fit=True"):
        evaluate(sketch, structure="auto", fit=False)
    with pytest.raises(SpecError, match="intervals"):
        evaluate(sketch, structure="auto", intervals="bootstrap")
