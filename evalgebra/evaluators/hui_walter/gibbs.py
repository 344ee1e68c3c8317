r"""The Gibbs sampler of the Hui-Walter latent-class model, on the counts of a sketch.

The model: in population ``s`` an item has the first label with probability ``theta_s``;
given its label the binary tests answer independently, test ``i`` right with probability
``P_{i,ell}``, shared by the populations; Beta priors on every parameter. The sampler draws,
per population and decision pattern, how many of the pattern's items have the first label (a
binomial draw per pattern, never per item), then every parameter from its Beta conditional.
It works for any number of binary tests and populations (one population needs three or more
tests to be identifiable) and gives posterior means and equal-tailed credible intervals.

Label switching. The likelihood is unchanged by the label swap ``theta_s -> 1 - theta_s``,
``P_{i,a} <-> 1 - P_{i,b}``, so the posterior has a mirror mode. Every draw is mapped to the
side that ``decoding`` names, the rule of the closed form
(:data:`evalgebra.evaluators.hui_walter.exact.HUI_WALTER_DECODINGS`): ``"youden"`` keeps the side on which the
tests' Youden indices ``J_i = P_{i,a} + P_{i,b} - 1`` sum to a positive number,
``"total_accuracy"`` the side on which the mean accuracy over all items and tests exceeds 1/2.

References
----------
.. [1] "Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter Paradigm for
   Performance Estimation in Online and Static Settings" (anonymous authors, under review
   at TMLR): Gibbs sampling with Beta(1, 1) priors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.display import html_block, html_table, number_text
from evalgebra.errors import SpecError
from evalgebra.evaluators.hui_walter.exact import (
    HuiWalterEstimate,
    check_hui_walter_decoding,
    check_hui_walter_sketch,
    hui_walter_estimate,
)
from evalgebra.numbers.seeds import check_seed
from evalgebra.results import Evaluation

__all__ = ["Key", "GibbsResult", "evaluate_hui_walter_gibbs"]

#: A parameter's name: ``("prevalence", population)`` or ``("accuracy", classifier, label)``.
Key = tuple[str, ...]


@dataclass(frozen=True, repr=False)
class GibbsResult:
    r"""Posterior draws of the Hui-Walter latent-class model and their summaries.

    Attributes
    ----------
    parameters : tuple of tuple of str
        ``("prevalence", population)`` (share of the first label) for every population,
        then ``("accuracy", classifier, label)`` for every classifier and label.
    draws : ndarray, shape (chains, iterations, parameters)
        Draws after burn-in, with the label-switching rule applied to each.
    mean, sd : ndarray, shape (parameters,)
        Posterior mean and standard deviation over all chains.
    interval : ndarray, shape (parameters, 2)
        Equal-tailed credible interval at ``level``.
    rhat : ndarray, shape (parameters,)
        Split-chain potential scale reduction (near 1 when the chains agree).
    switched : ndarray, shape (chains,)
        Share of each chain's draws the label-switching rule mirrored.
    level : float
    labels, classifiers, populations : tuple of str
    sizes : tuple of int
        Items per population.
    settings : mapping
        The sampler's arguments (iterations, burn_in, chains, seed, priors, decoding).
    """

    parameters: tuple[Key, ...]
    draws: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    interval: np.ndarray
    rhat: np.ndarray
    switched: np.ndarray
    level: float
    labels: tuple[str, ...]
    classifiers: tuple[str, ...]
    populations: tuple[str, ...]
    sizes: tuple[int, ...]
    settings: Mapping[str, Any]

    def summary(self) -> dict[Key, tuple[float, float, float]]:
        """Parameter -> ``(posterior mean, interval low, interval high)``."""
        return {
            k: (float(m), float(lo), float(hi))
            for k, m, (lo, hi) in zip(self.parameters, self.mean, self.interval)
        }

    def covers(self, truth: Mapping[Key, Any]) -> dict[Key, bool]:
        """Parameter -> whether its credible interval holds the value in ``truth`` (keys present only)."""
        return {
            k: bool(lo <= float(truth[k]) <= hi)
            for k, (lo, hi) in zip(self.parameters, self.interval)
            if k in truth
        }

    def estimate(self) -> HuiWalterEstimate:
        """The posterior means as an estimate (floats)."""
        n_pops = len(self.populations)
        means = [float(v) for v in self.mean]
        return hui_walter_estimate(
            means[:n_pops], means[n_pops:], self.sizes, self.labels, self.classifiers, self.populations
        )

    def evaluation(self) -> Evaluation:
        """The posterior means as an :class:`Evaluation` (method ``hui_walter_gibbs``, no alarms)."""
        return Evaluation(
            method="hui_walter_gibbs",
            labels=self.labels,
            classifiers=self.classifiers,
            points=(self.estimate(),),
            chosen=0,
        )

    def to_text(self) -> str:
        """One line per parameter: mean, sd, credible interval, R-hat."""
        width = max(len(" ".join(k)) for k in self.parameters)
        percent = f"{100 * self.level:g}%"
        lines = [f"{'parameter':<{width}}  {'mean':>7}  {'sd':>7}  {percent + ' interval':>18}  {'R-hat':>6}"]
        for k, m, sd, (lo, hi), r in zip(self.parameters, self.mean, self.sd, self.interval, self.rhat):
            lines.append(f"{' '.join(k):<{width}}  {m:7.4f}  {sd:7.4f}  [{lo:7.4f}, {hi:7.4f}]  {r:6.3f}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        chains, iterations, _ = self.draws.shape
        return (
            f"GibbsResult({len(self.parameters)} parameters, {chains} chains x {iterations} draws, "
            f"classifiers={list(self.classifiers)}, populations={list(self.populations)}, "
            f"max R-hat={number_text(float(np.nanmax(self.rhat)), 4)})"
        )

    def _repr_html_(self) -> str:
        percent = f"{100 * self.level:g}%"
        rows = [
            [" ".join(k), f"{m:.4f}", f"{sd:.4f}", f"[{lo:.4f}, {hi:.4f}]", f"{r:.3f}"]
            for k, m, sd, (lo, hi), r in zip(self.parameters, self.mean, self.sd, self.interval, self.rhat)
        ]
        chains, iterations, _ = self.draws.shape
        title = (
            f"Hui-Walter posterior (Gibbs): {chains} chains x {iterations} draws, "
            f"decoding {self.settings.get('decoding', 'youden')}"
        )
        table = html_table(["parameter", "mean", "sd", f"{percent} interval", "R-hat"], rows)
        return html_block(title, table)


def _beta(value: Any, what: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in value)
    except (TypeError, ValueError):
        raise SpecError(f"{what} must be a pair (a, b) of positive numbers, got {value!r}") from None
    if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
        raise SpecError(f"{what} must be a pair (a, b) of positive numbers, got {value!r}")
    return a, b


def _split_rhat(draws: np.ndarray) -> np.ndarray:
    """Split-R-hat per parameter from ``(chains, iterations, parameters)`` draws."""
    half = draws.shape[1] // 2
    if half < 2:
        return np.full(draws.shape[2], np.nan)
    chains = np.concatenate([draws[:, :half], draws[:, half : 2 * half]], axis=0)
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean(axis=0)
    between = n * chains.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(((n - 1) / n * within + between / n) / within)
    return np.where(within > 0, out, 1.0)


def evaluate_hui_walter_gibbs(
    sketch: Sketch,
    *,
    iterations: int = 4000,
    burn_in: int = 1000,
    chains: int = 4,
    seed: int = 0,
    prevalence_prior: Sequence[float] = (1, 1),
    accuracy_prior: Sequence[float] | Mapping[str, Sequence[float]] = (1, 1),
    level: float = 0.95,
    decoding: str = "youden",
    initial: Mapping[Key, float] | None = None,
) -> GibbsResult:
    r"""Sample the Hui-Walter latent-class posterior by Gibbs sampling on the count sketch.

    The model: in population ``s`` an item has the first label with probability
    ``theta_s``; given its label the binary tests answer independently, test ``i`` right with
    probability ``P_{i,ell}`` (shared by the populations). Priors: ``theta_s ~
    Beta(prevalence_prior)``, ``P_{i,ell} ~ Beta(accuracy_prior[ell])``. One sweep draws,
    for every population ``s`` and pattern ``d``, how many of its ``n_{s,d}`` items have the
    first label, ``y_{s,d} ~ Binomial(n_{s,d}, w_{s,d})`` with ``w`` the posterior label
    probability of the pattern, then every ``theta_s`` and ``P_{i,ell}`` from its Beta
    conditional given these counts. A sweep costs ``O(chains x populations x 2^N)``,
    whatever the number of items.

    Label switching: the swap ``theta_s -> 1 - theta_s``, ``P_{i,a} <-> 1 - P_{i,b}``
    leaves the likelihood unchanged, so the posterior has a mirror mode. Every draw is mapped
    to the side that ``decoding`` names (``youden``: the tests' Youden indices sum to a
    positive number) before it is summarised. With a prior that the swap leaves unchanged
    (the default Beta(1, 1) everywhere, or equal label priors and a symmetric prevalence
    prior) the mapped draws are draws of the posterior restricted to that side.

    Parameters
    ----------
    sketch : Sketch
        Two labels, two or more classifiers, any number of populations (one population
        needs three or more classifiers to be identifiable); true labels are ignored.
    iterations, burn_in : int
        Sweeps kept per chain, after ``burn_in`` discarded sweeps.
    chains : int
        Chains, run side by side (vectorised); each starts from a draw of the priors, or
        from ``initial``.
    seed : int
        Seed of the :class:`numpy.random.Generator` (results are reproducible).
    prevalence_prior : (a, b)
    accuracy_prior : (a, b) or mapping label -> (a, b)
    level : float
        Credible level of the equal-tailed intervals.
    decoding : {"youden", "total_accuracy"}
        The label-switching rule (see the module notes).
    initial : mapping parameter -> float, optional
        Start every chain here (keys as in :attr:`GibbsResult.parameters`).

    Returns
    -------
    GibbsResult

    Examples
    --------
    A cross-tab on which the tests were exactly independent within the populations, with
    truth ``theta = (1/2, 1/4)``, ``P_0 = (4/5, 9/10)``, ``P_1 = (1/2, 9/10)``:

    >>> sk = Sketch.from_counts({"aa": 41, "ab": 49, "ba": 19, "bb": 91}, labels=["a", "b"],
    ...                         population="s0").merge(
    ...      Sketch.from_counts({"aa": 43, "ab": 67, "ba": 37, "bb": 253}, labels=["a", "b"],
    ...                         population="s1"))
    >>> post = evaluate_hui_walter_gibbs(sk, iterations=2000, burn_in=500, seed=1)
    >>> truth = {("prevalence", "s0"): 0.5, ("prevalence", "s1"): 0.25,
    ...          ("accuracy", "c0", "a"): 0.8, ("accuracy", "c0", "b"): 0.9,
    ...          ("accuracy", "c1", "a"): 0.5, ("accuracy", "c1", "b"): 0.9}
    >>> all(post.covers(truth).values()), post.draws.shape
    (True, (4, 2000, 6))
    """
    check_hui_walter_decoding(decoding)
    check_hui_walter_sketch(sketch, 2, None, 1)
    if not (
        isinstance(iterations, int)
        and isinstance(burn_in, int)
        and isinstance(chains, int)
        and iterations >= 2
        and burn_in >= 0
        and chains >= 1
    ):
        raise SpecError("iterations >= 2, burn_in >= 0 and chains >= 1 must be integers")
    if not 0 < level < 1:
        raise SpecError(f"level must lie strictly between 0 and 1, got {level!r}")
    seed = check_seed(seed)
    labels, classifiers, populations = (
        tuple(sketch.labels),
        tuple(sketch.classifiers),
        tuple(sketch.populations),
    )
    a_prev, b_prev = _beta(prevalence_prior, "prevalence_prior")
    if isinstance(accuracy_prior, Mapping):
        if set(accuracy_prior) != set(labels):
            raise SpecError(f"accuracy_prior as a mapping needs exactly the labels {list(labels)}")
        priors = [_beta(accuracy_prior[label], f"accuracy_prior[{label!r}]") for label in labels]
    else:
        priors = [_beta(accuracy_prior, "accuracy_prior")] * 2
    n, n_pops = len(classifiers), len(populations)
    counts = np.array([sketch.count_vector(pop) for pop in populations], dtype=np.int64)  # (S, D)
    sizes = counts.sum(axis=1)
    total = counts.sum(axis=0)
    bits = decode(np.arange(2**n), n, 2).astype(np.float64)  # (D, N): 1 = second label
    parameters: tuple[Key, ...] = tuple(("prevalence", pop) for pop in populations) + tuple(
        ("accuracy", c, label) for c in classifiers for label in labels
    )
    rng = np.random.default_rng(seed)
    if initial is not None:
        missing = [k for k in parameters if k not in initial]
        if missing:
            raise SpecError(f"initial lacks {missing[:3]}{' ...' if len(missing) > 3 else ''}")
        start = np.array([float(initial[k]) for k in parameters])
        if not np.all((start >= 0) & (start <= 1)):
            raise SpecError("initial values must lie in [0, 1]")
        theta = np.tile(start[:n_pops], (chains, 1))
        sens = np.tile(start[n_pops::2][:n], (chains, 1))
        spec = np.tile(start[n_pops + 1 :: 2][:n], (chains, 1))
    else:
        theta = rng.beta(a_prev, b_prev, size=(chains, n_pops))
        sens = rng.beta(*priors[0], size=(chains, n))
        spec = rng.beta(*priors[1], size=(chains, n))
    draws = np.empty((chains, iterations, len(parameters)))
    is_b = bits[None, :, :] == 1
    for sweep in range(burn_in + iterations):
        pa = np.prod(np.where(is_b, 1 - sens[:, None, :], sens[:, None, :]), axis=2)  # (C, D)
        pb = np.prod(np.where(is_b, spec[:, None, :], 1 - spec[:, None, :]), axis=2)
        wa = theta[:, :, None] * pa[:, None, :]  # (C, S, D)
        both = wa + (1 - theta)[:, :, None] * pb[:, None, :]
        w = np.where(both > 0, wa / np.where(both > 0, both, 1), theta[:, :, None])
        y = rng.binomial(counts[None, :, :], np.clip(w, 0.0, 1.0))  # items of label a
        ya = y.sum(axis=2)
        theta = rng.beta(a_prev + ya, b_prev + sizes[None, :] - ya)
        y_all = y.sum(axis=1).astype(np.float64)  # (C, D)
        z_all = total[None, :] - y_all
        sens = rng.beta(priors[0][0] + y_all @ (1 - bits), priors[0][1] + y_all @ bits)
        spec = rng.beta(priors[1][0] + z_all @ bits, priors[1][1] + z_all @ (1 - bits))
        if sweep >= burn_in:
            row = draws[:, sweep - burn_in]
            row[:, :n_pops] = theta
            row[:, n_pops::2] = sens
            row[:, n_pops + 1 :: 2] = spec
    switched = _apply_rule(draws, n_pops, sizes, decoding)
    flat = draws.reshape(-1, len(parameters))
    tail = (1 - level) / 2
    interval = np.quantile(flat, [tail, 1 - tail], axis=0).T
    settings = {
        "iterations": iterations,
        "burn_in": burn_in,
        "chains": chains,
        "seed": seed,
        "prevalence_prior": (a_prev, b_prev),
        "accuracy_prior": dict(zip(labels, priors)),
        "decoding": decoding,
    }
    return GibbsResult(
        parameters,
        draws,
        flat.mean(axis=0),
        flat.std(axis=0, ddof=1),
        interval,
        _split_rhat(draws),
        switched,
        level,
        labels,
        classifiers,
        populations,
        tuple(int(q) for q in sizes),
        settings,
    )


def _apply_rule(draws: np.ndarray, n_pops: int, sizes: np.ndarray, decoding: str) -> np.ndarray:
    """Mirror, in place, every draw on the wrong side of the label swap; the share mirrored per chain."""
    theta, sens, spec = draws[..., :n_pops], draws[..., n_pops::2], draws[..., n_pops + 1 :: 2]
    if decoding == "youden":
        side = (sens + spec - 1).sum(axis=-1)
    else:
        per_pop = theta[..., :, None] * sens[..., None, :] + (1 - theta[..., :, None]) * spec[..., None, :]
        side = 2 * (per_pop.sum(axis=-1) * sizes).sum(axis=-1) - sens.shape[-1] * sizes.sum()
    wrong = side < 0
    mirrored_theta = 1 - theta[wrong]
    mirrored_sens, mirrored_spec = 1 - spec[wrong], 1 - sens[wrong]
    draws[..., :n_pops][wrong] = mirrored_theta
    view_sens, view_spec = draws[..., n_pops::2], draws[..., n_pops + 1 :: 2]
    view_sens[wrong] = mirrored_sens
    view_spec[wrong] = mirrored_spec
    return wrong.mean(axis=1)
