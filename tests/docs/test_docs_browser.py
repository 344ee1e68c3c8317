"""A real browser opens the built documentation and shows the ``evaluate`` example.

Debian's chromium (installed by ``make setup``) loads the built pages from ``file://`` URLs,
headless and offline (every host name resolves to nothing, so no page can wait on the
network), and dumps the DOM after the page has loaded. The test then reads the rendered
text: the code of the example on the front page and its output, and the API entry of
:func:`evalgebra.evaluate` with its own examples.
"""

from __future__ import annotations

import doctest
import html
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import evalgebra

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
#: Seconds one page may take to load and dump.
BUDGET = 60
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND")


def _browser() -> str:
    found = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    if found is None:
        pytest.fail("chromium is missing: `make setup` installs Debian's chromium (apt-get install chromium)")
    return found


def _rendered_text(page: Path, profile: Path) -> str:
    """The page's DOM after loading, as the text a reader sees (tags dropped, entities decoded)."""
    command = [_browser(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=BUDGET)
    print(f"\nchromium {page.name}: {time.perf_counter() - start:.1f} s")
    assert done.returncode == 0, f"chromium failed on {page}:\n{done.stderr}"
    dom = done.stdout
    assert "<html" in dom, f"chromium returned no DOM for {page}:\n{done.stderr}"
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", dom))


def _examples(text: str) -> list[doctest.Example]:
    return doctest.DocTestParser().get_examples(text)


def _assert_shows(text: str, examples: list[doctest.Example], where: str) -> None:
    assert examples, f"no examples to look for in {where}"
    for example in examples:
        for line in example.source.strip().splitlines():
            assert f">>> {line}" in text or f"... {line}" in text, f"{where}: code line {line!r} is not shown"
        for line in example.want.strip().splitlines():
            assert line in text, f"{where}: output line {line!r} is not shown"


def test_docs_browser_front_page_shows_the_evaluate_example(built_html, tmp_path):
    source = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    examples = _examples(source)
    assert any("ev.evaluate(" in e.source for e in examples), "docs/index.md lost its evaluate example"
    text = _rendered_text(built_html / "docs" / "index.html", tmp_path / "profile")
    _assert_shows(text, examples, "docs/index.html")


def test_docs_browser_api_page_shows_evaluate(built_html, tmp_path):
    text = _rendered_text(built_html / "docs" / "api" / "evaluators.html", tmp_path / "profile")
    assert re.search(r"evalgebra\.evaluators\.dispatch\.\s*evaluate\s*\(\s*sketch", text), \
        "the API page does not show evaluate's signature"
    docstring = evalgebra.evaluate.__doc__ or ""
    _assert_shows(text, _examples(docstring), "the API entry of evaluate")
