"""Tests of evalgebra.structures: reading, writing, relabelling and enumerating correlation structures.

Structures written wrongly: what was given, what is accepted, and the corrected call. A bare subset
(``structure=(0, 1)`` for ``[(0, 1)]``) and mistyped text (``"0,1"`` or
``"(0, 1)"`` for ``"0-1"``) are refused, never guessed; the message names the correction, and
the correction, read back, is a structure containing the subset that was meant. Independent
routes: the suggested call is parsed again (``ast.literal_eval`` of the message); the Python
and text spellings of one random structure parse to the same thing; ``EnsembleSpec``,
``parse_structure`` and ``evaluate`` refuse with the same message. Then the written forms read
back, isomorphism against brute force and under random relabellings, and the enumerated families.
"""

from __future__ import annotations

import ast
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import (
    canonical_structure,
    enumerate_structures,
    isomorphism,
    parse_structure,
    read_structure_text,
    structure_code,
    structure_correction,
    structure_name,
    structure_text,
)
from evalgebra.testing.strategies import all_subsets

NAMES5 = ("c0", "c1", "c2", "c3", "c4")
SUGGESTION = re.compile(r"(?:did you mean|or) structure=(\[[^\]]*\])")


def _message(value, names=NAMES5):
    with pytest.raises(SpecError) as caught:
        parse_structure(value, names)
    return str(caught.value)


def _sketch4():
    counts = {"".join(p): 1 + (7 * k) % 11 for k, p in enumerate(itertools.product("ab", repeat=4))}
    return Sketch.from_counts(counts, labels=["a", "b"])


@pytest.mark.parametrize("value", [(0, 1), [0, 1], {0, 1}, ("c0", "c1"), ("c1", 0)])
def test_parse_structure_bare_pair_names_the_corrected_call(value):
    message = _message(value)
    assert message.startswith("structure: each entry must be a collection of classifiers, got ")
    assert f"in structure={value!r}: one subset written bare" in message  # what was given
    assert "accepted: a list of subsets" in message and "'independent', 'complete'" in message
    suggested = SUGGESTION.findall(message)
    assert message.endswith(f"did you mean structure={suggested[0]}?") and len(suggested) == 1
    assert parse_structure(ast.literal_eval(suggested[0]), NAMES5) == ((0, 1),)


def test_evaluate_bare_tuple_says_did_you_mean_the_list():
    """The reported case: ``evaluate(sketch, structure=(0, 1))``; the suggested call is then evaluated."""
    sketch = _sketch4()
    with pytest.raises(SpecError, match=re.escape("did you mean structure=[(0, 1)]?")) as caught:
        evaluate(sketch, structure=(0, 1))
    assert str(caught.value) == _message((0, 1), sketch.classifiers)
    assert evaluate(sketch, structure=[(0, 1)]).structure == evaluate(sketch, structure="0-1").structure


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 4).flatmap(lambda k: st.permutations(range(5)).map(lambda p: p[:k])),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.sampled_from([tuple, list]),
)
def test_bare_subset_suggestions_parse_to_the_meant_subset_everywhere(members, as_name, kind):
    """Every suggested call of the message is a valid structure holding the subset (or all its pairs)."""
    written = kind(NAMES5[i] if named else i for i, named in zip(members, as_name))
    message = _message(written)
    with pytest.raises(SpecError) as spec_error:
        EnsembleSpec(NAMES5, 2, structure=written)
    assert str(spec_error.value) == message  # one message for the spec and for evaluate's parser
    suggested = [parse_structure(ast.literal_eval(s), NAMES5) for s in SUGGESTION.findall(message)]
    subset = tuple(sorted(members))
    assert suggested[0] == (subset,)
    if len(members) >= 3:  # the other reading: every pair among them
        assert suggested[1] == tuple(itertools.combinations(subset, 2))
    else:
        assert len(suggested) == 1


@pytest.mark.parametrize("value", [(0, 7), (0, 0), ("c0", "x"), (0,), [(0, 1), 2], ["c0c1"]])
def test_parse_structure_offers_no_correction_that_would_fail(value):
    message = _message(value)
    assert "did you mean" not in message and "accepted: a list of subsets" in message


@pytest.mark.parametrize(
    "text, corrected",
    [
        ("0,1", "0-1"),
        ("c0,c1,c2", "c0-c1-c2"),
        ("(0, 1)", "0-1"),
        ("[(0, 1)]", "0-1"),
        ("[(0,1),('c2','c3')]", "0-1,c2-c3"),
        ("(0,1),(1,2)", "0-1,1-2"),
    ],
)
def test_parse_structure_mistyped_text_names_the_corrected_text(text, corrected):
    message = _message(text)
    assert message.startswith(f"structure {text!r}: a subset is its classifiers")
    assert message.endswith(f"did you mean structure={corrected!r}?")
    assert parse_structure(corrected, NAMES5)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 4), min_size=2, max_size=4).map(sorted), min_size=1, max_size=5),
    st.booleans(),
)
def test_structure_correction_reads_python_spelling_and_never_valid_text(subsets, as_list):
    """Valid text is never corrected; the Python spelling of a structure is corrected to its text."""
    parsed = parse_structure([tuple(s) for s in subsets], NAMES5)
    text = structure_text(parsed)
    assert structure_correction(text, [list(s) for s in parsed], NAMES5) is None
    python = repr([tuple(s) for s in subsets] if as_list else tuple(tuple(s) for s in subsets))
    if len(subsets) == 1 and not as_list:
        python = repr(tuple(subsets[0]))  # (0, 1): a bare tuple written as text
    corrected = re.search(r"did you mean structure='([^']*)'\?$", _message(python)).group(1)
    assert parse_structure(corrected, NAMES5) == parsed


def test_parse_structure_keeps_refusing_unknown_names_without_guessing():
    assert "unknown classifier 'x'" in _message("x,y")
    assert "fewer than 2 classifiers" in _message("0-1,2")  # one bad subset among good ones: no guess


# -- read back, relabelled, enumerated --------------------------------------------------------------
def test_parse_structure_and_isomorphism_by_brute_force():
    assert parse_structure("gpt-4o-claude,0-2", ("gpt-4o", "claude", "x")) == ((0, 1), (0, 2))
    assert structure_text(parse_structure("3-1,2-0", NAMES5[:4])) == "0-2,1-3"
    with pytest.raises(SpecError):
        parse_structure("0-", NAMES5[:4])
    pairs = list(itertools.combinations(range(4), 2))
    for k in (1, 2, 3):
        for a, b in itertools.product(itertools.combinations(pairs, k), repeat=2):
            sigma = isomorphism(a, b, 4)
            brute = [
                p
                for p in itertools.permutations(range(4))
                if sorted(tuple(sorted(p[i] for i in s)) for s in a) == sorted(b)
            ]
            assert (sigma is None) == (not brute)
            if sigma is not None:
                assert sorted(tuple(sorted(sigma[i] for i in s)) for s in a) == sorted(b)


def test_enumerate_structures_counts_up_to_isomorphism():
    # graphs on 3 and 4 vertices up to isomorphism: 4 and 11 (networkx's atlas agrees)
    assert len(enumerate_structures(3, "graphs")) == 4
    assert len(enumerate_structures(4, "graphs")) == 11
    assert len(enumerate_structures(3, "hypergraphs")) == 8
    assert len(enumerate_structures(4, "hypergraphs")) == 180
    reps = enumerate_structures(4, "hypergraphs")
    assert len({canonical_structure(4, s) for s in reps}) == len(reps)


def test_isomorphism_and_names():
    assert isomorphism([(0, 1)], [(1, 2)], 3) is not None and isomorphism([(0, 1)], [(0, 1, 2)], 3) is None
    assert canonical_structure(3, [(1, 2)]) == canonical_structure(3, [(0, 2)])
    assert structure_code(()) == structure_code(())
    assert isinstance(structure_name(3, ((0, 1),)), str)


def test_read_structure_text_refuses_a_left_out_member():
    for text in ("0--2", "0-1-", "0-1,,2-3"):
        with pytest.raises(SpecError, match="an empty member"):
            parse_structure(text, NAMES5)
        with pytest.raises(SpecError, match=re.escape(f"--structure {text!r}: an empty member")):
            read_structure_text(text, NAMES5, option="--structure")


def test_structure_code_reads_back():
    for structure in ((), ((0, 1),), ((0, 1), (1, 2), (0, 1, 2)), ((0, 10), (3, 11))):
        assert parse_structure(structure_code(structure), 12, code=True) == structure
    assert parse_structure("0-1,2-3", 4, code=True) == ((0, 1), (2, 3))
    assert parse_structure("01 23", 4, code=True) == ((0, 1), (2, 3))


_STRUCTURE = st.integers(2, 5).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.sampled_from(all_subsets(n)), max_size=6, unique=True))
)


@settings(max_examples=80, deadline=None)
@given(_STRUCTURE)
def test_parse_structure_reads_back_structure_text(case):
    """``parse(structure_text(s)) == s``; the same text with names (containing ``-``) for the indices."""
    n, subsets = case
    structure = parse_structure(subsets, n)
    assert parse_structure(structure_text(structure), n) == structure
    names = tuple(f"m-{k}" for k in range(n))
    text = ",".join("-".join(names[i] for i in s) for s in structure) or "independent"
    assert parse_structure(text, names) == structure


@settings(max_examples=80, deadline=None)
@given(_STRUCTURE, st.randoms(use_true_random=False))
def test_isomorphism_invariant_under_random_relabelling(case, rng):
    """A relabelled structure is isomorphic to the original by a renaming that maps it; one canonical form."""
    n, subsets = case
    structure = parse_structure(subsets, n)
    perm = list(range(n))
    rng.shuffle(perm)
    relabelled = parse_structure([tuple(perm[i] for i in s) for s in structure], n)
    sigma = isomorphism(structure, relabelled, n)
    assert sigma is not None
    assert parse_structure([tuple(sigma[i] for i in s) for s in structure], n) == relabelled
    assert canonical_structure(n, structure) == canonical_structure(n, relabelled)
    assert (isomorphism(relabelled, (), n) is None) == bool(structure)
