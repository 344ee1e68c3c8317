r"""The fitted crowd: Dawid-Skene EM to a stated tolerance from the algebra's start and majority vote.

:func:`crowd_fit` runs :func:`~evalgebra.crowd.em.crowd_em` from every start it is given and
keeps the run of the largest (penalised) log-likelihood:

``algebraic``
    The sparse algebraic estimate (:func:`~evalgebra.crowd.sparse.sparse_evaluation`,
    three group views evaluated exactly, linear worker rows); a worker too sparse for the
    algebra gets its rows from one M step at the algebra's posteriors. When no split of the
    workers can be evaluated (three workers whose trio has complex roots, say) this start is
    missing, and the notes say why: the fit *falls back* to the other start instead of
    refusing.
``majority``
    Every task's vote shares (ties shared) as posteriors, then one M step: the start of
    crowd-kit's and judgepanel's Dawid-Skene.

Gold tasks (``gold=``, known answers) are held at their label in every E step of every
run (their posterior is the point mass), and the algebraic start's hidden labels are
renamed to agree best with them. Without gold, each run's hidden labels are renamed so
that the workers' answers agree with the decoded labels as often as possible (the
largest expected number of correct answers), the crowd's reading of the project's
decoding by total accuracy.

Examples
--------
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=0, n_tasks=1000)
>>> fit = crowd_fit(data.records())
>>> fit.start, fit.converged, [name for name, _ in fit.runs]
('algebraic', True, ['algebraic', 'majority'])
>>> accuracy = (fit.posteriors.argmax(axis=1) == data.truth).mean()
>>> bool(accuracy > 0.9)
True
>>> gold = {data.tasks[t]: data.labels[data.truth[t]] for t in range(0, 1000, 10)}
>>> fit = crowd_fit(data.records(), gold=gold)
>>> int(fit.gold.__ge__(0).sum()), fit.posteriors[0].tolist() == [1.0, 0.0, 0.0]
(100, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evalgebra.crowd.em import CROWD_TOLERANCE, MAX_ITERATIONS, CrowdLikelihood, CrowdRun, crowd_em
from evalgebra.crowd.sparse import CrowdEvaluation, sparse_evaluation
from evalgebra.crowd.table import CrowdTable, crowd_table
from evalgebra.errors import SketchError, SpecError

__all__ = ["CrowdFit", "crowd_fit", "gold_positions", "STARTS"]

#: The starts :func:`crowd_fit` knows, in its default order (the first wins a tie).
STARTS = ("algebraic", "majority")


@dataclass(frozen=True)
class CrowdFit:
    r"""A crowd fitted by EM: prevalences, every worker's rows, per-task posteriors, and how.

    Attributes
    ----------
    table : CrowdTable
        The answers fitted (with every label, gold-only ones included).
    priors : numpy.ndarray (R,)
    rows : numpy.ndarray (W, R, K)
        ``rows[w, ell, r] = P_{w,r|ell}`` over the responses (labels, then abstentions).
    posteriors : numpy.ndarray (T, R)
    expected : numpy.ndarray (W, R, K)
        ``expected[w, ell, r]``: the expected number of ``w``'s answers ``r`` on tasks of
        true label ``ell`` (the answers behind the rows).
    gold : numpy.ndarray (T,)
        The known label of every gold task (a position), ``-1`` elsewhere.
    start : str
        The start of the chosen run.
    runs : tuple of (str, CrowdRun)
        Every run, in the order of the starts.
    tolerance : float
    algebraic : CrowdEvaluation or None
        The algebraic start's evaluation (``None`` when it was not asked for or failed).
    notes : tuple of str
        What was done that a reader should know: a failed start, gold tasks ignored, labels
        added from the gold.
    abstentions : tuple of str
        The answers that are no label (the table's last labels).
    """

    table: CrowdTable
    priors: np.ndarray
    rows: np.ndarray
    posteriors: np.ndarray
    expected: np.ndarray
    gold: np.ndarray
    start: str
    runs: tuple[tuple[str, CrowdRun], ...]
    tolerance: float
    algebraic: CrowdEvaluation | None = None
    notes: tuple[str, ...] = field(default=())
    abstentions: tuple[str, ...] = field(default=())

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels (the hidden true labels), without the abstentions."""
        return self.table.labels[: len(self.table.labels) - len(self.abstentions)]

    @property
    def responses(self) -> tuple[str, ...]:
        """Every answer a worker may give: the labels, then the abstentions (the rows' last axis)."""
        return self.table.labels

    @property
    def workers(self) -> tuple[str, ...]:
        return self.table.workers

    @property
    def tasks(self) -> tuple[str, ...]:
        return self.table.tasks

    @property
    def chosen(self) -> CrowdRun:
        """The chosen run."""
        return dict(self.runs)[self.start]

    @property
    def converged(self) -> bool:
        return self.chosen.converged

    @property
    def iterations(self) -> int:
        return self.chosen.iterations

    @property
    def log_likelihood(self) -> float:
        """The penalised log-likelihood of the chosen run."""
        return self.chosen.objective

    def task_labels(self) -> list[str]:
        """The most probable label of every task (ties: the first label)."""
        return [self.labels[k] for k in np.argmax(self.posteriors, axis=1).tolist()]

    def answers(self) -> np.ndarray:
        """``n[w, r]``: how many times each worker gave each response (labels, then abstentions)."""
        t = self.table
        r = t.n_labels
        return np.bincount(t.worker * r + t.answer, minlength=t.n_workers * r).reshape(t.n_workers, r)

    def summary(self, notes: bool = True) -> str:
        """Plain text: the size, the run chosen, the prevalences, every worker's accuracies (and the
        notes)."""
        gold = int((self.gold >= 0).sum())
        run = self.chosen
        lines = [
            f"Crowd: {len(self.tasks)} tasks, {len(self.workers)} workers, {len(self.table.task)} answers, "
            f"labels {', '.join(self.labels)}" + (f"; {gold} gold task(s)" if gold else ""),
            f"fit: EM from the {self.start} start, {run.iterations} step(s), "
            + (
                f"converged (gain per task below {self.tolerance:g})"
                if run.converged
                else "NOT converged (raise max_iter)"
            )
            + "; starts: "
            + ", ".join(f"{name} {r.objective:.4f}" for name, r in self.runs),
            "prevalence: " + "   ".join(f"P_{ell} = {p:.4f}" for ell, p in zip(self.labels, self.priors)),
        ]
        answers = self.answers().sum(axis=1)
        for k, w in enumerate(self.workers):
            accs = "   ".join(f"acc on {ell} = {self.rows[k, j, j]:.4f}" for j, ell in enumerate(self.labels))
            lines.append(f"{w}  {accs}   ({int(answers[k])} answers)")
        if notes:
            lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)


def _relabelled(table: CrowdTable, labels: Sequence[str]) -> CrowdTable:
    """``table`` with the label list ``labels`` (a superset of its own), answers recoded."""
    position = {x: k for k, x in enumerate(labels)}
    recode = np.array([position[x] for x in table.labels], dtype=np.int64)
    return CrowdTable(
        table.tasks,
        table.workers,
        tuple(labels),
        table.task,
        table.worker,
        recode[table.answer],
        table.originals,
        {k: v for k, v in table.indexes.items() if k != "label"},
    )


def _gold_pairs(gold: Any) -> list[tuple[Any, Any]]:
    if hasattr(gold, "columns") and hasattr(gold, "__getitem__"):  # a DataFrame with task, label
        missing = [c for c in ("task", "label") if c not in gold.columns]
        if missing:
            raise SketchError(f"the gold frame has no column(s) {missing}; it has {list(gold.columns)}")
        return list(zip(gold["task"].tolist(), gold["label"].tolist()))
    if hasattr(gold, "items") and callable(gold.items):  # a mapping or a Series indexed by task
        return list(gold.items())
    try:
        pairs = [tuple(pair) for pair in gold]
    except TypeError:
        raise SketchError(
            f"gold must be a mapping task -> label, (task, label) pairs or a frame; got {type(gold).__name__}"
        ) from None
    if any(len(pair) != 2 for pair in pairs):
        raise SketchError("every gold entry needs two values: task, label")
    return pairs  # type: ignore[return-value]


def gold_positions(
    table: CrowdTable, gold: Any, abstentions: Sequence[str] = ()
) -> tuple[CrowdTable, np.ndarray, tuple[str, ...]]:
    r"""The gold answers as one label position per task (``-1``: not gold), with what was done.

    Returns ``(table, gold, notes)``: the table with any label that only the gold names added
    (sorted in among the others, before the ``abstentions``, which stay last), the positions,
    and notes on gold tasks that are not among the answered tasks (ignored) and labels added.

    Raises
    ------
    SketchError
        A task given two different gold labels, a missing value, an abstention as a gold label,
        or no gold task among the answered tasks.

    Examples
    --------
    >>> table = crowd_table([("t1", "w1", "a"), ("t2", "w1", "b")])
    >>> table, gold, notes = gold_positions(table, {"t2": "c", "t9": "a"})
    >>> table.labels, gold.tolist()
    (('a', 'b', 'c'), [-1, 2])
    >>> for note in notes:
    ...     print(note)
    gold: 1 task(s) not among the answered tasks, ignored (first: 't9')
    gold: label(s) ['c'] no worker answered, added
    """
    pairs = _gold_pairs(gold)
    known: dict[str, str] = {}
    for task, label in pairs:
        if task is None or label is None or task != task or label != label or "" in (str(task), str(label)):
            raise SketchError(f"a gold entry has a missing value: ({task!r}, {label!r}); give task and label")
        name, value = str(task), str(label)
        if known.setdefault(name, value) != value:
            raise SketchError(f"gold task {name!r} has two labels, {known[name]!r} and {value!r}; give one")
    notes: list[str] = []
    position = {t: k for k, t in enumerate(table.tasks)}
    unknown = [t for t in known if t not in position]
    if known and len(unknown) == len(known):
        raise SketchError(
            f"none of the {len(known)} gold task(s) is among the answered tasks (first gold task: "
            f"{unknown[0]!r}, first answered: {table.tasks[0]!r}); check the task column of both files"
        )
    if unknown:
        notes.append(
            f"gold: {len(unknown)} task(s) not among the answered tasks, ignored (first: {unknown[0]!r})"
        )
    named = sorted({v for v in known.values()} & set(abstentions))
    if named:
        raise SketchError(f"gold label(s) {named} are abstentions, not labels; a gold answer is a label")
    new = sorted({v for t, v in known.items() if t in position} - set(table.labels))
    if new:
        kept = [x for x in table.labels if x not in abstentions]
        table = _relabelled(table, [*sorted(set(kept) | set(new)), *abstentions])
        notes.append(f"gold: label(s) {new} no worker answered, added")
    labels = {x: k for k, x in enumerate(table.labels)}
    out = np.full(table.n_tasks, -1, dtype=np.int64)
    for task, value in known.items():
        if task in position:
            out[position[task]] = labels[value]
    return table, out, tuple(notes)


def _assignment(score: np.ndarray) -> np.ndarray:
    """``perm[h]``: the label hidden label ``h`` becomes, maximising ``sum_h score[h, perm[h]]``."""
    from scipy.optimize import linear_sum_assignment

    rows, columns = linear_sum_assignment(-score)
    perm = np.empty(len(rows), dtype=np.int64)
    perm[rows] = columns
    return perm


def _permute(priors: np.ndarray, rows: np.ndarray, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hidden label ``h`` renamed ``perm[h]``: the priors and the rows' true-label axis move."""
    inverse = np.argsort(perm)
    return priors[inverse], rows[:, inverse, :]


def _vote_posteriors(table: CrowdTable, gold: np.ndarray, n_labels: int) -> np.ndarray:
    """Every task's vote shares over the labels (abstentions do not vote), the point mass on gold."""
    votes = table.votes()[:, :n_labels].astype(float)
    total = votes.sum(axis=1, keepdims=True)
    post = votes / np.maximum(total, 1.0)
    post[total[:, 0] == 0] = 1.0 / n_labels
    known = gold >= 0
    post[known] = np.eye(n_labels)[gold[known]]
    return post


def _algebraic_start(
    table: CrowdTable,
    likelihood: CrowdLikelihood,
    gold: np.ndarray,
    splits: int,
    seed: int,
    min_items: int,
    n_labels: int,
) -> tuple[CrowdEvaluation | None, tuple[np.ndarray, np.ndarray] | None, str | None]:
    """The algebraic estimate as a start, every worker with rows; or why there is none.

    With abstentions the algebra sees the labels only (the abstentions left out), and every
    worker's rows, abstention rates included, come from one M step at its posteriors.
    """
    if table.n_workers < 3:
        return None, None, f"the algebraic start needs three workers or more, got {table.n_workers}"
    labelled = table
    if n_labels < table.n_labels:
        keep = table.answer < n_labels
        labelled = CrowdTable(
            table.tasks,
            table.workers,
            table.labels[:n_labels],
            table.task[keep],
            table.worker[keep],
            table.answer[keep],
        )
    try:
        result = sparse_evaluation(labelled, splits=splits, seed=seed, refine=0, min_items=min_items)
    except np.linalg.LinAlgError as exc:  # a singular pair table the batch evaluator did not catch
        return None, None, f"the views' pair tables are singular ({exc})"
    if not np.isfinite(result.priors).all():
        reasons = "; ".join(dict.fromkeys(a.detail for a in result.alarms))
        return result, None, f"no split of the workers into three groups could be evaluated ({reasons})"
    post = result.posteriors.copy()
    known = gold >= 0
    priors, rows = result.priors, result.rows
    if known.any():  # rename the hidden labels to agree best with the gold
        score = np.zeros((n_labels, n_labels))
        np.add.at(score.T, gold[known], post[known])
        perm = _assignment(score)
        priors, rows = _permute(priors, rows, perm)
        post = post[:, np.argsort(perm)]
        post[known] = np.eye(n_labels)[gold[known]]
    _, fill = likelihood.maximise(post)
    if n_labels < table.n_labels:
        return result, (priors, fill), None
    rows = np.where(np.isfinite(rows), rows, fill)  # workers too sparse for the algebra: one M step
    return result, (priors, rows), None


def _decoded(run: CrowdRun) -> CrowdRun:
    """The run with its hidden labels renamed for the most expected correct answers."""
    perm = _assignment(run.expected.sum(axis=0)[:, : run.priors.shape[0]])
    if np.array_equal(perm, np.arange(len(perm))):
        return run
    inverse = np.argsort(perm)
    priors, rows = _permute(run.priors, run.rows, perm)
    return CrowdRun(
        priors,
        rows,
        run.posteriors[:, inverse],
        run.expected[:, inverse, :],
        run.objective,
        run.iterations,
        run.converged,
    )


def crowd_fit(
    data: Any,
    *,
    gold: Any = None,
    abstain: Sequence[str] = (),
    starts: Sequence[str] = STARTS,
    tolerance: float = CROWD_TOLERANCE,
    max_iterations: int = MAX_ITERATIONS,
    splits: int = 3,
    seed: int = 0,
    min_items: int = 10,
    labels: Sequence[str] | None = None,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
) -> CrowdFit:
    r"""Fit the independent model to a crowd by EM, from the algebraic start and majority vote.

    Parameters
    ----------
    data : CrowdTable, pandas.DataFrame, mapping of columns, or iterable of (task, worker, label)
    gold : mapping task -> label, (task, label) pairs or a frame with ``task, label``, optional
        Known answers, held fixed in the estimation (see :func:`gold_positions`).
    abstain : sequence of str
        Answers that are no label (``"unsure"``, ``"N"``): responses of their own, never a
        correct answer; every worker's abstention rates per true label are estimated with the
        rest. The labels are the other names.
    starts : sequence of str
        Among :data:`STARTS`; the run of the largest log-likelihood is kept (the first on a tie).
    tolerance : float
        Stop a run when a round of EM gains less than this log-likelihood per task.
    max_iterations : int
        At most this many EM steps per run (``0``: the chosen start itself).
    splits, seed, min_items : int
        The algebraic start's (:func:`~evalgebra.crowd.sparse.sparse_evaluation`).
    labels : sequence of str, optional
        Every label name in order.
    task, worker, label : str
        Column names.

    Returns
    -------
    CrowdFit

    Raises
    ------
    SpecError
        An unknown start, no start, a negative tolerance or iteration count.
    SketchError
        Bad rows (:func:`~evalgebra.crowd.table.crowd_table`) or gold (:func:`gold_positions`).

    Examples
    --------
    Three LLM graders of BIG-Bench-Mistake (the bundled table): the algebra's trio has no real
    evaluation there, and the fit falls back to majority vote's start.

    >>> from evalgebra.datasets.crowd import sketch_crowd
    >>> fit = crowd_fit(sketch_crowd("bigbench_mistake").records())
    >>> fit.start, fit.converged, fit.notes[0][:60]
    ('majority', True, 'the algebraic start failed: no split of the workers into thr')
    """
    unknown = [s for s in starts if s not in STARTS]
    if unknown or not starts:
        raise SpecError(f"starts must be some of {list(STARTS)}, got {list(starts)}")
    if not tolerance >= 0 or max_iterations < 0:
        raise SpecError(f"need tolerance >= 0 and max_iterations >= 0; got {tolerance}, {max_iterations}")
    table = (
        data
        if isinstance(data, CrowdTable)
        else crowd_table(data, task=task, worker=worker, label=label, labels=labels)
    )
    notes: list[str] = []
    abstentions = tuple(dict.fromkeys(str(a) for a in abstain))
    if abstentions:
        table = _relabelled(table, [*(x for x in table.labels if x not in abstentions), *abstentions])
    n_labels = table.n_labels - len(abstentions)
    if n_labels < 2:
        raise SketchError(
            f"need at least two labels besides the abstentions {list(abstentions)}; got "
            f"{list(table.labels[:n_labels])}"
        )
    positions = np.full(table.n_tasks, -1, dtype=np.int64)
    if gold is not None:
        table, positions, gold_notes = gold_positions(table, gold, abstentions)
        notes.extend(gold_notes)
        n_labels = table.n_labels - len(abstentions)
    likelihood = CrowdLikelihood(
        table.task,
        table.worker,
        table.answer,
        table.n_tasks,
        table.n_workers,
        n_labels,
        positions,
        n_responses=table.n_labels,
    )
    points: list[tuple[str, tuple[np.ndarray, np.ndarray]]] = []
    algebraic: CrowdEvaluation | None = None
    for name in dict.fromkeys(starts):
        if name == "algebraic":
            algebraic, point, reason = _algebraic_start(
                table, likelihood, positions, splits, seed, min_items, n_labels
            )
            if point is None:
                notes.append(f"the algebraic start failed: {reason}")
                algebraic = None
                continue
            points.append((name, point))
        else:
            points.append((name, likelihood.maximise(_vote_posteriors(table, positions, n_labels))))
    if not points:  # only the algebraic start was asked for, and it failed
        notes.append("fell back to the majority start")
        points.append(("majority", likelihood.maximise(_vote_posteriors(table, positions, n_labels))))
    runs = []
    for name, (priors, rows) in points:
        run = crowd_em(
            table.task,
            table.worker,
            table.answer,
            table.n_tasks,
            table.n_workers,
            n_labels,
            priors,
            rows,
            gold=positions,
            tolerance=tolerance,
            max_iterations=max_iterations,
            problem=likelihood,
        )
        runs.append((name, run if (positions >= 0).any() else _decoded(run)))
    values = [run.objective for _, run in runs]
    best = max(values)
    chosen = next(k for k, v in enumerate(values) if v >= best - 1e-9 * (1 + abs(best)))
    name, run = runs[chosen]
    return CrowdFit(
        table,
        run.priors,
        run.rows,
        run.posteriors,
        run.expected,
        positions,
        name,
        tuple(runs),
        tolerance,
        algebraic,
        tuple(notes),
        abstentions,
    )
