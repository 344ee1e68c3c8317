r"""Beyond one process: sketches of parquet files on the workers and independent sweeps as Dask tasks.

Sketches are counts, so a test of any size is sketched by map-reduce: every partition (or
parquet file) becomes a :class:`~evalgebra.data.partial.PartialCounts` where it lives, and the
parts merge (by response names) in a tree. :meth:`Sketch.from_dask
<evalgebra.data.sketch_sources.SketchSources.from_dask>` does that for a ``dask.dataframe``,
:func:`sketch_parquet_dask` for parquet files read by the workers themselves; :func:`run_sweep`
runs independent cases (the identifiability atlas) as Dask tasks, or serially. Both run on
whatever Dask scheduler is active: a ``dask.distributed.Client`` of a ``LocalCluster`` or of
any cluster, unchanged. (``sketch_from_dask``, the old name of ``Sketch.from_dask``, still
works for one release and warns.)

Needs the optional ``dask`` extra (``pip install evalgebra[dask]``).
"""

from evalgebra.distributed.sketching import sketch_from_dask, sketch_parquet_dask
from evalgebra.distributed.sweep import SweepResult, run_sweep

__all__ = ["sketch_parquet_dask", "run_sweep", "SweepResult"]
_DEPRECATED = (sketch_from_dask,)  # importable for one release, out of __all__
