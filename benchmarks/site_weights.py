"""What the built site weighs: pages, explorable figures, search and downloads.

Used by benchmarks/build.py, on the site it builds or (``--weights``) on one
already built: each page's HTML and largest figure, the explorables' script
and data, each edition's search index, and the PDFs and offline zips.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from targets import met


def page_weights(site: Path) -> list[tuple[str, int, int]]:
    rows = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text("utf-8")
        figures = re.findall(r"<svg[^>]*class=\"ad-figure\".*?</svg>", html, re.S)
        largest = max((len(f.encode()) for f in figures), default=0)
        rows.append(
            (
                page.parent.relative_to(site).as_posix() or ".",
                len(html.encode()),
                largest,
            )
        )
    return rows


# The explorable figures' script, and the data each explorable page carries.
EXPLORABLE_SCRIPTS = ("assets/explorables.js",)
_EXPLORABLE = re.compile(
    r"<figure class=\"ad-explorable\" data-explorable=\"([a-z-]+)\" "
    r"data-explorable-data='([^']*)'>(.*?)</figure>",
    re.S,
)


def script_sizes(site: Path) -> list[tuple[str, int, int]]:
    """Each explorable script's bytes, raw and after gzip -9."""
    return [
        (name, len(raw), len(gzip.compress(raw, 9, mtime=0)))
        for name in EXPLORABLE_SCRIPTS
        for raw in [(site / name).read_bytes()]
    ]


def explorable_sizes(site: Path) -> list[tuple[str, str, int, int]]:
    """For each explorable figure: its page, kind, data bytes, static drawing bytes."""
    rows = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text("utf-8")
        for kind, data, static in _EXPLORABLE.findall(html):
            name = page.parent.relative_to(site).as_posix()
            rows.append((name, kind, len(data.encode()), len(static.encode())))
    return rows


def report_explorables(
    scripts: list[tuple[str, int, int]], figures: list[tuple[str, str, int, int]]
) -> None:
    """Print the explorables' script sizes and data, and the script target."""
    print("\nExplorable figures: script (bytes)\n")
    print(f"{'file':<28} {'raw':>7} {'gzip -9':>8}")
    for name, raw, packed in scripts:
        print(f"{name:<28} {raw:7d} {packed:8d}")
    total = sum(packed for _, _, packed in scripts)
    within = met(total <= 15_360)
    print(f"target: all explorable scripts <= 15 KB gzip = 15360: {total} ({within})")
    print("\nExplorable figures: what each page carries (bytes)\n")
    print(f"{'page':<36} {'figure':<18} {'data':>7} {'static SVG':>11}")
    for name, kind, data, static in figures:
        print(f"{name:<36} {kind:<18} {data:7d} {static:11d}")


def search_sizes(site: Path) -> dict[str, tuple[int, int]]:
    """Each edition's search index: (entries, bytes)."""
    sizes = {}
    for lang, index in (("en", site / "search"), ("zh", site / "zh" / "search")):
        raw = (index / "search_index.json").read_bytes()
        sizes[lang] = (len(json.loads(raw)["docs"]), len(raw))
    return sizes


def report_search(sizes: dict[str, tuple[int, int]]) -> None:
    """Print each edition's search index size."""
    print("\nSearch: one index per edition\n")
    for lang, (entries, size) in sizes.items():
        print(f"{lang}: {entries} entries, {size} bytes")


def download_sizes(site: Path) -> list[tuple[str, int, int | None]]:
    """Each edition's PDF and offline zip: (file, bytes, PDF pages or None)."""
    from pypdf import PdfReader

    sizes = []
    for path in sorted([*site.glob("pdf/*.pdf"), *site.glob("offline/*.zip")]):
        pages = len(PdfReader(path).pages) if path.suffix == ".pdf" else None
        sizes.append((path.relative_to(site).as_posix(), path.stat().st_size, pages))
    return sizes


def report_downloads(sizes: list[tuple[str, int, int | None]]) -> None:
    """Print the PDFs' and offline copies' sizes."""
    print("\nDownloads: a PDF and an offline copy of each edition\n")
    for name, size, pages in sizes:
        print(f"{name:<36} {size:9d} bytes" + (f", {pages} pages" if pages else ""))


def heatmap_sizes() -> dict[str, int]:
    from attention_docs import figures

    return {lang: len(figures.identity_heatmap(lang).encode()) for lang in ("en", "zh")}


def report_weights(weights: list[tuple[str, int, int]]) -> None:
    """Print each page's weight and the page and heatmap targets."""
    print("\nPage weight (HTML bytes incl. inline SVG, excl. theme assets)\n")
    print(f"{'page':<36} {'bytes':>8} {'largest figure':>15}")
    for page, size, largest in weights:
        print(f"{page:<36} {size:8d} {largest:15d}")
    # The targets are for chapter and exercise pages; the API reference is a
    # long generated listing, reported but not held to them.
    targeted = [row for row in weights if not row[0].endswith("api")]
    heaviest = max(targeted, key=lambda row: row[1])
    biggest = max(weights, key=lambda row: row[2])
    print(
        f"heaviest chapter or exercise page: {heaviest[0]} ({heaviest[1]} bytes, "
        f"target <= 150 KB = 153600: {met(heaviest[1] <= 153_600)})"
    )
    print(f"largest figure: {biggest[2]} bytes, on {biggest[0]}")
    for lang, size in heatmap_sizes().items():
        print(
            f"10x10 heatmap ({lang}): {size} bytes (target <= 6 KB = 6144: "
            f"{met(size <= 6144)})"
        )
