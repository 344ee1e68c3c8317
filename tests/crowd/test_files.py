"""Crowd files: CSV and JSON lines, the columns named, messy rows handled by choice and reported."""

from __future__ import annotations

import pytest

from evalgebra.crowd.files import read_answers, read_gold, text_format
from evalgebra.crowd.table import crowd_table
from evalgebra.errors import SketchError

ROWS = [("t1", "w1", "a"), ("t1", "w2", "b"), ("t2", "w1", "b"), ("t2", "w3", "a"), ("t3", "w2", "a")]


def _csv(rows, header="task,worker,label") -> str:
    return header + "\n" + "".join(",".join(r) + "\n" for r in rows)


def _jsonl(rows, keys=("item", "judge", "label")) -> str:
    import json

    return "".join(json.dumps(dict(zip(keys, r))) + "\n" for r in rows)


def test_read_answers_csv_and_json_lines_give_the_table_of_the_rows():
    want = crowd_table(ROWS)
    assert read_answers(_csv(ROWS)).table == want
    assert read_answers(_csv(ROWS, "item,judge,label,extra"), task="item", worker="judge").table == want
    lines = _jsonl(ROWS) + "\n"  # a blank line is skipped
    crowd = read_answers(lines, task="item", worker="judge")
    assert crowd.table == want and crowd.report == () and crowd.rows == 5
    assert text_format("", "x.ndjson") == "jsonl" and text_format("a,b\n", "-") == "csv"


def test_read_answers_names_json_values_by_their_text():
    crowd = read_answers(
        '{"task": 1, "worker": "w", "label": true}\n{"task": 2, "worker": "w", "label": false}\n'
    )
    assert crowd.table.tasks == ("1", "2") and crowd.table.labels == ("false", "true")
    with pytest.raises(SketchError, match="line 1"):
        read_answers('{"task": [1], "worker": "w", "label": "a"}\n')
    with pytest.raises(SketchError, match="line 2 is not JSON"):
        read_answers('{"task": 1, "worker": "w", "label": "a"}\nnot json\n', format="jsonl")
    with pytest.raises(SketchError, match="no line has the keys"):
        read_answers('{"item": 1, "judge": "w", "verdict": "a"}\n')


def test_read_answers_refuses_or_drops_missing_values_and_says_so():
    rows = ROWS + [("t3", "w3", "")]
    with pytest.raises(SketchError, match="1 answer.* missing .* line 7.*--missing drop"):
        read_answers(_csv(rows))
    crowd = read_answers(_csv(rows), missing="drop")
    assert crowd.table == crowd_table(ROWS) and crowd.report == (
        "dropped 1 answer(s) with a missing task, worker or label (first: line 7)",
    )
    with pytest.raises(SketchError, match="no column"):
        read_answers(_csv(ROWS), label="verdict")


@pytest.mark.parametrize(
    "choice, kept",
    [("first", ("t2", "w1", "b")), ("last", ("t2", "w1", "c")), ("drop", None)],
)
def test_read_answers_handles_repeated_pairs_as_chosen(choice, kept):
    rows = ROWS + [("t2", "w1", "a"), ("t2", "w1", "c")]  # w1 answered t2 three times
    with pytest.raises(SketchError, match="answered more than once.*'w1' on task 't2', lines 4 and 7"):
        read_answers(_csv(rows))
    crowd = read_answers(_csv(rows), duplicates=choice)
    expected = [r for r in ROWS if r[:2] != ("t2", "w1")] + ([kept] if kept else [])
    assert len(crowd.table.task) == len(expected)
    pairs = {
        (crowd.table.tasks[t], crowd.table.workers[w]): crowd.table.labels[r]
        for t, w, r in zip(crowd.table.task, crowd.table.worker, crowd.table.answer)
    }
    assert pairs.get(("t2", "w1")) == (kept[2] if kept else None)
    dropped = 3 if choice == "drop" else 2
    assert crowd.report[0].startswith("1 (task, worker) pair(s) answered more than once, 1 of them with")
    assert crowd.report[0].endswith(f"({dropped} answer(s) dropped)")


def test_read_gold_takes_task_label_or_the_crowd_names():
    assert read_gold("task,label\nt1,a\n") == [("t1", "a")]
    assert read_gold("item,verdict\nt1,a\n", task="item", label="verdict") == [("t1", "a")]
    assert read_gold("task,label\nt1,a\n", task="item", label="verdict") == [("t1", "a")]
    assert read_gold('{"task": "t1", "label": "a"}\n') == [("t1", "a")]
    with pytest.raises(SketchError, match="missing task or label"):
        read_gold("task,label\nt1,\n")
    with pytest.raises(SketchError, match="no rows"):
        read_gold("task,label\n")
