"""Backends agree on reduced Gröbner bases; the runner limits time and reports progress."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from evalgebra.builder import GeneratingSet
from evalgebra.errors import SpecError
from evalgebra.groebner.backends import available_backends, get_backend
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.runner import GroebnerTimeout, run_backend
from evalgebra.spec import EnsembleSpec

ORDERINGS = {
    "flint": ("lex", "deglex", "degrevlex"),
    "sympy": ("lex", "deglex", "degrevlex"),
    "singular": ("lex", "deglex", "degrevlex"),
    "msolve": ("degrevlex",),
}


def _texts(ideal):
    return [str(p) for p in ideal]


@pytest.mark.parametrize(
    "spec",
    [
        EnsembleSpec(2, 2, "complete"),
        EnsembleSpec(1, 3),
        EnsembleSpec(2, 2),
        EnsembleSpec(1, 2, populations=2),
    ],
)
@pytest.mark.parametrize("ordering", ["lex", "degrevlex"])
def test_groebner_basis_backends_agree(spec, ordering):
    # whole bases with symbolic observations grow fast: N = 3 or R = 3 with N = 2 take
    # minutes in some engines, so the comparison runs on the cases every engine does in
    # under a second; eliminations of larger systems are compared below
    ideal = evaluation_ideal(spec, ordering=ordering)
    results = {}
    for name in available_backends():
        if ordering not in ORDERINGS[name]:
            continue
        results[name] = _texts(groebner_basis(ideal, backend=name, time_limit=120))
    assert "flint" in results and "sympy" in results
    reference = results["flint"]
    assert reference, "a reduced basis of a nonzero ideal is not empty"
    for name, basis in results.items():
        assert basis == reference, f"{name} differs from flint"


def test_eliminate_backends_agree_on_pair_relation():
    ideal = evaluation_ideal(EnsembleSpec(2, 2, "complete"))
    results = {
        name: _texts(eliminate(ideal, "correlation", backend=name, time_limit=120))
        for name in available_backends()
    }
    assert len({tuple(v) for v in results.values()}) == 1, results


def test_eliminate_backends_agree_on_prevalence_quadratic():
    ideal = evaluation_ideal(EnsembleSpec(3, 2), coordinates="moments")
    results = {
        name: _texts(eliminate(ideal, "accuracy", backend=name, time_limit=120))
        for name in available_backends()
    }
    assert len({tuple(v) for v in results.values()}) == 1, results
    assert len(results["flint"]) == 1


def test_eliminate_result_free_of_eliminated_variables():
    ideal = evaluation_ideal(EnsembleSpec(2, 2, "complete"))
    result = eliminate(ideal, "correlation")
    assert not any(name.startswith("corr_") for name in result.ring.names)
    assert result.eliminated == ("corr_0_1_a", "corr_0_1_b")
    assert result.backend == "flint" and result.wall_time >= 0


def test_msolve_refuses_lex():
    backend = get_backend("msolve") if "msolve" in available_backends() else None
    if backend is None:
        pytest.skip("msolve not installed")
    ring = PolyRing(("x", "y"), "lex")
    with pytest.raises(SpecError, match="degrevlex"):
        backend.groebner(ring, [ring.parse("x - y")])


def test_get_backend_unknown_name_is_clear():
    with pytest.raises(SpecError, match="unknown Gröbner backend 'nope'"):
        get_backend("nope")


def test_run_backend_time_limit_raises_and_leaves_nothing():
    # N = 4 complete in raw coordinates does not finish in flint's naive Buchberger quickly
    spec = EnsembleSpec(4, 2, "complete")
    ideal = evaluation_ideal(spec)
    with pytest.raises(GroebnerTimeout, match="within 0.5 s"):
        run_backend(
            "flint",
            "eliminate",
            ideal.ring,
            ideal.generators,
            [n for n in ideal.ring.names if n.startswith("corr_")],
            time_limit=0.5,
        )


def test_run_backend_progress_is_reported():
    spec = EnsembleSpec(4, 2, "complete")
    ideal = evaluation_ideal(spec)
    reports = []
    with pytest.raises(GroebnerTimeout):
        run_backend(
            "flint",
            "eliminate",
            ideal.ring,
            ideal.generators,
            [n for n in ideal.ring.names if n.startswith("corr_")],
            time_limit=1.2,
            progress=lambda label, elapsed: reports.append((label, elapsed)),
            interval=0.3,
        )
    assert reports and all(label == "eliminate with flint" for label, _ in reports)
    assert [e for _, e in reports] == sorted(e for _, e in reports)


def test_run_backend_in_child_matches_in_process():
    gs = GeneratingSet(EnsembleSpec(2, 2, "complete"))
    ideal = evaluation_ideal(gs)
    direct = run_backend("flint", "groebner", ideal.ring, ideal.generators)
    child = run_backend("flint", "groebner", ideal.ring, ideal.generators, time_limit=60)
    assert [str(p) for p in direct[1]] == [str(p) for p in child[1]]


def _engine_processes() -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"Singular" in command and b"--no-rc" in command:
                found.add(int(entry.name))
    return found


def test_run_backend_time_limit_ends_external_engines():
    if "singular" not in available_backends() or not Path("/proc").is_dir():
        pytest.skip("needs Singular and /proc")
    before = _engine_processes()
    ideal = evaluation_ideal(EnsembleSpec(4, 2, "complete"))
    with pytest.raises(GroebnerTimeout):
        run_backend(
            "singular",
            "eliminate",
            ideal.ring,
            ideal.generators,
            [n for n in ideal.ring.names if n.startswith("corr_")],
            time_limit=2,
        )
    deadline = time.monotonic() + 5
    while _engine_processes() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not (_engine_processes() - before), "a Singular process outlived its time limit"
