r"""How an evaluation was fitted: the verdict, the fitted point's place, its goodness of fit.

An algebraic evaluation with a fit (``evaluate(sketch)``; see
:mod:`evalgebra.evaluators.fitted`) holds the exact points as before and, appended to its
points, the maximum-likelihood point of the same model inside the simplex. Its
:class:`FitInfo` says which of them was chosen and why, in one word, the **verdict**:

================ ================================================================================
verdict          meaning
================ ================================================================================
``exact``        the counts lie on the model: an exact point reproduces them and is chosen (it is
                 also the fitted point: it attains the saturated likelihood)
``fitted``       the counts do not lie on the model (every sampled test): the fitted point is
                 chosen, and the fit is not rejected at :attr:`FitInfo.level`
``fit_rejected`` the fitted point is chosen, but the counts are unlikely under the model (the
                 p-value of ``G^2`` is below the level): the estimate is the model's best, and
                 the model's assumptions (independent errors) look wrong for these data
``none``         no point could be chosen
================ ================================================================================

Examples
--------
>>> info = FitInfo(verdict="fitted", fitted_index=2, log_likelihood=-1200.5,
...                saturated_log_likelihood=-1190.25, g2=20.5, df=7, p_value=0.0046,
...                note="chi-square approximation", level=0.01, starts=("exact 0", "majority"),
...                chosen_start=1, converged=True, iterations=14)
>>> info.to_dict()["verdict"], info.to_dict()["g2"]
('fitted', 20.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["FitInfo", "VERDICTS"]

#: Every verdict an evaluation can carry.
VERDICTS = ("exact", "fitted", "fit_rejected", "none")


@dataclass(frozen=True, kw_only=True)
class FitInfo:
    """The verdict and the fit behind it (``fitted_index``: the fitted point's index in ``points``)."""

    verdict: str
    fitted_index: int | None
    log_likelihood: float
    saturated_log_likelihood: float
    g2: float
    df: int
    p_value: float | None
    note: str
    level: float
    starts: tuple[str, ...]
    chosen_start: int
    converged: bool
    iterations: int

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}; known: {', '.join(VERDICTS)}")

    def to_dict(self) -> dict[str, Any]:
        """The fit as plain JSON values (``p_value`` null where the test does not apply)."""
        return {
            "verdict": self.verdict,
            "log_likelihood": self.log_likelihood,
            "saturated_log_likelihood": self.saturated_log_likelihood,
            "g2": self.g2,
            "df": self.df,
            "p_value": self.p_value,
            "p_value_note": self.note,
            "level": self.level,
            "starts": list(self.starts),
            "chosen_start": self.starts[self.chosen_start],
            "converged": self.converged,
            "iterations": self.iterations,
        }

    def describe(self) -> str:
        """One line: the verdict and the statistic behind it."""
        p = "no p-value: " + self.note if self.p_value is None else f"p = {self.p_value:.3g}"
        return f"verdict {self.verdict}: G^2 = {self.g2:.4g} on {self.df} df ({p})"
