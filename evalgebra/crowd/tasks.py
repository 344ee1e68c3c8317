r"""Per-task posteriors from workers' confusion matrices, and the optional refinement passes.

The posterior of true label ``l`` on task ``t`` is Bayes' rule under independent workers:
``log P(l | answers) = log P_l + sum over the answers (w, r) on t of log P_{w,r|l} + const``.
A refinement pass re-estimates the rows and prevalences from those posteriors (expected
counts) and recomputes the posteriors: one step of the Dawid-Skene EM iteration, started
from the algebraic estimate instead of a majority vote.

Examples
--------
>>> import numpy as np
>>> rows = np.array([[[0.9, 0.1], [0.2, 0.8]]])            # one worker, two labels
>>> post = task_posteriors(
...     np.array([0, 1]), np.array([0, 0]), np.array([0, 1]), 2, np.array([0.5, 0.5]), rows
... )
>>> np.round(post, 4).tolist()
[[0.8182, 0.1818], [0.1111, 0.8889]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["incidence", "row_max", "row_sum", "task_posteriors", "expected_rows", "refine"]

#: Smallest probability used in logarithms (and added to expected counts before normalising).
FLOOR = 1e-6


def incidence(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_tasks: int,
    n_workers: int,
    n_labels: int,
    use: np.ndarray | None = None,
) -> Any:
    r"""The sparse ``tasks x (worker, answer)`` matrix with a 1 for every answer (of the used workers).

    With it a posterior pass is two sparse products: ``log_post = S @ log_rows`` (rows laid out
    ``[w * R + r, l]``) and the expected rows ``S^T @ post``. A worker answers a task at most
    once, so no entry repeats: the rows are laid out directly (no sort of the indices needed).

    >>> incidence(np.array([1, 0]), np.array([0, 1]), np.array([1, 0]), 2, 2, 2).toarray().tolist()
    [[0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    """
    from scipy.sparse import csr_matrix

    if use is not None:
        keep = use[worker]
        task, worker, answer = task[keep], worker[keep], answer[keep]
    order = np.argsort(task, kind="stable")
    indptr = np.zeros(n_tasks + 1, dtype=np.int64)
    np.cumsum(np.bincount(task, minlength=n_tasks), out=indptr[1:])
    columns = (worker * n_labels + answer)[order]
    return csr_matrix((np.ones(len(columns)), columns, indptr), shape=(n_tasks, n_workers * n_labels))


def row_max(table: np.ndarray) -> np.ndarray:
    """The largest entry of every row (column by column: fast for the few columns of labels)."""
    out = table[:, 0].copy()
    for k in range(1, table.shape[1]):
        np.maximum(out, table[:, k], out=out)
    return out


def row_sum(table: np.ndarray) -> np.ndarray:
    """The sum of every row (column by column)."""
    out = table[:, 0].copy()
    for k in range(1, table.shape[1]):
        out += table[:, k]
    return out


def _posteriors(matrix: Any, priors: np.ndarray, rows: np.ndarray) -> np.ndarray:
    n_workers, r, _ = rows.shape
    logs = np.log(np.maximum(rows, FLOOR)).transpose(0, 2, 1).reshape(n_workers * r, r)  # [w * R + answer, l]
    log_post = np.asarray(matrix @ logs) + np.log(np.maximum(priors, FLOOR))[None, :]
    log_post -= row_max(log_post)[:, None]
    post = np.exp(log_post)
    post /= row_sum(post)[:, None]
    return post


def task_posteriors(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_tasks: int,
    priors: np.ndarray,
    rows: np.ndarray,
    use: np.ndarray | None = None,
) -> np.ndarray:
    r"""``post[t, l]``: the posterior of every label on every task.

    Parameters
    ----------
    task, worker, answer : arrays of int
        One entry per answer (positions).
    n_tasks : int
    priors : array (R,)
    rows : array (W, R, R)
        ``rows[w, l, r] = P_{w,r|l}``.
    use : array of bool (W,), optional
        The workers whose answers count (default: all); the others are left out.

    Returns
    -------
    numpy.ndarray (n_tasks, R)
        A task no used worker answered gets the priors.
    """
    matrix = incidence(task, worker, answer, n_tasks, rows.shape[0], len(priors), use)
    return _posteriors(matrix, priors, np.nan_to_num(rows, nan=1.0))


def expected_rows(
    task: np.ndarray, worker: np.ndarray, answer: np.ndarray, n_workers: int, post: np.ndarray
) -> np.ndarray:
    r"""``X[w, l, r]``: the expected number of tasks of true label ``l`` on which ``w`` answered ``r``."""
    matrix = incidence(task, worker, answer, post.shape[0], n_workers, post.shape[1])
    return _expected(matrix, post, n_workers)


def _expected(matrix: Any, post: np.ndarray, n_workers: int, transposed: Any = None) -> np.ndarray:
    r = post.shape[1]
    product = (matrix.T if transposed is None else transposed) @ post
    return np.asarray(product).reshape(n_workers, r, r).transpose(0, 2, 1)


def refine(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_tasks: int,
    n_workers: int,
    priors: np.ndarray,
    rows: np.ndarray,
    passes: int,
    use: np.ndarray | None = None,
    matrix: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``passes`` refinement passes: posteriors -> expected rows and prevalences -> posteriors.

    Returns ``(priors, rows, posteriors)``; with ``passes = 0`` the inputs and their posteriors.
    Workers outside ``use`` keep their rows and stay out of the posteriors. ``matrix`` is the
    :func:`incidence` of all the answers, when already made.
    """
    r = len(priors)
    if matrix is None:
        matrix = incidence(task, worker, answer, n_tasks, n_workers, r, use)
    elif use is not None and not use.all():
        matrix = matrix.multiply(np.repeat(use, r)[None, :].astype(float)).tocsr()
    post = _posteriors(matrix, priors, np.nan_to_num(rows, nan=1.0))
    transposed = matrix.T.tocsr() if passes else None  # made once for every pass
    for _ in range(passes):
        counts = _expected(matrix, post, n_workers, transposed) + FLOOR
        new_rows = counts / counts.sum(axis=2, keepdims=True)
        if use is not None:
            new_rows[~use] = rows[~use]
        rows = new_rows
        priors = np.ones(n_tasks) @ post / n_tasks  # the mean posterior (a product: faster than mean(axis=0))
        post = _posteriors(matrix, priors, np.nan_to_num(rows, nan=1.0))
    return priors, rows, post
