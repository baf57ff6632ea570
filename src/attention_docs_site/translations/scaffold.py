"""Scaffolding a new translation, and marking one as done."""

from __future__ import annotations

import re
from pathlib import Path

from attention_docs_site.blocks import blocks
from attention_docs_site.editions import SOURCE_LANG
from attention_docs_site.translations.pages import (
    TranslationError,
    english_path,
    front_matter_with,
    is_translation,
    provenance,
    split_front_matter,
    translation_path,
    write_provenance,
)

# --- scaffolding and marking -----------------------------------------------------

TODO = "<!-- TODO(translate) -->"


def todo_lines(path: Path) -> list[int]:
    """Lines of a translation that still carry a TODO(translate) marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [number for number, line in enumerate(lines, 1) if TODO in line]


def scaffold(english: Path, lang: str) -> Path:
    """Write a new translation skeleton for an English page.

    The front matter records the English version; executable code blocks are
    copied verbatim with the language argument changed; every paragraph of
    prose is kept in English behind a ``TODO(translate)`` marker.

    Parameters:
        english: The English page.
        lang: The translation language.

    Returns:
        The new translation's path.
    """
    if not english.exists():
        raise TranslationError(f"{english}: no such English page")
    if is_translation(english):
        raise TranslationError(f"{english}: is itself a translation")
    target = translation_path(english, lang)
    if target.exists():
        raise TranslationError(f"{target}: already exists; use `mark` after editing it")
    text = english.read_text(encoding="utf-8")
    front, body, _ = split_front_matter(text, english)
    parts, position = [], 0
    for block in blocks(body):
        parts.append(_mark_prose(body[position : block.start]))
        parts.append(_from_english(block.text, lang))
        position = block.end
    parts.append(_mark_prose(body[position:]))
    header = front_matter_with(front, provenance(text, english.name))
    target.write_text(header + "".join(parts), encoding="utf-8")
    return target


def _from_english(text: str, lang: str) -> str:
    source = re.escape(SOURCE_LANG)
    text = re.sub(rf"""(lang\s*=\s*)(["']){source}\2""", rf'\1"{lang}"', text)
    return re.sub(rf'session="([^"]+)-{source}"', rf'session="\1-{lang}"', text)


def _mark_prose(text: str) -> str:
    """Put a TODO marker before every paragraph of prose (not before blank lines)."""
    out, previous_blank = [], True
    for line in text.splitlines(True):
        blank = not line.strip()
        if (
            previous_blank
            and not blank
            # Display math, footnotes, comments and mkdocstrings directives
            # (which render the same docstrings in both languages).
            and not line.lstrip().startswith(("$$", "[^", "<!--", ":::"))
        ):
            out.append(f"{TODO}\n")
        out.append(line)
        previous_blank = blank
    return "".join(out)


def mark(translation: Path) -> dict:
    """Record that a translation now matches the current English page.

    Parameters:
        translation: The translated page.

    Returns:
        The provenance record written.
    """
    if not translation.exists():
        raise TranslationError(f"{translation}: no such file")
    if not is_translation(translation):
        raise TranslationError(
            f"{translation}: not a translation (expected page.<lang>.md)"
        )
    english = english_path(translation)
    if not english.exists():
        raise TranslationError(
            f"{translation}: orphan translation, {english} does not exist"
        )
    split_front_matter(translation.read_text(encoding="utf-8"), translation)
    todo = todo_lines(translation)
    if todo:
        raise TranslationError(
            f"{translation}:{todo[0]}: {len(todo)} paragraphs still marked {TODO}; "
            "translate them before marking the page"
        )
    record = provenance(english.read_text(encoding="utf-8"), english.name)
    write_provenance(translation, record)
    return record
