"""Reaches into mkdocs-static-i18n: its configuration warning and build state."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from attention_docs_site.upstream.guard import declare

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

INSTANT_WARNING = declare(
    "mkdocs-static-i18n: instant-navigation warning answered",
    "mkdocs-static-i18n",
    "1.3.1",
    "filters its warning that the language menu goes stale under "
    "navigation.instant, from the logger of its reconfigure module",
    "docs/assets/language.js answers it (the menu follows the page); the "
    "warning would fail every strict build",
    "correctness",
)
NESTED_BUILD = declare(
    "mkdocs-static-i18n: nested language build",
    "mkdocs-static-i18n",
    "1.3.1",
    "reads its plugin's `building` attribute",
    "it builds each further edition inside the first build; the site-wide "
    "steps must run once, after the last",
    "correctness",
)
BUILDING_LANGUAGE = declare(
    "mkdocs-static-i18n: language being built",
    "mkdocs-static-i18n",
    "1.3.1",
    "reads its plugin's `current_language`",
    "each page and template is finished in its own edition's words",
    "correctness",
)
_WARNING = "compatible with theme.features = navigation.instant"


def _answered_instant_warning(record: logging.LogRecord) -> bool:
    """Drop i18n's warning about navigation.instant, which language.js answers."""
    return _WARNING not in str(record.msg)


def answer_instant_warning() -> None:
    """Filter i18n's navigation.instant warning out of its logger (idempotent).

    Its logger's name depends on the executable (``mkdocs.plugins...`` under
    MkDocs, ``properdocs.plugins...`` under ProperDocs, which aliases the
    ``mkdocs`` package); the module's own logger object is the same under both.
    """
    from mkdocs_static_i18n import reconfigure

    found = getattr(reconfigure, "log", None)
    if isinstance(found, logging.LoggerAdapter):
        found = found.logger
    if INSTANT_WARNING.require(
        isinstance(found, logging.Logger), "reconfigure.log is not a logger"
    ):
        assert isinstance(found, logging.Logger)
        found.addFilter(_answered_instant_warning)


def nested_language_build(config: MkDocsConfig) -> bool:
    """Whether mkdocs-static-i18n is building one more language inside a build."""
    plugin = config.plugins.get("i18n")
    if plugin is None:
        return False
    NESTED_BUILD.require(hasattr(plugin, "building"), "its plugin has no `building`")
    return bool(getattr(plugin, "building", False))


def building_language(config: MkDocsConfig) -> str | None:
    """The language mkdocs-static-i18n is building (None without i18n)."""
    plugin = config.plugins.get("i18n")
    if plugin is None:
        return None
    BUILDING_LANGUAGE.require(
        hasattr(plugin, "current_language"), "its plugin has no `current_language`"
    )
    return getattr(plugin, "current_language", None)
