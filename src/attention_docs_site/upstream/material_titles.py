"""The titles the theme writes for a page in another language than the edition's.

In an edition other than the default, a page with no translation is served in
the default language; its body is marked so (``page/content.py``), but its
title also appears in markup Material writes from the navigation: the
sidebar's and the tabs' entries, the header, the footer's previous and next
links, and, for the page itself, every heading in its table of contents. In a
right-to-left edition such an English title, in a right-to-left line, is
reordered by the bidirectional algorithm ("1. When intent wins, and" shows as
"When intent wins, and .1") and cut at its start rather than its end.
:class:`ForeignTitles` gives each such title's element the ``lang`` and
``dir`` of its language, in the page's one walk (``page/polish.py``); the
site's name in the header gets ``dir="auto"``, as a name in any script.
"""

from __future__ import annotations

import functools
import html
import posixpath
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from attention_docs_site.html_walk import Change, Handler, Tag
from attention_docs_site.upstream.guard import declare

FOREIGN_TITLES = declare(
    "material: titles of pages served untranslated",
    "mkdocs-material",
    "9.8.2",
    "gives the title of a page served in another language (navigation, tabs, "
    "header, footer links, its table of contents) that language's lang and dir",
    "an English title in a right-to-left edition's navigation is reordered "
    "and cut at its start (#45)",
    "correctness",
)
# The element that holds a title; the attributes go after its name.
_TITLE = re.compile(r"^<(?:span|div|a)(?=[\s>])")
# The links whose next ellipsis is the title of the page they point to.
_LINKS = ("md-nav__link", "md-footer__link")


def _after(attributes: str, found: re.Match[str]) -> str:
    """The tag's name, then ``attributes``."""
    return found[0] + attributes


def page_key(url: str) -> str:
    """A page's address as :class:`ForeignTitles` compares them (``"ar/x"``)."""
    return posixpath.normpath(url or ".")


class ForeignTitles(Handler):
    """Mark the titles of pages written in another language than the page's edition.

    Parameters:
        url: The page's own address in the site (MkDocs's ``page.url``).
        foreign: For each page of the edition served in another language, by
            :func:`page_key`, the attributes that say which (a ``lang`` and a
            ``dir``, each with its leading space) and its title. A tab is
            marked only if it shows that title: a section's tab links to its
            first page but shows the section's name, in the edition's
            language.
    """

    names = {
        "a": "md-",
        "label": "md-nav__link--active",
        "div": "md-",
        "span": "md-ellipsis",
    }

    def __init__(self, url: str, foreign: Mapping[str, tuple[str, str]]) -> None:
        self.url = url
        self.foreign = foreign
        self.own = foreign.get(page_key(url), (None, None))[0]
        self.pending: str | None = None  # attributes for the next title
        self.marked: list[tuple[Tag, str]] = []
        self.lost: list[str] = []  # links whose title was not found

    def _target(self, href: str, text: str | None = None) -> str | None:
        """The attributes of the page a link points to, if foreign.

        With ``text``, only if the link shows that page's title.
        """
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return None
        if not parts.path:
            return self.own  # a heading of this page (its table of contents)
        key = page_key(posixpath.join(self.url, parts.path))
        attributes, title = self.foreign.get(key, (None, None))
        return attributes if text is None or text == title else None

    def _expect(self, attributes: str | None, tag: Tag, page: str) -> None:
        """The next title gets ``attributes`` (None: nothing to mark)."""
        if self.pending is not None:
            self.lost.append(tag.source(page))
        self.pending = attributes

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.closing:
            return
        if tag.has_class("md-ellipsis"):
            if self.pending is not None:
                self.marked.append((tag, self.pending))
            self.pending = None
        elif tag.name == "a" and any(map(tag.has_class, _LINKS)):
            self._expect(self._target(tag.attrs.get("href") or ""), tag, page)
        elif tag.name == "a" and tag.has_class("md-tabs__link"):
            shown = html.unescape(page[tag.end : page.find("<", tag.end)]).strip()
            attributes = self._target(tag.attrs.get("href") or "", shown)
            if attributes is not None:
                self.marked.append((tag, attributes))
        elif tag.name == "label" and tag.has_class("md-nav__link--active"):
            self._expect(self.own, tag, page)
        elif tag.name == "div" and tag.has_class("md-header__topic"):
            own = tag.attrs.get("data-md-component") == "header-topic"
            self._expect(self.own if own else ' dir="auto"', tag, page)

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if self.foreign:  # the navigation shows them: the build must mark some
            FOREIGN_TITLES.expect("a page is served in another language")
        if self.pending is not None:
            self.lost.append("the page's end")
        if self.lost:
            FOREIGN_TITLES.require(
                False, f"no title after a link, before {self.lost[:1]}"
            )
            return
        for tag, attributes in self.marked:
            insert = functools.partial(_after, attributes)
            text = FOREIGN_TITLES.edit(_TITLE, insert, tag.source(page), count=1)
            yield Change(tag.start, tag.end, text)
