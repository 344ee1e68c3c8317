"""One real dask.distributed LocalCluster (2 worker processes) shared by the tests of this folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("dask.distributed")


@pytest.fixture(scope="session")
def client() -> Iterator[Any]:
    from evalgebra.distributed.sweep import local_cluster

    with local_cluster(2, memory_limit=None) as made:
        yield made
