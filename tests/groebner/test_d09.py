"""The R = 3 identifiability atlas (derivation d09): the fast rows against the committed table."""

from __future__ import annotations

import pytest

from evalgebra.groebner.backends import available_backends
from evalgebra.testing.scripts import DERIVATIONS, load_derivation

RESULT = DERIVATIONS / "results" / "d09_identifiability_many_labels.txt"


def _committed_rows(n: int) -> list[str]:
    return [
        " ".join(line.split())
        for line in RESULT.read_text(encoding="utf-8").splitlines()
        if line.startswith(f"{n}  ")
    ]


@pytest.mark.skipif(not {"msolve", "singular"} & set(available_backends()), reason="needs msolve or Singular")
def test_d09_three_classifier_rows_match_committed_table():
    d09 = load_derivation("d09_identifiability_many_labels")
    rows = [" ".join(" ".join(d09.row_cells(r)).split()) for r in d09.atlas(max_n=3)]
    assert rows == _committed_rows(3)
    assert rows[0].endswith("0 0 6 6 6 yes ok")  # three independent classifiers: R! = 6 evaluations


def test_d09_four_classifier_rows_keep_the_jacobian_dimensions():
    from evalgebra.groebner.identifiability import projection_dimension
    from evalgebra.spec import EnsembleSpec
    from evalgebra.structures import enumerate_structures

    committed = [int(line.split()[-7 - (" " in _status(line))]) for line in _committed_rows(4)]
    graphs = enumerate_structures(4, "graphs")
    assert [projection_dimension(EnsembleSpec(4, 3, s)) for s in graphs] == committed


def _status(line: str) -> str:
    return next(
        s for s in ("elimination timeout", "jacobian only", "degree timeout", "ok") if line.endswith(s)
    )


@pytest.mark.slow
def test_d09_matches_committed_result():
    assert load_derivation("d09_identifiability_many_labels").main(["--check"]) == 0
