r"""Crowds: sparse ``task, worker, label`` answers, evaluated algebraically.

============================  ==============================================================
:func:`crowd_table`           code long answers (any subset of tasks per worker)
:func:`sparse_evaluation`     group views -> exact-model trio -> linear worker rows -> tasks
:func:`dense_trios`           every trio of workers on the tasks all three answered
:class:`DawidSkeneAlgebraic`  the crowd-kit-shaped face: ``fit(df)``, ``labels_``, ``probas_``,
                              ``priors_``, ``errors_``
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

from evalgebra.crowd.facade import DawidSkeneAlgebraic
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
    "DawidSkeneAlgebraic",
]
