r"""Samplewise consistency metrics between runs of the same classifiers."""

from evalgebra.consistency.metrics import consistency

__all__ = ["consistency"]
