r"""The ``evalgebra`` command line.

Commands
--------
``evalgebra example``
    The main job on bundled data: sketch the ACS employment items, print their exact
    evaluation point and the complete generating set, and check that the set reproduces
    the sketch exactly.
``evalgebra sketch ITEMS.csv [--truth COLUMN] [--population COLUMN] [-o OUT.json]``
    Count an items CSV (header row, one column per classifier) into sketch JSON v1.
``evalgebra point SKETCH.json [--structure S] [--population P] [--json] [--force]``
    The exact evaluation point of a labelled sketch.
``evalgebra polys --classifiers N --labels R [OPTIONS]``
    ``OPTIONS``: ``[--structure S] [--space P|R] [--populations K] [--format text|latex|json]``
    ``[--expand] [--force]``. Print the generating set.
``evalgebra evaluate SKETCH.json [OPTIONS]``
    ``OPTIONS``: ``[--method algebraic|majority|hui_walter] [--classifiers C,...]``
    ``[--prevalence-range LO HI] [--prevalence-order a,b,c] [--known-prevalences a=1/2,...]``
    ``[--min-accuracy X [--non-strict]] [--fail-on KINDS] [--fail-on-alarm] [--json] [--force]``.
    Evaluate the ensemble from its sketch alone (the answer key, if any, is ignored), any
    number of labels: every candidate evaluation exactly, the decoded one (marked
    ``(chosen)``, with its response rows when there are three or more labels), the partition
    of the counts by true label and the alarms; ``--json`` prints ``evalgebra.evaluation/1``
    (``response`` rows per classifier next to ``accuracy``). The estimate-based gate:
    ``--min-accuracy X`` checks that the chosen point puts every classifier above ``X`` on
    every label (at least ``X`` with ``--non-strict``) and ``--fail-on below_spec,irrational,...``
    exits with status 1 on a failed check or a named alarm kind.
``evalgebra alarm SKETCH.json [OPTIONS]``
    ``OPTIONS``: ``[--min-accuracy 1/2] [--min-total-accuracy X] [--non-strict] [--subsets S]``
    ``[--witness OUT.json] [--verdicts-only] [--accuracy] [--fail-on fires,undecided]``
    ``[--fail-on-alarm] [--json]``.
    The exact logical alarm for every subset of the ensemble, any number of labels: each
    subset FIRES (a checked certificate proves that at least one member misses the
    specification, whatever the answer key), is quiet (a checked witness: an answer key under
    which all meet it; ``--witness`` writes it as a labelled sketch) or UNDECIDED; ``--json``
    prints ``evalgebra.alarm/1``.

With ``--fail-on-alarm`` a raised alarm (evaluate) or a firing subset (alarm) exits with status 1;
``--fail-on`` names what does. ``--strict``, the former spelling, still works and warns: "strict"
means one thing, a strict inequality (``above X``; ``--non-strict`` is ``at least X``).
The default ``--structure`` is ``independent`` in every command (``point``, ``polys``,
``evaluate``); ``--version`` prints the version. When the reader of the output closes it early
(``evalgebra ... | head -1``) the command stops quietly with status 141 (128 + SIGPIPE, as
``cat`` or ``grep`` there).

Errors in the input print one line ``evalgebra: error: ...`` and exit with status 2. Input
paths are paths (``-`` reads standard input); items CSVs are streamed (bounded memory), other
inputs read up to ``--max-input-bytes`` (64M by default);
numbers are ASCII and bounded before they are built (:mod:`evalgebra.cli.args`); requests that
would not end within seconds are refused with the limit and the way around it, ``--force``
among them (:mod:`evalgebra.cli.guards`: polynomials and products of ``polys``, trios of
``evaluate``, correlation values of ``point``). Names that are not valid Unicode text (lone
surrogates) are refused on input, so output never needs to escape them.

One module per command (:mod:`~evalgebra.cli.example`, :mod:`~evalgebra.cli.sketch`,
:mod:`~evalgebra.cli.point`, :mod:`~evalgebra.cli.polys`, :mod:`~evalgebra.cli.evaluate`,
:mod:`~evalgebra.cli.alarm`), each with ``register(sub)`` (its options) and ``run(args)``;
:mod:`evalgebra.cli.app` assembles the parser and runs :func:`main`.

Examples
--------
>>> main(["polys", "--classifiers", "1", "--labels", "2"])
f_a = acc_0_a*prev_a + (1 - acc_0_b)*(1 - prev_a)
f_b = acc_0_b*(1 - prev_a) + prev_a*(1 - acc_0_a)
0
"""

from evalgebra.cli.alarm import FEASIBLE_SHOWN, FIRES_LINE, QUIET_LINE, UNDECIDED_LINE, format_alarm
from evalgebra.cli.app import build_parser, main
from evalgebra.cli.args import structure_value
from evalgebra.cli.evaluate import format_evaluation
from evalgebra.cli.point import format_point

__all__ = [
    "main",
    "build_parser",
    "format_point",
    "format_evaluation",
    "format_alarm",
    "FEASIBLE_SHOWN",
    "FIRES_LINE",
    "QUIET_LINE",
    "UNDECIDED_LINE",
]

#: Kept for callers of the former private helper: the structure syntax of ``--structure``.
_structure_arg = structure_value
