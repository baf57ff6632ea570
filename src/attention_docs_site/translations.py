"""Translation status, provenance and parity checks for the docs, with a command line.

Every translated page ``page.zh.md`` records in its front matter which version of
its English source ``page.md`` it translates::

    translation:
      source: page.md
      source_hash: 1f2e3d4c5b6a7988        # hash of the English text
      sections:                            # one short hash per English section
        "": 0a1b2c3d
        "A data set to regress": 4e5f6a7b

For exercise notebooks (jupytext Markdown) the same mapping lives under
``jupyter: attention_docs_translation:`` so that it becomes notebook metadata.
The hash ignores the English front matter and all differences in white space,
so re-wrapping a paragraph does not make a translation outdated.

Run ``python -m attention_docs_site.translations --help`` for the commands.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

LANGS = ("zh",)
HASH_LENGTH = 16
SECTION_HASH_LENGTH = 8
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.DOTALL)
_FENCE = re.compile(r"^( *)(```+|~~~+)([^\n]*)\n(.*?)^\1\2[ \t]*$", re.M | re.S)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_DISPLAY_MATH = re.compile(r"^[ \t]*\$\$(.*?)\$\$", re.M | re.S)
_LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")
_ADMONITION = re.compile(r"^ *(?:!!!|\?\?\?\+?)[ \t]+(\w+)", re.M)
_FOOTNOTE = re.compile(r"^\[\^([^\]]+)\]:", re.M)
_NUMBERED = re.compile(r"^\d+\.[ \t]", re.M)
_EXERCISE_HEADINGS = {"Exercises", "练习"}
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


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _digest(text: str, length: int) -> str:
    return hashlib.sha256(_normalise(text).encode("utf-8")).hexdigest()[:length]


def _blank_fences(body: str) -> str:
    """The body with fenced code blanked out, keeping every offset and line."""
    return _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), body)


INTRO = "(intro)"


def sections(body: str) -> dict[str, str]:
    """The page split at its headings: heading text to section text.

    Parameters:
        body: Page Markdown without front matter.

    Returns:
        Section text by heading, in page order; text before the first heading,
        if any, is under :data:`INTRO`; repeated headings are numbered.
    """
    prose = _blank_fences(body)
    starts = [(m.start(), m[2].strip()) for m in _HEADING.finditer(prose)]
    bounds = [(0, INTRO), *starts, (len(body), None)]
    parts: dict[str, str] = {}
    for (start, name), (end, _) in zip(bounds, bounds[1:], strict=False):
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


def is_notebook_front(front: dict) -> bool:
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


def _front_matter_with(front: dict, record: dict) -> str:
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
    header = _front_matter_with(front, record)
    path.write_text(header + body.lstrip("\n"), encoding="utf-8")


# --- locating pages --------------------------------------------------------------


def translation_path(english: Path, lang: str = "zh") -> Path:
    """``docs/page.md`` -> ``docs/page.zh.md``."""
    return english.with_name(f"{english.name[: -len('.md')]}.{lang}.md")


def english_path(translation: Path) -> Path:
    """``docs/page.zh.md`` -> ``docs/page.md``."""
    stem = translation.name[: -len(".md")].rsplit(".", 1)[0]
    return translation.with_name(f"{stem}.md")


def _is_translation(path: Path) -> bool:
    return any(path.name.endswith(f".{lang}.md") for lang in LANGS)


def english_pages(docs: Path) -> list[Path]:
    """Every English page under a docs folder, sorted.

    ``docs/assets`` holds static files and notes about them, never pages.
    """
    return sorted(
        p
        for p in docs.rglob("*.md")
        if not _is_translation(p) and p.relative_to(docs).parts[0] != "assets"
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
    for match in _FENCE.finditer(body):
        options = match[3].strip()
        executable = 'exec="on"' in options or (notebook and options == "python")
        if executable:
            line = _line_of(body, first_line, match.start())
            blocks.append(_Block(line, options, match[4]))
    return blocks


def _to_english(text: str, lang: str) -> str:
    """Undo the only change a translation may make to code: the language."""
    text = re.sub(rf"""(lang\s*=\s*)(["']){lang}\2""", r'\1"en"', text)
    return re.sub(rf'session="([^"]+)-{lang}"', r'session="\1-en"', text)


def _line_of(body: str, first_line: int, offset: int) -> int:
    return first_line + body.count("\n", 0, offset)


# Items compared between a page and its translation: (value, offset in body).
_Items = list[tuple[object, int]]
_UNORDERED = {"links", "footnotes"}  # word order may move these within a page


def _structure(body: str) -> dict[str, _Items]:
    prose = _blank_fences(body)
    headings = list(_HEADING.finditer(prose))
    exercises: _Items = []
    for here, after in zip(headings, [*headings[1:], None], strict=True):
        if here[2].strip() in _EXERCISE_HEADINGS:
            end = after.start() if after else len(prose)
            found = _NUMBERED.finditer(prose, here.end(), end)
            exercises = [(i + 1, m.start()) for i, m in enumerate(found)]
    items: dict[str, _Items] = {
        "sections": [(len(m[1]), m.start()) for m in headings],
        "exercises": exercises,
        "admonitions": [(m[1], m.start()) for m in _ADMONITION.finditer(prose)],
        "display math": [
            (_normalise(m[1]), m.start()) for m in _DISPLAY_MATH.finditer(prose)
        ],
        "figures": [(m[1], m.start()) for m in _IMAGE.finditer(prose)],
        "links": [(m[1], m.start()) for m in _LINK.finditer(prose)],
        "footnotes": [(m[1], m.start()) for m in _FOOTNOTE.finditer(prose)],
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


def parity(english: Path, translation: Path, lang: str = "zh") -> list[Violation]:
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
    problems = []
    en_blocks = _code_blocks(en_body, en_line, notebook)
    tr_blocks = _code_blocks(tr_body, tr_line, notebook)
    if len(en_blocks) != len(tr_blocks):
        problems.append(
            Violation(
                translation,
                tr_line,
                f"{len(tr_blocks)} executable code blocks, the English page has "
                f"{len(en_blocks)}",
                "code",
            )
        )
    for en, tr in zip(en_blocks, tr_blocks, strict=False):
        same_options = _to_english(tr.options, lang) == en.options
        if _to_english(tr.code, lang) != en.code or not same_options:
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
    en_shape, tr_shape = _structure(en_body), _structure(tr_body)
    for key, expected in en_shape.items():
        found = _structure_violation(key, expected, tr_shape[key], tr_body, tr_line)
        if found:
            problems.append(Violation(translation, *found))
    return problems


def _show(values: list[object]) -> str:
    text = json.dumps(values, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."


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


def page_status(docs: Path, english: Path, lang: str = "zh") -> PageStatus:
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
    todo = _todo_lines(translation)
    if todo:
        status.state = "inconsistent"
        status.problems = [
            f"{translation}:{n}: not translated yet ({TODO})" for n in todo
        ]
        return status
    current = record["source_hash"] == source_hash(english_text)
    # Code must always match, so a translation never changes what runs; the
    # rest of the structure may lag behind while the translation is outdated.
    blocking = [v for v in violations if current or v.kind == "code"]
    if blocking:
        status.state, status.problems = "inconsistent", [str(v) for v in blocking]
        return status
    if current:
        status.state = "up to date"
        return status
    versions = _git_versions(english)
    if versions is not None:
        for old in versions:
            if source_hash(old) == record["source_hash"]:
                status.state = "outdated"
                status.changes = "".join(
                    difflib.unified_diff(
                        old.splitlines(True),
                        english_text.splitlines(True),
                        f"{status.page} (translated)",
                        f"{status.page} (now)",
                    )
                )
                return status
        status.state = "inconsistent"
        status.problems = [
            f"{translation}: source_hash {record['source_hash']} matches no version "
            f"of {english} in git history"
        ]
        return status
    status.state, status.changes = "outdated", _changed_sections(record, english_text)
    return status


def orphans(docs: Path, lang: str = "zh") -> list[Path]:
    """Translations whose English page does not exist."""
    return sorted(p for p in docs.rglob(f"*.{lang}.md") if not english_path(p).exists())


def _orphan_message(orphan: Path) -> str:
    return f"{orphan}: orphan translation, {english_path(orphan)} does not exist"


def status(docs: Path, lang: str = "zh") -> list[PageStatus]:
    """The status of every page: one row per English page, plus orphans.

    Parameters:
        docs: The docs folder.
        lang: The translation language.

    Returns:
        One status per English page, then one ``inconsistent`` row per orphan.
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
    return rows


# --- scaffolding and marking -----------------------------------------------------

TODO = "<!-- TODO(translate) -->"


def _todo_lines(path: Path) -> list[int]:
    """Lines of a translation that still carry a TODO(translate) marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [number for number, line in enumerate(lines, 1) if TODO in line]


def scaffold(english: Path, lang: str = "zh") -> Path:
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
    if _is_translation(english):
        raise TranslationError(f"{english}: is itself a translation")
    target = translation_path(english, lang)
    if target.exists():
        raise TranslationError(f"{target}: already exists; use `mark` after editing it")
    text = english.read_text(encoding="utf-8")
    front, body, _ = split_front_matter(text, english)
    parts, position = [], 0
    for match in _FENCE.finditer(body):
        parts.append(_mark_prose(body[position : match.start()]))
        parts.append(_from_english(match[0], lang))
        position = match.end()
    parts.append(_mark_prose(body[position:]))
    header = _front_matter_with(front, provenance(text, english.name))
    target.write_text(header + "".join(parts), encoding="utf-8")
    return target


def _from_english(text: str, lang: str) -> str:
    text = re.sub(r"""(lang\s*=\s*)(["'])en\2""", rf'\1"{lang}"', text)
    return re.sub(r'session="([^"]+)-en"', rf'session="\1-{lang}"', text)


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
    if not _is_translation(translation):
        raise TranslationError(f"{translation}: not a translation (expected *.zh.md)")
    english = english_path(translation)
    if not english.exists():
        raise TranslationError(
            f"{translation}: orphan translation, {english} does not exist"
        )
    split_front_matter(translation.read_text(encoding="utf-8"), translation)
    todo = _todo_lines(translation)
    if todo:
        raise TranslationError(
            f"{translation}:{todo[0]}: {len(todo)} paragraphs still marked {TODO}; "
            "translate them before marking the page"
        )
    record = provenance(english.read_text(encoding="utf-8"), english.name)
    write_provenance(translation, record)
    return record


# --- command line ------------------------------------------------------------------


def _table(rows: Sequence[PageStatus]) -> str:
    width = max([len("page"), *(len(r.page or r.translation) for r in rows)])
    lines = [f"{'page':<{width}}  status", f"{'-' * width}  {'-' * 12}"]
    for row in rows:
        lines.append(f"{row.page or row.translation:<{width}}  {row.state}")
    details = []
    for row in rows:
        if row.changes:
            details.append(
                f"\n## {row.translation}: outdated; English changes since:\n"
            )
            details.append(row.changes.rstrip("\n"))
        for problem in row.problems:
            details.append(f"\n{problem}")
    counts = Counter(row.state for row in rows)
    summary = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
    return "\n".join([*lines, *details, "", summary])


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m attention_docs_site.translations``."""
    parser = argparse.ArgumentParser(
        prog="python -m attention_docs_site.translations",
        description="Translation status, scaffolding and provenance for the docs.",
    )
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="docs folder")
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("status", help="one row per English page")
    show.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if any page is missing, outdated or inconsistent",
    )
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.add_argument("--lang", default="zh", choices=LANGS)
    new = commands.add_parser("new", help="scaffold a translation of an English page")
    new.add_argument("page", type=Path)
    new.add_argument("--lang", default="zh", choices=LANGS)
    done = commands.add_parser("mark", help="record the English version translated")
    done.add_argument("page", type=Path)
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except TranslationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "new":
        target = scaffold(args.page, args.lang)
        print(
            f"wrote {target}: translate the paragraphs marked {TODO}, then run "
            f"`python -m attention_docs_site.translations mark {target}`"
        )
        return 0
    if args.command == "mark":
        record = mark(args.page)
        print(
            f"marked {args.page} as translating {record['source']} "
            f"at {record['source_hash']}"
        )
        return 0
    rows = status(args.docs, args.lang)
    if args.json:
        print(json.dumps([row.__dict__ for row in rows], ensure_ascii=False, indent=2))
    else:
        print(_table(rows))
    bad = any(row.state != "up to date" for row in rows)
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
