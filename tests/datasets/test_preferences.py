"""The generated preference panel: seeded, its rates those of the panel, long and wide text agreeing."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from evalgebra.datasets.preferences import LABELS, PANEL, PREFERENCE_PREVALENCE, judge_preferences
from evalgebra.errors import SpecError


def test_judge_preferences_is_seeded_and_shaped():
    a, b, c = judge_preferences(500, seed=5), judge_preferences(500, seed=5), judge_preferences(500, seed=6)
    assert a.verdicts.shape == (500, len(PANEL)) and a.labels == LABELS == ("A", "B", "tie")
    assert (a.verdicts == b.verdicts).all() and not (a.verdicts == c.verdicts).all()
    assert set(a.verdicts[:, :2].ravel()) == set(LABELS)
    assert set(a.verdicts[:, 2].tolist()) == {*LABELS, "unsure"}
    assert set(a.verdicts[:, 3].tolist()) == {*LABELS, None}


def test_judge_preferences_draws_the_panels_rates():
    data = judge_preferences(40_000, seed=0)
    truth = np.array([LABELS.index(x) for x in data.truth.tolist()])
    assert np.allclose(np.bincount(truth, minlength=3) / data.n_items, PREFERENCE_PREVALENCE, atol=0.01)
    for k, judge in enumerate(PANEL.values()):
        rates, says = judge["abstain"] or ((0.0, 0.0, 0.0), None)
        for ell in range(3):
            column = data.verdicts[truth == ell, k].tolist()
            silent = np.mean([v == says if says else v is None for v in column])
            assert silent == pytest.approx(rates[ell], abs=0.02)
            answered = [v for v in column if v in LABELS]
            shares = [answered.count(r) / len(answered) for r in LABELS]
            assert np.allclose(shares, judge["rows"][ell], atol=0.025)


def test_judge_preferences_long_and_wide_text_hold_the_same_answers():
    data = judge_preferences(120, seed=2)
    long = {(r["item"], r["judge"]): r["label"] for r in csv.DictReader(io.StringIO(data.long()))}
    assert set(long.items()) == {((t, w), r) for t, w, r in data.records()}
    wide = list(csv.DictReader(io.StringIO(data.wide(truth=True))))
    assert [r["truth"] for r in wide] == data.truth.tolist()
    for row in wide:
        for judge in data.judges:
            assert long.get((row["item"], judge), "") == row[judge]


def test_judge_preferences_refuses_bad_sizes():
    with pytest.raises(SpecError, match="positive integer"):
        judge_preferences(0)
