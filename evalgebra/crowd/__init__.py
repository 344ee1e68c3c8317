r"""Crowds: sparse ``task, worker, label`` answers, evaluated algebraically.

============================  ==============================================================
:func:`crowd_table`           code long answers (any subset of tasks per worker)
:func:`sparse_evaluation`     group views -> exact-model trio -> linear worker rows -> tasks
:func:`dense_trios`           every trio of workers on the tasks all three answered
:class:`DawidSkeneAlgebraic`  the crowd-kit-shaped face: ``fit(df)``, ``labels_``, ``probas_``,
                              ``priors_``, ``errors_``
============================  ==============================================================
"""

from evalgebra.crowd.table import CrowdTable, crowd_table
from evalgebra.crowd.sparse import CrowdEvaluation, sparse_evaluation
from evalgebra.crowd.trios import DenseTrios, dense_trios
from evalgebra.crowd.facade import DawidSkeneAlgebraic

__all__ = ["CrowdTable", "crowd_table", "CrowdEvaluation", "sparse_evaluation", "DenseTrios", "dense_trios",
           "DawidSkeneAlgebraic"]
