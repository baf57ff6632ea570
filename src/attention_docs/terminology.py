"""The Chinese glossary drives a terminology check of the Chinese edition.

``docs/glossary.zh.md`` gives, for every term, the rendering the site uses and,
in its last column, the renderings it rules out (for example 「周期」 for epoch,
where the site writes 「迭代周期」). :func:`check_edition` finds every ruled-out
rendering in the Chinese pages and in the Chinese figure text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .labels import LABELS

GLOSSARY = "glossary.zh.md"
_ROW = re.compile(r"^\|(.+)\|\s*$")


@dataclass(frozen=True)
class Term:
    """One glossary row: the site's rendering and the ones it rules out."""

    preferred: str
    english: str
    ruled_out: tuple[str, ...]


def read_glossary(path: Path) -> list[Term]:
    """The terms of the Chinese glossary table.

    Parameters:
        path: ``docs/glossary.zh.md``, whose table has the columns 中文,
            English, 释义 and 不采用的译法 (ruled-out renderings, separated
            by 「、」).

    Returns:
        One term per row, in order.
    """
    terms = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        cells = [cell.strip() for cell in match[1].split("|")] if match else []
        if len(cells) != 4 or cells[0] in ("中文", "") or set(cells[0]) <= {"-"}:
            continue
        ruled_out = tuple(v.strip() for v in cells[3].split("、") if v.strip())
        terms.append(Term(cells[0], cells[1], ruled_out))
    if not terms:
        raise ValueError(f"{path}: no glossary table with four columns found")
    return terms


def violations(text: str, terms: list[Term]) -> list[tuple[int, str, Term]]:
    """Ruled-out renderings in a text, with their line numbers.

    Every preferred rendering is masked first, so 「周期」 inside 「迭代周期」
    is not reported.

    Parameters:
        text: Chinese text.
        terms: The glossary.

    Returns:
        ``(line, rendering found, term)`` for each occurrence, in text order.
    """
    masked = text
    for term in sorted(terms, key=lambda t: -len(t.preferred)):
        masked = masked.replace(term.preferred, "\0" * len(term.preferred))
    found = []
    for term in terms:
        for variant in term.ruled_out:
            for match in re.finditer(re.escape(variant), masked):
                found.append((masked.count("\n", 0, match.start()) + 1, variant, term))
    return sorted(found, key=lambda item: item[0])


def check_edition(docs: Path, lang: str = "zh") -> list[str]:
    """Every ruled-out rendering in a language's pages and figure text.

    Parameters:
        docs: The ``docs`` folder.
        lang: The edition's language code.

    Returns:
        One message per occurrence, naming the file (or label) and line, the
        rendering found and the one the glossary uses; empty if none.
    """
    terms = read_glossary(docs / GLOSSARY)
    messages = []
    for page in sorted(docs.rglob(f"*.{lang}.md")):
        if page.name == GLOSSARY:
            continue
        for line, variant, term in violations(page.read_text("utf-8"), terms):
            where = f"{page.relative_to(docs.parent).as_posix()}:{line}"
            messages.append(_message(where, variant, term))
    for key, text in LABELS[lang].items():
        for _, variant, term in violations(text, terms):
            messages.append(_message(f"labels {lang}[{key!r}]", variant, term))
    return messages


def _message(where: str, variant: str, term: Term) -> str:
    preferred = f"「{term.preferred}」 ({term.english})"
    return f"{where}: 「{variant}」; the glossary uses {preferred}"
