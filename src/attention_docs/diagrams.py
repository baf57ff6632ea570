"""Explanatory drawings: the attention-cue scene and the query-key-value framework.

Everything is drawn with matplotlib patches on a fixed coordinate grid, so the
drawings are deterministic SVG like every other figure and carry their text in
the language of the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import (
    Arc,
    Circle,
    Ellipse,
    FancyArrowPatch,
    FancyBboxPatch,
    Polygon,
    Rectangle,
)

from .style import BLUE, RED, figure_style

SCENE_OBJECTS = ("newspaper", "paper", "notebook", "book", "cup")
CUP_RED = RED
INK = "#222222"
_CENTERS = dict(zip(SCENE_OBJECTS, (1.2, 3.4, 5.6, 7.8, 10.0), strict=True))
_OBJECT_BOTTOM = 3.0


def _lines(
    ax: Axes, x0: float, x1: float, ys: Iterable[float], color: str, lw: float
) -> None:
    for y in ys:
        ax.plot([x0, x1], [y, y], color=color, lw=lw, solid_capstyle="butt")


def _newspaper(ax: Axes, cx: float) -> None:
    ax.add_patch(Rectangle((cx - 0.8, 3.0), 1.6, 2.0, fc="#e6e6e6", ec=INK, lw=1))
    ax.add_patch(Rectangle((cx - 0.65, 4.55), 1.3, 0.28, fc=INK, ec="none"))
    for left in (cx - 0.65, cx + 0.05):
        _lines(ax, left, left + 0.6, np.linspace(3.25, 4.35, 7), "#777777", 1.2)


def _paper(ax: Axes, cx: float) -> None:
    ax.add_patch(
        Polygon(
            [
                (cx - 0.7, 3.0),
                (cx + 0.7, 3.0),
                (cx + 0.7, 4.75),
                (cx + 0.45, 5.0),
                (cx - 0.7, 5.0),
            ],
            closed=True,
            fc="white",
            ec=INK,
            lw=1,
        )
    )
    _lines(ax, cx - 0.45, cx + 0.35, [4.7], INK, 2.2)
    _lines(ax, cx - 0.5, cx + 0.5, np.linspace(3.25, 4.4, 8), "#888888", 1.0)


def _notebook(ax: Axes, cx: float) -> None:
    ax.add_patch(Rectangle((cx - 0.7, 3.0), 1.4, 2.0, fc="white", ec=INK, lw=1))
    _lines(ax, cx - 0.45, cx + 0.6, np.linspace(3.3, 4.7, 8), "#aaaaaa", 0.8)
    for y in np.linspace(3.2, 4.8, 7):
        ax.add_patch(Circle((cx - 0.7, y), 0.07, fc="white", ec=INK, lw=0.8))


def _book(ax: Axes, cx: float) -> None:
    ax.add_patch(Rectangle((cx - 0.7, 3.0), 1.4, 2.0, fc=INK, ec=INK, lw=1))
    ax.add_patch(Rectangle((cx - 0.6, 3.0), 0.08, 2.0, fc="#555555", ec="none"))
    ax.add_patch(Rectangle((cx - 0.35, 4.2), 0.9, 0.4, fc="white", ec="none"))


def _cup(ax: Axes, cx: float) -> None:
    ax.add_patch(Ellipse((cx, 3.05), 1.7, 0.25, fc="#f2f2f2", ec=INK, lw=1))
    ax.add_patch(
        Polygon(
            [(cx - 0.6, 4.4), (cx + 0.6, 4.4), (cx + 0.45, 3.1), (cx - 0.45, 3.1)],
            closed=True,
            fc=CUP_RED,
            ec=INK,
            lw=1,
            gid="cup-body",
        )
    )
    ax.add_patch(
        Arc((cx + 0.62, 3.8), 0.5, 0.6, theta1=-90, theta2=90, ec=CUP_RED, lw=4)
    )
    for dx in (-0.25, 0.0, 0.25):
        ys = np.linspace(4.55, 5.05, 20)
        ax.plot(cx + dx + 0.06 * np.sin((ys - 4.55) * 12), ys, color="#999999", lw=1)


_DRAW = {
    "newspaper": _newspaper,
    "paper": _paper,
    "notebook": _notebook,
    "book": _book,
    "cup": _cup,
}


def _canvas(size: tuple[float, float], width: float, top: float) -> tuple[Figure, Axes]:
    """A figure with one axes-free drawing area, in units of the drawing."""
    fig = Figure(figsize=size, layout="constrained")
    ax = fig.subplots()
    ax.set(xlim=(0, width), ylim=(0.1, top), aspect="equal")
    ax.axis("off")
    return fig, ax


def _eye(ax: Axes, cx: float, cy: float) -> None:
    ax.add_patch(Ellipse((cx, cy), 1.4, 0.7, fc="white", ec=INK, lw=1.5))
    ax.add_patch(Circle((cx, cy), 0.26, fc=BLUE, ec=INK, lw=1))
    ax.add_patch(Circle((cx, cy), 0.11, fc=INK, ec="none"))


def attention_cue_scene(
    focus: str, *, names: Mapping[str, str], caption: str, lang: str = "en"
) -> Figure:
    """Draw five objects on a desk and an eye whose gaze goes to one of them.

    The newspaper, research paper, notebook and book are black and white; the
    coffee cup is red. Gaze drawn by saliency goes to the cup; gaze directed
    by a task (say, reading) goes to the book.

    Parameters:
        focus: The object the gaze goes to, one of :data:`SCENE_OBJECTS`.
        names: Text under each object, keyed by the names in
            :data:`SCENE_OBJECTS`.
        caption: Text beside the gaze arrow (which cue is at work).
        lang: Language of the text, which decides the fonts.

    Returns:
        The figure.
    """
    if focus not in SCENE_OBJECTS:
        raise ValueError(f"focus must be one of {SCENE_OBJECTS}, got {focus!r}")
    missing = set(SCENE_OBJECTS) - set(names)
    if missing:
        raise ValueError(f"names is missing {sorted(missing)}")
    with figure_style(lang):
        fig, ax = _canvas((6.4, 3.1), width=11.2, top=5.2)
        for name, cx in _CENTERS.items():
            _DRAW[name](ax, cx)
            ax.text(cx, 2.6, names[name], ha="center", va="top", fontsize=8)
        eye = (5.6, 0.6)
        _eye(ax, *eye)
        color = CUP_RED if focus == "cup" else BLUE
        ax.add_patch(
            FancyArrowPatch(
                (eye[0] + 0.2, eye[1] + 0.4),
                (_CENTERS[focus], 1.95),
                arrowstyle="-|>",
                mutation_scale=14,
                lw=2,
                color=color,
                connectionstyle="arc3,rad=0.15",
                gid="gaze",
            )
        )
        ax.text(
            eye[0] - 1.0,
            eye[1],
            caption,
            ha="right",
            va="center",
            fontsize=8.5,
            color=color,
        )
    return fig


def _box(
    ax: Axes,
    xy: tuple[float, float],
    size: tuple[float, float],
    text: str,
    color: str,
    fontsize: float = 8,
) -> None:
    ax.add_patch(
        FancyBboxPatch(
            xy,
            *size,
            boxstyle="round,pad=0.02,rounding_size=0.12",
            fc=color,
            ec=INK,
            lw=1,
        )
    )
    ax.text(
        xy[0] + size[0] / 2,
        xy[1] + size[1] / 2,
        text,
        ha="center",
        va="center",
        fontsize=fontsize,
    )


def _arrow(
    ax: Axes, start: tuple[float, float], end: tuple[float, float], color: str = INK
) -> None:
    ax.add_patch(
        FancyArrowPatch(
            start, end, arrowstyle="-|>", mutation_scale=11, lw=1.2, color=color
        )
    )


QKV_TEXT = ("key", "value", "keys", "values", "query", "pooling", "output", "weights")


def qkv_framework(*, text: Mapping[str, str], lang: str = "en") -> Figure:
    """Draw the attention framework: a query and key-value pairs pooled into an output.

    Keys (nonvolitional cues) are paired with values (sensory inputs). The
    query (volitional cue) is compared with every key; the resulting weights
    pool the values into one output.

    Parameters:
        text: Box and arrow text keyed by the names in :data:`QKV_TEXT`;
            ``key`` and ``value`` are prefixes numbered 1 to 3.
        lang: Language of the text, which decides the fonts.

    Returns:
        The figure.
    """
    missing = set(QKV_TEXT) - set(text)
    if missing:
        raise ValueError(f"text is missing {sorted(missing)}")
    with figure_style(lang):
        fig, ax = _canvas((6.4, 3.6), width=10.5, top=6.0)
        # Each caption leans away from the other (flush with the outer edge
        # of its column), so that they never meet.
        for x, align, caption in (
            (0.3, "left", text["keys"]),
            (3.4, "right", text["values"]),
        ):
            ax.text(
                x,
                5.15,
                caption,
                ha=align,
                va="bottom",
                fontsize=7.5,
                multialignment="center",
            )
        for row, y in enumerate((4.2, 3.0, 1.8), start=1):
            _box(ax, (0.3, y), (1.5, 0.8), f"{text['key']} {row}", "#fde2c8")
            _box(ax, (1.9, y), (1.5, 0.8), f"{text['value']} {row}", "#d6e6f5")
            _arrow(ax, (3.45, y + 0.4), (5.25, 3.0 + 0.25 * (2 - row) + 0.4))
        _box(ax, (4.6, 0.2), (2.2, 0.9), text["query"], "#f9d2d3")
        _arrow(ax, (5.7, 1.1), (5.95, 2.6), CUP_RED)
        _box(ax, (5.3, 2.6), (2.2, 1.6), text["pooling"], "#efefef", fontsize=8.5)
        ax.text(6.4, 4.5, text["weights"], ha="center", fontsize=7.5, color="0.3")
        _arrow(ax, (7.5, 3.4), (8.3, 3.4))
        _box(ax, (8.3, 3.0), (1.9, 0.8), text["output"], "#e2f0d9")
    return fig


def logo(*, ink: str = "#ffffff", background: str | None = None) -> Figure:
    """The site's logo and favicon: a 4 × 4 attention-weight matrix.

    Each query attends most to the key with its own index and a little to the
    neighbouring keys, so the diagonal is lit, as in the first heatmap of the
    site.

    Parameters:
        ink: Colour of the cells; their opacity is the attention weight.
        background: Fill behind the cells (a rounded square), or None for a
            transparent logo that sits on the header's colour.

    Returns:
        A square figure, 32 pixels at the SVG's 72 dpi.
    """
    fig = Figure(figsize=(32 / 72, 32 / 72))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set(xlim=(0, 4.4), ylim=(0, 4.4), aspect="equal")
    ax.axis("off")
    fig.patch.set_alpha(0)
    if background is not None:
        ax.add_patch(
            FancyBboxPatch(
                (0, 0),
                4.4,
                4.4,
                boxstyle="round,pad=0,rounding_size=0.8",
                fc=background,
                ec="none",
            )
        )
    distance = np.abs(np.subtract.outer(np.arange(4), np.arange(4)))  # (4, 4)
    weights = np.choose(np.minimum(distance, 2), [1.0, 0.45, 0.15])  # (4, 4)
    for (query, key), weight in np.ndenumerate(weights):
        ax.add_patch(
            Rectangle((0.3 + key, 3.3 - query), 0.8, 0.8, fc=ink, alpha=weight)
        )
    return fig
