r"""Label ranges of every subset at once: witnesses and certificates shared along the subset lattice.

The least and the greatest count ``Q_l`` of each label over the labelled tests under which every
member of a subset ``S`` meets the specification are monotone in ``S``: adding a member removes
labelled tests, so the least count can only grow and the greatest only shrink. The evidence of one
subset therefore serves others:

* a **witness** of ``T`` (a labelled test under which every member of ``T`` meets the
  specification) is one of every ``S`` inside ``T``, with the same ``Q_l``;
* a **certificate** that ``Q_l <= v - 1`` is infeasible for ``S'`` (a Farkas certificate or a
  branch-and-bound tree, :mod:`evalgebra.alarm.certificates`) uses only rows of the members of
  ``S'``, so it proves the same for every ``S`` containing ``S'``.

So ``min Q_l(S) = v`` is proved at once when some witness of a superset has ``Q_l = v`` and some
certificate of a subset proves ``Q_l >= v``. When the two do not meet, a certificate at the best
known witness's value is sought first on the **per-label relaxation** (the rows of label ``l``
alone: a program of one label's counts, decomposed from the others; its certificate is one of the
whole program, whose rows include them), and only then the exact optimum of the subset's own
program (:func:`~evalgebra.alarm.solve.minimise`). Every range given is exact, with the witness
that attains it and the certificate that nothing beyond is possible; an end left undecided is
None.

Examples
--------
>>> from evalgebra.alarm.program import build_program
>>> from evalgebra.alarm.safety import SafetySpec
>>> from evalgebra.alarm.solve import decide
>>> patterns = [(0, 0, 0), (1, 1, 1), (2, 2, 2), (0, 1, 0), (2, 2, 1)]
>>> counts = [4, 3, 3, 2, 1]
>>> def program(members):
...     return build_program(patterns, counts, 3, members, SafetySpec(), ("x", "y", "z"), "abc")
>>> shared = SharedRanges(program, 3, [decide(program((0, 1, 2))).witness])
>>> low, high = shared.label_range((0, 1, 2))[0]
>>> low.value, -high.value
(3, 7)
>>> pair = shared.label_range((0, 1))
>>> from evalgebra.alarm.ranges import label_ranges
>>> [(lo.value, hi.value) for lo, hi in pair.values()] == [
...     (lo.value, hi.value) for lo, hi in label_ranges(program((0, 1))).values()
... ]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from evalgebra.alarm.certificates import Certificate, Witness
from evalgebra.alarm.perlabel import label_end, narrow
from evalgebra.alarm.program import Program, Row, Term
from evalgebra.alarm.solve import Optimum, minimise

__all__ = ["SharedRanges", "label_rows"]


def _label_of(term: Term) -> int | None:
    if term[0] == "count":
        return int(term[1])
    if term[0] in ("correct", "answered"):
        return int(term[2])
    return None


def label_rows(program: Program, label: int) -> tuple[Row, ...]:
    """The rows of ``program`` on label ``label`` alone (each of its terms counts items of that label).

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> program = build_program([(0,), (1,)], [2, 1], 2, (0,), SafetySpec(), ["c0"], "ab")
    >>> [str(row) for row in label_rows(program, 1)]
    ['2 C(0,1) - Q(1) >= 1']
    """
    return tuple(row for row in program.rows if all(_label_of(term) == label for term, _ in row.terms))


@dataclass
class _Proof:
    members: frozenset[int]
    value: int
    certificate: Certificate


class SharedRanges:
    r"""The least and greatest ``Q_l`` of each label for many subsets, evidence shared (module docs).

    Parameters
    ----------
    program : callable
        ``program(members)``: the subset's :class:`~evalgebra.alarm.program.Program` (members as an
        increasing tuple of ensemble indices).
    n_labels : int
    witnesses : iterable of Witness
        Checked witnesses already known (each one of its members).

    Attributes
    ----------
    solved : int
        Range ends that needed an exact optimisation of their own (the rest came from shared evidence
        and per-label certificates).
    """

    def __init__(
        self, program: Callable[[tuple[int, ...]], Program], n_labels: int, witnesses: Iterable[Witness] = ()
    ) -> None:
        self.program, self.n_labels = program, n_labels
        self.witnesses: list[tuple[frozenset[int], Witness, tuple[int, ...]]] = []
        self.proofs: dict[tuple[int, int], list[_Proof]] = {}
        self.solved = 0
        for witness in witnesses:
            self.add_witness(witness)

    def add_witness(self, witness: Witness) -> None:
        """Keep a checked witness of its members."""
        self.witnesses.append((frozenset(witness.members), witness, witness.label_counts()))

    def label_range(
        self, members: tuple[int, ...], labels: Iterable[int] | None = None
    ) -> dict[int, tuple[Optimum, Optimum]]:
        """Per label index (default all), the exact least ``Q_l`` and the exact ``-max Q_l`` (as
        :func:`~evalgebra.alarm.ranges.label_ranges`), each an :class:`~evalgebra.alarm.solve.Optimum`
        whose witness may be of a superset and whose certificate may be of a subset of ``members``.
        """
        members = tuple(sorted(members))
        chosen = range(self.n_labels) if labels is None else labels
        return {ell: (self._end(members, ell, 1), self._end(members, ell, -1)) for ell in chosen}

    def _end(self, members: tuple[int, ...], ell: int, sign: int) -> Optimum:
        """The least ``sign * Q_ell``."""
        owners = frozenset(members)
        best: tuple[int, Witness] | None = None
        for held, witness, counts in self.witnesses:
            if owners <= held and (best is None or sign * counts[ell] < best[0]):
                best = (sign * counts[ell], witness)
        proofs = self.proofs.setdefault((ell, sign), [])
        if best is not None:
            for proof in proofs:
                if proof.members <= owners and proof.value == best[0]:
                    return Optimum(best[0], best[1], proof.certificate)
            program = self.program(members)
            fast = label_end(program, ell, sign, best[1])
            if fast is not None and fast.value is not None and fast.witness is not None and fast.certificate:
                if fast.witness is not best[1]:
                    self.add_witness(fast.witness)
                value = int(fast.value)
                below = Row(((("count", ell), -sign),), 1 - value, "below")
                fewer = narrow(fast.certificate, self.program, below)  # then it serves more subsets
                proofs.append(
                    _Proof(owners, value, fast.certificate)
                    if fewer is None
                    else _Proof(frozenset(fewer.members), value, fewer)
                )
                return fast
        else:
            program = self.program(members)
        self.solved += 1
        optimum = minimise(program, ((("count", ell), sign),))
        if optimum.value is not None and optimum.witness is not None and optimum.certificate is not None:
            self.add_witness(optimum.witness)
            proofs.append(_Proof(owners, int(optimum.value), optimum.certificate))
        return optimum
