"""The book of an edition, as one HTML document for Chromium to print.

An edition's chapters, then its glossary and references, are taken from the
built site and put into one HTML document after a title page and a table of
contents, styled by the site's own stylesheets and by ``book.css``. Links
within the book go to the chapter or heading in the book; links to other
pages of the site go to the published site; links elsewhere are kept.
``pdf.py`` prints it.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

_CSS = Path(__file__).parent / "book.css"
_ARTICLE = re.compile(
    r'<article class="md-content__inner md-typeset">(.*?)</article>', re.DOTALL
)
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')
_ANNOTATION_MARKER = re.compile(r'(<span class="c1">#\s*\(\d+\))!(</span>)')
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.DOTALL)
_ID = re.compile(r'\bid="([^"]+)"')
_HREF = re.compile(r'\bhref="([^"]*)"')
_EDIT = re.compile(
    r'<a href="[^"]*" title="[^"]*" class="md-content__button.*?</a>', re.DOTALL
)
_TAG = re.compile(r"<[^>]+>")
_EXTERNAL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|//")


@dataclass(frozen=True)
class Edition:
    """What one language's book is made of.

    Attributes:
        lang: The language code, e.g. ``"zh"``.
        folder: The edition's folder in the site, ``""`` for the default one.
        title: The book's title.
        subtitle: The line under it.
        contents: The heading of the table of contents.
        built: How the date line reads, with ``{date}`` for the date.
        pages: The pages' folders, in reading order, relative to the
            edition's folder, e.g. ``["attention-cues/", ...]``.
    """

    lang: str
    folder: str
    title: str
    subtitle: str
    contents: str
    built: str
    pages: Sequence[str]


def book_pages(nav: list) -> list[str]:
    """The book's pages: the navigation's chapters, the glossary, the references.

    Parameters:
        nav: ``nav`` of ``mkdocs.yml``, with a "Chapters" section.

    Returns:
        Their folders in the site, such as ``"attention-cues/"``.
    """
    chapters = next(
        item["Chapters"]
        for item in nav
        if isinstance(item, dict) and "Chapters" in item
    )
    return [
        page.removesuffix(".md") + "/"
        for page in [*chapters, "glossary.md", "references.md"]
    ]


def home_title(site_dir: Path, folder: str) -> str:
    """The title of an edition's home page, which is the book's."""
    built = (site_dir / folder / "index.html").read_text("utf-8")
    article = _found(_ARTICLE, built, f"{folder}index.html has no article")
    return _text(_found(_H1, article, f"{folder}index.html has no title"))


def _found(pattern: re.Pattern[str], text: str, missing: str) -> str:
    """What the pattern's group catches first; ``ValueError(missing)`` if none."""
    match = pattern.search(text)
    if match is None:
        raise ValueError(missing)
    return match[1]


def _text(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", fragment)).replace("¶", "").split())


def section_id(page: str) -> str:
    """The id of a page's section in the book, e.g. ``zh-attention-cues``."""
    return page.strip("/").replace("/", "-")


def page_stylesheets(built: str, page: str) -> list[str]:
    """A built page's own stylesheets, as paths from the site's root."""
    return [
        posixpath.normpath(posixpath.join(page, href))
        for href in _STYLESHEET.findall(built)
        if not _EXTERNAL.match(href)
    ]


def chapter(
    built: str, page: str, book: Sequence[str], site_url: str
) -> tuple[str, str]:
    """(title, the page's article as a section of the book).

    Parameters:
        built: The built page's HTML.
        page: The page's folder in the site, e.g. ``zh/attention-cues/``.
        book: The pages of the book, as folders in the site.
        site_url: The published site's address, ending in ``/``: links out of
            the book go there.
    """
    article = _EDIT.sub("", _found(_ARTICLE, built, f"{page}: no article"))
    # A code annotation's marker, "# (1)!", which Material's script turns
    # into a button on the site: in print, "# (1)" points to the numbered
    # list after the code, which the book shows as it is.
    article = _ANNOTATION_MARKER.sub(r"\1\2", article)
    title = _text(_found(_H1, article, f"{page}: the article has no title"))
    site_path = urlsplit(site_url).path

    def href(match: re.Match[str]) -> str:
        link = html.unescape(match[1])
        if _EXTERNAL.match(link):
            return match[0]
        path, _, fragment = link.partition("#")
        if path.startswith("/"):
            target = path.removeprefix(site_path)
        else:
            target = posixpath.normpath(posixpath.join(page, path or "."))
        target = "" if target in (".", "") else target.rstrip("/") + "/"
        if target in book:
            slug = section_id(target)
            anchor = f"{slug}--{fragment}" if fragment else slug
            return f'href="#{html.escape(anchor)}"'
        if "." in posixpath.basename(target.rstrip("/")):  # a file, not a page
            target = target.rstrip("/")
        url = site_url + target + (f"#{fragment}" if fragment else "")
        return f'href="{html.escape(url)}"'

    slug = section_id(page)
    article = _HREF.sub(href, article)
    article = _ID.sub(lambda m: f'id="{slug}--{m[1]}"', article)
    return title, f'<section class="ad-book-chapter" id="{slug}">{article}</section>'


def book_html(
    edition: Edition,
    chapters: Sequence[tuple[str, str]],
    stylesheets: Sequence[str],
    numbers: Sequence[int] | None,
    date: str,
) -> str:
    """The whole book as one HTML document (see the module's text).

    Parameters:
        edition: The book's language and words.
        chapters: Each chapter's title and section, in order.
        stylesheets: The site's stylesheets, relative to the site's root.
        numbers: The page each chapter starts on, or None for the first print
            (which sets the same number of digits).
        date: The build's date.

    Returns:
        The document, with ``book.css`` in it.
    """
    links = "".join(
        f'<link rel="stylesheet" href="{html.escape(s)}">' for s in stylesheets
    )
    rows = []
    for index, (title, section) in enumerate(chapters):
        slug = _found(_ID, section, f"{title}: the section has no id")
        number = str(numbers[index]) if numbers else "000"
        rows.append(
            f'<li><a href="#{slug}">{html.escape(title)}</a>'
            f'<span class="ad-book-dots"></span><span>{number}</span></li>'
        )
    body = "".join(section for _, section in chapters)
    built = edition.built.format(date=date)
    return (
        f'<!doctype html><html lang="{edition.lang}"><head><meta charset="utf-8">'
        f"<title>{html.escape(edition.title)}</title>{links}"
        f"<style>{_CSS.read_text('utf-8')}</style></head>"
        '<body dir="ltr" data-md-color-scheme="default" data-md-color-primary="indigo"'
        ' data-md-color-accent="indigo"><div class="md-typeset">'
        f'<section class="ad-book-title"><h1>{html.escape(edition.title)}</h1>'
        f"<p>{html.escape(edition.subtitle)}</p><p>{html.escape(built)}</p></section>"
        f'<nav class="ad-book-contents"><h2>{html.escape(edition.contents)}</h2>'
        f"<ol>{''.join(rows)}</ol></nav>{body}</div></body></html>"
    )
