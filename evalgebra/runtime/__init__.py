"""Runtime: sketches, evaluation points, exact simulation, evaluators, alarms, streaming.

Imports the generated code (:mod:`evalgebra.generated`) and never the Gröbner module.
"""

from evalgebra.runtime.sketch import Sketch

__all__ = ["Sketch"]
