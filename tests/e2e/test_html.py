"""Every built page passes the Nu HTML Checker, but for the theme's known errors.

The checker is npm's vnu-jar (tools/html-check, installed by
``scripts/setup.sh test``), run with Java. An error in markup the site writes
(the plugin, the templates in overrides/, the pages) fails the test, naming
the page and the line. Errors in Material for MkDocs' own markup are listed
below with their upstream issue; each must still occur, so that the entry
goes when the theme fixes it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import defaultdict

import pytest
from helpers import ROOT

VNU = ROOT / "tools" / "html-check" / "node_modules" / "vnu-jar" / "build" / "dist"

# The start of each message that belongs to the theme, with where it is tracked.
THEME_ERRORS = {
    # Material's toggles are checkboxes with autocomplete="off", so that a
    # browser does not restore a drawer or the search left open; the HTML
    # standard allows the attribute on text-like inputs only. Closed upstream
    # as intended.
    "Attribute “autocomplete” is only allowed when the input type is": (
        "https://github.com/squidfunk/mkdocs-material/issues/1513"
    ),
}


def check(pages):
    """The checker's errors: message -> the pages and lines it was found on."""
    java = shutil.which("java")
    assert java, "the HTML checker needs Java: bash scripts/setup.sh test"
    jar = VNU / "vnu.jar"
    assert jar.exists(), f"no {jar}: bash scripts/setup.sh test installs it"
    result = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--exit-zero-always", *pages],
        capture_output=True,
        text=True,
        check=True,
    )
    found = defaultdict(list)
    for message in json.loads(result.stderr)["messages"]:
        if message["type"] != "info":  # errors, and files it could not read
            where = message.get("url", "").removeprefix("file:")
            found[message["message"]].append(f"{where}:{message.get('lastLine')}")
    return found


def test_every_page_passes_the_html_checker_but_for_the_theme_s_errors(built_site):
    check_every_page(built_site)


@pytest.mark.release  # a second build of the site
def test_with_the_speed_reaches_off_every_page_passes_the_html_checker(
    speed_off_site,
):
    check_every_page(speed_off_site[0])


def check_every_page(built_site):
    """Every page valid HTML, but for the theme's own errors, each still there."""
    pages = sorted(str(page) for page in built_site.rglob("*.html"))
    assert len(pages) > 20
    found = check(pages)
    ours = {
        message: places[:3]
        for message, places in found.items()
        if not message.startswith(tuple(THEME_ERRORS))
    }
    assert ours == {}, ours
    for start, issue in THEME_ERRORS.items():
        assert any(message.startswith(start) for message in found), (
            f"the theme no longer writes {start!r} ({issue}): drop its entry"
        )


@pytest.mark.release  # a test of the checker, not of the site
def test_the_checker_finds_an_error_in_the_site_s_own_markup(built_site, tmp_path):
    """The check can fail: a copy of a page with a stray attribute does."""
    page = built_site / "attention-pooling" / "index.html"
    broken = tmp_path / "index.html"
    text = page.read_text(encoding="utf-8")
    broken.write_text(text.replace("<main", '<main ,=""', 1), encoding="utf-8")
    messages = check([str(page), str(broken)])
    assert [m for m in messages if "“,”" in m] != [], messages
    assert all(
        message.startswith(tuple(THEME_ERRORS)) or "“,”" in message
        for message in messages
    ), messages
