r"""Exceptions raised by evalgebra.

Bad *input* raises one of these, with a message that says what was wrong and what is
accepted. Mathematical failure modes of an evaluation (complex points, irrational
estimates, ...) are results, never exceptions.

Examples
--------
>>> from evalgebra.errors import SpecError
>>> issubclass(SpecError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "EvalgebraError",
    "SpecError",
    "SketchError",
    "PointError",
    "NumberError",
    "InexactError",
    "InconsistentIdealError",
    "OutputError",
]


class EvalgebraError(Exception):
    """Base class of every error evalgebra raises on purpose.

    Catch it to handle any of the project's own errors at once; anything else that escapes
    an evalgebra call is a bug worth reporting.

    Examples
    --------
    >>> import evalgebra as ev
    >>> from evalgebra.spec import EnsembleSpec
    >>> try:
    ...     EnsembleSpec(3, 1)
    ... except ev.EvalgebraError as error:
    ...     print(type(error).__name__)
    SpecError
    """


class SpecError(EvalgebraError, ValueError):
    """An ensemble specification (classifiers, labels, structure, populations) is invalid.

    Also raised for an unknown option value (a method, a decoding rule); the message lists
    what is accepted.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> EnsembleSpec(3, 2, structure=[(0, 5)])
    Traceback (most recent call last):
      ...
    evalgebra.errors.SpecError: structure: classifier index 5 out of range 0..2
    """


class SketchError(EvalgebraError, ValueError):
    """Decisions, counts or a sketch file cannot be turned into a valid data sketch.

    Examples
    --------
    >>> import evalgebra as ev
    >>> ev.Sketch.from_counts({"aab": -1}, labels=["a", "b"])
    Traceback (most recent call last):
      ...
    evalgebra.errors.SketchError: counts 'aab': counts must be non-negative integers, got -1
    """


class PointError(EvalgebraError, ValueError):
    """An evaluation point is invalid, or no labelled test realises it.

    Examples
    --------
    >>> from evalgebra.data import EvaluationPoint
    >>> from evalgebra.spec import EnsembleSpec
    >>> EvaluationPoint.from_values(EnsembleSpec(3, 2), {"a": "1/2"})
    Traceback (most recent call last):
      ...
    evalgebra.errors.PointError: give exactly one of response= or accuracy=
    """


class NumberError(EvalgebraError, ValueError):
    """A number given as input cannot be read exactly, or does not exist as asked.

    Raised for number text that is not a bounded rational (``"1/0"``, ``"nan"``, ``"1e5000"``),
    a root index a polynomial does not have, or numbers of two different fields mixed.

    Examples
    --------
    >>> from evalgebra.numbers.quadratic import QuadraticNumber
    >>> QuadraticNumber("1/0")
    Traceback (most recent call last):
      ...
    evalgebra.errors.NumberError: QuadraticNumber: cannot read '1/0' as a rational (zero denominator)
    """


class InexactError(NumberError, TypeError):
    """A float (or another inexact value) was given where an exact number is required.

    Also a :class:`TypeError`: the value is of the wrong kind, not merely out of range.

    Examples
    --------
    >>> from evalgebra.numbers.quadratic import QuadraticNumber
    >>> QuadraticNumber(0.1)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    evalgebra.errors.InexactError: QuadraticNumber: 0.1 is not exact; give an int, a Fraction or a
    'p/q' string
    """


class InconsistentIdealError(EvalgebraError):
    """An ideal computation met a system with no solution where one was required.

    Raised by the derivations behind generated code when a system does not have the shape
    its closed form needs.

    Examples
    --------
    >>> from evalgebra.codegen.closed_forms import count_moments
    >>> from evalgebra.spec import EnsembleSpec
    >>> count_moments(EnsembleSpec(3, 3))
    Traceback (most recent call last):
      ...
    evalgebra.errors.InconsistentIdealError: count moments are defined for R = 2 and one population
    """


class OutputError(EvalgebraError, OSError):
    """An output path cannot be written: a directory, a socket, a full device, a missing folder ...

    Also an :class:`OSError`, so code that catches failed writes as ``OSError`` still does.

    Examples
    --------
    >>> import tempfile
    >>> from evalgebra.fileio import write_output
    >>> folder = tempfile.mkdtemp()
    >>> try:
    ...     write_output(folder, "{}")
    ... except OutputError as error:
    ...     print(str(error).split(": ", 1)[1].split(";")[0])
    it is a directory
    """
