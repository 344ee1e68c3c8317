r"""Random seeds from user input: ``None`` or a non-negative integer of bounded size.

NumPy refuses a negative seed with a ``ValueError`` of its own and reads a seed of any size
(``10**100000`` in about a second); :func:`check_seed` says what is accepted, in one line and with
the project's error, before NumPy sees the value.

Examples
--------
>>> check_seed(7), check_seed(None)
(7, None)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.numbers.rationals import ErrorType, short_repr

__all__ = ["check_seed", "MAX_SEED_BITS"]

#: Bits of a seed (a SHA-256 digest fits; NumPy reads seeds of any size, 10**100000 in about a second).
MAX_SEED_BITS = 256


def check_seed(
    seed: Any, where: str = "seed", error: ErrorType = SpecError, *, none: bool = True, generators: tuple = ()
) -> Any:
    r"""A random seed as an ``int``: non-negative, below ``2**MAX_SEED_BITS``; else ``error`` in one line.

    Parameters
    ----------
    seed : int, None or one of ``generators``
        ``None`` (fresh entropy: not reproducible) when ``none``; a generator object of one of
        the ``generators`` types is returned as it is.
    where : str
        The parameter's name, for the message.

    Examples
    --------
    >>> check_seed(7), check_seed(None), check_seed(np.int64(3))
    (7, None, 3)
    >>> check_seed(-1)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: seed=-1: a seed is a non-negative integer below 2**256, or None
    (not reproducible)
    """
    if (seed is None and none) or (generators and isinstance(seed, generators)):
        return seed
    if (
        isinstance(seed, (bool, np.bool_))
        or not isinstance(seed, (int, np.integer))
        or seed < 0
        or int(seed).bit_length() > MAX_SEED_BITS
    ):
        allowed = ", or None (not reproducible)" if none else ""
        allowed += "".join(f", or a {_type_name(kind)}" for kind in generators)
        raise error(
            f"{where}={short_repr(seed)}: a seed is a non-negative integer below 2**{MAX_SEED_BITS}{allowed}"
        )
    return int(seed)


def _type_name(kind: type) -> str:
    if kind is np.random.Generator:
        return "numpy.random.Generator"
    return f"{kind.__module__}.{kind.__qualname__}"
