"""What a page says about itself: its language, translation notice and description."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import markupsafe

from attention_docs_site.editions import Edition
from attention_docs_site.layout import OFFLINE_FOLDER, PDF_FOLDER, pdf_name, zip_name
from attention_docs_site.page.polish import strip_tags
from attention_docs_site.translations import (
    english_path,
    provenance_record,
    source_hash,
)

if TYPE_CHECKING:
    from mkdocs.structure.pages import Page

_TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    keep_trailing_newline=False,
)


def source_path(page: Page) -> Path:
    """The file a page is built from.

    Raises:
        ValueError: The page has no source file (one a plugin generated).
    """
    if page.file.abs_src_path is None:
        raise ValueError(f"{page.file.src_uri} has no source file")
    return Path(page.file.abs_src_path)


def translation_notice(page: Page, edition: Edition, default: Edition) -> str:
    """The notice a page of a translated edition shows above its content, if any.

    A translated page whose English source changed after it was translated
    says so and links to the English page; a page served in English because
    it has no translation says that, and how to help. The notices' markup is
    in ``templates/translation_notice.html``, their words in the edition's
    catalog.

    Parameters:
        page: The page being built.
        edition: The edition being built.
        default: The default edition, whose pages are the originals.

    Returns:
        The notice's HTML, or ``""``.
    """
    if edition.default:
        return ""
    lang = edition.lang
    source = source_path(page)
    notice = _TEMPLATES.get_template("translation_notice.html")
    if edition.serves_untranslated(source):
        text = edition.word("untranslated_text", source=page.file.src_uri, lang=lang)
        return notice.render(
            kind="untranslated",
            title=edition.word("untranslated_title"),
            text=markupsafe.Markup(text),
        )
    record = provenance_record(page.meta, source)  # MkDocs parsed it
    english = english_path(source)
    current = source_hash(english.read_text(encoding="utf-8"))
    if record["source_hash"] == current:
        return ""
    english_url = default.folder + page.url.removeprefix(edition.folder)
    up = "../" * page.url.count("/")
    href = html.escape(up + english_url or "./")
    text = edition.word("outdated_text", english=href, default=default.lang)
    return notice.render(
        kind="outdated",
        title=edition.word("outdated_title"),
        text=markupsafe.Markup(text),
    )


def edition_data(edition: Edition, editions: Sequence[Edition]) -> str:
    """The page's ``#ad-edition`` data for its scripts (``docs/assets/*.js``).

    Parameters:
        edition: The page's edition.
        editions: Every edition of the site.

    Returns:
        A JSON ``<script>``: this edition's folder, every edition's folder by
        locale, and the interface words the scripts write.
    """
    data = {
        "lang": edition.lang,
        "folder": edition.folder,
        "folders": {other.lang: other.folder for other in editions},
        "annotation": edition.word("annotation"),
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("</", "<\\/")  # never closes the script early
    return f'<script id="ad-edition" type="application/json">{text}</script>'


# Where a page asks for its edition's downloads (the home pages).
EDITION_DOWNLOADS = '<div class="ad-edition-downloads"></div>'


def edition_downloads(
    content: str, page_url: str, edition: Edition, *, runtime: bool = True
) -> str:
    """Fill a page's ``EDITION_DOWNLOADS`` with its edition's PDF and offline copies.

    The home page of every edition, translated or served in English, links
    the downloads of its own edition, named by the catalog's words.

    Parameters:
        content: The page's HTML.
        page_url: The page's URL relative to the site's root, e.g. ``zh/``.
        edition: The page's edition.
        runtime: Whether the site carries the Run buttons' runtime: its
            offline copy then has a light twin without it.

    Returns:
        The HTML with the links in place of the placeholder.
    """
    if EDITION_DOWNLOADS not in content:
        return content
    up = "../" * page_url.count("/")
    links = [
        (f"{up}{PDF_FOLDER}/{pdf_name(edition.lang)}", "download_pdf"),
        (f"{up}{OFFLINE_FOLDER}/{zip_name(edition.lang)}", "download_offline"),
    ]
    if runtime:
        lite = zip_name(edition.lang, runtime=False)
        links.append((f"{up}{OFFLINE_FOLDER}/{lite}", "download_offline_lite"))
    buttons = "\n".join(
        f'<a class="md-button ad-download" href="{href}" download>'
        f"{html.escape(edition.word(key))}</a>"
        for href, key in links
    )
    return content.replace(EDITION_DOWNLOADS, f"<p>{buttons}</p>")


_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)


_FOOTNOTE_REF = re.compile(r"<sup\b.*?</sup>", re.DOTALL)


def describe_page(page: Page, content: str, limit: int = 200) -> None:
    """Give a page without a ``description`` in its front matter its first paragraph.

    The description feeds ``<meta name="description">`` and the Open Graph and
    Twitter tags (overrides/main.html), so links shared from any page show
    that page's own summary, in its language.

    Parameters:
        page: The page; ``page.meta["description"]`` is set if missing.
        content: The page's HTML.
        limit: Longest description, in characters; longer text is cut at a
            word (or, in Chinese, anywhere) and ends with an ellipsis.
    """
    if page.meta.get("description"):
        return
    for match in _PARAGRAPH.finditer(content):
        plain = strip_tags(_FOOTNOTE_REF.sub("", match[1]))
        text = " ".join(html.unescape(plain).split())
        if text:
            break
    else:
        return
    if len(text) > limit:
        cut = text[:limit]
        text = (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut) + "…"
    page.meta["description"] = text
