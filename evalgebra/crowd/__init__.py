r"""Crowds: sparse ``task, worker, label`` answers, evaluated algebraically.

============================  ==============================================================
:func:`crowd_table`           code long answers (any subset of tasks per worker)
:func:`crowd_fit`             Dawid-Skene EM to a tolerance from the algebraic start and
                              majority vote, known answers (gold) held fixed
:func:`sparse_evaluation`     group views -> exact-model trio -> linear worker rows -> tasks
:func:`dense_trios`           every trio of workers on the tasks all three answered
:class:`DawidSkeneAlgebraic`  the crowd-kit-shaped face: ``fit(df)``, ``labels_``, ``probas_``,
                              ``priors_``, ``errors_``
:func:`panel_agreement`       Krippendorff's alpha, Fleiss' kappa, every pair's Cohen's kappa
                              (exact; abstentions as missing answers)
============================  ==============================================================

Examples
--------
>>> from evalgebra.crowd import DawidSkeneAlgebraic
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=0)                       # 3 labels, 40 workers, 3,000 tasks, 5 per task
>>> model = DawidSkeneAlgebraic().fit(data.answers())   # a task, worker, label frame
>>> float((model.labels_ == data.true_labels()).mean()) > 0.93
True
>>> round(float(model.priors_["a"]), 2)
0.51
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Where each public name lives, imported on first access (PEP 562): ``evalgebra crowd --help`` and
#: the command line's start do not load the evaluators (and SciPy) behind the fit.
_LAZY = {
    "CrowdTable": "evalgebra.crowd.table",
    "crowd_table": "evalgebra.crowd.table",
    "CrowdEvaluation": "evalgebra.crowd.sparse",
    "sparse_evaluation": "evalgebra.crowd.sparse",
    "DenseTrios": "evalgebra.crowd.trios",
    "dense_trios": "evalgebra.crowd.trios",
    "CrowdFit": "evalgebra.crowd.fit",
    "crowd_fit": "evalgebra.crowd.fit",
    "DawidSkeneAlgebraic": "evalgebra.crowd.facade",
    "Agreement": "evalgebra.crowd.agreement",
    "panel_agreement": "evalgebra.crowd.agreement",
}

if TYPE_CHECKING:
    from evalgebra.crowd.agreement import Agreement, panel_agreement
    from evalgebra.crowd.facade import DawidSkeneAlgebraic
    from evalgebra.crowd.fit import CrowdFit, crowd_fit
    from evalgebra.crowd.sparse import CrowdEvaluation, sparse_evaluation
    from evalgebra.crowd.table import CrowdTable, crowd_table
    from evalgebra.crowd.trios import DenseTrios, dense_trios

__all__ = [
    "CrowdTable",
    "crowd_table",
    "CrowdEvaluation",
    "sparse_evaluation",
    "DenseTrios",
    "dense_trios",
    "CrowdFit",
    "crowd_fit",
    "DawidSkeneAlgebraic",
    "Agreement",
    "panel_agreement",
]


def __getattr__(name: str) -> object:
    """The public names, imported on first access (then cached)."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'evalgebra.crowd' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's own names and every public name."""
    return sorted(set(globals()) | set(__all__))
