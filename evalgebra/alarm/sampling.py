r"""Possible evaluations: count and sample, uniformly, the labelled tests a subset allows.

The labelled tests consistent with a sketch under which every member of a subset meets a
:class:`~evalgebra.alarm.safety.SafetySpec` are the integer points of the subset's program
(:mod:`evalgebra.alarm.program`): splits ``n[d, l] >= 0`` of the observed counts, ``sum_l
n[d, l] = n_d``, meeting every row. Two exact ways to draw from them uniformly:

* **exact** (:func:`count_labelled_tests` and the ``"exact"`` method): dynamic programming
  over the patterns. After the first ``k`` patterns are split, all a row can see is the
  vector of its terms' partial sums (each member's correct count per label, each label's
  count), so the splits are counted by the number of ways to reach each such *state*, and a
  backward pass gives, for every state, the number of completions meeting every row. A draw
  walks the patterns in order and picks each pattern's split with probability (completions
  after it) / (completions before it), with Python integers: every labelled test comes out
  with probability exactly ``1 / count``. The states are bounded by ``max_states``, so this
  is for small tests (a few dozen items, a few patterns).
* **rejection** (any size): each pattern's split is a uniform composition of ``n_d`` into
  ``R`` parts (stars and bars: ``R - 1`` bars among ``n_d + R - 1`` places), independently,
  which is uniform over all splits (they form a product); a split is kept when it meets every
  row, checked exactly. Kept splits are uniform on the feasible ones. The acceptance rate is
  the feasible share of all splits and can be tiny: after ``max_tries`` draws the sample is
  returned short and says so.

``method="auto"`` uses the exact one when its states fit, rejection otherwise.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> from evalgebra.alarm.safety import SafetySpec
>>> sk = Sketch.from_counts({"aa": 3, "ab": 1, "bb": 2}, labels=["a", "b"])
>>> draw = sample_labelled_tests(sk, ["c0", "c1"], SafetySpec("1/2"), size=5, seed=1)
>>> draw.method, draw.count, len(draw.witnesses)
('exact', 4, 5)
>>> all(check_witness(draw.program, w) for w in draw.witnesses)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evalgebra.alarm.certificates import Witness, check_witness
from evalgebra.alarm.program import Program, Term, build_program
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.seeds import check_seed

__all__ = ["Draw", "count_labelled_tests", "sample_program", "sample_labelled_tests", "MAX_STATES"]

#: Most states (per pattern) the exact count keeps before it gives up (returns None).
MAX_STATES = 50_000
#: Rejection draws per requested sample before a short sample is returned.
MAX_TRIES = 200


@dataclass(frozen=True)
class Draw:
    """Uniform draws of a subset's labelled tests.

    Attributes
    ----------
    program : Program
        The subset's program (its members, patterns and rows).
    witnesses : tuple of Witness
        The drawn labelled tests, each checked exactly (may be fewer than asked: ``tries``).
    method : str
        ``"exact"`` (dynamic programming) or ``"rejection"``.
    count : int or None
        How many labelled tests there are (``"exact"`` only).
    tries : int
        Splits drawn (rejection: accepted ones are ``len(witnesses)``).
    """

    program: Program
    witnesses: tuple[Witness, ...]
    method: str
    count: int | None
    tries: int


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _terms(program: Program) -> list[Term]:
    found: list[Term] = []
    for row in program.rows:
        for term, _ in row.terms:
            if term not in found:
                found.append(term)
    return found


class _Counter:
    """Completions per state, layer by layer (the module notes)."""

    def __init__(self, program: Program, max_states: int) -> None:
        self.program = program
        terms = _terms(program)
        r = program.n_labels
        self.complete = all(math.comb(count + r - 1, r - 1) <= max_states for count in program.counts)
        if not self.complete:
            return
        # contribution of n[d, l] = 1 to each term: column d * r + l of the coefficient matrix
        columns = [program.coefficients(t) for t in terms]
        self.splits = [list(_compositions(count, r)) for count in program.counts]
        self.steps = [
            [
                tuple(sum(columns[k][d * r + ell] * s[ell] for ell in range(r)) for k in range(len(terms)))
                for s in splits
            ]
            for d, splits in enumerate(self.splits)
        ]
        self.rows = [
            ([terms.index(t) for t, _ in row.terms], [c for _, c in row.terms], row.bound)
            for row in program.rows
        ]
        start = tuple(0 for _ in terms)
        layers: list[set[tuple[int, ...]]] = [{start}]
        for steps in self.steps:
            nxt: set[tuple[int, ...]] = set()
            for state in layers[-1]:
                nxt.update(tuple(a + b for a, b in zip(state, step)) for step in steps)
                if len(nxt) > max_states:
                    self.complete = False
                    return
            layers.append(nxt)
        ways: dict[tuple[int, ...], int] = {s: int(self._meets(s)) for s in layers[-1]}
        self.ways = [ways]
        for d in range(len(self.steps) - 1, -1, -1):
            ahead = self.ways[0]
            ways = {
                s: sum(ahead[tuple(a + b for a, b in zip(s, step))] for step in self.steps[d])
                for s in layers[d]
            }
            self.ways.insert(0, ways)
        self.start = start

    def _meets(self, state: tuple[int, ...]) -> bool:
        return all(
            sum(c * state[k] for k, c in zip(index, coefficients)) >= bound
            for index, coefficients, bound in self.rows
        )

    def count(self) -> int:
        return self.ways[0][self.start]

    def draw(self, rng: random.Random) -> Witness:
        state, split = self.start, []
        for d, steps in enumerate(self.steps):
            ahead = self.ways[d + 1]
            pick = rng.randrange(self.ways[d][state])
            for s, step in zip(self.splits[d], steps):
                nxt = tuple(a + b for a, b in zip(state, step))
                if pick < ahead[nxt]:
                    state = nxt
                    split.append(s)
                    break
                pick -= ahead[nxt]
        return Witness(self.program.members, self.program.patterns, tuple(split))


def count_labelled_tests(program: Program, max_states: int = MAX_STATES) -> int | None:
    """The exact number of integer splits meeting every row (None: more than ``max_states`` states).

    >>> from evalgebra.alarm.safety import SafetySpec
    >>> program = build_program([(0,), (1,)], [2, 1], 2, (0,), SafetySpec(), ("c0",), ("a", "b"))
    >>> count_labelled_tests(program)  # (n[a], n[b]) splits: only Q_a = 2 with both a-items right
    1
    """
    counter = _Counter(program, max_states)
    return counter.count() if counter.complete else None


def _uniform_composition(rng: random.Random, total: int, parts: int) -> tuple[int, ...]:
    bars = sorted(rng.sample(range(total + parts - 1), parts - 1))
    edges = [-1, *bars, total + parts - 1]
    return tuple(edges[k + 1] - edges[k] - 1 for k in range(parts))


def sample_program(
    program: Program,
    size: int,
    seed: int | random.Random | None = 0,
    method: str = "auto",
    max_states: int = MAX_STATES,
    max_tries: int | None = None,
) -> Draw:
    """``size`` independent uniform draws of the program's integer points (the module notes)."""
    if method not in ("auto", "exact", "rejection"):
        raise SpecError(f"method must be 'auto', 'exact' or 'rejection', got {method!r}")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise SpecError(f"size must be a non-negative int, got {size!r}")
    seed = check_seed(seed, generators=(random.Random,))
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if method in ("auto", "exact"):
        counter = _Counter(program, max_states)
        if counter.complete:
            total = counter.count()
            witnesses = tuple(counter.draw(rng) for _ in range(size)) if total else ()
            return Draw(program, witnesses, "exact", total, len(witnesses))
        if method == "exact":
            raise SpecError(
                f"the exact method needs more than max_states={max_states} states here; "
                "use method='rejection' or a larger max_states"
            )
    limit = MAX_TRIES * max(size, 1) if max_tries is None else max_tries
    rows = [([(k, c) for k, c in enumerate(program.row_vector(row)) if c], row.bound) for row in program.rows]
    kept: list[Witness] = []
    tries = 0
    while len(kept) < size and tries < limit:
        tries += 1
        split = tuple(_uniform_composition(rng, count, program.n_labels) for count in program.counts)
        flat = [v for part in split for v in part]  # variable d * R + l
        if all(sum(c * flat[k] for k, c in vector) >= bound for vector, bound in rows):
            witness = Witness(program.members, program.patterns, split)
            if check_witness(program, witness):  # the exact check of every kept draw
                kept.append(witness)
    return Draw(program, tuple(kept), "rejection", None, tries)


def sample_labelled_tests(
    sketch: Sketch,
    classifiers: Sequence[str | int] | None = None,
    spec: SafetySpec | None = None,
    size: int = 100,
    seed: int | random.Random | None = 0,
    method: str = "auto",
) -> Draw:
    r"""Uniform draws of the labelled tests consistent with ``sketch`` under which every member meets
    ``spec``.

    Parameters
    ----------
    sketch : Sketch
        Any number of labels; populations pooled, an answer key ignored.
    classifiers : names or indices, optional
        The subset (default every classifier).
    spec : SafetySpec, optional
        Default ``SafetySpec()``; ``SafetySpec(None)`` draws among all labelled tests.
    size : int
    seed : int or random.Random
    method : {"auto", "exact", "rejection"}

    Returns
    -------
    Draw
        Each witness is a labelled test: ``witness.to_sketch(sketch.classifiers, sketch.labels,
        sketch.abstain)``.
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    spec = SafetySpec() if spec is None else spec
    if not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    check_seed(seed, generators=(random.Random,))
    names = sketch.spec()
    members = (
        tuple(range(sketch.n_classifiers))
        if classifiers is None
        else tuple(sorted({names.classifier_index(c) for c in classifiers}))
    )
    if not members:
        raise SpecError("classifiers is empty; give one or more names or indices, or None for all")
    _, _, code, count = sketch.table()
    merged: dict[tuple[int, ...], int] = {}
    for row, c in zip(decode(code, sketch.n_classifiers, sketch.n_responses).tolist(), count.tolist()):
        merged[tuple(row)] = merged.get(tuple(row), 0) + int(c)
    program = build_program(
        list(merged), list(merged.values()), sketch.n_labels, members, spec, sketch.classifiers, sketch.labels
    )
    return sample_program(program, size, seed, method)
