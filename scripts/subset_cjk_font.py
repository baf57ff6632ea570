"""Write the library's CJK font: Noto Sans CJK SC cut to the figures' characters.

Matplotlib lays a figure's text out with the font's glyph metrics, so Chinese
figure text needs a CJK font wherever the library runs: in the site's build,
and on a student's machine or in Colab, which may have none. The library
therefore carries its own, cut by fontTools to the characters of the Chinese
figure labels (``attention_docs.labels``) and the CJK punctuation blocks,
from Debian's fonts-noto-cjk (which ``scripts/setup.sh`` installs). Glyph
advances are kept, so figures are laid out exactly as with the full font.

    .venv/bin/python scripts/subset_cjk_font.py   # after editing a label table

``tests/unit/test_fonts.py`` fails, naming the characters, when a label uses
one the cut font lacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from attention_docs.fonts import CJK_FONT_FILE, bundled_cjk_characters  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FAMILY = "Noto Sans CJK SC"


def simplified_chinese_face(collection: Path) -> subset.TTFont:
    """The Simplified Chinese face of Noto Sans CJK's collection."""
    for font in TTCollection(str(collection)).fonts:
        if font["name"].getDebugName(1) == FAMILY:
            return font
    raise SystemExit(f"{collection} has no {FAMILY} face")


def main() -> None:
    """Cut the font and write it beside the library's other font files."""
    if not SOURCE.is_file():
        raise SystemExit(f"{SOURCE} is missing: apt-get install fonts-noto-cjk")
    font = simplified_chinese_face(SOURCE)
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the family name the figures' SVG names
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(map(ord, bundled_cjk_characters())))
    subsetter.subset(font)
    font.save(CJK_FONT_FILE)
    print(f"{CJK_FONT_FILE.relative_to(ROOT)}: {CJK_FONT_FILE.stat().st_size} bytes")


if __name__ == "__main__":
    main()
