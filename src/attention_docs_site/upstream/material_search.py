"""Reach into Material's search: a page's entries from the cache, its languages."""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from attention_docs_site.upstream.guard import declare

SEARCH_ENTRIES = declare(
    "material: search entries from the cache",
    "mkdocs-material",
    "9.8.2",
    "replaces SearchIndex.add_entry_from_context, whose entries it takes from "
    "the render cache while the page and the search options are unchanged",
    "parsing every page's HTML into entries was a large part of a no-code rebuild",
    "speed",
)

Serve = Callable[[Any, Any, Callable[[], list[dict[str, object]]]], list[Any]]
"""Given the search index, a page and the page's entries computed, the entries."""


def serve_search_entries(serve: Serve) -> None:
    """Put ``serve`` in front of the search plugin's entries of each page (once)."""
    _install(serve)


@functools.cache
def _install(serve: Serve) -> None:
    from material.plugins.search.plugin import SearchIndex

    SEARCH_ENTRIES.replace(
        SearchIndex,
        "add_entry_from_context",
        ["self", "page"],
        functools.partial(_add_entry_from_context, serve),
    )


def _add_entry_from_context(
    serve: Serve, original: Callable[..., None]
) -> Callable[..., None]:
    @functools.wraps(original)
    def add_entry_from_context(self: Any, page: Any) -> None:  # noqa: ANN401
        if not SEARCH_ENTRIES.active:
            original(self, page)
            return

        def entries() -> list[dict[str, object]]:
            start = len(self.entries)
            original(self, page)
            added = self.entries[start:]
            del self.entries[start:]
            return added

        self.entries.extend(copy.deepcopy(serve(self, page, entries)))

    return add_entry_from_context


SEARCH_LANGUAGES = declare(
    "material: the search's languages",
    "mkdocs-material",
    "9.8.2",
    "takes the search's languages from the lunr files the theme ships "
    "(assets/javascripts/lunr/min/lunr.<lang>.min.js), not from MkDocs' list",
    "the search worker loads that file for each language of the index; "
    "MkDocs' list lacks some the theme has (Hebrew), whose edition would "
    "match whole words only (#45)",
    "correctness",
)
_LUNR = Path("assets", "javascripts", "lunr", "min")
_STEMMER = re.compile(r"lunr\.([a-z]{2,3})\.min\.js")


def lunr_languages(theme_dirs: Iterable[str]) -> frozenset[str]:
    """The languages the theme ships a lunr file for (English needs none).

    Parameters:
        theme_dirs: The theme's template folders (``config.theme.dirs``).

    Raises:
        UpstreamChanged: No folder has the lunr files.
    """
    found = {
        match[1]
        for folder in theme_dirs
        if (Path(folder) / _LUNR).is_dir()
        for path in (Path(folder) / _LUNR).iterdir()
        if (match := _STEMMER.fullmatch(path.name))
    }
    SEARCH_LANGUAGES.require(bool(found), f"no lunr.<lang>.min.js under {_LUNR}")
    return frozenset(found)


SEARCH_INDEX = declare(
    "material: the search index's entries",
    "mkdocs-material",
    "9.8.2",
    "reads and reorders the list of entries of its plugin's search_index, "
    "which its on_post_build writes out",
    "a partial build under serve renders some pages only; the index must "
    "hold every page's entries, in the order of a full build (#48)",
    "speed",
)


def index_entries(config: Any) -> list[Any] | None:  # noqa: ANN401 (MkDocsConfig)
    """The entries of the build's search index, as the plugin will write them.

    None without Material's search plugin (or with it disabled). Under
    ``mkdocs serve --dirty`` the plugin would merge them with the last
    build's index, which a partial build's list holds already: that merge is
    turned off (its ``search_index_prev``, kept for it, is dropped).
    """
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    if not SEARCH_INDEX.active or plugin is None:
        return None
    if not plugin.config.get("enabled", True) or not SEARCH_INDEX.require(
        hasattr(plugin, "search_index_prev"), "its plugin has no search_index_prev"
    ):
        return None
    plugin.search_index_prev = None
    index = getattr(plugin, "search_index", None)
    entries = getattr(index, "entries", None)
    if not SEARCH_INDEX.require(
        isinstance(entries, list), "its plugin has no search_index.entries list"
    ):
        return None
    return entries
