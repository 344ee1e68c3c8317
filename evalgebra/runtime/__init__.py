"""Runtime: sketches, evaluation points, exact simulation."""

from evalgebra.runtime.sketch import Sketch

__all__ = ["Sketch"]
