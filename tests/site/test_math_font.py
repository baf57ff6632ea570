"""The math font cut to the formulas' characters (math_font)."""

import io
import unicodedata

import pytest
from fontTools.ttLib import TTFont
from helpers import ROOT

from attention_docs_site.site.math_font import (
    FONT,
    ITALIC,
    MissingMathGlyph,
    drawn_characters,
    formula_characters,
    subset,
    subset_site_font,
)

FULL = (ROOT / "docs" / FONT).read_bytes()


def page(site, name, body):
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")


def drawing(font, char):
    """How a font draws a character: its outline, advance and italic correction."""
    from fontTools.pens.recordingPen import RecordingPen

    glyph = font.getBestCmap()[ord(char)]
    pen = RecordingPen()
    font.getGlyphSet()[glyph].draw(pen)
    info = font["MATH"].table.MathGlyphInfo.MathItalicsCorrectionInfo
    corrections = [v.Value for v in info.ItalicsCorrection]
    italic = dict(zip(info.Coverage.glyphs, corrections, strict=True)).get(glyph)
    return pen.value, font["hmtx"][glyph], italic


def test_the_subset_keeps_the_math_table_and_the_glyphs_asked_for():
    characters = {*"∑αx=(", "\u210e", "\U0001d451"}  # italic h and d among them
    cut = TTFont(io.BytesIO(subset(FULL, characters)))
    full = TTFont(io.BytesIO(FULL))
    assert "MATH" in cut and "MATH" in full
    # What layout closes over comes too (the mirrored bracket), and the other
    # characters of the kept glyphs (the sans-serif x, italic h and italic d).
    also = {")", "\U0001d5d1", "\U0001d629", "\U0001d625"}
    assert set(map(chr, cut.getBestCmap())) == characters | also
    # Each kept character is drawn as by the full font.
    for char in characters | also:
        assert drawing(cut, char) == drawing(full, char), char
    assert drawing(cut, "\U0001d451")[2] is not None  # an italic correction kept
    # The sum's larger display sizes come with it (the MATH table's variants).
    coverage = cut["MATH"].table.MathVariants.VertGlyphCoverage.glyphs
    assert cut.getBestCmap()[ord("∑")] in coverage


def test_the_characters_are_read_from_the_formulas_only(tmp_path):
    page(tmp_path, "a/index.html", "<p>x y</p><math><mi>x</mi><mo>&lt;</mo></math>")
    page(
        tmp_path,
        "zh/a/index.html",
        "<math display='block'><mi>x</mi> <mn>2</mn></math>",
    )
    assert formula_characters(tmp_path) == {
        "x": ["a/index.html", "zh/a/index.html"],
        "\U0001d465": ["a/index.html", "zh/a/index.html"],  # drawn in italic
        "<": ["a/index.html"],
        "2": ["zh/a/index.html"],
    }


def test_a_one_letter_identifier_is_drawn_in_its_italic_form():
    formula = (
        "<math><mi>x</mi><mi mathvariant='normal'>v</mi><mi>h</mi>"
        "<mi>&#x003B1;</mi><mi>exp</mi><mi>&#x1D424;</mi><mo>=</mo>"
        "<msqrt><mn>2</mn></msqrt></math>"
    )
    assert drawn_characters(formula) == {
        *"xvhα𝐤=exp2",
        "√",  # the square root's radical sign
        "\U0001d465",  # italic x
        "\u210e",  # italic h: the Planck constant
        "\U0001d6fc",  # italic alpha
    }


def test_the_italic_forms_are_unicode_s_mathematical_italic_letters():
    """Each mapping checked against the characters' Unicode names."""
    assert len(ITALIC) == 2 * 26 + 2 + 26 + 25 + 7  # ϴ and ∇ with the capitals
    for letter, italic in ITALIC.items():
        name = unicodedata.name(letter)
        if letter == "h":
            assert unicodedata.name(italic) == "PLANCK CONSTANT"
            continue
        for plain, math in [
            ("LATIN ", ""),
            ("GREEK ", ""),
            ("LETTER ", ""),
            ("LUNATE EPSILON SYMBOL", "EPSILON SYMBOL"),
        ]:
            name = name.replace(plain, math)
        assert unicodedata.name(italic) == f"MATHEMATICAL ITALIC {name}", letter


def test_the_site_font_is_replaced_by_its_subset(tmp_path):
    (tmp_path / FONT).parent.mkdir(parents=True)
    (tmp_path / FONT).write_bytes(FULL)
    page(tmp_path, "index.html", "<math><mi>α</mi><mo>∑</mo></math>")
    before, after, kept = subset_site_font(tmp_path, {})
    assert (before, kept) == (len(FULL), 3)  # α, its italic form, ∑
    assert after == (tmp_path / FONT).stat().st_size < 8 * 1024


def test_a_character_the_font_lacks_fails_naming_the_page_and_the_character(
    tmp_path,
):
    (tmp_path / FONT).parent.mkdir(parents=True)
    (tmp_path / FONT).write_bytes(FULL)
    page(tmp_path, "zh/a/index.html", "<math><mtext>核</mtext><mi>x</mi></math>")
    with pytest.raises(MissingMathGlyph) as raised:
        subset_site_font(tmp_path, {"zh/a/index.html": "a.zh.md"})
    assert str(raised.value) == (
        "docs/a.zh.md (built as zh/a/index.html): the math font has no glyph "
        "for '核' (U+6838)"
    )
    assert (tmp_path / FONT).read_bytes() == FULL  # left as it was
