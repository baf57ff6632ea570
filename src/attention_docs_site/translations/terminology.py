"""An edition's glossary drives a terminology check of that edition.

A translated glossary, ``docs/glossary.<lang>.md`` such as the Chinese one,
gives, for every term, the rendering the site uses and, in its last column,
the renderings it rules out (for example 「周期」 for epoch, where the site
writes 「迭代周期」). :func:`check_edition` finds every ruled-out
rendering in that edition's pages and figure text. An edition without a
translated glossary has nothing to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from attention_docs.labels import has_table, table


def glossary_name(lang: str) -> str:
    """The file name of an edition's glossary, e.g. ``glossary.zh.md``."""
    return f"glossary.{lang}.md"


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
            English, 释义 and 其他常见译法 (for students, renderings found
            elsewhere; for this check, the ones the site rules out, separated
            by 「、」). Columns are taken by position, not by their headers.

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


def check_edition(docs: Path, lang: str) -> list[str]:
    """Every ruled-out rendering in a language's pages and figure text.

    Parameters:
        docs: The ``docs`` folder.
        lang: The edition's language code.

    Returns:
        One message per occurrence, naming the file (or label) and line, the
        rendering found and the one the glossary uses; empty if none.
    """
    glossary = docs / glossary_name(lang)
    if not glossary.exists():
        return []
    terms = read_glossary(glossary)
    messages = []
    for page in sorted(docs.rglob(f"*.{lang}.md")):
        if page.name == glossary.name:
            continue
        for line, variant, term in violations(page.read_text("utf-8"), terms):
            where = f"{page.relative_to(docs.parent).as_posix()}:{line}"
            messages.append(_message(where, variant, term))
    for key, text in (table(lang) if has_table(lang) else {}).items():
        for _, variant, term in violations(text, terms):
            messages.append(_message(f"labels {lang}[{key!r}]", variant, term))
    return messages


def _message(where: str, variant: str, term: Term) -> str:
    preferred = f"「{term.preferred}」 ({term.english})"
    return f"{where}: 「{variant}」; the glossary uses {preferred}"


# Text where no gloss is wanted: front matter, fenced code, display and inline
# math, headings, HTML comments, links (text and target) and heading anchors.
_NOT_PROSE = re.compile(
    r"(?s:\A---\n.*?\n---\n)"
    r"|(?s:^( *)```.*?^\1```)"
    r"|(?s:\$\$.*?\$\$)|\$[^$\n]+\$"
    r"|^#[^\n]*$|(?s:<!--.*?-->)|\[[^\]\n]*\]\([^)]*\)|\{#[^}]*\}",
    re.MULTILINE,
)
_HAN = re.compile(r"[\u4e00-\u9fff]")


def prose(text: str) -> str:
    """A page with everything but its prose blanked out (line breaks kept)."""
    return _NOT_PROSE.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)


def missing_english(text: str, terms: list[Term]) -> list[tuple[int, Term]]:
    """Terms whose first use in a page's prose is not followed by the English.

    The first use must read 「查询（query）」: the rendering, then the English
    term (or its plural, or a longer phrase starting with it) in full-width
    parentheses. Longer renderings are masked first, so 「核」 inside
    「核回归」 is not a use of 「核」. Only terms with at least two Han
    characters are checked; a single character such as 「值」 is part of too
    many ordinary words (数值, 最大值) to find its uses by matching.

    Parameters:
        text: A Chinese page (Markdown).
        terms: The glossary.

    Returns:
        ``(line, term)`` for every term whose first use lacks the English.
    """
    uses = sorted(_first_uses(text, terms), key=lambda use: use[0])
    return [
        (text.count("\n", 0, start) + 1, term)
        for start, term in uses
        if not _gives_english(text[start + len(term.preferred) :], term)
    ]


def _first_uses(text: str, terms: list[Term]) -> list[tuple[int, Term]]:
    """Where each checked term is first used in the prose, longest terms first."""
    masked = prose(text)
    checked = [t for t in terms if len(_HAN.findall(t.preferred)) >= 2]
    uses = []
    for term in sorted(checked, key=lambda t: -len(t.preferred)):
        start = masked.find(term.preferred)
        if start >= 0:
            uses.append((start, term))
        masked = masked.replace(term.preferred, "\0" * len(term.preferred))
    return uses


def english_gloss(term: Term) -> str:
    """The English a page gives at first use: Latin words of the rendering dropped.

    「Nadaraya-Watson 核回归」 is glossed 「（kernel regression）」, since its
    Latin part needs no translation.
    """
    latin = set(re.findall(r"[A-Za-z][\w-]*", term.preferred))
    return " ".join(word for word in term.english.split() if word not in latin)


def _gives_english(after: str, term: Term) -> bool:
    gloss = english_gloss(term).lower()
    forms = {gloss, gloss + "s", gloss + "es"}
    if gloss.endswith("y"):
        forms.add(gloss[:-1] + "ies")
    after = after.lstrip("*").lower()
    return any(re.match(f"（{re.escape(form)}[）,，;；]", after) for form in forms)


def add_english(text: str, terms: list[Term]) -> str:
    """The page with 「（English）」 added after every first use that lacks it.

    A helper for translators; the result should still be read, since the
    first use may sit where a gloss reads badly (then reword the sentence).
    """
    for start, term in sorted(_first_uses(text, terms), key=lambda use: -use[0]):
        end = start + len(term.preferred)
        if _gives_english(text[end:], term):
            continue
        end += len(text[end:]) - len(text[end:].lstrip("*"))
        rest = text[end:].removeprefix(" ")  # no space after a full-width bracket
        text = f"{text[:end]}（{english_gloss(term)}）{rest}"
    return text
