r"""The score equations of any ensemble spec: its generating set's model, through the one implementation.

For a spec (classifiers, labels, correlation structure, populations) the generating set gives every
pattern's probability as a polynomial in the free unknowns (:meth:`GeneratingSet.model`); the
log-likelihood of a sketch's counts is ``sum_{s,x} n_{s,x} log p_{s,x}``. :func:`score_equations`
hands those polynomials to :func:`evalgebra.likelihood.score.score_system` (the Lagrangian form,
one ``q`` per observed pattern), saturating the prevalences (a label that no item has leaves its
rates free: not isolated) and, for two labels, each classifier's ``acc_a + acc_b - 1`` (a
classifier independent of the truth). The result is engine input: msolve text
(:meth:`~evalgebra.likelihood.score.ScoreSystem.texts`), or flint polynomials.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> system = score_equations(EnsembleSpec(3, 2), [84, 36, 51, 39, 68, 52, 77, 70])
>>> system.unknowns
('prev_a', 'acc_0_a', 'acc_0_b', 'acc_1_a', 'acc_1_b', 'acc_2_a', 'acc_2_b')
>>> from evalgebra.likelihood.solve import solve_score
>>> solve_score(system, time_limit=120).degree  # the two exact points, labels swapped
2
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder.generating import GeneratingSet
from evalgebra.errors import SpecError
from evalgebra.likelihood.score import ScoreSystem, score_system
from evalgebra.spec import EnsembleSpec

__all__ = ["score_equations", "NONZERO"]

#: What :func:`score_equations` may saturate: ``prevalence`` (every label present) or
#: ``identifiable`` (also, for two labels, no classifier independent of the truth).
NONZERO = ("prevalence", "identifiable", "none")


def _counts(gs: GeneratingSet, counts: Any) -> list[Fraction]:
    if hasattr(counts, "counts") and hasattr(counts, "classifiers"):
        spec = gs.spec
        values: list[Fraction] = []
        for s, population in enumerate(spec.populations):
            table = counts.counts(population) if len(spec.populations) > 1 else counts.pooled().counts()
            values.extend(Fraction(table.get(p, 0)) for p in gs.pattern_tuples(s))
        return values
    return [Fraction(c) for c in counts]


def score_equations(spec: EnsembleSpec, counts: Any, *, nonzero: str = "identifiable") -> ScoreSystem:
    r"""The score system of ``spec``'s model at ``counts`` (a sketch, or counts in pattern order).

    Parameters
    ----------
    spec : EnsembleSpec
        Any spec (P-space: the unknowns are the registry's free variables, prevalence block first).
    counts : Sketch or sequence
        Counts of every population's patterns, in the order of the generating set's ``patterns``
        (:class:`~evalgebra.builder.generating.GeneratingSet`).
    nonzero : {"identifiable", "prevalence", "none"}
        What is saturated away (see :data:`NONZERO`).

    Returns
    -------
    ScoreSystem
    """
    if nonzero not in NONZERO:
        raise SpecError(f"nonzero must be one of {', '.join(NONZERO)}; got {nonzero!r}")
    gs = GeneratingSet(spec)
    names = tuple(s.name for s in gs.variables)
    context = flint.fmpq_mpoly_ctx.get(names, "degrevlex")
    gens = dict(zip(gs.variables, context.gens()))
    one = context.from_dict({(0,) * len(names): 1})
    model = gs.model(lambda key: gens[gs.registry.symbol(key)], one)
    values = _counts(gs, counts)
    if len(values) != len(model):
        raise SpecError(f"need {len(model)} counts (every population's patterns), got {len(values)}")
    index = {name: k for k, name in enumerate(names)}

    def saturated(phi: Sequence[Any]) -> list[Any]:
        out: list[Any] = []
        if nonzero == "none":
            return out
        unit = phi[0] ** 0
        prevalence = [phi[k] for k, name in enumerate(names) if name.startswith("prev_")]
        per_population = max(1, spec.n_labels - 1)
        for start in range(0, len(prevalence), per_population):
            block = prevalence[start : start + per_population]
            out += [*block, unit - sum(block, 0 * unit)]
        if nonzero == "identifiable" and spec.n_labels == 2 and not spec.abstain:
            for i in range(spec.n_classifiers):
                pair = (f"acc_{i}_a", f"acc_{i}_b")
                if all(name in index for name in pair):
                    out.append(phi[index[pair[0]]] + phi[index[pair[1]]] - unit)
        return out

    return score_system(model, values, nonzero=None if nonzero == "none" else saturated)
