"""The Python API under generated junk: every call returns a valid result or raises one of the
project's own errors (an :class:`~evalgebra.errors.EvalgebraError`), never another exception,
and never takes longer than :data:`CASE_SECONDS`.

The junk is what a fuzzing campaign throws at an API: wrong types, None, NaN and infinities,
nested lists, integers far outside 64 bits, unicode (lone surrogates included), bytes, empty
arrays and rows of different lengths, numbers written as text with huge exponents. Every
public reader (``Sketch.from_*``, ``read_json``, ``Sketch.from_frame``, ``PartialSketch.add``)
and evaluator (``evaluate``, ``evaluate_counts``, ``evaluate_batch``, ``evaluate_majority``,
``majority_vote_counts``, ``containing_distance``, ``evaluation_point``,
``EvaluationPoint.from_values``) is called, and so is every reader of numbers written as text
(``parse_rational``, ``QuadraticNumber``, ``SafetySpec``, the command line's ``rational``), of
polynomial roots (``AlgebraicNumber``) and of seeds.

Issue 21 added the generators that would have found its findings: frames with integer,
MultiIndex, repeated or no column names and no rows, arrays where frames or columns belong,
sketches with abstentions for majority voting, negative, float and huge seeds, and number
text (``"1/0"``, ``"1e5000"``, ``"0x10"``, ``" 3 "``, ``"nan"``, ``"inf"``, other scripts'
digits). A number text that is accepted must equal an independent exact reading (``Decimal``
for decimals, ``int`` for the parts of ``p/q``); one within the bounds must be accepted.
Larger ensembles with any label count (3-5 classifiers, 2-4 labels) are evaluated too, on random
counts and on exactly independent tests, whose truth must come back up to a renaming.

Each property runs :data:`EXAMPLES` examples (derandomized under the ``ci`` profile of
``tests/conftest.py``); the whole file takes well under a minute.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import re
import signal
import traceback
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evalgebra.alarm.safety import SafetySpec
from evalgebra.cli.args import rational as cli_rational
from evalgebra.data.chunked import PartialSketch
from evalgebra.data.columnar import partial_from_frame
from evalgebra.data.partial import PartialCounts
from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import expected_sketch, labelled_test
from evalgebra.data.sketch import Sketch
from evalgebra.datasets.crowd import sparse_crowd
from evalgebra.datasets.judges import llm_judges
from evalgebra.errors import EvalgebraError
from evalgebra.evaluators.dispatch import METHODS, evaluate
from evalgebra.evaluators.fitted.choice import with_fit
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.independent.closed_form import evaluate_counts, prevalence_bounds
from evalgebra.evaluators.independent.distance import containing_distance
from evalgebra.evaluators.majority import evaluate_majority, majority_vote_counts
from evalgebra.groebner.identifiability import random_point
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.numbers.rationals import MAX_DIGITS, MAX_EXPONENT, exact_rational, parse_rational
from evalgebra.results import Estimate, Evaluation
from evalgebra.search.failure import subsample
from evalgebra.spec import EnsembleSpec

#: Seconds one call may take before the case fails.
CASE_SECONDS = 5
#: Examples per property (18 properties; the label-count one runs 30).
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
        pytest.fail(
            f"{getattr(function, '__qualname__', function)} raised {type(error).__name__} at "
            f"{frame.filename}:{frame.lineno}: {str(error)[:300]}"
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- junk --------------------------------------------------------------------------------------
# drawn by index: Hypothesis prints its strategies, and an integer of 5,000 digits does not print
_huge = st.integers(0, 4).map(lambda k: [2**63, 2**64, -(2**63) - 1, 10**400, 10**5000][k])
_texts = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        [
            "a",
            "b",
            "",
            " ",
            "nan",
            "0e99999999",
            "1e-99999999",
            "1/0",
            "9" * 5000,
            "\ud800",
            "{",
            "[",
            "a\x00b",
            "ＡＢ",
            "٣",
            "²",
        ]
    ),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    _huge,
    st.floats(allow_nan=True, allow_infinity=True),
    _texts,
    st.binary(max_size=4),
    st.fractions(max_denominator=10),
    st.just(Decimal("1e-999999999")),
    st.just(np.float64("nan")),
    st.just(np.int64(1)),
    st.just(np.array([], dtype=float)),
    st.just(object()),
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
_cells = st.one_of(
    st.sampled_from(["a", "b", "c"]), st.integers(0, 2), _scalars, st.lists(st.just("a"), max_size=2)
)
matrices = st.lists(st.lists(_cells, min_size=0, max_size=4), min_size=0, max_size=5)
labelish = st.one_of(
    st.none(), st.just(["a", "b"]), st.just(["a", "b", "c"]), st.integers(-1, 4), _huge, junk
)

SMALL = Sketch.from_counts({"aaa": 5, "aab": 2, "abb": 1, "bab": 3, "bbb": 4}, labels=["a", "b"])
SPEC = EnsembleSpec(3, 2)


def _valid_sketch(result: Any) -> None:
    if result is not None:
        assert isinstance(result, Sketch) and result.Q > 0
        assert Sketch.from_json(result.to_json()) == result


# -- readers -------------------------------------------------------------------------------------
@FUZZ
@given(
    matrices,
    labelish,
    st.one_of(st.none(), st.lists(_cells, max_size=5), junk),
    st.one_of(st.none(), st.lists(_cells, max_size=5), junk),
)
def test_from_decisions_returns_a_sketch_or_a_project_error(decisions, labels, truth, population):
    _valid_sketch(call(Sketch.from_decisions, decisions, labels=labels, truth=truth, population=population))
    _valid_sketch(
        call(
            Sketch.from_decisions,
            np.array(decisions, dtype=object) if decisions else np.zeros((0, 3)),
            labels=labels,
        )
    )


_patterns = st.one_of(
    st.text(alphabet="ab", max_size=4),
    _texts,
    st.integers(-2, 3),
    st.tuples(_texts, _texts),
    st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["a", "b"])),
)


@FUZZ
@given(
    st.one_of(st.dictionaries(_patterns, st.one_of(st.integers(-1, 9), _huge, junk), max_size=4), junk),
    labelish,
    st.one_of(st.none(), junk),
)
def test_from_counts_returns_a_sketch_or_a_project_error(counts, labels, by_true_label):
    _valid_sketch(call(Sketch.from_counts, counts, labels=labels, by_true_label=by_true_label))


@FUZZ
@given(st.one_of(st.lists(st.tuples(_cells, _cells, _cells), max_size=6), junk), st.one_of(st.none(), junk))
def test_from_long_returns_a_sketch_or_a_project_error(records, truth):
    _valid_sketch(call(Sketch.from_long, records, truth=truth))


_csv_text = st.lists(
    st.lists(
        st.one_of(st.sampled_from(["a", "b", "y", "m1", "", " ", '"', "x" * 140_000]), st.text(max_size=4)),
        max_size=4,
    ),
    max_size=5,
).map(lambda rows: "\n".join(",".join(row) for row in rows))


@FUZZ
@given(
    st.one_of(_csv_text, st.binary(max_size=30)),
    st.one_of(st.none(), st.sampled_from(["y", "m1", "a"]), junk),
    st.one_of(st.none(), st.sampled_from(["y", "b"])),
    st.one_of(st.none(), labelish),
)
def test_from_csv_returns_a_sketch_or_a_project_error(tmp_path_factory, text, truth, population, labels):
    path = tmp_path_factory.mktemp("csv") / "items.csv"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    _valid_sketch(call(Sketch.from_csv, path, truth=truth, population=population, labels=labels))
    if isinstance(text, str):
        _valid_sketch(
            call(Sketch.from_csv, io.StringIO(text), truth=truth, population=population, labels=labels)
        )


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
@given(
    st.one_of(st.dictionaries(st.sampled_from(["a", "b", "c"]), junk, max_size=2), junk),
    st.one_of(
        st.dictionaries(
            st.integers(0, 3), st.dictionaries(st.sampled_from(["a", "b"]), junk, max_size=2), max_size=3
        ),
        junk,
    ),
    st.one_of(st.none(), junk),
    junk,
)
def test_from_values_returns_a_point_or_a_project_error(prevalence, accuracy, correlation, other):
    point = call(EvaluationPoint.from_values, SPEC, prevalence, accuracy=accuracy, correlation=correlation)
    assert point is None or isinstance(point, EvaluationPoint)
    call(evaluation_point, other)


@FUZZ
@given(
    st.one_of(st.just(SMALL), junk),
    st.sampled_from(METHODS + ("coin",)),
    st.dictionaries(st.sampled_from(["decoding", "prevalence_range", "ties", "other"]), junk, max_size=2),
)
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
    labels = list(_LABELS[: draw(st.integers(2, 4 if n < 5 else 3))])
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
    """``point`` is ``truth`` with its labels renamed (values left undefined aside, prevalences too:
    when no classifier's answers depend on the truth, every prevalence fits the counts)."""
    labels, prevalence = truth.spec.labels, truth.prevalence_of()
    rows = point.response_rows()
    for perm in itertools.permutations(labels):
        name = dict(zip(labels, perm))
        if all(point.prevalence[name[t]] in (None, prevalence[t]) for t in labels) and all(
            rows[c][name[t]][a] in (None, truth.response_rate(c, a, t))
            for c in truth.spec.classifiers
            for t in labels
            for a in labels
        ):
            return True
    return False


def _undefined(point: Estimate) -> bool:
    rows = point.response_rows()
    return any(v is None for v in point.prevalence.values()) or any(
        v is None for by_truth in rows.values() for row in by_truth.values() for v in row.values()
    )


def _coin_flippers() -> tuple[Sketch, EvaluationPoint]:
    """Three binary classifiers that answer yes or no with 1/2 whatever the truth (prevalences 1/2)."""
    half = [Fraction(1, 2), Fraction(1, 2)]
    truth = EvaluationPoint(EnsembleSpec(3, ["yes", "no"]), [half], [[half, half] for _ in range(3)], {})
    return expected_sketch(truth).unlabelled(), truth


@settings(FUZZ, max_examples=30)
@given(label_count_sketches())
@example(_coin_flippers())  # found by Hypothesis: no prevalence fits better than another
def test_evaluate_with_any_label_count_returns_a_coherent_evaluation(case):
    """A larger ensemble is one point, every renaming of one point (undecided), or no point with the
    reason; on an exactly independent test every point is the truth renamed, never an average, and
    a value it leaves undefined comes with the blind_spot alarm that says so."""
    sketch, truth = case
    result = call(evaluate, sketch, method="algebraic", fit=False)  # the exact points alone
    assert isinstance(result, Evaluation)
    fitted = call(with_fit, result, sketch)  # what evaluate() adds by default
    assert isinstance(fitted, Evaluation) and fitted.verdict in ("exact", "fitted", "fit_rejected", "none")
    if fitted.point is not None:  # whatever the exact points, the chosen one lies in the simplex
        assert all(0 <= float(v) <= 1 for v in fitted.point.prevalence.values())
    if sketch.n_classifiers > 3:
        assert (result.chosen, len(result.points)) in (
            (0, 1),
            (None, 0),
            (None, len(list(itertools.permutations(sketch.labels)))),
        )
        if not result.points:
            assert any("not combined" in a.detail for a in result.alarms) or all(
                not t.points or {"blind_spot", "complex"} & t.alarm_kinds() for t in result.trios
            )
    if truth is not None:
        assert all(_renaming_of(p, truth) for p in result.points)
        if any(_undefined(p) for p in result.points):
            assert "blind_spot" in result.alarm_kinds()


@FUZZ
@given(
    st.one_of(st.lists(st.one_of(st.integers(0, 50), _scalars), min_size=7, max_size=9), junk),
    st.one_of(st.just(("a", "b")), junk),
    st.one_of(st.none(), junk),
)
def test_evaluate_counts_returns_an_evaluation_or_a_project_error(counts, labels, prevalence_range):
    result = call(evaluate_counts, counts, labels=labels, prevalence_range=prevalence_range)
    assert result is None or isinstance(result, Evaluation)
    call(prevalence_bounds, prevalence_range)


@FUZZ
@given(
    st.one_of(
        st.lists(st.lists(st.one_of(st.integers(0, 50), _scalars), min_size=7, max_size=9), max_size=3), junk
    )
)
def test_evaluate_batch_returns_columns_or_a_project_error(counts):
    result = call(evaluate_batch, counts)
    assert result is None or result["prevalence"].shape == (len(counts), 2)


@FUZZ
@given(
    st.one_of(st.just(SMALL), junk),
    junk,
    st.one_of(st.integers(-1, 4), _huge, junk),
    st.one_of(st.integers(-1, 4), junk),
)
def test_majority_vote_returns_an_evaluation_or_a_project_error(sketch, ties, n_classifiers, n_labels):
    result = call(evaluate_majority, sketch, ties=ties)
    assert result is None or isinstance(result, Evaluation)
    call(
        majority_vote_counts,
        ties if not isinstance(ties, (int, np.integer)) else [1] * 8,
        n_classifiers,
        n_labels,
    )


@FUZZ
@given(st.one_of(st.just(SMALL), junk), st.one_of(junk, st.tuples(junk, junk)))
def test_containing_distance_returns_a_distance_or_a_project_error(sketch, values):
    estimate = values
    if isinstance(values, tuple):
        estimate = Estimate(
            {"a": values[0], "b": Fraction(1, 2)}, {c: {"a": values[1], "b": 1} for c in SMALL.classifiers}
        )
    result = call(containing_distance, estimate, sketch)
    assert result is None or result.distance >= 0


# -- numbers written as text (issue 21: "1/0", "1e5000" escaped; two parsers had two bounds) ------------
_number_texts = st.one_of(
    st.sampled_from(
        [
            "1/0",
            "1e5000",
            "0x10",
            " 3 ",
            "nan",
            "inf",
            "-inf",
            "Infinity",
            "1_000",
            "1__0",
            "_1",
            "1.",
            ".5",
            ".",
            "e5",
            "1e",
            "+-1",
            "1/-2",
            "1 / 2",
            "0/5",
            "-0.0e-0",
            "٣",
            "１",
            "1e1000",
            "1e1001",
            "9" * MAX_DIGITS,
            "9" * (MAX_DIGITS + 1),
            "0e99999999",
            "\t2.5E+3\n",
            "3/4/5",
            "½",
            "1_000/3",
        ]
    ),
    st.from_regex(r"\s?[+-]?[0-9_]{0,5}(\.[0-9_]{0,4})?([eE][+-]?[0-9_]{1,5})?\s?", fullmatch=True),
    st.from_regex(r"[+-]?[0-9]{1,6}/[0-9]{1,6}", fullmatch=True),
    st.fractions(max_denominator=10**6).map(str),
    st.decimals(allow_nan=True, allow_infinity=True, places=None).map(str),
    st.text(alphabet="0123456789+-./eE_ xn٣", max_size=10),
)


def _independent(text: str) -> Fraction | None:
    """``text`` read without the parser under test: ``Decimal`` for decimals, ``int`` for ``p/q``;
    None if neither."""
    body = text.strip()
    if not body.isascii() or not body or re.search(r"(?<![0-9])_|_(?![0-9])", body):
        return None  # Decimal reads '0_', '_1' and '1__0'; Python's grammar puts an underscore between digits
    try:
        if "/" in body:
            top, _, bottom = body.partition("/")
            if (
                top != top.strip()
                or not re.fullmatch(r"[0-9_]+", bottom)
                or not re.fullmatch(r"[+-]?[0-9_]+", top)
            ):
                return None
            return Fraction(int(top), int(bottom)) if int(bottom) else None
        value = Decimal(body)
    except (ValueError, InvalidOperation):
        return None
    if not value.is_finite() or "x" in body.lower():
        return None
    return Fraction(value)


def _within_bounds(text: str) -> bool:
    body = text.strip()
    exponent = re.search(r"[eE]([-+]?[0-9_]+)$", body)
    digits = len(re.sub(r"[eE].*$", "", body).replace("_", "").lstrip("+-").replace(".", "").replace("/", ""))
    return digits <= MAX_DIGITS and (exponent is None or abs(int(exponent[1])) <= MAX_EXPONENT)


@FUZZ
@given(_number_texts)
def test_number_text_is_read_exactly_or_refused_with_a_project_error(text):
    value = call(parse_rational, text, "x")
    expected = _independent(text)
    if value is not None:
        assert expected is not None and value == expected, (
            f"{text!r} read as {value}, independently {expected}"
        )
    elif expected is not None and _within_bounds(text):
        pytest.fail(f"{text!r} is a rational within the bounds ({expected}) and was refused")
    assert call(exact_rational, text, "x") == value
    assert call(QuadraticNumber, text) == (None if value is None else QuadraticNumber(value))
    assert call(QuadraticNumber, 1, text, 2) == (None if value is None else QuadraticNumber(1, value, 2))
    spec = call(SafetySpec, text)
    assert spec is None or spec.min_accuracy == value
    try:
        assert cli_rational(text) == value  # the command line reads rationals with the same parser
    except argparse.ArgumentTypeError as error:
        assert value is None and "\n" not in str(error)


@FUZZ
@given(
    st.one_of(st.lists(st.one_of(st.integers(-5, 5), _scalars), max_size=4), junk),
    st.one_of(st.integers(-3, 3), _huge, junk),
)
def test_algebraic_numbers_from_junk_are_roots_or_project_errors(coefficients, index):
    root = call(AlgebraicNumber, coefficients, index)
    if root is not None:  # a root of what was given: the given polynomial changes sign across its interval
        low, high = root.interval()
        given = [Fraction(int(c)) for c in coefficients]
        at = lambda x: sum(c * x**k for k, c in enumerate(given))  # noqa: E731
        assert at(low) * at(high) < 0


# -- frames and columns (issue 21: KeyError for integer or MultiIndex names, arrays, empty frames) -----------
_column_names = st.one_of(st.sampled_from(["m1", "m2", "y", "1", ""]), st.integers(-1, 3), st.none())


@st.composite
def frames(draw: st.DrawFn) -> Any:
    import pandas as pd

    kind = draw(st.sampled_from(["names", "multiindex", "empty", "no rows", "array", "list", "junk"]))
    n_rows, n_cols = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    cells = st.one_of(st.sampled_from(["a", "b", "a", "b", "?"]), st.integers(0, 2), _scalars)
    rows = [[draw(cells) for _ in range(n_cols)] for _ in range(n_rows)]
    if kind == "array":
        return np.array(rows, dtype=object)
    if kind == "list":
        return rows
    if kind == "junk":
        return draw(junk)
    if kind == "empty":
        return pd.DataFrame()
    if kind == "multiindex":
        names = pd.MultiIndex.from_tuples([(draw(_column_names), k) for k in range(n_cols)])
    else:
        names = [draw(_column_names) for _ in range(n_cols)]  # repeats (1 and "1" too) happen
    try:
        frame = pd.DataFrame(rows, columns=names)
    except UnicodeError:  # pandas cannot hold a lone surrogate in some places: the rows as they are, then
        return rows
    return frame.iloc[:0] if kind == "no rows" else frame


_frame_options = st.dictionaries(
    st.sampled_from(["truth", "ignore", "classifiers", "labels", "abstain", "missing"]),
    st.one_of(
        _column_names,
        st.lists(_column_names, max_size=3),
        st.just(["a", "b"]),
        st.just("?"),
        st.sampled_from(["error", "abstain", "drop"]),
        junk,
    ),
    max_size=3,
)


@FUZZ
@given(frames(), _frame_options)
def test_sketch_from_frame_returns_a_sketch_or_a_project_error(frame, options):
    _valid_sketch(call(Sketch.from_frame, frame, **options))
    part = call(partial_from_frame, frame, **options)
    assert part is None or isinstance(part, PartialCounts)


_codes = st.one_of(
    st.lists(st.integers(-2, 3), min_size=0, max_size=4).map(np.array),
    st.just(np.zeros((2, 2), int)),
    _scalars,
    st.lists(_scalars, max_size=3),
)
_keys = st.one_of(
    st.none(), st.just(["a", "b", "c", "d"]), st.just("ab"), st.lists(_scalars, max_size=3), junk
)
_columns = st.one_of(st.tuples(_codes, _keys), st.tuples(_codes), _codes, junk)


@FUZZ
@given(
    st.one_of(st.just(["x", "y"]), junk),
    st.one_of(st.lists(_columns, max_size=3), _codes, junk),
    st.one_of(st.none(), _columns),
    st.booleans(),
)
def test_partial_sketch_add_counts_or_raises_a_project_error(classifiers, answers, population, labelled):
    part = call(PartialSketch, classifiers, labelled=labelled)
    if part is not None:
        call(
            part.add,
            answers,
            truth=answers[0] if labelled and isinstance(answers, list) and answers else None,
            population=population,
        )


# -- majority voting with abstentions (issue 21: a bare ValueError) ------------------------------------------
_answers = st.sampled_from(["a", "b", "c", "?", "n/a"])


@FUZZ
@given(
    st.lists(st.lists(_answers, min_size=3, max_size=3), min_size=1, max_size=12),
    st.one_of(st.sampled_from(["split", "drop", "a", "?", ["c", "b"], ["?"]]), junk),
)
def test_majority_vote_with_abstentions_returns_rates_or_a_project_error(rows, ties):
    sketch = Sketch.from_decisions(rows, labels=["a", "b", "c"], abstain=["?", "n/a"])
    result = call(evaluate_majority, sketch, ties=ties)
    if result is not None:
        assert all(v is None or 0 <= v <= 1 for v in result.point.values())
        for rows_of_c in result.point.response.values():
            for rates in rows_of_c.values():
                assert all(v is None for v in rates.values()) or sum(rates.values()) == 1


# -- seeds (issue 21: NumPy's own errors for negative or float seeds) ----------------------------------------
_POINT = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": "1/2"}, accuracy={0: {"a": 1, "b": "1/2"}})
_ABSTAINING = Sketch.from_counts(
    {("a", "a", "a"): 5, ("u", "a", "b"): 2, ("b", "b", "b"): 4}, labels=["a", "b"], abstain="u"
)


@FUZZ
@given(st.one_of(st.integers(-(2**70), 2**300), _huge, st.floats(allow_nan=True), junk))
def test_seeds_are_taken_or_refused_with_a_project_error(seed):
    call(llm_judges, 20, seed=seed)
    call(sparse_crowd, seed=seed, n_tasks=6, n_workers=4, per_task=2)
    call(labelled_test, _POINT, seed=seed)
    call(subsample, SMALL, 3, rng=seed)
    call(random_point, SPEC, seed=seed)
    call(evaluate, SMALL, intervals="bootstrap", n_boot=5, seed=seed)
    call(evaluate, _ABSTAINING, intervals="bootstrap", n_boot=5, seed=seed)
