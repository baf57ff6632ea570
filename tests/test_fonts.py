import pytest
from matplotlib import font_manager

from attention_docs import fonts


def test_cjk_family_is_registered_and_covers_chinese():
    family = fonts.cjk_family()
    path = font_manager.findfont(
        font_manager.FontProperties(family=family), fallback_to_default=False
    )
    font = font_manager.get_font(path)
    for char in "注意力汇聚查询键值":
        assert font.get_char_index(ord(char)) != 0, char


def test_families_by_language():
    assert fonts.families("en") == ["DejaVu Sans"]
    assert fonts.families("zh") == ["DejaVu Sans", fonts.cjk_family()]


def test_missing_cjk_font_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(fonts, "CJK_FAMILIES", ("No Such Font",))
    fonts.cjk_family.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="no CJK font"):
            fonts.cjk_family()
    finally:
        fonts.cjk_family.cache_clear()
