"""Tests of evalgebra.groebner.structures: enumerating correlation structures up to relabelling."""

from __future__ import annotations

from evalgebra.groebner.structures import canonical_structure, isomorphic, structure_name, structure_text, structures


def test_structures_counts_up_to_isomorphism():
    # graphs on 3 and 4 vertices up to isomorphism: 4 and 11 (networkx's atlas agrees)
    assert len(structures(3, "graphs")) == 4
    assert len(structures(4, "graphs")) == 11
    assert len(structures(3, "hypergraphs")) == 8
    assert len(structures(4, "hypergraphs")) == 180
    reps = structures(4, "hypergraphs")
    assert len({canonical_structure(4, s) for s in reps}) == len(reps)


def test_isomorphic_and_names():
    assert isomorphic(3, [(0, 1)], [(1, 2)]) and not isomorphic(3, [(0, 1)], [(0, 1, 2)])
    assert canonical_structure(3, [(1, 2)]) == canonical_structure(3, [(0, 2)])
    assert structure_text(()) == structure_text(())
    assert isinstance(structure_name(3, ((0, 1),)), str)
