"""The serve stage's rules: which saves allow a partial build, which pages it renders.

The byte-for-byte comparison of a partial rebuild with a full build is
``tests/e2e/test_serve.py``; these tests check each rule on a small project.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attention_docs_site.serve import partial as stage
from attention_docs_site.serve.partial import PageMemo, PartialBuilds

LAYOUT = {
    "mkdocs.yml": "site_name: t\n",
    "pyproject.toml": "[project]\nname = 'pkg'\n",
    "docs/a.md": "# A\n\nText.\n",
    "docs/a.zh.md": "# 甲\n\n文字。\n",
    "docs/b.md": "# B\n",
    "docs/api.md": "# API\n\n::: pkg.mod\n",
    "docs/assets/site.css": "body {}\n",
    "overrides/main.html": "{% extends 'base.html' %}\n",
    "plugin/catalogs/en.yml": "word: Word\n",
    "lib/pkg/mod.py": "def f():\n    return 1\n",
    "lib/pkg/font.ttf": "font",
    "snippets/note.md": "A note.\n",
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    for name, text in LAYOUT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    names = {"digest": "names-1", "version": "0.1.0"}
    monkeypatch.setattr(stage, "names_digest", lambda: names["digest"])
    monkeypatch.setattr(
        stage, "library_wheel", lambda root: SimpleNamespace(version=names["version"])
    )
    return SimpleNamespace(root=tmp_path, names=names)


def started(project) -> PartialBuilds:
    """A serve stage after its first, finished build of ``project``."""
    root = project.root
    config = SimpleNamespace(
        config_file_path=str(root / "mkdocs.yml"),
        docs_dir=str(root / "docs"),
        theme=SimpleNamespace(custom_dir=str(root / "overrides")),
        watch=[str(root / "lib"), str(root / "snippets")],
    )
    builds = PartialBuilds()
    assert builds.decide() is False  # nothing built yet
    builds.start(config, root / "plugin", root / "lib")
    builds.finished()
    return builds


def save(path: Path, text: str | None = None) -> None:
    """Write a file (its own bytes by default) with a later time stamp."""
    data = path.read_bytes() if text is None else text.encode()
    path.write_bytes(data)
    later = path.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(later, later))


def test_nothing_changed_or_the_same_bytes_saved_needs_no_build(project, caplog):
    builds = started(project)
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.attention_docs"):
        assert builds.decide() is None
    assert "no file a build reads changed: no build" in caplog.text
    save(project.root / "docs" / "a.md")
    assert builds.decide() is None
    builds.failed()  # say, the build before this one
    assert builds.decide() is False


def test_a_page_saved_is_a_partial_build_that_names_it(project):
    builds = started(project)
    save(project.root / "docs" / "a.md", "# A\n\nOther text.\n")
    assert builds.decide() is True
    assert builds.changed == {str(project.root / "docs" / "a.md")}
    assert not builds.library_changed and not builds.notebooks_changed


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("mkdocs.yml", "mkdocs.yml changed"),
        ("pyproject.toml", "pyproject.toml changed"),
        ("docs/assets/site.css", "docs/assets/site.css changed, which is not a page"),
        ("overrides/main.html", "the theme's overrides/main.html changed"),
        (
            "plugin/catalogs/en.yml",
            "the site's plugin changed (plugin/catalogs/en.yml)",
        ),
        ("lib/pkg/font.ttf", "the library's lib/pkg/font.ttf changed"),
        (
            "snippets/note.md",
            "snippets/note.md changed, which mkdocs.yml has serve watch",
        ),
    ],
)
def test_a_save_that_shapes_every_page_is_a_full_build_with_its_reason(
    project, caplog, name, reason
):
    builds = started(project)
    save(project.root / name, "changed\n")
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.attention_docs"):
        assert builds.decide() is False
    assert f"every page is rendered: {reason}" in caplog.text


def test_a_page_added_or_removed_is_a_full_build(project, caplog):
    builds = started(project)
    (project.root / "docs" / "c.md").write_text("# C\n", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.attention_docs"):
        assert builds.decide() is False
    assert "docs/c.md was added or removed" in caplog.text
    builds.finished()
    (project.root / "docs" / "c.md").unlink()
    assert builds.decide() is False


def test_a_library_edit_is_partial_unless_the_library_s_names_changed(project):
    builds = started(project)
    module = project.root / "lib" / "pkg" / "mod.py"
    save(module, "def f():\n    return 2\n")
    assert builds.decide() is True and builds.library_changed
    builds.finished()
    project.names["digest"] = "names-2"  # say, f renamed
    save(module, "def g():\n    return 2\n")
    assert builds.decide() is False
    builds.finished()
    project.names["version"] = "0.2.0"  # every page's footer shows it
    save(module, "def g():\n    return 3\n")
    assert builds.decide() is False
    builds.finished()
    save(module, "def g():\n    return 4\n")
    assert builds.decide() is True


def test_with_the_speed_edits_off_every_build_is_full(project, caplog):
    builds = started(project)
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.attention_docs"):
        assert builds.decide(allowed=False) is False
    assert builds.partial is False
    assert "partial rebuilds are off with the speed edits" in caplog.text


def test_hidden_files_and_files_that_vanish_are_not_inputs(project):
    builds = started(project)
    docs = project.root / "docs"
    (docs / ".a.md.swp").write_text("swap", encoding="utf-8")
    (docs / ".#a.md").symlink_to(docs / "nowhere")  # an editor's lock, dangling
    (docs / "gone.md").symlink_to(docs / "nowhere")  # a page's link, dangling
    assert builds.decide() is None


def test_after_a_failed_build_the_next_renders_every_page(project):
    builds = started(project)
    save(project.root / "docs" / "a.md", "# A\n\nOne.\n")
    assert builds.decide() is True
    builds.failed()
    save(project.root / "docs" / "a.md", "# A\n\nTwo.\n")
    assert builds.decide() is False
    builds.finished()
    save(project.root / "docs" / "a.md", "# A\n\nThree.\n")
    assert builds.decide() is True


class _Source:
    """A library source whose units are fresh unless named stale."""

    def __init__(self, stale: set[str]) -> None:
        self.stale = stale

    def is_fresh(self, units: dict[str, str | None]) -> bool:
        return not (set(units) & self.stale)


def edition_files(project, lang: str) -> Files:
    """The pages of an edition (``zh``: the translation of a, b and api fall back)."""
    docs, site = project.root / "docs", project.root / "site"
    names = ["a.md", "b.md", "api.md"]
    if lang == "zh":
        names[0] = "a.zh.md"
    files = Files([File(name, str(docs), str(site), True) for name in names])
    for file in files:
        Page(None, file, {"site_url": None})  # type: ignore[arg-type]
        Path(file.abs_dest_path).parent.mkdir(parents=True, exist_ok=True)
        Path(file.abs_dest_path).write_text("built", encoding="utf-8")
    return files


def memo(title: str, units: dict[str, str | None] | None = None, api: bool = False):
    return PageMemo(title=title, meta={}, units=units or {}, api=api, entries=[title])


def rendered(files: Files) -> dict[str, bool]:
    return {file.src_uri: file.is_modified() for file in files}


def test_a_partial_build_renders_the_pages_a_save_can_change(project):
    builds = started(project)
    for lang, a in (("en", "A"), ("zh", "甲")):
        builds.memo[(lang, "a.md" if lang == "en" else "a.zh.md")] = memo(a)
        builds.memo[(lang, "b.md")] = memo("B", {"pkg.mod.f": "1"})
        builds.memo[(lang, "api.md")] = memo("API", api=True)
    save(project.root / "docs" / "a.md", "# A\n\nNew.\n")
    assert builds.decide() is True
    cache = SimpleNamespace(source=_Source(set()))
    english, chinese = edition_files(project, "en"), edition_files(project, "zh")
    builds.choose("en", english, cache)
    assert rendered(english) == {"a.md": True, "b.md": False, "api.md": True}
    assert english.get_file_from_path("b.md").page.title == "B"  # for the navigation
    builds.choose("zh", chinese, cache)  # a.zh.md's English source changed
    assert rendered(chinese) == {"a.zh.md": True, "b.md": False, "api.md": True}


def test_a_library_edit_renders_the_pages_whose_blocks_ran_it(project):
    builds = started(project)
    builds.memo[("en", "a.md")] = memo("A", {"pkg.mod.g": "1"})
    builds.memo[("en", "b.md")] = memo("B", {"pkg.mod.f": "1"})
    builds.memo[("en", "api.md")] = memo("API", api=True)
    save(project.root / "lib" / "pkg" / "mod.py", "def f():\n    return 3\n")
    assert builds.decide() is True
    files = edition_files(project, "en")
    builds.choose("en", files, SimpleNamespace(source=_Source({"pkg.mod.f"})))
    assert rendered(files) == {"a.md": False, "b.md": True, "api.md": True}


def test_a_page_with_no_output_or_no_record_is_rendered(project):
    builds = started(project)
    builds.memo[("en", "a.md")] = memo("A")
    builds.memo[("en", "api.md")] = memo("API", api=True)
    save(project.root / "docs" / "a.zh.md", "# 甲\n\n新。\n")  # another edition's
    assert builds.decide() is True
    files = edition_files(project, "en")
    Path(files.get_file_from_path("a.md").abs_dest_path).unlink()
    builds.choose("en", files, None)
    assert rendered(files) == {"a.md": True, "b.md": True, "api.md": True}


def test_the_search_index_holds_every_page_s_entries_in_the_full_order(project):
    builds = started(project)
    for uri in ("a.md", "b.md", "api.md"):
        builds.memo[("en", uri)] = memo(f"old {uri}")
    save(project.root / "docs" / "b.md", "# B\n\nNew.\n")
    assert builds.decide() is True
    files = edition_files(project, "en")
    builds.choose("en", files, None)
    index: list[object] = []
    for uri in ("b.md", "api.md"):  # what the search plugin indexed, in order
        page = files.get_file_from_path(uri).page
        builds.page_rendered("en", page, markdown_api=uri == "api.md", cache=None)
        index.append(f"new {uri}")
        builds.page_entries("en", page, index)
    builds.edition_built(index)
    assert index == ["old a.md", "new b.md", "new api.md"]
    assert builds.memo[("en", "b.md")].entries == ["new b.md"]


def test_a_partial_build_lists_the_theme_s_files_from_the_last_full_build(
    monkeypatch,
):
    from attention_docs_site.upstream import mkdocs_dirty

    calls = []

    class Environment:
        loader = SimpleNamespace(searchpath=["/theme"])
        bytecode_cache = None

        def list_templates(self, extensions=None, filter_func=None):
            calls.append(filter_func)
            return [f"file-{len(calls)}.css"]

    theme = SimpleNamespace(static_templates=["404.html"], get_env=Environment)
    monkeypatch.setattr(mkdocs_dirty, "_LISTED", {})
    mkdocs_dirty.list_theme_once(theme, bytecode="compiled")  # type: ignore[arg-type]
    mkdocs_dirty.list_theme_once(theme)  # once per theme
    env = theme.get_env()
    assert env.bytecode_cache == "compiled"

    def keep(name: str) -> bool:
        return True

    assert env.list_templates(filter_func=keep) == ["file-1.css"]  # a full build
    monkeypatch.setattr(mkdocs_dirty._SWITCH, "partial", True)
    assert theme.get_env().list_templates(filter_func=keep) == ["file-1.css"]
    assert len(calls) == 1  # the partial build did not list again
    monkeypatch.setattr(mkdocs_dirty._SWITCH, "partial", False)
    assert theme.get_env().list_templates(filter_func=keep) == ["file-2.css"]


def test_a_partial_build_always_renders_the_api_pages(project):
    builds = started(project)
    builds.memo[("en", "a.md")] = memo("A")
    builds.memo[("en", "b.md")] = memo("B")
    builds.memo[("en", "api.md")] = memo("API", api=True)
    save(project.root / "docs" / "a.zh.md", "# 甲\n\n新。\n")  # another edition's
    assert builds.decide() is True
    files = edition_files(project, "en")
    builds.choose("en", files, None)
    # Every build writes objects.inv from the API entries it rendered.
    assert rendered(files) == {"a.md": False, "b.md": False, "api.md": True}
