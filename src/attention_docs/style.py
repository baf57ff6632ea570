"""The look every figure of the site shares: sizes, resolution and fonts.

:mod:`.plotting` (data plots) and :mod:`.diagrams` (drawings) both build their
figures inside :func:`figure_style`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import matplotlib as mpl

from .fonts import families
from .labels import check_lang

BASE_STYLE = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.unicode_minus": False,
    "figure.dpi": 72,
    "savefig.dpi": 72,
}


@contextlib.contextmanager
def figure_style(lang: str) -> Iterator[None]:
    """Apply the site's figure style while a figure is built.

    Parameters:
        lang: Language of the figure text, which decides the fonts.
    """
    style = {**BASE_STYLE, "font.family": families(check_lang(lang))}
    with mpl.rc_context(style):
        yield
