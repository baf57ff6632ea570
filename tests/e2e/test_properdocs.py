"""The escape hatch: ProperDocs, MkDocs' drop-in fork, builds the site strictly.

MkDocs 1.6.1 has had no release since 2024 (see README.md, "The stack's
horizon"). ProperDocs runs the same plugins, with its own logger names; the
plugin's log filters and page names must work under either executable.
"""

from __future__ import annotations

import re

import pytest
from helpers import LANGS, ROOT, mkdocs_build
from test_faults import build_with

# ProperDocs, the escape hatch: checked before a release.
pytestmark = pytest.mark.release

CACHE_COUNTS = r"attention_docs cache \(on\): (\d+) hits, (\d+) misses"


def test_properdocs_builds_every_page_of_every_edition_strictly(tmp_path, warm_cache):
    site = tmp_path / "site"
    result = mkdocs_build(ROOT, site, cache=warm_cache, executable="properdocs")
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "WARNING" not in log, log
    # The plugin's own messages reach ProperDocs' handlers: one line per edition.
    assert len(re.findall(CACHE_COUNTS, log)) == len(LANGS), log
    for folder in LANGS.values():
        page = site / folder / "attention-pooling" / "index.html"
        assert "<svg" in page.read_text(encoding="utf-8")


def test_under_properdocs_a_raising_block_fails_the_build_naming_its_page(
    tmp_path, mini_cache
):
    def raising_block(project):
        page = project / "docs" / "index.zh.md"
        block = '\n```python exec="on"\nraise RuntimeError("injected failure")\n```\n'
        page.write_text(page.read_text(encoding="utf-8") + block, encoding="utf-8")

    log = build_with(tmp_path, mini_cache, raising_block, executable="properdocs")
    assert "docs/index.zh.md: markdown_exec: Execution of python code block" in log
    assert "injected failure" in log
