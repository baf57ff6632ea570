"""The site's own scripts and head template, where they read Material's.

Three files outside Python rely on names Material defines: the head script in
``overrides/main.html`` reads the reader's palette with Material's
``__md_get("__palette")`` before the body exists; ``docs/assets/language.js``
reads the page's ``__config`` and Material's ``document$`` to keep the
language menu (``.md-select__link[hreflang]``) on the page's counterparts;
``docs/assets/annotations.js`` names the annotation markers Material's bundle
draws (``.md-annotation__index``, ``data-md-annotation-id``) on each
``document$``. A browser runs them, so what they do is checked in the browser
tests (``test_reader.py``: the colour scheme before the body; the one visit
of ``test_browser.py``: the language switch, and axe on annotated pages).
What they read is checked here, on every full build: each name must still be
in the theme's files, or the build fails naming the reach.
"""

from __future__ import annotations

from attention_docs_site.upstream.guard import Reach, declare
from attention_docs_site.upstream.material_files import theme_file

PALETTE_READ = declare(
    "material: the palette the head script reads",
    "mkdocs-material",
    "9.8.2",
    'overrides/main.html reads __md_get("__palette") (color.media, '
    "color.scheme) to write the colour-scheme meta before the body",
    "the page's first paint takes the reader's scheme, with no flash of the "
    "other (test_reader.py checks it in the browser)",
    "correctness",
)
LANGUAGE_MENU = declare(
    "material: the names language.js reads",
    "mkdocs-material",
    "9.8.2",
    "docs/assets/language.js reads the page's __config, subscribes to "
    "document$ and rewrites .md-select__link[hreflang] links",
    "after instant navigation the menu must lead to this page's counterparts "
    "(the one-visit browser test switches language on every page)",
    "correctness",
)
ANNOTATION_NAMES = declare(
    "material: the names annotations.js reads",
    "mkdocs-material",
    "9.8.2",
    "docs/assets/annotations.js names each .md-annotation__index link after "
    "its data-md-annotation-id, on each document$",
    "Material's markers are links without a name for screen readers (axe)",
    "correctness",
)

# (reach, the theme's file, a glob from the theme's folder, what it must hold)
BUNDLE = "assets/javascripts/bundle.*.min.js"
ANCHORS: tuple[tuple[Reach, str, tuple[str, ...]], ...] = (
    (PALETTE_READ, "partials/javascripts/base.html", ("__md_get=",)),
    (PALETTE_READ, "partials/javascripts/palette.html", ('__md_get("__palette")',)),
    (LANGUAGE_MENU, "base.html", ('id="__config"',)),
    (LANGUAGE_MENU, "partials/alternate.html", ("md-select__link", "hreflang")),
    (LANGUAGE_MENU, BUNDLE, ("window.document$=",)),
    (ANNOTATION_NAMES, BUNDLE, ("md-annotation__index", "data-md-annotation-id")),
)


def check_script_anchors(theme_dirs: list[str]) -> None:
    """Every name the site's scripts read from Material is still in its files.

    Parameters:
        theme_dirs: The theme's folders, first match wins (``config.theme.dirs``).

    Raises:
        UpstreamChanged: Naming the reach whose name went (recorded instead,
            under the canary).
    """
    for reach, pattern, names in ANCHORS:
        source = theme_file(reach, theme_dirs, pattern, pattern)
        text = source.read_text("utf-8")
        for name in names:
            reach.require(name in text, f"{source.name} no longer has {name!r}")
