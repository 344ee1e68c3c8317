"""The generated sparse crowd: seeded, the advertised shape, and a truth drawn from its own rows."""

import numpy as np
import pytest

from evalgebra.datasets.crowd import sparse_crowd
from evalgebra.errors import SpecError


def test_sparse_crowd_is_seeded_and_has_the_advertised_shape():
    data = sparse_crowd(seed=5)
    again = sparse_crowd(seed=5)
    assert np.array_equal(data.answer, again.answer) and np.array_equal(data.truth, again.truth)
    assert not np.array_equal(data.answer, sparse_crowd(seed=6).answer)
    assert (data.n_tasks, data.n_workers, len(data.labels)) == (3000, 40, 3)
    per_task = np.bincount(data.task)
    assert per_task.tolist() == [5] * 3000
    pairs = data.task * data.n_workers + data.worker
    assert len(np.unique(pairs)) == len(pairs)  # five distinct workers per task
    assert np.allclose(data.confusion.sum(axis=2), 1.0) and (data.confusion >= 0).all()
    assert set(data.kinds) == {"expert", "good", "mediocre", "biased", "spammer"}


def test_sparse_crowd_answers_follow_the_workers_rows():
    data = sparse_crowd(seed=1, n_tasks=20000, n_workers=4, per_task=2)
    truth = data.truth[data.task]
    for w in range(4):
        for ell in range(3):
            mine = (data.worker == w) & (truth == ell)
            seen = np.bincount(data.answer[mine], minlength=3) / mine.sum()
            assert np.abs(seen - data.confusion[w, ell]).max() < 0.04
    assert np.abs(np.bincount(data.truth) / data.n_tasks - data.priors).max() < 0.02


def test_sparse_crowd_frames_and_records_agree():
    data = sparse_crowd(seed=0, n_tasks=10, n_workers=6, per_task=3)
    frame = data.answers()
    assert [tuple(row) for row in frame.itertuples(index=False)] == data.records()
    assert data.true_labels().index.name == "task" and len(data.true_labels()) == 10
    assert data.worker_accuracy().shape == (6,)


@pytest.mark.parametrize(
    "kwargs", [dict(n_labels=1), dict(per_task=50), dict(priors=[0.5, 0.5]), dict(n_tasks=0)]
)
def test_sparse_crowd_refuses_sizes_that_do_not_fit(kwargs):
    with pytest.raises(SpecError):
        sparse_crowd(**kwargs)


def test_sketch_crowd_recounts_to_the_sketch():
    from collections import Counter

    from evalgebra import datasets
    from evalgebra.datasets.crowd import sketch_crowd

    for name in datasets.names():
        sketch = datasets.load(name)
        data = sketch_crowd(sketch)
        answers = data.answer.reshape(data.n_tasks, data.n_workers)
        recount = Counter(
            (data.labels[t], tuple(data.labels[a] for a in row))
            for t, row in zip(data.truth, answers.tolist())
        )
        expected = {
            (ell, p): n for ell, counts in sketch.by_true_label().items() for p, n in counts.items() if n
        }
        assert dict(recount) == expected
        assert np.allclose(data.confusion.sum(axis=2), 1.0)


def test_sparse_crowd_hard_tasks_share_a_decoy():
    from evalgebra.datasets.crowd import sparse_crowd

    easy, hard = sparse_crowd(seed=5, n_tasks=2000), sparse_crowd(seed=5, n_tasks=2000, hard=0.3)
    assert np.array_equal(easy.truth, hard.truth) and np.array_equal(easy.worker, hard.worker)
    changed = np.flatnonzero(easy.answer != hard.answer)
    assert 0 < len(changed) < len(easy.answer)
    assert np.all(hard.answer[changed] != hard.truth[hard.task[changed]])  # a decoy is never the truth
    per_task = {}
    for k in changed.tolist():  # one decoy per hard task, whoever gave it
        per_task.setdefault(int(hard.task[k]), set()).add(int(hard.answer[k]))
    assert all(len(v) == 1 for v in per_task.values())
