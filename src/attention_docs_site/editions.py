"""The site's editions, one per language, and each edition's interface words.

There is one list of editions: the languages of the i18n plugin in
``mkdocs.yml`` (``plugins: - i18n: languages:``), each with its locale, name
and whether it is the default. The default edition is built at the site's
root; every other one in a folder named after its locale (``zh/``). Every
feature that differs by language reads them from here: the search index of
each edition, the language menu's script, the translation notices, the
translation command line, the notebook zips, offline copies and PDFs, and the
language of the code blocks' figures.

The words the plugin itself writes (download links, notices, the 404 page,
the book's title page, the notebooks' setup cell) live in one catalog per
language, ``catalogs/<locale>.yml``, which a translator edits. A language
without a catalog, or a catalog without some of the English catalog's keys,
stops the build with a message that names the language and what to add.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

CATALOGS = Path(__file__).parent / "catalogs"
# The language the pages under docs/ are written in: the default edition's,
# and the catalog every other one must match, key for key.
SOURCE_LANG = "en"
REFERENCE_CATALOG = SOURCE_LANG
_FIELD = re.compile(r"\{([A-Za-z_][\w.]*)\}")


class EditionError(PluginError):
    """An edition that is unknown or only half configured; the message says why."""


@dataclass(frozen=True)
class Edition:
    """One language of the site.

    Attributes:
        lang: The locale in ``mkdocs.yml``, e.g. ``"zh"``; pages translated
            into it are ``page.<lang>.md``.
        name: Its name in the language menu, e.g. ``"中文"``.
        default: Whether it is the default edition, built at the site's root.
        direction: The direction its script runs, ``"ltr"`` or ``"rtl"``: the
            theme's for the locale (:func:`site_editions`), so the markup the
            plugin writes agrees with the ``<body dir>`` Material writes.
    """

    lang: str
    name: str
    default: bool = False
    direction: str = "ltr"

    def serves_untranslated(self, source: str | Path) -> bool:
        """Whether a page built from ``source`` is served untranslated here.

        Parameters:
            source: The page's source file (``docs/x.md`` or ``docs/x.zh.md``).

        Returns:
            True in an edition other than the default for a page that has no
            ``page.<lang>.md`` of this edition's language.
        """
        return not self.default and not Path(source).name.endswith(f".{self.lang}.md")

    @property
    def folder(self) -> str:
        """Its folder in the built site: ``""`` for the default, else ``"zh/"``."""
        return "" if self.default else f"{self.lang}/"

    def word(self, key: str, **fields: object) -> str:
        """An interface word of this edition, with its ``{fields}`` filled in.

        Parameters:
            key: The catalog key, e.g. ``"download_notebook"``.
            **fields: Values for the placeholders; none leaves the text as is.

        Returns:
            The text in this edition's language.
        """
        text = catalog(self.lang)[key]
        return text.format(**fields) if fields else text


class Editions(tuple[Edition, ...]):
    """Every edition the site builds, the default first."""

    @property
    def default(self) -> Edition:
        """The default edition, built at the site's root."""
        return self[0]

    @property
    def translated(self) -> tuple[Edition, ...]:
        """The editions built in folders of their own."""
        return self[1:]

    @property
    def langs(self) -> tuple[str, ...]:
        """Every edition's locale, the default first."""
        return tuple(edition.lang for edition in self)

    def get(self, lang: str) -> Edition:
        """The edition of a locale.

        Raises:
            EditionError: No edition has it; the message says where to add it.
        """
        for edition in self:
            if edition.lang == lang:
                return edition
        raise EditionError(
            f"no edition {lang!r}: the site builds {', '.join(self.langs)}. To add "
            f"it, list it in mkdocs.yml under plugins: - i18n: languages: (locale: "
            f"{lang}, name, build: true) and write "
            f"{_shown(CATALOGS / f'{lang}.yml')} (CONTRIBUTING.md, 'Add a language')"
        )


def editions_from_languages(languages: Iterable[Mapping[str, Any]]) -> Editions:
    """The editions of the i18n plugin's ``languages`` option.

    Languages with ``build: false`` (and i18n's ``null`` menu entries) are not
    editions. Each edition's catalog is read and checked here, so a half
    configured language fails at once.

    Parameters:
        languages: Each language's options: ``locale``, ``name``, ``default``
            and ``build``.

    Returns:
        The editions, the default first, the rest in their order.

    Raises:
        EditionError: No default, or more than one; a locale listed twice; a
            language without a complete catalog.
    """
    built = [
        Edition(
            str(lang["locale"]),
            str(lang.get("name") or lang["locale"]),
            bool(lang.get("default", False)),
        )
        for lang in languages
        if lang.get("build", True) and lang.get("locale") != "null"
    ]
    defaults = [edition.lang for edition in built if edition.default]
    if len(defaults) != 1:
        raise EditionError(
            "mkdocs.yml: exactly one of the i18n plugin's languages must have "
            f"default: true (found {len(defaults)}: {', '.join(defaults) or 'none'})"
        )
    if defaults != [SOURCE_LANG]:
        raise EditionError(
            f"mkdocs.yml: the default i18n language is {defaults[0]!r}, but the "
            f"pages under docs/ are written in {SOURCE_LANG!r}: make {SOURCE_LANG} "
            "the default and list the other languages after it"
        )
    langs = [edition.lang for edition in built]
    twice = sorted({lang for lang in langs if langs.count(lang) > 1})
    if twice:
        raise EditionError(f"mkdocs.yml: i18n languages listed twice: {twice}")
    for edition in built:
        catalog(edition.lang)  # raises, naming what to add
    return Editions(sorted(built, key=lambda edition: not edition.default))


def site_editions(
    config: MkDocsConfig, direction: Callable[[str], str] | None = None
) -> Editions:
    """The editions of a loaded MkDocs configuration.

    A site without the i18n plugin has one edition, in the theme's language.

    Parameters:
        config: The configuration.
        direction: The direction of a locale's script, as the theme writes it
            on ``<body dir>`` (:func:`.upstream.material_languages.direction`);
            None leaves every edition left to right.
    """
    i18n = config.plugins.get("i18n")
    if i18n is None:
        lang = str(config.theme.get("language") or REFERENCE_CATALOG)
        editions = editions_from_languages([{"locale": lang, "default": True}])
    else:
        editions = editions_from_languages(i18n.config["languages"])
    if direction is None:
        return editions
    return Editions(
        dataclasses.replace(edition, direction=direction(edition.lang))
        for edition in editions
    )


def current_edition(editions: Editions, lang: str | None) -> Edition:
    """The edition being built; mkdocs-static-i18n builds one after another.

    Parameters:
        editions: The site's editions (:func:`site_editions`).
        lang: The language being built (``upstream.i18n.building_language``),
            None before i18n has chosen one: the default edition.
    """
    return editions.get(lang) if lang else editions.default


class _TolerantLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without running its ``!!python`` and ``!ENV`` tags."""


_TolerantLoader.add_multi_constructor("", lambda *_: None)


def read_editions(mkdocs_yml: Path) -> Editions:
    """The editions configured in a ``mkdocs.yml``, read without building.

    For the command line and the tests, which have no loaded configuration.

    Raises:
        EditionError: The file cannot be read, or its editions are not valid.
    """
    try:
        config = yaml.load(mkdocs_yml.read_text(encoding="utf-8"), _TolerantLoader)
    except (OSError, yaml.YAMLError) as error:
        raise EditionError(f"{mkdocs_yml}: cannot read the editions: {error}") from None
    for plugin in (config or {}).get("plugins") or []:
        if isinstance(plugin, dict) and "i18n" in plugin:
            return editions_from_languages((plugin["i18n"] or {}).get("languages", []))
    lang = str(((config or {}).get("theme") or {}).get("language") or SOURCE_LANG)
    return editions_from_languages([{"locale": lang, "default": True}])


@functools.cache
def catalog(lang: str) -> Mapping[str, str]:
    """A language's interface words, checked against the English catalog.

    Parameters:
        lang: A locale, e.g. ``"zh"``.

    Returns:
        Key -> text, for every key of ``catalogs/en.yml``.

    Raises:
        EditionError: The catalog is missing, is not a mapping of text, lacks
            a key of the English one or has one it does not, or drops or adds
            a ``{field}``.
    """
    path = CATALOGS / f"{lang}.yml"
    if not path.exists():
        raise EditionError(
            f"the language {lang!r} has no interface words: copy "
            f"{_shown(CATALOGS / f'{REFERENCE_CATALOG}.yml')} to {_shown(path)} "
            "and translate its values (CONTRIBUTING.md, 'Add a language')"
        )
    words = _read_catalog(path)
    if lang == REFERENCE_CATALOG:
        return words
    reference = catalog(REFERENCE_CATALOG)
    problems = [f"missing key {key!r}" for key in reference if key not in words]
    problems += [f"unknown key {key!r}" for key in words if key not in reference]
    problems += [
        f"{key!r} has the fields {sorted(_fields(words[key]))}, the English "
        f"{sorted(_fields(text))}"
        for key, text in reference.items()
        if key in words and _fields(words[key]) != _fields(text)
    ]
    if problems:
        raise EditionError(f"{_shown(path)}: " + "; ".join(problems))
    return words


def _read_catalog(path: Path) -> dict[str, str]:
    try:
        words = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise EditionError(f"{_shown(path)}: not valid YAML: {error}") from None
    if not isinstance(words, dict) or not all(
        isinstance(key, str) and isinstance(text, str) for key, text in words.items()
    ):
        raise EditionError(f"{_shown(path)}: must map each key to a text")
    return words


def exercise_headings() -> set[str]:
    """The heading of an exercise section, in every language with a catalog."""
    return {catalog(path.stem)["exercises_heading"] for path in CATALOGS.glob("*.yml")}


def _fields(text: str) -> set[str]:
    return set(_FIELD.findall(text))


def _shown(path: Path) -> str:
    """A catalog's path as a contributor finds it: from the repository's root."""
    parts = path.parts
    return "/".join(parts[parts.index("src") :]) if "src" in parts else str(path)
