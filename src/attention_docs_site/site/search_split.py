"""One search index per edition, so that each language searches its own pages.

mkdocs-static-i18n leaves one index, ``search/search_index.json``, with the
pages of both languages, and every page's search loads it. After the build,
:func:`split_search_index` moves each other language's pages into its own
index under its folder (``zh/search/search_index.json``, locations relative to
``zh/``), and ``upstream.material_page.EditionBase`` points that language's
pages there: Material loads the index, and resolves result links, from the
``base`` of the page's ``__config``. Material's instant navigation reads
``sitemap.xml`` from the same base, so the sitemap is copied into each
language's folder too.

mkdocs-static-i18n drops an edition's entries that repeat the default
edition's word for word when its ``reconfigure_search`` is on, so that one
shared index does not list a page twice. With one index per edition that
would leave holes (the API reference's docstrings, English in every edition,
and the pages an edition serves untranslated), so ``mkdocs.yml`` turns it off
and :func:`search_languages` gives the search plugin each edition's language,
which that option did too.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from attention_docs_site.editions import SOURCE_LANG
from attention_docs_site.upstream.material_search import lunr_languages

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

INDEX = Path("search") / "search_index.json"


def search_languages(config: MkDocsConfig, languages: Iterable[str]) -> list[str]:
    """Give the search plugin every edition's language that lunr has a file for.

    Parameters:
        config: The build's configuration.
        languages: The editions' languages.

    Returns:
        The search plugin's languages, as set (none without a search plugin).
    """
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if search is None:
        return []
    chosen = list(search.config.lang or [])
    # lunr itself is English: the worker loads no file for it.
    known = lunr_languages(config.theme.dirs) | {SOURCE_LANG}
    for language in languages:
        # A language the theme has no lunr file for must not be asked of the
        # browser (the worker would fail to load it and search would never
        # start, in any edition); its edition's index is configured apart
        # (edition_config).
        if language in known and language not in chosen:
            chosen.append(language)
    search.config.lang = chosen
    return chosen


def split_search_index(site_dir: Path, languages: tuple[str, ...]) -> dict[str, int]:
    """Split the built site's search index by edition.

    Parameters:
        site_dir: The built site.
        languages: The languages built into their own folders (not the default).

    Returns:
        The number of entries in each edition's index, by language code
        (``"default"`` for the pages at the site's root).
    """
    path = site_dir / INDEX
    index = json.loads(path.read_text("utf-8"))
    counts = {}
    rest = index["docs"]
    for language in languages:
        prefix = f"{language}/"
        own = [doc for doc in rest if doc["location"].startswith(prefix)]
        rest = [doc for doc in rest if not doc["location"].startswith(prefix)]
        for doc in own:
            doc["location"] = doc["location"].removeprefix(prefix)
        _write(
            site_dir / language / INDEX, edition_config(index["config"], language), own
        )
        for sitemap in site_dir.glob("sitemap.xml*"):
            shutil.copyfile(sitemap, site_dir / language / sitemap.name)
        counts[language] = len(own)
    _write(path, edition_config(index["config"], SOURCE_LANG), rest)
    counts["default"] = len(rest)
    return counts


def edition_config(config: dict, language: str) -> dict:
    """An edition's search configuration: its pages' languages, no other.

    Material's search worker loads the lunr file of every language the index
    names and joins their word filters (``lunr.multiLanguage``), which keep
    only those languages' letters. An edition's index names the language its
    pages are written in (the default edition's, for the pages it serves
    untranslated) and its own, so that no edition loads another's files.
    A language lunr has no file for (Persian, Urdu) is not among the search's
    languages (:func:`search_languages`): its edition's index names the
    pages' source language alone, whose filters the site's pipeline leaves
    out (``trimmer`` and ``stemmer`` are not in it), so its words are
    matched as written.

    Parameters:
        config: The search index's ``config``.
        language: The edition's language (the default edition's for the
            index at the site's root).

    Returns:
        The configuration for that edition's index.
    """
    known = config.get("lang", ())
    if language in known:
        own = [lang for lang in (SOURCE_LANG, language) if lang in known]
        return {**config, "lang": list(dict.fromkeys(own))}
    pipeline = [step for step in config.get("pipeline", ()) if step != "trimmer"]
    return {**config, "lang": [SOURCE_LANG], "pipeline": pipeline}


def _write(path: Path, config: dict, docs: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"config": config, "docs": docs}, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
