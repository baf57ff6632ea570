"""The author's-loop benchmark's bigger book (benchmarks/multiply.py)."""

import re
import shutil
import sys

from helpers import ROOT

from attention_docs_site.translations.status import status

sys.path.insert(0, str(ROOT / "benchmarks"))
from multiply import chapters, multiply_chapters  # noqa: E402


def test_every_chapter_is_copied_in_both_editions_with_its_own_sessions(tmp_path):
    shutil.copy2(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "src", tmp_path / "src")
    original = chapters(tmp_path)
    assert len(original) >= 5

    copies = multiply_chapters(tmp_path, 3)  # two copies each

    stems = [name.removesuffix(".md") for name in original]
    assert copies == [f"{stem}-{n}.md" for stem in stems for n in (2, 3)]
    assert chapters(tmp_path) == original + copies  # the nav lists them all
    docs = tmp_path / "docs"
    sessions = {}
    for page in sorted(docs.glob("*.md")):
        for session in set(re.findall(r'session="([^"]+)"', page.read_text("utf-8"))):
            assert session not in sessions, (page.name, sessions.get(session))
            sessions[session] = page.name
    for copy in copies:
        translation = docs / copy.replace(".md", ".zh.md")
        text = translation.read_text("utf-8")
        assert f"  source: {copy}\n" in text
        stem = copy.rsplit("-", 1)[0]
        body = text.split("\n---\n", 1)[1]
        original_body = (docs / f"{stem}.zh.md").read_text("utf-8").split("\n---\n", 1)
        number = copy.removesuffix(".md").rsplit("-", 1)[1]
        assert body == original_body[1].replace(
            f'session="{stem}-zh"', f'session="{stem}-{number}-zh"'
        )
    states = {row.page: row.state for row in status(docs, "zh")}
    assert all(states[copy] == "up to date" for copy in copies), states
