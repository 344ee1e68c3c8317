"""The crowd fit: the fallback start, gold held fixed (and never hurting), abstentions, relabelling."""

from __future__ import annotations

import numpy as np
import pytest

from evalgebra.crowd.fit import crowd_fit, gold_positions
from evalgebra.crowd.table import crowd_table
from evalgebra.datasets.crowd import sketch_crowd, sparse_crowd
from evalgebra.datasets.judges import llm_judges
from evalgebra.errors import SketchError, SpecError


def _correct(fit, data, tasks=None) -> int:
    labels = np.array(fit.task_labels(), dtype=object)
    truth = dict(zip(data.tasks, np.array(data.labels, dtype=object)[data.truth]))
    keep = range(len(fit.tasks)) if tasks is None else tasks
    return int(sum(labels[k] == truth[fit.tasks[k]] for k in keep))


def test_crowd_fit_falls_back_to_majority_where_the_algebra_has_no_start():
    data = sketch_crowd("bigbench_mistake")  # three graders: their trio has complex roots
    fit = crowd_fit(data.records())
    assert fit.start == "majority" and [n for n, _ in fit.runs] == ["majority"] and fit.converged
    assert fit.notes[0].startswith("the algebraic start failed: no split")
    votes = crowd_table(data.records()).votes()
    majority = int((votes.argmax(axis=1) == data.truth).sum())  # ties: the first label
    assert _correct(fit, data) >= majority
    with pytest.raises(SpecError, match="starts"):
        crowd_fit(data.records(), starts=["nope"])


def _gold_gain(seed: int, hard: float) -> tuple[int, int]:
    """Correct labels on the tasks not given, with a tenth of the tasks given minus without; and how
    many tasks that is."""
    data = sparse_crowd(seed=seed, hard=hard)
    gold = {data.tasks[t]: data.labels[data.truth[t]] for t in range(0, data.n_tasks, 10)}
    plain = crowd_fit(data.records())
    given = crowd_fit(data.records(), gold=gold)
    others = [k for k, t in enumerate(given.tasks) if t not in gold]
    assert given.tasks == plain.tasks
    known = [k for k, t in enumerate(given.tasks) if t in gold]
    assert np.array_equal(given.posteriors[known], np.eye(3)[given.gold[known]])  # point masses
    return _correct(given, data, others) - _correct(plain, data, others), len(others)


def _check_gold(seeds: range, hard: float) -> None:
    # measured on seeds 0-9 (docs/guide/crowds.md): independent workers +1.0 tasks on average,
    # from -3 to +4 of 2,700; with hard tasks (correlated errors) +5.5, from -1 to +11
    gains = [_gold_gain(seed, hard) for seed in seeds]
    assert all(gain >= -0.002 * n for gain, n in gains), gains  # never more than 0.2 points below
    assert sum(gain for gain, _ in gains) > 0, gains  # and above on the whole


@pytest.mark.parametrize("hard", [0.0, 0.15])
def test_gold_on_a_tenth_helps_the_other_tasks_beyond_noise(hard):
    _check_gold(range(3), hard)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [0.0, 0.15])
def test_gold_on_a_tenth_helps_the_other_tasks_on_ten_crowds(hard):
    _check_gold(range(10), hard)


def test_gold_positions_say_what_they_did_and_refuse_what_is_wrong():
    table = crowd_table([("t1", "w1", "a"), ("t2", "w1", "b"), ("t3", "w2", "b")])
    out, gold, notes = gold_positions(table, [("t1", "a"), ("t1", "a"), ("t3", "z"), ("x", "a")])
    assert out.labels == ("a", "b", "z") and gold.tolist() == [0, -1, 2]
    assert len(notes) == 2 and "'x'" in notes[0] and "['z']" in notes[1]
    with pytest.raises(SketchError, match="two labels"):
        gold_positions(table, [("t1", "a"), ("t1", "b")])
    with pytest.raises(SketchError, match="none of the 1 gold task"):
        gold_positions(table, {"nope": "a"})
    with pytest.raises(SketchError, match="missing value"):
        gold_positions(table, [("t1", None)])
    with pytest.raises(SketchError, match="abstentions"):
        gold_positions(table, {"t1": "b"}, abstentions=["b"])


def test_crowd_fit_is_equivariant_under_renaming_the_labels():
    data = sparse_crowd(seed=3, n_tasks=600, n_workers=15, per_task=4)
    rename = {"a": "z", "b": "x", "c": "y"}  # sorted order changes: z, x, y -> x, y, z
    fit = crowd_fit(data.records())
    moved = crowd_fit([(t, w, rename[r]) for t, w, r in data.records()])
    assert [rename[x] for x in fit.task_labels()] == moved.task_labels()
    order = [moved.labels.index(rename[x]) for x in fit.labels]
    assert np.allclose(moved.priors[order], fit.priors, atol=1e-4)  # both converged to the tolerance


def test_crowd_fit_models_abstentions_as_responses_of_their_own():
    data = llm_judges(n_items=3000, seed=0)  # two judges abstain, more often on failing answers
    rows = [
        (f"i{k}", judge, "unsure" if verdict is None else verdict)
        for k, item in enumerate(data.verdicts.tolist())
        for judge, verdict in zip(data.judges, item)
    ]
    fit = crowd_fit(rows, abstain=["unsure"])
    assert fit.labels == ("fail", "pass") and fit.responses == ("fail", "pass", "unsure")
    assert fit.rows.shape == (5, 2, 3) and fit.posteriors.shape == (3000, 2)
    truth = np.array([fit.labels.index(data.truth[int(t[1:])]) for t in fit.tasks])  # tasks are sorted
    assert (fit.posteriors.argmax(axis=1) == truth).mean() > 0.9
    assert fit.priors[1] == pytest.approx((truth == 1).mean(), abs=0.02)
    unsure = fit.workers.index("small_unsure")
    said = data.verdicts[:, data.judges.index("small_unsure")]
    for ell, name in enumerate(fit.labels):  # the realised rates of the test, abstention included
        realised = [np.mean(said[data.truth == name] == r) for r in fit.responses]
        assert np.abs(fit.rows[unsure, ell] - realised).max() < 0.03
    assert fit.rows[unsure, 0, 2] > fit.rows[unsure, 1, 2] + 0.05  # abstains more on failing answers
    with pytest.raises(SketchError, match="two labels besides"):
        crowd_fit(rows, abstain=["unsure", "pass"])
