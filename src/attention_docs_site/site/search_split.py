"""One search index per edition, so that each language searches its own pages.

mkdocs-static-i18n leaves one index, ``search/search_index.json``, with the
pages of both languages, and every page's search loads it. After the build,
:func:`split_search_index` moves each other language's pages into its own
index under its folder (``zh/search/search_index.json``, locations relative to
``zh/``), and :func:`edition_base` points that language's pages there: Material
loads the index, and resolves result links, from the ``base`` of the page's
``__config``. Material's instant navigation reads ``sitemap.xml`` from the same
base, so the sitemap is copied into each language's folder too.

mkdocs-static-i18n drops an edition's entries that repeat the default
edition's word for word, so that one shared index does not list a page twice.
With one index per edition that would leave holes: the API reference's
docstrings (English in every edition) and the pages an edition serves
untranslated could not be found in it. :func:`keep_every_edition_s_entries`
turns that off.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path

from attention_docs_site.page.polish import edit

INDEX = Path("search") / "search_index.json"


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
        _write(site_dir / language / INDEX, index["config"], own)
        for sitemap in site_dir.glob("sitemap.xml*"):
            shutil.copyfile(sitemap, site_dir / language / sitemap.name)
        counts[language] = len(own)
    _write(path, index["config"], rest)
    counts["default"] = len(rest)
    return counts


@functools.cache
def keep_every_edition_s_entries() -> None:
    """Keep the entries mkdocs-static-i18n would drop as duplicates (once).

    Raises:
        RenderCacheUnsupported: mkdocs-static-i18n has changed shape.
    """
    from mkdocs_static_i18n.reconfigure import ExtendedPlugin

    from attention_docs_site.execute.render_cache import checked

    drop = checked(
        ExtendedPlugin,
        "reconfigure_search_duplicates",
        ["self", "search_index_entries"],
    )

    @functools.wraps(drop)
    def keep(self: ExtendedPlugin, search_index_entries: list[dict]) -> None:
        """Each edition has its own index: an entry repeated in two is no duplicate."""

    ExtendedPlugin.reconfigure_search_duplicates = keep


def _write(path: Path, config: dict, docs: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"config": config, "docs": docs}, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")


_CONFIG_BASE = re.compile(
    r'(<script id="__config" type="application/json">\{[^<]*?"base": ")([^"]*)(")'
)


def edition_base(output: str, language: str) -> str:
    """Point a page's ``__config`` base at its edition's folder.

    Parameters:
        output: A built page of a language built into its own folder.
        language: That language's folder, e.g. ``"zh"``.

    Returns:
        The page with ``"base": "<base>/zh/"`` (the slash makes Material read
        it as a folder).

    Raises:
        ThemeMarkupChanged: The page has no ``__config`` with a base.
    """
    return edit(
        _CONFIG_BASE,
        lambda m: f"{m.group(1)}{m.group(2).rstrip('/')}/{language}/{m.group(3)}",
        output,
        "pointing the page at its edition's search index",
        count=1,
    )
