"""What a page says about itself: its language, translation notice and description."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .html_polish import strip_tags
from .translations import english_path, read_provenance, source_hash

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

_OUTDATED = (
    '<div class="admonition warning ad-outdated">'
    '<p class="admonition-title">译文可能已过时</p>'
    "<p>英文原文在本页翻译完成之后有过修改，本页可能尚未反映这些修改。"
    '请以<a href="{english}" hreflang="en">英文原文</a>为准。</p></div>'
)


_UNTRANSLATED = (
    '<div class="admonition info ad-untranslated">'
    '<p class="admonition-title">本页尚未翻译</p>'
    "<p>下面是英文原文。欢迎帮助翻译：运行 "
    "<code>python -m attention_docs_site.translations new docs/{source} "
    "--lang zh</code>，"
    "然后按照仓库中 CONTRIBUTING.zh.md 的步骤完成翻译。</p></div>"
)


def translation_notice(page: Page, lang: str) -> str:
    """The notice a page of a translated edition shows above its content, if any.

    A translated page whose English source changed after it was translated
    says so and links to the English page; a page served in English because
    it has no translation says that, and how to help.

    Parameters:
        page: The page being built.
        lang: The language being built.

    Returns:
        The notice's HTML, or ``""``.
    """
    if lang == "en":
        return ""
    source = Path(page.file.abs_src_path)
    if not source.name.endswith(f".{lang}.md"):
        return _UNTRANSLATED.format(source=html.escape(page.file.src_uri))
    record = read_provenance(source)
    english = english_path(source)
    current = source_hash(english.read_text(encoding="utf-8"))
    if record["source_hash"] == current:
        return ""
    english_url = page.url.removeprefix(f"{lang}/")
    up = "../" * page.url.count("/")
    return _OUTDATED.format(english=html.escape(up + english_url or "./"))


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
