r"""The logical alarm: which members of an ensemble provably fail a safety specification,
from the counts alone.

``logical`` holds the specification, the report and :func:`logical_alarm`; ``intervals``
the exact feasible sets of the number of items of label ``a``.
"""

from evalgebra.alarm.logical import AlarmReport, SafetySpec, logical_alarm

__all__ = ["AlarmReport", "SafetySpec", "logical_alarm"]
