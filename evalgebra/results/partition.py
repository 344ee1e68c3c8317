r"""A partition by true label computed when first read: the exact split of every pattern's count.

The partition of an evaluation (``partition[label]`` = the ``(pattern, count)`` pairs: each
pattern's count split by true label as the chosen point implies) can cost far more than the
point itself: with ``R`` labels it has ``R^(N+1)`` values, and at an irrational point each one
is an algebraic number of its own. Many evaluations never show theirs (a trio inside a larger
ensemble, an exact point passed over for the fitted one, a command-line run without
``--partition``), so the evaluators hand it over as a :class:`LazyPartition`: a mapping whose
keys (the labels) are known at once and whose values are computed, exactly and all together, on
first use, then kept.

Examples
--------
>>> calls = []
>>> def split():
...     calls.append(1)
...     return {"a": [(("a",), 3)], "b": [(("a",), 1)]}
>>> partition = LazyPartition(("a", "b"), split)
>>> list(partition), len(partition), bool(partition), calls
(['a', 'b'], 2, True, [])
>>> partition["b"], calls
([(('a',), 1)], [1])
>>> dict(partition) == split() and len(calls) == 2   # computed once: the second call is ours
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["LazyPartition", "PartitionRows"]

#: One label's rows: ``(pattern, count)`` pairs.
PartitionRows = Sequence[tuple[tuple[str, ...], Any]]


class LazyPartition(Mapping[str, PartitionRows]):
    r"""A read-only mapping ``label -> rows`` whose rows are computed by ``compute()`` on first use.

    Parameters
    ----------
    labels : sequence of str
        The keys, in order: ``compute()`` must return a mapping with exactly these keys.
    compute : callable
        ``compute() -> {label: rows}``; called at most once.

    Notes
    -----
    Iterating, ``len`` and ``in`` read only the labels; reading a value, ``items()``, ``==`` or
    the ``repr`` computes every row. A pickled partition is a plain ``dict``.

    Examples
    --------
    >>> partition = LazyPartition(["x"], lambda: {"x": [(("x", "y"), 2)]})
    >>> "x" in partition, partition.computed
    (True, False)
    >>> partition
    {'x': [(('x', 'y'), 2)]}
    >>> partition.computed
    True
    """

    __slots__ = ("_labels", "_compute", "_rows")

    def __init__(self, labels: Sequence[str], compute: Callable[[], Mapping[str, PartitionRows]]) -> None:
        self._labels = tuple(labels)
        self._compute: Callable[[], Mapping[str, PartitionRows]] | None = compute
        self._rows: dict[str, PartitionRows] | None = None

    @property
    def computed(self) -> bool:
        """Whether the rows have been computed."""
        return self._rows is not None

    def _all(self) -> dict[str, PartitionRows]:
        if self._rows is None:
            assert self._compute is not None
            rows = dict(self._compute())
            if sorted(rows) != sorted(self._labels):
                raise ValueError(f"a partition by {list(self._labels)} came back with labels {sorted(rows)}")
            self._rows = {label: rows[label] for label in self._labels}
            self._compute = None
        return self._rows

    def __getitem__(self, label: str) -> PartitionRows:
        if label not in self._labels:
            raise KeyError(label)
        return self._all()[label]

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __len__(self) -> int:
        return len(self._labels)

    def __contains__(self, label: object) -> bool:
        return label in self._labels

    def __repr__(self) -> str:
        return repr(self._all())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._all(),))
