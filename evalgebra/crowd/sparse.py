r"""Algebraic evaluation of a sparse crowd: three group views, one exact-model trio, linear worker rows.

Each worker answers only some tasks, so almost no trio of workers shares enough tasks to be
evaluated on its own. The estimator works with *groups* instead:

1. **Views.** Split the workers into three disjoint groups (a seeded, balanced deal). On
   each task a group's *view* is the plurality of its members' answers there (a tie goes to
   the first label), or silence when none of them answered. When workers answer
   independently given the true label and are assigned to tasks independently of it, the
   three views are (very nearly) independent given the true label: they are three
   classifiers with response rows ``A_g[l, r]`` of their own.
2. **Trio.** On the tasks where all three views answer, the three views are evaluated with
   the many-labels evaluator (the independent model; ``R^3`` pattern counts,
   :func:`~evalgebra.evaluators.many_labels.trios.evaluate_batch_many_labels`): prevalences
   ``P_l`` and the views' rows ``A_g``.
3. **Workers, linearly.** For a worker ``w`` outside group ``h``, the counts
   ``N_h[s, r]`` of (``w`` answered ``s``, view ``h`` answered ``r``) on the tasks both
   answered satisfy the *linear* moment equations ``N_h = X_w^T A_h`` with
   ``X_w[l, s] =`` the number of those tasks of true label ``l`` on which ``w`` answered ``s``.
   So ``X_w = A_h^{-T} N_h^T``: summed over the two views ``w`` is not part of, then each row
   normalised, it gives ``w``'s rows ``P_{w,s|l}`` weighted by how many tasks each view
   shares with ``w`` (coverage).
4. **Several splits.** Steps 1 to 3 are repeated for ``splits`` seeded splits; the ``X_w`` add
   up (coverage weighting again) and the prevalences are averaged weighted by the number of
   tasks each trio saw.
5. **Tasks.** Per-task posteriors follow from the workers' rows by Bayes' rule
   (:mod:`evalgebra.crowd.tasks`); ``refine`` passes of the Dawid-Skene EM step may follow,
   started from this estimate (``refine=0``: the algebraic estimate alone).

A worker whose moment equations rest on fewer than ``min_items`` answers (or leave a true
label without any evidence) is *too sparse*: it is named with the reason in
``too_sparse``, gets no rows (NaN), and its answers are left out of the posteriors.

Examples
--------
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=0)
>>> result = sparse_evaluation(data.records())
>>> result.n_tasks, len(result.workers), result.too_sparse
(3000, 40, {})
>>> bool(abs(result.priors - data.priors).max() < 0.06)
True

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the independent evaluation of
   three classifiers from their decision-pattern counts.
.. [2] A. P. Dawid and A. M. Skene, "Maximum likelihood estimation of observer error-rates
   using the EM algorithm": worker confusion matrices and the per-task posterior.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evalgebra.crowd.table import CrowdTable, crowd_table
from evalgebra.crowd.tasks import FLOOR, incidence
from evalgebra.crowd.tasks import refine as refine_passes
from evalgebra.errors import SpecError
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels
from evalgebra.numbers.seeds import check_seed
from evalgebra.results import Alarm, Estimate, Evaluation
from evalgebra.results.batch import BatchResult

__all__ = ["CrowdEvaluation", "sparse_evaluation", "split_groups", "group_views"]

VIEWS = ("view0", "view1", "view2")


@dataclass(frozen=True)
class CrowdEvaluation:
    r"""What :func:`sparse_evaluation` found: prevalences, every worker's rows, per-task posteriors.

    Attributes
    ----------
    labels, workers, tasks : tuple of str
    priors : numpy.ndarray (R,)
        Prevalence of every label.
    rows : numpy.ndarray (W, R, R)
        ``rows[w, l, r] = P_{w,r|l}``; NaN for a worker too sparse to evaluate.
    items : numpy.ndarray (W,)
        How many of the worker's answers stand behind its rows (its answers on tasks where
        a view of another group answered too, in the split where they are most).
    coverage : numpy.ndarray (W,)
        How many tasks each worker answered.
    too_sparse : dict
        ``{worker: reason}`` for the workers not evaluated.
    posteriors : numpy.ndarray (T, R)
        The posterior of every label on every task.
    views : BatchResult
        The views' trio evaluations of every split as arrays: ``prevalence`` (S, R),
        ``response`` (S, 3, R, R), ``ok`` (S,) and ``tasks`` (S,: the tasks all three views
        answered); :attr:`splits` shows them as evaluations.
    groups : tuple
        The three worker groups of every split.
    refined : int
        Refinement passes applied after the algebraic estimate.
    algebraic_priors, algebraic_rows : numpy.ndarray
        The estimate before refinement (equal to ``priors, rows`` when ``refined == 0``).
    alarms : tuple of Alarm
    """

    labels: tuple[str, ...]
    workers: tuple[str, ...]
    tasks: tuple[str, ...]
    priors: np.ndarray
    rows: np.ndarray
    items: np.ndarray
    coverage: np.ndarray
    too_sparse: dict[str, str]
    posteriors: np.ndarray
    views: BatchResult
    groups: tuple[tuple[tuple[str, ...], ...], ...]
    refined: int
    algebraic_priors: np.ndarray
    algebraic_rows: np.ndarray
    alarms: tuple[Alarm, ...] = field(default=())

    @property
    def n_tasks(self) -> int:
        return len(self.tasks)

    @functools.cached_property
    def splits(self) -> tuple[Evaluation, ...]:
        """The trio evaluation of the three views (``view0..2``) of every split."""
        return tuple(_view_evaluation(self.labels, self.views, k) for k in range(len(self.views["ok"])))

    def task_labels(self) -> list[str]:
        """The most probable label of every task (ties: the first label)."""
        return [self.labels[k] for k in np.argmax(self.posteriors, axis=1).tolist()]

    def accuracy(self) -> dict[str, dict[str, float]]:
        """``{worker: {label: P_{w,l|l}}}`` for the evaluated workers."""
        return {
            w: {ell: float(self.rows[k, j, j]) for j, ell in enumerate(self.labels)}
            for k, w in enumerate(self.workers)
            if w not in self.too_sparse
        }

    def estimate(self) -> Estimate:
        """The evaluated workers as an :class:`~evalgebra.results.estimates.Estimate` (floats, with rows)."""
        evaluated = [(k, w) for k, w in enumerate(self.workers) if w not in self.too_sparse]
        prevalence = {ell: float(p) for ell, p in zip(self.labels, self.priors)}
        response = {
            w: {
                t: {r: float(self.rows[k, i, j]) for j, r in enumerate(self.labels)}
                for i, t in enumerate(self.labels)
            }
            for k, w in evaluated
        }
        accuracy = {w: {t: response[w][t][t] for t in self.labels} for _, w in evaluated}
        return Estimate(prevalence, accuracy, response=response)

    def summary(self) -> str:
        """Plain text: the prevalences, the splits, every worker's accuracies and items, the sparse ones."""
        lines = [
            f"Sparse crowd: {len(self.tasks)} tasks, {len(self.workers)} workers, "
            f"labels {', '.join(self.labels)}; "
            f"{len(self.splits)} split(s), {self.refined} refinement pass(es)",
            "prevalence: " + "   ".join(f"P_{ell} = {p:.4f}" for ell, p in zip(self.labels, self.priors)),
        ]
        for k, w in enumerate(self.workers):
            if w in self.too_sparse:
                lines.append(f"{w}  too sparse: {self.too_sparse[w]}")
            else:
                accs = "   ".join(
                    f"acc on {ell} = {self.rows[k, j, j]:.4f}" for j, ell in enumerate(self.labels)
                )
                lines.append(f"{w}  {accs}   ({int(self.items[k])} items)")
        lines.append(
            "alarms: "
            + ("none" if not self.alarms else "; ".join(f"{a.kind}: {a.detail}" for a in self.alarms))
        )
        return "\n".join(lines)


def split_groups(n_workers: int, seed: int, splits: int) -> list[np.ndarray]:
    r"""``splits`` seeded deals of the workers into three groups of (nearly) equal size.

    >>> [g.tolist() for g in split_groups(6, 0, 1)]
    [[1, 2, 1, 0, 0, 2]]
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(splits):
        group = np.empty(n_workers, dtype=np.int64)
        group[rng.permutation(n_workers)] = np.arange(n_workers) % 3
        out.append(group)
    return out


def group_views(table: CrowdTable, groups: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    r"""Every group's view on every task, for every split: ``(view[s, t, g], present[s, t, g])``.

    The view is the plurality label of the group's answers on the task (a tie goes to the
    first label: a rule that looks at the group's own answers only); ``present`` is False
    where the group is silent (``view`` is then meaningless).

    >>> from evalgebra.crowd.table import crowd_table
    >>> table = crowd_table([("t1", "w0", "a"), ("t1", "w1", "b"), ("t1", "w2", "b"), ("t2", "w0", "b")])
    >>> view, present = group_views(table, [np.array([0, 1, 2])])
    >>> view[0].tolist(), present[0].tolist()
    ([[0, 1, 1], [1, 0, 0]], [[True, True, True], [True, False, False]])
    """
    r, n_splits = table.n_labels, len(groups)
    cells = np.empty((n_splits, len(table.task)), dtype=np.int64)
    for k, group in enumerate(groups):
        cells[k] = ((k * table.n_tasks + table.task) * 3 + group[table.worker]) * r + table.answer
    votes = np.bincount(cells.ravel(), minlength=table.n_tasks * n_splits * 3 * r).reshape(-1, r)
    best, view = votes[:, 0].copy(), np.zeros(len(votes), dtype=np.int64)
    for answer in range(1, r):  # the plurality, the first label on ties (label by label: r is small)
        more = votes[:, answer] > best
        view[more] = answer
        np.maximum(best, votes[:, answer], out=best)
    shape = (n_splits, table.n_tasks, 3)
    return view.reshape(shape), (best > 0).reshape(shape)


def _view_alarms(views: BatchResult, k: int) -> tuple[Alarm, ...]:
    n_full = int(views["tasks"][k])
    if not views["ok"][k]:
        return (
            Alarm(
                "blind_spot",
                f"the three views' {n_full} shared tasks give a singular pair table or complex "
                f"roots: this split is left out",
            ),
        )
    low = min(views["prevalence"][k].min(), views["response"][k].min())
    high = max(views["prevalence"][k].max(), views["response"][k].max())
    if low < -1e-9 or high > 1 + 1e-9:  # beyond rounding
        return (
            Alarm(
                "outside_unit_cube",
                "a view's prevalence or rate is outside [0, 1] (sampling noise on "
                f"{n_full} tasks); the moment equations use it as estimated",
            ),
        )
    return ()


def _view_evaluation(labels: tuple[str, ...], views: BatchResult, k: int) -> Evaluation:
    alarms = _view_alarms(views, k)
    if not views["ok"][k]:
        return Evaluation(
            method="algebraic",
            labels=labels,
            classifiers=VIEWS,
            points=(),
            chosen=None,
            partition={},
            alarms=alarms,
        )
    prevalence = {ell: float(p) for ell, p in zip(labels, views["prevalence"][k])}
    response = {
        v: {
            t: {a: float(views["response"][k, g, i, j]) for j, a in enumerate(labels)}
            for i, t in enumerate(labels)
        }
        for g, v in enumerate(VIEWS)
    }
    accuracy = {v: {t: response[v][t][t] for t in labels} for v in VIEWS}
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=VIEWS,
        points=(Estimate(prevalence, accuracy, response=response),),
        chosen=0,
        partition={},
        alarms=alarms,
    )


def _given_splits(splits: Sequence[Sequence[Sequence[str]]], workers: tuple[str, ...]) -> list[np.ndarray]:
    position = {w: k for k, w in enumerate(workers)}
    out = []
    for split in splits:
        members = [[str(w) for w in group] for group in split]
        names = [w for group in members for w in group]
        if len(members) != 3 or sorted(names) != sorted(workers):
            raise SpecError(
                f"a split needs three disjoint groups covering every worker exactly once; got "
                f"{[len(g) for g in members]} names for {len(workers)} workers"
            )
        group = np.empty(len(workers), dtype=np.int64)
        for h, names_h in enumerate(members):
            group[[position[w] for w in names_h]] = h
        out.append(group)
    if not out:
        raise SpecError("groups= needs at least one split")
    return out


def sparse_evaluation(
    data: Any,
    *,
    splits: int = 3,
    seed: int = 0,
    refine: int = 0,
    min_items: int = 10,
    groups: Sequence[Sequence[Sequence[str]]] | None = None,
    labels: Sequence[str] | None = None,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
) -> CrowdEvaluation:
    r"""Evaluate a sparse crowd algebraically: prevalences, every worker's rows, per-task posteriors.

    Parameters
    ----------
    data : CrowdTable, pandas.DataFrame, mapping of columns, or iterable of (task, worker, label)
    splits : int
        How many seeded splits of the workers into three groups to combine (at least 1).
    seed : int
        Seeds the splits.
    refine : int
        Dawid-Skene EM passes after the algebraic estimate (0: none).
    min_items : int
        Fewest answers behind a worker's moment equations for its rows to be reported.
    groups : sequence of splits, optional
        The splits to use instead of seeded ones: each a sequence of three disjoint groups
        of worker names covering every worker (e.g. teams known to work independently).
    labels : sequence of str, optional
        All label names in order.
    task, worker, label : str
        Column names.

    Returns
    -------
    CrowdEvaluation

    Raises
    ------
    SpecError
        ``splits < 1``, ``refine < 0`` or ``min_items < 1``; fewer than three workers.
    SketchError
        Bad rows (see :func:`~evalgebra.crowd.table.crowd_table`).

    Examples
    --------
    A worker who joined late, with two answers:

    >>> from evalgebra.datasets.crowd import sparse_crowd
    >>> rows = sparse_crowd(seed=0).records() + [("t0000", "late", "a"), ("t0001", "late", "b")]
    >>> sparse_evaluation(rows).too_sparse
    {'late': "only 2 answers share a task with another group's view (min_items=10)"}
    """
    if splits < 1 or refine < 0 or min_items < 1:
        raise SpecError(
            f"need splits >= 1, refine >= 0 and min_items >= 1; got splits={splits}, refine={refine}, "
            f"min_items={min_items}"
        )
    seed = check_seed(seed)
    table = (
        data
        if isinstance(data, CrowdTable)
        else crowd_table(data, task=task, worker=worker, label=label, labels=labels)
    )
    n_workers, r = table.n_workers, table.n_labels
    if n_workers < 3:
        raise SpecError(f"need at least three workers (three groups), got {n_workers}")
    deals = split_groups(n_workers, seed, splits) if groups is None else _given_splits(groups, table.workers)
    views, presents = group_views(table, deals)
    fulls = presents[:, :, 0] & presents[:, :, 1] & presents[:, :, 2]  # [k, t]: all three views answer
    codes = (views[:, :, 0] * r + views[:, :, 1]) * r + views[:, :, 2]
    counts = np.array([np.bincount(code[full], minlength=r**3) for code, full in zip(codes, fulls)])
    with np.errstate(invalid="ignore", divide="ignore"):  # a failed split is reported by its 'ok' flag
        out = evaluate_batch_many_labels(counts, r)
    x = np.zeros((n_workers, r, r))
    items = np.zeros(n_workers, dtype=np.int64)
    prior_sum, prior_weight = np.zeros(r), 0
    # one sparse product gives every pair table: M[w * R + s, (k, h, v)] counts the tasks on which
    # w answered s and the view of group h in split k answered v
    matrix = incidence(table.task, table.worker, table.answer, table.n_tasks, n_workers, r)
    one_hot = np.zeros((table.n_tasks, len(deals), 3, r))
    k_index, t_index, h_index = np.nonzero(presents)
    one_hot[t_index, k_index, h_index, views[k_index, t_index, h_index]] = 1.0
    pairs = np.asarray(matrix.T @ one_hot.reshape(table.n_tasks, -1)).reshape(n_workers, r, len(deals), 3, r)
    # answers of each worker on tasks where at least one view of another group answered
    per_task = incidence(table.task, table.worker, np.zeros_like(table.answer), table.n_tasks, n_workers, 1)
    others = np.stack(
        [
            presents[:, :, 1] | presents[:, :, 2],
            presents[:, :, 0] | presents[:, :, 2],
            presents[:, :, 0] | presents[:, :, 1],
        ],
        axis=2,
    ).transpose(1, 0, 2)  # [t, k, g]
    covered = np.asarray(per_task.T @ others.reshape(table.n_tasks, -1)).reshape(n_workers, len(deals), 3)
    view_arrays = BatchResult(out.method, {**out, "tasks": fulls.sum(axis=1)}, decoded=out.decoded)
    alarms = [a for k in range(len(deals)) for a in _view_alarms(view_arrays, k)]
    for k, (group, full) in enumerate(zip(deals, fulls)):
        if not out["ok"][k]:
            continue
        prior_sum += out["prevalence"][k] * full.sum()
        prior_weight += int(full.sum())
        pair = (
            pairs[:, :, k].transpose(2, 0, 1, 3) * (group[None, :] != np.arange(3)[:, None])[:, :, None, None]
        )
        # N_h = X^T A_h for every worker outside group h: X = A_h^{-T} N_h^T, summed over the views
        x += np.linalg.solve(out["response"][k].transpose(0, 2, 1)[:, None], pair.transpose(0, 1, 3, 2)).sum(
            axis=0
        )
        items = np.maximum(items, covered[np.arange(n_workers), k, group].astype(np.int64))
    group_names = tuple(
        tuple(tuple(table.workers[j] for j in np.flatnonzero(group == h)) for h in range(3))
        for group in deals
    )
    too_sparse: dict[str, str] = {}
    rows = np.full((n_workers, r, r), np.nan)
    if prior_weight == 0:
        for w_name in table.workers:
            too_sparse[w_name] = "no split of the workers could be evaluated (see the alarms)"
        priors = np.full(r, np.nan)
        posteriors = np.full((table.n_tasks, r), np.nan)
        return CrowdEvaluation(
            table.labels,
            table.workers,
            table.tasks,
            priors,
            rows,
            items,
            table.coverage(),
            too_sparse,
            posteriors,
            view_arrays,
            group_names,
            0,
            priors,
            rows,
            tuple(alarms),
        )
    priors = np.maximum(prior_sum / prior_weight, FLOOR)
    priors /= priors.sum()
    clipped = np.maximum(x, 0.0)
    mass = clipped.sum(axis=2)
    sparse_items = items < min_items
    no_evidence = ~sparse_items & (mass <= 0).any(axis=1)
    for k in np.flatnonzero(sparse_items).tolist():
        too_sparse[table.workers[k]] = (
            f"only {items[k]} answers share a task with another group's view (min_items={min_items})"
        )
    for k in np.flatnonzero(no_evidence).tolist():
        empty = [table.labels[j] for j in np.flatnonzero(mass[k] <= 0)]
        too_sparse[table.workers[k]] = f"its moment equations leave no evidence for true label(s) {empty}"
    use = ~(sparse_items | no_evidence)
    rows[use] = (clipped[use] + FLOOR) / (clipped[use] + FLOOR).sum(axis=2, keepdims=True)
    too_sparse = {w: too_sparse[w] for w in table.workers if w in too_sparse}  # in the workers' order
    algebraic_priors, algebraic_rows = priors, rows
    priors, rows_refined, posteriors = refine_passes(
        table.task,
        table.worker,
        table.answer,
        table.n_tasks,
        n_workers,
        priors,
        np.where(use[:, None, None], rows, 1.0 / r),
        refine,
        use,
        matrix=matrix,
    )
    rows_refined = np.where(use[:, None, None], rows_refined, np.nan)
    return CrowdEvaluation(
        table.labels,
        table.workers,
        table.tasks,
        priors,
        rows_refined,
        items,
        table.coverage(),
        too_sparse,
        posteriors,
        view_arrays,
        group_names,
        refine,
        algebraic_priors,
        algebraic_rows,
        tuple(alarms),
    )
