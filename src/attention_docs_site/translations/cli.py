"""The command line: ``python -m attention_docs_site.translations``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from .pages import LANGS, TranslationError
from .scaffold import TODO, mark, scaffold
from .status import PageStatus, status

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
