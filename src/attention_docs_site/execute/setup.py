"""The execution stage's set-up for one build: cache, fence, notebooks, warnings.

Enters: the build's configuration and :class:`~attention_docs_site.options.Settings`.
Leaves: an :class:`Execution` whose cache serves the ``python`` fences and
the notebooks' converter, and the warnings of markdown-exec named by page.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from attention_docs_site.execute import render_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.fence import EXEC_LOGGER, CachedFence
from attention_docs_site.execute.notebooks import (
    CachedConverter,
    quicken_mkdocs_jupyter,
)
from attention_docs_site.upstream.mkdocs_jupyter import install_converter

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from attention_docs_site.options import Settings

log = logging.getLogger("mkdocs.plugins.attention_docs")


class PageInWarnings(logging.Filter):
    """Prefix markdown-exec's warnings with the page being rendered."""

    def __init__(self) -> None:
        super().__init__()
        self.page: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        """Name the page in a markdown-exec warning; never drops a record."""
        named = getattr(record, "attention_docs_page", False)
        if self.page and not named and record.name.startswith(EXEC_LOGGER):
            record.msg = f"{self.page}: {record.msg}"
            record.attention_docs_page = True
        return True


def build_log_roots() -> list[logging.Logger]:
    """The loggers whose handlers print the build's messages.

    ``mkdocs``, and under ProperDocs (whose ``mkdocs`` package is an alias
    of ``properdocs``) ``properdocs``, which holds the handlers.
    """
    import mkdocs

    return [
        logging.getLogger(name) for name in dict.fromkeys(("mkdocs", mkdocs.__name__))
    ]


@dataclass
class Execution:
    """What runs code for the pages and notebooks; one per ``mkdocs serve``.

    The cache is kept across the rebuilds of ``mkdocs serve``, so it notices
    a library edit between two builds.
    """

    cache: ExecCache | None = None
    fence: CachedFence | None = None
    converter: CachedConverter | None = None
    page_filter: PageInWarnings = field(default_factory=PageInWarnings)

    def start(self, config: MkDocsConfig, settings: Settings) -> None:
        """Start a build: the cache, the ``python`` fence, the notebooks' converter."""
        self.page_filter.page = None
        if self.cache is None:
            self.cache = ExecCache(settings.cache_dir)
        self.cache.folder, self.cache.enabled = settings.cache_dir, settings.cache
        self.cache.start_build(config.markdown_extensions, config.mdx_configs)
        render_cache.install()
        render_cache.use(self.cache)
        self.fence = CachedFence(
            self.cache, execute=settings.execute_code, marks=settings.run_buttons
        )
        register_fence(config, self.fence)
        cache = self.cache

        def converter(nb2html: object) -> CachedConverter:
            self.converter = CachedConverter(
                nb2html,  # type: ignore[arg-type]
                cache,
                execute=settings.execute_notebooks,
                marks=settings.run_buttons,
            )
            return self.converter

        install_converter(converter)
        quicken_mkdocs_jupyter()
        for root in build_log_roots():
            for handler in root.handlers:  # addFilter skips a filter it has
                handler.addFilter(self.page_filter)

    def executed(self) -> dict[str, str]:
        """The notebooks as this build ran them, by resolved source path."""
        return self.converter.executed if self.converter else {}

    def report(self) -> None:
        """Report what the caches did (one line each per language built)."""
        assert self.cache is not None
        stats = self.cache.stats
        log.info(
            "attention_docs cache (%s): %d hits, %d misses, %d corrupt entries "
            "recomputed, %d outdated by a library edit",
            "on" if self.cache.enabled else "off",
            stats.hits,
            stats.misses,
            stats.corrupt,
            stats.outdated,
        )
        rendered = render_cache.stats()
        log.info(
            "attention_docs render cache: %d hits, %d misses (API entries, "
            "search entries)",
            rendered.hits,
            rendered.misses,
        )


def register_fence(config: MkDocsConfig, fence: CachedFence) -> None:
    """Make ``python`` fences run through markdown-exec behind the cache."""
    from markdown_exec import validator

    superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    fences = superfences.setdefault("custom_fences", [])
    fences[:] = [found for found in fences if found.get("name") != "python"]
    fences.append(
        {"name": "python", "class": "python", "validator": validator, "format": fence}
    )
