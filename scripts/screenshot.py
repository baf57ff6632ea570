"""Take the README's screenshot from the built site, in Debian's Chromium.

Usage (after `mkdocs build`, which writes site/):

    .venv/bin/python scripts/screenshot.py [--site site] [--out .github/screenshot.png]

The site is served on 127.0.0.1 under the path of its site_url, as it is
published, and the first screenful of the home page is saved in the light
scheme.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from urllib.parse import urlsplit

from attention_docs_site.site.book.chromium import chromium
from attention_docs_site.site.book.static_server import serve_site

ROOT = Path(__file__).resolve().parents[1]


def published_path() -> str:
    """The path the site is published under (site_url in mkdocs.yml)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return urlsplit(re.search(r"^site_url:\s*(\S+)", config, re.M)[1]).path


def screenshot(site: Path, out: Path, *, lang: str = "en") -> Path:
    """Save the first screenful of a language's home page as a PNG.

    Parameters:
        site: The built site's folder.
        out: The PNG to write.
        lang: ``en`` or ``zh``.

    Returns:
        ``out``.
    """
    home = site / ("zh/index.html" if lang == "zh" else "index.html")
    if not home.is_file():
        raise SystemExit(f"{home} does not exist: build the site first (mkdocs build)")
    with serve_site(site, published_path()) as url, chromium() as browser:
        page = browser.new_page(
            viewport={"width": 1280, "height": 800}, color_scheme="light"
        )
        page.goto(url + ("zh/" if lang == "zh" else ""))
        page.wait_for_load_state("networkidle")
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=out, animations="disabled")
    return out


def main() -> None:
    """Parse the command line and take the screenshot."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site")
    parser.add_argument(
        "--out", type=Path, default=ROOT / ".github" / "screenshot.png", help="PNG"
    )
    parser.add_argument("--lang", choices=["en", "zh"], default="en")
    args = parser.parse_args()
    print(screenshot(args.site, args.out, lang=args.lang))


if __name__ == "__main__":
    main()
