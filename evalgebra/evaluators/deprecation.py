r"""Old names of the evaluators, kept for one release: they still work and warn.

================================ ==========================================================
old name                         use instead
================================ ==========================================================
``evaluate_algebraic(sketch)``   ``evaluate(sketch, method="algebraic")``
``evaluate_many(counts)``        ``evaluate_batch(counts)``
``solve_counts(counts)``         ``closed_form.exact_solution(counts)``
================================ ==========================================================

Examples
--------
>>> import warnings
>>> def new(x):
...     return x + 1
>>> old = deprecated_alias(new, "old", "new(x)")
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     old(1)
2
>>> str(caught[0].message)
'old is deprecated and will be removed in the next release; use new(x)'
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["deprecated_alias"]

F = TypeVar("F", bound=Callable[..., Any])


def deprecated_alias(function: F, old: str, instead: str) -> F:
    r"""``function`` under its old name ``old``: the same behaviour, with a ``DeprecationWarning``.

    Parameters
    ----------
    function : callable
        What the old name now calls.
    old : str
        The old name.
    instead : str
        What to write instead, shown in the warning.

    Returns
    -------
    callable
        A wrapper with ``function``'s signature whose every call warns (attributed to the
        caller) and then calls ``function``.
    """
    message = f"{old} is deprecated and will be removed in the next release; use {instead}"

    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated alias: {message}.\n\nSee :func:`{function.__module__}.{function.__name__}`."
    return alias  # type: ignore[return-value]
