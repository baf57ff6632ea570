"""A page's HTML, from what Python-Markdown or mkdocs-jupyter made to what is written.

:func:`page_content` takes a page's body (MkDocs's ``on_page_content``): the
translation notice, a notebook slimmed (its math as MathML) with its download
links, the tooltips in the page's language, and the body marked as written in
the default language when the edition serves it untranslated.
:func:`page_output` takes the whole page (``on_post_page``) and writes it in
one walk over its tags (:mod:`.polish`): the edition's data in the head, its
own search base (``site/search_split.py``), the theme's markup edited
(:mod:`attention_docs_site.upstream.material_page`), blank lines dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from attention_docs_site.execute.notebooks import notebook_name, write_notebook
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
from attention_docs_site.page.polish import polish_page
from attention_docs_site.page.run import run_data
from attention_docs_site.translations import TranslationError
from attention_docs_site.upstream.material_titles import ForeignTitles, page_key

if TYPE_CHECKING:
    from mkdocs.structure.pages import Page

    from attention_docs_site.editions import Edition, Editions
    from attention_docs_site.wheel import Wheel


def page_content(
    html: str,
    page: Page,
    edition: Edition,
    editions: Editions,
    wheel: Wheel | None,
    runtime: bool = True,  # noqa: FBT001, FBT002 (the plugin's one call)
) -> str:
    """A page's body as the site publishes it (see the module's text).

    ``runtime``: whether the site carries the Run buttons' runtime.

    Raises:
        ValueError: Naming the page: a notebook published as its source, or
            a part of the page the plugin cannot read.
    """
    try:
        check_notebook_rendered(source_path(page), html)
        describe_page(page, html)
        notice = translation_notice(page, edition, editions.default)
        if is_notebook(html):
            assert wheel is not None  # the plugin made it in on_config
            link = download_link(
                page.file.src_uri,
                edition.word("download_notebook"),
                edition.word("download_all"),
            ) + run_yourself_box(edition.lang, wheel, page.url)
            ids = heading_ids(html)
            rename_toc(page.toc, ids)
            words = edition.word("copy_code"), edition.word("copied_code")
            body = rename_headings(slim_notebook(html, *words), ids)
            body += run_data(body, page.url, edition, wheel)
            return notice + link + in_its_language(body, page, edition, editions)
        html = edition_downloads(html, page.url, edition, runtime=runtime)
        if wheel is not None:
            html += run_data(html, page.url, edition, wheel)
        return notice + in_its_language(html, page, edition, editions)
    except TranslationError:
        raise  # already names the file
    except ValueError as error:
        raise ValueError(f"{page.file.src_uri}: {error}") from error


def in_its_language(
    content: str, page: Page, edition: Edition, editions: Editions
) -> str:
    """Mark a page served untranslated as written in the default language.

    Its edition's ``<html lang>`` would make screen readers read the
    English text as, say, Japanese; and in a right-to-left edition (Material
    sets ``<body dir="rtl">`` from the locale) its English paragraphs would be
    aligned right, their closing punctuation moved to the wrong end and runs
    of text and math reordered, so the wrapper states the direction too.
    """
    if not edition.serves_untranslated(source_path(page)):
        return content
    source = editions.default
    return f'<div lang="{source.lang}" dir="{source.direction}">{content}</div>'


def page_output(
    output: str,
    edition: Edition,
    editions: Editions,
    *,
    own_search: bool = True,
    titles: ForeignTitles | None = None,
) -> str:
    """A whole built page (or a template's, such as 404.html), as written.

    Parameters:
        output: The page's HTML.
        edition: The edition being built.
        editions: Every edition.
        own_search: Point the page at its edition's search index (a page of
            the edition; not a template without a page).
        titles: The edit that marks the titles of pages served untranslated
            (:func:`foreign_titles`); None for a template without a page.
    """
    language = edition.lang if own_search and not edition.default else None
    edits = [] if titles is None else [titles]
    return polish_page(output, edition_data(edition, editions), language, edits)


def foreign_titles(
    pages: Iterable[Page], edition: Edition, editions: Editions
) -> dict[str, tuple[str, str]]:
    """The pages an edition serves untranslated, with their language's attributes.

    Parameters:
        pages: The edition's pages (its navigation's).
        edition: The edition.
        editions: Every edition (the default's language is the pages' own).

    Returns:
        For :class:`~attention_docs_site.upstream.material_titles.ForeignTitles`:
        ``(' lang="en" dir="ltr"', title)`` by each such page's address.
    """
    source = editions.default
    attributes = f' lang="{source.lang}" dir="{source.direction}"'
    return {
        page_key(page.url): (attributes, page.title or "")
        for page in pages
        if edition.serves_untranslated(page.file.abs_src_path or page.file.src_uri)
    }


def write_notebook_download(
    page: Page,
    edition: Edition,
    wheel: Wheel,
    site_url: str,
    executed: Mapping[str, str],
) -> None:
    """Write a notebook page's ``.ipynb`` download beside it, with its setup cell.

    Parameters:
        page: The notebook's page.
        edition: Its edition (the setup cell's language).
        wheel: The library's wheel the setup cell installs.
        site_url: The published site's address (links that work outside it).
        executed: The notebooks as this build ran them, by resolved source.
    """
    setup = functools.partial(
        add_setup_cell,
        lang=edition.lang,
        wheel=wheel,
        url=urljoin(site_url, wheel.path),
    )
    source = source_path(page)
    write_notebook(
        source,
        Path(page.file.abs_dest_path).parent / notebook_name(page.file.src_uri),
        urljoin(site_url, page.url),
        executed.get(str(source.resolve())),
        setup,
    )
