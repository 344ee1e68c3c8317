"""A small identifiability-atlas sweep on a real LocalCluster gives the serial sweep's rows."""

from __future__ import annotations

import pytest

from evalgebra.distributed.atlas import atlas_case, case_cost, pair_structures
from evalgebra.distributed.sweep import run_sweep
from evalgebra.errors import EvalgebraError
from evalgebra.testing.scripts import DERIVATIONS


def _cases() -> list[tuple]:
    cases = [(3, s, 0, 60.0, True) for s in pair_structures(3)]  # with Gröbner runs in the workers
    return cases + [(4, s, 0, 60.0, False) for s in pair_structures(4)]


def test_run_sweep_atlas_on_local_cluster_equals_serial(client) -> None:
    cases = _cases()
    serial = run_sweep(atlas_case, cases)
    parallel = run_sweep(atlas_case, cases, client=client, cost=case_cost)
    assert parallel.values == serial.values
    assert (serial.workers, parallel.workers) == (0, 2)
    assert len(parallel.case_seconds) == len(cases) and parallel.seconds > 0
    # the anchor: three independent classifiers leave finitely many evaluations (two points)
    independent = serial.values[0]
    assert (independent.dimension, independent.groebner_dimension, independent.points) == (0, 0, 2)


def test_local_cluster_refuses_bad_worker_counts() -> None:
    from evalgebra.distributed.sweep import local_cluster

    with pytest.raises(EvalgebraError, match="workers must be a positive integer"):
        with local_cluster(0):
            pass


def _committed_rows(name: str, n_classifiers: int) -> dict[str, list[str]]:
    """Rows of a committed atlas table for ``N = n_classifiers``, keyed by structure text."""
    lines = (DERIVATIONS / "results" / name).read_text(encoding="utf-8").splitlines()
    rows = {}
    for line in lines:
        if line.startswith(f"{n_classifiers}  "):
            cells = line.split("  ")
            cells = [c.strip() for c in cells if c.strip()]
            rows[cells[1]] = cells
    return rows


def test_atlas_case_reproduces_the_committed_d04_graph_rows_on_four_classifiers() -> None:
    from evalgebra.structures import structure_code

    committed = _committed_rows("d04_identifiability.txt", 4)
    for structure in pair_structures(4):
        row = atlas_case((4, structure, 0, 60.0, False))
        if row.finite:  # the Gröbner run where it is cheap: finite projections
            row = atlas_case((4, structure, 0, 60.0, True))
        cells = committed[structure_code(structure) or "-"]
        assert [
            str(row.unknowns),
            str(row.observables),
            str(row.rank),
            str(row.correlation_rank),
            str(row.dimension),
        ] == cells[3:8]
        if row.finite:
            assert [
                str(row.groebner_dimension),
                str(row.degree),
                str(row.points),
                str(row.real_points),
            ] == cells[8:12]


def test_committed_d12_table_jacobian_columns_for_five_classifiers() -> None:
    from evalgebra.structures import structure_code

    committed = _committed_rows("d12_atlas_five_six.txt", 5)
    graphs = pair_structures(5)
    assert len(committed) == len(graphs) == 34
    for structure in graphs:
        row = atlas_case((5, structure, 0, None, False))
        cells = committed[structure_code(structure) or "-"]
        assert [str(row.rank), str(row.correlation_rank), str(row.dimension)] == cells[5:8]
        assert cells[11] in ("2", "-")  # every finished Groebner count: the true point and its label swap
