"""Loud failures: each test injects one fault into a small site and builds.

The site is the fixture site (``tests/fixtures/mini``: two pages, an API page
and a notebook in both editions, no PyTorch), built in seconds with the real
plugin, theme and configuration, from the execution cache a build of the
unbroken site filled (once per run): the injected code and what it reaches
miss the cache and run; what no fault touches (the API page, the math font)
is read from it. The build must exit non-zero with a message naming the page
(and the block or cell), never publish the broken page quietly.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from helpers import copy_mini_site, mkdocs_build

from attention_docs_site.layout import zip_name


def build_with(
    tmp_path: Path,
    cache: Path,
    inject,
    *,
    notebooks: bool = False,
    execute: bool = True,
    executable: str = "mkdocs",
    env: dict[str, str] | None = None,
) -> str:
    """Copy the small site, let ``inject`` change it, build; return the failing log.

    The build starts from a copy of ``cache`` (the ``mini_cache`` fixture).
    ``execute=False`` skips running code blocks, for faults that do not need it.
    """
    project = copy_mini_site(tmp_path / "project")
    inject(project)
    shutil.copytree(cache, tmp_path / "cache")
    result = mkdocs_build(
        project,
        tmp_path / "site",
        notebooks=notebooks,
        library=project / "src",
        cache=tmp_path / "cache",
        env={**(env or {}), **({} if execute else {"ATTENTION_DOCS_EXECUTE": "off"})},
        executable=executable,
    )
    log = result.stdout + result.stderr
    assert result.returncode != 0, log
    assert "Aborted" in log or "Error" in log
    return log


def append(project: Path, page: str, text: str) -> None:
    path = project / "docs" / page
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_raising_code_blocks_in_both_editions(tmp_path, mini_cache):
    """One build, a raising block on a page of each edition: both are named."""
    pages = {"index.md": "english", "index.zh.md": "chinese"}

    def add_blocks(project):
        for page, failure in pages.items():
            block = (
                f'\n```python exec="on"\nraise RuntimeError("{failure} failure")\n```\n'
            )
            append(project, page, block)

    log = build_with(tmp_path, mini_cache, add_blocks)
    for page, failure in pages.items():
        named = f"docs/{page}: markdown_exec: Execution of python code block exited"
        assert named in log
        assert f"{failure} failure" in log.split(named, 1)[1].split("docs/", 1)[0]


@pytest.mark.parametrize("page", ["kernels.md", "kernels.zh.md"])
def test_raising_notebook_cell(tmp_path, mini_cache, page):
    cell = '\n```python\nprint("fine")\n```\n\n```python\n1 / 0\n```\n'
    log = build_with(
        tmp_path,
        mini_cache,
        lambda project: append(project, f"exercises/{page}", cell),
        notebooks=True,
    )
    # The notebook's two code cells come first; the injected ones follow.
    assert f"docs/exercises/{page}: code cell 4 ('1 / 0') raised" in log
    assert "ZeroDivisionError: division by zero" in log


def test_notebook_published_as_raw_source(tmp_path, mini_cache):
    def drop_kernelspec(project):
        path = project / "docs" / "exercises" / "kernels.md"
        text = path.read_text(encoding="utf-8")
        kernelspec = re.search(r"  kernelspec:\n(?:    .*\n)+", text)[0]
        path.write_text(text.replace(kernelspec, ""), encoding="utf-8")

    log = build_with(tmp_path, mini_cache, drop_kernelspec, execute=False)
    assert "exercises/kernels.md: notebook page was not rendered as a notebook" in log


def test_missing_glyph_in_a_figure(tmp_path, mini_cache):
    def untypeable_label(project):
        # U+E000 is a private-use character: no font has a glyph for it.
        labels = project / "src" / "attention_docs" / "labels" / "zh" / "figures.py"
        text = labels.read_text(encoding="utf-8")
        edited = text.replace('"keys": "键"', '"keys": "键\\ue000"')
        assert edited != text  # the label is where the test looks
        labels.write_text(edited, "utf-8")

    log = build_with(tmp_path, mini_cache, untypeable_label)
    assert re.search(r"docs/[\w/-]+\.zh\.md: markdown_exec: Execution of python", log)
    assert "has text that no configured font can draw: Glyph 57344" in log


BROKEN_LINKS = [
    (
        "api.zh.md",
        '\n<a href="../kernels/#no-such-heading">x</a>\n',
        "docs/api.zh.md (built as zh/api/index.html:",
        "no anchor #no-such-heading",
    ),
    (
        "api.md",
        "\nSee [the chapter](kernels.md#no-such-heading).\n",
        "docs/api.md (built as api/index.html:",
        "no anchor #no-such-heading",
    ),
    (
        "index.md",
        '\n<a href="missing-page/">x</a>\n',
        "docs/index.md (built as index.html:",
        "no file for",
    ),
]


def test_broken_internal_links_and_anchors(tmp_path, mini_cache):
    """One build, three broken links: each is named with its page and problem."""

    def break_links(project):
        for page, link, _, _ in BROKEN_LINKS:
            append(project, page, link)

    log = build_with(tmp_path, mini_cache, break_links, execute=False)
    assert f"{len(BROKEN_LINKS)} broken links in the built site" in log
    lines = log.splitlines()
    for _, _, where, problem in BROKEN_LINKS:
        named = [line for line in lines if where in line]
        assert len(named) == 1 and problem in named[0], (where, named)


@pytest.mark.parametrize(
    ("page", "front_matter"),
    [
        ("api.md", '---\ntitle: "API\n---\n'),
        ("kernels.zh.md", "---\ntranslation: [broken\n---\n"),
        ("kernels.md", "---\ntitle: never closed\n"),
    ],
)
def test_broken_front_matter(tmp_path, mini_cache, page, front_matter):
    def break_front_matter(project):
        path = project / "docs" / page
        body = re.sub(r"\A---\n.*?\n---\n", "", path.read_text("utf-8"), flags=re.S)
        path.write_text(front_matter + body, encoding="utf-8")

    log = build_with(tmp_path, mini_cache, break_front_matter, execute=False)
    assert re.search(
        rf"docs/{re.escape(page)}: front matter (is not valid YAML|is not closed)", log
    )


def test_missing_pyodide_runtime_with_run_buttons_on(tmp_path, mini_cache):
    """A clone without Pyodide's files is told which file, and how to build."""

    def no_runtime(project):
        (project / "tools" / "pyodide").unlink()  # a link to the real one
        (project / "tools" / "pyodide").mkdir()

    log = build_with(
        tmp_path,
        mini_cache,
        no_runtime,
        execute=False,
        env={"ATTENTION_DOCS_RUN_BUTTONS": "on"},
    )
    assert "tools/pyodide/node_modules/pyodide/pyodide-lock.json is missing" in log
    assert "set ATTENTION_DOCS_RUN_BUTTONS=off" in log


@pytest.mark.release  # a whole build that passes, for an option
def test_without_run_buttons_no_page_offers_one_and_nothing_carries_pyodide(
    tmp_path,
):
    """ATTENTION_DOCS_RUN_BUTTONS=off (the small site's own setting)."""
    project = copy_mini_site(tmp_path / "project")
    (project / "tools" / "pyodide").unlink()  # the runtime is not needed
    site = tmp_path / "site"
    result = mkdocs_build(project, site, library=project / "src")
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "attention_docs Pyodide: not published (run buttons off)" in log
    assert not (site / "pyodide").exists()
    pages = {page: page.read_text("utf-8") for page in site.rglob("*.html")}
    assert "<svg" in pages[site / "index.html"]  # the block ran, its figure shown
    for page, text in pages.items():
        assert "data-run-session" not in text and "ad-run-data" not in text, page
    for lang in ("en", "zh"):
        with zipfile.ZipFile(site / "offline" / zip_name(lang)) as copy:
            assert not [n for n in copy.namelist() if "/pyodide/" in n], lang
