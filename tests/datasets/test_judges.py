"""The generated judge data: seeded, the truth measurable, abstentions tracking difficulty."""

from __future__ import annotations

import numpy as np
import pytest

from evalgebra.datasets.judges import JUDGES, llm_judges
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import evaluate


def test_llm_judges_is_seeded_and_shaped():
    a, b, c = llm_judges(1000, seed=5), llm_judges(1000, seed=5), llm_judges(1000, seed=6)
    assert a.verdicts.shape == (1000, len(JUDGES))
    assert (a.verdicts == b.verdicts).all() and not (a.verdicts == c.verdicts).all()
    assert set(a.verdicts[:, 3]) == {"pass", "fail", "unsure"} and None in set(a.verdicts[:, 4])
    assert set(a.verdicts[:, :3].ravel()) == {"pass", "fail"}


def test_llm_judges_abstain_more_on_hard_items_and_on_failing_answers():
    data = llm_judges(20_000, seed=0)
    silent = np.array([v is None for v in data.verdicts[:, 4]])
    hard = data.difficulty > np.median(data.difficulty)
    assert silent[hard].mean() > 2 * silent[~hard].mean()
    point = data.truth_point()
    assert point.response_rate("small_silent", "unsure", "fail") > point.response_rate(
        "small_silent", "unsure", "pass"
    )


def test_llm_judges_policies_report_what_they_did():
    data = llm_judges(3000, seed=2)
    n_silent = sum(v is None for v in data.verdicts[:, 4])
    kept = data.sketch(missing="drop")
    assert kept.missing_report.dropped == n_silent and kept.Q == 3000 - n_silent
    assert data.sketch().missing_report.abstained == n_silent
    with pytest.raises(Exception, match="missing answer"):
        data.sketch(missing="error")


def test_llm_judges_evaluation_with_abstentions_is_close_and_dropping_is_biased():
    data = llm_judges(10_000, seed=0)
    truth = data.truth_point().prevalence_of()["pass"]
    kept = evaluate(data.sketch()).point.prevalence["pass"]
    dropped = evaluate(data.sketch(missing="drop")).point.prevalence["pass"]
    assert abs(float(kept) - float(truth)) < 0.01
    assert float(dropped) - float(truth) > 0.015  # failing answers are dropped more often


def test_llm_judges_rejects_bad_arguments():
    with pytest.raises(SpecError, match="n_items"):
        llm_judges(0)
    with pytest.raises(SpecError, match="pass_rate"):
        llm_judges(10, pass_rate=1.5)
