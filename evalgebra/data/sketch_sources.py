r"""The sketch constructors of columnar and chunked sources: pandas, parquet, CSV in chunks, Dask.

:class:`SketchSources` is a base of :class:`~evalgebra.data.sketch.Sketch`; its constructors are
called on the class (``Sketch.from_frame``, ``Sketch.from_parquet``, ``Sketch.from_csv_chunks``,
``Sketch.from_dask``), the one constructor style of every source. Each reads its source into a
cell table (:mod:`evalgebra.data.columnar`, :mod:`evalgebra.data.dask_frames`) and the class
assembles it (``_from_table``, which :class:`~evalgebra.data.sketch.Sketch`
defines). The per-item, count, long and CSV constructors are the class's own.

Examples
--------
>>> import pandas as pd
>>> from evalgebra.data.sketch import Sketch
>>> frame = pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}, dtype="category")
>>> Sketch.from_frame(frame) == Sketch.from_decisions(frame)
True
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any, Self

from evalgebra.data.cells import CellTable
from evalgebra.data.columnar import COLUMNAR_CHUNK_ROWS, csv_chunks_table, frame_table, parquet_table
from evalgebra.data.dask_frames import dask_table

__all__ = ["SketchSources"]


class SketchSources:
    r"""The constructors of columnar and chunked sources (a base of :class:`~evalgebra.data.sketch.Sketch`).

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> issubclass(Sketch, SketchSources), Sketch.from_frame.__self__ is Sketch
    (True, True)
    """

    @classmethod
    def _from_table(cls, table: CellTable) -> Self:
        """The sketch of a cell table: the class's own constructor (defined by ``Sketch``)."""
        raise NotImplementedError(f"{cls.__name__} does not assemble cell tables")

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        classifiers: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        truth: str | None = None,
        population: str | None = None,
        populations: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
    ) -> Self:
        r"""A sketch from a pandas DataFrame with one column per classifier, read from dictionary codes.

        Categorical columns are counted from their codes (no object copy, no second
        factorisation), other columns are factorised once; responses are matched by name. The
        sketch equals ``Sketch.from_decisions(frame[classifiers], truth=frame[truth], ...)``; the
        rules and errors are those of :func:`~evalgebra.data.columnar.frame_table`.

        Parameters
        ----------
        frame : pandas.DataFrame
            Column names are used as text (``truth=3`` and ``truth="3"`` name the same column).
        classifiers, ignore : sequence of str, optional
            The classifier columns (default: every column but ``truth``, ``population`` and
            ``ignore``), and columns that are not classifiers (e.g. an item ID).
        labels, abstain, missing
            As for :meth:`from_decisions`.
        truth, population : str, optional
            The columns holding the answer key and each item's population.
        populations : sequence of str, optional
            Population names in order.

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"], "y": ["a", "b"]}, dtype="category")
        >>> Sketch.from_frame(frame, truth="y").by_true_label()
        {'a': {('a', 'b'): 1}, 'b': {('b', 'b'): 1}}
        """
        return cls._from_table(
            frame_table(
                frame,
                classifiers=classifiers,
                ignore=ignore,
                labels=labels,
                truth=truth,
                population=population,
                populations=populations,
                abstain=abstain,
                missing=missing,
            )
        )

    @classmethod
    def from_parquet(
        cls,
        paths: Any,
        *,
        classifiers: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        truth: str | None = None,
        population: str | None = None,
        populations: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
        chunk_rows: int = COLUMNAR_CHUNK_ROWS,
        progress: bool | None = False,
    ) -> Self:
        r"""A sketch from parquet files (or a folder of them), read in chunks with bounded memory.

        Needs ``pyarrow`` (``pip install evalgebra[parquet]``); see
        :func:`~evalgebra.data.columnar.parquet_table`.

        Parameters
        ----------
        paths : path, folder or list of paths
            The files; a folder stands for its ``*.parquet`` files in sorted order. Their
            dictionaries may order the labels differently.
        classifiers, ignore, labels, truth, population, populations, abstain, missing
            As for :meth:`from_frame`.
        chunk_rows : int
            Rows per record batch read (memory is about ``chunk_rows`` x columns x 8 bytes).
        progress : bool or None
            Show rows read on standard error (``None``: on a terminal, for long reads).

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> import pandas as pd, tempfile, os
        >>> folder = tempfile.mkdtemp()
        >>> pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}).to_parquet(os.path.join(folder, "0.parquet"))
        >>> pd.DataFrame({"m1": ["b"], "m2": ["a"]}).to_parquet(os.path.join(folder, "1.parquet"))
        >>> Sketch.from_parquet(folder, chunk_rows=1).counts()
        {('a', 'b'): 1, ('b', 'a'): 1, ('b', 'b'): 1}
        """
        return cls._from_table(
            parquet_table(
                paths,
                classifiers=classifiers,
                ignore=ignore,
                labels=labels,
                truth=truth,
                population=population,
                populations=populations,
                abstain=abstain,
                missing=missing,
                chunk_rows=chunk_rows,
                progress=progress,
            )
        )

    @classmethod
    def from_csv_chunks(
        cls,
        source: str | os.PathLike[str] | io.TextIOBase | Any,
        *,
        classifiers: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        truth: str | None = None,
        population: str | None = None,
        populations: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
        chunk_rows: int = COLUMNAR_CHUNK_ROWS,
        progress: bool | None = False,
    ) -> Self:
        r"""A sketch from a CSV of items read ``chunk_rows`` rows at a time (bounded memory).

        The sketch :meth:`from_csv` gives; a column that looks like an item ID is refused (see
        :func:`~evalgebra.data.columnar.csv_chunks_table`).

        Parameters
        ----------
        source : path, text file or iterable of lines
            UTF-8 text with a header row.
        classifiers, ignore, labels, truth, population, populations, abstain, missing
            As for :meth:`from_frame`.
        chunk_rows : int
            Records parsed at a time.
        progress : bool or None
            Show lines read on standard error.

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> import io
        >>> text = "id,m1,m2,y\n1,a,b,a\n2,b,b,b\n3,b,a,b\n"
        >>> sk = Sketch.from_csv_chunks(io.StringIO(text), ignore=["id"], truth="y", chunk_rows=2)
        >>> sk.classifiers, sk.label_counts()
        (('m1', 'm2'), {'a': 1, 'b': 2})
        """
        return cls._from_table(
            csv_chunks_table(
                source,
                classifiers=classifiers,
                ignore=ignore,
                labels=labels,
                truth=truth,
                population=population,
                populations=populations,
                abstain=abstain,
                missing=missing,
                chunk_rows=chunk_rows,
                progress=progress,
            )
        )

    @classmethod
    def from_dask(
        cls,
        ddf: Any,
        *,
        classifiers: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        truth: str | None = None,
        population: str | None = None,
        populations: Sequence[str] | None = None,
        abstain: str | Sequence[str] | None = None,
        missing: str = "error",
        split_every: int = 8,
        client: Any = None,
        scheduler: str | None = None,
    ) -> Self:
        r"""The sketch of a ``dask.dataframe.DataFrame``: partitions counted in parallel, merged in a tree.

        It equals :meth:`from_frame` of the computed frame; see
        :func:`~evalgebra.data.dask_frames.dask_table`. Needs ``dask``
        (``pip install evalgebra[dask]``).

        Parameters
        ----------
        ddf : dask.dataframe.DataFrame
            One column per classifier (plus, optionally, truth, population and ignored columns).
        classifiers, ignore, labels, truth, population, populations, abstain, missing
            As for :meth:`from_frame`.
        split_every : int
            Parts merged per reduction task.
        client : dask.distributed.Client, optional
            Where to run (default: Dask's active scheduler).
        scheduler : str, optional
            A local Dask scheduler by name (``"sync"``, ``"threads"``, ``"processes"``).

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> import pandas as pd, dask.dataframe as dd
        >>> frame = pd.DataFrame({"id": [1, 2, 3], "m1": ["a", "b", "b"], "m2": ["a", "a", "b"]})
        >>> Sketch.from_dask(dd.from_pandas(frame, npartitions=3), ignore=["id"], scheduler="sync").Q
        3
        """
        return cls._from_table(
            dask_table(
                ddf,
                classifiers=classifiers,
                ignore=ignore,
                labels=labels,
                truth=truth,
                population=population,
                populations=populations,
                abstain=abstain,
                missing=missing,
                split_every=split_every,
                client=client,
                scheduler=scheduler,
            )
        )
