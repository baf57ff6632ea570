"""Status of each translation: up to date, outdated (and what changed), missing."""

from __future__ import annotations

import difflib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from attention_docs import labels
from attention_docs.labels import has_table, missing_labels
from attention_docs_site.editions import SOURCE_LANG
from attention_docs_site.translations.pages import (
    TranslationError,
    english_pages,
    english_path,
    read_provenance,
    section_hashes,
    source_hash,
    translation_path,
)
from attention_docs_site.translations.parity import parity
from attention_docs_site.translations.scaffold import TODO, todo_lines

# --- status ----------------------------------------------------------------------


@dataclass
class PageStatus:
    """Where one English page's translation stands.

    Attributes:
        page: The English page, relative to the docs folder.
        translation: The translated page, relative to the docs folder.
        state: ``"up to date"``, ``"outdated"``, ``"missing"`` or ``"inconsistent"``.
        changes: For an outdated page, what changed in English since.
        problems: For an inconsistent page, what is wrong.
    """

    page: str
    translation: str
    state: str
    changes: str = ""
    problems: list[str] = field(default_factory=list)


def _git_versions(path: Path) -> Iterator[str] | None:
    """Every committed version of a file, newest first; None outside git."""
    try:
        root = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=path.parent,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        relative = path.resolve().relative_to(Path(root).resolve()).as_posix()
        commits = subprocess.run(
            ["git", "log", "--format=%H", "--", relative],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None
    if not commits:
        return None

    def versions() -> Iterator[str]:
        for commit in commits:
            shown = subprocess.run(
                ["git", "show", f"{commit}:{relative}"],
                cwd=root,
                capture_output=True,
                text=True,
            )
            if shown.returncode == 0:
                yield shown.stdout

    return versions()


def _changed_sections(record: dict, english_text: str) -> str:
    old = record.get("sections", {})
    new = section_hashes(english_text)
    lines = []
    for name, digest in new.items():
        title = name
        if name not in old:
            lines.append(f"+ added section: {title}")
        elif old[name] != digest:
            lines.append(f"~ changed section: {title}")
    lines += [
        f"- removed section: {n or '(before the first heading)'}"
        for n in old
        if n not in new
    ]
    return "\n".join(lines) or "~ changed: the section list is the same"


def page_status(docs: Path, english: Path, lang: str) -> PageStatus:
    """The status of one English page's translation.

    Parameters:
        docs: The docs folder.
        english: An English page in it.
        lang: The translation language.

    Returns:
        The page's status, with the English changes for an outdated page.
    """
    translation = translation_path(english, lang)
    status = PageStatus(
        english.relative_to(docs).as_posix(),
        translation.relative_to(docs).as_posix(),
        "missing",
    )
    if not translation.exists():
        return status
    english_text = english.read_text(encoding="utf-8")
    try:
        record = read_provenance(translation)
        violations = parity(english, translation, lang)
    except TranslationError as error:
        status.state, status.problems = "inconsistent", [str(error)]
        return status
    todo = [
        f"{translation}:{n}: not translated yet ({TODO})"
        for n in todo_lines(translation)
    ]
    if todo:
        status.state, status.problems = "inconsistent", todo
        return status
    current = record["source_hash"] == source_hash(english_text)
    # Code must always match, so a translation never changes what runs; the
    # rest of the structure may lag behind while the translation is outdated.
    blocking = [v for v in violations if current or v.kind == "code"]
    if blocking:
        status.state, status.problems = "inconsistent", [str(v) for v in blocking]
    elif current:
        status.state = "up to date"
    else:
        _find_changes(status, english, translation, english_text, record)
    return status


def _find_changes(
    status: PageStatus, english: Path, translation: Path, text: str, record: dict
) -> None:
    """Fill in an outdated page's English changes since its translation.

    From git history when there is one (the diff from the version translated),
    else the sections whose hashes changed. A recorded hash that matches no
    version in git makes the page inconsistent.
    """
    versions = _git_versions(english)
    if versions is None:
        status.state, status.changes = "outdated", _changed_sections(record, text)
        return
    for old in versions:
        if source_hash(old) == record["source_hash"]:
            status.state = "outdated"
            status.changes = "".join(
                difflib.unified_diff(
                    old.splitlines(True),
                    text.splitlines(True),
                    f"{status.page} (translated)",
                    f"{status.page} (now)",
                )
            )
            return
    status.state = "inconsistent"
    status.problems = [
        f"{translation}: source_hash {record['source_hash']} matches no version "
        f"of {english} in git history"
    ]


def orphans(docs: Path, lang: str) -> list[Path]:
    """Translations whose English page does not exist."""
    return sorted(p for p in docs.rglob(f"*.{lang}.md") if not english_path(p).exists())


def _orphan_message(orphan: Path) -> str:
    return f"{orphan}: orphan translation, {english_path(orphan)} does not exist"


def status(docs: Path, lang: str) -> list[PageStatus]:
    """The status of every page: one row per English page, orphans, figure labels.

    Parameters:
        docs: The docs folder.
        lang: The translation language.

    Returns:
        One status per English page, then one ``inconsistent`` row per orphan,
        then, if the language's figure-label table (``attention_docs/labels``)
        is missing or lacks keys, a ``missing`` row that names them: those
        figures are drawn in English.
    """
    if not docs.is_dir():
        raise TranslationError(f"{docs}: no such docs folder")
    rows = [page_status(docs, page, lang) for page in english_pages(docs)]
    for orphan in orphans(docs, lang):
        rows.append(
            PageStatus(
                "",
                orphan.relative_to(docs).as_posix(),
                "inconsistent",
                problems=[_orphan_message(orphan)],
            )
        )
    labels = label_status(lang)
    if labels is not None:
        rows.append(labels)
    return rows


def label_status(lang: str) -> PageStatus | None:
    """A ``missing`` row for a language's untranslated figure labels, if any."""
    missing = missing_labels(lang)
    if not missing:
        return None
    folder = f"src/attention_docs/labels/{lang.replace('-', '_')}"
    if not has_table(lang):
        table = f"{folder}/"
        problem = (
            f"{table}: no figure-label table, so its figures are drawn in "
            f"English; copy the folder src/attention_docs/labels/{SOURCE_LANG}/ "
            "to it and translate the values in its files"
        )
    else:
        package = Path(labels.__file__).parent / lang.replace("-", "_")
        table = f"{folder}/" if package.is_dir() else f"{folder}.py"
        problem = f"{table}: {len(missing)} labels drawn in English: " + ", ".join(
            missing
        )
    return PageStatus("(figure labels)", table, "missing", problems=[problem])
