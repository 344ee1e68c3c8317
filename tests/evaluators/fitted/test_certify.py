"""The certified global maximum: proved where the score equations are solved, refused elsewhere.

Independent routes: the certified point's log-likelihood against EM from many random starts
(never above it); EM started on a fixed point that is not the maximum (every classifier
uninformative) is replaced by the certified point; the certified point is a fixed point of EM;
an out-of-time solve, a model outside the certification and a test whose maximum is on the
boundary are ``undecided`` with their reasons, never a guess.
"""

from __future__ import annotations

import numpy as np
import pytest

from evalgebra import datasets
from evalgebra.data.sketch import Sketch
from evalgebra.engines import msolve_binary
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.fitted import Parameters, em, fit_sketch, log_likelihood
from evalgebra.evaluators.fitted.certify import certify_fitted
from evalgebra.results.certificate import UNDECIDED, LikelihoodCertificate
from evalgebra.testing.sampled import sampled_binary_sketch

NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")


def sampled(seed: int, n: int, size: int) -> Sketch:
    return sampled_binary_sketch(seed, n, size)


def random_starts(rng: np.random.Generator, n: int, count: int) -> list[Parameters]:
    starts = []
    for _ in range(count):
        prevalence = rng.dirichlet([1.0, 1.0])[None, :]
        response = rng.dirichlet([1.0, 1.0], size=(n, 2))
        starts.append(Parameters(prevalence, response))
    return starts


def uninformative(sketch: Sketch) -> Parameters:
    """Every classifier answering alike on both labels: an EM fixed point (posteriors = prior)."""
    n = sketch.n_classifiers
    marginal = np.array(
        [[sketch.pooled().marginalise([c]).counts().get((t,), 0) for t in "ab"] for c in sketch.classifiers]
    )
    rows = marginal / marginal.sum(axis=1, keepdims=True)
    return Parameters(np.array([[0.5, 0.5]]), np.stack([rows, rows], axis=1).reshape(n, 2, 2))


@NEEDS_MSOLVE
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_certify_three_classifiers_beats_every_random_start(seed):
    sketch = sampled(seed, 3, 300)
    fitted, certificate = certify_fitted(fit_sketch(sketch), time_limit=120)
    assert certificate.global_maximum is True and certificate.critical_points == 2
    rng = np.random.default_rng(seed)
    runs = [em(fitted.cells, start) for start in random_starts(rng, 3, 20)]
    assert max(run.log_likelihood for run in runs) <= certificate.log_likelihood + 1e-6 * (
        1 + abs(certificate.log_likelihood)
    )
    assert fitted.log_likelihood == pytest.approx(certificate.log_likelihood, rel=1e-9)
    again = em(fitted.cells, fitted.parameters)  # the certified point is a fixed point of EM
    assert again.log_likelihood == pytest.approx(fitted.log_likelihood, rel=1e-12)


@NEEDS_MSOLVE
def test_certify_replaces_an_em_run_stuck_at_a_fixed_point():
    sketch = sampled(5, 3, 400)
    stuck = fit_sketch(sketch, [("uninformative", uninformative(sketch))], majority=False)
    fitted, certificate = certify_fitted(stuck, time_limit=120)
    assert certificate.global_maximum is True and "replaced by the certified point" in certificate.reason
    assert certificate.em_log_likelihood == pytest.approx(stuck.log_likelihood)
    assert fitted.log_likelihood > stuck.log_likelihood + 1.0
    assert fitted.start_names[fitted.chosen] == "certified"
    assert log_likelihood(fitted.cells, fitted.parameters) == pytest.approx(fitted.log_likelihood)


@NEEDS_MSOLVE
def test_certify_refuses_when_the_maximum_is_on_the_boundary():
    sketch = datasets.load("bigbench_mistake").unlabelled()  # complex exact points: no critical point inside
    fitted = fit_sketch(sketch)
    same, certificate = certify_fitted(fitted, time_limit=120)
    assert certificate.global_maximum == UNDECIDED and certificate.critical_points == 0
    assert "boundary stratum" in certificate.reason and same is fitted


@NEEDS_MSOLVE
def test_certify_out_of_time_is_undecided_and_keeps_the_fit():
    fitted = fit_sketch(sampled(0, 4, 500))
    same, certificate = certify_fitted(fitted, time_limit=0.5)
    assert certificate.global_maximum == UNDECIDED and "did not finish within 0.5 s" in certificate.reason
    assert same is fitted and certificate.critical_points is None
    assert {kind for _, _, kind in certificate.strata} == {"exact", "bound"}


def test_certify_refuses_models_it_does_not_cover():
    sketch = datasets.load("acs_employment").unlabelled().marginalise(["c1", "c2"])
    fitted, certificate = certify_fitted(fit_sketch(sketch))
    assert certificate.global_maximum == UNDECIDED and "at least 3" in certificate.reason


@NEEDS_MSOLVE
def test_evaluate_certify_attaches_the_certificate_to_the_json():
    result = evaluate(sampled(1, 3, 300), certify=True)
    document = result.to_dict()
    assert (
        document["certificate"]["global_maximum"] is True and document["certificate"]["critical_points"] == 2
    )
    assert "certificate" not in evaluate(sampled(1, 3, 300)).to_dict()
    with pytest.raises(Exception, match="needs fit=True"):
        evaluate(sampled(1, 3, 300), certify=True, fit=False)


def test_certificate_refuses_an_unknown_answer():
    with pytest.raises(ValueError, match="global_maximum must be"):
        LikelihoodCertificate("maybe", "", None, None, None, 0.0, (), 0.0)


@pytest.mark.slow
@NEEDS_MSOLVE
@pytest.mark.parametrize("seed", [0, 1])
def test_certify_four_classifiers_beats_every_random_start(seed):
    """Four binary classifiers: the certified point is at least the best of 50 random-start EM runs.

    msolve must solve the 22-unknown score system: more than 15 minutes on the shared 2-core machine
    (derivations/results/d15_timings.txt); give it EVALGEBRA_TIME_LIMIT seconds.
    """
    import os

    limit = float(os.environ.get("EVALGEBRA_TIME_LIMIT", "3600"))
    fitted, certificate = certify_fitted(fit_sketch(sampled(seed, 4, 1000)), time_limit=limit)
    assert certificate.global_maximum is True, certificate.reason
    runs = [em(fitted.cells, start) for start in random_starts(np.random.default_rng(seed), 4, 50)]
    best = max(run.log_likelihood for run in runs)
    assert best <= certificate.log_likelihood + 1e-6 * (1 + abs(best))
