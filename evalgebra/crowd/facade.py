r"""A crowd-kit-shaped face for the crowd fit: ``DawidSkeneAlgebraic().fit(df)``.

A crowd-kit user switches by changing the import and the class name: ``fit`` takes the same
``task, worker, label`` frame and leaves the same attributes, in the same shapes:

============  ===================================================================================
attribute     shape (as crowd-kit's ``DawidSkene``)
============  ===================================================================================
``labels_``   Series indexed by ``task``, named ``agg_label``: the most probable label per task
``probas_``   DataFrame ``task x label``: the posterior of every label per task (rows sum to 1)
``priors_``   Series indexed by ``label``, named ``prior``: the prevalence of every label
``errors_``   DataFrame indexed by ``(worker, label)`` (the answered label), one column per true
              label: ``errors_.loc[(w, answered), true] = P_{w,answered|true}``
============  ===================================================================================

and more: ``fit_`` (the :class:`~evalgebra.crowd.fit.CrowdFit`: every EM run, its start,
steps and convergence, the notes), ``evaluation_`` (the algebraic start's
:class:`~evalgebra.crowd.sparse.CrowdEvaluation`, or ``None`` when it could not be made),
``items_`` (answers of every worker) and ``too_sparse_`` (``{worker: reason}``: the workers
too sparse for the algebraic start; the EM estimates their rows all the same). Task, worker
and label values keep their type (crowd-kit's integer labels stay integers).

The estimate is Dawid-Skene's maximum likelihood, iterated to a stated tolerance
(:func:`~evalgebra.crowd.fit.crowd_fit`): EM from the algebraic estimate and from majority
vote, the run of the larger likelihood kept. Where the algebra has no estimate (three
workers whose trio has complex roots, every worker in agreement ...) the fit starts from
majority vote alone and says so in ``fit_.notes``, instead of refusing.

Examples
--------
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=0)
>>> model = DawidSkeneAlgebraic().fit(data.answers())
>>> model.labels_.head(3).tolist(), model.labels_.name, model.probas_.shape
(['a', 'c', 'a'], 'agg_label', (3000, 3))
>>> float((model.labels_ == data.true_labels()).mean()) > 0.93
True
>>> bool(model.errors_.loc[("w00", "a"), "a"] > 0.5), model.too_sparse_, model.fit_.converged
(True, {}, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalgebra.crowd.em import CROWD_TOLERANCE, MAX_ITERATIONS
from evalgebra.crowd.fit import CrowdFit, crowd_fit
from evalgebra.crowd.sparse import CrowdEvaluation
from evalgebra.crowd.table import crowd_table
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.seeds import check_seed

__all__ = ["DawidSkeneAlgebraic"]


class DawidSkeneAlgebraic:
    r"""Crowd aggregation by Dawid-Skene EM from the algebraic estimate, with crowd-kit's interface.

    Parameters
    ----------
    splits : int
        Seeded splits of the workers into three groups for the algebraic start (see
        :func:`~evalgebra.crowd.sparse.sparse_evaluation`).
    refine : int or None
        ``None`` (default): EM to the tolerance ``tol``. An integer caps the EM steps (``0``:
        the better start itself, the algebraic estimate or majority vote).
    seed : int
    min_items : int
        Fewest answers behind a worker's rows in the algebraic start; sparser workers are
        named in ``too_sparse_`` (their rows then come from the EM alone).
    tol : float
        EM stops when a round gains less than this log-likelihood per task.
    max_iter : int
        At most this many EM steps per start.

    Notes
    -----
    ``fit`` needs pandas (as crowd-kit does). Measured on generated crowds
    (``benchmarks/bench_crowd.py``: 3 labels, 40 workers, 3,000 tasks, 5 per task): the
    converged fit labels the same tasks correctly as crowd-kit's ``DawidSkene`` with its
    defaults (0 or 1 more per crowd), about 10 to 20 times faster.

    Examples
    --------
    Integer labels stay integers:

    >>> from evalgebra.datasets.crowd import sparse_crowd
    >>> frame = sparse_crowd(seed=1, n_tasks=600, n_workers=9, per_task=4, n_labels=2).answers()
    >>> model = DawidSkeneAlgebraic().fit(frame.replace({"label": {"a": 0, "b": 1}}))
    >>> model.priors_.index.tolist(), model.labels_.dtype.kind
    ([0, 1], 'i')

    Known answers (crowd-kit's ``true_labels``) are held fixed:

    >>> gold = frame.drop_duplicates("task").set_index("task")["label"].head(5)  # any five tasks
    >>> model = DawidSkeneAlgebraic().fit(frame, true_labels=gold)
    >>> model.labels_.loc[gold.index].tolist() == gold.tolist()
    True
    """

    def __init__(
        self,
        splits: int = 3,
        refine: int | None = None,
        seed: int = 0,
        min_items: int = 10,
        tol: float = CROWD_TOLERANCE,
        max_iter: int = MAX_ITERATIONS,
    ) -> None:
        self.splits = splits
        self.refine = refine
        self.seed = check_seed(seed)
        self.min_items = min_items
        self.tol = tol
        self.max_iter = max_iter

    def __repr__(self) -> str:
        return (
            f"DawidSkeneAlgebraic(splits={self.splits}, refine={self.refine}, seed={self.seed}, "
            f"min_items={self.min_items}, tol={self.tol}, max_iter={self.max_iter})"
        )

    def fit(self, data: Any, true_labels: Any = None) -> DawidSkeneAlgebraic:
        r"""Fit the crowd in ``data`` (a DataFrame with ``task, worker, label`` columns); returns ``self``.

        ``true_labels`` (a Series indexed by task, as crowd-kit's) holds known answers fixed.

        Raises
        ------
        SketchError
            Not a DataFrame with those columns, missing cells, repeated (task, worker) pairs,
            conflicting known answers.
        """
        import pandas as pd

        if not isinstance(data, pd.DataFrame):
            raise SketchError(
                f"fit needs a pandas DataFrame with columns task, worker, label; got {type(data).__name__}"
            )
        if not isinstance(self.splits, int) or not (self.refine is None or isinstance(self.refine, int)):
            raise SpecError("splits must be an integer and refine an integer or None")
        fit = crowd_fit(
            crowd_table(data),
            gold=true_labels,
            tolerance=self.tol,
            max_iterations=self.max_iter if self.refine is None else self.refine,
            splits=self.splits,
            seed=self.seed,
            min_items=self.min_items,
        )
        table = fit.table

        def names(column: str, values: tuple[str, ...]) -> Any:  # the input's own values, as an Index
            if column in table.indexes:
                return table.indexes[column]
            return pd.Index(table.original(column, values))

        task_index = names("task", fit.tasks).rename("task")
        labels_index = names("label", fit.labels)
        label_values = list(labels_index)
        worker_values = dict(zip(fit.workers, names("worker", fit.workers)))
        self.fit_: CrowdFit = fit
        self.evaluation_: CrowdEvaluation | None = fit.algebraic
        self.probas_ = pd.DataFrame(fit.posteriors, index=task_index, columns=labels_index.rename("label"))
        codes = np.argmax(fit.posteriors, axis=1)
        self.labels_ = pd.Series(labels_index.take(codes).array, index=task_index, name="agg_label")
        if labels_index.dtype == object and all(isinstance(v, (int, np.integer)) for v in label_values):
            self.labels_ = self.labels_.astype(np.int64)  # integer labels in an object column stay integers
        self.priors_ = pd.Series(fit.priors, index=pd.Index(label_values, name="label"), name="prior")
        r, w = len(label_values), len(fit.workers)
        index = pd.MultiIndex(
            levels=[pd.Index(list(worker_values.values())), pd.Index(label_values)],
            codes=[np.repeat(np.arange(w), r), np.tile(np.arange(r), w)],
            names=["worker", "label"],
            verify_integrity=False,
        )
        # errors_ rows are (worker, answered label), columns the true label: rows[w, true, answered]
        # transposed
        values = fit.rows.transpose(0, 2, 1).reshape(-1, r)
        self.errors_ = pd.DataFrame(values, index=index, columns=pd.Index(label_values, name="label"))
        self.items_ = pd.Series(
            table.coverage(), index=pd.Index(list(worker_values.values()), name="worker"), name="items"
        )
        sparse = {} if fit.algebraic is None else fit.algebraic.too_sparse
        self.too_sparse_ = {worker_values[w]: reason for w, reason in sparse.items()}
        return self

    def fit_predict(self, data: Any, true_labels: Any = None) -> Any:
        """``fit(data, true_labels)``, then ``labels_``."""
        return self.fit(data, true_labels).labels_

    def fit_predict_proba(self, data: Any, true_labels: Any = None) -> Any:
        """``fit(data, true_labels)``, then ``probas_``."""
        return self.fit(data, true_labels).probas_
