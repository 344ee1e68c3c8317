r"""Batch results: what a vectorised method returns for ``k`` count vectors at once.

Every vectorised method (:func:`~evalgebra.evaluators.independent.batch.evaluate_batch`,
:func:`~evalgebra.evaluators.many_labels.trios.evaluate_batch_many_labels`,
:func:`~evalgebra.evaluators.correlated.structured_batch.evaluate_structured_batch`, and the crowd's
views of every split, :attr:`~evalgebra.crowd.sparse.CrowdEvaluation.views`) returns one
:class:`BatchResult`: named NumPy arrays with one row per count vector on their first axis,
read as a mapping (``result["prevalence"]``), with the rows that have a decoded point
(:attr:`BatchResult.decoded`), and shown compactly (``repr``, :meth:`~BatchResult.summary`, HTML).

Examples
--------
>>> import numpy as np
>>> out = BatchResult("evaluate_batch_many_labels", {"prevalence": np.array([[0.5, 0.5], [np.nan, np.nan]])},
...                   decoded=np.array([True, False]))
>>> out["prevalence"][0].tolist(), out.n_rows, out.decoded.tolist()
([0.5, 0.5], 2, [True, False])
>>> out
BatchResult(evaluate_batch_many_labels; 2 rows, 1 decoded; arrays prevalence (2, 2))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evalgebra.display import html_block, html_table, shorten

__all__ = ["BatchResult"]

#: Arrays a repr names before it counts the rest.
REPR_ARRAYS = 4


@dataclass(frozen=True, eq=False, repr=False)
class BatchResult(Mapping[str, np.ndarray]):
    r"""The result of a vectorised method on ``k`` count vectors: named arrays, one row per vector.

    Read it as a mapping from names to arrays (``result["prevalence"][t]`` is row ``t``; ``keys()``,
    ``in`` and ``dict(result)`` work as for a dictionary); each method's docstring says which
    arrays it returns and their shapes. It is frozen: its arrays cannot be replaced.

    Parameters
    ----------
    method : str
        The vectorised method that made it (``"evaluate_batch"``, ``"evaluate_batch_many_labels"``,
        ``"evaluate_structured_batch"``, ...).
    arrays : mapping of str to array_like
        Every array, the ``k`` rows on its first axis (all arrays have the same ``k``).
    decoded : array_like of bool, shape (k,) (keyword only)
        The rows with a decoded point (one of the candidates chosen, finite).

    Attributes
    ----------
    n_rows : int
        ``k``, the number of count vectors.

    Examples
    --------
    >>> import numpy as np
    >>> out = BatchResult("evaluate_batch", {"chosen": np.array([0, -1])}, decoded=np.array([True, False]))
    >>> sorted(out), "chosen" in out, out.row(1)
    (['chosen'], True, {'chosen': -1})
    >>> print(out.summary())
    evaluate_batch on 2 count vectors: 1 with a decoded point
      chosen  (2,) int64
    """

    method: str
    arrays: Mapping[str, np.ndarray]
    decoded: np.ndarray = field(kw_only=True)

    def __post_init__(self) -> None:
        columns = {str(name): np.asarray(value) for name, value in self.arrays.items()}
        sizes = {name: value.shape[0] if value.ndim else None for name, value in columns.items()}
        rows = set(sizes.values())
        if None in rows or len(rows) > 1:
            raise ValueError(
                f"every array of a batch result needs the same rows on its first axis; got {sizes}"
            )
        mask = np.asarray(self.decoded, dtype=bool)
        n_rows = rows.pop() if rows else (mask.shape[0] if mask.ndim == 1 else -1)
        if mask.shape != (n_rows,):
            raise ValueError(f"decoded needs one flag per row ({n_rows}); got shape {mask.shape}")
        object.__setattr__(self, "arrays", columns)
        object.__setattr__(self, "decoded", mask)

    # -- the mapping --------------------------------------------------------------------------
    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.arrays[name]
        except KeyError:
            known = ", ".join(self.arrays)
            raise KeyError(f"{name!r}: a {self.method} result has the arrays {known}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.arrays)

    def __len__(self) -> int:
        return len(self.arrays)

    @property
    def n_rows(self) -> int:
        """``k``, the number of count vectors."""
        return int(self.decoded.shape[0])

    def row(self, t: int) -> dict[str, Any]:
        """Row ``t`` of every array (scalars as Python numbers, the rest as arrays)."""
        return {name: value[t].item() if value.ndim == 1 else value[t] for name, value in self.arrays.items()}

    # -- how it shows itself ------------------------------------------------------------------
    def _shapes(self) -> list[tuple[str, str, str]]:
        return [(name, str(value.shape), str(value.dtype)) for name, value in self.arrays.items()]

    def __repr__(self) -> str:
        shown, more = shorten([f"{name} {shape}" for name, shape, _ in self._shapes()], REPR_ARRAYS)
        arrays = ", ".join(shown) + (f", ... {more} more" if more else "")
        return (
            f"BatchResult({self.method}; {self.n_rows} rows, {int(self.decoded.sum())} decoded; "
            f"arrays {arrays or 'none'})"
        )

    def summary(self) -> str:
        """Plain text: the method, the rows and how many have a decoded point, one line per array."""
        rows, more = shorten(self._shapes())
        width = max((len(name) for name, _, _ in rows), default=0)
        decoded = int(self.decoded.sum())
        lines = [f"{self.method} on {self.n_rows} count vectors: {decoded} with a decoded point"]
        lines += [f"  {name:<{width}}  {shape} {dtype}" for name, shape, dtype in rows]
        if more:
            lines.append(f"  ... and {more} more arrays")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows, more = shorten([list(entry) for entry in self._shapes()])
        title = f"Batch result ({self.method}): {self.n_rows} rows, {int(self.decoded.sum())} decoded"
        return html_block(title, html_table(["array", "shape", "dtype"], rows, more=more))
