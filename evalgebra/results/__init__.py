r"""Results: what every method returns, how it shows itself, and what follows from it.

The stage after the data and before the methods: the evaluators, the alarm, the crowd,
search, Hui-Walter sampling, the plots and the command line all take their result types
from here, and nothing here computes an evaluation.

====================== ==========================================================================
module                 what it holds
====================== ==========================================================================
``evaluation``         :class:`Evaluation`: the candidate points, the chosen one, partition, alarms
``estimates``          :class:`Estimate`: one candidate point; exact values and their text
``alarms``             :class:`Alarm` and :data:`ALARM_KINDS`: failure modes as results
``intervals``          :class:`IntervalInfo` and :data:`INTERVAL_KINDS`: how intervals were made
``fit``                :class:`FitInfo` and :data:`VERDICTS`: the maximum-likelihood fit and the verdict
``structure_evidence`` :class:`StructureEvidence`: the candidates ``structure="auto"`` fitted
``rendering``          how results show themselves: repr, summary, HTML, pandas table
``partition``          :class:`LazyPartition`: a partition by true label computed when first read
``posteriors``         per-item posteriors, labels and expected confusion from an estimate
``certificate``        :class:`LikelihoodCertificate`: whether the fitted point is proved the global maximum
``batch``              :class:`BatchResult`: what every vectorised method returns (named arrays)
====================== ==========================================================================

Examples
--------
>>> from fractions import Fraction
>>> from evalgebra.results import Estimate, predict
>>> point = Estimate({"a": Fraction(1, 4), "b": Fraction(3, 4)},
...                  {"c0": {"a": Fraction(3, 4), "b": Fraction(2, 3)},
...                   "c1": {"a": Fraction(4, 5), "b": Fraction(3, 5)}})
>>> predict(point, [["a", "a"], ["b", "a"]], classifiers=["c0", "c1"])
['a', 'b']
"""

from evalgebra.results.alarms import ALARM_KINDS, Alarm
from evalgebra.results.batch import BatchResult
from evalgebra.results.certificate import LikelihoodCertificate
from evalgebra.results.estimates import EXACT_TYPES, Estimate, Exact, ExactNumber, exact_text
from evalgebra.results.evaluation import INDEPENDENT_METHODS, Evaluation
from evalgebra.results.fit import VERDICTS, FitInfo
from evalgebra.results.intervals import INTERVAL_KINDS, IntervalInfo
from evalgebra.results.partition import LazyPartition
from evalgebra.results.posteriors import (
    PointRows,
    expected_confusion,
    pattern_posteriors,
    point_rows,
    posterior_partition,
    predict,
    predict_proba,
)
from evalgebra.results.structure_evidence import StructureCandidate, StructureEvidence

__all__ = [
    "Evaluation",
    "Estimate",
    "Alarm",
    "IntervalInfo",
    "FitInfo",
    "LazyPartition",
    "VERDICTS",
    "StructureCandidate",
    "StructureEvidence",
    "LikelihoodCertificate",
    "BatchResult",
    "ALARM_KINDS",
    "INTERVAL_KINDS",
    "INDEPENDENT_METHODS",
    "Exact",
    "EXACT_TYPES",
    "ExactNumber",
    "exact_text",
    "PointRows",
    "point_rows",
    "pattern_posteriors",
    "posterior_partition",
    "predict_proba",
    "predict",
    "expected_confusion",
]
