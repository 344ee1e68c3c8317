"""Tests of evalgebra.search.result: the ranked results of a trio search and how they show themselves.

(Named apart from tests/evaluators/test_result.py: test basenames are unique.)
"""

from __future__ import annotations

import numpy as np
import pytest

from evalgebra.data.sketch import Sketch
from evalgebra.search.result import TrioResult, TrioSearch
from evalgebra.search.trios import search_trios


@pytest.fixture(scope="module")
def search() -> TrioSearch:
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 2, 400)
    decisions = np.where(rng.random((400, 6)) < 0.8, truth[:, None], 1 - truth[:, None])
    return search_trios(
        Sketch.from_decisions(
            decisions, labels=["<a>", "b&b"], classifiers=["x0", "x1", "x2", "x3", "x4", "<x5>"]
        )
    )


def test_triosearch_repr_is_one_short_line(search):
    text = repr(search)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("TrioSearch(6 classifiers, Q=400, 20 trios, ")
    assert f"{len(search.survivors())} survive" in text and "criterion='disagreement'" in text
    assert all(isinstance(r, TrioResult) for r in search)


def test_triosearch_summary_lists_the_best_survivors(search):
    lines = search.summary(k=3).splitlines()
    assert lines[0].startswith("Trio search: 6 classifiers, 400 items, 20 candidate trios")
    assert len(lines) == 1 + min(3, len(search.survivors())) + 1
    assert lines[1].split()[0] == "0" and ", ".join(search.best(1)[0].classifiers) in lines[1]
    assert lines[-1].startswith("alarms raised: ")


def test_triosearch_html_is_compact_and_escaped(search):
    page = search._repr_html_()
    assert page.startswith('<div class="evalgebra">')
    shown = min(10, len(search.survivors()))
    assert page.count("<tr>") == 1 + shown + (len(search.survivors()) > 10)
    assert "<x5>" not in page and len(page) < 6000
    if any("<x5>" in r.classifiers for r in search.best(10)):
        assert "&lt;x5&gt;" in page
