r"""evalgebra: computer algebra for evaluation ideals.

Exact, unsupervised evaluation of classifier ensembles: the polynomial systems that tie
what an ensemble is seen to do on a test (its data sketch) to the statistics that need an
answer key (prevalences, per-label response rates, error correlations).

One entry point evaluates a sketch, ``evaluate(sketch, method=..., structure=...)``
(methods ``algebraic``, ``majority``, ``hui_walter``); the algebraic method has two more
paths, named for what they do: ``evaluate_counts`` (exact, one count vector of three
classifiers) and ``evaluate_batch`` (vectorised floating point, many count vectors as one
array).

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
>>> result = ev.evaluate(sk.unlabelled(), method="algebraic")   # from the counts alone
>>> round(float(result.point.prevalence["a"]), 4), sorted(result.alarm_kinds())
(0.0887, ['irrational'])
>>> ev.evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]).point.prevalence["a"]
Fraction(1, 4)
>>> ev.evaluate_batch([[84, 36, 51, 39, 68, 52, 77, 73]])["prevalence"].tolist()
[[0.25, 0.75]]

The names of the previous release still work for one more release and warn
(``DeprecationWarning``): ``evaluate_algebraic`` (use ``evaluate(sketch,
method="algebraic")``), ``evaluate_many`` (use ``evaluate_batch``) and ``solve_counts``
(use ``evalgebra.evaluators.closed_form.exact_solution``).
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
from evalgebra.evaluators.batch import evaluate_batch
from evalgebra.evaluators.closed_form import evaluate_counts
from evalgebra.samplewise.metrics import consistency
from evalgebra.evaluators.distance import containing_distance
from evalgebra.evaluators.hui_walter import evaluate_hui_walter
from evalgebra.hui_walter import OnlineHuiWalter, gibbs_hui_walter
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation
from evalgebra.evaluators.quadratic import QuadraticNumber
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
    "evaluate_counts",
    "evaluate_batch",
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


#: Old names, kept one release: ``evalgebra.<old name>`` still works and warns on every call.
_DEPRECATED = {
    "evaluate_algebraic": ("evalgebra.evaluators.algebraic", "evaluate_algebraic"),
    "evaluate_many": ("evalgebra.evaluators.batch", "evaluate_many"),
    "solve_counts": ("evalgebra.evaluators.closed_form", "solve_counts"),
}


def __getattr__(name: str) -> object:
    """The deprecated aliases, found on access (they stay out of ``__all__`` and ``dir()``)."""
    if name in _DEPRECATED:
        import importlib

        module, attribute = _DEPRECATED[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'evalgebra' has no attribute {name!r}")
