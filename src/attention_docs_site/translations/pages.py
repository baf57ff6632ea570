"""Reading pages: front matter, sections, hashes, provenance and paths."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from attention_docs_site.blocks import replace_blocks

HASH_LENGTH = 16
SECTION_HASH_LENGTH = 8
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.DOTALL)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
DISPLAY_MATH = re.compile(r"^[ \t]*\$\$(.*?)\$\$", re.M | re.S)
LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")
ADMONITION = re.compile(r"^ *(?:!!!|\?\?\?\+?)[ \t]+(\w+)", re.M)
FOOTNOTE = re.compile(r"^\[\^([^\]]+)\]:", re.M)
NUMBERED = re.compile(r"^\d+\.[ \t]", re.M)
_NOTEBOOK_KEY = "attention_docs_translation"


class TranslationError(ValueError):
    """A translated page that cannot be checked; the message names the file."""


# --- reading pages --------------------------------------------------------------


def split_front_matter(text: str, path: Path) -> tuple[dict, str, int]:
    """Split a page into its front matter (a dict) and its body.

    Parameters:
        text: The whole file.
        path: The file, named in errors.

    Returns:
        ``(front_matter, body, body_line)``: the mapping (empty without front
        matter), the rest of the file, and the line number the body starts on.
    """
    match = _FRONT_MATTER.match(text)
    if not match:
        if text.startswith("---"):
            raise TranslationError(f"{path}: front matter is not closed by '---'")
        return {}, text, 1
    try:
        data = yaml.safe_load(match[1])
    except yaml.YAMLError as error:
        message = f"{path}: front matter is not valid YAML: {error}"
        raise TranslationError(message) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise TranslationError(f"{path}: front matter must be a mapping")
    return data, text[match.end() :], match[0].count("\n") + 1


def normalise(text: str) -> str:
    """The text with every run of white space made one space."""
    return " ".join(text.split())


def _digest(text: str, length: int) -> str:
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:length]


def blank_fences(body: str) -> str:
    """The body with fenced code blanked out, keeping every offset and line."""
    return replace_blocks(body, lambda block, _: (re.sub(r"[^\n]", " ", block.text), 0))


INTRO = "(intro)"


def sections(body: str) -> dict[str, str]:
    """The page split at its headings: heading text to section text.

    Parameters:
        body: Page Markdown without front matter.

    Returns:
        Section text by heading, in page order; text before the first heading,
        if any, is under :data:`INTRO`; repeated headings are numbered.
    """
    prose = blank_fences(body)
    starts = [(m.start(), m[2].strip()) for m in HEADING.finditer(prose)]
    heads = [(0, INTRO), *starts]
    ends = [start for start, _ in starts] + [len(body)]
    parts: dict[str, str] = {}
    for (start, name), end in zip(heads, ends, strict=True):
        if name == INTRO and not body[start:end].strip():
            continue
        key, counter = name, 1
        while key in parts:
            counter += 1
            key = f"{name} ({counter})"
        parts[key] = body[start:end]
    return parts


def source_hash(text: str) -> str:
    """Content hash of an English page, blind to front matter and white space.

    Parameters:
        text: The English file's text.

    Returns:
        A hex digest of :data:`HASH_LENGTH` characters.
    """
    _, body, _ = split_front_matter(text, Path("<english>"))
    return _digest(body, HASH_LENGTH)


def section_hashes(text: str) -> dict[str, str]:
    """Short content hashes of each section of an English page."""
    _, body, _ = split_front_matter(text, Path("<english>"))
    return {
        name: _digest(part, SECTION_HASH_LENGTH)
        for name, part in sections(body).items()
    }


def provenance(english_text: str, source: str) -> dict:
    """The provenance record for a translation of the given English text."""
    return {
        "source": source,
        "source_hash": source_hash(english_text),
        "sections": section_hashes(english_text),
    }


def is_notebook_front(front: Mapping[str, Any]) -> bool:
    """Whether a page's front matter is a jupytext notebook header."""
    return isinstance(front.get("jupyter"), dict)


def read_provenance(path: Path) -> dict:
    """The provenance record of a translated page, checked for completeness.

    Parameters:
        path: The translated page.

    Returns:
        The record, with ``source``, ``source_hash`` and ``sections``.
    """
    front, _, _ = split_front_matter(path.read_text(encoding="utf-8"), path)
    return provenance_record(front, path)


def provenance_record(front: Mapping[str, Any], path: Path) -> dict:
    """The provenance record in a translated page's parsed front matter.

    Parameters:
        front: The page's front matter (for example MkDocs' ``page.meta``).
        path: The translated page, named in errors.

    Returns:
        The record, with ``source``, ``source_hash`` and ``sections``.
    """
    record = (
        front["jupyter"].get(_NOTEBOOK_KEY)
        if is_notebook_front(front)
        else front.get("translation")
    )
    if record is None:
        raise TranslationError(
            f"{path}: no translation record in the front matter; run "
            f"`python -m attention_docs_site.translations mark {path}`"
        )
    if not isinstance(record, dict) or not isinstance(record.get("source_hash"), str):
        raise TranslationError(f"{path}: the translation record needs a source_hash")
    if not isinstance(record.get("sections", {}), dict):
        raise TranslationError(f"{path}: translation sections must be a mapping")
    return record


def front_matter_with(front: dict, record: dict) -> str:
    """The front matter block of a page, with its provenance record set."""
    if is_notebook_front(front):
        front["jupyter"][_NOTEBOOK_KEY] = record
    else:
        front["translation"] = record
    header = yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=88)
    return f"---\n{header}---\n"


def write_provenance(path: Path, record: dict) -> None:
    """Store a provenance record in a translated page's front matter."""
    text = path.read_text(encoding="utf-8")
    front, body, _ = split_front_matter(text, path)
    header = front_matter_with(front, record)
    path.write_text(header + body.lstrip("\n"), encoding="utf-8")


# --- locating pages --------------------------------------------------------------


# A translation's name: page.<locale>.md, the locale as mkdocs.yml lists it.
_TRANSLATION = re.compile(r"\.([a-z]{2,3}(?:[-_][A-Za-z]{2,4})?)\.md$")


def translation_path(english: Path, lang: str) -> Path:
    """``docs/page.md`` -> ``docs/page.<lang>.md``."""
    return english.with_name(f"{english.name[: -len('.md')]}.{lang}.md")


def english_path(translation: Path) -> Path:
    """``docs/page.<lang>.md`` -> ``docs/page.md``."""
    stem = translation.name[: -len(".md")].rsplit(".", 1)[0]
    return translation.with_name(f"{stem}.md")


def translation_lang(path: Path) -> str | None:
    """The language of a translation (``page.<lang>.md``); None for an English page."""
    found = _TRANSLATION.search(path.name)
    return found[1] if found else None


def is_translation(path: Path) -> bool:
    """Whether a page is a translation (``page.<lang>.md``), not an English page."""
    return translation_lang(path) is not None


def english_pages(docs: Path) -> list[Path]:
    """Every English page under a docs folder, sorted.

    ``docs/assets`` holds static files and notes about them, never pages.
    """
    return sorted(
        p
        for p in docs.rglob("*.md")
        if not is_translation(p) and p.relative_to(docs).parts[0] != "assets"
    )
