"""What a page says about itself: its language, translation notice and description."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from .html_polish import strip_tags
from .translations import english_path, provenance_record, source_hash

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

_TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    keep_trailing_newline=False,
)


def translation_notice(page: Page, lang: str) -> str:
    """The notice a page of a translated edition shows above its content, if any.

    A translated page whose English source changed after it was translated
    says so and links to the English page; a page served in English because
    it has no translation says that, and how to help. The notices' text is
    in ``templates/translation_notice.html``.

    Parameters:
        page: The page being built.
        lang: The language being built.

    Returns:
        The notice's HTML, or ``""``.
    """
    if lang == "en":
        return ""
    source = Path(page.file.abs_src_path)
    notice = _TEMPLATES.get_template("translation_notice.html")
    if not source.name.endswith(f".{lang}.md"):
        return notice.render(kind="untranslated", source=page.file.src_uri)
    record = provenance_record(page.meta, source)  # MkDocs parsed it
    english = english_path(source)
    current = source_hash(english.read_text(encoding="utf-8"))
    if record["source_hash"] == current:
        return ""
    english_url = page.url.removeprefix(f"{lang}/")
    up = "../" * page.url.count("/")
    return notice.render(kind="outdated", english=up + english_url or "./")


def build_language(config: MkDocsConfig) -> str:
    """The language being built; mkdocs-static-i18n sets it per language."""
    return "zh" if str(config.theme["language"]).startswith("zh") else "en"


_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)


_FOOTNOTE_REF = re.compile(r"<sup\b.*?</sup>", re.DOTALL)


def describe_page(page: Page, content: str, limit: int = 200) -> None:
    """Give a page without a ``description`` in its front matter its first paragraph.

    The description feeds ``<meta name="description">`` and the Open Graph and
    Twitter tags (overrides/main.html), so links shared from any page show
    that page's own summary, in its language.

    Parameters:
        page: The page; ``page.meta["description"]`` is set if missing.
        content: The page's HTML.
        limit: Longest description, in characters; longer text is cut at a
            word (or, in Chinese, anywhere) and ends with an ellipsis.
    """
    if page.meta.get("description"):
        return
    for match in _PARAGRAPH.finditer(content):
        plain = strip_tags(_FOOTNOTE_REF.sub("", match[1]))
        text = " ".join(html.unescape(plain).split())
        if text:
            break
    else:
        return
    if len(text) > limit:
        cut = text[:limit]
        text = (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut) + "…"
    page.meta["description"] = text
