"""A PDF of each edition: its chapters in order, printed by Chromium.

After the build, an edition's chapters, then its glossary and references, are
put into one HTML document with a title page and a table of contents
(``book.py``), and printed by Debian's Chromium through Playwright
(``chromium.py``) from the built site, served on 127.0.0.1. Text stays
text, figures stay vector SVG (the explorable figures print their static
drawing), math is the browser's MathML, and Chinese is set in Noto Sans CJK
(Debian's fonts-noto-cjk). Each page carries its number in the footer.

Chromium cannot number a table of contents by itself, so the book is printed
twice: the first print tells on which page each chapter starts (read back
with pypdf from the destinations Chromium makes for the contents' links), and
the second prints those numbers (and is checked to have moved no chapter).
The PDF's outline (bookmarks) has every heading.

The printed PDF is then finished: its text maps read Chinese as written
(``tounicode.py``), and its dates are the build's (``SOURCE_DATE_EPOCH``
when set), so that two builds give the same bytes.
"""

from __future__ import annotations

import datetime
import io
import logging
import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attention_docs_site.layout import PDF_FOLDER, pdf_name
from attention_docs_site.site.book import tounicode
from attention_docs_site.site.book.chromium import (
    MissingChromiumError,
    chromium,
    find_chromium,
)
from attention_docs_site.site.book.html import (
    Edition,
    book_html,
    book_pages,
    chapter,
    home_title,
    page_stylesheets,
    section_id,
)
from attention_docs_site.site.book.static_server import serve_folder
from attention_docs_site.site.book.tounicode import ideographs as _ideographs  # noqa: F401 (tests/site/test_pdf.py)

if TYPE_CHECKING:
    from playwright.sync_api import Page
    from pypdf import PdfWriter

__all__ = [
    "PDF_FOLDER",
    "Edition",
    "book_pages",
    "home_title",
    "pdf_name",
    "write_pdfs",
]

_FOOTER = (
    '<div style="width:100%;font-size:8pt;text-align:center;color:#444;'
    'font-family:sans-serif"><span class="pageNumber"></span></div>'
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
    numbers = []
    for slug in slugs:
        found = destinations.get(f"/{slug}")
        page = None if found is None else reader.get_destination_page_number(found)
        if page is None:
            raise ValueError(f"the printed book has no destination for {slug}")
        numbers.append(page + 1)
    return numbers


def build_date(
    project: Path | None = None, now: datetime.datetime | None = None
) -> datetime.datetime:
    """The build's time, in UTC.

    ``SOURCE_DATE_EPOCH`` when set; else the time of the last commit of the
    project's git repository, so that a plain ``mkdocs build`` of a commit
    prints the same PDFs twice; else (no git) now.

    Parameters:
        project: The repository's root.
        now: The time to use when there is neither.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch and project is not None:
        epoch = _last_commit_time(project)
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), tz=datetime.UTC)
    return now or datetime.datetime.now(tz=datetime.UTC)


def _last_commit_time(project: Path) -> str | None:
    """Seconds since the epoch of HEAD's commit, or None outside a git checkout."""
    try:
        found = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found.stdout.strip() or None if found.returncode == 0 else None


def finished(
    pdf: bytes, when: datetime.datetime, headings: Sequence[str] | None = None
) -> bytes:
    """The printed PDF, searchable as written, with the build's dates.

    Every font's text is mapped to ideographs, not radicals (see
    :func:`tounicode.repair`). Chromium dates the PDF when it prints; the
    dates become the build's, so that two builds give the same bytes.
    Chromium's bookmarks take their titles from the laid-out text, which
    doubles Chinese headings and glues words at a line break; given the
    headings' text, in order, the bookmarks get it (:func:`retitle_outline`).
    """
    from pypdf import PdfReader, PdfWriter

    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # Chromium's trailer understates its size
    try:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    finally:
        quiet.setLevel(level)
    tounicode.repair(writer)
    if headings is not None:
        retitle_outline(writer, headings)
    stamp = f"D:{when:%Y%m%d%H%M%S}+00'00'"
    writer.add_metadata({"/CreationDate": stamp, "/ModDate": stamp})
    out = io.BytesIO()
    writer.write(out)
    return _renumbered_node_ids(out.getvalue())


def retitle_outline(writer: PdfWriter, headings: Sequence[str]) -> None:
    """Give the bookmarks, in document order, the headings' text.

    Raises:
        RuntimeError: The outline has not one bookmark per heading.
    """
    from pypdf.generic import NameObject, TextStringObject

    items = []
    outlines = writer.root_object.get("/Outlines")
    stack = [outlines.get_object().get("/First")] if outlines else []
    while stack:
        reference = stack.pop()
        if reference is None:
            continue
        item = reference.get_object()
        items.append(item)
        stack += [item.get("/Next"), item.get("/First")]  # children first
    if len(items) != len(headings):
        raise RuntimeError(
            f"the PDF has {len(items)} bookmarks for {len(headings)} headings"
        )
    for item, heading in zip(items, headings, strict=True):
        item[NameObject("/Title")] = TextStringObject(heading)


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


# The text of each heading Chromium puts in the outline: every rendered h1-h6.
_HEADINGS = """[...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
  .filter((h) => h.getClientRects().length)
  .map((h) => h.innerText.replace(/\\s+/g, " ").trim())"""


_FONTS_LOADED = """Promise.all([...document.fonts].map((face) => face.load()))
  .then(() => document.fonts.ready)"""


def _print(
    page: Page, address: str, source: Path, text: str
) -> tuple[bytes, list[str]]:
    """Print one HTML document, written as ``source`` in the served folder.

    Returns:
        The PDF, and the text of its headings in order (see :func:`finished`).
    """
    source.write_text(text, "utf-8")
    page.goto(address + source.name)
    page.wait_for_load_state("load")
    # Every font face loaded before printing, not only those the screen layout
    # asked for: a face first needed by the print layout raced the printing,
    # and a formula's glyphs moved between two builds of the same page.
    page.evaluate(_FONTS_LOADED)
    headings = page.evaluate(_HEADINGS)
    pdf = page.pdf(
        format="A4",
        print_background=True,
        display_header_footer=True,
        header_template="<span></span>",
        footer_template=_FOOTER,
        margin={"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"},
        outline=True,  # bookmarks, from the headings: also how chapters are found
        tagged=True,
    )
    return pdf, headings


def _print_book(
    page: Page,
    address: str,
    site_dir: Path,
    site_url: str,
    edition: Edition,
    date: str,
) -> tuple[bytes, list[str]]:
    """Print an edition's book twice, the second time with its page numbers.

    Returns:
        The PDF, and its headings' text (:func:`finished`).

    Raises:
        RuntimeError: If numbering the contents moved a chapter to another page.
    """
    book = [edition.folder + p for p in edition.pages]
    sources = {p: (site_dir / p / "index.html").read_text("utf-8") for p in book}
    chapters = [chapter(sources[p], p, book, site_url) for p in book]
    styles = page_stylesheets(sources[book[0]], book[0])
    source = site_dir / f".book-{edition.lang}.html"
    slugs = [section_id(p) for p in book]
    draft = book_html(edition, chapters, styles, None, date)
    numbers = chapter_pages(_print(page, address, source, draft)[0], slugs)
    final = book_html(edition, chapters, styles, numbers, date)
    pdf, headings = _print(page, address, source, final)
    if chapter_pages(pdf, slugs) != numbers:
        raise RuntimeError(
            f"{edition.lang} book: numbering its contents moved the "
            f"chapters from pages {numbers}"
        )
    source.unlink()
    return pdf, headings


def write_pdfs(
    site_dir: Path,
    site_url: str,
    editions: Sequence[Edition],
    project: Path | None = None,
) -> list[Path]:
    """Print ``pdf/attention_docs-<lang>.pdf`` for each edition (see above).

    Parameters:
        site_dir: The built site.
        site_url: The published site's address, ending in ``/``.
        editions: The books to print.
        project: The repository, whose last commit dates the PDFs when
            ``SOURCE_DATE_EPOCH`` is not set (:func:`build_date`).

    Returns:
        The PDFs written.

    Raises:
        RuntimeError: If Chromium is missing, or if numbering the contents
            moved a chapter to another page.
    """
    try:
        find_chromium()
    except MissingChromiumError as error:
        raise RuntimeError(
            f"the PDFs are printed by Chromium: {error}, or build without "
            "them: ATTENTION_DOCS_PDF=off"
        ) from None
    when = build_date(project)
    written = []
    with serve_folder(site_dir) as server, chromium() as browser:
        address = server + "/"
        page = browser.new_page()
        page.route(
            "**/*",
            lambda r: r.continue_() if r.request.url.startswith(address) else r.abort(),
        )
        for edition in editions:
            date = f"{when:%Y-%m-%d}"
            pdf, headings = _print_book(
                page, address, site_dir, site_url, edition, date
            )
            target = site_dir / PDF_FOLDER / pdf_name(edition.lang)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(finished(pdf, when, headings))
            written.append(target)
    return written
