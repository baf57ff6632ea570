"""Fixes to the theme's HTML: head links, search dialog name, tooltips, blank lines."""

from __future__ import annotations

import re

_TAG = re.compile(r"<[^>]+>")


def strip_tags(html: str) -> str:
    """The text of an HTML fragment, entities left as they are."""
    return _TAG.sub("", html)


_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


def drop_language_alternates(output: str) -> str:
    """Remove the hreflang ``<link rel="alternate">`` elements from a page's head.

    Material's script fetches ``sitemap.xml`` relative to each of them, to map
    pages between languages. mkdocs-static-i18n points them at the counterpart
    page, not at a language's root, so every page asked for files such as
    ``zh/attention-cues/sitemap.xml`` and logged a 404. The language menu keeps
    its links, and search engines still learn the counterparts from the
    ``xhtml:link`` alternates in ``sitemap.xml``.

    Parameters:
        output: A built page's HTML.

    Returns:
        The page without those elements in its head.
    """
    head, separator, body = output.partition("</head>")
    return _HEAD_ALTERNATE.sub("", head) + separator + body


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


_SEARCH_INPUT = re.compile(
    r'class="md-search__input" name="query" aria-label="([^"]*)"'
)


def label_search_dialog(output: str) -> str:
    """Give Material's search dialog an accessible name (its input's label).

    Parameters:
        output: A built page's HTML.

    Returns:
        The page with ``aria-label`` on the search dialog.
    """
    found = _SEARCH_INPUT.search(output)
    if found is None:
        return output
    labelled = _SEARCH_DIALOG.replace(
        'role="dialog"', f'role="dialog" aria-label="{found[1]}"'
    )
    return output.replace(_SEARCH_DIALOG, labelled, 1)


# Tooltips that Python-Markdown's toc and footnotes extensions write in
# English (one setting for every language), with their Chinese.
_TOOLTIPS = {
    "zh": [
        (re.compile(r'title="Permanent link"'), 'title="永久链接"'),
        (
            re.compile(r'title="Jump back to footnote (\d+) in the text"'),
            r'title="返回正文中脚注 \1 的位置"',
        ),
    ]
}


def translate_tooltips(content: str, lang: str) -> str:
    """Give heading anchors and footnote back links tooltips in the page's language.

    Parameters:
        content: A page's HTML.
        lang: The page's language.

    Returns:
        The HTML with those ``title`` attributes translated.
    """
    for pattern, replacement in _TOOLTIPS.get(lang, []):
        content = pattern.sub(replacement, content)
    return content


def polish_page(output: str) -> str:
    """Tidy a built page: head links, search dialog label, blank lines."""
    return collapse_blank_lines(label_search_dialog(drop_language_alternates(output)))


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
