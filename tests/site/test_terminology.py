import tempfile
from pathlib import Path

import pytest
from helpers import ROOT

from attention_docs_site.translations.terminology import (
    Term,
    add_english,
    check_edition,
    config_path,
    english_gloss,
    missing_english,
    read_config,
    read_glossary,
    technical_terms,
    violations,
)

DOCS = ROOT / "docs"
GLOSSARY = read_glossary(DOCS / "glossary.zh.md")
CONFIG = read_config(config_path("zh"), GLOSSARY)


def test_the_chinese_edition_uses_no_forbidden_word():
    assert check_edition(DOCS, "zh") == []


def test_the_check_forbids_the_variants_named_in_review_with_a_reason():
    rules = {rule.word: rule for rule in CONFIG.forbidden}
    assert rules["周期"].use.preferred == "迭代周期"
    assert rules["参数化注意力汇聚"].use.preferred == "带参数注意力汇聚"
    assert rules["掩码"].use.english == "mask"
    assert rules["物品"].use.preferred == "物体"
    assert all(rule.reason.strip() for rule in rules.values())


def test_statistical_renderings_are_alternatives_not_forbidden_words():
    # The editor's T1, T2 and T11: the statistics literature's words are
    # shown to readers in the glossary and may be used on a page.
    terms = {term.preferred: term for term in GLOSSARY}
    forbidden = {rule.word for rule in CONFIG.forbidden}
    for preferred, other in [
        ("估计器", "估计量"),
        ("相合性", "一致性"),
        ("带宽", "窗宽"),
    ]:
        assert other in terms[preferred].alternatives
        assert other not in forbidden


def test_the_glossary_shows_readers_only_alternative_renderings():
    # The editor's T10: 参数化模型 and 练习笔记本 are not translations of a
    # term; they are the check's business, not the readers'.
    shown = {other for term in GLOSSARY for other in term.alternatives}
    assert not shown & {"参数化模型", "练习笔记本", "下载笔记本"}
    assert {"参数化模型", "练习笔记本"} <= {rule.word for rule in CONFIG.forbidden}


def test_a_forbidden_word_is_found_with_its_line():
    terms = [Term("迭代周期", "epoch", ()), Term("掩蔽", "mask", ())]
    config = _config(
        terms,
        "- {word: 周期, use: 迭代周期, reason: d2l}\n"
        "- {word: 掩码, use: 掩蔽, reason: d2l}",
    )
    text = "训练五个迭代周期。\n再训练三个周期，\n不用掩码。"
    found = [(line, r.word) for line, r in violations(text, terms, config.forbidden)]
    assert found == [(2, "周期"), (3, "掩码")]


def _config(terms, forbidden, everyday="[]"):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "terminology.yml"
        indented = "\n".join("  " + line for line in forbidden.splitlines())
        text = f"forbidden:\n{indented}\neveryday: {everyday}\n"
        path.write_text(text, encoding="utf-8")
        return read_config(path, terms)


def _edition(tmp_path, page):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "glossary.zh.md").write_text(
        "| 中文 | English | 释义 | 其他常见译法 |\n|---|---|---|---|\n"
        "| 迭代周期 | epoch | 训练一遍。 | 周期、轮次 |\n"
        "| 估计器 | estimator | 规则。 | 估计量 |\n"
        "| 注意力汇聚 | attention pooling | 加权平均。 | |\n",
        encoding="utf-8",
    )
    (docs / "page.zh.md").write_text(page, encoding="utf-8")
    config = tmp_path / "terminology.zh.yml"
    config.write_text(
        "forbidden:\n"
        "  - {word: 轮次, use: 迭代周期, reason: one word for epoch}\n"
        "  - {word: 汇聚注意, use: 注意力汇聚, reason: a made-up word}\n"
        "everyday: []\n",
        encoding="utf-8",
    )
    return docs, config


def test_check_edition_reports_a_configured_word_with_its_reason(tmp_path):
    docs, config = _edition(tmp_path, "# 标题\n\n训练两个轮次。\n")
    messages = check_edition(docs, "zh", config)
    assert messages[0] == (
        "docs/page.zh.md:3: 「轮次」; the site uses 「迭代周期」 (epoch): "
        "one word for epoch"
    )
    # The labels table is checked too (it says 注意力汇聚, not the made-up word).
    assert not any(m.startswith("labels zh[") for m in messages)


def test_an_alternative_listed_in_the_glossary_is_not_reported(tmp_path):
    # 周期 and 估计量 are in the glossary's last column, not in the config.
    docs, config = _edition(tmp_path, "估计量（estimator）与一个周期。\n")
    assert check_edition(docs, "zh", config) == []


def test_a_bad_configuration_is_refused_with_the_reason(tmp_path):
    terms = [Term("迭代周期", "epoch", ())]
    with pytest.raises(ValueError, match="「轮数」, which is not in the glossary"):
        _config(terms, "- {word: 轮次, use: 轮数, reason: x}")
    with pytest.raises(ValueError, match="is a glossary term"):
        _config(terms, "- {word: 迭代周期, use: 迭代周期, reason: x}")
    with pytest.raises(ValueError, match="needs"):
        _config(terms, "- {word: 轮次, use: 迭代周期}")
    with pytest.raises(ValueError, match="everyday words not in the glossary"):
        _config(terms, "[]", everyday="[{word: 物体, reason: x}]")


TAUGHT = sorted(
    page
    for page in DOCS.rglob("*.zh.md")
    if page.name not in ("glossary.zh.md", "references.zh.md", "api.zh.md")
)


@pytest.mark.parametrize("page", TAUGHT, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_technical_term_gives_its_english_on_first_use(page):
    terms = technical_terms(GLOSSARY, CONFIG)
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


def test_a_title_is_not_a_use_but_the_next_use_needs_the_english():
    page = (
        "# 注意力汇聚\n\n"
        "《注意力汇聚》讲过，注意力汇聚一章也讲过；"
        "[注意力汇聚](attention-pooling.md)同样。\n"
        "这里的注意力汇聚没有英文，查询（query）有。\n"
    )
    missing = [(line, t.preferred) for line, t in missing_english(page, TERMS)]
    assert missing == [(4, "注意力汇聚")]
    glossed = page.replace("这里的注意力汇聚", "这里的注意力汇聚（attention pooling）")
    assert missing_english(glossed, TERMS) == []


def test_an_everyday_word_needs_no_english_and_a_technical_term_still_does():
    terms = [Term("物体", "object", ()), Term("估计器", "estimator", ("估计量",))]
    config = _config(terms, "[]", everyday="[{word: 物体, reason: everyday}]")
    page = "场景中的物体。最简单的估计器是平均。\n"
    checked = technical_terms(terms, config)
    assert [t.preferred for _, t in missing_english(page, checked)] == ["估计器"]
    glossed = page.replace("估计器", "估计器（estimator，统计学中称估计量）")
    assert missing_english(glossed, checked) == []
