import io

import matplotlib as mpl
import pytest
from matplotlib import font_manager
from matplotlib.figure import Figure

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


def draw_text(text, families):
    """Lay text out as the site's figures are: SVG with text kept as text."""
    fig = Figure()
    with mpl.rc_context({"font.family": families, "svg.fonttype": "none"}):
        fig.text(0.5, 0.5, text)
        fig.savefig(io.BytesIO(), format="svg")


def test_without_a_cjk_font_matplotlib_warns_about_missing_glyphs():
    """The warning the build log is checked for really appears without the font."""
    with pytest.warns(UserWarning, match="Glyph .* missing from font"):
        # Characters drawn nowhere else, so no cached layout hides the warning.
        draw_text("龘鑫", ["DejaVu Sans"])


def test_with_the_site_fonts_no_glyph_is_missing():
    draw_text("注意力汇聚 attention", fonts.families("zh"))  # warnings are errors
