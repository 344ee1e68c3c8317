r"""Reading, writing and showing sketches: the JSON and display methods of
:class:`~evalgebra.data.sketch.Sketch`.

:class:`SketchIO` is a base of :class:`~evalgebra.data.sketch.Sketch`; its methods are
called on sketches (``Sketch.from_json``, ``sketch.to_json()``, ``sketch.summary()``). The
format is that of :mod:`evalgebra.data.sketch_json`, the display that of
:mod:`evalgebra.data.show`.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> sk = Sketch.from_counts({"ab": 2, "bb": 1}, labels=["a", "b"])
>>> Sketch.from_json(sk.to_json()) == sk
True
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from typing import Any, Self, cast

from evalgebra.data.cells import CellTable
from evalgebra.data.show import sketch_frame, sketch_html, sketch_summary
from evalgebra.data.sketch_json import MAX_JSON_BYTES, CountSource, json_table, sketch_to_json
from evalgebra.fileio import write_output

__all__ = ["SketchIO"]


class SketchIO:
    r"""The JSON and display methods of a sketch (a base of :class:`~evalgebra.data.sketch.Sketch`).

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> print(Sketch.from_counts({"ab": 2}, labels=["a", "b"]).summary().splitlines()[0])
    Sketch: 2 items, unlabelled, 2 classifiers, 2 labels
    """

    @classmethod
    def _from_table(cls, table: CellTable) -> Self:
        """The sketch of a cell table: the class's own constructor (defined by ``Sketch``)."""
        raise NotImplementedError(f"{cls.__name__} does not assemble cell tables")

    @classmethod
    def from_json(
        cls,
        source: str | os.PathLike[str] | io.TextIOBase | Mapping[str, Any],
        *,
        max_bytes: int = MAX_JSON_BYTES,
    ) -> Self:
        r"""A sketch from sketch JSON v1 (see :mod:`evalgebra.data.sketch_json`).

        Parameters
        ----------
        source : path, file object, JSON text or parsed dict
            A string starting with ``{`` is read as JSON text (as a path when it is not JSON
            but names a file), any other string as a path.
        max_bytes : int
            Files and file objects larger than this are refused (default
            :data:`~evalgebra.data.sketch_json.MAX_JSON_BYTES`, 256 MiB).

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> sk = Sketch.from_counts({"ab": 2, "bb": 1}, labels=["a", "b"])
        >>> Sketch.from_json(sk.to_json()) == sk
        True
        """
        return cls._from_table(json_table(source, max_bytes))

    @classmethod
    def read_json(
        cls,
        source: str | os.PathLike[str] | io.TextIOBase | Mapping[str, Any],
        *,
        max_bytes: int = MAX_JSON_BYTES,
    ) -> Self:
        r"""Read sketch JSON v1: the same as :meth:`from_json`, named to pair with :meth:`write_json`.

        Parameters
        ----------
        source : path, file object, JSON text or parsed dict
        max_bytes : int
            As for :meth:`from_json`.

        Examples
        --------
        >>> import io
        >>> from evalgebra.data.sketch import Sketch
        >>> sk = Sketch.from_counts({"ab": 2}, labels=["a", "b"])
        >>> Sketch.read_json(io.StringIO(sk.to_json())) == sk
        True
        """
        return cls.from_json(source, max_bytes=max_bytes)

    def to_json(self) -> str:
        """Sketch JSON v1 text (canonical pattern order, one count per line)."""
        return sketch_to_json(cast(CountSource, self))  # a Sketch

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write sketch JSON v1: a file is replaced atomically, a FIFO or device written in place
        (``fileio``).
        """
        write_output(path, self.to_json())

    # -- display --------------------------------------------------------------------------
    def summary(self) -> str:
        """Plain text for the terminal: sizes, names and the most frequent patterns.

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> print(Sketch.from_counts({"aa": 3, "ab": 1}, labels=["a", "b"]).summary())
        Sketch: 4 items, unlabelled, 2 classifiers, 2 labels
          classifiers: c0, c1
          labels: a, b
          pattern  count  frequency
          a a          3        3/4
          a b          1        1/4
        """
        return sketch_summary(self)

    def _repr_html_(self) -> str:
        return sketch_html(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per stored cell (population, true label, decisions, count).

        Raises ImportError when pandas is not installed.

        Examples
        --------
        >>> from evalgebra.data.sketch import Sketch
        >>> Sketch.from_counts({"aa": 3, "ab": 1}, labels=["a", "b"]).to_frame()
          c0 c1  count
        0  a  a      3
        1  a  b      1
        """
        return sketch_frame(self)
