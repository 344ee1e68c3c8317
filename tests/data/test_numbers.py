"""Tests of evalgebra.data.numbers: rationals from text with bounded digits and exponents."""

import time
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.numbers import MAX_BITS, MAX_DIGITS, MAX_EXPONENT, exact_rational, parse_rational, show_int
from evalgebra.errors import PointError, SketchError, SpecError


@pytest.mark.parametrize(
    "text, value",
    [("3", 3), (" -6/8 ", Fraction(-3, 4)), ("0.25", Fraction(1, 4)), ("25e-2", Fraction(1, 4)),
     (".5", Fraction(1, 2)), ("1_000", 1000), ("+2E+3", 2000), (f"1e{MAX_EXPONENT}", 10**MAX_EXPONENT)],
)
def test_parse_rational_reads_what_fraction_reads(text, value):
    assert parse_rational(text, "x") == value == Fraction(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("0e99999999", r"x: exponent 99999999 of '0e99999999' is out of range; accepted: exponents of at most 1000"),
        ("1e-99999999", r"exponent -99999999"),
        ("1e" + "9" * 5000, r"cannot read '1e999"),
        ("9" * (MAX_DIGITS + 1), rf"has {MAX_DIGITS + 1} digits; accepted: at most {MAX_DIGITS}"),
        ("1/" + "7" * 5000, r"cannot read '1/777"),
        ("half", r"x: cannot read 'half' as a rational"),
        ("nan", r"cannot read 'nan'"),
        ("1/0", r"cannot read '1/0' as a rational \(zero denominator\)"),
        ("", r"cannot read ''"),
    ],
)
def test_parse_rational_refuses_huge_or_unreadable_text_quickly(text, message):
    start = time.perf_counter()
    with pytest.raises(SketchError, match=message):
        parse_rational(text, "x")
    assert time.perf_counter() - start < 0.5


def test_exact_rational_raises_the_callers_error_and_bounds_ints():
    with pytest.raises(SpecError, match=r"low: exponent 99999999"):
        exact_rational("0e99999999", "low", SpecError)
    with pytest.raises(PointError, match=r"x: 0.5 is not exact"):
        exact_rational(0.5, "x", PointError)
    with pytest.raises(PointError, match=r"x: True is not exact"):
        exact_rational(True, "x", PointError)
    with pytest.raises(SketchError, match=rf"too large; accepted: numerators and denominators of at most {MAX_BITS} bits"):
        exact_rational(10**5000, "x")
    with pytest.raises(SketchError, match=r"cannot read \[1\] as an exact rational"):
        exact_rational([1], "x")
    with pytest.raises(SketchError, match=r"not a finite rational"):
        exact_rational(Decimal("NaN"), "x")
    assert exact_rational(Decimal("0.125"), "x") == Fraction(1, 8)
    with pytest.raises(SketchError, match=r"exponent -999999999"):
        exact_rational(Decimal("1e-999999999"), "x")


def test_show_int_never_prints_huge_integers():
    assert show_int(-12) == "-12"
    assert show_int(10**5000) == "an integer of 16610 bits"


@given(st.fractions(max_denominator=10**30))
def test_parse_rational_round_trips_fractions(value):
    assert parse_rational(str(value), "x") == value


# -- one parser (issue 21: the CLI had its own with 50 digits, QuadraticNumber none) ------------------
@pytest.mark.parametrize("text", ["٣", "١/٢", "0x10", "inf", "nan", "-inf", "1e", "1/2/3", "1 / 2", "1/-2", "½"])
def test_parse_rational_takes_ascii_rationals_only(text):
    with pytest.raises(SketchError, match="cannot read"):
        parse_rational(text, "x")


def test_parse_rational_without_where_starts_with_the_value():
    with pytest.raises(SketchError, match=r"^cannot read 'half' as a rational"):
        parse_rational("half", "")


def test_every_reader_of_rational_text_uses_the_one_parser():
    import argparse

    from evalgebra.cli import args
    from evalgebra.errors import NumberError
    from evalgebra.evaluators.quadratic import QuadraticNumber

    assert (args.MAX_DIGITS, args.MAX_EXPONENT) == (MAX_DIGITS, MAX_EXPONENT)
    big = "9" * MAX_DIGITS
    assert args.rational(big) == QuadraticNumber(big) == parse_rational(big, "x") == int(big)
    for text in ("9" * (MAX_DIGITS + 1), f"1e{MAX_EXPONENT + 1}", "1e5000", "1/0", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            args.rational(text)
        with pytest.raises(NumberError):
            QuadraticNumber(text)
        with pytest.raises(NumberError):
            QuadraticNumber(0, 1, text)


# -- seeds (issue 21: NumPy's ValueError/TypeError escaped for negative or float seeds) -------------------
def _seed_takers():
    import random

    from evalgebra.alarm.sampling import sample_labelled_tests
    from evalgebra.crowd.facade import DawidSkeneAlgebraic
    from evalgebra.crowd.sparse import sparse_evaluation
    from evalgebra.data.point import EvaluationPoint
    from evalgebra.data.simulate import labelled_test
    from evalgebra.data.sketch import Sketch
    from evalgebra.datasets.crowd import sparse_crowd
    from evalgebra.datasets.judges import llm_judges
    from evalgebra.evaluators.dispatch import evaluate
    from evalgebra.evaluators.intervals import confidence_intervals
    from evalgebra.evaluators.majority import majority_vote
    from evalgebra.groebner.identifiability import random_point
    from evalgebra.hui_walter.gibbs import gibbs_hui_walter
    from evalgebra.search.failure import subsample
    from evalgebra.spec import EnsembleSpec

    three = Sketch.from_counts({"aaa": 5, "aab": 2, "abb": 1, "bab": 3, "bbb": 4}, labels=["a", "b"])
    two = Sketch.from_counts({"aa": 5, "ab": 2, "ba": 1, "bb": 3}, labels=["a", "b"])
    abstaining = Sketch.from_counts({("a", "a", "a"): 5, ("u", "a", "b"): 2, ("b", "b", "b"): 4}, labels=["a", "b"],
                                    abstain="u")
    point = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": "1/2"}, accuracy={0: {"a": 1, "b": "1/2"}})
    crowd = sparse_crowd(n_tasks=40, n_workers=6, per_task=3).records()
    return {
        "llm_judges": lambda s: llm_judges(50, seed=s),
        "sparse_crowd": lambda s: sparse_crowd(seed=s, n_tasks=10, n_workers=6, per_task=3),
        "sparse_evaluation": lambda s: sparse_evaluation(crowd, seed=s),
        "DawidSkeneAlgebraic": lambda s: DawidSkeneAlgebraic(seed=s),
        "gibbs_hui_walter": lambda s: gibbs_hui_walter(two, iterations=10, burn_in=1, chains=1, seed=s),
        "labelled_test": lambda s: labelled_test(point, seed=s),
        "subsample": lambda s: subsample(three, 3, rng=s),
        "sample_labelled_tests": lambda s: sample_labelled_tests(three, size=2, seed=s),
        "random_point": lambda s: random_point(EnsembleSpec(3, 2), seed=s),
        "evaluate": lambda s: evaluate(three, intervals="bootstrap", n_boot=10, seed=s),
        "evaluate with abstentions": lambda s: evaluate(abstaining, intervals="bootstrap", n_boot=10, seed=s),
        "confidence_intervals": lambda s: confidence_intervals(majority_vote(three), three, n_boot=10, seed=s),
        "random.Random": lambda s: sample_labelled_tests(three, size=1, seed=random.Random(s or 0)),
    }


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True, 2**256, 10**5000], ids=["-1", "1.5", "'3'", "True", "2**256",
                                                                           "10**5000"])
def test_every_seed_taker_refuses_what_is_not_a_seed_in_one_line(seed):
    for name, call in _seed_takers().items():
        if name == "random.Random":
            continue
        with pytest.raises(SpecError, match=r"(seed|rng)=.*: a seed is a non-negative integer below 2\*\*256"):
            call(seed)


def test_every_seed_taker_accepts_seeds_up_to_256_bits():
    for call in _seed_takers().values():
        call(0)
        call(2**256 - 1)
