"""Hypothesis profiles for the test suite.

``ci`` (derandomized, so a CI run is reproducible) is loaded when the ``CI`` environment
variable is set, ``dev`` (random, same budget) otherwise; ``HYPOTHESIS_PROFILE`` overrides
both (e.g. ``HYPOTHESIS_PROFILE=thorough`` for a longer local search).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=40,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=40,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=500,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
