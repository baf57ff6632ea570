"""What a save under ``mkdocs serve`` re-renders, and what the other pages keep.

``mkdocs serve`` calls a full build after every save: every page of every
edition read, run, rendered and written again. One :class:`PartialBuilds`
per serve process remembers, from each build, what each page was built from
and what the rest of the site takes from it, and makes the next build
partial when it can say which pages a save changes (MkDocs's own dirty build
carries it out, through :mod:`..upstream.mkdocs_dirty`).

**Which files changed.** Before each rebuild, every file under the folders a
build reads is stamped (path, size, time stamp) and, when its stamp moved,
hashed: the configuration, ``docs/``, the theme's overrides, the site's
plugin (with its catalogs), the teaching library and what else ``mkdocs.yml``
has serve watch (:mod:`.stamps`). A file saved with the same bytes has not
changed, and a save that changed nothing builds nothing.

**A full build**, said in the log with its reason, when the save changed:

- ``mkdocs.yml``, ``pyproject.toml``, the overrides, the plugin or its
  catalogs, or another folder serve watches (they may shape every page);
- a file of ``docs/`` that is not a page (a style sheet, a script, an image);
- which files there are (a page added, removed or renamed);
- a file of the library that is not Python (the figures' font);
- the library's names (a function added, removed, renamed or moved): every
  page's check of the names its prose writes, and its API links, read them;
  or its version, which every page's footer shows;
- or when the last build failed, or none has finished yet, or the speed
  edits are off.

**Otherwise a partial build**, which renders, in each edition:

- a page whose source changed, and a translation whose English source
  changed (its notice says when the English page moved on);
- a page whose code blocks or notebook ran library code that has changed
  since (the execution cache records each block's reach; the blocks re-run);
- the API pages, always: the links from a rendered page to the API resolve
  against the anchors those pages register as they render (mkdocs-autorefs),
  and every edition's build writes the inventory, ``objects.inv``, from the
  entries it rendered (mkdocstrings);
- a page with no output yet.

The others keep last build's output, and give the navigation of the rendered
pages their titles and front matter, and the search index their entries, as
last build recorded them. If a rendered page's title (or the icon or status
its front matter gives the navigation) changed,
the navigation of every page shows it: the build then renders every page
(and says so), and so do the next editions' builds.

The site-wide files follow (:class:`..site.finish.Partial`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_docs_site.markdown.code_names import names_digest
from attention_docs_site.serve.stamps import Roots, Stamp, classify, stamps
from attention_docs_site.translations.pages import english_path
from attention_docs_site.upstream.mkdocs_dirty import (
    keep_title,
    render_now,
    render_only,
)
from attention_docs_site.wheel import library_wheel

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from attention_docs_site.execute.cache import ExecCache

log = logging.getLogger("mkdocs.plugins.attention_docs")

_RERUN = "library code its blocks ran changed"

PageKey = tuple[str, str]
"""An edition's language and a page's ``src_uri`` in it."""


@dataclass
class PageMemo:
    """What a page gave the last build: for the navigation, search, re-rendering."""

    title: str | None
    meta: dict[str, Any]
    units: dict[str, str | None]  # the library code its blocks reached, by digest
    api: bool  # it renders API entries (`:::` blocks)
    entries: list[Any] = field(default_factory=list)  # its search entries


class PartialBuilds:
    """The serve stage's memory across the rebuilds of one ``mkdocs serve``."""

    def __init__(self) -> None:
        self.roots: Roots | None = None
        self.inputs: dict[str, Stamp] = {}
        self.complete = False  # the last build finished
        self.partial = False  # the build under way
        self.changed: frozenset[str] = frozenset()
        self.library_changed = False
        self.notebooks_changed = False
        self.everything = False  # a partial build that renders every page after all
        self.names: str | None = None
        self.version: str | None = None
        self.memo: dict[PageKey, PageMemo] = {}
        # The edition build under way: its pages in order, those rendered.
        self.order: list[PageKey] = []
        self.rendered: dict[PageKey, PageMemo] = {}
        self.seen = 0  # search entries of the edition's index already assigned

    # The build as a whole ---------------------------------------------------

    def start(self, config: MkDocsConfig, plugin: Path, library: Path) -> None:
        """The first build of the serve: note what the builds read, and stamp it."""
        if self.roots is not None:
            return
        theme = config.theme.custom_dir
        self.roots = Roots(
            config=Path(config.config_file_path or "mkdocs.yml").resolve(),
            docs=Path(config.docs_dir).resolve(),
            theme=Path(theme).resolve() if theme else None,
            plugin=plugin.resolve(),
            library=library.resolve(),
            watched=tuple(Path(path).resolve() for path in config.watch),
        )
        self.inputs = stamps(self.roots.all(), {})

    def decide(self, allowed: bool = True) -> bool | None:
        """Before a rebuild: whether it can be partial (the reason is logged if not).

        Parameters:
            allowed: False when partial builds are off (the speed switch).

        Returns:
            True for a partial build, False for a full one, None when no file
            changed since the last build, which finished: a build would write
            what the site holds, and none is needed.
        """
        self.partial = self.everything = False
        if self.roots is None:
            return False
        before, self.inputs = self.inputs, stamps(self.roots.all(), self.inputs)
        changed = {
            name
            for name in before.keys() | self.inputs.keys()
            if name not in before
            or name not in self.inputs
            or before[name][2] != self.inputs[name][2]
        }
        reason = self._full_build_reason(changed, before)
        if not self.complete:
            reason = "the last build did not finish"
        if not allowed:
            reason = "partial rebuilds are off with the speed edits"
        elif not changed and self.complete:
            log.info("attention_docs serve: no file a build reads changed: no build")
            return None
        self.complete = False
        if reason:
            log.info("attention_docs serve: every page is rendered: %s", reason)
            return False
        self.changed = frozenset(changed)
        self.partial = True
        return True

    def _full_build_reason(self, changed: set[str], before: Mapping[str, Stamp]) -> str:
        assert self.roots is not None
        found = classify(changed, before, self.inputs, self.roots)
        self.library_changed, self.notebooks_changed = found.library, found.notebooks
        if found.reason:
            return found.reason
        if self.library_changed:
            names, self.names = self.names, names_digest()
            if names != self.names:
                return "the library's names changed, which every page's checks read"
            version, self.version = self.version, self._version()
            if version != self.version:
                return "the library's version changed, which every page's footer shows"
        return ""

    def _version(self) -> str:
        assert self.roots is not None
        return library_wheel(self.roots.config.parent).version

    def finished(self) -> None:
        """The build finished: the next may be partial."""
        if not self.partial:  # the baselines, as this build read them
            self.names, self.version = names_digest(), self._version()
        self.complete = True

    def failed(self) -> None:
        """The build failed: the next renders every page."""
        self.complete = self.partial = False

    # One edition's build ----------------------------------------------------

    def choose(self, lang: str, files: Files, cache: ExecCache | None) -> None:
        """Before the edition's pages are read: which to render, which to keep."""
        pages = list(files.documentation_pages())
        self.order = [(lang, file.src_uri) for file in pages]
        self.rendered, self.seen = {}, 0
        if not self.partial:
            return
        rendered = []
        for file in pages:
            memo = self.memo.get((lang, file.src_uri))
            reason = self._render_reason(file, memo, cache)
            render_only(file, render=bool(reason))
            if reason:
                rendered.append(f"{file.src_uri} ({reason})")
            elif file.page is not None and memo is not None:
                keep_title(file.page, memo.title, memo.meta)
        log.info(
            "attention_docs serve: %s: %d of %d pages rendered%s",
            lang,
            len(rendered),
            len(pages),
            "".join(f"\n  {line}" for line in rendered),
        )

    def _render_reason(
        self, file: File, memo: PageMemo | None, cache: ExecCache | None
    ) -> str:
        if self.everything:
            return "a title changed"
        if memo is None:
            return "new"
        if file.abs_src_path is not None:
            source = Path(file.abs_src_path).resolve()
            if str(source) in self.changed:
                return "its source changed"
            if str(english_path(source)) in self.changed:
                return "its English source changed"
        if memo.api:
            return "API entries"
        if (
            self.library_changed
            and cache is not None
            and not cache.source.is_fresh(memo.units)
        ):
            return _RERUN
        if not os.path.isfile(file.abs_dest_path):
            return "no output yet"
        return ""

    def page_started(self, cache: ExecCache | None) -> None:
        """A page's Markdown is about to be rendered: count its reach anew."""
        if cache is not None:
            cache.reached = set()

    def page_rendered(
        self, lang: str, page: Page, markdown_api: bool, cache: ExecCache | None
    ) -> None:
        """A page's body is rendered: remember what the next builds need of it."""
        units = cache.source.current(cache.reached) if cache is not None else {}
        self.rendered[(lang, page.file.src_uri)] = PageMemo(
            title=page.title, meta=dict(page.meta), units=units, api=markdown_api
        )

    def recheck_titles(self, lang: str, config: MkDocsConfig, files: Files) -> None:
        """After the pages are read: if a title in the navigation moved, render all."""
        if not self.partial or self.everything:
            return
        moved = [
            uri
            for (_, uri), now in self.rendered.items()
            if (memo := self.memo.get((lang, uri))) is not None
            and _navigation(memo) != _navigation(now)
        ]
        if not moved:
            return
        log.info(
            "attention_docs serve: the title, icon or status of %s changed, which "
            "the navigation of every page shows: every page is rendered",
            ", ".join(moved),
        )
        self.everything = True
        for file in files.documentation_pages():
            if (lang, file.src_uri) not in self.rendered and file.page is not None:
                render_only(file, render=True)
                render_now(file.page, config, files)

    def page_entries(self, lang: str, page: Page, entries: list[Any] | None) -> None:
        """The search index after the page's context: its entries are the new ones."""
        memo = self.rendered.get((lang, page.file.src_uri))
        if entries is None or memo is None:
            return
        memo.entries = entries[self.seen :]
        self.seen = len(entries)

    def edition_built(self, entries: list[Any] | None) -> None:
        """Before the edition's index is written: every page's entries, in order."""
        if self.partial and entries is not None:
            entries[:] = [
                entry
                for key in self.order
                for entry in (self.rendered.get(key) or self.memo[key]).entries
            ]
        self.memo.update(self.rendered)


# The front matter Material's navigation shows of a page other than its own.
_NAVIGATION_META = ("icon", "subtitle", "status")


def _navigation(memo: PageMemo) -> tuple[object, ...]:
    """What the navigation of every page shows of this one: title, icon, status."""
    return (memo.title, *(memo.meta.get(key) for key in _NAVIGATION_META))
