"""The MkDocs plugin that builds the attention_docs site.

It runs the pages' ``python`` code blocks (through markdown-exec) and the
exercise notebooks (in this process, for mkdocs-jupyter) behind the execution
cache, checks front matter and links, turns math into MathML, slims notebook
pages and writes their downloads, adds API links, translation notices and
descriptions, tidies the theme's HTML and draws the logo. Configured in
``mkdocs.yml``::

    plugins:
      - attention_docs:
          cache: true
          cache_dir: .cache/attention_docs
          execute_code: true
          execute_notebooks: true
          pdf: true

Environment variables override the options (for CI and the tests):
``ATTENTION_DOCS_CACHE``, ``ATTENTION_DOCS_CACHE_DIR``,
``ATTENTION_DOCS_EXECUTE``, ``ATTENTION_DOCS_EXECUTE_NOTEBOOKS`` and
``ATTENTION_DOCS_PDF``, with ``on``/``off`` (or ``true``/``false``,
``yes``/``no``, ``1``/``0``).

The editions (languages) are the i18n plugin's (:mod:`.editions`); once all
are built, :mod:`.site_finish` writes the site-wide files. Under ``mkdocs
serve`` the PDFs and the offline copies are not made (``mkdocs build`` makes
them), so a save shows in the browser sooner.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urljoin

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from attention_docs_site.editions import (
    Edition,
    Editions,
    catalog,
    current_edition,
    site_editions,
)
from attention_docs_site.execute import render_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.fence import EXEC_LOGGER, CachedFence
from attention_docs_site.execute.notebooks import (
    CachedConverter,
    notebook_name,
    quicken_mkdocs_jupyter,
    write_notebook,
)
from attention_docs_site.markdown.api_links import link_library_calls
from attention_docs_site.markdown.code_names import UnknownLibraryName, check_code_names
from attention_docs_site.page.mathml import render_math
from attention_docs_site.page.meta import (
    describe_page,
    edition_data,
    edition_downloads,
    source_path,
    translation_notice,
)
from attention_docs_site.page.notebook_pages import (
    check_notebook_rendered,
    download_link,
    heading_ids,
    is_notebook,
    rename_headings,
    rename_toc,
    slim_notebook,
)
from attention_docs_site.page.notebook_setup import add_setup_cell, run_yourself_box
from attention_docs_site.page.polish import (
    add_to_head,
    mark_code_annotations,
    polish_page,
    translate_tooltips,
)
from attention_docs_site.site import finish as site_finish
from attention_docs_site.site.book.pdf import PDF_FOLDER
from attention_docs_site.site.offline import OFFLINE_FOLDER
from attention_docs_site.site.search_split import (
    edition_base,
    keep_every_edition_s_entries,
)
from attention_docs_site.site.wheel import Wheel, library_wheel
from attention_docs_site.translations import TranslationError, split_front_matter

if TYPE_CHECKING:
    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

    class _EditionContext(TemplateContext, total=False):
        """A template's context with what this plugin adds."""

        ad_edition: Edition
        ad_editions: Editions | None


log = logging.getLogger("mkdocs.plugins.attention_docs")

_ON = {"1", "on", "true", "yes"}
_OFF = {"0", "off", "false", "no"}


class AttentionDocsConfig(base.Config):
    """The plugin's options in ``mkdocs.yml``."""

    cache = c.Type(bool, default=True)
    """Serve code blocks' and notebooks' output from the execution cache."""
    cache_dir = c.Type(str, default=".cache/attention_docs")
    """The cache folder, relative to ``mkdocs.yml``."""
    execute_code = c.Type(bool, default=True)
    """Run the pages' code blocks (off: a placeholder, the build's floor)."""
    execute_notebooks = c.Type(bool, default=True)
    """Run the exercise notebooks (off: rendered without outputs)."""
    pdf = c.Type(bool, default=True)
    """Print a PDF of each edition with Chromium (never under ``mkdocs serve``)."""


def switch(name: str, default: bool) -> bool:
    """An on/off environment variable, or ``default`` when it is not set.

    Raises:
        PluginError: The variable is set to something that is neither.
    """
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _ON | _OFF:
        return value.strip().lower() in _ON
    raise PluginError(f"{name}={value!r}: use on or off (true/false, yes/no, 1/0)")


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


def _answered_instant_warning(record: logging.LogRecord) -> bool:
    """Drop i18n's warning about navigation.instant, which language.js answers."""
    return "compatible with theme.features = navigation.instant" not in str(record.msg)


def _i18n_logger() -> logging.Logger:
    """The logger of mkdocs-static-i18n's configuration step, whatever its name.

    Its name depends on the executable: ``mkdocs.plugins...`` under MkDocs,
    ``properdocs.plugins...`` under ProperDocs, which aliases the ``mkdocs``
    package; the module's own logger object is the same under both.
    """
    from mkdocs_static_i18n import reconfigure

    found: logging.Logger | logging.LoggerAdapter = reconfigure.log
    return found.logger if isinstance(found, logging.LoggerAdapter) else found


def build_log_roots() -> list[logging.Logger]:
    """The loggers whose handlers print the build's messages.

    ``mkdocs``, and under ProperDocs (whose ``mkdocs`` package is an alias
    of ``properdocs``) ``properdocs``, which holds the handlers.
    """
    import mkdocs

    return [
        logging.getLogger(name) for name in dict.fromkeys(("mkdocs", mkdocs.__name__))
    ]


def nested_language_build(config: MkDocsConfig) -> bool:
    """Whether mkdocs-static-i18n is building one more language inside a build."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))


SERVE_POLL_SECONDS = 0.1


def poll_every(observer: object, seconds: float) -> bool:
    """Make watchdog's polling observer, and the watches it has, poll this often.

    The interval is fixed when the observer is made (MkDocs' LiveReloadServer
    makes it) and copied to each watch's emitter; watchdog has no setter.
    Another kind of observer is left as it is (False).
    """
    pollers = [observer, *getattr(observer, "emitters", ())]
    if not all(isinstance(getattr(p, "_timeout", None), float) for p in pollers):
        return False
    for poller in pollers:
        poller._timeout = seconds
    return True


class AttentionDocsPlugin(BasePlugin[AttentionDocsConfig]):
    """Builds the site's pages from the library; one instance per ``mkdocs serve``.

    Defining :meth:`on_startup` makes MkDocs keep this instance across the
    rebuilds of ``mkdocs serve``, so the cache notices a library edit between
    two builds. The rest of its state belongs to one build.
    """

    def __init__(self) -> None:
        # mkdocs-static-i18n warns that its language menu goes stale under
        # navigation.instant, which fails a strict build. docs/assets/language.js
        # points the menu at each new page's counterpart and loads the other
        # edition in full, so that warning is answered; the plugin exists
        # before i18n's on_config logs it.
        _i18n_logger().addFilter(_answered_instant_warning)
        self.page_filter = PageInWarnings()
        # Built file (relative to site_dir) -> its source, for link messages.
        self.sources: dict[str, str] = {}
        self.cache: ExecCache | None = None
        self.fence: CachedFence | None = None
        self.converter: CachedConverter | None = None
        self.wheel: Wheel | None = None
        self.editions: Editions | None = None
        self.serving = False
        self.said_serve_skips = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Note the command; its presence keeps one instance across serve rebuilds."""
        self.serving = command == "serve"

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer:
        """Notice a saved file within a tenth of a second, not half of one.

        MkDocs' server polls the watched files every 0.5 s, so a save waited
        0.25 s on average before its rebuild began: a sixth of a prose edit's
        whole loop (benchmarks/build.py --author). The watched files (the
        pages, the library, mkdocs.yml) are a few hundred; a poll of them all
        takes about a millisecond.
        """
        if not poll_every(server.observer, SERVE_POLL_SECONDS):
            log.info(
                "attention_docs: the server's file watcher keeps its own interval "
                f"({type(server.observer).__name__})"
            )
        return server

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Reset the build's state; wire the cache into the fence and notebooks."""
        self.page_filter.page = None
        if not nested_language_build(config):  # one build writes every language
            self.sources.clear()
        # Every edition must be fully configured (a catalog of its words).
        self.editions = site_editions(config)
        self._start_cache(config)
        self._register_fence(config)
        keep_every_edition_s_entries()  # each edition searches its own index
        # The library's version: in the footer (overrides/partials), the PDFs'
        # title pages, the notebooks' setup cell and the wheel the site carries.
        self.wheel = library_wheel(self._project(config))
        config.extra["library_version"] = self.wheel.version
        self._wrap_notebooks()
        for root in build_log_roots():
            for handler in root.handlers:  # addFilter skips a filter it has
                handler.addFilter(self.page_filter)
        return config

    @staticmethod
    def _project(config: MkDocsConfig) -> Path:
        """The repository's root: where ``mkdocs.yml`` and ``pyproject.toml`` are."""
        return Path(config.config_file_path or ".").resolve().parent

    def _start_cache(self, config: MkDocsConfig) -> None:
        folder_name = os.environ.get("ATTENTION_DOCS_CACHE_DIR")
        if folder_name is None:
            folder = Path(config.config_file_path or ".").parent / self.config.cache_dir
        else:
            folder = Path(folder_name)
        enabled = switch("ATTENTION_DOCS_CACHE", self.config.cache)
        if self.cache is None:
            self.cache = ExecCache(folder)
        self.cache.folder, self.cache.enabled = folder, enabled
        self.cache.start_build(config.markdown_extensions, config.mdx_configs)
        render_cache.install()
        render_cache.use(self.cache)
        execute = switch("ATTENTION_DOCS_EXECUTE", self.config.execute_code)
        self.fence = CachedFence(self.cache, execute=execute)

    def _register_fence(self, config: MkDocsConfig) -> None:
        """Make ``python`` fences run through markdown-exec behind the cache."""
        from markdown_exec import validator

        superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
        fences = superfences.setdefault("custom_fences", [])
        fences[:] = [fence for fence in fences if fence.get("name") != "python"]
        fences.append(
            {
                "name": "python",
                "class": "python",
                "validator": validator,
                "format": self.fence,
            }
        )

    def _wrap_notebooks(self) -> None:
        """Put the cache and in-process execution in front of mkdocs-jupyter."""
        import mkdocs_jupyter.convert

        current = mkdocs_jupyter.convert.nb2html
        original = current.nb2html if isinstance(current, CachedConverter) else current
        execute = switch(
            "ATTENTION_DOCS_EXECUTE_NOTEBOOKS", self.config.execute_notebooks
        )
        assert self.cache is not None
        self.converter = CachedConverter(original, self.cache, execute=execute)
        mkdocs_jupyter.convert.nb2html = self.converter
        quicken_mkdocs_jupyter()

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        """Keep the theme's compiled templates between editions and builds."""
        env.bytecode_cache = render_cache.BYTECODE
        return env

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Check the front matter and the library names; add API links.

        MkDocs has parsed the front matter already; front matter it could not
        read (not closed, not YAML, not a mapping) it leaves at the top of the
        page's text, and would publish as prose. Only then is the file parsed
        again, strictly, for the message.

        Raises:
            TranslationError: The front matter is not valid YAML or not closed.
            PluginError: The prose names a library name that does not exist
                (:mod:`.code_names`).
        """
        self.page_filter.page = f"docs/{page.file.src_uri}"
        if markdown.startswith("---"):
            source = source_path(page)
            split_front_matter(
                source.read_text(encoding="utf-8"), Path("docs") / page.file.src_uri
            )
        try:
            check_code_names(markdown, f"docs/{page.file.src_uri}")
        except UnknownLibraryName as error:
            raise PluginError(str(error)) from None
        return link_library_calls(markdown, self._edition(config).word("library_label"))

    def _edition(self, config: MkDocsConfig) -> Edition:
        """The edition being built."""
        return current_edition(config, self.editions)

    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Notices, math as MathML, slimmed notebooks with downloads."""
        edition = self._edition(config)
        assert self.editions is not None
        try:
            check_notebook_rendered(source_path(page), html)
            describe_page(page, html)
            notice = translation_notice(page, edition, self.editions.default)
            if is_notebook(html):
                assert self.wheel is not None
                link = download_link(
                    page.file.src_uri,
                    edition.word("download_notebook"),
                    edition.word("download_all"),
                ) + run_yourself_box(edition.lang, self.wheel, page.url)
                ids = heading_ids(html)
                rename_toc(page.toc, ids)
                body = rename_headings(slim_notebook(html), ids)
                return notice + link + self._in_its_language(body, page, edition)
            words = catalog(edition.lang)
            html = edition_downloads(render_math(html), page.url, edition)
            html = mark_code_annotations(html)
            return notice + self._in_its_language(
                translate_tooltips(html, words), page, edition
            )
        except TranslationError:
            raise  # already names the file
        except ValueError as error:
            raise ValueError(f"{page.file.src_uri}: {error}") from error

    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, **_: object
    ) -> TemplateContext:
        """Give the templates the page's edition and every edition's words."""
        return self._edition_context(context, config)

    def on_template_context(
        self, context: TemplateContext, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        """The same for templates without a page (404.html)."""
        return self._edition_context(context, config)

    def _edition_context(
        self, context: TemplateContext, config: MkDocsConfig
    ) -> TemplateContext:
        """``ad_edition``, the page's edition, and ``ad_editions``, all of them."""
        extended = cast("_EditionContext", context)  # the same dict, more keys
        extended["ad_edition"] = self._edition(config)
        extended["ad_editions"] = self.editions
        return extended

    def _in_its_language(self, content: str, page: Page, edition: Edition) -> str:
        """Mark a page served untranslated as written in the default language.

        Its edition's ``<html lang>`` would make screen readers read the
        English text as, say, Japanese.
        """
        assert self.editions is not None
        if edition.default or source_path(page).name.endswith(f".{edition.lang}.md"):
            return content
        return f'<div lang="{self.editions.default.lang}">{content}</div>'

    def on_post_page(
        self, output: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Note the page's source, tidy its HTML, write its notebook download."""
        built = Path(page.file.abs_dest_path).relative_to(config.site_dir).as_posix()
        self.sources[built] = page.file.src_uri
        edition = self._edition(config)
        if is_notebook(output):
            source = source_path(page)
            executed = self.converter.executed if self.converter else {}
            assert self.wheel is not None
            setup = functools.partial(
                add_setup_cell,
                lang=edition.lang,
                wheel=self.wheel,
                url=urljoin(config.site_url or "", self.wheel.path),
            )
            write_notebook(
                source,
                Path(page.file.abs_dest_path).parent / notebook_name(page.file.src_uri),
                urljoin(config.site_url or "", page.url),
                executed.get(str(source.resolve())),
                setup,
            )
        if not edition.default:  # its own search index (search_split)
            output = edition_base(output, edition.lang)
        return polish_page(self._with_edition_data(output, config))

    def _with_edition_data(self, output: str, config: MkDocsConfig) -> str:
        """Tell the page's scripts its edition and the others' folders."""
        assert self.editions is not None
        return add_to_head(output, edition_data(self._edition(config), self.editions))

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        """The fixes of :func:`.html_polish.polish_page`, for 404.html too."""
        if not template_name.endswith(".html"):
            return output_content  # sitemap.xml keeps its hreflang alternates
        return polish_page(self._with_edition_data(output_content, config))

    def _report_cache(self, *, config: MkDocsConfig) -> None:
        """Report what the execution cache did (one line per language built)."""
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

    @event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
    def _finish_site(self, *, config: MkDocsConfig) -> None:
        """Once every language is built: logos, zips, search, books, copies, links.

        Under ``mkdocs serve`` the PDFs and offline copies are left to
        ``mkdocs build`` (said once per session): they take seconds a writer
        waiting for a page does not need. So is the security policy: the
        server writes livereload's inline script into every page it serves,
        which the policy would block.
        """
        if nested_language_build(config):
            return  # the outer build draws and checks, once for every language
        assert self.editions is not None and self.wheel is not None
        site_finish.write_site_files(config, self._project(config), self.editions)
        site_finish.subset_math_font(config, self.sources)  # before books and copies
        if not self.serving:  # livereload injects an inline script it would block
            site_finish.add_security_policy(config)  # every page written by now
        pdfs = not self.serving and switch("ATTENTION_DOCS_PDF", self.config.pdf)
        if pdfs:
            site_finish.print_books(config, self.editions, self.wheel.version)
        elif not self.serving:
            log.info("attention_docs pdf: not printed (ATTENTION_DOCS_PDF=off)")
        if not self.serving:
            site_finish.write_offline_copies(config, self.editions)
        elif not self.said_serve_skips:
            log.info(
                "attention_docs: under mkdocs serve, no PDFs, no offline "
                "copies and no security policy, which would block livereload's "
                "script (mkdocs build makes them)"
            )
            self.said_serve_skips = True
        # The home pages link the PDFs and the offline copies.
        unbuilt: tuple[str, ...] = () if pdfs else (f"{PDF_FOLDER}/",)
        if self.serving:
            unbuilt += (f"{OFFLINE_FOLDER}/",)
        site_finish.check_links(config, unbuilt, self.sources)

    on_post_build = CombinedEvent(_report_cache, _finish_site)
