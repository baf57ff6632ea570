"""Check every link of the built site: internal links and anchors must resolve.

MkDocs validates the links written in Markdown, but not those in HTML that
plugins and hooks produce (notebook pages, the language switch, the theme's
own links). This reads the built HTML, so it sees what readers get. Links to
other sites are collected and checked only for well-formedness, since the
build runs offline.

Command line::

    python -m attention_docs_site.site.links site/ [--site-url URL]
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

_LOCAL = "http://site.invalid/"
# Attributes whose value is a URL, by element.
_URL_ATTRIBUTES = {"a": "href", "link": "href", "img": "src", "script": "src"}
_SKIPPED_SCHEMES = {"javascript", "data", "blob"}


@dataclass
class _Page:
    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str]] = field(default_factory=list)  # (line, url)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = _Page()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            value = values.get(name)
            if value:
                self.page.ids.add(value)
        url = values.get(_URL_ATTRIBUTES.get(tag, ""))
        if url is not None:
            self.page.links.append((self.getpos()[0], url))


def _parse(path: Path) -> _Page:
    return _parse_html(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=256)
def _parse_html(html: str) -> _Page:
    """A page's ids and links, remembered (nothing changes a ``_Page``).

    Under ``mkdocs serve`` a rebuild leaves most pages as they were.
    """
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.page


@dataclass(frozen=True)
class Report:
    """What a link check found.

    Attributes:
        broken: ``"page:line: url: reason"`` for every internal link or
            anchor that does not resolve, or external link that is malformed.
        external: Every distinct link to another site, sorted.
        checked: How many internal links were checked.
    """

    broken: list[str]
    external: list[str]
    checked: int


def _target(site: Path, path: str) -> Path | None:
    """The file an internal URL path is served from, or None."""
    relative = unquote(path).lstrip("/")
    candidate = site / relative
    if path.endswith("/") or not relative:
        candidate = candidate / "index.html"
    if candidate.is_file():
        return candidate
    return None


def _well_formed(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return bool(parts.netloc) and " " not in url
    return parts.scheme == "mailto" and "@" in parts.path


def check_site(
    site: Path, site_url: str | None = None, unbuilt: tuple[str, ...] = ()
) -> Report:
    """Check the links of every HTML page of a built site.

    Parameters:
        site: The built site's folder.
        site_url: The address the site is published at (``site_url`` in
            ``mkdocs.yml``); absolute links under it count as internal.
        unbuilt: Folders of the site, such as ``"pdf/"``, that this build left
            out on purpose: a link into one is not reported.

    Returns:
        The broken links, the external links and how many were checked.
    """
    site = Path(site)
    pages = {path: _parse(path) for path in sorted(site.rglob("*.html"))}
    base = site_url.rstrip("/") + "/" if site_url else None
    # The site's own path on its server, such as /attention_docs/ on GitHub Pages.
    prefix = urlsplit(base).path if base else "/"
    broken: list[str] = []
    external: set[str] = set()
    checked = 0
    targets: dict[str, Path | None] = {}  # a path's file, looked up once per check
    for path, page in pages.items():
        location = path.relative_to(site).as_posix()
        here = urljoin(_LOCAL, prefix + location)
        for line, url in page.links:
            link = _resolve(url, here, base, prefix)
            problem = link.problem
            if link.kind == "external":
                external.add(url)
            elif link.kind == "internal" and problem is None:
                problem = _problem(site, pages, targets, link.inside, link.fragment)
            checked += link.kind == "internal"
            if problem and not link.target.startswith(unbuilt):
                broken.append(f"{location}:{line}: {url}: {problem}")
    return Report(broken=broken, external=sorted(external), checked=checked)


@dataclass(frozen=True)
class _Link:
    kind: str  # "skipped", "external" or "internal"
    problem: str | None  # what is wrong with it, as written
    inside: str  # an internal link's path in the site
    fragment: str
    target: str  # the path it points to, for the folders left unbuilt


@functools.lru_cache(maxsize=65536)
def _resolve(url: str, here: str, base: str | None, prefix: str) -> _Link:
    """Where a link points, from page address ``here``: what is not the site's to check.

    Remembered: a page links what the pages beside it link, and under ``mkdocs
    serve`` a rebuild checks the same links again.
    """
    target = urlsplit(urljoin(here, url)).path.removeprefix(prefix)
    relative = url
    if base is not None and url.startswith(base):  # a link to this site
        relative = prefix + url[len(base) :]
    absolute = urljoin(here, relative)
    resolved = urlsplit(absolute)
    if resolved.scheme in _SKIPPED_SCHEMES:
        return _Link("skipped", None, "", "", target)
    if f"{resolved.scheme}://{resolved.netloc}/" != _LOCAL:
        problem = None if _well_formed(url) else "malformed external link"
        return _Link("external", problem, "", "", target)
    if not resolved.path.startswith(prefix):
        problem = f"{resolved.path} is outside the site's path {prefix}"
        return _Link("internal", problem, "", "", target)
    inside = "/" + resolved.path[len(prefix) :]
    return _Link("internal", None, inside, resolved.fragment, target)


def _problem(
    site: Path,
    pages: dict[Path, _Page],
    targets: dict[str, Path | None],
    path: str,
    fragment: str,
) -> str | None:
    if path not in targets:
        targets[path] = _target(site, path)
    target = targets[path]
    if target is None:
        return f"no file for {path}"
    if fragment and target.suffix == ".html":
        if unquote(fragment) not in pages[target].ids:
            return f"no anchor #{unquote(fragment)} in {target.relative_to(site)}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Check a built site's links from the command line.

    Returns:
        0 when every internal link resolves, 1 otherwise.
    """
    parser = argparse.ArgumentParser(description="Check a built site's links.")
    parser.add_argument("site", type=Path, help="the built site's folder")
    parser.add_argument("--site-url", help="the address the site is published at")
    args = parser.parse_args(argv)
    report = check_site(args.site, args.site_url)
    print(f"{report.checked} internal links checked")
    print(f"{len(report.external)} external links (checked for form only):")
    for url in report.external:
        print(f"  {url}")
    for line in report.broken:
        print(f"broken: {line}", file=sys.stderr)
    return 1 if report.broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
