r"""A generated sparse crowd with a known truth: ``task, worker, label`` answers, the answer key, the
workers' rows.

The shape of the crowd-sourcing tables crowd-kit and its datasets use: every task is
answered by a few workers drawn from a larger pool, so no worker answers everything.
The default is 3 labels, 40 workers, 3,000 tasks and 5 workers per task, drawn with a
seed; the workers' confusion matrices are of varied quality (experts, good, mediocre,
biased towards one label, and near-random spammers), the prevalences uneven.

Examples
--------
>>> data = sparse_crowd(seed=0)
>>> data.n_tasks, data.n_workers, data.labels, len(data.task)
(3000, 40, ('a', 'b', 'c'), 15000)
>>> [round(float(p), 2) for p in data.priors]
[0.5, 0.3, 0.2]
>>> data.answers().head(2).columns.tolist()
['task', 'worker', 'label']
>>> bool(data.confusion[0].sum(axis=1).round(12).tolist() == [1.0, 1.0, 1.0])
True

Notes
-----
Codes: ``task[k], worker[k], answer[k]`` are the positions of the task, the worker and
the answered label of answer ``k``; ``truth[t]`` the position of task ``t``'s true label;
``confusion[w, l, r]`` the probability that worker ``w`` answers ``r`` when the truth is
``l`` (the rows the evaluators estimate, ``P_{w,r|l}``). Every task's workers are drawn
uniformly without replacement, independently of its true label, so any two disjoint groups
of workers answer independently given the true label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.seeds import check_seed

__all__ = ["CrowdData", "sparse_crowd", "sketch_crowd"]


@dataclass(frozen=True)
class CrowdData:
    r"""A generated crowd: coded answers, the truth and the workers' confusion matrices.

    Attributes
    ----------
    labels, workers, tasks : tuple of str
        Names (``a, b, ...``; ``w00, w01, ...``; ``t0000, t0001, ...``).
    task, worker, answer : numpy.ndarray of int
        One entry per answer: positions into ``tasks``, ``workers`` and ``labels``.
    truth : numpy.ndarray of int
        The true label of every task (positions).
    priors : numpy.ndarray
        The label distribution the truth was drawn from.
    confusion : numpy.ndarray
        ``confusion[w, l, r] = P(worker w answers r | truth l)``.
    kinds : tuple of str
        Each worker's kind (``expert``, ``good``, ``mediocre``, ``biased``, ``spammer``).
    """

    labels: tuple[str, ...]
    workers: tuple[str, ...]
    tasks: tuple[str, ...]
    task: np.ndarray
    worker: np.ndarray
    answer: np.ndarray
    truth: np.ndarray
    priors: np.ndarray
    confusion: np.ndarray
    kinds: tuple[str, ...]

    @property
    def n_tasks(self) -> int:
        return len(self.tasks)

    @property
    def n_workers(self) -> int:
        return len(self.workers)

    def answers(self) -> Any:
        """The answers as a pandas DataFrame with columns ``task, worker, label`` (pandas is optional)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "task": np.array(self.tasks, dtype=object)[self.task],
                "worker": np.array(self.workers, dtype=object)[self.worker],
                "label": np.array(self.labels, dtype=object)[self.answer],
            }
        )

    def records(self) -> list[tuple[str, str, str]]:
        """The answers as ``(task, worker, label)`` tuples."""
        return [
            (self.tasks[t], self.workers[w], self.labels[r])
            for t, w, r in zip(self.task.tolist(), self.worker.tolist(), self.answer.tolist())
        ]

    def true_labels(self) -> Any:
        """The answer key as a pandas Series indexed by task (pandas is optional)."""
        import pandas as pd

        return pd.Series(
            np.array(self.labels, dtype=object)[self.truth],
            index=pd.Index(self.tasks, name="task"),
            name="label",
        )

    def worker_accuracy(self) -> np.ndarray:
        """Each worker's expected accuracy, ``sum_l P_l P_{w,l|l}`` (prior-weighted)."""
        return np.einsum("l,wll->w", self.priors, self.confusion)


#: (kind, how many of 40, diagonal range) of the default pool.
_KINDS = (
    ("expert", 6, (0.88, 0.96)),
    ("good", 14, (0.72, 0.86)),
    ("mediocre", 10, (0.5, 0.68)),
    ("biased", 5, (0.6, 0.8)),
    ("spammer", 5, (0.3, 0.4)),
)


def _confusion(
    rng: np.random.Generator, kind: str, low_high: tuple[float, float], n_labels: int
) -> np.ndarray:
    rows = np.empty((n_labels, n_labels))
    favourite = int(rng.integers(n_labels))
    for ell in range(n_labels):
        diagonal = rng.uniform(*low_high)
        if kind == "biased" and ell != favourite:
            diagonal *= 0.75  # a biased worker answers its favourite label too often
        rest = rng.dirichlet(np.ones(n_labels - 1) * 2.0)
        if kind == "biased" and ell != favourite:
            others = [r for r in range(n_labels) if r != ell]
            rest = np.where(np.array(others) == favourite, 0.8, 0.2 / max(len(others) - 1, 1))
            rest = rest / rest.sum()
        rows[ell, [r for r in range(n_labels) if r != ell]] = (1.0 - diagonal) * rest
        rows[ell, ell] = diagonal
    return rows


def sparse_crowd(
    seed: int = 0,
    n_tasks: int = 3000,
    n_workers: int = 40,
    per_task: int = 5,
    n_labels: int = 3,
    priors: Any = None,
    hard: float = 0.0,
) -> CrowdData:
    r"""Generate a sparse crowd with a known truth (seeded, reproducible).

    Parameters
    ----------
    seed : int
    n_tasks, n_workers, per_task : int
        Every task is answered by ``per_task`` distinct workers drawn uniformly from the pool.
    n_labels : int
        At least 2.
    priors : sequence of float, optional
        The label distribution (default ``0.5, 0.3, 0.2`` for three labels, decreasing
        otherwise).
    hard : float
        The share of *hard* tasks (default 0): each has a decoy label (not its true one,
        drawn at random) that every worker answering it gives with probability 1/2 instead of
        following its confusion row. The workers' errors are then correlated (they share the
        decoy), which the independent model does not describe; ``confusion`` stays the rows of
        the easy tasks.

    Returns
    -------
    CrowdData

    Raises
    ------
    SpecError
        Sizes that do not fit (fewer than 2 labels, more workers per task than workers, ...).

    Examples
    --------
    >>> sparse_crowd(seed=1, n_tasks=4, n_workers=6, per_task=2).answers().shape
    (8, 3)
    >>> easy, hard = sparse_crowd(seed=0), sparse_crowd(seed=0, hard=0.2)
    >>> bool((easy.truth == hard.truth).all()), bool((easy.answer == hard.answer).mean() > 0.8)
    (True, True)
    """
    if n_labels < 2 or n_tasks < 1 or n_workers < 1 or not 1 <= per_task <= n_workers:
        raise SpecError(
            f"need n_labels >= 2, n_tasks >= 1 and 1 <= per_task <= n_workers; got n_labels={n_labels}, "
            f"n_tasks={n_tasks}, n_workers={n_workers}, per_task={per_task}"
        )
    if priors is None:
        base = np.array([0.5, 0.3, 0.2]) if n_labels == 3 else np.arange(n_labels, 0, -1, dtype=float)
        priors = base / base.sum()
    priors = np.asarray(priors, dtype=float)
    if priors.shape != (n_labels,) or np.any(priors < 0) or not np.isclose(priors.sum(), 1.0):
        raise SpecError(f"priors must be {n_labels} non-negative numbers summing to 1, got {priors.tolist()}")
    if not 0 <= hard <= 1:
        raise SpecError(f"hard must be a share between 0 and 1, got {hard!r}")
    rng = np.random.default_rng(check_seed(seed))
    total = sum(k[1] for k in _KINDS)
    kinds = [name for name, count, _ in _KINDS for _ in range(count)]
    kinds = [kinds[int(w * total / n_workers)] for w in range(n_workers)]
    order = rng.permutation(n_workers)
    kinds = [kinds[k] for k in order]
    ranges = dict((name, low_high) for name, _, low_high in _KINDS)
    confusion = np.stack([_confusion(rng, kind, ranges[kind], n_labels) for kind in kinds])
    truth = rng.choice(n_labels, size=n_tasks, p=priors)
    chosen = np.argsort(rng.random((n_tasks, n_workers)), axis=1)[:, :per_task]
    task = np.repeat(np.arange(n_tasks), per_task)
    worker = chosen.ravel()
    cumulative = np.cumsum(confusion[worker, truth[task]], axis=1)
    answer = (rng.random(len(task))[:, None] > cumulative).sum(axis=1)
    answer = np.minimum(answer, n_labels - 1)
    if hard > 0:  # drawn after everything else: hard=0 gives the same crowd as before
        is_hard = rng.random(n_tasks) < hard
        decoy = (truth + rng.integers(1, n_labels, size=n_tasks)) % n_labels
        fooled = is_hard[task] & (rng.random(len(task)) < 0.5)
        answer = np.where(fooled, decoy[task], answer)
    labels = tuple(chr(ord("a") + k) if n_labels <= 26 else f"l{k}" for k in range(n_labels))
    width = len(str(n_tasks - 1))
    return CrowdData(
        labels=labels,
        workers=tuple(f"w{w:0{max(2, len(str(n_workers - 1)))}d}" for w in range(n_workers)),
        tasks=tuple(f"t{t:0{max(4, width)}d}" for t in range(n_tasks)),
        task=task,
        worker=worker,
        answer=answer,
        truth=truth,
        priors=priors,
        confusion=confusion,
        kinds=tuple(kinds),
    )


def sketch_crowd(sketch: Any) -> CrowdData:
    r"""A labelled sketch as a crowd: every classifier a worker that answers every item.

    Each item of the sketch becomes a task (``t0000, t0001, ...``, in the order of the
    patterns within each true label, so not the test's own item order) answered by every
    classifier; ``priors`` and ``confusion`` are the test's realised prevalences and response
    rates (what an evaluator should find), ``kinds`` are all ``"classifier"``. The bundled
    labelled sketches are real tests, so this gives real crowds with a known truth: three LLM
    graders of BIG-Bench-Mistake, three classifiers of the ACS survey.

    Parameters
    ----------
    sketch : Sketch or str
        A labelled sketch, or the name of a bundled one (:func:`evalgebra.datasets.load`).

    Returns
    -------
    CrowdData

    Raises
    ------
    SketchError
        The sketch has no answer key, or abstentions.

    Examples
    --------
    >>> data = sketch_crowd("bigbench_mistake")
    >>> data.n_tasks, data.workers, len(data.task)
    (281, ('claude_haiku', 'mistral_large', 'gpt4_turbo'), 843)
    >>> [round(float(p), 4) for p in data.priors]
    [0.8434, 0.1566]
    """
    if isinstance(sketch, str):
        from evalgebra.datasets import load

        sketch = load(sketch)
    if not getattr(sketch, "is_labelled", False):
        raise SketchError("sketch_crowd needs a labelled sketch (one with by_true_label counts)")
    if tuple(sketch.responses) != tuple(sketch.labels):
        raise SketchError("sketch_crowd takes sketches without abstentions")
    labels, workers = tuple(sketch.labels), tuple(sketch.classifiers)
    position = {x: k for k, x in enumerate(labels)}
    patterns, truth = [], []
    for ell, counts in sketch.by_true_label().items():
        for pattern, n in counts.items():
            patterns.extend([[position[x] for x in pattern]] * int(n))
            truth.extend([position[ell]] * int(n))
    answers = np.array(patterns, dtype=np.int64).reshape(-1, len(workers))
    n_tasks, n_workers, r = answers.shape[0], len(workers), len(labels)
    truth_array = np.array(truth, dtype=np.int64)
    confusion = np.zeros((n_workers, r, r))
    for w in range(n_workers):
        np.add.at(confusion[w], (truth_array, answers[:, w]), 1.0)
    confusion /= np.maximum(confusion.sum(axis=2, keepdims=True), 1.0)
    width = max(4, len(str(n_tasks - 1)))
    return CrowdData(
        labels=labels,
        workers=workers,
        tasks=tuple(f"t{t:0{width}d}" for t in range(n_tasks)),
        task=np.repeat(np.arange(n_tasks), n_workers),
        worker=np.tile(np.arange(n_workers), n_tasks),
        answer=answers.ravel(),
        truth=truth_array,
        priors=np.bincount(truth_array, minlength=r) / n_tasks,
        confusion=confusion,
        kinds=("classifier",) * n_workers,
    )
