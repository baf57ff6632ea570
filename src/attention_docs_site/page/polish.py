"""The last touches to a built page: the theme's markup, the head, blank lines."""

from __future__ import annotations

import re

from attention_docs_site.upstream.guard import UpstreamChanged
from attention_docs_site.upstream.material_html import edit_theme_page

_TAG = re.compile(r"<[^>]+>")


def strip_tags(html: str) -> str:
    """The text of an HTML fragment, entities left as they are."""
    return _TAG.sub("", html)


def add_to_head(output: str, element: str) -> str:
    """Put an element at the end of a page's ``<head>``.

    Raises:
        UpstreamChanged: The page has no ``</head>``.
    """
    head, separator, body = output.partition("</head>")
    if not separator:
        raise UpstreamChanged("the page has no </head> to add to")
    return head + element + separator + body


def polish_page(output: str) -> str:
    """Tidy a built page: the theme's markup (upstream), then blank lines."""
    return collapse_blank_lines(edit_theme_page(output))


# Elements whose text is shown or copied as is (notebook cells copy their
# source from a hidden div).
_VERBATIM = re.compile(
    r'(<(pre|textarea|script|code)\b.*?</\2>|<div class="clipboard-copy-txt".*?</div>)',
    re.DOTALL | re.IGNORECASE,
)


_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")


def collapse_blank_lines(output: str) -> str:
    """Drop blank lines and indentation between tags, outside verbatim elements.

    The theme's templates leave about 5 % of a page as indentation and empty
    lines. A newline stays wherever there was one, so the rendered page is the
    same; ``pre``, ``textarea``, ``script``, ``code`` and the notebooks'
    copy-button sources are left untouched.

    Parameters:
        output: A built page's HTML.

    Returns:
        The same page, smaller.
    """
    parts = _VERBATIM.split(output)
    # split() yields text, element, tag name, text, element, tag name, ...
    return "".join(
        _BLANK_RUN.sub("\n", part) if i % 3 == 0 else part
        for i, part in enumerate(parts)
        if i % 3 != 2
    )
