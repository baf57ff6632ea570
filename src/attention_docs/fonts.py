"""Fonts for figure text in every language of the site.

Figures keep their text as SVG ``<text>`` so the browser draws it, but matplotlib
still needs the glyph metrics to lay the figure out. Latin text uses DejaVu Sans,
which ships with matplotlib. Chinese text uses Noto Sans CJK SC, which the
library carries cut to the characters of its figure labels
(``font_files/``, made by ``scripts/subset_cjk_font.py``; SIL Open Font
License, ``font_files/OFL.txt``), so that figures are laid out the same in
the site's build, on a student's machine and in Colab, which may have no CJK
font at all.
"""

from __future__ import annotations

import functools
from pathlib import Path

from matplotlib import font_manager

LATIN_FAMILY = "DejaVu Sans"
CJK_FAMILY = "Noto Sans CJK SC"
CJK_FONT_FILE = Path(__file__).parent / "font_files" / "NotoSansCJKsc-figures.otf"
# CJK symbols and punctuation, and the full-width forms, whole.
CJK_PUNCTUATION = "".join(map(chr, [*range(0x3000, 0x3040), *range(0xFF01, 0xFF5F)]))
_FIRST_CJK = 0x2E80  # below it, DejaVu Sans draws the labels' symbols


def bundled_cjk_characters() -> set[str]:
    """The characters the library's CJK font carries.

    Returns:
        Every character from the CJK blocks that a figure label uses, in any
        language, and the CJK punctuation blocks whole.
    """
    from .labels import languages

    return {c for lang in languages() for c in _cjk_characters(lang)} | set(
        CJK_PUNCTUATION
    )


@functools.cache
def _cjk_characters(lang: str) -> frozenset[str]:
    """The CJK characters of a language's figure labels (none for English)."""
    from .labels import table

    return frozenset(
        c for text in table(lang).values() for c in text if ord(c) >= _FIRST_CJK
    )


@functools.cache
def cjk_family() -> str:
    """Name of the CJK font family that matplotlib lays Chinese text out with.

    The first call registers the library's font file with matplotlib's font
    manager; registering is idempotent, so later calls only return the name.

    Returns:
        The family name, ``"Noto Sans CJK SC"``.
    """
    font_manager.fontManager.addfont(str(CJK_FONT_FILE))
    return CJK_FAMILY


def families(lang: str) -> list[str]:
    """Font families, in fallback order, for figure text in a language.

    Parameters:
        lang: A locale, e.g. ``"en"`` or ``"zh"``. A language whose labels
            use CJK characters gets the CJK font after the Latin one.

    Returns:
        Family names for matplotlib's ``font.family``.
    """
    if _cjk_characters(lang):
        return [LATIN_FAMILY, cjk_family()]
    return [LATIN_FAMILY]
