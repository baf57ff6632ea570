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


def test_the_library_carries_its_cjk_font():
    fonts.cjk_family()
    registered = {
        entry.fname
        for entry in font_manager.fontManager.ttflist
        if entry.name == fonts.CJK_FAMILY
    }
    assert str(fonts.CJK_FONT_FILE) in registered


def test_the_carried_font_has_every_character_of_every_label():
    """A label with a character the cut font lacks: run scripts/subset_cjk_font.py."""
    font = font_manager.get_font(str(fonts.CJK_FONT_FILE))
    wanted = fonts.bundled_cjk_characters()
    assert "注" in wanted and "，" in wanted  # labels and punctuation
    missing = sorted(c for c in wanted if font.get_char_index(ord(c)) == 0)
    assert not missing, f"run scripts/subset_cjk_font.py; missing: {missing}"


def test_the_carried_font_lays_text_out_as_the_full_font_does():
    """The cut keeps each glyph's advance: the same text is as wide in both."""
    system = font_manager.findfont(
        font_manager.FontProperties(family=fonts.CJK_FAMILY),
        fallback_to_default=False,
    )
    text = "注意力汇聚：查询、键和值（核回归）"
    widths = []
    for path in (system, str(fonts.CJK_FONT_FILE)):
        font = font_manager.get_font(path)
        font.set_size(9, 72)
        font.set_text(text)
        widths.append(font.get_width_height()[0])
    assert widths[0] == widths[1] > 0


def draw_text(text, families):
    """Lay text out as the site's figures are: SVG with text kept as text."""
    fig = Figure()
    with mpl.rc_context({"font.family": families, "svg.fonttype": "none"}):
        fig.text(0.5, 0.5, text)
        fig.savefig(io.BytesIO(), format="svg")


def test_without_a_cjk_font_matplotlib_warns_about_missing_glyphs():
    """The warning the build log is checked for really appears without the font."""
    with pytest.warns(UserWarning, match=r"Glyph .* missing from (?:current )?font"):
        # Characters drawn nowhere else, so no cached layout hides the warning.
        draw_text("龘鑫", ["DejaVu Sans"])


def test_with_the_site_fonts_no_glyph_is_missing():
    draw_text("注意力汇聚 attention", fonts.families("zh"))  # warnings are errors
