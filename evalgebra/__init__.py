r"""evalgebra: computer algebra for evaluation ideals.

Exact, unsupervised evaluation of classifier ensembles: the polynomial systems that tie
what an ensemble is seen to do on a test (its data sketch) to the statistics that need an
answer key (prevalences, per-label response rates, error correlations).

The top level holds what a practitioner uses: a :class:`Sketch` of the ensemble's answers
(``Sketch.from_decisions``, ``from_counts``, ``from_csv``, ``from_frame``, ``from_parquet``,
``from_dask``, ...), one entry point that evaluates it, ``evaluate(sketch, method=...,
structure=...)`` (methods ``algebraic``, ``majority``, ``hui_walter``), two more paths of the
algebraic method named for what they do (``evaluate_counts``: exact, one count vector of
three classifiers; ``evaluate_batch``: vectorised floating point, many count vectors), the
logical alarm, posteriors, the crowd, the bundled datasets and the errors to catch. One
level down: the algebra (:mod:`evalgebra.spec`, :mod:`evalgebra.variables`,
:mod:`evalgebra.builder`, :mod:`evalgebra.groebner`), the number types
(:mod:`evalgebra.numbers`), the result types (:mod:`evalgebra.results`), the evaluators by
family (:mod:`evalgebra.evaluators`) and exact evaluation points and simulation
(:mod:`evalgebra.data`).

Examples
--------
>>> import evalgebra as ev
>>> sk = ev.datasets.load("acs_employment")
>>> pt = ev.evaluation_point(sk)
>>> pt.prevalence_of()["a"]
Fraction(1, 10)
>>> result = ev.evaluate(sk.unlabelled(), method="algebraic")   # from the counts alone
>>> round(float(result.point.prevalence["a"]), 4), sorted(result.alarm_kinds())
(0.0887, ['irrational'])
>>> ev.evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]).point.prevalence["a"]
Fraction(1, 4)
>>> ev.evaluate_batch([[84, 36, 51, 39, 68, 52, 77, 73]])["prevalence"].tolist()
[[0.25, 0.75]]
>>> from evalgebra.builder import GeneratingSet          # the algebra, one level down
>>> gs = GeneratingSet(pt.spec)
>>> all(r == 0 for r in gs.residuals(pt.free_values(), gs.observed_values(sk)))
True

The names of the previous release still work for one more release and warn
(``DeprecationWarning``) naming their new home: the names that moved one level down
(``evalgebra.GeneratingSet`` is ``evalgebra.builder.GeneratingSet``, ...; the table
``_MOVED`` below), the free sketch constructors (``sketch_from_frame`` is
``Sketch.from_frame``, ...), ``evaluate_algebraic`` (use ``evaluate(sketch,
method="algebraic")``), ``evaluate_many`` (use ``evaluate_batch``) and ``solve_counts`` (use
``evalgebra.evaluators.independent.closed_form.exact_solution``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from evalgebra.errors import EvalgebraError, SketchError, SpecError

#: Where each public name lives. They are imported on first access (PEP 562), so that
#: ``import evalgebra`` and ``evalgebra --help`` do not load SymPy (or NumPy, SciPy) until a name
#: that needs it is used. Add a public name here and to ``__all__``.
_LAZY = {
    "Sketch": "evalgebra.data.sketch",
    "datasets": "evalgebra.datasets",
    "evaluate": "evalgebra.evaluators.dispatch",
    "evaluate_counts": "evalgebra.evaluators.independent.closed_form",
    "evaluate_batch": "evalgebra.evaluators.independent.batch",
    "evaluation_point": "evalgebra.data.point",
    "StreamEvaluator": "evalgebra.evaluators.stream",
    "logical_alarm": "evalgebra.alarm.logical",
    "SafetySpec": "evalgebra.alarm.safety",
    "predict_proba": "evalgebra.results.posteriors",
    "predict": "evalgebra.results.posteriors",
    "expected_confusion": "evalgebra.results.posteriors",
    "crowd": "evalgebra.crowd",
    "DawidSkeneAlgebraic": "evalgebra.crowd.facade",
}

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from evalgebra import crowd, datasets
    from evalgebra.alarm.logical import logical_alarm
    from evalgebra.alarm.safety import SafetySpec
    from evalgebra.crowd.facade import DawidSkeneAlgebraic
    from evalgebra.data.point import evaluation_point
    from evalgebra.data.sketch import Sketch
    from evalgebra.evaluators.dispatch import evaluate
    from evalgebra.evaluators.independent.batch import evaluate_batch
    from evalgebra.evaluators.independent.closed_form import evaluate_counts
    from evalgebra.evaluators.stream import StreamEvaluator
    from evalgebra.results.posteriors import expected_confusion, predict, predict_proba

__version__ = "0.1.0"

__all__ = [
    "Sketch",
    "datasets",
    "evaluate",
    "evaluate_counts",
    "evaluate_batch",
    "evaluation_point",
    "StreamEvaluator",
    "logical_alarm",
    "SafetySpec",
    "predict_proba",
    "predict",
    "expected_confusion",
    "crowd",
    "DawidSkeneAlgebraic",
    "EvalgebraError",
    "SpecError",
    "SketchError",
]

#: Names of the previous release that moved one level down (or were renamed), kept one release:
#: ``evalgebra.<old>`` is the object at its new home and warns, naming it. ``old: (module, name)``.
_MOVED = {
    "EnsembleSpec": ("evalgebra.spec", "EnsembleSpec"),
    "VariableRegistry": ("evalgebra.variables", "VariableRegistry"),
    "VariableKey": ("evalgebra.variables", "VariableKey"),
    "GeneratingSet": ("evalgebra.builder", "GeneratingSet"),
    "FlintSystem": ("evalgebra.builder", "FlintSystem"),
    "generating_set": ("evalgebra.builder", "generating_set"),
    "PartialSketch": ("evalgebra.data.chunked", "PartialSketch"),
    "sketch_from_frame": ("evalgebra", "Sketch.from_frame"),
    "sketch_from_parquet": ("evalgebra", "Sketch.from_parquet"),
    "sketch_from_csv_chunks": ("evalgebra", "Sketch.from_csv_chunks"),
    "sketch_from_dask": ("evalgebra", "Sketch.from_dask"),
    "EvaluationPoint": ("evalgebra.data", "EvaluationPoint"),
    "LabelledTest": ("evalgebra.data", "LabelledTest"),
    "expected_sketch": ("evalgebra.data", "expected_sketch"),
    "labelled_test": ("evalgebra.data", "labelled_test"),
    "smallest_test_size": ("evalgebra.data", "smallest_test_size"),
    "majority_vote": ("evalgebra.evaluators.majority", "evaluate_majority"),
    "Evaluation": ("evalgebra.results", "Evaluation"),
    "Estimate": ("evalgebra.results", "Estimate"),
    "Alarm": ("evalgebra.results", "Alarm"),
    "QuadraticNumber": ("evalgebra.numbers", "QuadraticNumber"),
    "AlgebraicNumber": ("evalgebra.numbers", "AlgebraicNumber"),
    "RealAlgebraic": ("evalgebra.numbers", "RealAlgebraic"),
    "AlarmReport": ("evalgebra.alarm", "AlarmReport"),
    "containing_distance": ("evalgebra.evaluators.independent.distance", "containing_distance"),
    "evaluate_hui_walter": ("evalgebra.evaluators.hui_walter.exact", "evaluate_hui_walter"),
    "gibbs_hui_walter": ("evalgebra.evaluators.hui_walter", "evaluate_hui_walter_gibbs"),
    "OnlineHuiWalter": ("evalgebra.evaluators.hui_walter", "OnlineHuiWalterEvaluator"),
    "consistency": ("evalgebra.samplewise", "consistency"),
    "PointError": ("evalgebra.errors", "PointError"),
    "NumberError": ("evalgebra.errors", "NumberError"),
    "InexactError": ("evalgebra.errors", "InexactError"),
    "InconsistentIdealError": ("evalgebra.errors", "InconsistentIdealError"),
}

#: Old functions, kept one release: ``evalgebra.<old name>`` still works and warns on every call.
_DEPRECATED = {
    "evaluate_algebraic": ("evalgebra.evaluators.independent.algebraic", "evaluate_algebraic"),
    "evaluate_many": ("evalgebra.evaluators.independent.batch", "evaluate_many"),
    "solve_counts": ("evalgebra.evaluators.independent.closed_form", "solve_counts"),
}


def _resolve(module_name: str, path: str) -> object:
    value: object = importlib.import_module(module_name)
    for part in path.split("."):
        value = getattr(value, part)
    return value


def __getattr__(name: str) -> object:
    """The public names, imported on first access (then cached), and the deprecated ones (these
    stay out of ``__all__`` and ``dir()``, and are never cached: every access warns)."""
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        value = module if _LAZY[name] == f"evalgebra.{name}" else getattr(module, name)
        globals()[name] = value
        return value
    if name in _MOVED:
        from evalgebra.deprecation import warn_moved

        module_name, path = _MOVED[name]
        warn_moved(f"evalgebra.{name}", f"{module_name}.{path}")
        return _resolve(module_name, path)
    if name in _DEPRECATED:
        return _resolve(*_DEPRECATED[name])
    raise AttributeError(f"module 'evalgebra' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's own names and every public name (the lazy ones too)."""
    return sorted(set(globals()) | set(__all__))
