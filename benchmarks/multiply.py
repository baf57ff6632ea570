"""A bigger book for the author's-loop benchmark: its chapters copied N times.

Used by ``benchmarks/build.py --author --size N``. Each chapter of the nav's
"Chapters" section is copied N - 1 times in both editions
(``attention-pooling-2.md``, ``attention-pooling-2.zh.md``, ...). The copies'
markdown-exec sessions are renamed (``attention-pooling-2-zh``) so that no
two pages share one; each translated copy is marked as translating its
English copy, as a translator would; the nav lists every copy after the
chapters. A copy is its original's
text, so the site grows by whole chapters with the same code and figures.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from targets import SERVE_TARGETS, met

_CHAPTERS = re.compile(r"^  - Chapters:\n((?: {6}- \S+\.md\n)+)", re.M)
_SESSION = re.compile(r'session="([^"]+)-([^"-]+)"')  # "attention-pooling-zh"


def chapters(project: Path) -> list[str]:
    """The chapters' file names, in the nav's order."""
    found = _CHAPTERS.search((project / "mkdocs.yml").read_text("utf-8"))
    if found is None:
        raise SystemExit("mkdocs.yml has no 'Chapters' section in its nav to copy")
    return re.findall(r"- (\S+\.md)", found[1])


def multiply_chapters(project: Path, factor: int) -> list[str]:
    """Copy every chapter ``factor - 1`` times in both editions; the copies' names."""
    docs = project / "docs"
    copies = []
    for chapter in chapters(project):
        stem = chapter.removesuffix(".md")
        pages = [docs / chapter, *sorted(docs.glob(f"{stem}.*.md"))]
        for number in range(2, factor + 1):
            for page in pages:  # attention-pooling.zh.md -> attention-pooling-2.zh.md
                text = _SESSION.sub(
                    lambda m, n=number: f'session="{m[1]}-{n}-{m[2]}"',
                    page.read_text("utf-8"),
                )
                (docs / page.name.replace(stem, f"{stem}-{number}", 1)).write_text(
                    text, "utf-8"
                )
            copies.append(f"{stem}-{number}.md")
    _mark(project, sorted(docs.glob("*-[0-9]*.*.md")))
    config = project / "mkdocs.yml"
    text = config.read_text("utf-8")
    block = _CHAPTERS.search(text)
    assert block is not None  # chapters() found it
    listed = block[1] + "".join(f"      - {name}\n" for name in copies)
    config.write_text(text[: block.start(1)] + listed + text[block.end(1) :], "utf-8")
    return copies


def _mark(project: Path, translations: list[Path]) -> None:
    """Record copied translations as translating their English copies."""
    run = subprocess.run(
        [sys.executable, "-m", "attention_docs_site.translations", "mark"]
        + [str(translation.relative_to(project)) for translation in translations],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project / "src")},
        capture_output=True,
        text=True,
    )
    if run.returncode:
        raise SystemExit(f"cannot mark the copies:\n{run.stderr}")


def report_sizes(
    factor: int,
    count: int,
    served: dict[int, dict[str, list[tuple[float, int]]]],
    floors: dict[int, list[float]],
) -> None:
    """Print the author's loop at 1 x and at ``factor`` x, side by side."""
    print(
        f"\nThe author's loop at two sizes: {count} chapters per edition, and "
        f"{count * factor} ({factor} x); median seconds\n"
    )
    large = f"{factor} x"
    print(f"{'scenario under mkdocs serve':<40} {'1 x':>7} {large:>7} {'ratio':>6}")
    medians = {
        name: [statistics.median(t for t, _ in served[size][name]) for size in served]
        for name in served[1]
    }
    medians["build floor: no code, no PDFs"] = [
        statistics.median(floors[size]) for size in floors
    ]
    for name, (one, many) in medians.items():
        print(f"{name:<40} {one:7.2f} {many:7.2f} {many / one:6.2f}")
    print("\neach run, in seconds (blocks re-run)")
    for name in served[1]:
        for size in served:
            runs = ", ".join(f"{t:.2f} ({m})" for t, m in served[size][name])
            print(f"  {name} at {size} x: {runs}")
    for size in floors:
        runs = ", ".join(f"{t:.2f}" for t in floors[size])
        print(f"  build floor at {size} x: {runs}")
    print()
    for name, limit in SERVE_TARGETS.items():
        for size, value in zip((1, factor), medians[name], strict=True):
            print(
                f"target at {size} x: {name} <= {limit} s: {value:.2f} s "
                f"({met(value <= limit)})"
            )
