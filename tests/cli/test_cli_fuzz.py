"""Fuzzing the command line: whatever the input, a result or one error line, within seconds.

Hypothesis draws mutated sketch JSON, items CSV text and flag values, and ``evalgebra`` runs
in-process through ``main([...])`` with stdout and stderr captured (a few cases also run in a
real subprocess). Every case must end in

- status 0 or 1 with valid output (JSON that parses when ``--json`` was asked for), or
- status 2 with exactly one line on stderr, starting ``evalgebra: error:``,

never in a traceback and never over :data:`CASE_SECONDS` of the main thread's processor time
(a timer looks every quarter second and stops a case that computed longer, or that waited
more than :data:`WALL_SECONDS`: the limit holds on a machine busy with other work). The CI
profile of ``tests/conftest.py`` derandomizes the search; the example counts below keep the
whole file to well under a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalgebra.cli import main
from evalgebra.data.sketch import Sketch
from evalgebra.errors import EvalgebraError
from evalgebra.testing.output_nodes import (
    NodeUnavailable,
    check_output_kept,
    make_output_node,
    node_state,
    output_kinds,
    write_and_observe,
)

#: Processor seconds one case may use (in-process), seconds a subprocess case may take.
CASE_SECONDS = 5
#: Wall-clock seconds one in-process case may take (waiting counts here).
WALL_SECONDS = 30

SKETCH = {
    "format": "evalgebra.sketch/1",
    "labels": ["a", "b"],
    "classifiers": ["c1", "c2", "c3"],
    "counts": [
        {"decisions": ["a", "a", "a"], "count": 5},
        {"decisions": ["a", "b", "a"], "count": 2},
        {"decisions": ["b", "b", "b"], "count": 4},
        {"decisions": ["b", "a", "b"], "count": 1},
    ],
    "by_true_label": {
        "a": [{"decisions": ["a", "a", "a"], "count": 5}, {"decisions": ["a", "b", "a"], "count": 1}],
        "b": [
            {"decisions": ["b", "b", "b"], "count": 4},
            {"decisions": ["a", "b", "a"], "count": 1},
            {"decisions": ["b", "a", "b"], "count": 1},
        ],
    },
}

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class CaseTimeout(Exception):
    """A case ran longer than :data:`CASE_SECONDS`."""


class _Clock:
    """The limits of the running case, checked from a SIGALRM handler in the main thread."""

    def __init__(self, cpu: float, wall: float):
        self.cpu_end = time.thread_time() + cpu
        self.wall_end = time.monotonic() + wall

    def __call__(self, signum, frame):
        if time.thread_time() > self.cpu_end:
            raise CaseTimeout("over the processor time limit of the case")
        if time.monotonic() > self.wall_end:
            raise CaseTimeout("over the wall-clock time limit of the case")


def _limited(cpu: float = CASE_SECONDS, wall: float = WALL_SECONDS):
    """Start the timer of one case; returns the function that stops it."""
    previous = signal.signal(signal.SIGALRM, _Clock(cpu, wall))
    signal.setitimer(signal.ITIMER_REAL, 0.25, 0.25)

    def stop():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

    return stop


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """``main(argv)`` in-process with captured output and a time limit; ``(status, out, err)``."""
    out, err = io.StringIO(), io.StringIO()
    stop = _limited()
    saved_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        stop()
        sys.stdin = saved_stdin
    return status, out.getvalue(), err.getvalue()


def check_outcome(argv: list[str], status: int, out: str, err: str) -> None:
    """The contract of every case (module docstring)."""
    assert "Traceback" not in err, (argv, err)
    if status == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("evalgebra: error: "), (argv, err)
        return
    assert status in (0, 1), (argv, status, err)
    if "--json" in argv or argv[0] == "sketch" or "json" in argv:
        json.loads(out)


def run_and_check(argv: list[str], stdin: bytes = b"") -> int:
    status, out, err = run_cli(argv, stdin)
    check_outcome(argv, status, out, err)
    return status


# -- strategies ----------------------------------------------------------------------------------
NASTY_TEXT = st.sampled_from(
    [
        "",
        "a",
        "b",
        "c1",
        "٣",
        "²",
        "\ud800",
        "x" * 300,
        "-",
        "{",
        "NaN",
        "1e999999",
        "0e99999999",
        "a,b",
        "-1",
        "1/0",
        "0.5",
        "1/2",
        "complete",
        "independent",
        "0-1",
        "0-²",
        "٣-0",
        "c1-c2",
        "none",
        "\x00",
        "é",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    NASTY_TEXT,
    st.text(max_size=8),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


@st.composite
def mutated_sketch_text(draw) -> str:
    """Sketch JSON with a few values replaced or removed, then maybe damaged as text."""
    doc = json.loads(json.dumps(SKETCH))
    for _ in range(draw(st.integers(0, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()):
            parent[path[-1]] = draw(JSON_VALUES)
        elif isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), allow_nan=True)
    damage = draw(st.sampled_from(["none", "none", "truncate", "insert", "duplicate", "bigint", "nest"]))
    if damage == "truncate" and text:
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif damage == "insert":
        at = draw(st.integers(0, len(text)))
        text = (
            text[:at] + draw(st.sampled_from(["{", "]", ",", '"', "\\ud800", "1" * 5000, "NaN"])) + text[at:]
        )
    elif damage == "duplicate":
        text = text[:-1] + ', "labels": ["a", "b"]}'
    elif damage == "bigint":
        text = text.replace("5", "9" * draw(st.sampled_from([19, 21, 4301, 10_000])), 1)
    elif damage == "nest":
        text = "[" * 100_000 + text + "]" * 100_000
    return text


COMMANDS = st.sampled_from(
    [
        ["evaluate"],
        ["evaluate", "--json"],
        ["evaluate", "--method", "majority", "--json"],
        ["evaluate", "--method", "hui_walter"],
        ["evaluate", "--prevalence-range", "1/4", "3/4", "--json"],
        ["point"],
        ["point", "--json"],
        ["point", "--structure", "independent"],
        ["point", "--structure", "0-1"],
        ["alarm"],
        ["alarm", "--json"],
        ["alarm", "--non-strict", "--json"],
        ["alarm", "--subsets", "c1,c2;c3"],
    ]
)


@st.composite
def items_csv_text(draw) -> tuple[str, list[str]]:
    """An items CSV (names, cells, quotes, repeats, long cells) and the sketch flags for it."""
    names = draw(
        st.lists(
            st.sampled_from(["c1", "c2", "c3", "truth", "g", "", " c1", '"q"', "é", "٣"]),
            min_size=0,
            max_size=5,
        )
    )
    cells = st.sampled_from(["a", "b", "c", "", " a", '"a,b"', "\ud7ff", "x" * 200, '"unclosed'])
    rows = draw(st.lists(st.lists(cells, min_size=len(names), max_size=len(names) + 1), max_size=6))
    lines = [",".join(names)] + [",".join(row) for row in rows]
    if draw(st.booleans()):
        lines.append("a" * 140_000)
    flags: list[str] = []
    if draw(st.booleans()):
        flags += ["--truth", draw(st.sampled_from(["truth", "g", "c1", "zz"]))]
    if draw(st.booleans()):
        flags += ["--population", draw(st.sampled_from(["truth", "g", "zz"]))]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"])), flags


@st.composite
def labelled_items_csv(draw) -> tuple[str, list[str], list[tuple[list[str], str]]]:
    """Items with numeric or word label names, 2-4 labels, spaces and maybe a --labels order; the rows.

    The generator that found ``--chunk-rows`` reading label names as label positions (issue 21):
    ``--labels 1,0`` swapped every answer and the truth, and "0"/"1" became "a"/"b".
    """
    n_labels = draw(st.integers(2, 4))
    names = draw(
        st.sampled_from(
            [
                [str(k) for k in range(n_labels)],
                [str(k + 1) for k in range(n_labels)],
                ["10", "2", "1", "0"][:n_labels],
                ["no", "yes", "maybe", "٣"][:n_labels],
            ]
        )
    )
    n_classifiers = draw(st.integers(1, 3))
    answers = st.lists(st.sampled_from(names), min_size=n_classifiers, max_size=n_classifiers)
    rows = draw(st.lists(st.tuples(answers, st.sampled_from(names)), min_size=1, max_size=12))
    pad = draw(st.sampled_from(["", " "]))
    header = [f"{pad}m{k}{pad}" for k in range(n_classifiers)] + ["y"]
    lines = [",".join(header)] + [",".join(pad + c + pad for c in [*a, t]) for a, t in rows]
    flags = ["--truth", "y"]
    if draw(st.booleans()):
        flags += ["--labels", ",".join(draw(st.permutations(names)))]
    return "\n".join(lines) + draw(st.sampled_from(["\n", "\r\n", ""])), flags, rows


NUMBERS = st.one_of(
    st.integers(-3, 70).map(str), NASTY_TEXT, st.sampled_from(["1000000000", "999999999", "١٢"])
)
RATIONALS = st.one_of(
    NASTY_TEXT, st.sampled_from(["1/3", "0.75", "1e-3", "2/3", "1", "0", "9" * 60, "1e51", "٠.5"])
)


@st.composite
def flag_argv(draw, sketch_path: str) -> list[str]:
    """A command with option values drawn from valid and hostile ones.

    ``--force`` is never drawn: it lifts the size guards on purpose, so its runs may be long.
    """
    command = draw(st.sampled_from(["polys", "evaluate", "point", "alarm"]))
    if command == "polys":
        argv = ["polys", "--classifiers", draw(NUMBERS), "--labels", draw(NUMBERS)]
        options = {
            "--structure": NASTY_TEXT,
            "--populations": NUMBERS,
            "--format": st.sampled_from(["text", "latex", "json", "yaml"]),
            "--space": st.sampled_from("PRQ"),
        }
        flags = ["--expand"]
    else:
        argv = [command, draw(st.sampled_from([sketch_path, "-", "/dev/zero", "/nonexistent", "{odd}.json"]))]
        options = {"--max-input-bytes": st.sampled_from(["10", "1M", "0", "5X", "٣"])}
        flags = ["--json", "--fail-on-alarm"]
        if command == "evaluate":
            options.update(
                {
                    "--method": st.sampled_from(["algebraic", "majority", "hui_walter", "x"]),
                    "--classifiers": st.sampled_from(["c1,c2,c3", "c1", "zz", ",", "c1,c1,c2"]),
                }
            )
        elif command == "point":
            options.update({"--structure": NASTY_TEXT, "--population": NASTY_TEXT})
        else:
            options.update(
                {
                    "--min-accuracy": RATIONALS,
                    "--min-total-accuracy": RATIONALS,
                    "--subsets": st.sampled_from(["c1,c2", ";", "c1;zz", "c1,c2,c3;c1"]),
                }
            )
            flags.append("--non-strict")
    for option in draw(st.lists(st.sampled_from(sorted(options)), max_size=3, unique=True)):
        argv += [option, draw(options[option])]
    argv += draw(st.lists(st.sampled_from(flags), max_size=2, unique=True))
    if command == "evaluate" and draw(st.booleans()):
        argv += ["--prevalence-range", draw(RATIONALS), draw(RATIONALS)]
    return argv


# -- the suite -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "sketch.json").write_text(json.dumps(SKETCH), encoding="utf-8")
    return folder


@FUZZ
@given(text=mutated_sketch_text(), command=COMMANDS, via_stdin=st.booleans())
def test_fuzz_sketch_json(workdir, text, command, via_stdin):
    if via_stdin:
        run_and_check([command[0], "-", *command[1:]], text.encode("utf-8", "surrogatepass"))
    else:
        path = workdir / "case.json"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        run_and_check([command[0], str(path), *command[1:]])


@FUZZ
@given(case=items_csv_text(), chunk=st.integers(1, 4))
def test_fuzz_items_csv(workdir, case, chunk):
    """Hostile CSV text: one result or one error line, the same whether read whole or in chunks."""
    text, flags = case
    path = workdir / "items.csv"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    whole = run_cli(["sketch", str(path), *flags])
    check_outcome(["sketch"], *whole)
    assert run_cli(["sketch", str(path), *flags, "--chunk-rows", str(chunk)]) == whole


@FUZZ
@given(case=labelled_items_csv(), chunk=st.integers(1, 5))
def test_fuzz_labelled_items_csv_whole_and_chunked(workdir, case, chunk):
    """Numeric label names and label counts: whole and chunked reads agree, with the counts made by hand."""
    text, flags, rows = case
    path = workdir / "labelled.csv"
    path.write_text(text, encoding="utf-8")
    whole = run_cli(["sketch", str(path), *flags])
    check_outcome(["sketch"], *whole)
    assert run_cli(["sketch", str(path), *flags, "--chunk-rows", str(chunk)]) == whole
    seen = sorted({x for a, t in rows for x in [*a, t]})
    given_order = flags[flags.index("--labels") + 1].split(",") if "--labels" in flags else None
    if given_order is None and len(seen) < 2:
        assert whole[0] == 2 and "only one label seen" in whole[2]
        return
    assert whole[0] == 0, whole[2]
    doc = json.loads(whole[1])
    assert doc["labels"] == (given_order or seen)
    expected = Counter((tuple(a), t) for a, t in rows)
    got = {(tuple(c["decisions"]), t): c["count"] for t, cells in doc["by_true_label"].items() for c in cells}
    assert got == dict(expected)


@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_fuzz_flags(workdir, data):
    argv = data.draw(flag_argv(str(workdir / "sketch.json")))
    run_and_check(argv, json.dumps(SKETCH).encode())


OUTPUT_COMMANDS = {
    "sketch": ["sketch", "ITEMS", "-o"],
    "merge": ["merge", "QUIET", "QUIET", "-o"],
    "alarm": ["alarm", "QUIET", "--min-accuracy", "1/3", "--witness"],
}


@settings(FUZZ, max_examples=30)
@given(
    kind=output_kinds(),
    command=st.sampled_from(sorted(OUTPUT_COMMANDS)),
    name=st.sampled_from(["out.json", "é ü.json", ".hidden", "x"]),
)
def test_fuzz_output_targets(tmp_path_factory, kind, command, name):
    """Whatever ``-o`` or ``--witness`` names, its node keeps its kind (a FIFO, a device, a link),
    or the command refuses it in one line and leaves it as it was."""
    folder = tmp_path_factory.mktemp("output")
    (folder / "items.csv").write_text("c1,c2,c3\na,a,b\nb,b,b\na,b,a\n")
    quiet = Sketch.from_counts(
        {"aaa": 8, "aab": 4, "aba": 5, "abb": 3, "baa": 4, "bab": 5, "bba": 3, "bbb": 10}, labels=["a", "b"]
    )
    quiet.write_json(folder / "quiet.json")
    try:
        path = make_output_node(folder, kind, name)
    except NodeUnavailable:
        return  # this system forbids the node (no CAP_MKNOD, a nodev mount): nothing to check
    before = node_state(path)
    argv = [
        {"ITEMS": str(folder / "items.csv"), "QUIET": str(folder / "quiet.json")}.get(a, a)
        for a in OUTPUT_COMMANDS[command]
    ] + [str(path)]
    seen: dict[str, str] = {}

    def write(target):
        status, out, err = run_cli(argv)
        seen["out"] = out
        if status == 2:
            check_outcome(argv, status, out, err)
            raise EvalgebraError(err.strip())
        assert status == 0 and "Traceback" not in err, (argv, status, err)

    error, fifo_data = write_and_observe(path, write)
    written = check_output_kept(kind, path, before, error, fifo_data, folder)
    if kind == "standard output":
        written = seen["out"][seen["out"].index('{\n  "format"') :]
    if written is not None:
        assert Sketch.from_json(written).is_labelled == (command == "alarm")


def test_fuzz_contract_can_fail():
    """The checks reject a traceback, a second error line and JSON that does not parse."""
    with pytest.raises(AssertionError):
        check_outcome(["evaluate"], 2, "", "Traceback (most recent call last):\n")
    with pytest.raises(AssertionError):
        check_outcome(["evaluate"], 2, "", "usage: evalgebra\nevalgebra: error: x\n")
    with pytest.raises(ValueError):
        check_outcome(["evaluate", "--json"], 0, "{", "")
    stop = _limited(cpu=0.3)
    try:
        with pytest.raises(CaseTimeout, match="processor"):
            end = time.monotonic() + 10
            while time.monotonic() < end:  # busy: processor time passes
                pass
    finally:
        stop()
    stop = _limited(wall=0.3)
    try:
        with pytest.raises(CaseTimeout, match="wall-clock"):
            time.sleep(5)
    finally:
        stop()


SUBPROCESS_CASES = [
    (["point", "/dev/zero"], None),
    (["alarm", "SKETCH", "--min-accuracy", "0e99999999"], None),
    (["polys", "--classifiers", "30", "--labels", "5"], None),
    (["polys", "--structure", "0-²", "--classifiers", "3", "--labels", "2"], None),
    (
        ["evaluate", "-", "--method", "majority"],
        '{"format": "evalgebra.sketch/1", "labels": ["a", "\\ud800"], '
        '"classifiers": ["c1"], "counts": [{"decisions": ["a"], "count": 1}]}',
    ),
    (["evaluate", "SKETCH", "--json"], None),
]


@pytest.mark.parametrize("argv, stdin", SUBPROCESS_CASES)
def test_fuzz_real_process(workdir, argv, stdin):
    """A few cases through ``python -m evalgebra``: the same contract in a real process."""
    argv = [str(workdir / "sketch.json") if a == "SKETCH" else a for a in argv]
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "evalgebra", *argv],
        input=(stdin or "").encode(),
        capture_output=True,
        timeout=CASE_SECONDS + 10,
        env=env,
    )
    check_outcome(argv, done.returncode, done.stdout.decode(), done.stderr.decode("utf-8", "replace"))
