"""What the browser tests share: Chromium, the page's language prefix, axe-core.

The fixtures that serve the site and open pages are in ``e2e/conftest.py``.
"""

from importlib.resources import files
from pathlib import Path

import pytest
from helpers import CHROMIUM, MISSING_CHROMIUM


def prefix(lang: str) -> str:
    return "zh/" if lang == "zh" else ""


def require_chromium():
    if not Path(CHROMIUM).exists():
        pytest.fail(MISSING_CHROMIUM, pytrace=False)


def launch(playwright, **options):
    """Debian's Chromium, headless, asking no server but the test's."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-background-networking"],
        **options,
    )


def visit(page, site_url, path, lang):
    page.goto(site_url + prefix(lang) + path)
    page.wait_for_load_state("networkidle")


AXE = files("axe_playwright_python") / "axe.min.js"  # axe-core, from PyPI


SERIOUS = """async () => (await axe.run(document, {resultTypes: ["violations"]}))
  .violations.filter(v => ["serious", "critical"].includes(v.impact))
  .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target).join(", ")}`)"""
