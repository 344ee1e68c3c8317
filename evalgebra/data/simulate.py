r"""Exact simulation: from a rational evaluation point to a labelled test that realises it.

Choosing rational prevalences, response rates and correlations fixes, for every true
label ``ell``, the pattern distribution ``pi_ell(d)`` (the inner sum of the generating
set). A labelled test of ``Q`` items has exactly these sample statistics iff it holds
``Q P_ell pi_ell(d)`` items of true label ``ell`` with pattern ``d``: so the point is
realisable iff every ``pi_ell(d) >= 0``, and the sizes that work are the multiples of
the smallest one, fixed by the denominators ([1]_, supplement). With zero
correlations this produces tests on which the classifiers are *exactly* sample
independent, which random i.i.d. draws almost never are.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint, evaluation_point
>>> spec = EnsembleSpec(2, 2)
>>> pt = EvaluationPoint.from_values(spec, {"a": "1/3"},
...                                  accuracy={0: {"a": "1/2", "b": "3/4"}, 1: {"a": 1, "b": "1/2"}})
>>> smallest_test_size(pt)
12
>>> sk = expected_sketch(pt)
>>> sk.Q, sk.by_true_label()["a"]
(12, {('a', 'a'): 2, ('b', 'a'): 2})
>>> evaluation_point(sk, structure="independent") == EvaluationPoint(
...     spec, pt.prevalence, pt.response, pt.correlation, [12])
True

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on
   unlabeled data - binary classification", supplement (sample independence and test
   size).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from evalgebra.data.patterns import encode
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError
from evalgebra.numbers.seeds import check_seed

__all__ = ["smallest_test_size", "expected_sketch", "labelled_test", "LabelledTest"]


def _distributions(point: EvaluationPoint, s: int) -> dict[int, np.ndarray]:
    """``pi_ell`` for every label present in population ``s``; checks realisability."""
    result = {}
    for ell, weight in enumerate(point.prevalence[s]):
        if weight == 0:
            continue
        pi = point.pattern_distribution(ell)
        negative = [index for index in itertools.product(*map(range, pi.shape)) if pi[index] < 0]
        if negative:
            labels = point.spec.labels
            pattern = tuple(point.spec.responses[k] for k in negative[0])
            raise PointError(
                f"no labelled test realises this point: pattern {pattern} would have "
                f"frequency {pi[negative[0]]} among items with true label {labels[ell]!r}"
            )
        result[ell] = pi
    return result


def _smallest(point: EvaluationPoint, s: int, pis: dict[int, np.ndarray]) -> int:
    size = 1
    for ell, pi in pis.items():
        m = 1
        for value in pi.flat:
            m = math.lcm(m, Fraction(value).denominator)
        weight = point.prevalence[s][ell]
        a, b = weight.numerator, weight.denominator
        size = math.lcm(size, b * m // math.gcd(m, a))
    return size


def smallest_test_size(point: EvaluationPoint, population: str | int | None = None) -> int | dict[str, int]:
    r"""The smallest number of items of a labelled test with exactly these statistics.

    Returns an int for a single population (or when ``population`` is named), else a
    mapping population -> size. Raises :class:`PointError` when no test realises the point.

    Parameters
    ----------
    point : EvaluationPoint
        Rational prevalences, response rates and correlations.
    population : str or int, optional
        One population's size only.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> pt = EvaluationPoint.from_values(EnsembleSpec(2, 2, populations=["p", "q"]),
    ...                                  {"p": {"a": "1/2"}, "q": {"a": "1/5"}},
    ...                                  accuracy={0: {"a": 1, "b": "1/3"}, 1: {"a": "1/2", "b": 1}})
    >>> smallest_test_size(pt), smallest_test_size(pt, "p")
    ({'p': 12, 'q': 30}, 12)
    """
    spec = point.spec
    if population is not None or spec.n_populations == 1:
        s = 0 if population is None else spec.population_index(population)
        return _smallest(point, s, _distributions(point, s))
    return {pop: _smallest(point, s, _distributions(point, s)) for s, pop in enumerate(spec.populations)}


def _sizes(point: EvaluationPoint, Q: int | Mapping[str, int] | None) -> list[int]:  # noqa: N803
    spec = point.spec
    smallest = [_smallest(point, s, _distributions(point, s)) for s in range(spec.n_populations)]
    if Q is None:
        return smallest
    if isinstance(Q, Mapping):
        sizes = [Q.get(pop) for pop in spec.populations]
        if any(v is None for v in sizes):
            raise PointError(f"give a size for every population {list(spec.populations)}")
    elif spec.n_populations == 1:
        sizes = [Q]
    else:
        raise PointError("several populations: give Q as a mapping population -> size")
    for pop, size, least in zip(spec.populations, sizes, smallest):
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0 or size % least:
            raise PointError(
                f"population {pop!r}: Q={size!r} cannot realise this point exactly; "
                f"Q must be a positive multiple of {least}"
            )
    return [int(v) for v in sizes]  # type: ignore[arg-type]


def expected_sketch(point: EvaluationPoint, Q: int | Mapping[str, int] | None = None) -> Sketch:  # noqa: N803
    r"""The labelled sketch of a test of ``Q`` items whose sample statistics are ``point``.

    Parameters
    ----------
    point : EvaluationPoint
    Q : int or mapping population -> int, optional
        Test size(s); default the smallest. Must be a multiple of the smallest.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> pt = EvaluationPoint.from_values(EnsembleSpec(2, 2), {"a": "1/4"},
    ...                                  accuracy={0: {"a": 1, "b": "1/3"}, 1: {"a": "1/2", "b": 1}})
    >>> expected_sketch(pt, Q=24).by_true_label()
    {'a': {('a', 'a'): 3, ('a', 'b'): 3}, 'b': {('a', 'b'): 12, ('b', 'b'): 6}}
    """
    spec = point.spec
    sizes = _sizes(point, Q)
    pops, truths, codes, counts = [], [], [], []
    n, r_count = spec.n_classifiers, spec.n_responses
    patterns = np.array(list(itertools.product(range(r_count), repeat=n)), dtype=np.int64)
    pattern_codes = encode(patterns, r_count)
    for s, size in enumerate(sizes):
        for ell, pi in _distributions(point, s).items():
            for code, index in zip(pattern_codes, itertools.product(range(r_count), repeat=n)):
                value = size * point.prevalence[s][ell] * pi[index]
                if value:
                    pops.append(s)
                    truths.append(ell)
                    codes.append(int(code))
                    counts.append(int(value))
    return Sketch(spec.classifiers, spec.labels, pops, truths, codes, counts, spec.populations, spec.abstain)


@dataclass(frozen=True)
class LabelledTest:
    """Per-item data of a labelled test: decisions and truth as label indices.

    Attributes
    ----------
    decisions : numpy.ndarray
        ``items x classifiers`` response indices (labels, then abstentions).
    truth : numpy.ndarray
        True label index per item.
    population : numpy.ndarray
        Population index per item.
    classifiers, labels, populations : tuple of str
    abstain : tuple of str
        The abstentions (responses ``R, R+1, ...``); default none.

    Examples
    --------
    >>> import numpy as np
    >>> test = LabelledTest(np.array([[0, 1], [1, 1]]), np.array([0, 1]), np.array([0, 0]),
    ...                     ("x", "y"), ("a", "b"), ("all",))
    >>> test.decision_names().tolist(), test.sketch().by_true_label()
    ([['a', 'b'], ['b', 'b']], {'a': {('a', 'b'): 1}, 'b': {('b', 'b'): 1}})
    """

    decisions: np.ndarray
    truth: np.ndarray
    population: np.ndarray
    classifiers: tuple[str, ...]
    labels: tuple[str, ...]
    populations: tuple[str, ...]
    abstain: tuple[str, ...] = ()

    def sketch(self) -> Sketch:
        """Count the items into a labelled sketch."""
        return Sketch.from_decisions(
            self.decision_names() if self.abstain else self.decisions,
            abstain=self.abstain,
            labels=self.labels,
            classifiers=self.classifiers,
            truth=np.array(self.labels, dtype=object)[self.truth] if self.abstain else self.truth,
            population=self.population,
            populations=self.populations,
        )

    def decision_names(self) -> np.ndarray:
        """The decisions as response names (object array)."""
        return np.array(self.labels + self.abstain, dtype=object)[self.decisions]


def labelled_test(
    point: EvaluationPoint,
    Q: int | Mapping[str, int] | None = None,
    seed: int | None = None,  # noqa: N803
) -> LabelledTest:
    r"""Per-item decisions and answer key whose sample statistics equal ``point`` exactly.

    Items are listed by population, true label and pattern, or shuffled when ``seed``
    is given (the statistics do not depend on the order).

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.data.point import EvaluationPoint
    >>> pt = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": "1/2"},
    ...                                  accuracy={0: {"a": 1, "b": "1/2"}})
    >>> test = labelled_test(pt)
    >>> test.decisions.ravel().tolist(), test.truth.tolist()
    ([0, 0, 0, 1], [0, 0, 1, 1])
    """
    seed = check_seed(seed)
    sketch = expected_sketch(point, Q)
    pop, truth, code, count = sketch.table()
    spec = point.spec
    digits = np.empty((code.size, spec.n_classifiers), dtype=np.int64)
    rest = code.copy()
    for i in range(spec.n_classifiers - 1, -1, -1):
        digits[:, i] = rest % spec.n_responses
        rest //= spec.n_responses
    decisions = np.repeat(digits, count, axis=0)
    truth_items = np.repeat(truth, count)
    pop_items = np.repeat(pop, count)
    if seed is not None:
        order = np.random.default_rng(seed).permutation(decisions.shape[0])
        decisions, truth_items, pop_items = decisions[order], truth_items[order], pop_items[order]
    return LabelledTest(
        decisions, truth_items, pop_items, spec.classifiers, spec.labels, spec.populations, spec.abstain
    )
