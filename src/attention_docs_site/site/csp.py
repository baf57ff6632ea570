"""A Content-Security-Policy on every page: the site runs no script but its own.

Once every page is written, each gets the same policy as a ``<meta>`` at the
top of its head:

- scripts from the site itself, and the inline scripts the theme and
  mkdocs-jupyter write, each by the SHA-256 hash of its text; no
  ``'unsafe-inline'`` and no ``'unsafe-eval'`` for scripts;
- styles from the site and inline (the figures carry ``style`` attributes),
  images from the site and ``data:`` (the theme's icons), fonts, workers
  (search) and fetches from the site; no plugins (``object-src``), no other
  ``<base>``, no forms sent elsewhere.

Material's instant navigation keeps the first page's policy for the whole
visit (a policy in a ``<meta>`` cannot be taken back), so the policy is one
for the whole site, with the hashes of the inline scripts of every page.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from attention_docs_site.upstream.material_html import after_charset

# Inline scripts the browser runs: no src, and JavaScript (data blocks such as
# type="application/json" are not run, so need no hash).
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
_TYPE = re.compile(r'\btype="([^"]*)"', re.IGNORECASE)
_RUN_TYPES = {"", "text/javascript", "application/javascript", "module"}
_HANDLER = re.compile(r"""<[^>]*\son[a-z]+\s*=\s*["']""", re.IGNORECASE)


def inline_scripts(html: str) -> list[str]:
    """The text of every inline script of a page that the browser would run."""
    scripts = []
    for attributes, text in _SCRIPT.findall(html):
        kind = _TYPE.search(attributes)
        runs = (kind[1].strip().lower() if kind else "") in _RUN_TYPES
        if runs and not re.search(r"\bsrc\s*=", attributes, re.IGNORECASE):
            scripts.append(text)
    return scripts


def script_hash(text: str) -> str:
    """A CSP source for one inline script: ``'sha256-…'``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(hashes: list[str]) -> str:
    """The site's policy, allowing the inline scripts of ``hashes``."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' " + " ".join(sorted(set(hashes))),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ]
    )


# The policy's element, as meta() writes it.
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')


def meta(text: str) -> str:
    """The policy as a page's ``<meta>``."""
    return f'<meta http-equiv="Content-Security-Policy" content="{text}">'


def add_policy(site: Path) -> tuple[int, int]:
    """Put the site's policy at the top of every page's head.

    Returns:
        How many pages, and how many distinct inline scripts it allows.

    Raises:
        ValueError: A page has an inline event handler (``onclick=…``), which
            the policy would block; naming the page.
        UpstreamChanged: A page has no ``<meta charset>`` to put it after.
    """
    pages = sorted(site.rglob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    hashes: set[str] = set()
    for page, html in texts.items():
        if handler := _HANDLER.search(html):
            name = page.relative_to(site).as_posix()
            raise ValueError(f"{name}: an inline event handler, {handler[0]!r}")
        hashes.update(script_hash(script) for script in inline_scripts(html))
    element = meta(policy(sorted(hashes)))
    for page, html in texts.items():
        html = after_charset(html, element)
        page.write_text(html, encoding="utf-8")
    return len(pages), len(hashes)
