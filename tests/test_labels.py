import re

import pytest

from attention_docs.labels import LABELS, LANGUAGES, check_lang, label


def test_every_language_has_every_key():
    keys = {lang: set(LABELS[lang]) for lang in LANGUAGES}
    assert keys["zh"] == keys["en"]


def test_chinese_labels_are_chinese():
    for key, text in LABELS["zh"].items():
        assert re.search(r"[\u4e00-\u9fff]", text), key


def test_lookup_and_errors():
    assert label("queries", "zh") == "查询"
    with pytest.raises(ValueError, match="lang"):
        check_lang("de")
    with pytest.raises(KeyError, match="nonexistent"):
        label("nonexistent", "en")
