"""The command line: ``python -m attention_docs_site.translations``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from attention_docs_site.editions import EditionError, Editions, read_editions
from attention_docs_site.translations.pages import TranslationError, translation_lang
from attention_docs_site.translations.scaffold import TODO, mark, scaffold
from attention_docs_site.translations.status import PageStatus, status

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
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="the site's mkdocs.yml, whose i18n languages are the editions "
        "(default: the first one in a folder above the pages)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("status", help="one row per English page")
    show.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if any page is missing, outdated or inconsistent",
    )
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.add_argument("--lang", help="one edition (default: every translated one)")
    new = commands.add_parser("new", help="scaffold a translation of an English page")
    new.add_argument("page", type=Path)
    new.add_argument("--lang", help="the edition (needed when there are several)")
    done = commands.add_parser(
        "mark", help="record the English version translated (one page or several)"
    )
    done.add_argument("page", type=Path, nargs="+")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (TranslationError, EditionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _editions(args: argparse.Namespace) -> Editions:
    """The editions of ``--config``, else of the first mkdocs.yml above the pages."""
    if args.config:
        return read_editions(args.config)
    start = getattr(args, "page", None) or args.docs
    for folder in Path(start).resolve().parents:
        if (folder / "mkdocs.yml").exists():
            return read_editions(folder / "mkdocs.yml")
    return read_editions(Path("mkdocs.yml"))


def _langs(args: argparse.Namespace) -> list[str]:
    """The translated editions a command is about; checks a given ``--lang``."""
    editions = _editions(args)
    if args.lang:
        edition = editions.get(args.lang)  # raises, saying how to add it
        if edition.default:
            raise EditionError(f"--lang {args.lang}: the pages are written in it")
        return [edition.lang]
    return [edition.lang for edition in editions.translated]


def _run(args: argparse.Namespace) -> int:
    if args.command == "new":
        langs = _langs(args)
        if len(langs) != 1:
            raise EditionError(f"say which edition with --lang: {', '.join(langs)}")
        target = scaffold(args.page, langs[0])
        print(
            f"wrote {target}: translate the paragraphs marked {TODO}, then run "
            f"`python -m attention_docs_site.translations mark {target}`"
        )
        return 0
    if args.command == "mark":
        for page in args.page:
            record = mark(page)
            print(
                f"marked {page} as translating {record['source']} "
                f"at {record['source_hash']}"
            )
        return 0
    langs = _langs(args)
    rows = {lang: status(args.docs, lang) for lang in langs}
    stray = _unbuilt_translations(args.docs, _editions(args))
    if args.json:
        report = {lang: [row.__dict__ for row in found] for lang, found in rows.items()}
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        tables = [f"# {lang}\n\n{_table(found)}" for lang, found in rows.items()]
        print("\n\n".join(tables if len(tables) > 1 else map(_table, rows.values())))
    for problem in stray:
        print(problem, file=sys.stderr)
    bad = stray or any(
        row.state != "up to date" for found in rows.values() for row in found
    )
    return 1 if args.check and bad else 0


def _unbuilt_translations(docs: Path, editions: Editions) -> list[str]:
    """Translations into a language that mkdocs.yml does not build."""
    langs = set(editions.langs)
    return [
        f"{page}: a translation into {lang!r}, which mkdocs.yml does not build: "
        f"add it to the i18n plugin's languages (CONTRIBUTING.md, 'Add a language')"
        for page in sorted(docs.rglob("*.md"))
        if (lang := translation_lang(page)) and lang not in langs
    ]
