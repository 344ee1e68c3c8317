"""Tests of evalgebra.evaluators.hui_walter.gibbs: the Gibbs sampler of the Hui-Walter latent-class model."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.hui_walter.exact import hui_walter_truth
from evalgebra.evaluators.hui_walter.gibbs import GibbsResult, evaluate_hui_walter_gibbs
from evalgebra.spec import EnsembleSpec

NAMED = EnsembleSpec(["rf", "svc"], ["malignant", "benign"], populations=["north", "south"])


def _mirror(values: tuple, n_pops: int) -> tuple:
    theta, acc = values[:n_pops], values[n_pops:]
    swapped = []
    for i in range(0, len(acc), 2):
        swapped += [1 - acc[i + 1], 1 - acc[i]]
    return (*(1 - t for t in theta), *swapped)


TRUTH = EvaluationPoint.from_values(
    NAMED,
    {"north": {"malignant": "3/5"}, "south": {"malignant": "1/10"}},
    accuracy={"rf": {"malignant": "4/5", "benign": "9/10"}, "svc": {"malignant": "7/10", "benign": "17/20"}},
)


@pytest.fixture(scope="module")
def big_sketch():
    return expected_sketch(TRUTH, {"north": 2000, "south": 4000})


@pytest.fixture(scope="module")
def posterior(big_sketch):
    return evaluate_hui_walter_gibbs(big_sketch.unlabelled(), iterations=3000, burn_in=500, chains=4, seed=7)


def test_gibbs_posterior_covers_truth(posterior, big_sketch):
    truth = hui_walter_truth(big_sketch)
    assert all(posterior.covers(truth).values())
    for key, (mean, low, high) in posterior.summary().items():
        assert low < mean < high and abs(mean - float(truth[key])) < 0.03, key
    assert np.all(posterior.rhat < 1.05)
    assert posterior.draws.shape == (4, 3000, 6) and posterior.switched.shape == (4,)


def test_gibbs_is_reproducible_from_its_seed(big_sketch):
    one = evaluate_hui_walter_gibbs(big_sketch, iterations=50, burn_in=10, seed=3)
    two = evaluate_hui_walter_gibbs(big_sketch, iterations=50, burn_in=10, seed=3)
    three = evaluate_hui_walter_gibbs(big_sketch, iterations=50, burn_in=10, seed=4)
    assert np.array_equal(one.draws, two.draws) and not np.array_equal(one.draws, three.draws)


def test_gibbs_label_switching_rule_maps_the_mirror_mode_back(posterior, big_sketch):
    truth = hui_walter_truth(big_sketch)
    mirror = dict(zip(posterior.parameters, _mirror(tuple(float(truth[k]) for k in posterior.parameters), 2)))
    started = evaluate_hui_walter_gibbs(
        big_sketch, iterations=1500, burn_in=0, chains=2, seed=7, initial=mirror
    )
    assert np.all(started.switched > 0.99)  # the chains stay in the mirror mode ...
    assert all(started.covers(truth).values())  # ... and the rule maps every draw back
    youden = (started.draws[..., 2::2] + started.draws[..., 3::2] - 1).sum(axis=-1)
    assert np.all(youden >= 0)
    # the rule does not depend on the label names: relabelled, the same evaluation
    relabelled = evaluate_hui_walter_gibbs(
        big_sketch.with_label_order(["benign", "malignant"]), iterations=1500, burn_in=300, seed=7
    )
    for key, (mean, _, _) in relabelled.summary().items():
        if key[0] == "prevalence":
            assert abs(1 - mean - posterior.summary()[key][0]) < 0.02
        else:
            assert abs(mean - posterior.summary()[key][0]) < 0.02


def test_gibbs_total_accuracy_rule_covers_truth(big_sketch):
    result = evaluate_hui_walter_gibbs(
        big_sketch, iterations=1000, burn_in=300, seed=5, decoding="total_accuracy"
    )
    assert all(result.covers(hui_walter_truth(big_sketch)).values())
    assert result.settings["decoding"] == "total_accuracy"


def test_gibbs_three_tests_one_population():
    point = EvaluationPoint.from_values(
        EnsembleSpec(3, 2),
        {"a": "3/10"},
        accuracy={0: {"a": "4/5", "b": "9/10"}, 1: {"a": "7/10", "b": "4/5"}, 2: {"a": "9/10", "b": "7/10"}},
    )
    sketch = expected_sketch(point, 5000)
    result = evaluate_hui_walter_gibbs(sketch, iterations=1500, burn_in=300, seed=0)
    assert all(result.covers(hui_walter_truth(sketch)).values())


def test_gibbs_results_as_an_evaluation(posterior):
    evaluation = posterior.evaluation()
    assert evaluation.method == "hui_walter_gibbs" and evaluation.chosen == 0
    assert abs(evaluation.point.by_population["south"]["malignant"] - 0.1) < 0.02
    assert "R-hat" in posterior.to_text().splitlines()[0]
    json.loads(evaluation.to_json())


def test_gibbs_rejects_bad_settings(big_sketch):
    with pytest.raises(SpecError, match="prevalence_prior"):
        evaluate_hui_walter_gibbs(big_sketch, prevalence_prior=(0, 1))
    with pytest.raises(SpecError, match="accuracy_prior"):
        evaluate_hui_walter_gibbs(big_sketch, accuracy_prior={"malignant": (1, 1)})
    with pytest.raises(SpecError, match="level"):
        evaluate_hui_walter_gibbs(big_sketch, level=1.5)
    with pytest.raises(SpecError, match="iterations"):
        evaluate_hui_walter_gibbs(big_sketch, iterations=1)


def test_gibbs_result_repr_is_short_and_html_is_a_table(posterior):
    assert isinstance(posterior, GibbsResult)
    text = repr(posterior)
    assert len(text) < 300 and "\n" not in text
    assert text.startswith("GibbsResult(6 parameters, 4 chains x 3000 draws")
    page = posterior._repr_html_()
    assert page.count("<tr>") == 1 + len(posterior.parameters)
    assert "R-hat" in page and "accuracy rf malignant" in page and len(page) < 5000


def test_gibbs_result_html_escapes_names():
    sketch = expected_sketch(
        EvaluationPoint.from_values(
            EnsembleSpec(["<b>", "svc"], ["m&m", "benign"], populations=["north", "south"]),
            {"north": {"m&m": "3/5"}, "south": {"m&m": "1/10"}},
            accuracy={"<b>": {"m&m": "4/5", "benign": "9/10"}, "svc": {"m&m": "7/10", "benign": "17/20"}},
        ),
        {"north": 2000, "south": 4000},
    )
    page = evaluate_hui_walter_gibbs(sketch, iterations=20, burn_in=0, chains=1)._repr_html_()
    assert "<b>" not in page and "&lt;b&gt;" in page and "m&amp;m" in page
