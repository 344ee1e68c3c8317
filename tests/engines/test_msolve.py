"""The msolve driver: its readers, its retries over precisions, and its answers against independent routes.

Independent routes: a degrevlex basis against flint's; the real boxes against the roots written
down by hand (sqrt 2); the readers against values built here.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import flint
import pytest

import evalgebra.engines.msolve as driver
from evalgebra.engines import (
    EngineTimeout,
    ExternalEngineError,
    msolve_binary,
    msolve_groebner,
    msolve_parametrisation,
    parse_basis,
    parse_lists,
    singular_binary,
)
from evalgebra.engines.binaries import engine_binary

NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")


def test_parse_lists_reads_integers_past_python_s_string_limit():
    big = "7" * 6500  # int(str) refuses more than 4,300 digits
    parsed = parse_lists(f"[0, [{big}, -{big} / 2^3, 5 / {big}, 'x']]:")
    value = int(flint.fmpz(big))
    assert parsed == [0, [value, Fraction(-value, 8), Fraction(5, value), "x"]]


@pytest.mark.parametrize("text", ["[0, [1, 2]:", "[0]]:", "[1][2]:", ""])
def test_parse_lists_refuses_unbalanced_output(text):
    with pytest.raises(ExternalEngineError, match="unbalanced"):
        parse_lists(text)


def test_parse_basis_reads_bases_and_the_two_trivial_ideals():
    assert parse_basis("#header\n[v1^2-v2,\nv1*v2-1]:\n") == ["v1^2-v2", "v1*v2-1"]
    assert parse_basis("[0]:") == [] and parse_basis("[]:") == []
    assert parse_basis("[-1]:") == ["1"]
    with pytest.raises(ExternalEngineError, match="cannot read msolve output"):
        parse_basis("Segmentation fault")


def _failing_at(bad: set[str], calls: list[str], timeout_at: str | None = None):
    def run(variables, polynomials, flags, **options):
        precision = flags[flags.index("-p") + 1]
        calls.append(precision)
        if precision == timeout_at:
            raise EngineTimeout("msolve did not finish within 0.1 s")
        if precision in bad:
            raise ExternalEngineError(f"msolve failed (exit 1): refinement at {precision}")
        return "[0, [7]]:"

    return run


def test_parametrisation_tries_the_next_precision_but_never_after_a_time_out(monkeypatch):
    monkeypatch.setattr(driver, "_binary", lambda: "msolve")
    calls: list[str] = []
    monkeypatch.setattr(driver, "run_msolve", _failing_at({"128"}, calls))
    assert msolve_parametrisation(["x"], ["x-1"]) == [0, [7]] and calls == ["128", "256"]
    calls.clear()
    monkeypatch.setattr(driver, "run_msolve", _failing_at(set(driver.PRECISIONS), calls))
    with pytest.raises(ExternalEngineError, match="every precision.*128 bits.*256 bits.*64 bits"):
        msolve_parametrisation(["x"], ["x-1"])
    calls.clear()
    monkeypatch.setattr(driver, "run_msolve", _failing_at({"128"}, calls, timeout_at="256"))
    with pytest.raises(EngineTimeout, match=r"within 30 s \(raise it\)"):
        msolve_parametrisation(["x"], ["x-1"], time_limit=30, hint="raise it")
    assert calls == ["128", "256"]


def test_a_missing_msolve_is_said_once_with_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setenv("EVALGEBRA_MSOLVE", str(tmp_path / "no-msolve"))
    assert msolve_binary() is None
    with pytest.raises(ExternalEngineError, match="make setup.*EVALGEBRA_MSOLVE") as raised:
        msolve_parametrisation(["x"], ["x-1"])
    assert "precision" not in str(raised.value)
    with pytest.raises(ExternalEngineError, match="not installed"):
        msolve_groebner(["x"], ["x-1"])


def test_binaries_are_executable_files_or_none(monkeypatch, tmp_path):
    plain = tmp_path / "msolve"
    plain.write_text("#!/bin/sh\n")
    monkeypatch.setenv("EVALGEBRA_MSOLVE", str(plain))
    assert (
        engine_binary("msolve", "EVALGEBRA_MSOLVE") == str(plain) and msolve_binary() is None
    )  # not executable
    plain.chmod(0o755)
    assert msolve_binary() == str(plain)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("EVALGEBRA_MSOLVE", "msolve")  # a bare name is looked up on PATH
    assert msolve_binary() == str(plain)
    monkeypatch.setenv("EVALGEBRA_SINGULAR", str(tmp_path / "missing"))
    assert singular_binary() is None


@NEEDS_MSOLVE
def test_msolve_groebner_matches_flint(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    from evalgebra.groebner.backends import FlintBackend
    from evalgebra.groebner.polys import PolyRing, canonical_basis

    ring = PolyRing(("x", "y", "z"), "degrevlex")
    texts = ["x^2 + y*z - 2", "x*y - z^2 + 1", "x + y + z - 3"]
    basis = canonical_basis(ring.parse(t) for t in msolve_groebner(ring.names, texts))
    assert [ring.text(p) for p in basis] == [
        ring.text(p) for p in FlintBackend().groebner(ring, map(ring.parse, texts))
    ]
    rest, expected = FlintBackend().eliminate(ring, [ring.parse(t) for t in texts], ["x"])
    kept = [ring.parse(t) for t in msolve_groebner(ring.names, texts, eliminate=1) if "x" not in t]
    assert kept and FlintBackend().groebner(rest, [rest.convert(p, ring) for p in kept]) == expected
    assert list(Path(tmp_path).iterdir()) == []


@NEEDS_MSOLVE
def test_msolve_parametrisation_boxes_hold_the_real_roots(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    data = msolve_parametrisation(["x", "y"], ["x^2-2", "y-x-1"], time_limit=60)
    assert data[0] == 0 and data[1][0] == 0
    negative, positive = sorted(data[2][1])  # x = -sqrt 2 and sqrt 2; y = x + 1
    (a, b), (c, d) = positive
    assert 0 <= a <= b and a * a <= 2 <= b * b and c <= b + 1 and a + 1 <= d
    (a, b), (c, d) = negative
    assert a <= b <= 0 and b * b <= 2 <= a * a and c <= b + 1 and a + 1 <= d
    assert list(Path(tmp_path).iterdir()) == []
