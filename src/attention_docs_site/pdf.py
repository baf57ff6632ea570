"""A PDF of each edition: its chapters in order, printed by Chromium.

After the build, an edition's chapters, then its glossary and references, are
put into one HTML document with a title page and a table of contents, styled
by the site's own stylesheets, and printed by Chromium through Playwright.
Text stays text, figures stay vector SVG (the explorable figures print their
static drawing), math is the browser's MathML, and Chinese is set in Noto
Sans CJK (Debian's fonts-noto-cjk). Each page carries its number in the
footer.

Chromium cannot number a table of contents by itself, so the book is printed
twice: the first print tells on which page each chapter starts (read back
with pypdf from the destinations Chromium makes for the contents' links), and
the second prints those numbers (and is checked to have moved no chapter).
The PDF's outline (bookmarks) has every heading. Links within the book go to
the chapter or heading in the book; links to other pages of the site go to
the published site; links elsewhere are kept.

The PDF's dates are the build's (``SOURCE_DATE_EPOCH`` when set), so two
builds give the same bytes.
"""

from __future__ import annotations

import datetime
import functools
import html
import io
import logging
import os
import posixpath
import re
import subprocess
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .static_server import serve_folder

CHROMIUM = "/usr/bin/chromium"
PDF_FOLDER = "pdf"
_ARTICLE = re.compile(
    r'<article class="md-content__inner md-typeset">(.*?)</article>', re.DOTALL
)
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')
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
    return _text(_H1.search(_ARTICLE.search(built)[1])[1])


def pdf_name(lang: str) -> str:
    """The file name of an edition's PDF."""
    return f"attention_docs-{lang}.pdf"


def _text(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", fragment)).replace("¶", "").split())


def _slug(page: str) -> str:
    return page.strip("/").replace("/", "-")


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
    found = _ARTICLE.search(built)
    if not found:
        raise ValueError(f"{page}: the built page has no article")
    article = _EDIT.sub("", found[1])
    title = _text(_H1.search(article)[1])
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
            slug = _slug(target)
            anchor = f"{slug}--{fragment}" if fragment else slug
            return f'href="#{html.escape(anchor)}"'
        if "." in posixpath.basename(target.rstrip("/")):  # a file, not a page
            target = target.rstrip("/")
        url = site_url + target + (f"#{fragment}" if fragment else "")
        return f'href="{html.escape(url)}"'

    slug = _slug(page)
    article = _HREF.sub(href, article)
    article = _ID.sub(lambda m: f'id="{slug}--{m[1]}"', article)
    return title, f'<section class="ad-book-chapter" id="{slug}">{article}</section>'


_BOOK_CSS = """
html, body { background: #fff; }
body { margin: 0; }
.md-typeset { font-size: 10.5pt; line-height: 1.6; }
.ad-book-title { break-after: page; padding-top: 70mm; }
.md-typeset .ad-book-title h1 { font-size: 2.2em; margin: 0 0 0.6em; color: #000; }
.ad-book-title p { font-size: 1.15em; margin: 0.3em 0; }
.ad-book-contents { break-after: page; }
.ad-book-contents ol { list-style: none; padding: 0; margin: 0; }
.md-typeset .ad-book-contents li { display: flex; gap: 0.4em; margin: 0.6em 0; }
.ad-book-contents .ad-book-dots { flex: 1; border-bottom: 1px dotted #777;
  margin-bottom: 0.35em; }
.md-typeset .ad-book-contents a { color: inherit; }
.ad-book-chapter { break-before: page; }
.md-typeset .headerlink, .md-typeset .ad-library, .md-source-file,
.ad-explorable__live, .md-clipboard, .ad-download, .ad-download-all,
.ad-explorable__controls, .ad-explorable__readout { display: none !important; }
.md-typeset pre, .md-typeset svg, .md-typeset table, .md-typeset .admonition,
.md-typeset figure { break-inside: avoid; }
.md-typeset h1, .md-typeset h2, .md-typeset h3 { break-after: avoid; }
"""

_FOOTER = (
    '<div style="width:100%;font-size:8pt;text-align:center;color:#444;'
    'font-family:sans-serif"><span class="pageNumber"></span></div>'
)
_PRINT = {
    "format": "A4",
    "print_background": True,
    "display_header_footer": True,
    "header_template": "<span></span>",
    "footer_template": _FOOTER,
    "margin": {"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"},
    "outline": True,  # bookmarks, from the headings: also how chapters are found
    "tagged": True,
}


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
    """
    links = "".join(
        f'<link rel="stylesheet" href="{html.escape(s)}">' for s in stylesheets
    )
    rows = []
    for index, (title, section) in enumerate(chapters):
        slug = _ID.search(section)[1]
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
        f"<style>{_BOOK_CSS}</style></head>"
        '<body dir="ltr" data-md-color-scheme="default" data-md-color-primary="indigo"'
        ' data-md-color-accent="indigo"><div class="md-typeset">'
        f'<section class="ad-book-title"><h1>{html.escape(edition.title)}</h1>'
        f"<p>{html.escape(edition.subtitle)}</p><p>{html.escape(built)}</p></section>"
        f'<nav class="ad-book-contents"><h2>{html.escape(edition.contents)}</h2>'
        f"<ol>{''.join(rows)}</ol></nav>{body}</div></body></html>"
    )


def chapter_pages(pdf: bytes, slugs: Sequence[str]) -> list[int]:
    """The page (from 1) each chapter starts on, from the PDF's destinations.

    Chromium names a destination after each element the document links to;
    the contents link every chapter's section by its id.

    Raises:
        ValueError: If a chapter has no destination.
    """
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    destinations = reader.named_destinations
    missing = [slug for slug in slugs if f"/{slug}" not in destinations]
    if missing:
        raise ValueError(f"the printed book has no destination for {missing}")
    return [
        reader.get_destination_page_number(destinations[f"/{slug}"]) + 1
        for slug in slugs
    ]


def build_date(now: datetime.datetime | None = None) -> datetime.datetime:
    """The build's time: ``SOURCE_DATE_EPOCH`` when set, else now (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), tz=datetime.UTC)
    return now or datetime.datetime.now(tz=datetime.UTC)


_BFCHAR = re.compile(r"(beginbfchar\s*)(.*?)(\s*endbfchar)", re.DOTALL)
_BFCHAR_ENTRY = re.compile(r"(<[0-9A-Fa-f]+>\s*)<([0-9A-Fa-f]{4})>")


@functools.cache
def _radicals() -> dict[int, int]:
    """Radical code point -> the ideograph a CJK font draws with the same glyph.

    The Kangxi radicals decompose to their ideographs (NFKC); for the others,
    the CJK font Chromium uses (fontconfig's "Noto Sans CJK SC") tells which
    ideograph shares each radical's glyph.
    """
    mapping = {}
    for code in range(0x2F00, 0x2FE0):
        normal = unicodedata.normalize("NFKC", chr(code))
        if normal != chr(code) and len(normal) == 1:
            mapping[code] = ord(normal)
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}:%{index}", "Noto Sans CJK SC"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    except FileNotFoundError:  # no fontconfig: the Kangxi radicals only
        return mapping
    path, _, index = found.rpartition(":")
    if not path.endswith((".ttc", ".otf", ".ttf")):
        return mapping
    from fontTools.ttLib import TTFont

    with TTFont(path, fontNumber=int(index or 0), lazy=True) as font:
        cmap = font.getBestCmap()
    glyphs: dict[str, list[int]] = {}
    for code, glyph in sorted(cmap.items()):
        glyphs.setdefault(glyph, []).append(code)
    for code, glyph in cmap.items():
        if 0x2E80 <= code < 0x2F00 and code not in mapping:
            ideographs = [c for c in glyphs[glyph] if 0x3400 <= c <= 0x9FFF]
            if ideographs:
                mapping[code] = ideographs[0]
    return mapping


def _ideographs(cmap: str) -> str:
    """A ToUnicode map with radicals read as the ideographs they draw.

    A CJK font draws 力 (U+529B) and the Kangxi radical ⼒ (U+2F12) with one
    glyph, and Chromium's PDF maps the glyph back to the radical: the text
    could not be found or copied as written.
    """
    radicals = _radicals()

    def entry(match: re.Match[str]) -> str:
        code = int(match[2], 16)
        if code not in radicals:
            return match[0]
        return f"{match[1]}<{radicals[code]:04X}>"

    return _BFCHAR.sub(lambda m: m[1] + _BFCHAR_ENTRY.sub(entry, m[2]) + m[3], cmap)


def finished(pdf: bytes, when: datetime.datetime) -> bytes:
    """The printed PDF, searchable as written and with the build's dates.

    Every font's text is mapped to ideographs, not radicals (see
    :func:`_ideographs`). Chromium dates the PDF when it prints; the dates
    become the build's, so that two builds give the same bytes.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # Chromium's trailer understates its size
    try:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    finally:
        quiet.setLevel(level)
    seen = set()
    for page in writer.pages:
        for font in page.get("/Resources", {}).get("/Font", {}).values():
            stream = font.get_object().get("/ToUnicode")
            if stream is None or id(stream.get_object()) in seen:
                continue
            stream = stream.get_object()
            seen.add(id(stream))
            cmap = stream.get_data().decode("latin-1")
            fixed = _ideographs(cmap)
            if fixed != cmap:
                stream.set_data(fixed.encode("latin-1"))
                stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    stamp = f"D:{when:%Y%m%d%H%M%S}+00'00'"
    writer.add_metadata({"/CreationDate": stamp, "/ModDate": stamp})
    out = io.BytesIO()
    writer.write(out)
    return _renumbered_node_ids(out.getvalue())


# The IDs of a tagged PDF's structure elements, e.g. (node00030871), which
# table cells' /Headers name. Chromium takes them from a DOM node counter that
# differs by one between two prints of the same page.
_NODE_ID = re.compile(rb"(?<=\()node\d{8}(?=\))")


def _renumbered_node_ids(pdf: bytes) -> bytes:
    """Structure-element IDs numbered 1, 2, ... in their own order.

    The map keeps their order, so the ID tree stays sorted, and their width,
    so every byte offset of the file stays right.
    """
    ids = sorted(set(_NODE_ID.findall(pdf)))
    rename = {old: b"node%08d" % rank for rank, old in enumerate(ids, start=1)}
    return _NODE_ID.sub(lambda match: rename[match[0]], pdf)


def _stylesheets(built: str, page: str) -> list[str]:
    """A page's stylesheets, as paths from the site's root."""
    return [
        posixpath.normpath(posixpath.join(page, href))
        for href in _STYLESHEET.findall(built)
        if not _EXTERNAL.match(href)
    ]


def _print(page: object, address: str, source: Path, text: str) -> bytes:
    """Print one HTML document, written as ``source`` in the served folder."""
    source.write_text(text, "utf-8")
    page.goto(address + source.name)
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready")
    return page.pdf(**_PRINT)


def write_pdfs(
    site_dir: Path, site_url: str, editions: Sequence[Edition]
) -> list[Path]:
    """Print ``pdf/attention_docs-<lang>.pdf`` for each edition (see above).

    Raises:
        RuntimeError: If Chromium is missing, or if numbering the contents
            moved a chapter to another page.
    """
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"the PDFs are printed by Chromium, which is missing at {CHROMIUM}: "
            "install Debian's chromium (scripts/setup.sh does), or build "
            "without them: ATTENTION_DOCS_PDF=off"
        )
    from playwright.sync_api import sync_playwright

    when = build_date()
    written = []
    with serve_folder(site_dir) as server, sync_playwright() as playwright:
        address = server + "/"
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            page.route(
                "**/*",
                lambda r: (
                    r.continue_() if r.request.url.startswith(address) else r.abort()
                ),
            )
            for edition in editions:
                book = [edition.folder + p for p in edition.pages]
                sources = {
                    p: (site_dir / p / "index.html").read_text("utf-8") for p in book
                }
                chapters = [chapter(sources[p], p, book, site_url) for p in book]
                styles = _stylesheets(sources[book[0]], book[0])
                source = site_dir / f".book-{edition.lang}.html"
                slugs = [_slug(p) for p in book]
                date = f"{when:%Y-%m-%d}"
                draft = book_html(edition, chapters, styles, None, date)
                numbers = chapter_pages(_print(page, address, source, draft), slugs)
                final = book_html(edition, chapters, styles, numbers, date)
                pdf = _print(page, address, source, final)
                if chapter_pages(pdf, slugs) != numbers:
                    raise RuntimeError(
                        f"{edition.lang} book: numbering its contents moved the "
                        f"chapters from pages {numbers}"
                    )
                source.unlink()
                target = site_dir / PDF_FOLDER / pdf_name(edition.lang)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(finished(pdf, when))
                written.append(target)
        finally:
            browser.close()
    return written
