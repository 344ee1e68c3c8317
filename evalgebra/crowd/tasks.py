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
>>> post = task_posteriors(np.array([0, 1]), np.array([0, 0]), np.array([0, 1]), 2, np.array([0.5, 0.5]), rows)
>>> np.round(post, 4).tolist()
[[0.8182, 0.1818], [0.1111, 0.8889]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["task_posteriors", "expected_rows", "refine"]

#: Smallest probability used in logarithms (and added to expected counts before normalising).
FLOOR = 1e-6


def task_posteriors(task: np.ndarray, worker: np.ndarray, answer: np.ndarray, n_tasks: int,
                    priors: np.ndarray, rows: np.ndarray, use: np.ndarray | None = None) -> np.ndarray:
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
    r = len(priors)
    keep = slice(None) if use is None else use[worker]
    t, w, a = task[keep], worker[keep], answer[keep]
    logs = np.log(np.maximum(rows, FLOOR))  # [w, l, r]
    contribution = logs[w, :, a]  # [answer, l]
    log_post = np.empty((n_tasks, r))
    for ell in range(r):
        log_post[:, ell] = np.bincount(t, weights=contribution[:, ell], minlength=n_tasks)
    log_post += np.log(np.maximum(priors, FLOOR))[None, :]
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    post /= post.sum(axis=1, keepdims=True)
    return post


def expected_rows(task: np.ndarray, worker: np.ndarray, answer: np.ndarray, n_workers: int,
                  post: np.ndarray) -> np.ndarray:
    r"""``X[w, l, r]``: the expected number of tasks of true label ``l`` on which ``w`` answered ``r``."""
    r = post.shape[1]
    cell = worker * r + answer
    out = np.empty((n_workers, r, r))
    for ell in range(r):
        out[:, ell, :] = np.bincount(cell, weights=post[task, ell], minlength=n_workers * r).reshape(n_workers, r)
    return out


def refine(task: np.ndarray, worker: np.ndarray, answer: np.ndarray, n_tasks: int, n_workers: int,
           priors: np.ndarray, rows: np.ndarray, passes: int,
           use: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``passes`` refinement passes: posteriors -> expected rows and prevalences -> posteriors.

    Returns ``(priors, rows, posteriors)``; with ``passes = 0`` the inputs and their posteriors.
    Workers outside ``use`` keep their rows and stay out of the posteriors.
    """
    post = task_posteriors(task, worker, answer, n_tasks, priors, rows, use)
    for _ in range(passes):
        counts = expected_rows(task, worker, answer, n_workers, post) + FLOOR
        new_rows = counts / counts.sum(axis=2, keepdims=True)
        if use is not None:
            new_rows[~use] = rows[~use]
        rows = new_rows
        priors = post.mean(axis=0)
        post = task_posteriors(task, worker, answer, n_tasks, priors, rows, use)
    return priors, rows, post
