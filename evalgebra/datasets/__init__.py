r"""Small example data bundled with evalgebra (no network needed).

=================  ===========================================================
name               what it is
=================  ===========================================================
acs_employment     Three binary classifiers on 20,000 people of the 2018
                   American Community Survey (employment task); counts of the
                   8 decision patterns split by true label. *Algebraic
                   Evaluation Theorems*, Table 1 ("actual" columns). Labels
                   ``a``, ``b``; classifiers ``c1, c2, c3``.
bigbench_mistake   Three LLM graders (Claude Haiku, Mistral Large, GPT4-Turbo)
                   judging PaLM2's answers to 281 multistep-arithmetic problems
                   of BIG-Bench-Mistake; counts of the 8 decision patterns
                   split by true label. *A logical alarm for misaligned
                   binary classifiers*, Table 2. Labels ``a``
                   ("incorrect"), ``b`` ("correct"); classifiers
                   ``claude_haiku, mistral_large, gpt4_turbo``.
=================  ===========================================================

Generated data with a known truth, made in code from a seed: :mod:`evalgebra.datasets.judges`
(``llm_judges``: five LLM judges grading pass/fail, two of whom abstain, ``"unsure"`` or
nothing, more often on hard answers) and :mod:`evalgebra.datasets.preferences`
(``judge_preferences``: four LLM judges saying which of two responses is better, ``A``, ``B`` or
``tie``, two of whom abstain).

Each sketch is stored as sketch JSON v1 (``<name>.json``); ``acs_employment`` also as
a per-item CSV (``acs_employment_items.csv``: one column per classifier and a
``truth`` column) rebuilt from those counts, so the item order is not the survey's.

Notes
-----
*Algebraic Evaluation Theorems* prints Table 1 with its rows in the order AAA, AAB, ABA,
BAA, BBA, BAB, ABB, BBB, so its observed counts ("568, 553, 649, 1813, 3534, 3607, 1068,
8208") are in that row order, not in lexicographic pattern order.
Read lexicographically the sketch has a negative discriminant (complex evaluations);
read with the table's row labels the algebraic prevalence estimate is 0.0887, which
matches the table's algebraic-evaluation column (1776 of 20000 items labelled A). The
bundled files use the table's row labels (``docs/theory.md#notes-on-the-printed-sources``).

*A logical alarm for misaligned binary classifiers* prints Table 2 with rows AAA, AAB,
ABA, BAA, BBA, BAB, ABB, BBB and one column per true label; a row's letters are the
graders' answers in the caption's order (Claude Haiku, Mistral Large, GPT4-Turbo). That
order is confirmed by the paper's own marginals (its eqs. 35-40: the graders answered A
146, 27 and 234 times). ``Q = 281`` (the task has 300 problems; the test the paper
evaluates has 281 items, Figure 1), ``Q_a = 237``.

Examples
--------
>>> from evalgebra import datasets
>>> datasets.names()
('acs_employment', 'bigbench_mistake')
>>> sk = datasets.load("acs_employment")
>>> sk.Q, sk.counts()[("b", "b", "a")]
(20000, 3534)

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Table 1 (ACS employment,
   Q = 20000).
.. [2] A. Corrada-Emmanuel, I. Parker and R. Bharadwaj, "A logical alarm for misaligned
   binary classifiers", arXiv:2409.11052: appendix A.3, Table 2 (BIG-Bench-Mistake
   multistep arithmetic, Q = 281).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

__all__ = ["names", "load", "path", "items_csv"]

_DATASETS = {
    "acs_employment": "acs_employment.json",
    "bigbench_mistake": "bigbench_mistake.json",
}
_ITEMS = {
    "acs_employment": "acs_employment_items.csv",
}


def names() -> tuple[str, ...]:
    """Names of the bundled sketches."""
    return tuple(sorted(_DATASETS))


def _resource(filename: str) -> Path:
    return Path(str(resources.files(__name__).joinpath(filename)))


def path(name: str) -> Path:
    """Path of a bundled sketch's JSON file."""
    if name not in _DATASETS:
        raise SketchError(f"no bundled dataset {name!r}; available: {list(names())}")
    return _resource(_DATASETS[name])


def items_csv(name: str) -> Path:
    """Path of a bundled per-item CSV (one column per classifier, plus ``truth``)."""
    if name not in _ITEMS:
        raise SketchError(f"no per-item CSV for {name!r}; available: {sorted(_ITEMS)}")
    return _resource(_ITEMS[name])


def load(name: str) -> Sketch:
    """Load a bundled sketch."""
    return Sketch.read_json(path(name))
