r"""How the confidence intervals of an evaluation were made: their kinds and :class:`IntervalInfo`.

The intervals themselves sit on the estimates (``Estimate.interval``); the methods that
make them (the multinomial bootstrap and the delta method) are
:func:`~evalgebra.evaluators.intervals.confidence.confidence_intervals`.

Examples
--------
>>> IntervalInfo("delta", 0.9).text()
'90% delta intervals'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["INTERVAL_KINDS", "ESTIMATORS", "IntervalInfo"]

#: The kinds of confidence interval, with what they are.
INTERVAL_KINDS: dict[str, str] = {
    "bootstrap": "percentile intervals of a multinomial bootstrap over the sketch's pattern counts",
    "delta": "the delta method: the closed form's gradient times the multinomial covariance of the counts",
}

#: What a bootstrap evaluates each resample with: the exact evaluator, or the refitted model.
ESTIMATORS = ("exact", "fitted")


@dataclass(frozen=True)
class IntervalInfo:
    r"""How the confidence intervals of an evaluation were made.

    Parameters
    ----------
    kind : str
        One of :data:`INTERVAL_KINDS` (``"bootstrap"`` or ``"delta"``).
    level : float
        The nominal coverage, e.g. ``0.95``.
    n_boot : int or None (keyword only, as are seed and failed)
        Resamples drawn (bootstrap).
    seed : int or None
        The seed of the resampling (bootstrap; ``None``: fresh entropy, not reproducible).
    failed : mapping of str to int
        Resamples whose evaluation failed, by reason (an alarm kind such as ``complex``,
        ``blind_spot``, ``undecided``, or ``undefined``: a statistic of the estimate was
        undefined on the resample; ``not_converged``: the refit of a fitted evaluation did not
        converge). They are left out of the percentiles and counted here.
    estimator : str
        What each resample was evaluated with: ``"exact"`` (the method's exact evaluator, or
        its vectorised form) or ``"fitted"`` (the model refitted by maximum likelihood from the
        full data's fitted point: :mod:`evalgebra.evaluators.fitted.bootstrap`).
    relabelled : int
        Resamples whose fitted hidden labels were renamed to match the full fit's (label
        switching; fitted bootstrap). They stay in the percentiles.

    Examples
    --------
    >>> info = IntervalInfo("bootstrap", 0.95, n_boot=1000, seed=0, failed={"complex": 12})
    >>> info.n_failed, info.failed_share
    (12, 0.012)
    >>> info.text()
    '95% bootstrap intervals (1000 resamples, seed 0; 12 failed (1.2%): complex 12)'
    >>> IntervalInfo("bootstrap", 0.95, n_boot=200, seed=1, estimator="fitted", relabelled=3).text()
    '95% bootstrap intervals of the fitted point (200 resamples, seed 1; 3 relabelled)'
    """

    kind: str
    level: float
    n_boot: int | None = field(default=None, kw_only=True)
    seed: int | None = field(default=None, kw_only=True)
    failed: Mapping[str, int] = field(default_factory=dict, kw_only=True)
    estimator: str = field(default="exact", kw_only=True)
    relabelled: int = field(default=0, kw_only=True)

    def __post_init__(self) -> None:
        if self.kind not in INTERVAL_KINDS:
            raise ValueError(f"unknown interval kind {self.kind!r}; known: {sorted(INTERVAL_KINDS)}")
        if self.estimator not in ESTIMATORS:
            raise ValueError(f"unknown estimator {self.estimator!r}; known: {', '.join(ESTIMATORS)}")

    @property
    def n_failed(self) -> int:
        """Resamples whose evaluation failed (all reasons)."""
        return sum(self.failed.values())

    @property
    def failed_share(self) -> float | None:
        """The share of the resamples that failed (``None`` without resamples)."""
        return self.n_failed / self.n_boot if self.n_boot else None

    def text(self) -> str:
        """One line: level, kind, resamples, seed and the failures by reason."""
        text = f"{100 * self.level:g}% {self.kind} intervals"
        if self.estimator == "fitted":
            text += " of the fitted point"
        if self.kind == "bootstrap":
            seed = "no seed" if self.seed is None else f"seed {self.seed}"
            failed = f"; {self.relabelled} relabelled" if self.relabelled else ""
            if self.n_failed:
                failed += f"; {self.n_failed} failed ({100 * (self.failed_share or 0):.3g}%): " + ", ".join(
                    f"{k} {v}" for k, v in sorted(self.failed.items())
                )
            text += f" ({self.n_boot} resamples, {seed}{failed})"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "n_boot": self.n_boot,
            "seed": self.seed,
            "failed": dict(self.failed),
            "failed_share": self.failed_share,
            "estimator": self.estimator,
            "relabelled": self.relabelled,
        }
