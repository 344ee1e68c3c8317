r"""Counting a test in chunks: a mergeable partial sketch keyed by label *names*.

:class:`PartialSketch` is :class:`~evalgebra.data.partial.PartialCounts` (which counts
dictionary columns chunk by chunk, matching responses by name, and merges) with
:meth:`~PartialSketch.finish`, which returns the :class:`~evalgebra.data.sketch.Sketch`.
The counting lives in :mod:`evalgebra.data.partial`, which knows nothing of sketches, so the
readers :class:`~evalgebra.data.sketch.Sketch` itself calls (the items CSV) can count with it.

Examples
--------
>>> import numpy as np
>>> part = PartialSketch(["x", "y"])
>>> part.add([(np.array([0, 1, 0]), ["no", "yes"]), (np.array([0, 0, 1]), ["yes", "no"])])
>>> other = PartialSketch(["x", "y"])
>>> other.add([(np.array([0]), ["yes"]), (np.array([0]), ["yes"])])
>>> sk = part.merge(other).finish()
>>> sk.labels, sk.counts()
(('no', 'yes'), {('no', 'no'): 1, ('no', 'yes'): 1, ('yes', 'yes'): 2})
"""

from __future__ import annotations

from evalgebra.data.partial import ID_COLUMN_MIN, Column, PartialCounts, looks_like_id
from evalgebra.data.sketch import Sketch

__all__ = ["PartialSketch", "Column", "ID_COLUMN_MIN", "looks_like_id"]


class PartialSketch(PartialCounts):
    r"""Pattern counts of a test read so far, with responses known by name; mergeable.

    The parameters are those of :class:`~evalgebra.data.partial.PartialCounts`.

    Examples
    --------
    >>> import numpy as np
    >>> part = PartialSketch(["x", "y"], labelled=True, missing="abstain")
    >>> part.add([(np.array([0, -1]), ["a", "b"]), (np.array([1, 0]), ["a", "b"])],
    ...          truth=(np.array([0, 1]), ["a", "b"]))
    >>> sk = part.finish()
    >>> sk.responses, sk.by_true_label(), part.rows
    (('a', 'b', 'abstain'), {'a': {('a', 'b'): 1}, 'b': {('abstain', 'a'): 1}}, 2)
    """

    def finish(self) -> Sketch:
        """The :class:`~evalgebra.data.sketch.Sketch` of every chunk added or merged."""
        return Sketch(*self.table())
