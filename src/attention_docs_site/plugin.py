"""The MkDocs plugin that builds the attention_docs site: MkDocs's events only.

Each event hands over to a stage, in a line or two:

- configure: :mod:`.options` (the options and the environment's overrides),
  :mod:`.editions` (the i18n plugin's languages and their words);
- :mod:`.markdown`: a page's Markdown (library names checked, API links);
- :mod:`.execute`: code blocks and notebooks behind the execution cache;
- :mod:`.page`: a page's HTML (notices, math, notebooks, the theme's markup);
- :mod:`.site`: the whole built site (search, wheel, zips, PDFs, copies, links);
- :mod:`.serve`: under ``mkdocs serve``, which pages a save re-renders;
- :mod:`.upstream`: every reach into a dependency, declared and guarded.

Configured in ``mkdocs.yml``::

    plugins:
      - attention_docs:
          cache: true
          cache_dir: .cache/attention_docs
          execute_code: true
          execute_notebooks: true
          pdf: true
          speed_edits: true

Under ``mkdocs serve`` the PDFs, the offline copies and the security policy
are not made (``mkdocs build`` makes them), so a save shows in the browser
sooner, and a rebuild renders only the pages the save can change
(:mod:`.serve.partial`).
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, cast

from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from attention_docs_site.editions import (
    Edition,
    Editions,
    current_edition,
    site_editions,
)
from attention_docs_site.execute import render_cache
from attention_docs_site.execute.fingerprints import library_folder
from attention_docs_site.execute.setup import Execution
from attention_docs_site.markdown import check_page_markdown, edition_markdown
from attention_docs_site.options import AttentionDocsConfig, Settings, settings
from attention_docs_site.page.content import (
    foreign_titles,
    page_content,
    page_output,
    write_notebook_download,
)
from attention_docs_site.page.notebook_pages import is_notebook
from attention_docs_site.serve import PartialBuilds
from attention_docs_site.site.finish import Partial, check_pyodide, finish_site
from attention_docs_site.site.search_split import search_languages
from attention_docs_site.upstream import guard, mkdocs_dirty
from attention_docs_site.upstream.i18n import (
    answer_instant_warning,
    building_language,
    nested_language_build,
)
from attention_docs_site.upstream.material_html import template_edit
from attention_docs_site.upstream.material_languages import direction
from attention_docs_site.upstream.material_search import index_entries
from attention_docs_site.upstream.material_titles import ForeignTitles
from attention_docs_site.upstream.mkdocs_livereload import quicker_serve
from attention_docs_site.upstream.mkdocstrings import set_api_locale
from attention_docs_site.wheel import Wheel, library_wheel

if TYPE_CHECKING:
    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

    class _EditionContext(TemplateContext, total=False):
        """A template's context with what this plugin adds."""

        ad_edition: Edition
        ad_editions: Editions | None


log = logging.getLogger("mkdocs.plugins.attention_docs")

SERVE_POLL_SECONDS = 0.1
# A line that renders API entries (mkdocstrings' block).
_API_BLOCK = re.compile(r"^:::[ \t]", re.M)


class AttentionDocsPlugin(BasePlugin[AttentionDocsConfig]):
    """Builds the site's pages from the library; one instance per ``mkdocs serve``.

    Defining :meth:`on_startup` makes MkDocs keep this instance across the
    rebuilds of ``mkdocs serve``, so the cache notices a library edit between
    two builds. The rest of its state belongs to one build.
    """

    def __init__(self) -> None:
        # i18n logs its warning in its on_config, after this plugin exists.
        answer_instant_warning()
        self.execution = Execution()
        # Built file (relative to site_dir) -> its source, for link messages.
        self.sources: dict[str, str] = {}
        # Template name -> the default edition's page (see on_post_template).
        self.default_templates: dict[str, str] = {}
        self.settings: Settings | None = None
        self.wheel: Wheel | None = None
        self.editions: Editions | None = None
        self.titles: ForeignTitles | None = None  # the page's, from its context
        self.serving = False
        # Under serve: what each build rendered, so the next renders what changed.
        self.partial = PartialBuilds()
        self.api_page = False  # the page being rendered has API entries

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Note the command; its presence keeps one instance across serve rebuilds.

        Under serve, a rebuild is partial when the serve stage can say which
        pages the save changed (``--dirty`` is not needed, and not followed).
        """
        self.serving = command == "serve"
        if self.serving:
            mkdocs_dirty.dirty_builds(self._partial_rebuild)

    def _partial_rebuild(self) -> bool | None:
        """Whether serve's next build renders only what changed (see :mod:`.serve`).

        None: no file changed, and no build is needed.
        """
        return self.partial.decide(allowed=mkdocs_dirty.partial_allowed())

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer:
        """Notice a save within a tenth of a second."""
        quicker_serve(server, SERVE_POLL_SECONDS)
        log.info(
            "attention_docs: under mkdocs serve, no PDFs, no offline copies and "
            "no security policy, which would block livereload's script (mkdocs "
            "build makes them)"
        )
        return server

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Start a build: settings, editions, execution, search, the library's wheel."""
        self.settings = settings(self.config, config.config_file_path)
        if not (nested := nested_language_build(config)):  # one build, every edition
            if not self.partial.partial:  # a partial build keeps the others' pages
                self.sources.clear()
            self.default_templates.clear()
            if self.settings.run_buttons:  # before minutes of building
                check_pyodide(self._root(config))
        guard.start_build(speed_edits=self.settings.speed_edits, fresh=not nested)
        # Each with a catalog of its words, and the direction the theme gives it.
        self.editions = site_editions(
            config, functools.partial(direction, config.theme)
        )
        edition_markdown(config, self._edition(config))
        self.execution.start(config, self.settings)
        search_languages(config, (edition.lang for edition in self.editions))
        self.wheel = library_wheel(self._root(config))
        config.extra["library_version"] = self.wheel.version  # footer, PDFs, notebooks
        if self.serving:
            self.partial.start(config, Path(__file__).parent, library_folder())
            mkdocs_dirty.list_theme_once(config.theme, render_cache.BYTECODE)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Give the API entries the edition's language, now that i18n set it."""
        set_api_locale(config.plugins, self._edition(config).lang)
        return files

    @event_priority(-150)  # after mkdocs-static-i18n (-100) set the edition's files
    def on_nav(
        self, nav: Navigation, *, config: MkDocsConfig, files: Files
    ) -> Navigation:
        """Under serve: which pages this build renders (:mod:`.serve`)."""
        if self.serving:
            lang = self._edition(config).lang
            self.partial.choose(lang, files, self.execution.cache)
        return nav

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        """Keep compiled templates between builds; the ``upstream`` filter.

        Under serve, once the pages are read: if a rendered page's title moved,
        render the pages the build skipped too (before autorefs, at -50,
        resolves their links).
        """
        env.bytecode_cache = render_cache.BYTECODE
        env.filters["upstream"] = template_edit
        if self.serving:
            self.partial.recheck_titles(self._edition(config).lang, config, files)
        return env

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Check the front matter and the library names; add API links."""
        self.execution.page_filter.page = f"docs/{page.file.src_uri}"
        if self.serving:
            self.api_page = bool(_API_BLOCK.search(markdown))
            self.partial.page_started(self.execution.cache)
        return check_page_markdown(markdown, page, self._edition(config))

    @staticmethod
    def _root(config: MkDocsConfig) -> Path:
        """The repository's root: where ``mkdocs.yml`` and ``pyproject.toml`` are."""
        return Path(config.config_file_path or ".").resolve().parent

    def _edition(self, config: MkDocsConfig) -> Edition:
        """The edition being built."""
        assert self.editions is not None
        return current_edition(self.editions, building_language(config))

    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Notices, math as MathML, slimmed notebooks with downloads."""
        assert self.editions is not None and self.settings is not None
        edition, run = self._edition(config), self.settings.run_buttons
        content = page_content(html, page, edition, self.editions, self.wheel, run)
        if self.serving:
            cache = self.execution.cache
            self.partial.page_rendered(edition.lang, page, self.api_page, cache)
        return content

    def on_page_context(
        self,
        context: TemplateContext,
        *,
        page: Page,
        config: MkDocsConfig,
        nav: Navigation,
    ) -> TemplateContext:
        """Give the templates the page's edition and every edition's words."""
        assert self.editions is not None
        edition = self._edition(config)
        foreign = foreign_titles(nav.pages, edition, self.editions)
        self.titles = ForeignTitles(page.url, foreign)
        if self.serving:  # the search plugin, before this one, indexed the page
            self.partial.page_entries(edition.lang, page, index_entries(config))
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

    def on_post_page(
        self, output: str, *, page: Page, config: MkDocsConfig, **_: object
    ) -> str:
        """Note the page's source, write its notebook download, finish its HTML."""
        assert self.editions is not None and self.wheel is not None
        built = Path(page.file.abs_dest_path).relative_to(config.site_dir).as_posix()
        self.sources[built] = page.file.src_uri
        edition = self._edition(config)
        if is_notebook(output):
            executed = self.execution.executed()
            site_url = config.site_url or ""
            write_notebook_download(page, edition, self.wheel, site_url, executed)
        titles, self.titles = self.titles, None
        return page_output(output, edition, self.editions, titles=titles)

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        """The same finish for pages made from a template alone (404.html)."""
        if not template_name.endswith(".html"):
            return output_content  # sitemap.xml keeps its hreflang alternates
        assert self.editions is not None
        edition = self._edition(config)
        # Every edition writes the site's one 404.html; the default's stays:
        # its words are every edition's, its page (lang, dir, header) English.
        if not edition.default and template_name in self.default_templates:
            return self.default_templates[template_name]
        output = page_output(output_content, edition, self.editions, own_search=False)
        if edition.default:
            self.default_templates[template_name] = output
        return output

    @event_priority(10)  # before the search plugin (0) writes the edition's index
    def _edition_built(self, *, config: MkDocsConfig) -> None:
        """Under serve: the index holds every page's entries (:mod:`.serve`)."""
        if self.serving:
            self.partial.edition_built(index_entries(config))

    def on_build_error(self, *, error: Exception) -> None:
        """Under serve, the next build renders every page."""
        self.partial.failed()

    def _report_cache(self, *, config: MkDocsConfig) -> None:
        """Report what the execution cache did (one line per language built)."""
        self.execution.report()

    @event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
    def _finish_site(self, *, config: MkDocsConfig) -> None:
        """Once every language is built: the site-wide files (:mod:`.site`)."""
        if nested_language_build(config):
            return  # the outer build draws and checks, once for every language
        assert self.editions and self.wheel and self.settings
        partial = self.partial
        finish_site(
            config,
            self._root(config),
            self.editions,
            self.wheel.version,
            self.sources,
            serving=self.serving,
            pdfs=self.settings.pdf,
            runtime=self.settings.run_buttons,
            partial=(
                Partial(
                    library=partial.library_changed, notebooks=partial.notebooks_changed
                )
                if partial.partial
                else None
            ),
        )
        if self.serving:
            partial.finished()

    on_post_build = CombinedEvent(_edition_built, _report_cache, _finish_site)
