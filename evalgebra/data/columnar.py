r"""Columnar and chunked input: parquet/Arrow files, CSV in chunks and pandas categoricals.

Every source is read a chunk at a time (a parquet record batch, a block of CSV rows, a
DataFrame) and each classifier's column is turned into *dictionary codes*: Arrow dictionary
arrays and pandas categoricals already are (their codes are used as they stand, never
re-factorised), other columns are dictionary-encoded once per chunk. The codes are mapped to
responses **by name** in each chunk (:class:`~evalgebra.data.partial.PartialCounts`), so files
whose dictionaries list the labels in different orders are counted right. Memory is bounded
by one chunk (``chunk_rows`` rows) plus the non-empty pattern cells, whatever the test's size.

Parquet needs the optional ``pyarrow`` (``pip install evalgebra[parquet]``); a progress bar
on long reads uses ``tqdm`` when installed (else one plain line on standard error).

Like every reader, these return cell tables (:class:`~evalgebra.data.cells.CellTable`); the
sketch constructors :meth:`Sketch.from_frame <evalgebra.data.sketch_sources.SketchSources.from_frame>`,
:meth:`~evalgebra.data.sketch_sources.SketchSources.from_parquet` and
:meth:`~evalgebra.data.sketch_sources.SketchSources.from_csv_chunks` assemble them.

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"id": range(4), "m1": ["a", "b", "a", "a"], "m2": ["b", "b", "a", "b"]})
>>> frame["m1"] = frame["m1"].astype("category")
>>> table = frame_table(frame, ignore=["id"])
>>> table.classifiers, table.labels, table.count.tolist()
(('m1', 'm2'), ('a', 'b'), [1, 2, 1])
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evalgebra.data.cells import CellTable
from evalgebra.data.encoding import name_text
from evalgebra.data.items_csv import read_items_csv
from evalgebra.data.partial import Column, PartialCounts
from evalgebra.errors import SketchError
from evalgebra.numbers.rationals import short_repr, show_int

__all__ = [
    "frame_table",
    "partial_from_frame",
    "parquet_table",
    "partial_from_parquet",
    "csv_chunks_table",
    "parquet_paths",
    "pandas_column",
    "arrow_column",
    "nested_arrow_type",
    "choose_columns",
    "frame_columns",
    "ProgressBar",
    "COLUMNAR_CHUNK_ROWS",
]

#: Rows read per chunk by default: about 20 MB of codes for five classifiers.
COLUMNAR_CHUNK_ROWS = 1 << 20


# -- one column as dictionary codes ------------------------------------------------------------
def pandas_column(series: Any) -> Column:
    """Dictionary codes of a pandas Series: a categorical's own codes, else factorised once.

    Examples
    --------
    >>> import pandas as pd
    >>> codes, keys = pandas_column(pd.Series(["y", "n", None], dtype="category"))
    >>> codes.tolist(), keys
    ([1, 0, -1], ['n', 'y'])
    """
    import pandas as pd

    dtype = series.dtype
    arrow_type = getattr(dtype, "pyarrow_dtype", None)  # a pandas.ArrowDtype (of lists, structs ...)
    if arrow_type is not None and nested_arrow_type(arrow_type):
        raise _nested_refusal(series.name, arrow_type)
    if isinstance(dtype, pd.CategoricalDtype):
        return np.asarray(series.cat.codes.to_numpy()), list(dtype.categories)
    if dtype.kind == "b":
        raise SketchError(
            f"column {short_repr(series.name)}: booleans are not labels; use label names or indices"
        )
    if dtype.kind in "iu":
        return series.to_numpy(), None
    if dtype.kind == "f":
        raise SketchError(
            f"column {short_repr(series.name)}: decisions must be label names (str) or indices (int), "
            "not floats"
        )
    try:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
    except TypeError as exc:  # cells that are lists, dicts or sets: unhashable, not one label per item
        raise SketchError(
            f"column {short_repr(series.name)} holds {exc}: a cell is not a label (unhashable); "
            "flatten it (one column per element or field) or pick other columns (classifiers= or "
            "ignore=)"
        ) from None
    return codes, list(uniques)


def nested_arrow_type(kind: Any) -> bool:
    """Whether the Arrow type ``kind`` holds several values per item: a list (of any kind), a
    struct, a map or a union, also as the values of a dictionary, a run-end encoding or an
    extension type. Such a column is no classifier's decisions.

    Examples
    --------
    >>> import pyarrow as pa
    >>> nested_arrow_type(pa.list_(pa.string())), nested_arrow_type(pa.dictionary(pa.int8(), pa.string()))
    (True, False)
    """
    import pyarrow as pa

    while True:
        if isinstance(kind, pa.ExtensionType):
            kind = kind.storage_type
        elif pa.types.is_dictionary(kind) or pa.types.is_run_end_encoded(kind):
            kind = kind.value_type
        else:
            return bool(pa.types.is_nested(kind))


def _nested_refusal(name: Any, kind: Any, where: str = "") -> SketchError:
    """The one-line refusal of a column ``name`` of the nested Arrow type ``kind`` (in the file ``where``)."""
    place = f"{where}: " if where else ""
    column = "a column" if name is None else f"column {str(name)!r}"
    return SketchError(
        f"{place}{column} has the nested type {kind}, not one label per item; flatten "
        "it (one column per element or field) or pick other columns (--classifiers or --ignore; "
        "classifiers= or ignore=)"
    )


def arrow_column(array: Any, name: str | None = None) -> Column:
    """Dictionary codes of an Arrow array: a dictionary array's indices, else encoded once.

    ``name`` (the column's) is for the messages; nested types (lists, structs ...) are refused.

    Examples
    --------
    >>> import pyarrow as pa
    >>> codes, keys = arrow_column(pa.array(["y", "n", None, "y"]).dictionary_encode())
    >>> codes.tolist(), keys
    ([0, 1, -1, 0], ['y', 'n'])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    kind = array.type
    if nested_arrow_type(kind):
        raise _nested_refusal(name, kind)
    if pa.types.is_integer(kind):
        return _filled(array), None
    if pa.types.is_boolean(kind):
        raise SketchError("booleans are not labels; use label names or indices")
    if pa.types.is_floating(kind):
        raise SketchError("decisions must be label names (str) or indices (int), not floats")
    if not pa.types.is_dictionary(kind):
        array = pc.dictionary_encode(array)
    return _filled(array.indices), array.dictionary.to_pylist()


def _filled(array: Any) -> np.ndarray:
    """An Arrow integer array as NumPy, nulls as ``-1`` (zero-copy when there are none)."""
    import pyarrow.compute as pc

    if array.null_count:
        array = pc.fill_null(array.cast("int64"), -1)
    return array.to_numpy(zero_copy_only=False)


# -- which columns are the classifiers -----------------------------------------------------
def choose_columns(
    columns: Sequence[str],
    classifiers: Sequence[str] | None,
    ignore: Iterable[str] | None,
    special: Iterable[str | None],
) -> list[str]:
    """The classifier columns: the ones named, else every column but the truth/population/ignored.

    Examples
    --------
    >>> choose_columns(["id", "m1", "m2", "y"], None, ["id"], ["y", None])
    ['m1', 'm2']
    """
    columns = [name_text(c, "columns") for c in columns]
    ignore = _name_list(ignore, "ignore") or []
    classifiers = _name_list(classifiers, "classifiers")
    special = [name_text(s, "truth or population") for s in special if s is not None]
    wanted = special + ignore + list(classifiers or ())
    absent = [c for c in wanted if c not in columns]
    if absent:
        raise SketchError(f"no column(s) {short_repr(absent)}; the columns are {short_repr(columns)}")
    if classifiers is not None:
        chosen = classifiers
    else:
        chosen = [c for c in columns if c not in ignore and c not in special]
    if not chosen:
        raise SketchError("no classifier columns left (every column is the truth, the population or ignored)")
    if len(set(chosen)) != len(chosen):
        raise SketchError(f"classifier columns must be distinct, got {chosen}")
    return chosen


def _name_list(names: Any, what: str) -> list[str] | None:
    """Column names as strings: one name (a str or an int) or a sequence of them; None stays None."""
    if names is None:
        return None
    if isinstance(names, (str, int, np.integer)) and not isinstance(names, (bool, np.bool_)):
        return [name_text(names, what)]
    if isinstance(names, (bytes, dict)) or not isinstance(names, (Sequence, np.ndarray, set, frozenset)):
        raise SketchError(f"{what}: give a column name or a list of them, got {short_repr(names)}")
    return [name_text(name, what) for name in names]


def frame_columns(frame: Any) -> dict[str, Any]:
    """The columns of a DataFrame by name as text (``0`` is ``"0"``): ``{name: the frame's own label}``.

    Column names are used as their ``str()``, as classifier names are strings everywhere; a
    MultiIndex, a repeated name (``1`` and ``"1"`` included) or no column at all is refused.

    Examples
    --------
    >>> import pandas as pd
    >>> frame_columns(pd.DataFrame({0: ["a"], "y": ["b"]}))
    {'0': 0, 'y': 'y'}
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        hint = "; for an array of decisions use Sketch.from_decisions" if hasattr(frame, "shape") else ""
        raise SketchError(f"expected a pandas DataFrame, got {type(frame).__name__}{hint}")
    if isinstance(frame.columns, pd.MultiIndex):
        raise SketchError(
            f"the columns are a MultiIndex of {frame.columns.nlevels} levels; flatten them first, "
            "e.g. frame.columns = ['/'.join(map(str, c)) for c in frame.columns]"
        )
    if len(frame.columns) == 0:
        raise SketchError("the DataFrame has no columns; give one column of answers per classifier")
    out: dict[str, Any] = {}
    for label in frame.columns:
        name = name_text(label, "columns")
        if name in out:
            same = (
                ""
                if out[name] is label or repr(out[name]) == repr(label)
                else f" ({out[name]!r} and {label!r})"
            )
            raise SketchError(f"column name {name!r} appears twice{same}; give every column its own name")
        out[name] = label
    return out


# -- progress ---------------------------------------------------------------------------------
class ProgressBar:
    """Rows read so far, shown as a tqdm bar (if installed) or a plain line on standard error.

    ``enabled=None`` shows it when standard error is a terminal and the read is long
    (over :attr:`LONG` rows).
    """

    LONG = 1 << 24

    def __init__(self, total: int | None, enabled: bool | None = None, what: str = "rows") -> None:
        if enabled is None:
            enabled = bool(getattr(sys.stderr, "isatty", lambda: False)()) and (total or 0) > self.LONG
        self.enabled, self.total, self.done, self.what = enabled, total, 0, what
        self._bar: Any = None
        self._last = time.monotonic()
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit=" " + what, unit_scale=True, file=sys.stderr)

    def update(self, rows: int) -> None:
        self.done += rows
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(rows)
        elif time.monotonic() - self._last > 1.0:
            self._last = time.monotonic()
            of = f" of {show_int(self.total)}" if self.total else ""
            print(f"evalgebra: read {show_int(self.done)}{of} {self.what}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


# -- pandas frames -----------------------------------------------------------------------------
def partial_from_frame(
    frame: Any,
    *,
    classifiers: Sequence[str] | None = None,
    ignore: Iterable[str] | None = None,
    labels: Sequence[str] | None = None,
    truth: str | None = None,
    population: str | None = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
) -> PartialCounts:
    """The :class:`~evalgebra.data.partial.PartialCounts` of one DataFrame (a chunk, a partition).

    Column names are matched as text (:func:`frame_columns`); a frame without rows adds nothing.
    """
    label = frame_columns(frame)
    chosen = choose_columns(list(label), classifiers, ignore, [truth, population])
    part = PartialCounts(
        chosen,
        labels=labels,
        abstain=abstain,
        missing=missing,
        labelled=truth is not None,
        populations=populations,
    )
    if len(frame) == 0:
        return part

    def column(name: Any) -> Column:
        return pandas_column(frame[label[name_text(name, "columns")]])

    part.add(
        [column(c) for c in chosen],
        truth=None if truth is None else column(truth),
        population=None if population is None else column(population),
    )
    return part


def frame_table(frame: Any, **options: Any) -> CellTable:
    r"""The cell table of a pandas DataFrame with one column per classifier, read from dictionary codes.

    :meth:`Sketch.from_frame <evalgebra.data.sketch_sources.SketchSources.from_frame>` is its sketch.

    Categorical columns are counted from their codes (no object copy, no second
    factorisation), other columns are factorised once; responses are matched by name.

    Parameters
    ----------
    frame : pandas.DataFrame
        Column names are used as text, so the classifiers of a frame with integer columns
        ``0, 1, 2`` are ``"0", "1", "2"`` (``truth=3`` and ``truth="3"`` name the same column).
        A MultiIndex is refused: flatten it first (``frame.columns = ["/".join(c) for c in
        frame.columns]``); so are repeated names and a frame without rows.
    classifiers : sequence of str, optional
        The classifier columns (default: every column but ``truth``, ``population`` and ``ignore``).
    ignore : sequence of str, optional
        Columns that are not classifiers (e.g. an item ID).
    labels : sequence of str, optional
        All label names in order (default: the sorted names seen).
    truth, population : str, optional
        The columns holding the answer key and each item's population.
    populations : sequence of str, optional
        Population names in order.
    abstain, missing
        As for :meth:`Sketch.from_decisions <evalgebra.data.sketch.Sketch.from_decisions>`.

    Returns
    -------
    CellTable
        Its sketch equals ``Sketch.from_decisions(frame[classifiers], truth=frame[truth], ...)``.

    Raises
    ------
    SketchError
        Unknown or missing answers (``missing="error"``), a column that looks like an item ID,
        a frame that is not a DataFrame, has no rows or its columns are not as above.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"], "y": ["a", "b"]}, dtype="category")
    >>> table = frame_table(frame, truth="y")
    >>> table.truth.tolist(), table.code.tolist()
    ([0, 1], [1, 3])
    """
    part = partial_from_frame(frame, **options)
    if len(frame) == 0:
        raise SketchError("the DataFrame has no rows; a sketch needs at least one item")
    return part.table()


# -- parquet -----------------------------------------------------------------------------------
def parquet_paths(paths: Any) -> list[Path]:
    """The parquet files named: a path, a folder (its ``*.parquet``, sorted) or a list of them."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.parquet"))
            if not found:
                raise SketchError(f"no *.parquet files in the folder {str(path)!r}")
            out.extend(found)
        elif path.is_file():
            out.append(path)
        else:
            raise SketchError(f"no such file or folder: {str(path)!r}")
    if not out:
        raise SketchError("no parquet files given")
    return out


def _pyarrow() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - pyarrow is in the test extra
        raise SketchError("reading parquet needs pyarrow: pip install 'evalgebra[parquet]'") from exc
    return pq


def partial_from_parquet(
    paths: Any,
    *,
    classifiers: Sequence[str] | None = None,
    ignore: Iterable[str] | None = None,
    labels: Sequence[str] | None = None,
    truth: str | None = None,
    population: str | None = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
    chunk_rows: int = COLUMNAR_CHUNK_ROWS,
    progress: bool | None = False,
) -> PartialCounts:
    """The :class:`~evalgebra.data.partial.PartialCounts` of parquet files, read a batch at a time."""
    pq = _pyarrow()
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise SketchError(f"chunk_rows must be a positive integer, got {short_repr(chunk_rows)}")
    files = parquet_paths(paths)
    handles = []
    for path in files:
        try:
            handles.append(pq.ParquetFile(path))
        except Exception as exc:  # pyarrow raises its own errors for files that are not parquet
            raise SketchError(f"cannot read {str(path)!r} as parquet: {exc}") from exc
    chosen = choose_columns(handles[0].schema_arrow.names, classifiers, ignore, [truth, population])
    read = chosen + [c for c in (truth, population) if c is not None]
    for path, handle in zip(files, handles):
        absent = [c for c in read if c not in handle.schema_arrow.names]
        if absent:
            raise SketchError(f"{str(path)!r} has no column(s) {absent}")
        for name in read:  # refused before any batch is read
            kind = handle.schema_arrow.field(name).type
            if nested_arrow_type(kind):
                raise _nested_refusal(name, kind, repr(str(path)))
    part = PartialCounts(
        chosen,
        labels=labels,
        abstain=abstain,
        missing=missing,
        labelled=truth is not None,
        populations=populations,
    )
    bar = ProgressBar(sum(h.metadata.num_rows for h in handles), progress)
    try:
        for handle in handles:
            for batch in handle.iter_batches(batch_size=chunk_rows, columns=read):
                columns = {name: batch.column(name) for name in read}
                part.add(
                    [arrow_column(columns[c], c) for c in chosen],
                    truth=None if truth is None else arrow_column(columns[truth], truth),
                    population=None if population is None else arrow_column(columns[population], population),
                )
                bar.update(batch.num_rows)
    finally:
        bar.close()
    return part


def parquet_table(paths: Any, **options: Any) -> CellTable:
    r"""The cell table of parquet files (or a folder of them), read in chunks with bounded memory.

    :meth:`Sketch.from_parquet <evalgebra.data.sketch_sources.SketchSources.from_parquet>` is its sketch.

    Parameters
    ----------
    paths : path, folder or list of paths
        The files; a folder stands for its ``*.parquet`` files in sorted order. Every file
        must hold the columns read; their dictionaries may order the labels differently.
    classifiers, ignore, labels, truth, population, populations, abstain, missing
        As for :func:`frame_table`.
    chunk_rows : int
        Rows per record batch read (memory is about ``chunk_rows`` x columns x 8 bytes).
    progress : bool or None
        Show rows read on standard error (``None``: on a terminal, for long reads).

    Returns
    -------
    CellTable

    Examples
    --------
    >>> import pandas as pd, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}).to_parquet(os.path.join(folder, "0.parquet"))
    >>> pd.DataFrame({"m1": ["b"], "m2": ["a"]}).to_parquet(os.path.join(folder, "1.parquet"))
    >>> parquet_table(folder, chunk_rows=1).count.tolist()  # one row per record batch's cell
    [1, 1, 1]
    """
    return partial_from_parquet(paths, **options).table()


# -- CSV in chunks ----------------------------------------------------------------------------
def csv_chunks_table(
    source: str | os.PathLike[str] | io.TextIOBase | Any,
    *,
    classifiers: Sequence[str] | None = None,
    ignore: Iterable[str] | None = None,
    labels: Sequence[str] | None = None,
    truth: str | None = None,
    population: str | None = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
    chunk_rows: int = COLUMNAR_CHUNK_ROWS,
    progress: bool | None = False,
) -> CellTable:
    r"""The cell table of a CSV of items read ``chunk_rows`` rows at a time (bounded memory).

    The one items-CSV parser (:func:`~evalgebra.data.items_csv.read_items_csv`) reads it, so its
    sketch (:meth:`Sketch.from_csv_chunks
    <evalgebra.data.sketch_sources.SketchSources.from_csv_chunks>`) is the one
    :meth:`Sketch.from_csv <evalgebra.data.sketch.Sketch.from_csv>` gives: cells and header
    names trimmed, every cell a label name (numeric ones too), an empty cell a missing answer.
    The options are those of :func:`frame_table`; ``progress`` counts lines read.

    Examples
    --------
    >>> import io
    >>> text = "id,m1,m2,y\n1,a,b,a\n2,b,b,b\n3,b,a,b\n"
    >>> table = csv_chunks_table(io.StringIO(text), ignore=["id"], truth="y", chunk_rows=2)
    >>> table.classifiers, table.truth.tolist()
    (('m1', 'm2'), [0, 1, 1])
    """
    if isinstance(source, (str, os.PathLike)) and not Path(source).is_file():
        raise SketchError(f"no such file: {os.fsdecode(source)!r}")
    options: dict[str, Any] = dict(
        classifiers=classifiers,
        ignore=None if ignore is None else list(ignore),
        labels=labels,
        truth=truth,
        population=population,
        populations=populations,
        abstain=abstain,
        missing=missing,
        chunk_rows=chunk_rows,
        flag_ids=True,
    )
    if not progress:
        return read_items_csv(source, **options)
    bar = ProgressBar(None, progress, what="lines")

    def counted(lines: Iterable[str]) -> Iterator[str]:
        for line in lines:
            bar.update(1)
            yield line

    try:
        if isinstance(source, (str, os.PathLike)):
            try:
                handle = open(source, newline="", encoding="utf-8-sig")
            except (OSError, ValueError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                raise SketchError(f"cannot read CSV file {os.fsdecode(source)!r}: {reason}") from None
            with handle:
                return read_items_csv(counted(handle), name=f"CSV file {os.fsdecode(source)!r}", **options)
        return read_items_csv(counted(source), **options)
    finally:
        bar.close()
