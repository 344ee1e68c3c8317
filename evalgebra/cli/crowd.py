r"""``evalgebra crowd ANSWERS``: fit a crowd (``task, worker, label`` rows) and write its labels and workers.

The answers are a long CSV or JSON lines (``{"item": ..., "judge": ..., "label": ...}``);
``--task``, ``--worker`` and ``--label`` name the columns (keys). The fit is
:func:`~evalgebra.crowd.fit.crowd_fit`: Dawid-Skene EM to a stated tolerance, from the
algebraic estimate and from majority vote, the run of the larger likelihood kept, with the
``--gold`` answers held fixed. It prints a summary (standard error when ``-o -`` puts the
labels on standard output), closed by the panel's agreement
(:func:`~evalgebra.crowd.agreement.panel_agreement`: Krippendorff's alpha, Fleiss' kappa, every
pair's Cohen's kappa, the ``--abstain`` answers counted as missing), and writes

- ``-o LABELS.csv``: ``task,label,p_<label>...``, whatever the input's columns are called:
  every task's most probable label and its posterior for every label;
- ``--workers WORKERS.csv``: ``worker,truth,tasks,p_<r>...,n_<r>...``, one row per worker and
  true label, ``r`` over the labels then the ``--abstain`` answers: the confusion-matrix row
  ``p_<r> = P(answer r | truth)`` and the answers behind it, ``n_<r>`` (the expected number of
  the worker's answers ``r`` on tasks of that truth; exact counts on gold tasks) and ``tasks``
  (their sum);
- ``--agreement AGREEMENT.json``: the agreement statistics as JSON (``evalgebra.agreement/1``),
  each as a float and an exact fraction with the tasks and values behind it.

What was done to messy rows (missing values, repeated pairs), to the gold (tasks not in the
answers, labels no worker gave) and to the starts (one that failed) is said on standard
error, one ``evalgebra: ...`` line each.

Examples
--------
>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> from evalgebra.datasets.crowd import sparse_crowd
>>> data = sparse_crowd(seed=0, n_tasks=400, n_workers=12, per_task=4)
>>> _ = (folder / "answers.csv").write_text(
...     "item,annotator,answer\n" + "".join(f"{t},{w},{r}\n" for t, w, r in data.records())
... )
>>> from evalgebra.cli import main
>>> status = main(["crowd", str(folder / "answers.csv"), "--task", "item", "--worker", "annotator",
...                "--label", "answer", "-o", str(folder / "labels.csv")])  # doctest: +ELLIPSIS
Crowd: 400 tasks, 12 workers, 1600 answers, labels a, b, c
...
>>> (folder / "labels.csv").read_text().splitlines()[0]
'task,label,p_a,p_b,p_c'
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import TYPE_CHECKING, Any

from evalgebra.cli.args import count, input_options, read_input
from evalgebra.crowd.agreement import Agreement, panel_agreement
from evalgebra.crowd.em import CROWD_TOLERANCE, MAX_ITERATIONS
from evalgebra.crowd.files import FORMATS, read_answers, read_gold
from evalgebra.errors import SketchError, SpecError
from evalgebra.fileio import write_output

if TYPE_CHECKING:
    from evalgebra.crowd.fit import CrowdFit

__all__ = ["register", "run", "labels_csv", "workers_csv", "agreement_json", "AGREEMENT_FORMAT"]

#: The ``format`` field of ``--agreement`` JSON.
AGREEMENT_FORMAT = "evalgebra.agreement/1"


def _csv(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _number(value: float) -> str:
    return repr(float(value))


def labels_csv(fit: CrowdFit) -> str:
    r"""``task,label,p_<label>...``: every task's most probable label and its posteriors, as CSV text.

    >>> from evalgebra.crowd.fit import crowd_fit
    >>> rows = [(f"t{t}", f"w{w}", "ab"[(t + (w == t % 4)) % 2]) for t in range(40) for w in range(4)]
    >>> print(labels_csv(crowd_fit(rows)).splitlines()[0])
    task,label,p_a,p_b
    """
    header = ["task", "label", *(f"p_{ell}" for ell in fit.labels)]
    rows: list[list[Any]] = [header]
    for name, label, post in zip(fit.tasks, fit.task_labels(), fit.posteriors.tolist()):
        rows.append([name, label, *(_number(p) for p in post)])
    return _csv(rows)


def workers_csv(fit: CrowdFit) -> str:
    r"""``worker,truth,tasks,p_<label>...,n_<label>...``: every worker's confusion matrix and the answers
    behind it, one row per true label, as CSV text.

    >>> from evalgebra.crowd.fit import crowd_fit
    >>> rows = [(f"t{t}", f"w{w}", "ab"[(t + (w == t % 4)) % 2]) for t in range(40) for w in range(4)]
    >>> print(workers_csv(crowd_fit(rows)).splitlines()[0])
    worker,truth,tasks,p_a,p_b,n_a,n_b
    """
    header = [
        "worker",
        "truth",
        "tasks",
        *(f"p_{r}" for r in fit.responses),
        *(f"n_{r}" for r in fit.responses),
    ]
    rows: list[list[Any]] = [header]
    for k, worker in enumerate(fit.workers):
        for j, truth in enumerate(fit.labels):
            counts = fit.expected[k, j]
            rows.append(
                [
                    worker,
                    truth,
                    _number(counts.sum()),
                    *(_number(p) for p in fit.rows[k, j]),
                    *(_number(n) for n in counts),
                ]
            )
    return _csv(rows)


def agreement_json(result: Agreement) -> str:
    r"""The agreement statistics as ``evalgebra.agreement/1`` JSON text.

    >>> from evalgebra.crowd.table import crowd_table
    >>> rows = [(t, w, "ab"[(t + (w == 0)) % 2]) for t in range(4) for w in range(3)]
    >>> import json
    >>> json.loads(agreement_json(panel_agreement(crowd_table(rows))))["fleiss_kappa"]
    {'value': -0.3333333333333333, 'exact': '-1/3', 'raters': 3, 'tasks': 4}
    """
    return json.dumps({"format": AGREEMENT_FORMAT, **result.to_dict()}, indent=2) + "\n"


def _labels(text: str | None) -> list[str] | None:
    if text is None:
        return None
    labels = [name.strip() for name in text.split(",")]
    if len(labels) < 2 or not all(labels) or len(set(labels)) != len(labels):
        raise SketchError(f"--labels {text!r}: give at least two distinct label names separated by commas")
    return labels


def _say(text: str) -> None:
    print(f"evalgebra: {text}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Read the answers (and gold), fit the crowd, print the summary, write the files; the exit status."""
    from evalgebra.crowd.fit import crowd_fit  # the evaluators and SciPy: loaded only to fit

    if args.output == "-" and args.agreement == "-":
        raise SpecError("-o - and --agreement - both write to standard output: give one of them a file")
    text = read_input(args.answers, args.max_input_bytes, "answers file")
    crowd = read_answers(
        text,
        task=args.task,
        worker=args.worker,
        label=args.label,
        labels=_labels(args.labels),
        format=args.format,
        name=args.answers,
        missing=args.missing,
        duplicates=args.duplicates,
    )
    for line in crowd.report:
        _say(line)
    gold = None
    if args.gold is not None:
        gold = read_gold(
            read_input(args.gold, args.max_input_bytes, "gold file"),
            task=args.task,
            label=args.label,
            name=args.gold,
        )
    fit = crowd_fit(
        crowd.table,
        gold=gold,
        abstain=args.abstain or (),
        tolerance=args.tol,
        max_iterations=args.max_iter,
        seed=args.seed,
    )
    for note in fit.notes:
        _say(note)
    if not fit.converged:
        _say(f"EM did not converge in {args.max_iter} steps; raise --max-iter")
    panel = panel_agreement(crowd.table, abstain=args.abstain or ())
    summary = fit.summary(notes=False) + "\n" + panel.summary() + "\n"  # the notes went to standard error
    if "-" in (args.output, args.agreement):  # a file on standard output: the summary beside it
        sys.stderr.write(summary)
    else:
        sys.stdout.write(summary)
    if args.output is not None:
        write_output(args.output, labels_csv(fit))
    if args.workers is not None:
        write_output(args.workers, workers_csv(fit))
    if args.agreement is not None:
        write_output(args.agreement, agreement_json(panel))
    for what, path in (("labels", args.output), ("workers", args.workers)):
        if path not in (None, "-"):
            _say(f"wrote {path}: {what} of {len(fit.tasks) if what == 'labels' else len(fit.workers)}")
    if args.agreement not in (None, "-"):
        _say(f"wrote {args.agreement}: the agreement of {len(fit.workers)} workers")
    return 0


def _tolerance(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 <= number < 1:
        raise argparse.ArgumentTypeError(f"{value[:40]!r}: need a number in [0, 1) (e.g. 1e-8)")
    return number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``crowd`` command to the subcommands ``sub``; its parser."""
    crowd = sub.add_parser(
        "crowd",
        help="fit a crowd of task, worker, label answers (CSV or JSON lines): labels and workers",
        description="Fit a crowd (each worker answers some tasks) by Dawid-Skene EM to a stated "
        "tolerance, from the algebraic estimate and from majority vote (the larger likelihood "
        "wins); --gold holds known answers fixed. Prints a summary; -o writes every task's "
        "label and posteriors, --workers every worker's confusion matrix.",
    )
    crowd.add_argument(
        "answers",
        metavar="ANSWERS",
        help="a CSV with a header row, or JSON lines (one object per answer); '-': standard input",
    )
    crowd.add_argument(
        "--task", default="task", metavar="COLUMN", help="the task column or key (default task)"
    )
    crowd.add_argument(
        "--worker", default="worker", metavar="COLUMN", help="the worker column or key (default worker)"
    )
    crowd.add_argument(
        "--label", default="label", metavar="COLUMN", help="the label column or key (default label)"
    )
    crowd.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="the input format (default: by the extension, .jsonl/.ndjson/.json or .csv, else by the "
        "first character: '{' is JSON lines)",
    )
    crowd.add_argument(
        "--labels",
        metavar="A,B,...",
        help="every label name in order (default: the sorted names seen); other answers are refused",
    )
    crowd.add_argument(
        "-o",
        "--output",
        metavar="LABELS.csv",
        help="write task,label,p_<label>... here ('-': standard output; the summary then goes to "
        "standard error)",
    )
    crowd.add_argument(
        "--workers",
        metavar="WORKERS.csv",
        help="write worker,truth,tasks,p_<label>...,n_<label>... here: each worker's confusion-matrix "
        "row per true label and the expected answer counts behind it",
    )
    crowd.add_argument(
        "--agreement",
        metavar="AGREEMENT.json",
        help="write the agreement statistics here as JSON ('-': standard output; the summary then goes "
        "to standard error): Krippendorff's alpha, Fleiss' kappa (on the "
        "tasks with the most common number of answers) and every pair's Cohen's kappa, each a float "
        "and an exact fraction; --abstain answers count as missing",
    )
    crowd.add_argument(
        "--gold",
        metavar="GOLD.csv",
        help="known answers, task,label rows (CSV or JSON lines; the --task and --label names work "
        "too): held fixed in the estimation. Gold tasks without answers are ignored, labels no "
        "worker gave are added; both are said on standard error",
    )
    crowd.add_argument(
        "--abstain",
        metavar="NAME",
        action="append",
        default=None,
        help="an answer that is no label (e.g. unsure): never a correct answer, its rate per true "
        "label estimated like the others; repeat for more",
    )
    crowd.add_argument(
        "--missing",
        choices=("error", "drop"),
        default="error",
        help="answers with a missing task, worker or label: error (default) or drop them (how many "
        "is said on standard error)",
    )
    crowd.add_argument(
        "--duplicates",
        choices=("error", "first", "last", "drop"),
        default="error",
        help="a worker answering a task more than once: error (default), keep the first or the last "
        "answer, or drop all of them (how many is said on standard error)",
    )
    crowd.add_argument(
        "--tol",
        type=_tolerance,
        default=CROWD_TOLERANCE,
        metavar="TOL",
        help=(
            f"EM stops when a round gains less than TOL log-likelihood per task (default {CROWD_TOLERANCE:g})"
        ),
    )
    crowd.add_argument(
        "--max-iter",
        type=lambda v: count(v, 0),
        default=MAX_ITERATIONS,
        metavar="STEPS",
        help=f"at most this many EM steps per start (default {MAX_ITERATIONS}; 0: the better start itself)",
    )
    crowd.add_argument(
        "--seed", type=lambda v: count(v, 0), default=0, help="seed of the algebraic start's worker groups"
    )
    input_options(crowd)
    crowd.set_defaults(run=run)
    return crowd
