"""Missing answers and named abstentions in the readers: the three policies, their reports."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.cells import MissingReport
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.spec import EnsembleSpec

FRAME = pd.DataFrame(
    {
        "j1": ["pass", "fail", "pass", "pass", "fail"],
        "j2": ["pass", None, "unsure", "fail", np.nan],
        "j3": ["fail", "fail", "pass", "unsure", "pass"],
    }
)


def test_missing_error_is_the_default_and_names_the_choices():
    with pytest.raises(
        SketchError, match=r"missing answer at item 1, classifier 'j2'; pass missing='abstain'"
    ):
        Sketch.from_decisions(FRAME, abstain="unsure")


def test_unknown_answer_without_abstain_names_the_option():
    with pytest.raises(SketchError, match=r"unknown labels \['unsure'\].*pass abstain="):
        Sketch.from_decisions(FRAME.fillna("pass"), labels=["pass", "fail"])


def test_missing_abstain_counts_missing_as_the_named_abstention():
    sk = Sketch.from_decisions(FRAME, abstain="unsure", missing="abstain")
    assert sk.labels == ("fail", "pass") and sk.abstain == ("unsure",)
    assert sk.Q == 5
    report = sk.missing_report
    assert (report.cells, report.affected, report.abstained, report.dropped) == (2, 2, 2, 0)
    assert report.by_classifier == {"j1": 0, "j2": 2, "j3": 0}
    assert sk.counts()[("fail", "unsure", "fail")] == 1
    assert "missing answers: 2 in 2 of 5 items" in sk.summary()


def test_missing_abstain_without_names_uses_the_default_response():
    sk = Sketch.from_decisions(FRAME.replace("unsure", "pass"), missing="abstain")
    assert sk.responses == ("fail", "pass", "abstain")
    assert sum(n for p, n in sk.counts().items() if "abstain" in p) == 2


def test_missing_drop_drops_the_items_and_says_how_many():
    sk = Sketch.from_decisions(FRAME, abstain="unsure", missing="drop")
    assert sk.Q == 3 and sk.missing_report.dropped == 2 and sk.missing_report.abstained == 0
    kept = FRAME.dropna()
    assert sk == Sketch.from_decisions(kept, abstain="unsure", labels=["fail", "pass"])


def test_missing_drop_of_everything_is_refused():
    with pytest.raises(SketchError, match=r"every one of the 2 items has a missing answer"):
        Sketch.from_decisions([["a", None], [None, "b"]], missing="drop")


def test_missing_truth_is_never_invented():
    with pytest.raises(
        SketchError, match=r"missing answer at truth of item 1; every item of a labelled test"
    ):
        Sketch.from_decisions(
            FRAME, truth=["pass", None, "pass", "fail", "fail"], abstain="unsure", missing="abstain"
        )
    with pytest.raises(SketchError, match=r"'unsure' is an abstention, not a label"):
        Sketch.from_decisions(
            FRAME, truth=["pass", "unsure", "pass", "fail", "fail"], abstain="unsure", missing="abstain"
        )


def test_missing_policy_is_checked():
    with pytest.raises(SketchError, match=r"missing='skip': accepted are 'error', 'abstain', 'drop'"):
        Sketch.from_decisions(FRAME, missing="skip")
    with pytest.raises(SketchError, match=r"named as labels and as abstentions"):
        Sketch.from_decisions(FRAME, labels=["pass", "fail", "unsure"], abstain="unsure", missing="abstain")


def test_negative_indices_are_missing_answers_under_every_policy():
    decisions = np.array([[0, 1, 1], [1, -1, 1], [0, 0, 0]])
    sk = Sketch.from_decisions(decisions, missing="abstain")
    assert sk.counts()[("b", "abstain", "b")] == 1 and decisions[1, 1] == -1  # the input is not modified
    assert Sketch.from_decisions(decisions, missing="drop").Q == 2


def test_long_rows_with_unanswered_tasks():
    rows = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b"), ("t3", "w1", "a"), ("t3", "w2", None)]
    with pytest.raises(
        SketchError, match=r"task 't2' has no answer from worker 'w2'; pass missing='abstain'"
    ):
        Sketch.from_long(rows)
    sk = Sketch.from_long(rows, missing="abstain")
    assert sk.counts() == {("a", "b"): 1, ("a", "abstain"): 1, ("b", "abstain"): 1}
    assert sk.missing_report.cells == 2
    assert Sketch.from_long(rows, missing="drop").counts() == {("a", "b"): 1}


def test_csv_with_empty_cells_and_named_abstentions():
    text = "m1,m2,y\na,,a\nb,unsure,b\na,b,a\n"
    with pytest.raises(SketchError, match=r"CSV line 2: missing answer in column 'm2'; pass missing="):
        Sketch.from_csv(io.StringIO(text), truth="y", abstain="unsure")
    sk = Sketch.from_csv(io.StringIO(text), truth="y", abstain="unsure", missing="abstain")
    assert sk.by_true_label()["a"] == {("a", "unsure"): 1, ("a", "b"): 1}
    with pytest.raises(SketchError, match=r"empty cell in the truth column 'y'"):
        Sketch.from_csv(io.StringIO("m1,y\na,\n"), truth="y", missing="abstain")


def test_sketch_json_round_trip_and_merge_with_abstentions():
    sk = Sketch.from_decisions(FRAME, abstain="unsure", missing="abstain")
    assert Sketch.from_json(sk.to_json()) == sk
    plain = Sketch.from_decisions(FRAME.dropna().replace("unsure", "pass"), labels=["fail", "pass"])
    merged = plain + sk
    assert merged.abstain == ("unsure",) and merged.Q == plain.Q + sk.Q
    assert merged.counts()[("pass", "pass", "fail")] == plain.counts()[("pass", "pass", "fail")] + 1


def test_collapse_responses_and_with_abstain():
    sk = Sketch.from_decisions(FRAME, abstain="unsure", missing="abstain")
    collapsed = sk.collapse_responses({"unsure": "fail"})
    assert collapsed.abstain == () and collapsed.Q == sk.Q
    assert collapsed == Sketch.from_decisions(
        FRAME.fillna("fail").replace("unsure", "fail"), labels=["fail", "pass"]
    )
    with pytest.raises(SketchError, match=r"collapse_responses maps abstentions"):
        sk.collapse_responses({"pass": "fail"})
    assert (
        sk.with_abstain(["x", "unsure"])
        .with_label_order(["pass", "fail"])
        .counts()[("fail", "unsure", "fail")]
        == 1
    )


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(["a", "b", "u", None]), min_size=3, max_size=3), min_size=1, max_size=30
    ),
    st.sampled_from(["abstain", "drop"]),
)
def test_missing_policies_count_every_item_once(rows, policy):
    holes = np.array([[v is None for v in row] for row in rows])
    affected = int(holes.any(axis=1).sum())
    if policy == "drop" and affected == len(rows):
        return
    sk = Sketch.from_decisions(rows, labels=["a", "b"], abstain=["u"], missing=policy)
    assert sk.missing_report == MissingReport.of(policy, holes, sk.classifiers, abstain="u")
    assert sk.Q == len(rows) - sk.missing_report.dropped
    filled = [
        [("u" if v is None else v) for v in row] for row in rows if policy == "abstain" or None not in row
    ]
    assert sk == Sketch.from_decisions(filled, labels=["a", "b"], abstain=["u"])


def test_spec_abstain_validation():
    assert EnsembleSpec(2, 2, abstain=["x", "y"]).n_responses == 4
    with pytest.raises(SpecError, match=r"abstain: \['a'\] are labels"):
        EnsembleSpec(2, 2, abstain="a")
    with pytest.raises(SpecError, match=r"abstain: names must be distinct"):
        EnsembleSpec(2, 2, abstain=["x", "x"])
