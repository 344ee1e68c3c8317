"""The one entry point and the old names: evaluate(sketch, method=..., structure=...), deprecated aliases."""

from __future__ import annotations

import inspect
from fractions import Fraction

import numpy as np
import pytest

import evalgebra as ev
from evalgebra import datasets
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import METHODS, evaluate

COUNTS = [84, 36, 51, 39, 68, 52, 77, 73]  # an independent test: P_a = 1/4 exactly


def _sketch():
    return ev.Sketch.from_counts(
        {"".join(p): c for p, c in zip(("aaa", "aab", "aba", "abb", "baa", "bab", "bba", "bbb"), COUNTS)},
        labels=["a", "b"],
    )


@pytest.mark.parametrize("method", ["algebraic", "majority"])
def test_evaluate_structure_none_and_independent_are_the_same(method):
    sketch = _sketch()
    assert (
        evaluate(sketch, method=method).to_dict()
        == evaluate(sketch, method=method, structure="independent").to_dict()
    )


@pytest.mark.parametrize("structure", ["complete", [(0, 1)], [[0, 1], [1, 2]], "pairs"])
@pytest.mark.parametrize("method", METHODS)
def test_evaluate_correlated_structure_raises_a_spec_error_naming_what_is_accepted(method, structure):
    # issue 11: the algebraic method evaluates identifiable structures; on three classifiers none
    # short of independence is, so each is refused with the reason (never a point)
    with pytest.raises(SpecError) as info:
        evaluate(_sketch(), method=method, structure=structure)
    message = str(info.value)
    if method != "algebraic":
        assert "method='algebraic'" in message and "structure=None" in message and "'independent'" in message
    elif structure == "pairs":
        assert "unknown classifier 'pairs'" in message
    else:
        assert "on 3 classifiers" in message and (
            "not identifiable" in message or "generate one with" in message
        )


def test_evaluate_empty_structure_is_the_independent_one():
    sketch = _sketch()
    assert evaluate(sketch, structure=[]).to_dict() == evaluate(sketch).to_dict()


def test_evaluate_unknown_method_and_option_raise_spec_errors():
    with pytest.raises(SpecError, match="known: algebraic, majority, hui_walter"):
        evaluate(_sketch(), method="oracle")
    with pytest.raises(SpecError, match="its options: ties"):
        evaluate(_sketch(), method="majority", prevalence_range=(0, 1))


def test_evaluate_passes_the_methods_options():
    high = evaluate(_sketch(), method="algebraic", prevalence_range=("1/2", 1))
    assert high.point.prevalence["a"] == Fraction(3, 4)


def test_public_names_one_per_idea():
    for old in ("evaluate_algebraic", "evaluate_many", "solve_counts"):
        assert old not in ev.__all__ and old not in dir(ev)
    for new in ("evaluate", "evaluate_counts", "evaluate_batch"):
        assert new in ev.__all__ and getattr(ev, new).__doc__


def test_evaluate_algebraic_alias_still_works_and_warns():
    sketch = datasets.load("acs_employment").unlabelled()
    with pytest.warns(
        DeprecationWarning, match=r'evaluate_algebraic is deprecated.*evaluate\(sketch, method="algebraic"'
    ):
        old = ev.evaluate_algebraic(sketch)
    assert old.to_dict() == ev.evaluate(sketch, method="algebraic", fit=False).to_dict()
    from evalgebra.evaluators.independent.algebraic import evaluate_algebraic

    with pytest.warns(DeprecationWarning):
        evaluate_algebraic(sketch, decoding="prevalence_range", prevalence_range=(0, "1/2"))


def test_evaluate_many_alias_still_works_and_warns():
    with pytest.warns(DeprecationWarning, match="evaluate_many is deprecated.*use evaluate_batch"):
        old = ev.evaluate_many([COUNTS])
    new = ev.evaluate_batch([COUNTS])
    assert old.keys() == new.keys() and all(np.array_equal(old[k], new[k]) for k in new)


def test_solve_counts_alias_still_works_and_warns():
    from evalgebra.evaluators.independent.closed_form import exact_solution

    with pytest.warns(
        DeprecationWarning,
        match="solve_counts is deprecated.*use evalgebra.evaluators.independent.closed_form.exact_solution",
    ):
        old = ev.solve_counts(COUNTS)
    new = exact_solution(COUNTS)
    assert (old.radicand, old.num, old.root, old.den, old.chosen) == (
        new.radicand,
        new.num,
        new.root,
        new.den,
        new.chosen,
    )


def test_deprecated_aliases_keep_their_signatures():
    from evalgebra.evaluators.independent.batch import evaluate_batch
    from evalgebra.evaluators.independent.closed_form import exact_solution

    assert inspect.signature(ev.evaluate_many) == inspect.signature(evaluate_batch)
    assert inspect.signature(ev.solve_counts) == inspect.signature(exact_solution)
    with pytest.raises(AttributeError):
        ev.evaluate_everything  # noqa: B018 - an unknown name is still an AttributeError


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("junk", [None, [1, 2, 3], "sketch.json", np.zeros(8)])
def test_evaluate_says_a_sketch_is_expected(method, junk):
    from evalgebra.errors import SketchError

    with pytest.raises(SketchError, match=r"needs a Sketch .*got "):
        evaluate(junk, method=method)


def test_evaluate_refuses_a_method_that_is_not_a_name():
    with pytest.raises(
        SpecError, match=r"method must be a name, one of algebraic, majority, hui_walter; got ndarray"
    ):
        evaluate(_sketch(), method=np.array(["algebraic"]))
