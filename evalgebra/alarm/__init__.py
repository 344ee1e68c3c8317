r"""The logical alarm: which members of an ensemble provably fail a safety specification,
from the counts alone.

============= =========================================================================
module        what it holds
============= =========================================================================
``safety``    :class:`SafetySpec`: the exact accuracy thresholds every member must meet
``logical``   :func:`logical_alarm` and its helpers (per-subset feasible ``Q_a``)
``report``    :class:`AlarmReport` and :class:`SubsetResult`: the verdicts, JSON, display
``intervals`` the exact feasible sets of the number of items of label ``a``
``sampling``  possible evaluations: count and draw uniformly the labelled tests a subset allows
============= =========================================================================
"""

from evalgebra.alarm.logical import logical_alarm
from evalgebra.alarm.report import AlarmReport, SubsetResult
from evalgebra.alarm.safety import SafetySpec

__all__ = ["AlarmReport", "SafetySpec", "SubsetResult", "logical_alarm"]
