"""The documentation builds without a warning, and its pages and examples are what they say.

The build (``tests/docs/conftest.py``) runs Sphinx with autodoc and numpydoc over every module
of the package, the markdown pages of ``docs/`` (myst-parser) and the notebooks (myst-nb,
not executed). A docstring that does not parse, a reference that does not resolve, or a
heading link into ``docs/theory.md`` that does not exist fails the build. The pages load no
script from the network: formulas are typeset by the site's own copy of MathJax.
"""

from __future__ import annotations

import doctest
import importlib.util
import pkgutil
import re
import tomllib
from pathlib import Path

import pytest

import evalgebra

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
#: The user guide: one page per topic, run as doctests by pytest itself (``--doctest-glob``).
GUIDE = sorted((DOCS / "guide").glob("*.md"))
#: Every markdown page of the site, the guide's included.
ALL_PAGES = sorted(DOCS.rglob("*.md"))


def test_docs_build_has_no_warnings(docs_build):
    assert docs_build.returncode == 0, f"sphinx -W --keep-going failed:\n{docs_build.output}"
    assert docs_build.seconds < 120, f"the docs build took {docs_build.seconds:.0f} s"


def test_docs_build_renders_every_page(built_html):
    for page in ("docs/index", "docs/theory", "docs/notebooks", "docs/api/index", "docs/api/evaluators"):
        assert (built_html / f"{page}.html").is_file(), f"{page}.html is missing"
    assert len(GUIDE) >= 9, [p.name for p in GUIDE]
    for page in GUIDE:
        assert (built_html / "docs" / "guide" / f"{page.stem}.html").is_file(), (
            f"guide/{page.stem}.html is missing"
        )
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert (built_html / "notebooks" / f"{notebook.stem}.html").is_file(), notebook.name


def test_docs_api_reference_covers_every_module(built_html):
    """Every module of the package has its section in the API reference."""
    text = "\n".join(
        page.read_text(encoding="utf-8") for page in (built_html / "docs" / "api").glob("*.html")
    )
    modules = ["evalgebra"] + [
        info.name
        for info in pkgutil.walk_packages(evalgebra.__path__, "evalgebra.")
        if not info.name.endswith("__main__")
    ]
    missing = [name for name in modules if f'id="module-{name}"' not in text]
    assert not missing, f"modules without a section in docs/api: {missing}"


def test_docs_api_reference_documents_every_public_name(built_html):
    """Every name of ``evalgebra.__all__`` is documented where it is defined."""
    text = "\n".join(
        page.read_text(encoding="utf-8") for page in (built_html / "docs" / "api").glob("*.html")
    )
    missing = []
    for name in evalgebra.__all__:
        obj = getattr(evalgebra, name)
        if hasattr(obj, "__path__") or not hasattr(obj, "__module__"):
            continue  # a subpackage: covered by the module check
        if f'id="{obj.__module__}.{obj.__qualname__}"' not in text:
            missing.append(f"{obj.__module__}.{obj.__qualname__}")
    assert not missing, f"public names missing from the API reference: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_docs_page_examples_run(page):
    """The ``>>>`` examples of the markdown pages hold (the README's are run by pytest itself)."""
    failures, _ = doctest.testfile(str(page), module_relative=False, verbose=False, report=True)
    assert failures == 0, f"{page.name}: {failures} example(s) failed (see the output above)"


def test_docs_pages_load_no_script_from_the_network(built_html):
    """No page asks the network for a script or a stylesheet; MathJax is the site's own copy."""
    remote = re.compile(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"(?:https?:)?//[^\"]*\"")
    found = {
        str(page.relative_to(built_html)): remote.findall(page.read_text(encoding="utf-8"))
        for page in built_html.rglob("*.html")
    }
    found = {page: tags for page, tags in found.items() if tags}
    assert not found, f"pages that load from the network: {found}"
    theory = (built_html / "docs" / "theory.html").read_text(encoding="utf-8")
    script = re.search(r'<script\b[^>]*src="([^"?]*mathjax[^"?]*)', theory)
    assert script is not None, "docs/theory.html loads no MathJax"
    assert (built_html / "docs" / script.group(1)).resolve().is_file(), (
        f"{script.group(1)} is not in the site"
    )


def test_docs_guide_pages_run_as_doctests():
    """pytest collects the README and every guide page as doctests (``make test`` runs them)."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"][
        "ini_options"
    ]
    assert {"README.md", "docs/guide"} <= set(options["testpaths"])
    assert {"--doctest-glob=README.md", "--doctest-glob=docs/guide/*.md"} <= set(options["addopts"].split())
    assert sum(">>> " in page.read_text(encoding="utf-8") for page in GUIDE) >= 8


def test_docs_pages_hold_no_control_characters():
    """A formula written through a non-raw Python string loses ``\\f`` and ``\\t`` to control characters."""
    bad = {
        str(page.relative_to(ROOT)): n
        for page in [*ALL_PAGES, ROOT / "README.md"]
        for n, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1)
        if re.search(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]", line)
    }
    assert not bad, f"control characters (page: a line holding one): {bad}"


def test_docs_cli_page_lists_every_command_and_option():
    """``docs/guide/cli.md`` is the command-line reference: every command and every option."""
    import argparse

    from evalgebra.cli import build_parser

    text = (DOCS / "guide" / "cli.md").read_text(encoding="utf-8")
    sections = {}  # "evalgebra" (options before the command), "evalgebra sketch", ...: its section
    for part in text.split("\n### `")[1:]:
        sections[" ".join(part.split("`", 1)[0].split()[:2])] = part.split("\n## ", 1)[0]
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    missing = []
    for name, command in [
        ("evalgebra", parser),
        *((f"evalgebra {n}", c) for n, c in commands.choices.items()),
    ]:
        section = sections.get(name)
        if section is None:
            missing.append(name)
            continue
        missing += [
            f"{name} {option}"
            for action in command._actions
            for option in action.option_strings
            if option not in ("-h", "--help") and f"`{option}" not in section
        ]
    assert not missing, f"not in docs/guide/cli.md: {missing}"


def test_docs_theory_has_the_anchors_the_code_links_to():
    """Headings of docs/theory.md give the anchors other files link to (GitHub and MyST alike)."""
    slugs = {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in (DOCS / "theory.md").read_text(encoding="utf-8").splitlines()
        if line.startswith(("## ", "### "))
    }
    linked = set()
    for path in [
        *ROOT.joinpath("evalgebra").rglob("*.py"),
        *ROOT.glob("*.md"),
        *ALL_PAGES,
        *ROOT.joinpath("notebooks").glob("*.ipynb"),
        *ROOT.joinpath("derivations").glob("*.py"),
    ]:
        linked.update(re.findall(r"theory\.md#([\w\-]+)", path.read_text(encoding="utf-8")))
    assert not linked - slugs, f"links to missing sections of docs/theory.md: {sorted(linked - slugs)}"


def test_docs_theory_cites_the_papers():
    text = (DOCS / "theory.md").read_text(encoding="utf-8")
    for title, arxiv in [
        ("Streaming algorithms for evaluating noisy judges on unlabeled", "2306.01726"),
        ("A logical alarm for misaligned binary classifiers", "2409.11052"),
        ("Algebraic Evaluation Theorems", None),
        ("Hui-Walter Paradigm for Performance Estimation", None),
    ]:
        assert title in text
        assert arxiv is None or f"arXiv:{arxiv}" in text
    assert not re.search(r"seed \d", text)


def test_docs_every_document_named_is_in_the_repository():
    """A markdown document named by the code, the docs, the notebooks or the derivations is one
    the repository holds (no citation of a file a reader cannot open)."""
    held = {
        path.name
        for path in ROOT.rglob("*.md")
        if not {".venv", "_build", "build", ".git"} & set(path.relative_to(ROOT).parts)
    }
    named: dict[str, set[str]] = {}
    for path in [
        *ROOT.joinpath("evalgebra").rglob("*.py"),
        *ROOT.glob("*.md"),
        *ALL_PAGES,
        *ROOT.joinpath("notebooks").glob("*.ipynb"),
        *ROOT.joinpath("derivations").glob("*.py"),
        *ROOT.joinpath("tests").rglob("*.py"),
    ]:
        for name in re.findall(r"\b([\w.-]+\.md)\b", path.read_text(encoding="utf-8")):
            named.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    missing = {name: sorted(where) for name, where in named.items() if name not in held}
    assert not missing, f"documents named but not in the repository: {missing}"


def test_docs_conf_imports_cleanly():
    """The configuration imports without Sphinx running (a maintainer's ``python docs/conf.py``)."""
    spec = importlib.util.spec_from_file_location("docs_conf", DOCS / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.root_doc == "docs/index" and module.nitpicky


def test_docs_api_reference_is_by_topic_and_starts_with_the_top_level():
    """The reference opens with the practitioner's names, then one page per topic, each naming
    where to start before its modules."""
    index = (DOCS / "api" / "index.rst").read_text(encoding="utf-8")
    top = index.split("The top level", 1)[1].split(".. toctree::", 1)[0]
    missing = [name for name in evalgebra.__all__ if not re.search(rf"[.~`]{name}`", top)]
    assert not missing, f"top-level names not in the reference's table: {missing}"
    pages = re.findall(r"^   (\w+)$", index.split(".. toctree::", 1)[1], re.M)
    assert len(pages) >= 8
    for page in pages:
        text = (DOCS / "api" / f"{page}.rst").read_text(encoding="utf-8")
        assert "Start here" in text and ".. automodules::" in text, f"api/{page}.rst"
