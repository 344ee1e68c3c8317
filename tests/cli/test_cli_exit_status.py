"""The exit statuses the command-line guide and ``evalgebra --help`` list are the ones the commands return.

Each clause of the list in ``docs/guide/cli.md`` is paired with a command that should end with
that status; the clause must be on that page (whitespace aside) and the command must return the
status.
``--min-accuracy`` alone is the case the list once left out: ``evaluate`` checks it (status 1
when the chosen point misses it or has none), ``alarm`` only reports against it (status 0).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from evalgebra.cli import build_parser, main
from evalgebra.data.sketch import Sketch

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "cli.md"

#: c2's accuracy on b is exactly 1/2 at the chosen point; every other one is above 1/3.
AT_ONE_HALF = dict(
    zip(("".join(p) for p in itertools.product("ab", repeat=3)), [84, 36, 51, 39, 68, 52, 77, 73])
)
#: No labelled test lets all three be above 1/3: the alarm fires.
TRIO = {"abb": 1, "bab": 1, "bba": 1, "bbb": 3}
#: Vanishing covariances the independent model cannot produce: no point is chosen.
NO_POINT = {"aaa": 5, "abb": 5, "bab": 5, "bba": 5}

#: (the guide's words, the command, its status, a line it must print on standard error or None)
CLAUSES = [
    ("0 (done)", ["evaluate", "HALF", "--min-accuracy", "1/3"], 0, None),
    (
        "one named by `--fail-on` or `--fail-on-alarm`",
        ["alarm", "TRIO", "--min-accuracy", "1/3", "--fail-on", "fires"],
        1,
        None,
    ),
    (
        "one named by `--fail-on` or `--fail-on-alarm`",
        ["alarm", "TRIO", "--min-accuracy", "1/3", "--fail-on-alarm"],
        1,
        None,
    ),
    (
        "the check of `evaluate --min-accuracy X`, which runs without `--fail-on` too and fails when the "
        "chosen point is not above X on every label",
        ["evaluate", "HALF", "--min-accuracy", "1/2"],
        1,
        "c2 accuracy on b = 1/2 (0.5) is not above 1/2",
    ),
    (
        "or has no defined accuracy",
        ["evaluate", "NONE", "--min-accuracy", "0", "--no-fit"],
        1,
        "no point chosen",
    ),
    (
        "a `--fail-on` that omits `below_spec` turns it into a report on standard error",
        ["evaluate", "HALF", "--min-accuracy", "1/2", "--fail-on", "complex"],
        0,
        "is not above 1/2",
    ),
    (
        "`alarm --min-accuracy X` alone only sets the specification: it exits 0 whatever the verdicts",
        ["alarm", "TRIO", "--min-accuracy", "1/3"],
        0,
        None,
    ),
    (
        "2 (an error, one line)",
        ["evaluate", "HALF", "--fail-on", "below_spec"],
        2,
        "evalgebra: error: --fail-on below_spec needs --min-accuracy X",
    ),
]


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def sketches(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("status")
    paths = {}
    for name, counts in (("HALF", AT_ONE_HALF), ("TRIO", TRIO), ("NONE", NO_POINT)):
        paths[name] = str(folder / f"{name}.json")
        Sketch.from_counts(counts, labels=["a", "b"]).write_json(paths[name])
    return paths


@pytest.mark.parametrize("clause, argv, status, line", CLAUSES)
def test_guide_exit_statuses_are_the_real_ones(capsys, sketches, clause, argv, status, line):
    assert _words(clause) in _words(GUIDE.read_text(encoding="utf-8")), clause
    try:
        got = main([sketches.get(a, a) for a in argv])
    except SystemExit as exc:  # argparse refuses a value
        got = exc.code
    err = capsys.readouterr().err
    assert got == status, (argv, got, err)
    if line is not None:
        assert line in err, err
    if status == 2:
        assert len(err.splitlines()) == 1


def test_help_epilog_lists_the_same_statuses():
    epilog = _words(build_parser().epilog or "")
    for words in (
        "0 done",
        "1 a check failed",
        "--fail-on or --fail-on-alarm",
        "evaluate --min-accuracy X, on by itself",
        "alarm --min-accuracy X alone exits 0",
        "2 an error",
    ):
        assert words in epilog, words


def test_guide_clauses_check_can_fail(capsys, sketches):
    """The pairing rejects a status the guide does not give: alarm --min-accuracy alone is not 1."""
    with pytest.raises(AssertionError):
        test_guide_exit_statuses_are_the_real_ones(capsys, sketches, CLAUSES[-2][0], CLAUSES[-2][1], 1, None)
