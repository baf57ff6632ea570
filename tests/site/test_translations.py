import json
import subprocess

import pytest
from helpers import ROOT

from attention_docs_site import translations as tr

ENGLISH = """# Title

Intro text.

## Section A

Some $x$ text and a [link](other.md).

```python exec="on" html="1" session="page-en"
from attention_docs import figures
print(figures.identity_heatmap(lang="en"))
```

$$
a = b
$$

!!! note "Note"
    A note.

## Exercises

1. One.
2. Two.
"""

CHINESE = """# 标题

引言。

## 第一节

一些 $x$ 文字和一个[链接](other.md)。

```python exec="on" html="1" session="page-zh"
from attention_docs import figures
print(figures.identity_heatmap(lang="zh"))
```

$$
a = b
$$

!!! note "注"
    一条注释。

## 练习

1. 一。
2. 二。
"""


@pytest.fixture
def docs(tmp_path):
    """A docs folder with one English page and its marked translation."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "page.md").write_text(ENGLISH, encoding="utf-8")
    (folder / "page.zh.md").write_text(CHINESE, encoding="utf-8")
    tr.mark(folder / "page.zh.md")
    # Its own two editions, whatever languages the real site adds.
    (tmp_path / "mkdocs.yml").write_text(TWO_EDITIONS, encoding="utf-8")
    return folder


def git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def state(docs):
    return {row.page or row.translation: row.state for row in tr.status(docs, "zh")}


TWO_EDITIONS = """plugins:
  - i18n:
      languages:
        - {locale: en, name: English, default: true}
        - {locale: zh, name: 中文}
"""


def run(capsys, *argv):
    # The docs fixture's mkdocs.yml (beside it) names its editions.
    code = tr.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_up_to_date(docs, capsys):
    assert state(docs) == {"page.md": "up to date"}
    code, out, _ = run(capsys, "--docs", str(docs), "status", "--check")
    assert code == 0
    assert "page.md" in out and "up to date" in out


def test_whitespace_only_change_is_not_a_change(docs):
    english = docs / "page.md"
    english.write_text(ENGLISH.replace("Intro text.", "Intro\n   text."), "utf-8")
    assert state(docs) == {"page.md": "up to date"}


def test_outdated_with_git_history_shows_a_unified_diff(docs, capsys):
    git(docs.parent, "init", "-q")
    git(docs.parent, "add", ".")
    git(docs.parent, "commit", "-qm", "first")
    english = docs / "page.md"
    english.write_text(ENGLISH.replace("Intro text.", "A better intro."), "utf-8")
    git(docs.parent, "commit", "-qam", "edit")
    (row,) = tr.status(docs, "zh")
    assert row.state == "outdated"
    assert "-Intro text.\n" in row.changes and "+A better intro.\n" in row.changes
    code, out, _ = run(capsys, "--docs", str(docs), "status", "--check")
    assert code == 1
    assert "outdated" in out and "+A better intro." in out


def test_outdated_without_git_lists_changed_sections(docs):
    english = docs / "page.md"
    english.write_text(
        ENGLISH.replace("A note.", "A longer note.") + "\n## New part\n\nMore.\n",
        "utf-8",
    )
    (row,) = tr.status(docs, "zh")
    assert row.state == "outdated"
    assert "~ changed section: Section A" in row.changes
    assert "+ added section: New part" in row.changes
    assert "Exercises" not in row.changes


def test_hash_matching_no_english_version_is_inconsistent(docs):
    git(docs.parent, "init", "-q")
    git(docs.parent, "add", ".")
    git(docs.parent, "commit", "-qm", "first")
    page = docs / "page.zh.md"
    page.write_text(
        page.read_text("utf-8").replace(
            tr.read_provenance(page)["source_hash"], "0123456789abcdef"
        ),
        "utf-8",
    )
    (row,) = tr.status(docs, "zh")
    assert row.state == "inconsistent"
    assert "0123456789abcdef matches no version of" in row.problems[0]
    assert str(page) in row.problems[0]


def test_missing(docs):
    (docs / "page.zh.md").unlink()
    assert state(docs) == {"page.md": "missing"}


def test_orphan_is_reported_with_its_file(docs):
    (docs / "lonely.zh.md").write_text("# 孤儿\n", "utf-8")
    rows = tr.status(docs, "zh")
    (orphan,) = [r for r in rows if r.translation == "lonely.zh.md"]
    assert orphan.state == "inconsistent"
    assert "lonely.zh.md: orphan translation" in orphan.problems[0]
    with pytest.raises(tr.TranslationError, match="orphan translation"):
        tr.mark(docs / "lonely.zh.md")


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ("---\ntranslation: [unclosed\n---\n", "not valid YAML"),
        ("---\ntranslation:\n  source: page.md\n", "not closed"),
        ("---\n- a list\n---\n", "must be a mapping"),
        ("---\ntitle: x\n---\n", "no translation record"),
        ("---\ntranslation:\n  source: page.md\n---\n", "needs a source_hash"),
        ("", "no translation record"),
    ],
)
def test_broken_front_matter_names_the_file(docs, front, message):
    page = docs / "page.zh.md"
    page.write_text(front + CHINESE, "utf-8")
    (row,) = tr.status(docs, "zh")
    assert row.state == "inconsistent"
    assert str(page) in row.problems[0] and message in row.problems[0]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('identity_heatmap(lang="zh")', 'softmax_heatmap(lang="zh")', "code differs"),
        (
            "from attention_docs import figures\n",
            "import os\nfrom attention_docs import figures\n",
            "code differs",
        ),
        ('session="page-zh"', 'session="other-zh"', "block options differ"),
        ("$$\na = b\n$$", "$$\na = c\n$$", "display math differ"),
        ("[链接](other.md)", "[链接](elsewhere.md)", "links differ"),
        ("## 第一节\n", "## 第一节\n\n### 多余\n", "sections differ"),
        ("2. 二。\n", "2. 二。\n3. 三。\n", "exercises differ"),
        ('!!! note "注"', '!!! warning "注"', "admonitions differ"),
        ("一些 $x$", "![图](fig.png) 一些 $x$", "figures differ"),
    ],
)
def test_parity_violations_name_file_line_and_difference(docs, old, new, message):
    page = docs / "page.zh.md"
    text = page.read_text("utf-8")
    assert old in text
    page.write_text(text.replace(old, new), "utf-8")
    (row,) = tr.status(docs, "zh")
    assert row.state == "inconsistent"
    problem = next(p for p in row.problems if message in p)
    path, line, _ = problem.split(":", 2)
    assert path == str(page)
    line_text = page.read_text("utf-8").splitlines()[int(line) - 1]
    assert line_text.strip(), problem  # points at a real line of the page


def test_code_drift_report_shows_the_diff(docs):
    page = docs / "page.zh.md"
    page.write_text(
        page.read_text("utf-8").replace("identity_heatmap", "softmax_heatmap"), "utf-8"
    )
    (violation,) = tr.parity(docs / "page.md", page, "zh")
    assert "-print(figures.identity_heatmap" in violation.message
    assert "+print(figures.softmax_heatmap" in violation.message
    assert (
        violation.line
        == page.read_text("utf-8")
        .splitlines()
        .index('```python exec="on" html="1" session="page-zh"')
        + 1
    )


def test_json_output(docs, capsys):
    (docs / "page.zh.md").unlink()
    code, out, _ = run(capsys, "--docs", str(docs), "status", "--json")
    assert code == 0  # without --check, reporting is not failing
    (row,) = json.loads(out)["zh"]  # one list of rows per translated edition
    assert row["page"] == "page.md" and row["state"] == "missing"


def test_new_scaffolds_a_translation(docs, capsys):
    (docs / "page.zh.md").unlink()
    code, out, _ = run(capsys, "new", str(docs / "page.md"), "--lang", "zh")
    assert code == 0 and "TODO(translate)" in out
    page = docs / "page.zh.md"
    text = page.read_text("utf-8")
    assert tr.read_provenance(page)["source_hash"] == tr.source_hash(ENGLISH)
    assert 'print(figures.identity_heatmap(lang="zh"))' in text
    assert 'session="page-zh"' in text
    assert text.count(tr.TODO) == 7  # every paragraph, heading and list
    assert tr.parity(docs / "page.md", page, "zh") == []
    code, _, err = run(capsys, "new", str(docs / "page.md"))
    assert code == 2 and "already exists" in err
    # Until every marker is gone, the page is not done and cannot be marked.
    (row,) = tr.status(docs, "zh")
    assert row.state == "inconsistent"
    assert (
        row.problems[0].startswith(f"{page}:")
        and "not translated yet" in row.problems[0]
    )
    code, _, err = run(capsys, "mark", str(page))
    assert code == 2 and "7 paragraphs still marked" in err
    page.write_text(text.replace(tr.TODO + "\n", ""), "utf-8")
    assert run(capsys, "mark", str(page))[0] == 0
    assert state(docs) == {"page.md": "up to date"}


def test_new_and_mark_errors(docs, capsys):
    code, _, err = run(capsys, "new", str(docs / "nothing.md"))
    assert code == 2 and "nothing.md: no such English page" in err
    code, _, err = run(capsys, "mark", str(docs / "page.md"))
    assert code == 2 and "not a translation" in err


def test_mark_records_the_current_english(docs, capsys):
    english = docs / "page.md"
    english.write_text(ENGLISH.replace("Intro text.", "New intro."), "utf-8")
    assert state(docs)["page.md"] == "outdated"
    code, out, _ = run(capsys, "mark", str(docs / "page.zh.md"))
    assert code == 0 and "marked" in out
    assert state(docs)["page.md"] == "up to date"
    assert (docs / "page.zh.md").read_text("utf-8").endswith(CHINESE)


def test_notebook_provenance_lives_in_notebook_metadata(tmp_path):
    import jupytext

    docs = tmp_path / "docs"
    docs.mkdir()
    header = (
        "---\njupyter:\n  kernelspec:\n    display_name: Python 3\n"
        "    language: python\n    name: python3\n---\n\n"
    )
    (docs / "nb.md").write_text(header + "# Notebook\n\n```python\n1 + 1\n```\n")
    (docs / "nb.zh.md").write_text(header + "# 笔记本\n\n```python\n1 + 1\n```\n")
    tr.mark(docs / "nb.zh.md")
    notebook = jupytext.read(docs / "nb.zh.md")
    assert notebook.metadata["attention_docs_translation"]["source"] == "nb.md"
    assert [c.cell_type for c in notebook.cells] == ["markdown", "code"]
    assert state(docs) == {"nb.md": "up to date"}
    (docs / "nb.zh.md").write_text(
        (docs / "nb.zh.md").read_text().replace("1 + 1", "1 + 2")
    )
    assert state(docs) == {"nb.md": "inconsistent"}


def test_the_site_translations_are_complete_and_in_step():
    """The repository's own docs: every page translated, up to date, at parity."""
    rows = tr.status(ROOT / "docs", "zh")
    problems = [
        f"{r.page}: {r.state} {r.problems} {r.changes}"
        for r in rows
        if r.state != "up to date"
    ]
    assert not problems, "\n".join(problems)
