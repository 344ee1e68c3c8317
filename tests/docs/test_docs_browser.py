"""A real browser opens the built documentation and shows the ``evaluate`` example.

Debian's chromium (installed by ``make setup``) loads the built pages from ``file://`` URLs,
headless and offline (every host name resolves to nothing, so no page can wait on the
network), and dumps the DOM after the page has loaded. The test then reads the rendered
text: the code of the example on the front page and its output, and the API entry of
:func:`evalgebra.evaluate` with its own examples. With the network closed, the formulas of the
theory and the guide are typeset all the same, by the site's own copy of MathJax.
"""

from __future__ import annotations

import doctest
import html
import re
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

import evalgebra

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
#: Seconds one page may take to load and dump.
BUDGET = 60
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
)
#: Elements without an end tag.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _browser() -> str:
    found = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    if found is None:
        pytest.fail("chromium is missing: `make setup` installs Debian's chromium (apt-get install chromium)")
    return found


def _dom(page: Path, profile: Path) -> str:
    """The page's DOM after loading (scripts run), as HTML."""
    command = [_browser(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=BUDGET)
    print(f"\nchromium {page.name}: {time.perf_counter() - start:.1f} s")
    assert done.returncode == 0, f"chromium failed on {page}:\n{done.stderr}"
    dom = done.stdout
    assert "<html" in dom, f"chromium returned no DOM for {page}:\n{done.stderr}"
    return dom


def _rendered_text(page: Path, profile: Path) -> str:
    """The page's DOM after loading, as the text a reader sees (tags dropped, entities decoded)."""
    dom = _dom(page, profile)
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", dom))


def _typeset_formulas(dom: str) -> list[bool]:
    """For each formula of the page (an element of class ``math``), whether MathJax typeset it
    (it holds an ``mjx-container``)."""

    class Formulas(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.open: list[tuple[str, int | None]] = []  # tag, index of the formula it opens
            self.typeset: list[bool] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            index = None
            if "math" in (dict(attrs).get("class") or "").split():
                index = len(self.typeset)
                self.typeset.append(False)
            if tag == "mjx-container":
                inside = [i for _, i in self.open if i is not None]
                if inside:
                    self.typeset[inside[-1]] = True
            if tag not in VOID:
                self.open.append((tag, index))

        def handle_endtag(self, tag: str) -> None:
            while self.open and self.open.pop()[0] != tag:
                pass

    parser = Formulas()
    parser.feed(dom)
    return parser.typeset


#: A doctest directive comment, as Sphinx removes it from the page.
DOCTEST_FLAG = re.compile(r"\s*#\s*doctest:.*$")


def _examples(text: str) -> list[doctest.Example]:
    return doctest.DocTestParser().get_examples(text)


def _assert_shows(text: str, examples: list[doctest.Example], where: str) -> None:
    assert examples, f"no examples to look for in {where}"
    for example in examples:
        for line in example.source.strip().splitlines():
            line = DOCTEST_FLAG.sub("", line).rstrip()  # Sphinx hides the flags (trim_doctest_flags)
            assert f">>> {line}" in text or f"... {line}" in text, f"{where}: code line {line!r} is not shown"
        for line in example.want.strip().splitlines():
            assert line.strip() in text, f"{where}: output line {line!r} is not shown"


def test_docs_browser_front_page_shows_the_evaluate_example(built_html, tmp_path):
    source = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    examples = _examples(source)
    assert any("ev.evaluate(" in e.source for e in examples), "docs/index.md lost its evaluate example"
    text = _rendered_text(built_html / "docs" / "index.html", tmp_path / "profile")
    _assert_shows(text, examples, "docs/index.html")


def test_docs_browser_api_page_shows_evaluate(built_html, tmp_path):
    text = _rendered_text(built_html / "docs" / "api" / "evaluators.html", tmp_path / "profile")
    assert re.search(r"evalgebra\.evaluators\.dispatch\.\s*evaluate\s*\(\s*sketch", text), (
        "the API page does not show evaluate's signature"
    )
    docstring = evalgebra.evaluate.__doc__ or ""
    _assert_shows(text, _examples(docstring), "the API entry of evaluate")


@pytest.mark.parametrize("page", ["theory", "guide/correlated"])
def test_docs_browser_typesets_the_formulas_offline(built_html, tmp_path, page):
    """Every formula of the page is typeset by MathJax, without an error, with the network closed."""
    source = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    assert "$$" in source, f"docs/{page}.md holds no displayed formula"
    dom = _dom(built_html / "docs" / f"{page}.html", tmp_path / "profile")
    typeset = _typeset_formulas(dom)
    assert typeset, f"docs/{page}.html holds no formula"
    assert all(typeset), (
        f"docs/{page}.html: {typeset.count(False)} of {len(typeset)} formulas not typeset by MathJax"
    )
    errors = re.findall(r'data-mjx-error="([^"]*)"', dom)
    assert not errors, f"docs/{page}.html: MathJax could not typeset {len(errors)} formula(s): {errors}"
