import re

import pytest
from helpers import LANGS

from attention_docs import fonts
from attention_docs.labels import (
    check_lang,
    has_table,
    label,
    languages,
    missing_labels,
    space_han_and_latin,
    spaces_han_and_latin,
    table,
)

LABELS = {lang: table(lang) for lang in languages()}


def test_every_language_with_a_table_has_every_key():
    for lang in languages():
        assert set(LABELS[lang]) == set(LABELS["en"]), lang
        assert missing_labels(lang) == []


def test_every_edition_with_a_table_is_found():
    # A table the package listing misses would be drawn in English silently.
    assert set(languages()) == {lang for lang in LANGS if has_table(lang)}
    assert "zh" in languages()


def test_a_language_without_a_table_is_drawn_in_english():
    assert not has_table("ja")
    assert label("queries", "ja") == label("queries", "en") == "Queries"
    assert label("h_learned", "ja", epochs=3) == label("h_learned", "en", epochs=3)
    assert missing_labels("ja") == list(LABELS["en"])
    assert fonts.families("ja") == fonts.families("en")
    assert not spaces_han_and_latin("ja")


def test_a_key_a_table_lacks_is_drawn_in_english(monkeypatch):
    partial = {key: text for key, text in LABELS["zh"].items() if key != "queries"}
    monkeypatch.setattr(
        __import__("attention_docs.labels.zh").labels.zh, "LABELS", partial
    )
    assert label("queries", "zh") == "Queries"
    assert label("keys", "zh") == "键"
    assert missing_labels("zh") == ["queries"]


def test_chinese_figures_get_the_cjk_font_and_spacing():
    assert len(fonts.families("zh")) == 2
    assert len(fonts.families("en")) == 1
    assert spaces_han_and_latin("zh")
    assert not spaces_han_and_latin("en")


# Symbols and formula names that read the same in both languages.
SAME_IN_BOTH = {
    "ex_sat_d_value",
    "ex_sat_c_value",
    "ex_sat_c_sqrt",
    "x",
    "x1",
    "x2",
    "shared_width_title",
    "dimension",
    "rate_d",
    "rate_table_nh",
    "nw_method",
    "y",
    "u",
    "kernel_value",
    "gaussian_scores_title",
    "dot_product_scores_title",
    "fixed_h",
    "cv_h",
    "w_cv",
    "rate",
    "epanechnikov",
    "summary_h",
    "summary_w",
    "summary_cv",
    "scores_raw",
    "scores_scaled",
    "score_dot",
    "score_scaled",
    "score_bilinear",
    "score_additive",
    "saturation_table_d",
    # the explorable figures' number fields, filled in by the page's script
    "ex_nw_value",
    "ex_x_value",
    "ex_t_value",
    "ex_q_value",
    "ex_lookup_weight",
}


def test_chinese_labels_are_chinese():
    for key, text in LABELS["zh"].items():
        if key in SAME_IN_BOTH:
            assert text.replace(" 核", "") == LABELS["en"][key], key
        else:
            assert re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", text), key


def test_placeholders_match_between_languages():
    fields = re.compile(r"\{(\w+)")
    for key, text in LABELS["en"].items():
        assert set(fields.findall(text)) == set(fields.findall(LABELS["zh"][key])), key


def test_label_fills_in_fields():
    assert label("h_learned", "en", epochs=5) == "learned h, 5 epochs"
    assert label("h_learned", "zh", epochs=5) == "训练 5 个迭代周期学到的 h"


def test_lookup_and_errors():
    assert label("queries", "zh") == "查询"
    assert check_lang("de") == "de"  # any locale: drawn in English
    for bad in ("english", "EN", "zh/", "", "../en", None):
        with pytest.raises(ValueError, match="lang must be a locale"):
            check_lang(bad)
    with pytest.raises(KeyError, match="nonexistent"):
        label("nonexistent", "en")


def test_chinese_label_texts_space_han_and_latin():
    # The tables follow the style already; label() keeps assembled text to it.
    for key, text in LABELS["zh"].items():
        assert space_han_and_latin(text) == text, key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("带宽 h = 1在 0 到 5 之间", "带宽 h = 1 在 0 到 5 之间"),
        ("的Epanechnikov 核", "的 Epanechnikov 核"),
        ("误差CV(h)", "误差 CV(h)"),
        ("（w = 1，h = 2）", "（w = 1，h = 2）"),  # full-width punctuation: no space
    ],
)
def test_space_han_and_latin(text, expected):
    assert space_han_and_latin(text) == expected
