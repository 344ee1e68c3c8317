r"""The likelihood of a model as polynomial systems: score equations for the Gröbner engines.

A stage of its own between the results and the builder, so that both the builder (any spec's
generating set) and the runtime's certification (the independent model) build the score equations
with one implementation; it needs python-flint only.

=================  ==============================================================================
module             what it holds
=================  ==============================================================================
``score``          the Lagrangian score equations of any polynomial model, denominators cleared
``independent``    binary classifiers with independent errors in moment coordinates
``solve``          the system solved by msolve: ML degree (modulo a prime), certified real boxes
=================  ==============================================================================
"""

from evalgebra.likelihood.independent import binary_score_system, moment_model, rates_from_moments
from evalgebra.likelihood.score import ScoreSystem, integer_text, score_system

__all__ = [
    "ScoreSystem",
    "score_system",
    "integer_text",
    "moment_model",
    "binary_score_system",
    "rates_from_moments",
]
