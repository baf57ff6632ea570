"""Fixes to the theme's HTML: head links, search dialog name, tooltips, blank lines."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Mapping

from attention_docs_site.editions import REFERENCE_CATALOG, catalog

_TAG = re.compile(r"<[^>]+>")


class ThemeMarkupChanged(ValueError):
    """The theme's HTML no longer has what one of the plugin's edits changes.

    The plugin edits Material's, mkdocs-static-i18n's and mkdocs-jupyter's
    HTML with patterns; after an upgrade moves that markup, an edit must fail
    the build, not leave the page as it was.
    """


def edit(
    pattern: re.Pattern[str],
    replacement: str | Callable[[re.Match[str]], str],
    text: str,
    what: str,
    count: int = 0,
) -> str:
    """``pattern.sub``, that fails when the pattern matches nothing.

    Parameters:
        pattern: What the edit looks for in the theme's HTML.
        replacement: As for :meth:`re.Pattern.sub`.
        text: The HTML.
        what: The edit, for the message (e.g. "the search dialog's label").
        count: At most this many replacements; 0 for all.

    Raises:
        ThemeMarkupChanged: The pattern matched nothing.
    """
    result, made = pattern.subn(replacement, text, count=count)
    if not made:
        raise ThemeMarkupChanged(
            f"{what}: the theme's HTML no longer has {pattern.pattern!r}; a "
            "theme upgrade moved it (requirements/constraints.txt pins the "
            "versions this edit was written for)"
        )
    return result


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
    if "md-select__link" not in body:
        return output  # no language menu, so no alternates (one edition)
    head = edit(_HEAD_ALTERNATE, "", head, "removing the hreflang alternates")
    return head + separator + body


_SEARCH_DIALOG = re.compile(
    r'<div class="md-search" data-md-component="search" role="dialog"(?=>)'
)


_SEARCH_INPUT = re.compile(
    r'class="md-search__input" name="query" aria-label="([^"]*)"'
)


def label_search_dialog(output: str) -> str:
    """Give Material's search dialog an accessible name (its input's label).

    Parameters:
        output: A built page's HTML.

    Returns:
        The page with ``aria-label`` on the search dialog.

    Raises:
        ThemeMarkupChanged: The page has no search input or dialog as
            Material writes them.
    """
    found = _SEARCH_INPUT.search(output)
    if found is None:
        raise ThemeMarkupChanged(
            f"labelling the search dialog: no {_SEARCH_INPUT.pattern!r} in the page"
        )
    label = f' aria-label="{found[1]}"'
    return edit(
        _SEARCH_DIALOG, lambda m: m[0] + label, output, "the search dialog's label", 1
    )


def translate_tooltips(content: str, words: Mapping[str, str]) -> str:
    """Give heading anchors and footnote back links tooltips in the page's language.

    Python-Markdown's toc and footnotes extensions write them in English, one
    setting for every language.

    Parameters:
        content: A page's HTML.
        words: The page's edition's catalog (``permalink``, ``footnote_back``).

    Returns:
        The HTML with those ``title`` attributes in that language.
    """
    english = catalog(REFERENCE_CATALOG)
    if words is english:
        return content
    content = content.replace(_title(english["permalink"]), _title(words["permalink"]))
    before, after = english["footnote_back"].split("{number}")
    back = re.compile(_title(re.escape(before) + r"(\d+)" + re.escape(after)))
    return back.sub(
        lambda found: _title(words["footnote_back"].format(number=found[1])),
        content,
    )


def _title(text: str) -> str:
    return f'title="{html.escape(text, quote=True)}"'


def add_to_head(output: str, element: str) -> str:
    """Put an element at the end of a page's ``<head>``.

    Raises:
        ThemeMarkupChanged: The page has no ``</head>``.
    """
    head, separator, body = output.partition("</head>")
    if not separator:
        raise ThemeMarkupChanged("the page has no </head> to add to")
    return head + element + separator + body


def polish_page(output: str) -> str:
    """Tidy a built page: head links, sheets, a script's priority, search label."""
    for polish in (
        fetch_explorables_late,
        drop_empty_tabindex,
        drop_language_alternates,
        drop_api_style_sheet,
        label_search_dialog,
        collapse_blank_lines,
    ):
        output = polish(output)
    return output


# Material's nav-item.html writes tabindex="{{ tabindex }}" on a section's
# label, with no value for a section of navigation.sections.
_EMPTY_TABINDEX = re.compile(r' tabindex=""')


def drop_empty_tabindex(output: str) -> str:
    """Drop ``tabindex=""``: not a number, so invalid HTML, and ignored."""
    return _EMPTY_TABINDEX.sub("", output)


# The explorables' module (mkdocs.yml's extra_javascript, on every page, so
# that instant navigation to a page with explorables finds it running).
_EXPLORABLES = re.compile(r'(<script src="[^"]*assets/explorables\.js" type="module")>')


def fetch_explorables_late(output: str) -> str:
    """Ask for the explorables' module at low priority, as for the theme's scripts.

    Chromium fetches a module script at high priority, although, like the
    theme's deferred scripts (low priority), it runs only once the page is
    parsed. Lighthouse's simulated first paint counts a high-priority script as
    render-blocking whenever it happened to run before the observed paint: one
    more round trip of the simulated network, 1.35 s against 1.20 s on the
    same page from one run to the next (#31). ``fetchpriority="low"`` gives it
    the deferred scripts' priority; it still runs at the same point.

    Raises:
        ThemeMarkupChanged: The page does not load the module as one.
    """
    return edit(
        _EXPLORABLES, r'\1 fetchpriority="low">', output, "the explorables' script", 1
    )


_API_STYLE_SHEET = re.compile(
    r'<link rel="stylesheet" href="[^"]*assets/_mkdocstrings\.css">\n?'
)
# What mkdocstrings renders, and its style sheet styles.
_API_ENTRY = re.compile(r'class="doc doc-')


def drop_api_style_sheet(output: str) -> str:
    """Keep mkdocstrings' style sheet for the pages with API entries only, once.

    The plugin adds it to every page, where it blocks the first paint and
    styles nothing; and its configuration hook adds it again for each edition
    that mkdocs-static-i18n configures after the first, so a page of the
    second edition linked it twice. Material's instant navigation adds and
    removes head links as the reader moves between pages, so the API page
    still gets it.

    Raises:
        ThemeMarkupChanged: A page has no such link to drop.
    """
    keep = 1 if _API_ENTRY.search(output) else 0
    seen = itertools.count()

    def kept(link: re.Match[str]) -> str:
        return link[0] if next(seen) < keep else ""

    return edit(_API_STYLE_SHEET, kept, output, "the API style sheet")


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


# A code block whose comments carry Material's annotation markers, "# (1)!",
# and the ordered list right after it: the annotations.
_ANNOTATED = re.compile(
    r'(<div class="(?:language-\w+ )?highlight">(?:(?!</div>).)*?\(\d+\)!'
    r"(?:(?!</div>).)*</div>\s*)<ol>",
    re.DOTALL,
)


def mark_code_annotations(html: str) -> str:
    """Class the lists of code annotations ``ad-annotations``.

    Material's script moves such a list into the code block's tooltips and
    hides it; until it runs, the list takes its room, and the text below
    moves up when it goes (the layout shift a reader sees). The site's style
    sheet hides the list from the start (``site.css``), and shows it again
    without scripts (``overrides/main.html``) and in print.
    """
    return _ANNOTATED.sub(r'\1<ol class="ad-annotations">', html)
