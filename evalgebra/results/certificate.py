r"""The certificate of a fitted point: whether it is proved the global maximum of the likelihood.

EM stops at a local maximum near its start and cannot say more. The certification
(:mod:`evalgebra.evaluators.fitted.certify`) solves the score equations exactly, counts the real
critical points inside the parameter box and bounds the likelihood on every boundary stratum (a
prevalence at 0 or 1, a classifier independent of the truth, a rate at 0 or 1). Its answer, for
the chosen (fitted) point:

=================  ==============================================================================
global_maximum     meaning
=================  ==============================================================================
``True``           proved: the point is the critical point of largest likelihood, and every
                   stratum's bound is below it; the chosen point is that critical point
``False``          proved not: a point on a stratum (attained, computed exactly) has a larger
                   likelihood than every critical point inside the box
``"undecided"``    not proved either way, with the reason (an engine out of time, a stratum whose
                   bound reaches the best critical value, a model the certification does not cover)
=================  ==============================================================================

Examples
--------
>>> certificate = LikelihoodCertificate(True, "every stratum bound is below the best critical point", 2, 2,
...                           -1200.5, -1203.25, (("prevalence 0 or 1", -1300.0, "exact"),), 0.4)
>>> certificate.to_dict()["global_maximum"], certificate.to_dict()["critical_points"]
(True, 2)
>>> print(certificate.describe())  # doctest: +NORMALIZE_WHITESPACE
certificate: global maximum proved (2 real critical points inside the box; EM had reached -1203.25,
the certified point has -1200.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LikelihoodCertificate", "UNDECIDED"]

#: The value of ``global_maximum`` when neither was proved.
UNDECIDED = "undecided"


@dataclass(frozen=True)
class LikelihoodCertificate:
    r"""Whether the chosen fitted point is proved the global maximum, and the evidence.

    Attributes
    ----------
    global_maximum : bool or "undecided"
    reason : str
        Why: what was proved, or what stopped the proof.
    critical_points : int or None
        Real critical points solved inside the parameter box (both label orders counted); ``None``
        when the score equations were not solved.
    complex_solutions : int or None
        All solutions of the score equations (the ML degree for generic counts).
    log_likelihood : float or None
        Of the best critical point (``None`` without one).
    em_log_likelihood : float
        Of the best EM run before the certification.
    strata : tuple of (name, value, kind)
        Each boundary stratum's largest likelihood: ``exact`` (attained) or ``bound`` (an upper bound).
    seconds : float
        Wall time of the certification.
    """

    global_maximum: bool | str
    reason: str
    critical_points: int | None
    complex_solutions: int | None
    log_likelihood: float | None
    em_log_likelihood: float
    strata: tuple[tuple[str, float, str], ...]
    seconds: float

    def __post_init__(self) -> None:
        if self.global_maximum not in (True, False, UNDECIDED):
            raise ValueError(
                f"global_maximum must be True, False or {UNDECIDED!r}; got {self.global_maximum!r}"
            )

    @property
    def proved(self) -> bool:
        """Whether the chosen point is proved the global maximum."""
        return self.global_maximum is True

    def to_dict(self) -> dict[str, Any]:
        """The certificate as plain JSON values."""
        return {
            "global_maximum": self.global_maximum,
            "reason": self.reason,
            "critical_points": self.critical_points,
            "complex_solutions": self.complex_solutions,
            "log_likelihood": self.log_likelihood,
            "em_log_likelihood": self.em_log_likelihood,
            "strata": [
                {"stratum": name, "log_likelihood": value, "kind": kind} for name, value, kind in self.strata
            ],
            "seconds": self.seconds,
        }

    def describe(self) -> str:
        """One line: the answer and the evidence."""
        found = (
            ""
            if self.critical_points is None
            else f"{self.critical_points} real critical points inside the box"
        )
        if self.global_maximum is True:
            assert self.log_likelihood is not None
            return (
                f"certificate: global maximum proved ({found}; EM had reached {self.em_log_likelihood:.6g}, "
                f"the certified point has {self.log_likelihood:.6g})"
            )
        head = "not the global maximum" if self.global_maximum is False else "undecided"
        return f"certificate: {head}: {self.reason}" + (f" ({found})" if found else "")
