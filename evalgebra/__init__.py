r"""evalgebra: computer algebra for evaluation ideals.

Exact, unsupervised evaluation of classifier ensembles: the polynomial systems that tie
what an ensemble is seen to do on a test (its data sketch) to the statistics that need an
answer key (prevalences, per-label response rates, error correlations).

Examples
--------
>>> import evalgebra as ev
>>> sk = ev.datasets.load("acs_employment")
>>> pt = ev.evaluation_point(sk)
>>> pt.prevalence_of()["a"]
Fraction(1, 10)
>>> gs = ev.GeneratingSet(pt.spec)
>>> frequencies = gs.observed_values(sk)
>>> all(r == 0 for r in gs.residuals(pt.free_values(), frequencies))
True
>>> result = ev.evaluate(sk.unlabelled())                 # from the counts alone
>>> round(float(result.point.prevalence["a"]), 4), sorted(result.alarm_kinds())
(0.0887, ['irrational'])
"""

from evalgebra import datasets
from evalgebra.builder import FlintSystem, GeneratingSet, generating_set
from evalgebra.errors import (
    EvalgebraError,
    InconsistentIdealError,
    PointError,
    SketchError,
    SpecError,
)
from evalgebra.alarm.logical import logical_alarm
from evalgebra.alarm.report import AlarmReport
from evalgebra.alarm.safety import SafetySpec
from evalgebra.evaluators.algebraic import evaluate_algebraic, evaluate_many
from evalgebra.consistency.metrics import consistency
from evalgebra.evaluators.distance import containing_distance
from evalgebra.evaluators.hui_walter import evaluate_hui_walter
from evalgebra.hui_walter import OnlineHuiWalter, gibbs_hui_walter
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation, QuadraticNumber
from evalgebra.evaluators.majority import majority_vote
from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.evaluators.stream import StreamEvaluator
from evalgebra.data.simulate import (
    LabelledTest,
    expected_sketch,
    labelled_test,
    smallest_test_size,
)
from evalgebra.data.sketch import Sketch
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableKey, VariableRegistry

__version__ = "0.1.0"

__all__ = [
    "EnsembleSpec",
    "VariableRegistry",
    "VariableKey",
    "GeneratingSet",
    "FlintSystem",
    "generating_set",
    "Sketch",
    "EvaluationPoint",
    "evaluation_point",
    "LabelledTest",
    "expected_sketch",
    "labelled_test",
    "smallest_test_size",
    "evaluate",
    "evaluate_algebraic",
    "evaluate_many",
    "majority_vote",
    "Evaluation",
    "Estimate",
    "Alarm",
    "QuadraticNumber",
    "logical_alarm",
    "SafetySpec",
    "AlarmReport",
    "containing_distance",
    "StreamEvaluator",
    "evaluate_hui_walter",
    "gibbs_hui_walter",
    "OnlineHuiWalter",
    "consistency",
    "datasets",
    "EvalgebraError",
    "SpecError",
    "SketchError",
    "PointError",
    "InconsistentIdealError",
]
