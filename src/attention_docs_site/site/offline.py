"""An offline copy of each edition: a zip whose pages work opened from a folder.

The published site uses directory URLs (``attention-cues/``), fetches its
search index and runs search in a web worker; none of these works from
``file://``. The zip of an edition holds, in one top folder
``attention_docs-<lang>/``, a copy of its pages, the shared assets and its
exercise notebooks, changed so that they work from a folder:

- every link to a folder names its ``index.html``, in pages and in the search
  index;
- the search index is also a script (``search_index.js``, which Material loads
  under ``file:``), and the iframe-worker shim (vendored, MIT) runs Material's
  search worker in a hidden frame, since ``file://`` pages may not start one;
- the explorable figures' ES module is loaded as a classic, deferred script,
  since ``file://`` pages may not load modules;
- instant navigation is off: it fetches the sitemap, which ``file://``
  refuses, and the failure would stop every script that waits for Material's
  ``document$`` (the explorable figures among them);
- the pages do not preload the math font, a request ``file://`` refuses,
  and carry no Content-Security-Policy (:mod:`.csp`): the shim writes
  the worker's set-up as an inline script into its frame, which inherits the
  page's policy, and a policy of hashes refuses it;
- a link into the other edition, or to the PDFs and zips (which the copy
  leaves out), goes to the published site;
- the library's wheel (``dist/``) is in every copy, so that the notebooks'
  setup cell installs it with no network.

The Chinese copy's top-level ``index.html`` opens ``zh/index.html``.

When the site carries the Run buttons' runtime (Pyodide, some 18 MB zipped),
each edition has a second, light copy without it: no runtime, no runner
scripts, and pages that do not load them, so their code blocks show their
outputs and no Run button.

The zips are reproducible (:mod:`attention_docs_site.zips`); the runtime's
part of a copy is zipped once, in the cache.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from attention_docs_site.layout import (
    DIST_FOLDER,
    OFFLINE_FOLDER,
    PDF_FOLDER,
    PYODIDE_FOLDER,
    zip_name,
)
from attention_docs_site.site.csp import POLICY_META
from attention_docs_site.upstream.material_html import offline_theme_edits
from attention_docs_site.zips import cached_zip, write_zip

SHIM = "assets/vendor/iframe-worker.js"  # its place in the copy
_SHIM_SOURCE = Path(__file__).parent / "vendor" / "iframe-worker.js"
EXPLORABLES = "assets/explorables.js"
_SKIPPED = re.compile(r"(\.map|sitemap\.xml|sitemap\.xml\.gz|search_index\.json)\Z")
_ATTRIBUTE = re.compile(r'\b(href|src)="([^"]*)"')
_NOT_A_PATH = re.compile(r"\A(?:#|[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
# A preload is a CORS request, which file:// pages may not make (the style
# sheet's own request for the font works).
_FONT_PRELOAD = re.compile(r'<link rel="preload" href="[^"]*" as="font"[^>]*>\n?')
_EXPORT = re.compile(r"^export (?=function|const|let|class)", re.MULTILINE)
# The Run button's scripts (docs/assets/run*.js) and its tag in the pages.
_RUNNER = re.compile(r"assets/run[a-z-]*\.js\Z")
_RUNNER_TAG = re.compile(rb'<script src="[^"]*assets/run\.js"[^>]*></script>\n?')


def edition_files(site_dir: Path, folder: str, others: list[str]) -> list[str]:
    """The site's files an edition's copy holds, as paths relative to the site.

    Parameters:
        site_dir: The built site.
        folder: The edition's folder, ``""`` for the default language.
        others: The other editions' folders, e.g. ``["zh/"]``.
    """
    files = []
    for path in sorted(site_dir.rglob("*")):
        name = path.relative_to(site_dir).as_posix()
        if not path.is_file() or _SKIPPED.search(name):
            continue
        if name.startswith((f"{OFFLINE_FOLDER}/", f"{PDF_FOLDER}/")):
            continue  # the downloads: the copy links them on the published site
        if folder:
            shared = ("assets/", f"{DIST_FOLDER}/", f"{PYODIDE_FOLDER}/")
            if not name.startswith((folder, *shared)):
                continue
        elif any(name.startswith(other) for other in others):
            continue
        files.append(name)
    return files


def _resolve(page: str, link: str, site_path: str) -> tuple[str, str, str] | None:
    """(path in the site the link names, its path as written, query and fragment).

    None for a link that leaves the site or stays on the page.
    """
    if not link or _NOT_A_PATH.match(link):
        return None
    split = re.search(r"[?#]", link)
    path, rest = (link[: split.start()], link[split.start() :]) if split else (link, "")
    if path.startswith("/"):
        if not path.startswith(site_path):
            return None
        target = path.removeprefix(site_path)
    else:
        target = posixpath.join(posixpath.dirname(page), path or ".")
    target = posixpath.normpath(target)
    return ("" if target == "." else target), path, rest


def offline_link(
    page: str, link: str, files: set[str], site: set[str], site_url: str
) -> str:
    """A link of a page, as it must read in the offline copy.

    Parameters:
        page: The page's path in the site, e.g. ``zh/glossary/index.html``.
        link: The ``href`` or ``src`` as built.
        files: The copy's files.
        site: Every file of the site.
        site_url: The published site's address, ending in ``/``: links into
            pages the copy does not hold go there.
    """
    resolved = _resolve(page, link, urlsplit(site_url).path)
    if resolved is None:
        return link
    target, path, rest = resolved
    index = posixpath.join(target, "index.html")
    if index in site:  # a folder: its page
        if index not in files:
            return site_url + (f"{target}/" if target else "") + rest
        if path.startswith("/"):  # the language menu's links
            path = posixpath.relpath(target or ".", posixpath.dirname(page) or ".")
        folder = path if path.endswith("/") or not path else path + "/"
        folder = "" if folder in ("./", "") else folder
        return f"{folder}index.html{rest}"
    # The downloads are never in a copy, even when this build made none.
    download = target.startswith((f"{OFFLINE_FOLDER}/", f"{PDF_FOLDER}/"))
    if download or (target in site and target not in files):
        return site_url + target + rest
    return link


def offline_page(
    html: str, page: str, files: set[str], site: set[str], site_url: str
) -> str:
    """A built page, changed to work from a folder (see the module's text)."""
    html = _ATTRIBUTE.sub(
        lambda m: f'{m[1]}="{offline_link(page, m[2], files, site, site_url)}"', html
    )
    html, policies = POLICY_META.subn("", html, count=1)
    if policies != 1:
        raise ValueError(f"offline copy: {page} has no security policy to drop")
    html = _FONT_PRELOAD.sub("", html)  # on pages with formulas
    return offline_theme_edits(html, SHIM)


def offline_search_index(index: dict) -> str:
    """The search index as the script Material loads under ``file:``."""
    for doc in index["docs"]:
        path, hash_, fragment = doc["location"].partition("#")
        if not path or path.endswith("/"):
            path += "index.html"
        doc["location"] = path + hash_ + fragment
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"var __index = {data}\n"


def classic_script(module: str) -> str:
    """An ES module without imports, as a classic script with its own scope."""
    return '(() => {\n"use strict";\n' + _EXPORT.sub("", module) + "\n})();\n"


def _redirect(folder: str) -> str:
    """A start page at the top of a non-default edition's copy."""
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={folder}index.html">'
        f'<title>attention_docs</title></head><body><a href="{folder}index.html">'
        f"{folder}index.html</a></body></html>\n"
    )


def _runtime_file(name: str) -> bool:
    return name.startswith(f"{PYODIDE_FOLDER}/") or _RUNNER.search(name) is not None


def _copy_members(
    site_dir: Path, names: list[str], site: set[str], site_url: str
) -> dict[str, bytes]:
    """The pages and files of one copy, changed to work from a folder."""
    files = {*names, SHIM}
    members: dict[str, bytes] = {SHIM: _SHIM_SOURCE.read_bytes()}
    for name in names:
        data = (site_dir / name).read_bytes()
        if name.endswith(".html"):
            page = offline_page(data.decode("utf-8"), name, files, site, site_url)
            data = page.encode("utf-8")
        elif name == EXPLORABLES:
            data = classic_script(data.decode("utf-8")).encode("utf-8")
        members[name] = data
    return members


def _light(members: dict[str, bytes]) -> dict[str, bytes]:
    """A copy's members without the runtime: no runner, pages that do not load it."""
    return {
        name: _RUNNER_TAG.sub(b"", data) if name.endswith(".html") else data
        for name, data in members.items()
        if not _runtime_file(name)
    }


def _write_copy(
    target: Path, top: str, members: dict[str, bytes], cache: Path | None
) -> None:
    """Write one copy's zip: the runtime's files first, zipped once in ``cache``.

    Without a cache they are zipped in place: the same bytes either way.
    """
    runtime = {n: data for n, data in members.items() if _runtime_file(n)}
    rest = {n: data for n, data in members.items() if n not in runtime}
    if cache is None:
        write_zip(target, top, runtime)
        start = target
    else:
        start = cached_zip(cache / "offline-runtime", top, runtime)
    write_zip(target, top, rest, start=start)


def write_offline_zips(
    site_dir: Path,
    site_url: str,
    editions: Mapping[str, str],
    cache: Path | None = None,
) -> list[Path]:
    """Write ``offline/attention_docs-<lang>.zip`` for each edition.

    When the site holds Pyodide's runtime, also ``attention_docs-<lang>-lite.zip``,
    the copy without it (see the module's text).

    Parameters:
        site_dir: The built site.
        site_url: The published site's address, ending in ``/``.
        editions: Language -> folder, ``""`` for the default language.
        cache: A folder where the runtime's part of a copy is zipped once.

    Returns:
        The zips written.
    """
    site = {
        path.relative_to(site_dir).as_posix()
        for path in site_dir.rglob("*")
        if path.is_file()
    }
    with_runtime = any(name.startswith(f"{PYODIDE_FOLDER}/") for name in site)
    written = []
    for lang, folder in editions.items():
        others = [f for f in editions.values() if f and f != folder]
        names = edition_files(site_dir, folder, others)
        index = f"{folder}search/search_index.json"
        script = offline_search_index(json.loads((site_dir / index).read_text("utf-8")))
        members = _copy_members(site_dir, names, site, site_url)
        members[index.removesuffix("json") + "js"] = script.encode("utf-8")
        if folder:
            members["index.html"] = _redirect(folder).encode("utf-8")
        copies = {True: members}
        if with_runtime:
            copies[False] = _light(members)
        for runtime, copy in copies.items():
            target = site_dir / OFFLINE_FOLDER / zip_name(lang, runtime=runtime)
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_copy(target, f"attention_docs-{lang}", copy, cache)
            written.append(target)
    return written
