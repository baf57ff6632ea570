"""The theme's palette style sheet, without its rule that restyles every element."""

from pathlib import Path

import material
import pytest

from attention_docs_site.upstream.guard import UpstreamChanged
from attention_docs_site.upstream.material_css import (
    PALETTE_SHEETS,
    SWITCHING_RULE,
    drop_palette_switching_rule,
)

# The rule as Material 9.8 minifies it; the pattern also takes other spacing.
RULE = (
    "[data-md-color-switching] *,[data-md-color-switching] :after,"
    "[data-md-color-switching] :before{transition-duration:0s!important}"
)

MATERIAL = Path(material.__file__).parent / "templates"


def a_theme(folder: Path, sheet: str) -> str:
    stylesheets = folder / "theme" / "assets" / "stylesheets"
    stylesheets.mkdir(parents=True)
    (stylesheets / "palette.0123abcd.min.css").write_text(sheet, encoding="utf-8")
    (folder / "site").mkdir()
    return str(folder / "theme")


def test_the_rule_is_blanked_and_everything_else_kept_in_place(tmp_path):
    before, after = "[data-md-color-scheme=slate]{color-scheme:dark}", "a{color:red}"
    theme = a_theme(tmp_path, before + RULE + after)
    written = drop_palette_switching_rule(tmp_path / "site", [str(tmp_path), theme])
    assert written == tmp_path / "site/assets/stylesheets/palette.0123abcd.min.css"
    text = written.read_text("utf-8")
    assert "switching" not in text
    # Each other rule keeps its place to the character, for the source map.
    assert text.startswith(before) and text.endswith(after)
    assert len(text) == len(before + RULE + after)


def test_a_second_build_edits_the_theme_s_sheet_again(tmp_path):
    theme = a_theme(tmp_path, RULE)
    first = drop_palette_switching_rule(tmp_path / "site", [theme])
    second = drop_palette_switching_rule(tmp_path / "site", [theme])  # --dirty
    assert first == second and second.read_text("utf-8").strip() == ""


@pytest.mark.parametrize("sheet", ["a{color:red}", RULE * 2])
def test_a_theme_without_the_rule_once_fails_the_edit(tmp_path, sheet):
    theme = a_theme(tmp_path, sheet)
    with pytest.raises(UpstreamChanged, match="switching rule.*1 matches"):
        drop_palette_switching_rule(tmp_path / "site", [theme])


def test_a_theme_without_a_palette_sheet_fails_the_edit(tmp_path):
    with pytest.raises(UpstreamChanged, match="no palette style sheet"):
        drop_palette_switching_rule(tmp_path, [str(tmp_path)])


def test_the_pinned_theme_has_the_rule_once():
    # The theme's own text, not ours: the edit was written for this version.
    (sheet,) = MATERIAL.glob(PALETTE_SHEETS)
    assert len(SWITCHING_RULE.findall(sheet.read_text("utf-8"))) == 1


def test_the_rule_is_found_however_it_is_spaced(tmp_path):
    spaced = RULE.replace(",", ", ").replace("{", " { ").replace("!", " !")
    theme = a_theme(tmp_path, "a{b:c}" + spaced)
    written = drop_palette_switching_rule(tmp_path / "site", [theme])
    assert written.read_text("utf-8").strip() == "a{b:c}"


def test_the_speed_switch_leaves_the_theme_s_sheet_alone(tmp_path):
    from attention_docs_site.upstream import guard

    theme = a_theme(tmp_path, RULE)
    guard.start_build(speed_edits=False)
    try:
        assert drop_palette_switching_rule(tmp_path / "site", [theme]) is None
    finally:
        guard.start_build(speed_edits=True)
