"""Reaches into mkdocstrings: its ``:::`` blocks served from the render cache.

mkdocstrings renders every API entry anew on each build and edition. The
execution stage keeps entries (``execute/render_cache.py`` decides the key
and stores them); what that takes of mkdocstrings' internals is here: the
block's processor replaced, its page, handlers and locale read, the headings
a rendering leaves on the handler for the extension to take, and the aliases
(re-exports) of a cached entry's headings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import fromstring, tostring

from attention_docs_site.upstream.guard import declare

API_ENTRIES = declare(
    "mkdocstrings: API entries from the cache",
    "mkdocstrings",
    "1.0.8",
    "replaces AutoDocProcessor._process_block; reads its _autorefs.current_page, "
    "_handlers, the handlers' _locale and a rendering's handler._headings",
    "rendering the API page from the docstrings was most of a no-code "
    "rebuild; an unchanged entry is served as it was",
    "speed",
)
API_ALIASES = declare(
    "mkdocstrings-python: a cached entry's aliases",
    "mkdocstrings-python",
    "2.0.11",
    "replaces PythonHandler.get_aliases: a cached entry's aliases first",
    "an entry served from the cache was not collected, so the handler does "
    "not know its re-exports, which autorefs needs for links",
    "speed",
)


@dataclass(frozen=True)
class ApiBlock:
    """One ``:::`` block as mkdocstrings is about to render it."""

    identifier: str
    yaml_block: str
    heading_level: int
    local_config: Mapping[str, Any]
    handler_name: str
    handler: Any
    locale: str | None
    page: Any


Serve = Callable[[ApiBlock, Callable[[], dict[str, Any]]], dict[str, Any] | None]
"""Given a block and its rendering, the entry to use (None: render as usual)."""


@dataclass
class _Aliases:
    """API heading id -> the names it is also known by (from cached entries)."""

    known: dict[str, tuple[str, ...]] = field(default_factory=dict)


_ALIASES = _Aliases()


def forget_aliases() -> None:
    """Start a build with no cached entry's aliases."""
    _ALIASES.known = {}


def serve_api_entries(serve: Serve) -> None:
    """Put ``serve`` in front of mkdocstrings' rendering of each block (once)."""
    _install(serve)


@functools.cache
def _install(serve: Serve) -> None:
    from mkdocstrings import AutoDocProcessor
    from mkdocstrings_handlers.python import PythonHandler

    API_ENTRIES.replace(
        AutoDocProcessor,
        "_process_block",
        ["self", "identifier", "yaml_block", "heading_level"],
        functools.partial(_process_block, serve),
    )
    API_ALIASES.replace(
        PythonHandler, "get_aliases", ["self", "identifier"], _get_aliases
    )


def _process_block(serve: Serve, original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def process_block(
        self: Any,  # noqa: ANN401 (mkdocstrings' AutoDocProcessor)
        identifier: str,
        yaml_block: str,
        heading_level: int = 0,
    ) -> tuple[str, Any, Any]:
        page = self._autorefs.current_page
        # Served from the cache only with the aliases of what was not collected.
        if page is None or not (API_ENTRIES.active and API_ALIASES.active):
            return original(self, identifier, yaml_block, heading_level)
        import yaml

        handlers = self._handlers
        local_config = yaml.safe_load(yaml_block) or {}
        name = handlers.get_handler_name(local_config)
        handler = handlers.get_handler(name)
        block = ApiBlock(
            identifier, yaml_block, heading_level, local_config, name, handler,
            handlers._locale, page,
        )  # fmt: skip
        rendered = []

        def render() -> dict[str, Any]:
            html, used, _ = original(self, identifier, yaml_block, heading_level)
            rendered.append(used)
            # The headings stay on the handler for the extension to take; their
            # aliases (re-exports) come from what the handler collected.
            headings = [tostring(h, encoding="unicode") for h in used._headings]
            aliases = {
                h.attrib["id"]: list(used.get_aliases(h.attrib["id"]))
                for h in used._headings
                if "id" in h.attrib
            }
            return {"html": html, "headings": headings, "aliases": aliases}

        entry = serve(block, render)
        if entry is None:
            return original(self, identifier, yaml_block, heading_level)
        if not rendered:  # a hit: give the extension the headings to take
            handler._headings.extend(fromstring(h) for h in entry["headings"])
        _ALIASES.known.update(
            (heading, tuple(names)) for heading, names in entry["aliases"].items()
        )
        return entry["html"], handler, None

    return process_block


def _get_aliases(collected: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(collected)
    def get_aliases(self: Any, identifier: str) -> tuple[str, ...]:  # noqa: ANN401
        """A cached entry's aliases, else those of what the handler collected."""
        if identifier in _ALIASES.known:
            return _ALIASES.known[identifier]
        return collected(self, identifier)

    return get_aliases


API_LOCALE = declare(
    "mkdocstrings: the edition's locale",
    "mkdocstrings",
    "1.0.8",
    "sets the handlers' _locale to the language of the edition being built",
    "mkdocstrings reads theme.language in its on_config, before "
    "mkdocs-static-i18n's (priority -100) sets it for the edition: each "
    "edition's API labels were in the previous edition's language (#45)",
    "correctness",
    report="mkdocstrings: the locale read before mkdocs-static-i18n sets it",
)


def set_api_locale(plugins: Mapping[str, Any], lang: str) -> None:
    """Give mkdocstrings' handlers the edition's language, for their labels.

    Parameters:
        plugins: The build's plugins (``config.plugins``).
        lang: The edition's locale.
    """
    plugin = plugins.get("mkdocstrings")
    if plugin is None:
        return
    handlers: Any = getattr(plugin, "_handlers", None)
    if API_LOCALE.require(hasattr(handlers, "_locale"), "no _handlers._locale"):
        handlers._locale = lang.replace("_", "-")
