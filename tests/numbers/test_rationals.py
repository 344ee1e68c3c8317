"""Tests of evalgebra.numbers.rationals: rationals from text with bounded digits and exponents."""

import time
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.errors import PointError, SketchError, SpecError
from evalgebra.numbers.rationals import (
    MAX_BITS,
    MAX_DIGITS,
    MAX_EXPONENT,
    exact_rational,
    parse_rational,
    show_int,
)


@pytest.mark.parametrize(
    "text, value",
    [
        ("3", 3),
        (" -6/8 ", Fraction(-3, 4)),
        ("0.25", Fraction(1, 4)),
        ("25e-2", Fraction(1, 4)),
        (".5", Fraction(1, 2)),
        ("1_000", 1000),
        ("+2E+3", 2000),
        (f"1e{MAX_EXPONENT}", 10**MAX_EXPONENT),
    ],
)
def test_parse_rational_reads_what_fraction_reads(text, value):
    assert parse_rational(text, "x") == value == Fraction(text)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "0e99999999",
            r"x: exponent 99999999 of '0e99999999' is out of range; accepted: exponents of at most 1000",
        ),
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
    with pytest.raises(
        SketchError, match=rf"too large; accepted: numerators and denominators of at most {MAX_BITS} bits"
    ):
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
@pytest.mark.parametrize(
    "text", ["٣", "١/٢", "0x10", "inf", "nan", "-inf", "1e", "1/2/3", "1 / 2", "1/-2", "½"]
)
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
    from evalgebra.numbers.quadratic import QuadraticNumber

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
