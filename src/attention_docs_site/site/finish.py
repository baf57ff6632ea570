"""What the plugin does once every edition is built: the site-wide files.

The logos, the library's wheel, each edition's notebook zip, search index,
PDF and offline copy, and the check of every internal link. The plugin
(:meth:`.plugin.AttentionDocsPlugin._finish_site`) calls these in order.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError

from attention_docs_site.editions import Editions
from attention_docs_site.execute import render_cache
from attention_docs_site.execute.notebooks import write_notebook_zips
from attention_docs_site.layout import PYODIDE_FOLDER
from attention_docs_site.site import bytecode, csp, links, math_font, pyodide
from attention_docs_site.site.book.pdf import (
    PDF_FOLDER,
    book_pages,
    home_title,
    write_pdfs,
)
from attention_docs_site.site.book.pdf import Edition as Book
from attention_docs_site.site.counts import write_counts
from attention_docs_site.site.logo import write_logos
from attention_docs_site.site.offline import OFFLINE_FOLDER, write_offline_zips
from attention_docs_site.site.search_split import split_search_index
from attention_docs_site.upstream.guard import check_expected, finish_report
from attention_docs_site.upstream.material_bundle import stagger_component_mounts
from attention_docs_site.upstream.material_page import expect_theme_anchors
from attention_docs_site.upstream.material_scripts import check_script_anchors
from attention_docs_site.wheel import library_wheel, write_wheel

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

log = logging.getLogger("mkdocs.plugins.attention_docs")


def _sizes(paths: list[Path]) -> str:
    return ", ".join(f"{p.name} ({p.stat().st_size} bytes)" for p in paths)


def _site_url(config: MkDocsConfig, step: str) -> str:
    """The published site's address, which links out of a PDF or a copy need."""
    if config.site_url is None:
        raise PluginError(f"attention_docs {step}: mkdocs.yml must set site_url")
    return config.site_url


@dataclass(frozen=True)
class Partial:
    """A partial build under serve (:mod:`..serve.partial`): what it must rewrite.

    The site folder holds the last build's files; the theme's edited sheet
    and bundle and Pyodide's files depend on none of a partial build's
    inputs, and stay.
    """

    library: bool  # the library changed: its wheel, the zips, the logos it draws
    notebooks: bool  # an exercise notebook changed: the zips


def write_site_files(
    config: MkDocsConfig,
    project: Path,
    editions: Editions,
    partial: Partial | None = None,
    *,
    runtime: bool = True,
) -> None:
    """The logos, the theme's palette sheet and bundle, the wheel, the zips, search.

    One search index per edition.

    Parameters:
        config: The build's configuration.
        project: The repository's root (``pyproject.toml``).
        editions: The site's editions.
        partial: For a partial build under serve, what it must rewrite.
        runtime: Whether to publish Pyodide's runtime (the Run buttons are on).
    """
    site = Path(config.site_dir)
    if partial is None or partial.library:  # the library draws them
        write_logos(
            site, config.theme["logo"], config.theme["favicon"], config.site_name
        )
    if partial is None:
        stagger_component_mounts(site, config.theme.dirs)
    if partial is None or partial.library:
        wheel = write_wheel(project, site)
        log.info(
            "attention_docs wheel: %s (%d bytes)", wheel.name, wheel.stat().st_size
        )
    else:
        wheel = site / library_wheel(project).path
    if partial is None and runtime:
        write_pyodide(project, site)
    elif partial is None:
        log.info("attention_docs Pyodide: not published (run buttons off)")
    if partial is None or partial.library or partial.notebooks:
        write_notebook_zips(site, wheel, {e.lang: e.folder for e in editions})
    folders = tuple(edition.lang for edition in editions.translated)
    counts = split_search_index(site, folders)
    log.info("attention_docs search: one index per edition, %s entries", counts)


def _pyodide_error(error: pyodide.PyodideFileError) -> PluginError:
    return PluginError(
        f"attention_docs Pyodide: {error}. To build the site without Run "
        "buttons (and without Pyodide), set ATTENTION_DOCS_RUN_BUTTONS=off"
    )


def check_pyodide(project: Path) -> None:
    """At a build's start: Pyodide's files are there, for the Run buttons.

    Raises:
        PluginError: One is missing; the message says how to get it, or to
            build without it.
    """
    try:
        pyodide.check_present(project)
        bytecode.check_present(project)
    except pyodide.PyodideFileError as error:
        raise _pyodide_error(error) from None


def write_pyodide(project: Path, site: Path) -> None:
    """Publish Pyodide's runtime, packages and compiled files for the Run buttons.

    Raises:
        PluginError: A file is missing or is not the one the official lock
            names; the message says how to get it, or to build without it.
    """
    try:
        # The compiled files hold the official python_stdlib.zip's entries and
        # the start's packages.
        published = pyodide.write_runtime(project, site / PYODIDE_FOLDER, compiled=True)
        published += bytecode.publish(project, site / PYODIDE_FOLDER)
    except pyodide.PyodideFileError as error:
        raise _pyodide_error(error) from None
    log.info(
        "attention_docs Pyodide %s: %d files (%d bytes), each package checked",
        pyodide.VERSION,
        len(published),
        sum(path.stat().st_size for path in published),
    )


def subset_math_font(config: MkDocsConfig, sources: Mapping[str, str]) -> None:
    """Cut the math font to the formulas' characters (:mod:`.math_font`).

    Raises:
        PluginError: A formula uses a character the font lacks; the message
            names the page and the character.
    """
    try:
        before, after, kept = math_font.subset_site_font(
            Path(config.site_dir), sources, Path(config.docs_dir) / math_font.FONT
        )
    except math_font.MissingMathGlyph as error:
        raise PluginError(f"attention_docs math font:\n  {error}") from None
    log.info(
        "attention_docs math font: %d characters of the formulas, %d bytes (of %d)",
        kept,
        after,
        before,
    )


def add_security_policy(config: MkDocsConfig) -> None:
    """One Content-Security-Policy on every page (:mod:`.csp`).

    Raises:
        PluginError: A page has an inline event handler the policy would block.
    """
    try:
        pages, scripts = csp.add_policy(Path(config.site_dir))
    except ValueError as error:
        raise PluginError(f"attention_docs security policy: {error}") from None
    log.info(
        "attention_docs security policy: %d pages; scripts from the site and "
        "%d inline scripts, by hash",
        pages,
        scripts,
    )


def print_books(config: MkDocsConfig, editions: Editions, version: str) -> None:
    """Print each edition's chapters, glossary and references into a PDF.

    Raises:
        PluginError: Chromium could not print a book; the message says why.
    """
    site = Path(config.site_dir)
    if config.nav is None:
        raise PluginError("attention_docs pdf: mkdocs.yml must set nav (its Chapters)")
    pages = book_pages(config.nav)
    books = [
        Book(
            lang=edition.lang,
            folder=edition.folder,
            title=home_title(site, edition.folder),
            pages=pages,
            subtitle=edition.word("book_subtitle", version=version),
            contents=edition.word("book_contents"),
            built=edition.word("book_built"),
        )
        for edition in editions
    ]
    start = time.perf_counter()
    try:
        project = Path(config.config_file_path or ".").resolve().parent
        written = write_pdfs(site, _site_url(config, "pdf"), books, project)
    except RuntimeError as error:
        raise PluginError(f"attention_docs pdf: {error}") from None
    seconds = time.perf_counter() - start
    log.info("attention_docs pdf: %s, printed in %.1f s", _sizes(written), seconds)


def write_offline_copies(config: MkDocsConfig, editions: Editions) -> None:
    """Zip each edition as an offline copy (:mod:`.offline`)."""
    folders = {edition.lang: edition.folder for edition in editions}
    site_url = _site_url(config, "offline copies")
    cache = render_cache.folder()
    zips = write_offline_zips(Path(config.site_dir), site_url, folders, cache)
    log.info("attention_docs offline copies: %s", _sizes(zips))


def check_links(
    config: MkDocsConfig, unbuilt: tuple[str, ...], sources: Mapping[str, str]
) -> None:
    """Fail the build if any internal link or anchor of the built site is broken.

    Parameters:
        config: The build's configuration.
        unbuilt: Folders of the site this build left out on purpose (the
            PDFs, the offline copies): links into them are not checked.
        sources: Built file (relative to the site) -> its page under ``docs/``,
            to name the page a broken link comes from.

    Raises:
        PluginError: Naming every broken link with its page and line.
    """
    report = links.check_site(Path(config.site_dir), config.site_url, unbuilt)
    if report.broken:
        named = [_name_source(line, sources) for line in report.broken]
        raise PluginError(
            f"{len(named)} broken links in the built site:\n  " + "\n  ".join(named)
        )
    log.info(
        "attention_docs links: %d internal links resolve; %d external links "
        "(python -m attention_docs_site.site.links %s lists them)",
        report.checked,
        len(report.external),
        config.site_dir,
    )


def _name_source(problem: str, sources: Mapping[str, str]) -> str:
    """Put the source page in front of a link checker line about a built page."""
    built = problem.split(":", 1)[0]
    source = sources.get(built)
    return f"docs/{source} (built as {problem})" if source else problem


def finish_site(
    config: MkDocsConfig,
    project: Path,
    editions: Editions,
    version: str,
    sources: Mapping[str, str],
    *,
    serving: bool,
    pdfs: bool,
    runtime: bool = True,
    partial: Partial | None = None,
) -> None:
    """Once every edition is built: logos, zips, search, books, copies, links.

    Under ``mkdocs serve`` the PDFs and offline copies are left to ``mkdocs
    build``: they take seconds a writer waiting for a page does not need. So
    is the security policy: the server writes livereload's inline script into
    every page it serves, which the policy would block.

    Parameters:
        config: The build's configuration.
        project: The repository's root (``pyproject.toml``).
        editions: The site's editions.
        version: The library's version (the books' title pages).
        sources: Built file (relative to the site) -> its page under ``docs/``.
        serving: Whether ``mkdocs serve`` is building.
        pdfs: Whether to print the books (never under ``mkdocs serve``).
        runtime: Whether to publish Pyodide's runtime (the Run buttons are on).
        partial: For a partial build under serve, what it must rewrite.
    """
    write_site_files(config, project, editions, partial, runtime=runtime)
    counts = write_counts(Path(config.site_dir), editions)  # before books and copies
    log.info("attention_docs runnable blocks: %s", counts)
    subset_math_font(config, sources)  # before books and copies
    if not serving:  # livereload injects an inline script it would block
        add_security_policy(config)  # every page written by now
    if pdfs and not serving:
        print_books(config, editions, version)
    elif not serving:
        log.info("attention_docs pdf: not printed (ATTENTION_DOCS_PDF=off)")
    if not serving:
        write_offline_copies(config, editions)
    # The home pages link the PDFs and the offline copies.
    unbuilt: tuple[str, ...] = () if pdfs and not serving else (f"{PDF_FOLDER}/",)
    if serving:
        unbuilt += (f"{OFFLINE_FOLDER}/",)
    check_links(config, unbuilt, sources)
    if partial is None:  # a partial build renders too few pages to tell
        expect_theme_anchors(config.theme["features"], config.nav, len(editions))
        check_expected()
        check_script_anchors(config.theme.dirs)
    finish_report()
