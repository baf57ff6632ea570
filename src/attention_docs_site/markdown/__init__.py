"""The Markdown stage: what is checked and added in a page's Markdown.

Enters: a page's Markdown, after MkDocs has read its front matter
(``on_page_markdown``). Leaves: the same Markdown with links from the library
calls of its code blocks to their API entries (:mod:`.api_links`), once its
front matter parses and every library name its prose writes resolves
(:mod:`.code_names`). Before any page, :func:`edition_markdown` sets the words
Python-Markdown writes (heading permalinks, footnote back links) in the
edition's language.

Inside Python-Markdown's conversion, two extensions listed in ``mkdocs.yml``
edit the tree where it is made: :mod:`.mathml` turns arithmatex's formulas
into MathML, and :mod:`.annotations` classes Material's code annotation
lists. The body the page stage receives has both done.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError

from attention_docs_site.markdown.api_links import link_library_calls
from attention_docs_site.markdown.code_names import (
    UnknownLibraryName,
    check_code_names,
)
from attention_docs_site.translations import split_front_matter
from attention_docs_site.upstream.material_html import expect_annotations

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

    from attention_docs_site.editions import Edition


def check_page_markdown(markdown: str, page: Page, edition: Edition) -> str:
    """Check the front matter and the library names; add API links.

    MkDocs has parsed the front matter already; front matter it could not
    read (not closed, not YAML, not a mapping) it leaves at the top of the
    page's text, and would publish as prose. Only then is the file parsed
    again, strictly, for the message.

    Raises:
        TranslationError: The front matter is not valid YAML or not closed.
        PluginError: The prose names a library name that does not exist.
    """
    if markdown.startswith("---") and page.file.abs_src_path is not None:
        source = Path(page.file.abs_src_path)
        split_front_matter(
            source.read_text(encoding="utf-8"), Path("docs") / page.file.src_uri
        )
    expect_annotations(markdown, f"docs/{page.file.src_uri}")
    try:
        check_code_names(markdown, f"docs/{page.file.src_uri}")
    except UnknownLibraryName as error:
        raise PluginError(str(error)) from None
    if not edition.serves_untranslated(page.file.abs_src_path or page.file.src_uri):
        return link_library_calls(markdown, edition.word("library_label"))
    # Served untranslated: the label is the one line in the edition's language.
    own = f' lang="{edition.lang}" dir="{edition.direction}"'
    return link_library_calls(markdown, edition.word("library_label"), own)


def edition_markdown(config: MkDocsConfig, edition: Edition) -> None:
    """Python-Markdown's own titles in the edition's words, by its configuration.

    The toc extension's ``permalink_title`` (heading anchors) and the
    footnotes extension's ``BACKLINK_TITLE`` (back links, ``%d`` for the
    number) are one setting for every language in ``mkdocs.yml``; each
    edition's build sets them from its catalog.
    """
    extensions = config.mdx_configs
    if "toc" in config.markdown_extensions:
        extensions.setdefault("toc", {})["permalink_title"] = edition.word("permalink")
    if "footnotes" in config.markdown_extensions:
        back = edition.word("footnote_back").replace("{number}", "%d")
        extensions.setdefault("footnotes", {})["BACKLINK_TITLE"] = back
