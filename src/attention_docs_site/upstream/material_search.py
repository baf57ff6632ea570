"""Reach into Material's search plugin: a page's entries from the render cache."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
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
