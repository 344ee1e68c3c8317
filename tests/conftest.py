"""Hypothesis profiles for the test suite.

``ci`` (derandomized, so a CI run is reproducible) is loaded when the ``CI`` environment
variable is set, ``dev`` (random, same budget) otherwise; ``HYPOTHESIS_PROFILE`` overrides
both (e.g. ``HYPOTHESIS_PROFILE=thorough`` for a longer local search).
"""

import os

import pytest
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


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run tests marked slow (long derivations)"
    )


def pytest_collection_modifyitems(config, items):
    import pytest

    if config.getoption("--runslow") or config.getoption("-m"):
        return
    skip = pytest.mark.skip(reason="slow derivation: run with --runslow (or -m slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def cli(capsys):
    """``evalgebra ARGV`` run in-process: a function ``cli(*argv) -> (status, stdout, stderr)``.

    Arguments are passed as text (paths and numbers may be given as they are); argparse's
    ``SystemExit`` counts as the exit status. (Here rather than in ``tests/cli/conftest.py``:
    ``--doctest-modules`` imports every ``conftest.py`` as the module ``conftest``, and one in
    a folder sorting before ``conftest.py`` makes this file's import clash with it.)
    """
    from evalgebra.cli import main

    def run(*argv):
        try:
            status = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse: usage errors and --help
            status = exc.code
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return run
