"""Every public name of ``evalgebra`` is documented with examples that run.

For each name in ``evalgebra.__all__`` (functions, classes and subpackages alike): a
docstring with a numpydoc ``Examples`` section holding at least one ``>>>`` example, and
those examples pass as doctests, run in the namespace of the module that defines the name
(as ``pytest --doctest-modules`` runs them).
"""

from __future__ import annotations

import doctest
import inspect
import re
import sys

import pytest

import evalgebra

NAMES = sorted(evalgebra.__all__)
EXAMPLES = re.compile(
    r"^[ \t]*Examples[ \t]*\n[ \t]*-{8,}[ \t]*\n(?P<body>.*?)(?=^[ \t]*\w[\w ]*\n[ \t]*-{3,}[ \t]*\n|\Z)",
    re.S | re.M,
)


def _examples_section(obj: object) -> str | None:
    match = EXAMPLES.search(inspect.getdoc(obj) or "")
    return match.group("body") if match else None


def test_docs_every_public_name_is_exported():
    missing = [name for name in NAMES if not hasattr(evalgebra, name)]
    assert not missing, f"names in evalgebra.__all__ that evalgebra does not define: {missing}"


@pytest.mark.parametrize("name", NAMES)
def test_docs_public_name_has_examples(name):
    obj = getattr(evalgebra, name)
    assert inspect.getdoc(obj), f"evalgebra.{name} has no docstring"
    section = _examples_section(obj)
    assert section is not None, f"evalgebra.{name}: the docstring has no 'Examples' section"
    assert ">>>" in section, f"evalgebra.{name}: the Examples section holds no doctest"


@pytest.mark.parametrize("name", NAMES)
def test_docs_public_name_examples_run(name):
    obj = getattr(evalgebra, name)
    module = obj if inspect.ismodule(obj) else sys.modules[obj.__module__]
    tests = doctest.DocTestFinder(recurse=False).find(
        obj, f"evalgebra.{name}", module=module, globs=vars(module).copy()
    )
    tests = [t for t in tests if t.examples]
    if not tests:
        pytest.fail(f"evalgebra.{name}: no examples to run")
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
