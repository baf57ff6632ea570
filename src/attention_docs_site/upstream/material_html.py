"""Edits of the HTML that Material, MkDocs and their extensions write.

Each edit is declared as a :class:`~.guard.Reach` and applies through it, so a
page whose markup an upgrade moved fails the build naming the edit. The page
stage (:mod:`attention_docs_site.page`) and the whole-site steps (the security
policy, the offline copies) call these; nothing else edits the theme's markup.
"""

from __future__ import annotations

import itertools
import json
import re

import markupsafe

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
)
_EMPTY_TABINDEX = re.compile(r' tabindex=""')
# A section's own label (a section without an index page): it has the attribute.
_SECTION_LABEL = re.compile(
    r'md-nav__item--section[^"]*">\s*<input[^>]*>\s*<label class="md-nav__link"'
)

LANGUAGE_ALTERNATES = declare(
    "material: hreflang alternates",
    "mkdocs-material",
    "9.8.2",
    'removes the head\'s <link rel="alternate" hreflang> elements',
    "Material's script fetches sitemap.xml relative to each, and "
    "mkdocs-static-i18n points them at pages: every page logged 404s",
    "correctness",
)
_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')

SEARCH_LABEL = declare(
    "material: search dialog label",
    "mkdocs-material",
    "9.8.2",
    "gives the search dialog its input's aria-label",
    "a dialog without an accessible name fails axe-core",
    "correctness",
)
_SEARCH_DIALOG = re.compile(
    r'<div class="md-search" data-md-component="search" role="dialog"(?=>)'
)
_SEARCH_INPUT = re.compile(
    r'class="md-search__input" name="query" aria-label="([^"]*)"'
)

DEFERRED_SCRIPTS = declare(
    "material: scripts deferred",
    "mkdocs-material",
    "9.8.2",
    'adds defer to the <script src="....min.js"> tags of base.html\'s scripts '
    "block (the bundle and mkdocs.yml's extra_javascript), in the template "
    "(overrides/main.html)",
    "the page is drawn first; the scripts still run in order, before "
    "DOMContentLoaded, when Material's document$ starts",
    "speed",
)
_SCRIPT_END = re.compile(r'\.min\.js"></script>')

EXPLORABLES_PRIORITY = declare(
    "mkdocs: explorables fetched late",
    "mkdocs",
    "1.6.1",
    'adds fetchpriority="low" to the explorables\' module <script> tag that '
    "MkDocs writes from extra_javascript",
    "fetched at high priority, Lighthouse counted it render-blocking (#31)",
    "speed",
)
_EXPLORABLES = re.compile(r'(<script src="[^"]*assets/explorables\.js" type="module")>')

API_STYLE_SHEET = declare(
    "mkdocstrings: style sheet on API pages only",
    "mkdocstrings",
    "1.0.8",
    "keeps mkdocstrings' _mkdocstrings.css link on pages with API entries, once",
    "linked on every page (twice in the second edition), it blocks the first "
    "paint and styles nothing",
    "speed",
)
_API_STYLE_SHEET = re.compile(
    r'<link rel="stylesheet" href="[^"]*assets/_mkdocstrings\.css">\n?'
)
_API_ENTRY = re.compile(r'class="doc doc-')

CODE_ANNOTATIONS = declare(
    "material: code annotation lists",
    "mkdocs-material",
    "9.8.2",
    'classes the list after an annotated code block "ad-annotations"',
    "Material's script hides the list only once it runs; hidden by site.css "
    "from the start, the text below does not shift",
    "speed",
)
# A code block whose comments carry Material's annotation markers, "# (1)!",
# and the ordered list right after it: the annotations.
_ANNOTATED = re.compile(
    r'(<div class="(?:language-\w+ )?highlight">(?:(?!</div>).)*?\(\d+\)!'
    r"(?:(?!</div>).)*</div>\s*)<ol>",
    re.DOTALL,
)
_MARKER = re.compile(r"\(\d+\)!")

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

POLICY_PLACE = declare(
    "material: security policy after the charset",
    "mkdocs-material",
    "9.8.2",
    "puts the page's Content-Security-Policy <meta> right after <meta charset>",
    "a policy must come before the first script or style it governs",
    "correctness",
)
_CHARSET = re.compile(r'<meta charset="utf-8">', re.IGNORECASE)

OFFLINE_CONFIG = declare(
    "material: offline copy without instant navigation",
    "mkdocs-material",
    "9.8.2",
    "drops navigation.instant* from the __config of the offline copy's pages",
    "instant navigation fetches pages with XHR, which file: pages cannot",
    "correctness",
)
_CONFIG = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL
)
OFFLINE_SHIM = declare(
    "material: offline copy's worker shim",
    "mkdocs-material",
    "9.8.2",
    "loads iframe-worker's shim right before Material's bundle in the copy",
    "search runs in a Web Worker, which a file: page cannot start",
    "correctness",
)
_BUNDLE = re.compile(r'<script src="([^"]*)assets/javascripts/bundle\.')
OFFLINE_MODULE = declare(
    "mkdocs: offline copy's classic explorables script",
    "mkdocs",
    "1.6.1",
    'turns the explorables\' type="module" script tag into a deferred one',
    "file: pages cannot load module scripts (a CORS request)",
    "correctness",
)
_MODULE = re.compile(r'(<script src="[^"]*explorables\.js") type="module"')


def drop_empty_tabindex(output: str) -> str:
    """Drop ``tabindex=""``: not a number, so invalid HTML, and ignored."""
    if 'tabindex=""' not in output and not _SECTION_LABEL.search(output):
        return output  # only the labels of navigation sections have it
    return EMPTY_TABINDEX.edit(_EMPTY_TABINDEX, "", output)


def drop_language_alternates(output: str) -> str:
    """Remove the hreflang ``<link rel="alternate">`` elements from a page's head.

    The language menu keeps its links, and search engines still learn the
    counterparts from the ``xhtml:link`` alternates in ``sitemap.xml``.
    """
    head, separator, body = output.partition("</head>")
    if "md-select__link" not in body:
        return output  # no language menu, so no alternates (one edition)
    head = LANGUAGE_ALTERNATES.edit(_HEAD_ALTERNATE, "", head)
    return head + separator + body


def label_search_dialog(output: str) -> str:
    """Give Material's search dialog an accessible name (its input's label)."""
    found = _SEARCH_INPUT.search(output)
    if not SEARCH_LABEL.require(found is not None, "the page has no search input"):
        return output
    assert found is not None
    label = f' aria-label="{found[1]}"'
    return SEARCH_LABEL.edit(_SEARCH_DIALOG, lambda m: m[0] + label, output, count=1)


def fetch_explorables_late(output: str) -> str:
    """Ask for the explorables' module at low priority, as for the theme's scripts.

    Chromium fetches a module script at high priority, although, like the
    theme's deferred scripts (low priority), it runs only once the page is
    parsed. ``fetchpriority="low"`` gives it the deferred scripts' priority; it
    still runs at the same point.
    """
    if not EXPLORABLES_PRIORITY.active:
        return output
    return EXPLORABLES_PRIORITY.edit(
        _EXPLORABLES, r'\1 fetchpriority="low">', output, count=1
    )


def drop_api_style_sheet(output: str) -> str:
    """Keep mkdocstrings' style sheet for the pages with API entries only, once.

    Material's instant navigation adds and removes head links as the reader
    moves between pages, so the API page still gets it.
    """
    if not API_STYLE_SHEET.active:
        return output
    keep = 1 if _API_ENTRY.search(output) else 0
    seen = itertools.count()

    def kept(link: re.Match[str]) -> str:
        return link[0] if next(seen) < keep else ""

    return API_STYLE_SHEET.edit(_API_STYLE_SHEET, kept, output)


def script_tags(block: str) -> str:
    """The scripts block of Material's base.html, deferred and prioritised.

    Called from the template (``overrides/main.html``, the ``upstream``
    filter the plugin gives Jinja), where the block is made.
    """
    if DEFERRED_SCRIPTS.active:
        block = DEFERRED_SCRIPTS.edit(_SCRIPT_END, '.min.js" defer></script>', block)
    return fetch_explorables_late(block)


TEMPLATE_EDITS = {"script tags": script_tags}
"""The edits a template applies to a block it extends: ``| upstream("name")``."""


def template_edit(block: str, name: str) -> markupsafe.Markup:
    """The Jinja filter ``upstream``: a block of the theme, edited as declared."""
    return markupsafe.Markup(TEMPLATE_EDITS[name](str(block)))


def edit_theme_page(output: str) -> str:
    """Every edit of a built page's theme markup, in order."""
    for step in (
        drop_empty_tabindex,
        drop_language_alternates,
        drop_api_style_sheet,
        label_search_dialog,
    ):
        output = step(output)
    return output


def mark_code_annotations(content: str) -> str:
    """Class the lists of code annotations ``ad-annotations``.

    Material's script moves such a list into the code block's tooltips and
    hides it; until it runs, the list takes its room, and the text below
    moves up when it goes. The site's style sheet hides the list from the
    start (``site.css``), and shows it again without scripts
    (``overrides/main.html``) and in print.
    """
    if not CODE_ANNOTATIONS.active or not _MARKER.search(content):
        return content
    return CODE_ANNOTATIONS.edit(_ANNOTATED, r'\1<ol class="ad-annotations">', content)


def edition_base(output: str, language: str) -> str:
    """Point a page's ``__config`` base at its edition's folder.

    Returns:
        The page with ``"base": "<base>/zh/"`` (the slash makes Material read
        it as a folder).
    """
    return EDITION_BASE.edit(
        _CONFIG_BASE,
        lambda m: f"{m.group(1)}{m.group(2).rstrip('/')}/{language}/{m.group(3)}",
        output,
        count=1,
        limit=1,
    )


def after_charset(page: str, element: str) -> str:
    """Put an element right after the page's ``<meta charset>``."""
    return POLICY_PLACE.edit(_CHARSET, lambda m: m[0] + element, page, count=1)


def offline_theme_edits(page: str, shim: str) -> str:
    """A page's theme markup as a copy opened from a folder needs it.

    Parameters:
        page: A built page.
        shim: The shim's path from the bundle's folder (``assets/vendor/...``).
    """
    page = OFFLINE_MODULE.edit(_MODULE, r"\1 defer", page, count=1)
    page = OFFLINE_CONFIG.edit(_CONFIG, _without_instant_navigation, page, count=1)
    return OFFLINE_SHIM.edit(
        _BUNDLE, lambda m: f'<script src="{m[1]}{shim}"></script>{m[0]}', page, count=1
    )


def _without_instant_navigation(match: re.Match[str]) -> str:
    config = json.loads(match[2])
    config["features"] = [
        f for f in config["features"] if not f.startswith("navigation.instant")
    ]
    return match[1] + json.dumps(config, ensure_ascii=False) + match[3]
