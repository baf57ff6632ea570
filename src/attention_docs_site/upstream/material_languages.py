"""The direction Material writes on a page's ``<body>``, for each language.

Material's ``base.html`` sets ``<body dir>`` to the theme's ``direction``
option or, without it, to the ``direction`` of its language partial
(``partials/languages/<locale>.html``; English's, ``ltr``, where the partial
names none). The markup the plugin writes in another language than the
page's, such as the wrapper of a page served untranslated, must state the
direction of that language, agreeing with Material's, so the plugin reads it
the same way: through the theme's templates, an override under
``custom_dir`` first. No list of right-to-left locales lives in the plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jinja2 import TemplateNotFound

from attention_docs_site.editions import EditionError
from attention_docs_site.upstream.guard import declare

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.theme import Theme

DIRECTION = declare(
    "material: a language's direction",
    "mkdocs-material",
    "9.8.2",
    "reads each edition's direction from the theme's language partials "
    "(the macro t('direction') of partials/languages/<locale>.html)",
    "markup in a language other than the page's states its direction, as "
    "Material's <body dir> does (#45)",
    "correctness",
)
DIRECTIONS = ("ltr", "rtl")


def direction(theme: Theme, lang: str) -> str:
    """The direction Material gives a page in a language: ``"ltr"`` or ``"rtl"``.

    Parameters:
        theme: The site's theme (``config.theme``).
        lang: A locale, e.g. ``"ar"``.

    Raises:
        EditionError: The theme has no such language (Material could not
            build its pages either).
        UpstreamChanged: The partials no longer name a direction this way.
    """
    configured = theme.get("direction")
    if configured:
        return str(configured)
    environment = theme.get_env()
    sources = _sources(environment, (f"partials/languages/{lang}.html", _ENGLISH))
    if sources in _KNOWN:  # under mkdocs serve, every rebuild asks again
        return _KNOWN[sources]
    try:
        own = environment.get_template(f"partials/languages/{lang}.html")
    except TemplateNotFound:
        raise EditionError(
            f"mkdocs.yml: the theme has no language {lang!r} (no "
            f"partials/languages/{lang}.html in {', '.join(theme.dirs)}), so it "
            "cannot build that edition: use a locale Material translates, or add "
            "that partial under overrides/"
        ) from None
    english = environment.get_template(_ENGLISH)
    found = [
        str(getattr(partial.make_module({}), "t", lambda _: "")("direction"))
        for partial in (own, english)
    ]
    chosen = found[0] or found[1]
    DIRECTION.require(chosen in DIRECTIONS, f"{lang!r} has direction {chosen!r}")
    if chosen not in DIRECTIONS:
        return "ltr"  # the canary's report goes on
    _KNOWN[sources] = chosen
    return chosen


_ENGLISH = "partials/languages/en.html"
# The direction found, by the sources of the two partials it was read from.
_KNOWN: dict[tuple[str | None, ...], str] = {}


def _sources(
    environment: Environment, names: tuple[str, ...]
) -> tuple[str | None, ...]:
    """The templates' sources (None for one the theme lacks), as Jinja loads them."""
    assert environment.loader is not None
    found: list[str | None] = []
    for name in names:
        try:
            found.append(environment.loader.get_source(environment, name)[0])
        except TemplateNotFound:
            found.append(None)
    return tuple(found)
