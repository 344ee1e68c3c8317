r"""The fitted evaluation: maximum likelihood on the model, started from the algebra's points.

=====================  ==========================================================================
module                 what it holds
=====================  ==========================================================================
``em``                 the cells of a sketch, a point of the independent model, the EM iteration
``fit``                starts (exact points, majority vote), the chosen run, the goodness of fit
``batch``              the EM iteration on many count vectors of the same cells at once (vectorised)
``bootstrap``          the fitted point refitted on multinomial resamples: label alignment, intervals
``choice``             the fitted point beside the exact ones, and the verdict (independent model)
``structures``         a correlated structure's model and its climb (Fisher scoring, a barrier)
``structure_choice``   the same verdict for a correlated structure's exact and fitted points
``selection``          ``structure="auto"``: the structure of smallest BIC, with the evidence
=====================  ==========================================================================
"""

from evalgebra.evaluators.fitted.em import Cells, EMFit, Parameters, em, log_likelihood
from evalgebra.evaluators.fitted.fit import (
    FittedModel,
    Goodness,
    fit_sketch,
    sketch_cells,
    start_from_estimate,
)

__all__ = [
    "Cells",
    "EMFit",
    "Parameters",
    "em",
    "log_likelihood",
    "FittedModel",
    "Goodness",
    "fit_sketch",
    "sketch_cells",
    "start_from_estimate",
]
