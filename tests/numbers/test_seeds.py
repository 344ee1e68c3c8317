"""Tests of evalgebra.numbers.seeds: every function that takes a seed checks it the same way."""

import pytest

from evalgebra.errors import SpecError


# -- seeds (issue 21: NumPy's ValueError/TypeError escaped for negative or float seeds) -------------------
def _seed_takers():
    import random

    from evalgebra.alarm.sampling import sample_labelled_tests
    from evalgebra.crowd.facade import DawidSkeneAlgebraic
    from evalgebra.crowd.sparse import sparse_evaluation
    from evalgebra.data.point import EvaluationPoint
    from evalgebra.data.simulate import labelled_test
    from evalgebra.data.sketch import Sketch
    from evalgebra.datasets.crowd import sparse_crowd
    from evalgebra.datasets.judges import llm_judges
    from evalgebra.evaluators.dispatch import evaluate
    from evalgebra.evaluators.hui_walter.gibbs import evaluate_hui_walter_gibbs
    from evalgebra.evaluators.intervals.confidence import confidence_intervals
    from evalgebra.evaluators.majority import evaluate_majority
    from evalgebra.groebner.identifiability import random_point
    from evalgebra.search.failure import subsample
    from evalgebra.spec import EnsembleSpec

    three = Sketch.from_counts({"aaa": 5, "aab": 2, "abb": 1, "bab": 3, "bbb": 4}, labels=["a", "b"])
    two = Sketch.from_counts({"aa": 5, "ab": 2, "ba": 1, "bb": 3}, labels=["a", "b"])
    abstaining = Sketch.from_counts(
        {("a", "a", "a"): 5, ("u", "a", "b"): 2, ("b", "b", "b"): 4}, labels=["a", "b"], abstain="u"
    )
    point = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": "1/2"}, accuracy={0: {"a": 1, "b": "1/2"}})
    crowd = sparse_crowd(n_tasks=40, n_workers=6, per_task=3).records()
    return {
        "llm_judges": lambda s: llm_judges(50, seed=s),
        "sparse_crowd": lambda s: sparse_crowd(seed=s, n_tasks=10, n_workers=6, per_task=3),
        "sparse_evaluation": lambda s: sparse_evaluation(crowd, seed=s),
        "DawidSkeneAlgebraic": lambda s: DawidSkeneAlgebraic(seed=s),
        "evaluate_hui_walter_gibbs": lambda s: evaluate_hui_walter_gibbs(
            two, iterations=10, burn_in=1, chains=1, seed=s
        ),
        "labelled_test": lambda s: labelled_test(point, seed=s),
        "subsample": lambda s: subsample(three, 3, rng=s),
        "sample_labelled_tests": lambda s: sample_labelled_tests(three, size=2, seed=s),
        "random_point": lambda s: random_point(EnsembleSpec(3, 2), seed=s),
        "evaluate": lambda s: evaluate(three, intervals="bootstrap", n_boot=10, seed=s),
        "evaluate with abstentions": lambda s: evaluate(abstaining, intervals="bootstrap", n_boot=10, seed=s),
        "confidence_intervals": lambda s: confidence_intervals(
            evaluate_majority(three), three, n_boot=10, seed=s
        ),
        "random.Random": lambda s: sample_labelled_tests(three, size=1, seed=random.Random(s or 0)),
    }


@pytest.mark.parametrize(
    "seed", [-1, 1.5, "3", True, 2**256, 10**5000], ids=["-1", "1.5", "'3'", "True", "2**256", "10**5000"]
)
def test_every_seed_taker_refuses_what_is_not_a_seed_in_one_line(seed):
    for name, call in _seed_takers().items():
        if name == "random.Random":
            continue
        with pytest.raises(
            SpecError, match=r"(seed|rng)=.*: a seed is a non-negative integer below 2\*\*256"
        ):
            call(seed)


def test_every_seed_taker_accepts_seeds_up_to_256_bits():
    for call in _seed_takers().values():
        call(0)
        call(2**256 - 1)
