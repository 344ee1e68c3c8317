"""The Python API under generated junk: every call returns a valid result or raises one of the
project's own errors (an :class:`~evalgebra.errors.EvalgebraError`), never another exception,
and never takes longer than :data:`CASE_SECONDS`.

The junk is what a fuzzing campaign throws at an API: wrong types, None, NaN and infinities,
nested lists, integers far outside 64 bits, unicode (lone surrogates included), bytes, empty
arrays and rows of different lengths, numbers written as text with huge exponents. Every
public reader (``Sketch.from_*``, ``read_json``) and evaluator (``evaluate``,
``evaluate_counts``, ``evaluate_batch``, ``majority_vote``, ``majority_vote_counts``,
``containing_distance``, ``evaluation_point``, ``EvaluationPoint.from_values``) is called.
Larger ensembles with any label count (3-5 classifiers, 2-4 labels) are evaluated too, on random
counts and on exactly independent tests, whose truth must come back up to a renaming.

Each property runs :data:`EXAMPLES` examples (derandomized under the ``ci`` profile of
``tests/conftest.py``); the whole file takes well under a minute.
"""

from __future__ import annotations

import io
import itertools
import json
import signal
import traceback
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError
from evalgebra.evaluators.batch import evaluate_batch
from evalgebra.evaluators.closed_form import evaluate_counts, prevalence_bounds
from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.evaluators.distance import containing_distance
from evalgebra.evaluators.majority import majority_vote, majority_vote_counts
from evalgebra.evaluators.result import Estimate, Evaluation
from evalgebra.spec import EnsembleSpec

#: Seconds one call may take before the case fails.
CASE_SECONDS = 5
#: Examples per property (12 properties; the label-count one runs 30).
EXAMPLES = 150

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


class CaseTimeout(Exception):
    """A call ran over :data:`CASE_SECONDS`."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout(f"over {CASE_SECONDS} s")


def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, or None when it raised an EvalgebraError; fails on anything else."""
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        return function(*args, **kwargs)
    except EvalgebraError as error:
        text = str(error)
        assert text and "\n" not in text, f"the message of {type(error).__name__} is not one line: {text!r}"
        return None
    except CaseTimeout:
        pytest.fail(f"{getattr(function, '__qualname__', function)} ran over {CASE_SECONDS} s")
    except Exception as error:  # noqa: BLE001 - the point of the test
        frame = traceback.extract_tb(error.__traceback__)[-1]
        pytest.fail(f"{getattr(function, '__qualname__', function)} raised {type(error).__name__} at "
                    f"{frame.filename}:{frame.lineno}: {str(error)[:300]}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- junk --------------------------------------------------------------------------------------
# drawn by index: Hypothesis prints its strategies, and an integer of 5,000 digits does not print
_huge = st.integers(0, 4).map(lambda k: [2**63, 2**64, -(2**63) - 1, 10**400, 10**5000][k])
_texts = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["a", "b", "", " ", "nan", "0e99999999", "1e-99999999", "1/0", "9" * 5000, "\ud800",
                     "{", "[", "a\x00b", "ＡＢ", "٣", "²"]),
)
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), _huge, st.floats(allow_nan=True, allow_infinity=True),
    _texts, st.binary(max_size=4), st.fractions(max_denominator=10), st.just(Decimal("1e-999999999")),
    st.just(np.float64("nan")), st.just(np.int64(1)), st.just(np.array([], dtype=float)), st.just(object()),
)
junk = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(_texts, st.integers(-2, 3)), inner, max_size=3),
    ),
    max_leaves=12,
)
# label-like cells: mostly valid, sometimes junk, in rows of possibly different lengths
_cells = st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(0, 2), _scalars, st.lists(st.just("a"), max_size=2))
matrices = st.lists(st.lists(_cells, min_size=0, max_size=4), min_size=0, max_size=5)
labelish = st.one_of(st.none(), st.just(["a", "b"]), st.just(["a", "b", "c"]), st.integers(-1, 4), _huge, junk)

SMALL = Sketch.from_counts({"aaa": 5, "aab": 2, "abb": 1, "bab": 3, "bbb": 4}, labels=["a", "b"])
SPEC = EnsembleSpec(3, 2)


def _valid_sketch(result: Any) -> None:
    if result is not None:
        assert isinstance(result, Sketch) and result.Q > 0
        assert Sketch.from_json(result.to_json()) == result


# -- readers -------------------------------------------------------------------------------------
@FUZZ
@given(matrices, labelish, st.one_of(st.none(), st.lists(_cells, max_size=5), junk),
       st.one_of(st.none(), st.lists(_cells, max_size=5), junk))
def test_from_decisions_returns_a_sketch_or_a_project_error(decisions, labels, truth, population):
    _valid_sketch(call(Sketch.from_decisions, decisions, labels=labels, truth=truth, population=population))
    _valid_sketch(call(Sketch.from_decisions, np.array(decisions, dtype=object) if decisions else np.zeros((0, 3)),
                       labels=labels))


_patterns = st.one_of(st.text(alphabet="ab", max_size=4), _texts, st.integers(-2, 3), st.tuples(_texts, _texts),
                      st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["a", "b"])))


@FUZZ
@given(st.one_of(st.dictionaries(_patterns, st.one_of(st.integers(-1, 9), _huge, junk), max_size=4), junk),
       labelish, st.one_of(st.none(), junk))
def test_from_counts_returns_a_sketch_or_a_project_error(counts, labels, by_true_label):
    _valid_sketch(call(Sketch.from_counts, counts, labels=labels, by_true_label=by_true_label))


@FUZZ
@given(st.one_of(st.lists(st.tuples(_cells, _cells, _cells), max_size=6), junk), st.one_of(st.none(), junk))
def test_from_long_returns_a_sketch_or_a_project_error(records, truth):
    _valid_sketch(call(Sketch.from_long, records, truth=truth))


_csv_text = st.lists(st.lists(st.one_of(st.sampled_from(["a", "b", "y", "m1", "", " ", '"', "x" * 140_000]),
                                        st.text(max_size=4)), max_size=4), max_size=5).map(
    lambda rows: "\n".join(",".join(row) for row in rows))


@FUZZ
@given(st.one_of(_csv_text, st.binary(max_size=30)), st.one_of(st.none(), st.sampled_from(["y", "m1", "a"]), junk),
       st.one_of(st.none(), st.sampled_from(["y", "b"])), st.one_of(st.none(), labelish))
def test_from_csv_returns_a_sketch_or_a_project_error(tmp_path_factory, text, truth, population, labels):
    path = tmp_path_factory.mktemp("csv") / "items.csv"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    _valid_sketch(call(Sketch.from_csv, path, truth=truth, population=population, labels=labels))
    if isinstance(text, str):
        _valid_sketch(call(Sketch.from_csv, io.StringIO(text), truth=truth, population=population, labels=labels))


def _sketch_dicts() -> st.SearchStrategy[Any]:
    base = json.loads(SMALL.to_json())
    keys = sorted(base) + ["by_true_label", "populations", "extra"]
    return st.tuples(st.sampled_from(keys), junk).map(lambda change: {**base, change[0]: change[1]})


@FUZZ
@given(st.one_of(_sketch_dicts(), junk, st.text(max_size=40).map(lambda t: "{" + t), st.binary(max_size=40)))
def test_from_json_returns_a_sketch_or_a_project_error(source):
    _valid_sketch(call(Sketch.from_json, source))
    if isinstance(source, dict):
        try:
            text = json.dumps(source)
        except (TypeError, ValueError):
            return
        _valid_sketch(call(Sketch.read_json, io.StringIO(text)))


# -- points and evaluators --------------------------------------------------------------------------
@FUZZ
@given(st.one_of(st.dictionaries(st.sampled_from(["a", "b", "c"]), junk, max_size=2), junk),
       st.one_of(st.dictionaries(st.integers(0, 3), st.dictionaries(st.sampled_from(["a", "b"]), junk, max_size=2),
                                 max_size=3), junk),
       st.one_of(st.none(), junk), junk)
def test_from_values_returns_a_point_or_a_project_error(prevalence, accuracy, correlation, other):
    point = call(EvaluationPoint.from_values, SPEC, prevalence, accuracy=accuracy, correlation=correlation)
    assert point is None or isinstance(point, EvaluationPoint)
    call(evaluation_point, other)


@FUZZ
@given(st.one_of(st.just(SMALL), junk), st.sampled_from(METHODS + ("coin",)),
       st.dictionaries(st.sampled_from(["decoding", "prevalence_range", "ties", "other"]), junk, max_size=2))
def test_evaluate_returns_an_evaluation_or_a_project_error(sketch, method, options):
    result = call(evaluate, sketch, method=method, **options)
    assert result is None or isinstance(result, Evaluation)


# -- label counts: larger ensembles with more labels (issue 21: trios combined in different renamings)
_LABELS = ("yes", "no", "maybe", "other")  # not in alphabetical order


@st.composite
def label_count_sketches(draw: Any) -> tuple[Sketch, EvaluationPoint | None]:
    """N in 3..5 classifiers, R in 2..4 labels (R = 4 up to N = 4): random pattern counts, or the exact
    sketch of a random independent point (returned with it; every row positive)."""
    n = draw(st.integers(3, 5))
    labels = list(_LABELS[:draw(st.integers(2, 4 if n < 5 else 3))])
    if draw(st.booleans()):
        def row(size: int) -> list[Fraction]:
            weights = draw(st.lists(st.integers(1, 6), min_size=size, max_size=size))
            return [Fraction(w, sum(weights)) for w in weights]

        rows = [[row(len(labels)) for _ in labels] for _ in range(n)]
        truth = EvaluationPoint(EnsembleSpec(n, labels), [row(len(labels))], rows, {})
        return expected_sketch(truth).unlabelled(), truth
    patterns = list(itertools.product(labels, repeat=n))
    cells = draw(st.lists(st.sampled_from(patterns), min_size=1, max_size=30, unique=True))
    return Sketch.from_counts({p: draw(st.integers(1, 20)) for p in cells}, labels=labels), None


def _renaming_of(point: Estimate, truth: EvaluationPoint) -> bool:
    """``point`` is ``truth`` with its labels renamed (values left undefined aside)."""
    labels, prevalence = truth.spec.labels, truth.prevalence_of()
    rows = point.response_rows()
    for perm in itertools.permutations(labels):
        name = dict(zip(labels, perm))
        if all(point.prevalence[name[t]] == prevalence[t] for t in labels) and all(
                rows[c][name[t]][a] in (None, truth.response_rate(c, a, t))
                for c in truth.spec.classifiers for t in labels for a in labels):
            return True
    return False


@settings(FUZZ, max_examples=30)
@given(label_count_sketches())
def test_evaluate_with_any_label_count_returns_a_coherent_evaluation(case):
    """A larger ensemble is one point, every renaming of one point (undecided), or no point with the
    reason; on an exactly independent test every point is the truth renamed, never an average."""
    sketch, truth = case
    result = call(evaluate, sketch, method="algebraic")
    assert isinstance(result, Evaluation)
    if sketch.n_classifiers > 3:
        assert (result.chosen, len(result.points)) in ((0, 1), (None, 0), (None, len(list(
            itertools.permutations(sketch.labels)))))
        if not result.points:
            assert any("not combined" in a.detail for a in result.alarms) or all(
                not t.points or {"blind_spot", "complex"} & t.alarm_kinds() for t in result.trios)
    if truth is not None:
        assert all(_renaming_of(p, truth) for p in result.points)


@FUZZ
@given(st.one_of(st.lists(st.one_of(st.integers(0, 50), _scalars), min_size=7, max_size=9), junk),
       st.one_of(st.just(("a", "b")), junk), st.one_of(st.none(), junk))
def test_evaluate_counts_returns_an_evaluation_or_a_project_error(counts, labels, prevalence_range):
    result = call(evaluate_counts, counts, labels=labels, prevalence_range=prevalence_range)
    assert result is None or isinstance(result, Evaluation)
    call(prevalence_bounds, prevalence_range)


@FUZZ
@given(st.one_of(st.lists(st.lists(st.one_of(st.integers(0, 50), _scalars), min_size=7, max_size=9), max_size=3),
                 junk))
def test_evaluate_batch_returns_columns_or_a_project_error(counts):
    result = call(evaluate_batch, counts)
    assert result is None or result["prevalence"].shape == (len(counts), 2)


@FUZZ
@given(st.one_of(st.just(SMALL), junk), junk, st.one_of(st.integers(-1, 4), _huge, junk), st.one_of(st.integers(-1, 4), junk))
def test_majority_vote_returns_an_evaluation_or_a_project_error(sketch, ties, n_classifiers, n_labels):
    result = call(majority_vote, sketch, ties=ties)
    assert result is None or isinstance(result, Evaluation)
    call(majority_vote_counts, ties if not isinstance(ties, (int, np.integer)) else [1] * 8, n_classifiers, n_labels)


@FUZZ
@given(st.one_of(st.just(SMALL), junk), st.one_of(junk, st.tuples(junk, junk)))
def test_containing_distance_returns_a_distance_or_a_project_error(sketch, values):
    estimate = values
    if isinstance(values, tuple):
        estimate = Estimate({"a": values[0], "b": Fraction(1, 2)}, {c: {"a": values[1], "b": 1} for c in SMALL.classifiers})
    result = call(containing_distance, estimate, sketch)
    assert result is None or result.distance >= 0
