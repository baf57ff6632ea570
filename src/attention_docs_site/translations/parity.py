"""Parity: a translation keeps its English page's code, figures, math and structure."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from attention_docs_site.blocks import blocks as code_blocks
from attention_docs_site.editions import SOURCE_LANG, exercise_headings
from attention_docs_site.translations.pages import (
    ADMONITION,
    DISPLAY_MATH,
    FOOTNOTE,
    HEADING,
    IMAGE,
    LINK,
    NUMBERED,
    blank_fences,
    is_notebook_front,
    normalise,
    split_front_matter,
)

# --- parity --------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """One way a translation differs from its English page where it must not.

    Attributes:
        path: The translation.
        line: The line of the translation where the difference is.
        message: What differs.
        kind: ``"code"`` (what runs at build time) or ``"structure"``.
    """

    path: Path
    line: int
    message: str
    kind: str = "structure"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class _Block:
    line: int
    options: str
    code: str


def _code_blocks(body: str, first_line: int, notebook: bool) -> list[_Block]:
    blocks = []
    for block in code_blocks(body):
        options = f"{block.language} {block.options}".strip()
        if block.executed or (notebook and options == "python"):
            line = _line_of(body, first_line, block.start)
            blocks.append(_Block(line, options, block.code))
    return blocks


def _to_english(text: str, lang: str) -> str:
    """Undo the only change a translation may make to code: the language."""
    text = re.sub(rf"""(lang\s*=\s*)(["']){lang}\2""", rf'\1"{SOURCE_LANG}"', text)
    return re.sub(rf'session="([^"]+)-{lang}"', rf'session="\1-{SOURCE_LANG}"', text)


def _line_of(body: str, first_line: int, offset: int) -> int:
    return first_line + body.count("\n", 0, offset)


# Items compared between a page and its translation: (value, offset in body).
_Items = list[tuple[object, int]]
_UNORDERED = {"links", "footnotes"}  # word order may move these within a page


def _structure(body: str) -> dict[str, _Items]:
    prose = blank_fences(body)
    headings = list(HEADING.finditer(prose))
    exercises: _Items = []
    for here, after in zip(headings, [*headings[1:], None], strict=True):
        if here[2].strip() in exercise_headings():
            end = after.start() if after else len(prose)
            found = NUMBERED.finditer(prose, here.end(), end)
            exercises = [(i + 1, m.start()) for i, m in enumerate(found)]
    items: dict[str, _Items] = {
        "sections": [(len(m[1]), m.start()) for m in headings],
        "exercises": exercises,
        "admonitions": [(m[1], m.start()) for m in ADMONITION.finditer(prose)],
        "display math": [
            (normalise(m[1]), m.start()) for m in DISPLAY_MATH.finditer(prose)
        ],
        "figures": [(m[1], m.start()) for m in IMAGE.finditer(prose)],
        "links": [(m[1], m.start()) for m in LINK.finditer(prose)],
        "footnotes": [(m[1], m.start()) for m in FOOTNOTE.finditer(prose)],
    }
    for key in _UNORDERED:
        items[key].sort(key=lambda item: str(item[0]))
    return items


def _structure_violation(
    key: str, english: _Items, translation: _Items, body: str, first_line: int
) -> tuple[int, str] | None:
    """The line and message where items of one kind differ, or None if they agree."""
    en_values = [value for value, _ in english]
    tr_values = [value for value, _ in translation]
    if en_values == tr_values:
        return None
    index = next(
        (
            i
            for i, (a, b) in enumerate(zip(en_values, tr_values, strict=False))
            if a != b
        ),
        min(len(en_values), len(tr_values)),
    )
    at = translation[min(index, len(translation) - 1)][1] if translation else 0
    message = (
        f"{key} differ: English has {len(en_values)} "
        f"{_show(en_values)}, translation has {len(tr_values)} {_show(tr_values)}"
    )
    return _line_of(body, first_line, at), message


def parity(english: Path, translation: Path, lang: str) -> list[Violation]:
    """Differences between a translation and its English page that are not allowed.

    A translation may change prose, headings and labels, but must run the same
    code (byte for byte but for the language argument) and keep the same
    figures, display math, number of sections, exercises and admonitions,
    footnotes and link targets.

    Parameters:
        english: The English page.
        translation: Its translation.
        lang: The translation's language code.

    Returns:
        Every violation found, each naming the translation's file and line.
    """
    en_front, en_body, en_line = split_front_matter(english.read_text("utf-8"), english)
    tr_front, tr_body, tr_line = split_front_matter(
        translation.read_text("utf-8"), translation
    )
    notebook = is_notebook_front(en_front)
    if notebook != is_notebook_front(tr_front):
        message = "one of the pair is a notebook, the other not"
        return [Violation(translation, 1, message, "code")]
    en_blocks = _code_blocks(en_body, en_line, notebook)
    tr_blocks = _code_blocks(tr_body, tr_line, notebook)
    problems = _code_violations(english, translation, en_blocks, tr_blocks, lang)
    if len(en_blocks) != len(tr_blocks):
        message = (
            f"{len(tr_blocks)} executable code blocks, the English page has "
            f"{len(en_blocks)}"
        )
        problems.insert(0, Violation(translation, tr_line, message, "code"))
    en_shape, tr_shape = _structure(en_body), _structure(tr_body)
    for key, expected in en_shape.items():
        found = _structure_violation(key, expected, tr_shape[key], tr_body, tr_line)
        if found:
            problems.append(Violation(translation, *found))
    return problems


def _code_violations(
    english: Path,
    translation: Path,
    en_blocks: list[_Block],
    tr_blocks: list[_Block],
    lang: str,
) -> list[Violation]:
    """One violation per code block whose code or options differ, with a diff."""
    problems = []
    for en, tr in zip(en_blocks, tr_blocks, strict=False):
        same_options = _to_english(tr.options, lang) == en.options
        if _to_english(tr.code, lang) == en.code and same_options:
            continue
        diff = "".join(
            difflib.unified_diff(
                en.code.splitlines(True),
                _to_english(tr.code, lang).splitlines(True),
                f"{english}:{en.line}",
                f"{translation}:{tr.line}",
                n=0,
            )
        )
        what = "code differs" if same_options else "block options differ"
        message = f"executable code block {what} from {english}:{en.line}\n{diff}"
        problems.append(Violation(translation, tr.line, message, "code"))
    return problems


def _show(values: list[object]) -> str:
    text = json.dumps(values, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."
