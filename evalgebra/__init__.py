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
from evalgebra.runtime.point import EvaluationPoint, evaluation_point
from evalgebra.runtime.simulate import (
    LabelledTest,
    expected_sketch,
    labelled_test,
    smallest_test_size,
)
from evalgebra.runtime.sketch import Sketch
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
    "datasets",
    "EvalgebraError",
    "SpecError",
    "SketchError",
    "PointError",
    "InconsistentIdealError",
]
