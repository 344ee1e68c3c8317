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
(use ``evalgebra.evaluators.independent.closed_form.exact_solution``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from evalgebra.errors import (
    EvalgebraError,
    InconsistentIdealError,
    InexactError,
    NumberError,
    PointError,
    SketchError,
    SpecError,
)

#: Where each public name lives. They are imported on first access (PEP 562), so that
#: ``import evalgebra`` and ``evalgebra --help`` do not load SymPy (or NumPy, SciPy) until a name
#: that needs it is used. Add a public name here and to ``__all__``.
_LAZY = {
    "datasets": "evalgebra.datasets",
    "crowd": "evalgebra.crowd",
    "DawidSkeneAlgebraic": "evalgebra.crowd.facade",
    "predict_proba": "evalgebra.results.posteriors",
    "predict": "evalgebra.results.posteriors",
    "expected_confusion": "evalgebra.results.posteriors",
    "FlintSystem": "evalgebra.builder",
    "GeneratingSet": "evalgebra.builder",
    "generating_set": "evalgebra.builder",
    "logical_alarm": "evalgebra.alarm.logical",
    "AlarmReport": "evalgebra.alarm.report",
    "SafetySpec": "evalgebra.alarm.safety",
    "evaluate_batch": "evalgebra.evaluators.independent.batch",
    "evaluate_counts": "evalgebra.evaluators.independent.closed_form",
    "consistency": "evalgebra.samplewise.metrics",
    "containing_distance": "evalgebra.evaluators.independent.distance",
    "evaluate_hui_walter": "evalgebra.evaluators.hui_walter.exact",
    "OnlineHuiWalter": "evalgebra.evaluators.hui_walter",
    "gibbs_hui_walter": "evalgebra.evaluators.hui_walter",
    "evaluate": "evalgebra.evaluators.dispatch",
    "Alarm": "evalgebra.results.alarms",
    "Estimate": "evalgebra.results.estimates",
    "Evaluation": "evalgebra.results.evaluation",
    "QuadraticNumber": "evalgebra.numbers.quadratic",
    "AlgebraicNumber": "evalgebra.numbers.algebraic_numbers",
    "RealAlgebraic": "evalgebra.numbers.real_algebraic",
    "majority_vote": "evalgebra.evaluators.majority",
    "EvaluationPoint": "evalgebra.data.point",
    "evaluation_point": "evalgebra.data.point",
    "StreamEvaluator": "evalgebra.evaluators.stream",
    "LabelledTest": "evalgebra.data.simulate",
    "expected_sketch": "evalgebra.data.simulate",
    "labelled_test": "evalgebra.data.simulate",
    "smallest_test_size": "evalgebra.data.simulate",
    "Sketch": "evalgebra.data.sketch",
    "PartialSketch": "evalgebra.data.chunked",
    "sketch_from_frame": "evalgebra.data.columnar",
    "sketch_from_parquet": "evalgebra.data.columnar",
    "sketch_from_csv_chunks": "evalgebra.data.columnar",
    "sketch_from_dask": "evalgebra.distributed.sketching",
    "EnsembleSpec": "evalgebra.spec",
    "VariableKey": "evalgebra.variables",
    "VariableRegistry": "evalgebra.variables",
}

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from evalgebra import crowd, datasets
    from evalgebra.alarm.logical import logical_alarm
    from evalgebra.alarm.report import AlarmReport
    from evalgebra.alarm.safety import SafetySpec
    from evalgebra.builder import FlintSystem, GeneratingSet, generating_set
    from evalgebra.crowd.facade import DawidSkeneAlgebraic
    from evalgebra.data.chunked import PartialSketch
    from evalgebra.data.columnar import sketch_from_csv_chunks, sketch_from_frame, sketch_from_parquet
    from evalgebra.data.point import EvaluationPoint, evaluation_point
    from evalgebra.data.simulate import LabelledTest, expected_sketch, labelled_test, smallest_test_size
    from evalgebra.data.sketch import Sketch
    from evalgebra.distributed.sketching import sketch_from_dask
    from evalgebra.evaluators.dispatch import evaluate
    from evalgebra.evaluators.hui_walter import OnlineHuiWalter, gibbs_hui_walter
    from evalgebra.evaluators.hui_walter.exact import evaluate_hui_walter
    from evalgebra.evaluators.independent.batch import evaluate_batch
    from evalgebra.evaluators.independent.closed_form import evaluate_counts
    from evalgebra.evaluators.independent.distance import containing_distance
    from evalgebra.evaluators.majority import majority_vote
    from evalgebra.evaluators.stream import StreamEvaluator
    from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
    from evalgebra.numbers.quadratic import QuadraticNumber
    from evalgebra.numbers.real_algebraic import RealAlgebraic
    from evalgebra.results import Alarm, Estimate, Evaluation
    from evalgebra.results.posteriors import expected_confusion, predict, predict_proba
    from evalgebra.samplewise.metrics import consistency
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
    "PartialSketch",
    "sketch_from_frame",
    "sketch_from_parquet",
    "sketch_from_csv_chunks",
    "sketch_from_dask",
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
    "AlgebraicNumber",
    "RealAlgebraic",
    "logical_alarm",
    "SafetySpec",
    "AlarmReport",
    "containing_distance",
    "StreamEvaluator",
    "evaluate_hui_walter",
    "gibbs_hui_walter",
    "OnlineHuiWalter",
    "consistency",
    "predict_proba",
    "predict",
    "expected_confusion",
    "crowd",
    "DawidSkeneAlgebraic",
    "datasets",
    "EvalgebraError",
    "SpecError",
    "SketchError",
    "PointError",
    "NumberError",
    "InexactError",
    "InconsistentIdealError",
]


#: Old names, kept one release: ``evalgebra.<old name>`` still works and warns on every call.
_DEPRECATED = {
    "evaluate_algebraic": ("evalgebra.evaluators.independent.algebraic", "evaluate_algebraic"),
    "evaluate_many": ("evalgebra.evaluators.independent.batch", "evaluate_many"),
    "solve_counts": ("evalgebra.evaluators.independent.closed_form", "solve_counts"),
}


def __getattr__(name: str) -> object:
    """The public names, imported on first access (then cached), and the deprecated aliases
    (these stay out of ``__all__`` and ``dir()``)."""
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        value = module if _LAZY[name] == f"evalgebra.{name}" else getattr(module, name)
        globals()[name] = value
        return value
    if name in _DEPRECATED:
        module_name, attribute = _DEPRECATED[name]
        return getattr(importlib.import_module(module_name), attribute)
    raise AttributeError(f"module 'evalgebra' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's own names and every public name (the lazy ones too)."""
    return sorted(set(globals()) | set(__all__))
