r"""One entry point for every evaluator: ``evaluate(sketch, method=..., structure=...)``.

========== ==============================================================================
method     what it does
========== ==============================================================================
algebraic  error-independent, exact: the closed form for R = 2, the eliminant of
           :mod:`~evalgebra.evaluators.many_labels.solve` for R >= 3 (N = 3; every trio for N > 3)
majority   impute the answer key by majority vote (any N, R), exact
hui_walter two binary tests on two or more populations, the Hui-Walter closed form, exact
========== ==============================================================================

With ``structure=`` (correlated subsets such as ``"0-1"`` or ``[(0, 1), (0, 2)]``) the algebraic
method evaluates binary classifiers whose errors may correlate on those subsets
(:func:`~evalgebra.evaluators.correlated.structured.evaluate_structured`: a generated eliminant in the
prevalence, every point exact); a structure that is not identifiable is refused.

Two more paths for the algebraic method, named for what they do:
:func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts` (exact, one count vector of three
classifiers) and :func:`~evalgebra.evaluators.independent.batch.evaluate_batch` (vectorised floating
point, many count vectors as one array).

Examples
--------
>>> METHODS
('algebraic', 'majority', 'hui_walter')
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.rationals import short_repr
from evalgebra.numbers.seeds import check_seed
from evalgebra.results import Evaluation

__all__ = ["METHODS", "METHODS_TABLE", "Method", "UNCORRELATED_STRUCTURES", "evaluate"]

#: The error structures every method evaluates: ``None`` (the method's own assumption) or its name.
#: The algebraic method also takes correlated structures (:mod:`~evalgebra.evaluators.correlated.structured`).
UNCORRELATED_STRUCTURES = (None, "independent")

#: A method's function: ``function(sketch, **options) -> Evaluation``.
Evaluator = Callable[..., Evaluation]


@dataclass(frozen=True)
class Method:
    r"""One evaluation method: its name, its function and the routes it takes besides.

    Every field past ``load`` is ``None`` (or ``False``) for a method without that route; the
    functions are imported when first asked for, so that naming a method loads only its family.

    Parameters
    ----------
    name : str
        The name ``evaluate(method=...)`` and ``evalgebra evaluate --method`` take.
    load : callable
        ``load()`` is the method's function (a sketch without abstentions, the method's own
        error structure).
    correlated : callable or None
        ``correlated()`` evaluates a correlated structure (``structure=`` other than
        :data:`UNCORRELATED_STRUCTURES`), called with ``structure=``.
    abstentions : callable or None
        ``abstentions()`` is ``(evaluator, intervals)`` for a sketch with abstentions: the
        evaluator and its bootstrap.
    fits : bool
        Whether the exact points are joined by the fitted point and a verdict (``fit=True``).

    Examples
    --------
    >>> method = METHODS_TABLE["majority"]
    >>> method.name, method.load().__name__, method.takes_structure, method.fits
    ('majority', 'evaluate_majority', False, False)
    """

    name: str
    load: Callable[[], Evaluator]
    correlated: Callable[[], Evaluator] | None = None
    abstentions: Callable[[], tuple[Evaluator, Callable[..., Evaluation]]] | None = None
    fits: bool = False

    @property
    def takes_structure(self) -> bool:
        """Whether the method evaluates correlated structures."""
        return self.correlated is not None


def _algebraic() -> Evaluator:
    from evalgebra.evaluators.independent.algebraic import evaluate_independent

    return evaluate_independent


def _structured() -> Evaluator:
    from evalgebra.evaluators.correlated.structured import evaluate_structured

    return evaluate_structured


def _abstention() -> tuple[Evaluator, Callable[..., Evaluation]]:
    from evalgebra.evaluators.independent.abstention import abstention_intervals, evaluate_abstentions

    return evaluate_abstentions, abstention_intervals


def _majority() -> Evaluator:
    from evalgebra.evaluators.majority import evaluate_majority

    return evaluate_majority


def _hui_walter() -> Evaluator:
    from evalgebra.evaluators.hui_walter.exact import evaluate_hui_walter

    return evaluate_hui_walter


#: Every method, by name, in the order :data:`METHODS` lists them.
METHODS_TABLE: dict[str, Method] = {
    method.name: method
    for method in (
        Method("algebraic", _algebraic, correlated=_structured, abstentions=_abstention, fits=True),
        Method("majority", _majority),
        Method("hui_walter", _hui_walter),
    )
}

#: The names of the methods ``evaluate`` takes, in order.
METHODS = tuple(METHODS_TABLE)


@functools.cache
def _options(function: Any) -> tuple[str, ...]:
    """The options a method's function takes: its parameters after the sketch."""
    return tuple(inspect.signature(function).parameters)[1:]


def _method(method: str) -> Method:
    if method not in METHODS_TABLE:
        raise SpecError(f"unknown evaluation method {method!r}; known: {', '.join(METHODS)}")
    return METHODS_TABLE[method]


def _auto(
    sketch: Sketch,
    entry: Method,
    fit: bool,
    fit_level: float,
    intervals: str | None,
    interval_options: tuple[Any, ...],
    options: dict[str, Any],
) -> Evaluation:
    """``structure="auto"``: the independent evaluation, then the choice among the structures."""
    if entry.correlated is None:
        raise SpecError(
            f"structure='auto': the {entry.name} method assumes nothing about correlations; accepted: "
            "method='algebraic' (the structures are fitted by maximum likelihood and chosen by BIC)"
        )
    if not fit:
        raise SpecError(
            "structure='auto' chooses by the fitted likelihoods; accepted: fit=True (the default)"
        )
    if intervals is not None or interval_options != (None, None, None):
        raise SpecError(
            "structure='auto' gives no confidence intervals yet; accepted: choose with structure='auto', "
            "then ask for intervals with structure=None when it chooses the independent model"
        )
    from evalgebra.evaluators.fitted.selection import select_structure

    independent = evaluate(sketch, entry.name, None, fit=True, fit_level=fit_level, **options)
    return select_structure(sketch, independent, level=fit_level, options=options)


def evaluate(
    sketch: Sketch,
    method: str = "algebraic",
    structure: Any = None,
    *,
    intervals: str | None = None,
    level: float | None = None,
    n_boot: int | None = None,
    seed: int | None = None,
    fit: bool = True,
    fit_level: float = 0.01,
    certify: bool = False,
    **options: Any,
) -> Evaluation:
    r"""Evaluate an ensemble from its sketch with the named method: the one entry point.

    Parameters
    ----------
    sketch : Sketch
        Labelled or not; true labels are ignored. Populations are pooled, except by
        ``hui_walter``, which needs them.
    method : {"algebraic", "majority", "hui_walter"}
    structure : None, "independent", "auto", str, iterable of subsets or networkx graph
        The error structure assumed. ``"auto"`` (algebraic method) chooses it: every identifiable pair
        structure of the atlas is fitted by maximum likelihood and the one of smallest BIC is evaluated,
        with every candidate's evidence in ``result.structure_evidence``
        (:mod:`~evalgebra.evaluators.fitted.selection`). ``None`` (default) is the method's own assumption:
        independent errors given the true label (``"independent"`` names it). The algebraic
        method with two labels also takes the subsets of classifiers whose errors may
        correlate, as the spec does (``[(0, 1)]``, names, a graph) or as on the command line
        (``"0-1,2-3"``): every evaluation is then exact, with the structure's correlations
        (:func:`~evalgebra.evaluators.correlated.structured.evaluate_structured`). A structure that is
        not identifiable, or has no generated evaluator yet, raises
        :class:`~evalgebra.errors.SpecError` saying so; so does a bare subset (``(0, 1)``,
        ``"0,1"``), with the corrected call (``[(0, 1)]``, ``"0-1"``) in the message.
    **options
        The method's own options: ``decoding`` and ``prevalence_range`` (algebraic, two
        labels), ``prevalence_order`` or ``known_prevalences`` (algebraic, three or more
        labels: which label permutation to report), ``ties`` (majority), ``decoding``
        (hui_walter). A sketch with abstentions goes to
        :func:`~evalgebra.evaluators.independent.abstention.evaluate_abstentions` (algebraic, with its
        ``collapse_into``), whose points hold every response row; its intervals are the
        bootstrap of :func:`~evalgebra.evaluators.independent.abstention.abstention_intervals`.
    intervals : None, "bootstrap" or "delta"
        Confidence intervals for every statistic of the chosen point (its ``interval``; the
        result's ``intervals`` says how they were made): a seeded multinomial bootstrap of the
        counts, or the delta method for the closed forms (see
        :mod:`~evalgebra.evaluators.intervals.confidence`). With the fit (the algebraic method,
        independent errors, ``fit=True``) the bootstrap refits the model on every resample from
        the fitted point (:mod:`~evalgebra.evaluators.fitted.bootstrap`); ``"delta"`` is the
        closed forms' and applies to the exact points without the fit.
    level, n_boot, seed
        The intervals' coverage (default 0.95), bootstrap resamples (default 1000) and seed.
    fit : bool
        The algebraic method also fits the model by maximum likelihood (independent errors,
        abstentions too: from its exact points and majority vote; a correlated structure: from its
        exact points and the independent fit), appends the fitted point to
        ``points`` and chooses by the verdict (``result.verdict``: ``exact`` when the counts lie
        on the model, else ``fitted`` or ``fit_rejected``; :mod:`evalgebra.evaluators.fitted`).
        ``False``: the exact points alone, as the decoding chose (and their bootstrap).
    fit_level : float
        The level below which the fit's p-value gives ``fit_rejected`` (default 0.01).
    certify : bool
        With the fit: solve the score equations and bound the boundary strata to prove (or refute)
        that the fitted point is the global maximum of the likelihood (``result.certificate``;
        :mod:`evalgebra.evaluators.fitted.certify`: binary classifiers, within
        ``EVALGEBRA_TIME_LIMIT`` seconds, else ``"undecided"``).

    Returns
    -------
    Evaluation

    Raises
    ------
    SketchError
        ``sketch`` is not a :class:`~evalgebra.data.sketch.Sketch`.
    SpecError
        An unknown method, an option the method does not take, a correlated structure, or
        interval options that are not accepted.

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> sketch = Sketch.from_counts({"aaa": 84, "aab": 36, "aba": 51, "abb": 39,
    ...                              "baa": 68, "bab": 52, "bba": 77, "bbb": 73}, labels=["a", "b"])
    >>> result = evaluate(sketch, method="algebraic")
    >>> result.point.prevalence["a"], result.point.accuracy["c0"]["a"], result.alarms, result.structure
    (Fraction(1, 4), Fraction(3, 4), (), 'independent')
    >>> evaluate(sketch, method="majority").point.prevalence["a"]
    Fraction(239, 480)
    >>> low, high = evaluate(sketch, intervals="bootstrap", seed=0).point.interval["accuracy"]["c0"]["b"]
    >>> bool(low < 2 / 3 < high)
    True
    >>> evaluate(sketch, structure=[(0, 1)])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: structure 0-1 on 3 classifiers is not identifiable: a 2-dimensional family
    of evaluations fits every sketch; accepted: a structure with finitely many evaluations (see the
    identifiability atlas in docs/guide/correlated.md)
    >>> evaluate(sketch, method="majority", structure="0-1")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.SpecError: structure '0-1': the majority method assumes nothing about correlations;
    accepted: structure=None or 'independent', or method='algebraic' for a correlated structure
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(
            f"evaluate needs a Sketch (Sketch.from_decisions, from_counts, from_csv, ...), "
            f"got {type(sketch).__name__}"
        )
    if not isinstance(method, str):
        raise SpecError(f"method must be a name, one of {', '.join(METHODS)}; got {type(method).__name__}")
    entry = _method(method)
    if (
        isinstance(structure, str) and structure == "auto"
    ):  # the structure of smallest BIC: fitted/selection.py
        if certify:
            raise SpecError(
                "certify=True certifies the independent model's fitted point; structure='auto' may choose "
                "a correlated one: ask for one of them"
            )
        return _auto(sketch, entry, fit, fit_level, intervals, (level, n_boot, seed), options)
    function = entry.load()
    seed = check_seed(seed)  # before the route: every interval method reads it
    fixed: dict[str, Any] = {}
    if sketch.abstain:  # classifiers that may abstain: evaluators/independent/abstention.py
        correlated = structure is not None and not (isinstance(structure, str) and structure == "independent")
        if entry.takes_structure and correlated:
            from evalgebra.structures import parse_structure, structure_text

            parsed = parse_structure(structure, sketch.classifiers)  # empty: the independent structure
            if parsed:
                example = {str(sketch.abstain[0]): str(sketch.labels[-1])}
                raise SpecError(
                    f"abstentions {short_repr(list(sketch.abstain))} with the correlated structure "
                    f"{structure_text(parsed)}: correlated structures are evaluated for two labels "
                    "without abstentions; accepted: count them as a label first "
                    f"(sketch.collapse_responses({example!r})), drop their items (evalgebra sketch "
                    "--missing drop, for empty cells), or structure=None (independent errors: the "
                    "abstention evaluator)"
                )
            correlated = False
        if entry.abstentions is None or intervals not in (None, "bootstrap") or correlated:
            raise SpecError(
                f"abstentions {short_repr(list(sketch.abstain))} are evaluated by method='algebraic' with "
                "independent errors (intervals: bootstrap); or count them as a label first: "
                "sketch.collapse_responses({...})"
            )
        function, abstention_intervals = entry.abstentions()
    if structure is not None and not (isinstance(structure, str) and structure == "independent"):
        if entry.correlated is None:
            raise SpecError(
                f"structure {short_repr(structure)}: the {method} method assumes nothing about correlations; "
                "accepted: structure=None or 'independent', or method='algebraic' for a correlated structure"
            )
        from evalgebra.structures import parse_structure

        if parse_structure(structure, sketch.classifiers):  # the empty structure is the independent one
            function, fixed = entry.correlated(), {"structure": structure}
    taken = tuple(name for name in _options(function) if name not in fixed)
    unknown = sorted(set(options) - set(taken))
    if unknown:
        raise SpecError(
            f"method {method!r} takes no option {', '.join(map(repr, unknown))}; "
            f"its options: {', '.join(taken) or 'none'}"
        )
    if intervals is None:
        if (level, n_boot, seed) != (None, None, None):
            raise SpecError(
                "level, n_boot and seed are options of the confidence intervals; ask for them with "
                "intervals='bootstrap' or intervals='delta'"
            )
        result = function(sketch, **fixed, **options)
        if certify and not (fit and entry.fits and not fixed):
            raise SpecError(
                "certify=True certifies the fitted point: it needs fit=True and the algebraic method with "
                "independent errors"
            )
        if fit and entry.fits and not fixed:
            from evalgebra.evaluators.fitted.choice import with_fit

            result = with_fit(result, sketch, level=fit_level, options=options, certify=certify)
        elif fit and entry.fits:  # a correlated structure: its own fitted point (fitted/structure_choice.py)
            from evalgebra.evaluators.fitted.structure_choice import with_structure_fit
            from evalgebra.structures import parse_structure

            parsed = parse_structure(fixed["structure"], sketch.classifiers)
            result = with_structure_fit(result, sketch, parsed, level=fit_level, options=options)
        return result
    if certify:
        raise SpecError("certify=True is not combined with confidence intervals yet; ask for one of them")
    if fixed:
        raise SpecError(
            "confidence intervals are not computed for correlated structures yet; ask for them with "
            "structure=None (independent errors; on the command line, without --structure)"
        )
    if fit and entry.fits and intervals == "bootstrap":  # the fitted point, refitted on every resample
        from evalgebra.evaluators.fitted.bootstrap import fitted_intervals
        from evalgebra.evaluators.fitted.choice import with_fit

        fitted = with_fit(function(sketch, **options), sketch, level=fit_level, options=options)
        return fitted_intervals(fitted, sketch, 0.95 if level is None else level, n_boot, seed)
    if sketch.abstain:
        return abstention_intervals(
            function(sketch, **options), sketch, 0.95 if level is None else level, n_boot, seed, options
        )
    from evalgebra.evaluators.intervals.confidence import confidence_intervals

    return confidence_intervals(
        function(sketch, **options),
        sketch,
        intervals,
        0.95 if level is None else level,
        n_boot,
        seed,
        options,
    )
