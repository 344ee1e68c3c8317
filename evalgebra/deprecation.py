r"""Old names, kept for one release: they still work and warn (``DeprecationWarning``).

Two kinds of old name:

- a function renamed or replaced: :func:`deprecated_alias` wraps the new function under the
  old name, and every call warns (``evaluate_algebraic(sketch)``, use ``evaluate(sketch,
  method="algebraic")``);
- a name that moved to another module (``evalgebra.GeneratingSet``, now
  ``evalgebra.builder.GeneratingSet``): a package's ``__getattr__`` (PEP 562) returns the object
  itself, after :func:`warn_moved` warns. The object is the new one (``isinstance`` and ``is``
  hold), so classes and modules move this way too.

Both messages read ``<old> is deprecated and will be removed in the next release; use <new>``.

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

__all__ = ["deprecated_alias", "deprecation_message", "warn_moved"]

F = TypeVar("F", bound=Callable[..., Any])


def deprecation_message(old: str, instead: str) -> str:
    r"""The one wording of a deprecation: what is old and what to write instead.

    Examples
    --------
    >>> deprecation_message("evalgebra.FlintSystem", "evalgebra.builder.FlintSystem")  # doctest: +ELLIPSIS
    'evalgebra.FlintSystem is deprecated and will be removed ...; use evalgebra.builder.FlintSystem'
    """
    return f"{old} is deprecated and will be removed in the next release; use {instead}"


def warn_moved(old: str, instead: str, stacklevel: int = 3) -> None:
    r"""Warn that the name ``old`` moved (or was renamed) to ``instead``.

    Called by a package's ``__getattr__``: the default ``stacklevel`` attributes the warning to
    the code that wrote ``package.old`` or ``from package import old``.

    Parameters
    ----------
    old : str
        The old dotted name (``"evalgebra.FlintSystem"``).
    instead : str
        The new dotted name.
    stacklevel : int
        As for ``warnings.warn``, counted from the caller of ``warn_moved``'s caller.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_moved("evalgebra.PartialSketch", "evalgebra.data.chunked.PartialSketch", stacklevel=2)
    >>> caught[0].category.__name__, str(caught[0].message).split("; ")[1]
    ('DeprecationWarning', 'use evalgebra.data.chunked.PartialSketch')
    """
    warnings.warn(deprecation_message(old, instead), DeprecationWarning, stacklevel=stacklevel)


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

    Examples
    --------
    >>> import warnings
    >>> twice = deprecated_alias(lambda x: 2 * x, "double", "twice")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     twice(3)
    6
    >>> twice.__name__
    'double'
    """
    message = deprecation_message(old, instead)

    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old.rsplit(".", 1)[-1]
    alias.__doc__ = (
        f"Deprecated alias: {message}.\n\nSee :obj:`{function.__module__}.{function.__qualname__}`."
    )
    return alias  # type: ignore[return-value]
