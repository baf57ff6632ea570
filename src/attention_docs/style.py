"""The look every figure of the site shares: sizes, fonts and colours.

:mod:`.plotting` (data plots) and :mod:`.diagrams` (drawings) both build their
figures inside :func:`figure_style`.

Colours follow the reader's light or dark scheme. A figure is drawn with the
light scheme's colours, and :func:`themed_colour` (applied by :mod:`.svg`)
writes each as a CSS value that takes the page's colours: ``--ad-fg`` and
``--ad-bg`` are ink and paper, greys and light tints are mixes of a colour
and the paper, and ``--ad-c0`` to ``--ad-c3`` are data (the site's stylesheet
sets them for both schemes). Where the variables are not defined (in a
notebook, for instance), each value falls back to the colour as drawn.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
from cycler import cycler

from .fonts import families
from .labels import check_lang

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

# Data colours, as drawn in the light scheme (matplotlib's C0 to C3); each
# keeps at least 3:1 against the light and the dark page background. The dark
# scheme's values are in docs/assets/site.css, under the same names.
BLUE, ORANGE, GREEN, RED = DATA_COLOURS = ("#1f6fb4", "#b35300", "#277a27", "#c62828")
PALETTE = {colour: f"--ad-c{i}" for i, colour in enumerate(DATA_COLOURS)}
INK = "var(--ad-fg,#000)"
PAPER = "var(--ad-bg,#fff)"
# A tint (a box's fill behind text) is at least this light: relative luminance.
_TINT_LUMINANCE = 0.6
_HEX = re.compile(r"#[0-9a-fA-F]{6}\Z")


def _channels(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a ``#rrggbb`` colour, from 0 to 1."""
    linear = []
    for channel in _channels(colour):
        c = channel / 255
        linear.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    red, green, blue = linear
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _percent(share: float) -> str:
    return f"{100 * share:.1f}".rstrip("0").rstrip(".") + "%"


def themed_colour(colour: str, *, strict: bool = True) -> str:
    """The CSS value that draws a figure colour in the page's scheme.

    - black and white are ink and paper;
    - a grey mixes ink into paper in the share it has of black;
    - a data colour of :data:`PALETTE` is its scheme variable;
    - a light tint, such as a box's fill behind text, is the same share of
      its full colour mixed into the paper, so it stays a tint (light on a
      light page, dark on a dark one).

    Each value is the colour as drawn where the variables are not defined.

    Parameters:
        colour: A ``#rrggbb`` colour, as matplotlib writes it.
        strict: Whether any other colour is refused; if not, it is kept as
            drawn (for figures the library did not draw).

    Raises:
        ValueError: For a value that is not a ``#rrggbb`` colour; and, when
            strict, for any other colour, which would keep one value in both
            schemes.
    """
    if not isinstance(colour, str) or not _HEX.match(colour):
        raise ValueError(f"expected a #rrggbb colour, got {colour!r}")
    colour = colour.lower()
    red, green, blue = _channels(colour)
    if red == green == blue:
        if red == 0:
            return INK
        if red == 255:
            return PAPER
        share = (255 - red) / 255
        return f"color-mix(in srgb,{INK} {_percent(share)},{PAPER})"
    if colour in PALETTE:
        return f"var({PALETTE[colour]},{colour})"
    if relative_luminance(colour) >= _TINT_LUMINANCE:
        # colour = share * full + (1 - share) * white, with one channel of full at 0
        share = max(255 - c for c in (red, green, blue)) / 255
        full = "".join(
            f"{round(255 - (255 - c) / share):02x}" for c in (red, green, blue)
        )
        return f"color-mix(in srgb,#{full} {_percent(share)},{PAPER})"
    if not strict:
        return colour
    raise ValueError(
        f"figure colour {colour} would look the same in the light and the dark "
        "scheme: draw data in a colour of style.PALETTE, lines and text in a "
        f"grey, and fills behind text in a light tint (luminance >= "
        f"{_TINT_LUMINANCE})"
    )


BASE_STYLE: dict[RcKeyType, Any] = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.unicode_minus": False,
    "figure.dpi": 72,
    "savefig.dpi": 72,
    "axes.prop_cycle": cycler(color=list(DATA_COLOURS)),
}


@contextlib.contextmanager
def figure_style(lang: str) -> Iterator[None]:
    """Apply the site's figure style while a figure is built.

    Parameters:
        lang: Language of the figure text, which decides the fonts.
    """
    style: dict[RcKeyType, Any] = {
        **BASE_STYLE,
        "font.family": families(check_lang(lang)),
    }
    with mpl.rc_context(style):
        yield
