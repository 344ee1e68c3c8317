"""Tests of evalgebra.data.sketch: counting, marginalising, merging, relabelling."""

import inspect
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.testing import budget, labelled_tests, specs

tests_ = labelled_tests(specs(max_populations=3, named=None))


def _sketch(test, rows=slice(None), columns=None, labelled=True):
    """Sketch of a LabelledTest's items ``rows`` and classifiers ``columns``, by from_decisions."""
    columns = list(range(len(test.classifiers))) if columns is None else list(columns)
    return Sketch.from_decisions(
        test.decisions[rows][:, columns],
        labels=test.labels,
        classifiers=[test.classifiers[k] for k in columns],
        truth=test.truth[rows] if labelled else None,
        population=test.population[rows],
        populations=test.populations,
    )


def _ordered_subset(data, n):
    order = data.draw(st.permutations(range(n)))
    return list(order[: data.draw(st.integers(1, n))])


@given(tests_)
def test_from_decisions_counts_equal_item_tally(test):
    sketch = test.sketch()
    names = test.decision_names()
    for s, population in enumerate(test.populations):
        rows = test.population == s
        tally = Counter(tuple(row) for row in names[rows].tolist())
        assert sketch.counts(population) == dict(sorted(tally.items()))
        assert sketch.size(population) == int(rows.sum())
        for t, label in enumerate(test.labels):
            mask = rows & (test.truth == t)
            expected = Counter(tuple(row) for row in names[mask].tolist())
            assert sketch.by_true_label(population)[label] == dict(expected)
            assert sketch.label_counts(population)[label] == int(mask.sum())
    assert sketch.Q == len(test.truth) == sum(sketch.counts().values())
    assert sketch.is_labelled and not sketch.unlabelled().is_labelled


@given(tests_)
def test_frequencies_and_count_vector_agree_with_counts(test):
    sketch = test.sketch()
    vector = sketch.count_vector()
    assert vector.sum() == sketch.Q and len(vector) == len(test.labels) ** len(test.classifiers)
    counts = sketch.counts()
    nonzero = {k: int(v) for k, v in enumerate(vector) if v}
    assert list(nonzero.values()) == list(counts.values())  # both in canonical order
    frequencies = sketch.frequencies()
    assert sum(frequencies.values()) == 1
    assert all(frequencies[p] == Fraction(c, sketch.Q) for p, c in counts.items())
    for label in test.labels:
        assert sketch.count_vector(truth=label).sum() == sketch.label_counts()[label]
    per_population = sum(sketch.count_vector(population=p) for p in sketch.populations)
    assert np.array_equal(per_population, vector)


@given(tests_, st.data())
def test_marginalise_commutes_with_building(test, data):
    keep = _ordered_subset(data, len(test.classifiers))
    labelled = data.draw(st.booleans())
    whole = _sketch(test, labelled=labelled)
    assert whole.marginalise(keep) == _sketch(test, columns=keep, labelled=labelled)
    named = [test.classifiers[k] for k in keep]
    assert whole.marginalise(named) == whole.marginalise(keep)


@given(tests_, st.data())
def test_marginalise_composes(test, data):
    sketch = test.sketch()
    first = _ordered_subset(data, len(test.classifiers))
    second = _ordered_subset(data, len(first))
    assert sketch.marginalise(first).marginalise(second) == sketch.marginalise([first[j] for j in second])
    identity = list(range(len(test.classifiers)))
    assert sketch.marginalise(identity) == sketch


@given(tests_, st.data())
def test_merge_of_two_parts_equals_sketch_of_all_items(test, data):
    n_items = len(test.truth)
    assume(n_items >= 2)
    order = np.array(data.draw(st.permutations(range(n_items))))
    cut = data.draw(st.integers(1, n_items - 1))
    first, second = _sketch(test, rows=order[:cut]), _sketch(test, rows=order[cut:])
    merged = first.merge(second)
    assert merged.counts() == test.sketch().counts()
    assert merged.by_true_label() == test.sketch().by_true_label()
    assert merged.Q == first.Q + second.Q
    assert first.populations == second.populations == test.populations  # empty ones kept
    assert merged == test.sketch()
    assert first + second == merged


def _counts_by_population(sketch):
    return {p: (sketch.counts(p), sketch.by_true_label(p)) for p in sketch.populations}


@given(
    st.lists(
        labelled_tests(
            specs(min_classifiers=2, max_classifiers=2, min_labels=3, max_labels=3, max_populations=2)
        ),
        min_size=3,
        max_size=3,
    )
)
def test_merge_is_count_addition_commutative_and_associative(tests):
    spec_names = (tests[0].classifiers, tests[0].labels)
    a, b, c = (
        Sketch.from_decisions(
            t.decisions,
            labels=spec_names[1],
            classifiers=spec_names[0],
            truth=t.truth,
            population=t.population,
            populations=t.populations,
        )
        for t in tests
    )
    ab, ba = a.merge(b), b.merge(a)
    for population in set(a.populations) | set(b.populations):
        expected = Counter()
        for part in (a, b):
            if population in part.populations:
                expected.update(part.counts(population))
        assert ab.counts(population) == ba.counts(population) == dict(sorted(expected.items()))
    assert _counts_by_population(ab) == _counts_by_population(ba)
    assert (a + b) + c == a + (b + c)
    assert _counts_by_population((a + b) + c) == _counts_by_population(c + (b + a))


def test_merge_keeps_populations_apart():
    x = Sketch.from_decisions([["a", "b"]], labels=["a", "b"], population="x")
    y = Sketch.from_decisions([["b", "b"], ["a", "b"]], labels=["a", "b"], population="y")
    both = x + y
    assert both.populations == ("x", "y")
    assert both.counts("x") == {("a", "b"): 1}
    assert both.counts("y") == {("a", "b"): 1, ("b", "b"): 1}
    assert both.pooled().counts() == {("a", "b"): 2, ("b", "b"): 1}
    assert both.population("y") == Sketch.from_decisions(
        [["b", "b"], ["a", "b"]], labels=["a", "b"], population="y"
    )


@given(tests_, st.data())
def test_with_label_order_equals_building_with_that_order(test, data):
    perm = list(data.draw(st.permutations(test.labels)))
    sketch = test.sketch()
    names = test.decision_names()
    rebuilt = Sketch.from_decisions(
        names,
        labels=perm,
        classifiers=test.classifiers,
        truth=np.array(test.labels, dtype=object)[test.truth],
        population=test.population,
        populations=test.populations,
    )
    assert sketch.with_label_order(perm) == rebuilt
    assert sketch.with_label_order(perm).with_label_order(test.labels) == sketch
    assert sketch.with_label_order(perm).counts() == sketch.counts()  # same patterns, other order


@given(tests_)
def test_population_parts_merge_to_the_sketch(test):
    sketch = test.sketch()
    parts = [sketch.population(p) for p in sketch.populations]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    assert total == sketch
    assert sketch.pooled().counts() == sketch.counts()
    assert sketch.pooled().populations == ("all",)


def test_Sketch_repr_equality_and_hash():
    sketch = Sketch.from_decisions([["a", "b"], ["b", "b"]], truth=["a", "b"])
    assert (
        repr(sketch)
        == "Sketch(Q=2, classifiers=['c0', 'c1'], labels=['a', 'b'], labelled, 2 non-empty cells)"
    )
    with pytest.raises(TypeError):
        hash(sketch)
    assert sketch != sketch.unlabelled()
    assert sketch != Sketch.from_decisions([["a", "b"], ["b", "b"]], truth=["a", "b"], classifiers=["x", "y"])


# -- errors ------------------------------------------------------------------------------
def test_merge_rejects_incompatible_sketches():
    base = Sketch.from_decisions([["a", "b"]], labels=["a", "b"], truth=["a"])
    with pytest.raises(SketchError, match=r"cannot merge a labelled sketch with an unlabelled one"):
        base.merge(base.unlabelled())
    with pytest.raises(SketchError, match=r"cannot merge sketches of different classifiers or labels"):
        base.merge(base.marginalise([1, 0]))
    with pytest.raises(SketchError, match=r"cannot merge sketches of different classifiers or labels"):
        base.merge(base.with_label_order(["b", "a"]))
    with pytest.raises(SketchError, match=r"can only merge a Sketch, got dict"):
        base.merge({})


def test_marginalise_and_relabel_reject_bad_arguments():
    sketch = Sketch.from_decisions([["a", "b", "a"]], labels=["a", "b"])
    with pytest.raises(SketchError, match=r"marginalise: need distinct classifiers, got \[0, 0\]"):
        sketch.marginalise([0, 0])
    with pytest.raises(SketchError, match=r"marginalise: need distinct classifiers, got \[\]"):
        sketch.marginalise([])
    with pytest.raises(SpecError, match=r"unknown classifier 'c7'"):
        sketch.marginalise(["c7"])
    with pytest.raises(SketchError, match=r"with_label_order needs a permutation of \['a', 'b'\]"):
        sketch.with_label_order(["a", "c"])


def test_by_true_label_needs_an_answer_key():
    sketch = Sketch.from_decisions([["a", "b"]], labels=["a", "b"])
    for query in (sketch.by_true_label, sketch.label_counts, lambda: sketch.count_vector(truth="a")):
        with pytest.raises(SketchError, match=r"this sketch has no true labels"):
            query()


def test_Sketch_rejects_bad_tables():
    with pytest.raises(SketchError, match=r"counts must be non-negative"):
        Sketch(["x"], ["a", "b"], [0], [-1], [0], [-1])
    with pytest.raises(SketchError, match=r"empty test"):
        Sketch(["x"], ["a", "b"], [0], [-1], [0], [0])
    with pytest.raises(SketchError, match=r"population index out of range"):
        Sketch(["x"], ["a", "b"], [1], [-1], [0], [1])
    with pytest.raises(SketchError, match=r"labelled throughout or not at all"):
        Sketch(["x"], ["a", "b"], [0, 0], [-1, 0], [0, 1], [1, 1])
    with pytest.raises(SketchError, match=r"true-label index out of range"):
        Sketch(["x"], ["a", "b"], [0], [2], [0], [1])


@pytest.mark.parametrize(
    "table, populations",
    [
        (([0], [-1], [2], [1]), ["p", "q"]),  # silently becomes pattern ('a',) of population 'q'
        (([0], [0], [3], [1]), ["all"]),  # raises 'population index out of range'
        (([0], [-1], [-1], [1]), ["all"]),  # raises numpy's ValueError
    ],
)
def test_Sketch_rejects_pattern_codes_out_of_range(table, populations):
    with pytest.raises(SketchError, match=r"pattern code out of range"):
        Sketch(["x"], ["a", "b"], *table, populations=populations)


@given(
    st.sampled_from([(2, 25), (2, 62), (3, 16), (3, 39), (4, 13)]),
    st.integers(1, 40),
    st.integers(0, 2**32 - 1),
    st.data(),
)
def test_from_decisions_sparse_counting_matches_item_tally(shape, n_items, seed, data):
    """Past 2**24 patterns counting is sparse (sort and reduce); results must not change."""
    n_labels, n_classifiers = shape
    rng = np.random.default_rng(seed)
    decisions = rng.integers(0, n_labels, size=(n_items, n_classifiers))
    decisions[:, : n_classifiers // 2] = rng.integers(0, n_labels, size=(1, n_classifiers // 2))  # repeats
    truth = rng.integers(0, n_labels, size=n_items)
    sketch = Sketch.from_decisions(decisions, truth=truth, labels=n_labels)
    letters = np.array(sketch.labels)
    assert sketch.counts() == dict(Counter(map(tuple, letters[decisions].tolist())))
    assert sketch.label_counts() == {letters[t]: int((truth == t).sum()) for t in range(n_labels)}
    keep = list(data.draw(st.permutations(range(n_classifiers))))[: data.draw(st.integers(1, 6))]
    assert sketch.marginalise(keep) == Sketch.from_decisions(
        decisions[:, keep], truth=truth, labels=n_labels, classifiers=[f"c{k}" for k in keep]
    )
    cut = data.draw(st.integers(0, n_items))
    if 0 < cut < n_items:
        first = Sketch.from_decisions(decisions[:cut], truth=truth[:cut], labels=n_labels)
        second = Sketch.from_decisions(decisions[cut:], truth=truth[cut:], labels=n_labels)
        assert first + second == sketch
    perm = list(data.draw(st.permutations(list(sketch.labels))))
    position = np.array([perm.index(name) for name in sketch.labels])
    assert sketch.with_label_order(perm) == Sketch.from_decisions(
        position[decisions], truth=position[truth], labels=perm
    )
    with pytest.raises(SketchError, match=r"patterns are too many for a dense vector"):
        sketch.count_vector()


def test_from_decisions_rejects_patterns_beyond_64_bit_codes():
    message = r"63 classifiers with 2 labels give 2\^63 patterns, more than 64-bit codes hold; at most 62"
    with pytest.raises(SketchError, match=message):
        Sketch.from_decisions(np.zeros((2, 63), dtype=np.int64), labels=2)


@budget(0.5)
@given(
    st.integers(1, 5),
    st.integers(2, 4),
    st.integers(1, 3),
    st.sampled_from(["uint8", "int8", "int16", "uint16", "int32", "int64"]),
    st.sampled_from(["C", "F", "view"]),
    st.integers(1, 130_000),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_from_decisions_many_items_any_integer_dtype(n, r, n_pops, dtype, layout, n_items, seed, labelled):
    """Counting up to 130,000 items (in blocks, in the input's own dtype) equals a plain tally."""
    _check_counting(n, r, n_pops, dtype, layout, n_items, seed, labelled)


@pytest.mark.parametrize(
    "dtype, n, r, n_pops", [("uint8", 5, 4, 2), ("int8", 8, 2, 3), ("int16", 3, 3, 1), ("uint8", 3, 3, 1)]
)
def test_from_decisions_blocked_counting_in_small_dtypes(dtype, n, r, n_pops):
    """More items than one block; (population, truth, pattern) cells beyond or within 8 bits."""
    _check_counting(n, r, n_pops, dtype, "C", 100_000, 7, True)


def _check_counting(n, r, n_pops, dtype, layout, n_items, seed, labelled):
    n_items = max(n_items, n_pops)
    rng = np.random.default_rng(seed)
    decisions = rng.integers(0, r, size=(n_items, n))
    truth = rng.integers(0, r, size=n_items)
    population = np.concatenate([np.arange(n_pops), rng.integers(0, n_pops, size=n_items - n_pops)])
    given_decisions = decisions.astype(dtype)
    if layout == "F":
        given_decisions = np.asfortranarray(given_decisions)
    elif layout == "view":  # a non-contiguous view: every other column of a wider array
        wide = np.zeros((n_items, 2 * n), dtype=dtype)
        wide[:, ::2] = given_decisions
        given_decisions = wide[:, ::2]
    sketch = Sketch.from_decisions(
        given_decisions,
        labels=r,
        truth=truth.astype(dtype) if labelled else None,
        population=population,
        populations=[f"p{k}" for k in range(n_pops)],
    )
    rows, counts = np.unique(
        np.column_stack([population, truth if labelled else np.zeros_like(truth), decisions]),
        axis=0,
        return_counts=True,
    )
    letters = np.array(sketch.labels)
    expected = {}
    for row, count in zip(rows.tolist(), counts.tolist()):
        expected.setdefault((row[0], row[1]), {})[tuple(letters[row[2:]])] = count
    for s in range(n_pops):
        if labelled:
            split = sketch.by_true_label(f"p{s}")
            for t in range(r):
                assert split[letters[t]] == expected.get((s, t), {})
        else:
            assert sketch.counts(f"p{s}") == expected.get((s, 0), {})
    assert sketch.Q == n_items


# -- sum of sketches -----------------------------------------------------------------------
@given(tests_, st.data())
def test_sum_equals_pairwise_merge(test, data):
    n_items = len(test.truth)
    cuts = sorted(data.draw(st.lists(st.integers(1, max(1, n_items - 1)), max_size=3, unique=True)))
    cuts = [c for c in cuts if c < n_items]
    bounds = [0, *cuts, n_items]
    sketches = [_sketch(test, rows=slice(lo, hi)) for lo, hi in zip(bounds, bounds[1:])]
    merged = sketches[0]
    for sketch in sketches[1:]:
        merged = merged.merge(sketch)
    assert sum(sketches) == merged
    assert sum(sketches[1:], sketches[0]) == merged
    assert sum(sketches).Q == sum(sketch.Q for sketch in sketches)
    assert sum(sketches) == test.sketch()


def test_sum_of_one_sketch_is_that_sketch():
    sketch = Sketch.from_counts({"ab": 2}, labels=["a", "b"])
    assert sum([sketch]) is sketch and 0 + sketch is sketch


def test_sum_rejects_incompatible_sketches_and_other_summands():
    base = Sketch.from_decisions([["a", "b"]], labels=["a", "b"], truth=["a"])
    with pytest.raises(SketchError, match=r"cannot merge a labelled sketch with an unlabelled one"):
        sum([base, base.unlabelled()])
    with pytest.raises(SketchError, match=r"cannot merge sketches of different classifiers or labels"):
        sum([base, base.marginalise([0])])
    with pytest.raises(SketchError, match=r"can only merge a Sketch, got int"):
        sum([base], 1)
    with pytest.raises(SketchError, match=r"can only merge a Sketch, got bool"):
        False + base


# -- signatures and repr --------------------------------------------------------------------------
CONSTRUCTORS = sorted(name for name in dir(Sketch) if name.startswith("from_")) + ["read_json"]


def test_constructors_are_the_documented_ones():
    assert CONSTRUCTORS == [
        "from_counts",
        "from_csv",
        "from_csv_chunks",
        "from_dask",
        "from_decisions",
        "from_frame",
        "from_json",
        "from_long",
        "from_parquet",
        "read_json",
    ]


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_constructors_show_their_real_parameters(name):
    method = getattr(Sketch, name)
    parameters = inspect.signature(method).parameters.values()
    kinds = {p.kind for p in parameters}
    assert inspect.Parameter.VAR_KEYWORD not in kinds and inspect.Parameter.VAR_POSITIONAL not in kinds
    doc = inspect.getdoc(method)
    assert "Parameters\n----------" in doc and "Examples\n--------" in doc
    for parameter in parameters:
        assert parameter.name in doc, f"{name}: parameter {parameter.name} is not documented"


def test_from_decisions_keywords_match_the_reader():
    from evalgebra.data.readers import decisions_table

    ours = list(inspect.signature(Sketch.from_decisions).parameters)
    assert ours == list(inspect.signature(decisions_table).parameters)


def test_repr_stays_short_for_many_classifiers_and_long_names():
    long_label = "x" * 500
    sketch = Sketch.from_decisions(
        np.zeros((3, 40), dtype=np.int64),
        labels=[long_label, "y"],
        classifiers=[f"classifier number {k} " * 5 for k in range(40)],
    )
    text = repr(sketch)
    assert len(text) < 400 and "(40 in all)" in text and long_label not in text
