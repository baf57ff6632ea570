"""An edition's glossary and the check's own configuration drive a terminology check.

A translated glossary, ``docs/glossary.<lang>.md`` such as the Chinese one,
gives readers, for every term, the rendering the site uses and, in its last
column, real alternative renderings they may meet in other books. The check
does not read that column. Its own configuration,
``terminology.<lang>.yml`` next to this module, lists the words the pages
must not use (for example 「周期」 for epoch, where the site writes
「迭代周期」), each with the term to use instead and a reason, and the
glossary terms that are everyday words.

Two rules follow. :func:`check_edition` finds every forbidden word in the
edition's pages and figure text. :func:`missing_english` finds the
technical terms (the glossary's terms of two or more Han characters, except
the everyday words) whose first use in a page's prose lacks the English;
headings, links, titles in 《》 and chapter titles named as 「…一章」 are
not uses. An edition without a translated glossary has nothing to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from attention_docs.labels import has_table, table


def glossary_name(lang: str) -> str:
    """The file name of an edition's glossary, e.g. ``glossary.zh.md``."""
    return f"glossary.{lang}.md"


def config_path(lang: str) -> Path:
    """The check's configuration for an edition, e.g. ``terminology.zh.yml``."""
    return Path(__file__).with_name(f"terminology.{lang}.yml")


_ROW = re.compile(r"^\|(.+)\|\s*$")


@dataclass(frozen=True)
class Term:
    """One glossary row: the site's rendering and the alternatives readers meet."""

    preferred: str
    english: str
    alternatives: tuple[str, ...]


@dataclass(frozen=True)
class Forbidden:
    """A word the pages must not use, the glossary term to use and why."""

    word: str
    use: Term
    reason: str


@dataclass(frozen=True)
class Config:
    """The check's configuration: forbidden words and everyday glossary terms."""

    forbidden: tuple[Forbidden, ...]
    everyday: frozenset[str]


def read_glossary(path: Path) -> list[Term]:
    """The terms of the Chinese glossary table.

    Parameters:
        path: ``docs/glossary.zh.md``, whose table has the columns 中文,
            English, 释义 and 其他常见译法 (for readers, renderings found
            elsewhere, separated by 「、」). Columns are taken by position,
            not by their headers.

    Returns:
        One term per row, in order.
    """
    terms = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        cells = [cell.strip() for cell in match[1].split("|")] if match else []
        if len(cells) != 4 or cells[0] in ("中文", "") or set(cells[0]) <= {"-"}:
            continue
        others = tuple(v.strip() for v in cells[3].split("、") if v.strip())
        terms.append(Term(cells[0], cells[1], others))
    if not terms:
        raise ValueError(f"{path}: no glossary table with four columns found")
    return terms


def read_config(path: Path, terms: list[Term]) -> Config:
    """The check's configuration, validated against the glossary.

    Parameters:
        path: A YAML file with the lists ``forbidden`` (entries with ``word``,
            ``use`` and ``reason``) and ``everyday`` (entries with ``word``
            and ``reason``).
        terms: The glossary; every ``use`` and every everyday ``word`` must
            be one of its renderings, and no forbidden word may be one.

    Returns:
        The forbidden words and the everyday terms.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        raise ValueError(f"{path}: not valid YAML: {error}") from error
    by_name = {term.preferred: term for term in terms}
    forbidden = []
    for entry in _entries(path, data, "forbidden", ("word", "use", "reason")):
        if entry["use"] not in by_name:
            raise ValueError(
                f"{path}: forbidden 「{entry['word']}」 says to use "
                f"「{entry['use']}」, which is not in the glossary"
            )
        if entry["word"] in by_name:
            raise ValueError(
                f"{path}: 「{entry['word']}」 is a glossary term "
                "and cannot be forbidden"
            )
        forbidden.append(
            Forbidden(entry["word"], by_name[entry["use"]], entry["reason"])
        )
    everyday = [e["word"] for e in _entries(path, data, "everyday", ("word", "reason"))]
    unknown = sorted(set(everyday) - set(by_name))
    if unknown:
        raise ValueError(f"{path}: everyday words not in the glossary: {unknown}")
    return Config(tuple(forbidden), frozenset(everyday))


def _entries(path: Path, data: object, key: str, fields: tuple[str, ...]) -> list[dict]:
    entries = data.get(key, []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{path}: expected a mapping with a list {key!r}")
    for entry in entries:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(field), str) and entry[field].strip()
            for field in fields
        ):
            raise ValueError(f"{path}: each {key!r} entry needs {fields}: {entry!r}")
    return entries


def technical_terms(terms: list[Term], config: Config) -> list[Term]:
    """The glossary terms that need their English at first use on a page."""
    return [term for term in terms if term.preferred not in config.everyday]


def violations(
    text: str, terms: list[Term], forbidden: tuple[Forbidden, ...]
) -> list[tuple[int, Forbidden]]:
    """Forbidden words in a text, with their line numbers.

    Every glossary rendering is masked first, so 「周期」 inside 「迭代周期」
    is not reported.

    Parameters:
        text: Chinese text.
        terms: The glossary.
        forbidden: The check's forbidden words.

    Returns:
        ``(line, forbidden word)`` for each occurrence, in text order.
    """
    masked = text
    for term in sorted(terms, key=lambda t: -len(t.preferred)):
        masked = masked.replace(term.preferred, "\0" * len(term.preferred))
    found = []
    for rule in forbidden:
        for match in re.finditer(re.escape(rule.word), masked):
            found.append((masked.count("\n", 0, match.start()) + 1, rule))
    return sorted(found, key=lambda item: item[0])


def check_edition(docs: Path, lang: str, config: Path | None = None) -> list[str]:
    """Every forbidden word in a language's pages and figure text.

    Parameters:
        docs: The ``docs`` folder.
        lang: The edition's language code.
        config: The check's configuration; by default
            :func:`config_path` of ``lang``.

    Returns:
        One message per occurrence, naming the file (or label) and line, the
        word found, the glossary term to use and the reason; empty if none.
    """
    glossary = docs / glossary_name(lang)
    if not glossary.exists():
        return []
    terms = read_glossary(glossary)
    rules = read_config(config or config_path(lang), terms).forbidden
    messages = []
    for page in sorted(docs.rglob(f"*.{lang}.md")):
        if page.name == glossary.name:
            continue
        for line, rule in violations(page.read_text("utf-8"), terms, rules):
            where = f"{page.relative_to(docs.parent).as_posix()}:{line}"
            messages.append(_message(where, rule))
    for key, text in (table(lang) if has_table(lang) else {}).items():
        for _, rule in violations(text, terms, rules):
            messages.append(_message(f"labels {lang}[{key!r}]", rule))
    return messages


def _message(where: str, rule: Forbidden) -> str:
    use = f"「{rule.use.preferred}」 ({rule.use.english})"
    return f"{where}: 「{rule.word}」; the site uses {use}: {rule.reason}"


# Text where no gloss is wanted: front matter, fenced code, display and inline
# math, headings, HTML comments, links (text and target), heading anchors and
# titles in 《》.
_NOT_PROSE = re.compile(
    r"(?s:\A---\n.*?\n---\n)"
    r"|(?s:^( *)```.*?^\1```)"
    r"|(?s:\$\$.*?\$\$)|\$[^$\n]+\$"
    r"|^#[^\n]*$|(?s:<!--.*?-->)|\[[^\]\n]*\]\([^)]*\)|\{#[^}]*\}"
    r"|《[^》\n]*》",
    re.MULTILINE,
)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_CHAPTER = "一章"  # 「注意力汇聚一章」 names a chapter: a title, not a use


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
    many ordinary words (数值, 最大值) to find its uses by matching. A
    rendering followed by 「一章」 is a chapter's title, not a use.

    Parameters:
        text: A Chinese page (Markdown).
        terms: The glossary's technical terms (see :func:`technical_terms`).

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
        for match in re.finditer(re.escape(term.preferred), masked):
            if not masked.startswith(_CHAPTER, match.end()):
                uses.append((match.start(), term))
                break
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
