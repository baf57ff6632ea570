"""The last touches to a built page, in one walk: head, theme markup, blank lines.

:func:`polish_page` tokenizes the page once
(:func:`attention_docs_site.html_walk.walk`): :class:`AddToHead` puts the
edition's data at the end of ``<head>``, the theme edits of
:mod:`attention_docs_site.upstream.material_page` change the elements they are
declared for, and blank lines and indentation go outside verbatim elements;
every other byte is written as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from attention_docs_site.html_walk import Change, Handler, Tag, walk
from attention_docs_site.upstream.guard import UpstreamChanged
from attention_docs_site.upstream.material_page import theme_edits

_TAG = re.compile(r"<[^>]+>")


def strip_tags(html: str) -> str:
    """The text of an HTML fragment, entities left as they are."""
    return _TAG.sub("", html)


class AddToHead(Handler):
    """Put an element at the end of a page's ``<head>``.

    Raises:
        UpstreamChanged: The page has no ``</head>``.
    """

    names = {"head": ""}

    def __init__(self, element: str) -> None:
        self.element = element
        self.at: int | None = None

    def tag(self, tag: Tag, page: str) -> None:  # noqa: D102 (Handler's)
        if tag.closing and self.at is None:
            self.at = tag.start

    def changes(self, page: str) -> Iterable[Change]:  # noqa: D102 (Handler's)
        if self.at is None:
            raise UpstreamChanged("the page has no </head> to add to")
        return [Change(self.at, self.at, self.element)]


def polish_page(
    output: str, head: str, language: str | None = None, edits: Iterable[Handler] = ()
) -> str:
    """A built page as written: ``head`` added, the theme edited, blank lines gone.

    The theme's templates leave about 5 % of a page as indentation and empty
    lines. A newline stays wherever there was one, so the rendered page is the
    same; ``pre``, ``textarea``, ``script``, ``code`` and the notebooks'
    copy-button sources are left untouched.

    Parameters:
        output: A built page's HTML.
        head: An element for the end of its ``<head>``.
        language: The edition whose search index the page uses; None for the
            site's own (see :func:`.material_page.theme_edits`).
        edits: More edits of the page's markup, in the same walk.

    Returns:
        The page as the site publishes it.
    """
    handlers = [AddToHead(head), *theme_edits(language), *edits]
    return walk(output, handlers, collapse=True)
