import pytest
from helpers import ROOT

from attention_docs_site.translations.terminology import (
    Term,
    add_english,
    check_edition,
    english_gloss,
    missing_english,
    read_glossary,
    violations,
)

DOCS = ROOT / "docs"


def test_the_chinese_edition_uses_only_the_glossary_renderings():
    assert check_edition(DOCS, "zh") == []


def test_the_glossary_rules_out_the_variants_named_in_review():
    terms = {term.preferred: term for term in read_glossary(DOCS / "glossary.zh.md")}
    assert "周期" in terms["迭代周期"].ruled_out
    assert "参数化注意力汇聚" in terms["带参数注意力汇聚"].ruled_out
    assert "掩码" in terms["掩蔽"].ruled_out
    assert "物品" in terms["物体"].ruled_out
    assert terms["掩蔽"].english == "mask"


def test_a_ruled_out_variant_is_found_with_its_line():
    terms = [Term("迭代周期", "epoch", ("周期",)), Term("掩蔽", "mask", ("掩码",))]
    text = "训练五个迭代周期。\n再训练三个周期，\n不用掩码。"
    found = [(line, variant) for line, variant, _ in violations(text, terms)]
    assert found == [(2, "周期"), (3, "掩码")]


def test_check_edition_names_the_page_and_the_label(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "glossary.zh.md").write_text(
        "| 中文 | English | 释义 | 其他常见译法 |\n|---|---|---|---|\n"
        "| 迭代周期 | epoch | 训练一遍。 | 周期 |\n"
        "| 注意力汇聚 | attention pooling | 加权平均。 | 注意力 |\n",
        encoding="utf-8",
    )
    (docs / "page.zh.md").write_text("# 标题\n\n训练两个周期。\n", encoding="utf-8")
    messages = check_edition(docs, "zh")
    assert messages[0].startswith("docs/page.zh.md:3: 「周期」")
    assert "「迭代周期」 (epoch)" in messages[0]
    # The labels table says 注意力权重 and the like: found as a label.
    assert any(m.startswith("labels zh[") for m in messages)


TAUGHT = sorted(
    page
    for page in DOCS.rglob("*.zh.md")
    if page.name not in ("glossary.zh.md", "references.zh.md", "api.zh.md")
)


@pytest.mark.parametrize("page", TAUGHT, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_glossary_term_gives_its_english_on_first_use(page):
    terms = read_glossary(DOCS / "glossary.zh.md")
    missing = missing_english(page.read_text(encoding="utf-8"), terms)
    assert missing == [], [
        f"line {line}: 「{t.preferred}（{english_gloss(t)}）」" for line, t in missing
    ]


TERMS = [
    Term("查询", "query", ()),
    Term("注意力汇聚", "attention pooling", ()),
    Term("Nadaraya-Watson 核回归", "Nadaraya-Watson kernel regression", ()),
    Term("核回归", "kernel regression", ()),
]


def test_first_use_needs_the_english_and_later_uses_do_not():
    page = (
        "---\ntitle: 查询\n---\n# 查询和注意力汇聚\n\n"
        "```python\n查询 = 1\n```\n"
        "见[注意力汇聚](x.md)。$查询$ 之后，**查询**（queries）决定注意力汇聚 $a$。"
        "再说查询。\n"
        "Nadaraya-Watson 核回归（kernel regression）不是核回归。\n"
    )
    missing = [(line, t.preferred) for line, t in missing_english(page, TERMS)]
    assert missing == [(9, "注意力汇聚"), (10, "核回归")]  # not the heading or code
    fixed = add_english(page, TERMS)
    assert "决定注意力汇聚（attention pooling）$a$。" in fixed  # not the link
    assert "不是核回归（kernel regression）。" in fixed
    assert missing_english(fixed, TERMS) == []


def test_a_gloss_leaves_out_the_latin_part_of_the_rendering():
    assert english_gloss(TERMS[2]) == "kernel regression"
    assert english_gloss(Term("Jupyter 笔记本", "Jupyter notebook", ())) == "notebook"
