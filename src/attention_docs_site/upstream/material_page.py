"""Edits of the theme's markup in a built page, each a handler of the page's one walk.

The page stage writes a page in one walk over its tags
(:func:`attention_docs_site.html_walk.walk`, ``page/polish.py``); each edit
below is a :class:`~attention_docs_site.html_walk.Handler` of the elements it
changes, declared as a :class:`~.guard.Reach`. It changes an element's source
through :meth:`~.guard.Reach.edit` with the pattern it was written for, so
markup an upgrade moved fails the build naming the edit, as does a page that
lacks an element the edit must find.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from attention_docs_site.html_walk import Change, Handler, Tag
from attention_docs_site.upstream.guard import declare

# Material's nav-item.html writes tabindex="{{ tabindex }}" on a section's
# label, with no value for a section of navigation.sections.
EMPTY_TABINDEX = declare(
    "material: empty tabindex",
    "mkdocs-material",
    "9.8.2",
    'drops tabindex="" from the navigation\'s section labels',
    "an empty tabindex is invalid HTML (the HTML checker fails the page)",
    "correctness",
    report='Material for MkDocs: `tabindex=""` on navigation section labels',
)
_EMPTY_TABINDEX = re.compile(r' tabindex=""')

LANGUAGE_ALTERNATES = declare(
    "material: hreflang alternates",
    "mkdocs-material",
    "9.8.2",
    'removes the head\'s <link rel="alternate" hreflang> elements',
    "Material's script fetches sitemap.xml relative to each, and "
    "mkdocs-static-i18n points them at pages: every page logged 404s",
    "correctness",
    report="Material for MkDocs: hreflang alternates fetch a missing sitemap",
)
_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')

SEARCH_LABEL = declare(
    "material: search dialog label",
    "mkdocs-material",
    "9.8.2",
    "gives the search dialog its input's aria-label",
    "a dialog without an accessible name fails axe-core",
    "correctness",
    report="Material for MkDocs: the search dialog has no accessible name",
)
_SEARCH_DIALOG = re.compile(
    r'<div class="md-search" data-md-component="search" role="dialog"(?=>)'
)
_SEARCH_INPUT = re.compile(
    r'class="md-search__input" name="query" aria-label="([^"]*)"'
)

API_STYLE_SHEET = declare(
    "mkdocstrings: style sheet on API pages only",
    "mkdocstrings",
    "1.0.8",
    "keeps mkdocstrings' _mkdocstrings.css link on pages with API entries, once",
    "linked on every page (twice in the second edition), it blocks the first "
    "paint and styles nothing",
    "speed",
    report="mkdocstrings: the style sheet on every page, and twice",
)
_API_STYLE_SHEET = re.compile(
    r'<link rel="stylesheet" href="[^"]*assets/_mkdocstrings\.css">\n?'
)

EDITION_BASE = declare(
    "material: edition's search base",
    "mkdocs-material",
    "9.8.2",
    "points the base of the page's __config at its edition's folder",
    "Material loads the search index and sitemap from that base: each "
    "edition searches its own index",
    "correctness",
)
_CONFIG_BASE = re.compile(
    r'(<script id="__config" type="application/json">\{[^<]*?"base": ")([^"]*)(")'
)

_SPACE = re.compile(r"\s*")


def _space_end(page: str, offset: int) -> int:
    """Where the white space that starts at ``offset`` ends."""
    found = _SPACE.match(page, offset)
    return found.end() if found else offset


class EmptyTabindex(Handler):
    """Drop ``tabindex=""``: not a number, so invalid HTML, and ignored.

    Only the labels of navigation sections have it: a page with such a label
    (``li.md-nav__item--section``, its ``input.md-nav__toggle``, then
    ``label.md-nav__link``) and no empty tabindex means Material changed.
    """

    names = {
        "li": "md-nav__item--section",
        "input": "md-nav__toggle",
        "label": "md-nav__link",
    }

    def __init__(self) -> None:
        self.empty: list[Tag] = []
        self.section_label = False
        self._after_section = 0  # tags seen since a section's item (1: its input)

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.closing:
            return
        if tag.name == "label" and tag.attrs.get("tabindex") == "":
            self.empty.append(tag)
        if self._after_section == 1 and tag.name == "input":
            self._after_section = 2
        elif self._after_section == 2 and tag.name == "label":
            self.section_label |= tag.attrs.get("class") == "md-nav__link"
            self._after_section = 0
        else:
            self._after_section = 0
        if "md-nav__item--section" in (tag.attrs.get("class") or ""):
            self._after_section = 1

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if not self.empty and self.section_label:  # a page without: nothing
            EMPTY_TABINDEX.require(False, "a section's label has no empty tabindex")
        for tag in self.empty:
            text = EMPTY_TABINDEX.edit(_EMPTY_TABINDEX, "", tag.source(page))
            yield Change(tag.start, tag.end, text)


class LanguageAlternates(Handler):
    """Remove the hreflang ``<link rel="alternate">`` elements from a page's head.

    Only where the page has a language menu (``a.md-select__link``): one
    edition has no alternates. The language menu keeps its links, and search
    engines still learn the counterparts from ``sitemap.xml``.
    """

    names = {"head": "", "link": "alternate", "a": "md-select__link"}

    def __init__(self) -> None:
        self.alternates: list[Tag] = []
        self.menu = False
        self._in_head = True

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.name == "head":
            self._in_head = not tag.closing
        elif tag.name == "link" and self._in_head:
            if tag.attrs.get("rel") == "alternate" and "hreflang" in tag.attrs:
                self.alternates.append(tag)
        elif not self._in_head and tag.has_class("md-select__link"):
            self.menu = True

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if not self.menu:
            return
        LANGUAGE_ALTERNATES.require(bool(self.alternates), "no alternates in <head>")
        for tag in self.alternates:
            end = _space_end(page, tag.end)
            text = LANGUAGE_ALTERNATES.edit(_HEAD_ALTERNATE, "", page[tag.start : end])
            yield Change(tag.start, end, text)


class SearchLabel(Handler):
    """Give Material's search dialog an accessible name (its input's label)."""

    names = {"div": "md-search", "input": "md-search__input"}

    def __init__(self) -> None:
        self.dialogs: list[Tag] = []
        self.label: str | None = None

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.name == "div" and tag.attrs.get("role") == "dialog":
            if tag.has_class("md-search"):
                self.dialogs.append(tag)
        elif tag.name == "input" and tag.has_class("md-search__input"):
            found = _SEARCH_INPUT.search(tag.source(page))
            if found and self.label is None:
                self.label = found[1]

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if not SEARCH_LABEL.require(self.label is not None, "no search input"):
            return
        if not SEARCH_LABEL.require(len(self.dialogs) == 1, "no one search dialog"):
            return
        dialog = self.dialogs[0]
        label = f' aria-label="{self.label}"'
        text = SEARCH_LABEL.edit(
            _SEARCH_DIALOG, lambda m: m[0] + label, dialog.source(page), count=1
        )
        yield Change(dialog.start, dialog.end, text)


class ApiStyleSheet(Handler):
    """Keep mkdocstrings' style sheet for the pages with API entries only, once.

    Material's instant navigation adds and removes head links as the reader
    moves between pages, so the API page still gets it. An API entry is a
    ``div.doc.doc-...`` (mkdocstrings' templates).
    """

    names = {"link": "_mkdocstrings", "div": "doc doc-"}

    def __init__(self) -> None:
        self.links: list[Tag] = []
        self.entries = False

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.name == "link":
            if (tag.attrs.get("href") or "").endswith("assets/_mkdocstrings.css"):
                self.links.append(tag)
        elif (tag.attrs.get("class") or "").startswith("doc doc-"):
            self.entries = True

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        API_STYLE_SHEET.require(bool(self.links), "no _mkdocstrings.css link")
        for tag in self.links[1 if self.entries else 0 :]:
            end = tag.end + int(page.startswith("\n", tag.end))
            text = API_STYLE_SHEET.edit(_API_STYLE_SHEET, "", page[tag.start : end])
            yield Change(tag.start, end, text)


class EditionBase(Handler):
    """Point a page's ``__config`` base at its edition's folder.

    The page then has ``"base": "<base>/zh/"`` (the slash makes Material read
    it as a folder).
    """

    names = {"script": "__config"}

    def __init__(self, language: str) -> None:
        self.language = language
        self.configs: list[tuple[int, int]] = []  # from <script> to </script>

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.attrs.get("id") == "__config":
            # A script's text ends at its first "</script" (raw text).
            end = page.find("</script", tag.end)
            self.configs.append((tag.start, end if end >= 0 else len(page)))

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if not EDITION_BASE.require(len(self.configs) == 1, "no one __config"):
            return
        start, end = self.configs[0]
        text = EDITION_BASE.edit(
            _CONFIG_BASE,
            lambda m: f"{m[1]}{m[2].rstrip('/')}/{self.language}/{m[3]}",
            page[start:end],
            count=1,
            limit=1,
        )
        yield Change(start, end, text)


def expect_theme_anchors(features: list[str], nav: object, editions: int) -> None:
    """What a full build of this site must find in the theme's markup.

    Parameters:
        features: The theme's features (``mkdocs.yml``).
        nav: ``mkdocs.yml``'s ``nav``.
        editions: How many editions the site has.
    """
    if editions > 1:  # the language menu, and each page's alternates
        LANGUAGE_ALTERNATES.expect(f"the site has {editions} editions")
    sections = isinstance(nav, list) and any(
        isinstance(item, dict) and any(isinstance(v, list) for v in item.values())
        for item in nav
    )
    if "navigation.sections" in features and sections:
        EMPTY_TABINDEX.expect("mkdocs.yml has navigation.sections and sections")


def theme_edits(language: str | None) -> list[Handler]:
    """Every edit of a built page's theme markup, as handlers of its walk.

    Parameters:
        language: The edition whose search base the page gets; None to keep
            the site's (the default edition, or a template without a page).
    """
    edits: list[Handler] = [EmptyTabindex(), LanguageAlternates(), SearchLabel()]
    if API_STYLE_SHEET.active:
        edits.append(ApiStyleSheet())
    if language is not None:
        edits.append(EditionBase(language))
    return edits
