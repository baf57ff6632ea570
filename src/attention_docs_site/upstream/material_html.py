"""Edits of the HTML that Material, MkDocs and their extensions write.

Each edit is declared as a :class:`~.guard.Reach` and applies through it, so
markup an upgrade moved fails the build naming the edit. Here: the scripts
block of the template, the code annotation lists (classed by the Markdown
stage, :mod:`attention_docs_site.markdown.annotations`), and what
the whole-site steps change (the security policy, the offline copies). The
edits of a built page's theme markup, made in the page's one walk, are in
:mod:`.material_page`; nothing else edits the theme's markup.
"""

from __future__ import annotations

import json
import re

import markupsafe

from attention_docs_site.upstream.guard import declare

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

CODE_ANNOTATIONS = declare(
    "material: code annotation lists",
    "mkdocs-material",
    "9.8.2",
    'classes the list after an annotated code block "ad-annotations"',
    "Material's script hides the list only once it runs; hidden by site.css "
    "from the start, the text below does not shift as the reader reads "
    "(without it, 0.013 to 0.026 of layout shift on parametric-attention-"
    "pooling, tests/e2e/test_reader.py; a layout's correctness, not speed)",
    "correctness",
)
# A code block as pymdownx.highlight writes it, whose comments carry
# Material's annotation markers, "# (1)!": the ordered list right after it
# holds the annotations.
_ANNOTATED = re.compile(
    r'^\s*<div class="(?:language-\w+ )?highlight">.*\(\d+\)!', re.DOTALL
)
ANNOTATIONS_CLASS = "ad-annotations"

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


def is_annotated_code(block: str) -> bool:
    """Whether a code block's HTML carries Material's annotation markers.

    The list right after such a block holds its annotations: Material's
    script moves it into the block's tooltips and hides it; until it runs,
    the list takes its room, and the text below moves up when it goes. The
    Markdown stage classes the list :data:`ANNOTATIONS_CLASS`
    (:mod:`attention_docs_site.markdown.annotations`), which the site's style
    sheet hides from the start (``site.css``) and shows again without
    scripts (``overrides/main.html``) and in print.
    """
    return CODE_ANNOTATIONS.active and _ANNOTATED.match(block) is not None


# A code annotation marker in a page's Markdown: a comment ending "(1)!".
_MARKER = re.compile(r"#\s*\(\d+\)!\s*$", re.MULTILINE)


def expect_annotations(markdown: str, page: str) -> None:
    """A page whose Markdown marks code annotations: the build must find them."""
    if _MARKER.search(markdown):
        CODE_ANNOTATIONS.expect(f"{page} marks code annotations")


def require_annotation_list(following: str | None) -> bool:
    """Fail the reach unless an annotated block is followed by its list."""
    return CODE_ANNOTATIONS.require(
        following == "ol",
        "a code block with annotation markers is followed by "
        f"{'nothing' if following is None else f'<{following}>'}, not its <ol>",
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
