"""A small identifiability-atlas sweep on a real LocalCluster gives the serial sweep's rows."""

from __future__ import annotations

import pytest

from evalgebra.distributed.atlas import atlas_case, case_cost, pair_structures
from evalgebra.distributed.sweep import run_sweep
from evalgebra.errors import EvalgebraError


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
