"""Numbers about the whole site that a page states: filled in once it is built.

The home page says how many of the site's runnable code blocks need PyTorch,
which no browser runs. Only the built pages know: a block needs it when its
code, or the library code its run reached, uses PyTorch (the execute stage
marks it ``data-run-needs="torch"``). The home page is built first, so it
carries empty elements, ``<span class="ad-count" data-count="torch">``, which
this step fills from the edition's built pages. It runs again on every build,
a partial one under ``mkdocs serve`` included, and leaves a page it already
filled as a full build would.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from attention_docs_site.editions import Editions

# One element per runnable block: its data-run-session attribute.
_BLOCK = re.compile(r'\sdata-run-session="')
_TORCH = re.compile(r'\sdata-run-needs="torch"')
_COUNT = re.compile(r'(<span class="ad-count" data-count="(\w+)">)[^<]*(</span>)')


def count_blocks(pages: list[str]) -> dict[str, int]:
    """The runnable blocks of some pages, and how many of them need PyTorch.

    Returns:
        ``{"blocks": ..., "torch": ..., "browser": ...}``: all blocks, those
        that need PyTorch, and those that run in the browser.
    """
    blocks = sum(len(_BLOCK.findall(page)) for page in pages)
    torch = sum(len(_TORCH.findall(page)) for page in pages)
    return {"blocks": blocks, "torch": torch, "browser": blocks - torch}


def fill_counts(html: str, counts: Mapping[str, int]) -> str:
    """A page with each ``ad-count`` element holding its number.

    Raises:
        ValueError: An element names a count that does not exist.
    """

    def number(match: re.Match[str]) -> str:
        if match[2] not in counts:
            raise ValueError(
                f"no count named {match[2]!r} (known: {', '.join(sorted(counts))})"
            )
        return f"{match[1]}{counts[match[2]]}{match[3]}"

    return _COUNT.sub(number, html)


# A page's counts by its path, size and modification time: under mkdocs serve
# a save rewrites a few pages, and the others are not read again (at 4 x the
# chapters, reading every page took about 0.2 s of each save).
_SEEN: dict[Path, tuple[tuple[int, int], dict[str, int]]] = {}


def _page_counts(path: Path) -> dict[str, int]:
    stat = path.stat()
    stamp = (stat.st_size, stat.st_mtime_ns)
    seen = _SEEN.get(path)
    if seen is None or seen[0] != stamp:
        seen = stamp, count_blocks([path.read_text(encoding="utf-8")])
        _SEEN[path] = seen
    return seen[1]


def _sum(counts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    total = {"blocks": 0, "torch": 0, "browser": 0}
    for page in counts:
        for key in total:
            total[key] += page[key]
    return total


def write_counts(site_dir: Path, editions: Editions) -> dict[str, dict[str, int]]:
    """Fill the counts of each edition's pages into its home page.

    Returns:
        The counts, by edition's language.
    """
    others = tuple(edition.folder for edition in editions.translated)
    found = {}
    for edition in editions:
        folder = site_dir / edition.folder
        paths = sorted(folder.rglob("*.html"))
        if edition.default:  # the site's root holds the other editions' folders
            paths = [
                p
                for p in paths
                if not p.relative_to(site_dir).as_posix().startswith(others)
            ]
        counts = _sum(_page_counts(path) for path in paths)
        home = folder / "index.html"
        text = home.read_text(encoding="utf-8")
        filled = fill_counts(text, counts)
        if filled != text:
            home.write_text(filled, encoding="utf-8")
        found[edition.lang] = counts
    return found
