"""Generating sets of evaluation ideals (P-space, R-space, any structure and populations)."""

from evalgebra.builder.generating import (
    ORDERINGS,
    FlintSystem,
    GeneratingSet,
    generating_set,
)

__all__ = ["GeneratingSet", "FlintSystem", "generating_set", "ORDERINGS"]
