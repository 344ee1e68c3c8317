"""PartialSketch: chunked counting by response names, merging in any order, finishing as from_decisions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.chunked import PartialSketch, looks_like_id
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError


def _column(values: list[str | None], order: list[str]) -> tuple[np.ndarray, list[str]]:
    """Dictionary codes of ``values`` against the dictionary ``order`` (None: missing)."""
    return np.array([-1 if v is None else order.index(v) for v in values], dtype=np.int32), order


@st.composite
def labelled_tests(draw: st.DrawFn) -> tuple[list[list[str]], list[str]]:
    n_classifiers = draw(st.integers(1, 4))
    labels = ["no", "maybe", "yes"][: draw(st.integers(2, 3))]
    rows = draw(
        st.lists(
            st.lists(st.sampled_from(labels), min_size=n_classifiers, max_size=n_classifiers),
            min_size=2,
            max_size=40,
        )
    )
    truth = draw(st.lists(st.sampled_from(labels), min_size=len(rows), max_size=len(rows)))
    return rows, truth


@settings(max_examples=60, deadline=None)
@given(labelled_tests(), st.integers(1, 7), st.randoms(use_true_random=False))
def test_partial_sketch_chunks_with_shuffled_dictionaries_equal_from_decisions(case, chunk, rnd) -> None:
    rows, truth = case
    n_classifiers = len(rows[0])
    names = [f"m{k}" for k in range(n_classifiers)]
    part = PartialSketch(names, labelled=True)
    for start in range(0, len(rows), chunk):
        block, block_truth = rows[start : start + chunk], truth[start : start + chunk]
        answers = []
        for j in range(n_classifiers):
            order = sorted({r[j] for r in block} | {"unused-but-listed"})
            rnd.shuffle(order)  # every chunk orders its dictionary its own way
            answers.append(_column([r[j] for r in block], order))
        order = sorted(set(block_truth))
        rnd.shuffle(order)
        part.add(answers, truth=_column(block_truth, order))
    if len({x for r in rows for x in r} | set(truth)) < 2:  # both refuse to guess the other labels
        with pytest.raises(SketchError, match="only one label seen"):
            part.finish()
        return
    assert part.finish() == Sketch.from_decisions(rows, classifiers=names, truth=truth)


@settings(max_examples=40, deadline=None)
@given(labelled_tests(), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_partial_sketch_merge_in_any_order_equals_one_pass(case, parts, seed) -> None:
    rows, _ = case
    names = [f"m{k}" for k in range(len(rows[0]))]
    labels = ["maybe", "no", "yes"]
    pieces = np.array_split(np.arange(len(rows)), parts)
    partials = []
    for piece in pieces:
        part = PartialSketch(names, labels=labels)
        part.add([_column([rows[i][j] for i in piece], labels[::-1]) for j in range(len(names))])
        partials.append(part)
    order = np.random.default_rng(seed).permutation(len(partials))
    merged = partials[order[0]]
    for k in order[1:]:
        merged = merged + partials[k]
    assert merged.finish() == Sketch.from_decisions(rows, classifiers=names, labels=labels)
    assert merged.rows == len(rows)


@pytest.mark.parametrize("missing", ["abstain", "drop"])
def test_partial_sketch_missing_policies_equal_from_decisions(missing: str) -> None:
    rows = [["a", None], ["b", "b"], [None, "unsure"], ["a", "a"], ["b", None]]
    part = PartialSketch(["x", "y"], abstain=["unsure"], missing=missing)
    for start in (0, 2, 4):
        block = rows[start : start + 2]
        part.add([_column([r[j] for r in block], ["unsure", "b", "a"]) for j in range(2)])
    expected = Sketch.from_decisions(rows, classifiers=["x", "y"], abstain=["unsure"], missing=missing)
    got = part.finish()
    assert got == expected
    assert got.missing_report == expected.missing_report


def test_partial_sketch_refuses_missing_unknown_and_id_columns() -> None:
    part = PartialSketch(["x"])
    with pytest.raises(SketchError, match="item 1, classifier 'x'"):
        part.add([_column(["a", None], ["a"])])
    fixed = PartialSketch(["x"], labels=["a", "b"])
    with pytest.raises(SketchError, match=r"unknown labels \['c'\]"):
        fixed.add([_column(["a", "c"], ["a", "c"])])
    ids = [str(k) for k in range(100)]
    with pytest.raises(SketchError, match="looks like an item ID"):
        PartialSketch(["id"]).add([_column(ids, ids)])
    with pytest.raises(SketchError, match="mix label names and integer indices"):
        mixed = PartialSketch(["x", "y"])
        mixed.add([_column(["a", "b"], ["a", "b"]), (np.array([0, 1]), None)])
        mixed.finish()
    with pytest.raises(SketchError, match="every true label is a label"):
        PartialSketch(["x"], abstain="skip", labelled=True).add(
            [_column(["a"], ["a"])], truth=_column(["skip"], ["skip"])
        )
    with pytest.raises(SketchError, match="different labels"):
        PartialSketch(["x"], labels=["a", "b"]).merge(PartialSketch(["x"]))


def test_partial_sketch_integer_positions_and_populations_equal_from_decisions() -> None:
    rng = np.random.default_rng(5)
    decisions = rng.integers(0, 3, size=(200, 3))
    pops = rng.choice(["north", "south"], size=200)
    part = PartialSketch(["c0", "c1", "c2"])
    for piece in np.array_split(np.arange(200), 3):
        part.add(
            [(decisions[piece, j], None) for j in range(3)],
            population=(np.array([0 if p == "south" else 1 for p in pops[piece]]), ["south", "north"]),
        )
    assert part.finish() == Sketch.from_decisions(decisions, population=pops)


def test_looks_like_id_needs_many_values_and_most_rows() -> None:
    assert looks_like_id(17, 30) and not looks_like_id(16, 20) and not looks_like_id(17, 34)


def test_partial_sketch_compacts_its_cells_without_changing_counts(monkeypatch) -> None:
    import evalgebra.data.partial as partial  # the counting of PartialSketch lives there

    monkeypatch.setattr(partial, "COMPACT_CELLS", 10)
    rng = np.random.default_rng(3)
    labels = ["a", "b", "c"]
    rows = rng.choice(labels, size=(600, 4)).tolist()
    part = PartialSketch([f"m{k}" for k in range(4)], labels=labels)
    for start in range(0, 600, 50):
        block = rows[start : start + 50]
        part.add([_column([r[j] for r in block], labels) for j in range(4)])
        assert part.n_cells <= 81 + 10  # summed once past the threshold
    assert part.finish() == Sketch.from_decisions(
        rows, classifiers=[f"m{k}" for k in range(4)], labels=labels
    )


# -- what add() is given (issue 21: TypeError and IndexError escaped) ----------------------------------
_COL = (np.array([0, 1]), ["a", "b"])


@pytest.mark.parametrize(
    "answers, options, message",
    [
        ([_COL], {}, r"1 answer columns for 2 classifiers \['x', 'y'\]; give one column per classifier"),
        (np.array([[0, 1], [1, 0]]), {}, r"answers: give a list of 2 \(codes, keys\) columns.*got ndarray"),
        ([np.array([0, 1]), np.array([1, 0])], {}, r"column 'x': a column is a \(codes, keys\) pair"),
        ([_COL, None], {}, r"column 'y': a column is a \(codes, keys\) pair"),
        ([_COL, (np.array([0, 1]),)], {}, r"column 'y': a column is a \(codes, keys\) pair"),
        ([_COL, (np.array([[0, 1]]), ["a", "b"])], {}, r"column 'y': codes must be one-dimensional"),
        ([_COL, (np.array([0, 1]), "ab")], {}, r"column 'y': keys must be a list"),
        (None, {}, r"answers: give a list of 2"),
        ({"x": _COL, "y": _COL}, {}, r"answers: give a list of 2"),
        ([_COL, _COL], {"population": np.array([0, 1])}, r"population: a column is a \(codes, keys\) pair"),
        ([_COL, _COL], {"population": (np.array([0]), ["p"])}, r"population: 2 integer codes expected"),
        (
            [_COL, _COL],
            {"population": (np.array([0, 5]), ["p"])},
            r"population: code 5 outside its dictionary",
        ),
    ],
)
def test_add_refuses_what_is_not_one_column_per_classifier(answers, options, message):
    part = PartialSketch(["x", "y"])
    with pytest.raises(SketchError, match=message):
        part.add(answers, **options)
    assert part.rows == 0


@pytest.mark.parametrize("classifiers", [3, "xy", None, b"xy"])
def test_partial_sketch_needs_a_list_of_classifier_names(classifiers):
    with pytest.raises(SketchError, match="classifiers: give a list of classifier names"):
        PartialSketch(classifiers)


def test_add_takes_columns_as_lists_and_codes_as_sequences():
    part = PartialSketch(["x", "y"])
    part.add([[[0, 1], ["a", "b"]], ([1, 1], ("a", "b"))])
    assert part.finish() == Sketch.from_decisions([["a", "b"], ["b", "b"]], classifiers=["x", "y"])


def test_partial_sketch_refuses_what_the_fuzz_found():
    """Ragged or undecodable codes, integer labels or abstentions, names with no text form."""
    with pytest.raises(SketchError, match=r"column 'y': codes must be a 1-D array of integers"):
        PartialSketch(["x", "y"]).add([_COL, ([[0], [0, 1]], ["a"])])
    with pytest.raises(SketchError, match=r"labels must be a list of label names"):
        PartialSketch(["x", "y"], labels=3)
    with pytest.raises(SketchError, match=r"abstain must name the non-label answers"):
        PartialSketch(["x", "y"], abstain=3)
    with pytest.raises(SketchError, match=r"classifiers: an integer of 16610 bits is too long for a name"):
        PartialSketch([10**5000])
