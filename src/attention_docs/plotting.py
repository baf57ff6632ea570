"""Figures built from library results; every function returns a matplotlib Figure.

Figures are made with ``matplotlib.figure.Figure`` directly, never through
pyplot, so nothing is registered globally and nothing needs closing. Style is
set per figure with ``rc_context``, so the caller's rcParams are untouched.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

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


def heatmaps(
    matrices: np.ndarray,
    *,
    xlabel: str,
    ylabel: str,
    titles: Sequence[str] | None = None,
    lang: str = "en",
    cmap: str = "Reds",
    panel_size: float = 2.5,
) -> Figure:
    """Draw a grid of attention-weight matrices as heatmaps with one colour bar.

    Parameters:
        matrices: Weights of shape (rows, cols, n_queries, n_keys); panel
            (i, j) shows ``matrices[i, j]`` with queries down and keys across.
        xlabel: Label under the bottom row, usually "Keys".
        ylabel: Label left of the first column, usually "Queries".
        titles: One title per column, or None.
        lang: Language of the labels, which decides the fonts.
        cmap: A matplotlib colour map name.
        panel_size: Width and height of one panel, in inches.

    Returns:
        The figure.
    """
    matrices = np.asarray(matrices, dtype=float)
    if matrices.ndim != 4:
        raise ValueError(
            "matrices must have shape (rows, cols, n_queries, n_keys), "
            f"got {matrices.shape}"
        )
    if 0 in matrices.shape:
        raise ValueError(f"matrices must not be empty, got shape {matrices.shape}")
    if not np.all(np.isfinite(matrices)):
        raise ValueError("matrices contains NaN or infinite values")
    rows, cols = matrices.shape[:2]
    if titles is not None and len(titles) != cols:
        raise ValueError(
            f"titles must have one entry per column ({cols}), got {len(titles)}"
        )
    with figure_style(lang):
        fig = Figure(
            figsize=(panel_size * cols + 0.8, panel_size * rows), layout="constrained"
        )
        axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
        for ax in axes.flat:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        vmin, vmax = matrices.min(), matrices.max()
        for (i, j), ax in np.ndenumerate(axes):
            image = ax.imshow(
                matrices[i, j], cmap=cmap, vmin=vmin, vmax=vmax, interpolation="none"
            )
            if i == rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles is not None and i == 0:
                ax.set_title(titles[j])
        fig.colorbar(image, ax=axes, shrink=0.6)
    return fig
