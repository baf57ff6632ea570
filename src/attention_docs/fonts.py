"""Fonts for figure text in every language of the site.

Figures keep their text as SVG ``<text>`` so the browser draws it, but matplotlib
still needs the glyph metrics to lay the figure out. Latin text uses DejaVu Sans,
which ships with matplotlib; Chinese text needs a CJK font, looked for in the
``mplfonts`` package and then among the system fonts.
"""

from __future__ import annotations

import functools
from pathlib import Path

from matplotlib import font_manager

LATIN_FAMILY = "DejaVu Sans"
CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei")
_MPLFONTS_FILE = "NotoSansCJKsc-Regular.otf"


def _mplfonts_file() -> Path | None:
    try:
        import mplfonts
    except ImportError:
        return None
    path = Path(mplfonts.__file__).parent / "fonts" / _MPLFONTS_FILE
    return path if path.is_file() else None


@functools.cache
def cjk_family() -> str:
    """Name of a CJK font family that matplotlib can lay Chinese text out with.

    The first call registers the font file with matplotlib's font manager;
    registering is idempotent, so later calls only return the name.

    Returns:
        The family name, e.g. ``"Noto Sans CJK SC"``.
    """
    path = _mplfonts_file()
    if path is not None:
        font_manager.fontManager.addfont(str(path))
    known = {entry.name for entry in font_manager.fontManager.ttflist}
    for family in CJK_FAMILIES:
        if family in known:
            return family
    raise RuntimeError(
        "no CJK font found for Chinese figure text; install the docs dependencies "
        "(the mplfonts package) or Debian's fonts-noto-cjk"
    )


def families(lang: str) -> list[str]:
    """Font families, in fallback order, for figure text in a language.

    Parameters:
        lang: ``"en"`` or ``"zh"``.

    Returns:
        Family names for matplotlib's ``font.family``.
    """
    if lang == "zh":
        return [LATIN_FAMILY, cjk_family()]
    return [LATIN_FAMILY]
