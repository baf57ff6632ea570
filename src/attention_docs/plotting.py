"""Figures built from library results; every function returns a matplotlib Figure.

Figures are made with ``matplotlib.figure.Figure`` directly, never through
pyplot, so nothing is registered globally and nothing needs closing. Style is
set per figure with ``rc_context``, so the caller's rcParams are untouched.
Heatmaps, images of functions of two inputs and regression panels are drawn
here; curves against a shared x are in :mod:`.curves` and exported from here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .checks import finite_array
from .curves import curves
from .style import BLUE, GREEN, ORANGE, figure_style

__all__ = ["heatmaps", "surfaces", "regression_panels", "curves"]


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
    matrices = _check_heatmaps(matrices, titles)
    rows, cols = matrices.shape[:2]
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


def surfaces(
    grids: np.ndarray,
    *,
    extent: tuple[float, float],
    titles: Sequence[str],
    xlabel: str,
    ylabel: str,
    lang: str = "en",
    cmap: str = "viridis",
    panel_size: float = 2.2,
) -> Figure:
    """Draw functions of two inputs as images side by side, with one colour bar.

    Parameters:
        grids: Values on a square grid, shape (n_panels, n, n); row i of a
            grid is the i-th value of the second input, from the bottom.
        extent: The lowest and highest value of both inputs.
        titles: One title per panel.
        xlabel: Label of the first input, under every panel.
        ylabel: Label of the second input, left of the first panel.
        lang: Language of the labels, which decides the fonts.
        cmap: A matplotlib colour map name.
        panel_size: Width and height of one panel, in inches.

    Returns:
        The figure.
    """
    grids = finite_array("grids", grids, 3)
    if grids.shape[1] != grids.shape[2] or 0 in grids.shape:
        raise ValueError(f"grids must have shape (n_panels, n, n), got {grids.shape}")
    if len(titles) != grids.shape[0]:
        raise ValueError(
            f"need one title per panel ({grids.shape[0]}), got {len(titles)}"
        )
    low, high = extent
    with figure_style(lang):
        fig = Figure(
            figsize=(panel_size * grids.shape[0] + 0.8, panel_size),
            layout="constrained",
        )
        axes = fig.subplots(1, grids.shape[0], sharey=True, squeeze=False)[0]
        for ax, grid, title in zip(axes, grids, titles, strict=True):
            image = ax.imshow(
                grid,
                origin="lower",
                extent=(low, high, low, high),
                cmap=cmap,
                vmin=grids.min(),
                vmax=grids.max(),
                interpolation="none",
            )
            ax.set(title=title, xlabel=xlabel)
        axes[0].set_ylabel(ylabel)
        fig.colorbar(image, ax=axes, shrink=0.8)
    return fig


def _check_heatmaps(matrices: object, titles: Sequence[str] | None) -> np.ndarray:
    """The matrices as a finite, non-empty 4-D array, with one title per column."""
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
    cols = matrices.shape[1]
    if titles is not None and len(titles) != cols:
        raise ValueError(
            f"titles must have one entry per column ({cols}), got {len(titles)}"
        )
    return matrices


def regression_panels(
    x_test: np.ndarray,
    y_truth: np.ndarray,
    predictions: np.ndarray,
    x_train: np.ndarray | None,
    y_train: np.ndarray | None,
    *,
    names: dict[str, str],
    titles: Sequence[Sequence[str]] | None = None,
    row_labels: Sequence[str] | None = None,
    lang: str = "en",
    panel_size: tuple[float, float] = (3.6, 2.6),
) -> Figure:
    """Plot samples, the truth and one or more predictions, one per panel.

    Parameters:
        x_test: Test inputs, shape (n_test,).
        y_truth: The noise-free target at ``x_test``, shape (n_test,).
        predictions: Predictions at ``x_test``, shape (rows, cols, n_test).
        x_train: Training inputs, shape (n_train,), or None to leave the
            samples out (a grid of many panels stays small that way).
        y_train: Training targets, shape (n_train,), or None.
        names: Text for ``"truth"``, ``"prediction"``, ``"samples"``, ``"x"``
            and ``"y"`` (legend entries and axis labels).
        titles: Panel titles of shape (rows, cols), or None.
        row_labels: One label per row, written downwards at the right of
            the row, or None. What a whole row shares goes here rather than
            into each title, so that titles stay short enough not to meet.
        lang: Language of the text, which decides the fonts.
        panel_size: Width and height of one panel, in inches.

    Returns:
        The figure; the legend is on the first panel.
    """
    x_test, predictions = _check_regression(
        x_test, y_truth, predictions, x_train, y_train, titles, row_labels
    )
    rows, cols = predictions.shape[:2]
    margin = 0.0 if row_labels is None else _ROW_LABEL_WIDTH
    with figure_style(lang):
        fig = Figure(
            figsize=(panel_size[0] * cols + margin, panel_size[1] * rows),
            layout="constrained",
        )
        axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
        for (i, j), ax in np.ndenumerate(axes):
            samples = None if x_train is None or y_train is None else (x_train, y_train)
            _regression_panel(ax, x_test, y_truth, predictions[i, j], samples, names)
            if titles is not None:
                ax.set_title(titles[i][j])
            if row_labels is not None and j == cols - 1:
                _row_label(ax, row_labels[i])
            if i == rows - 1:
                ax.set_xlabel(names["x"])
            if j == 0:
                ax.set_ylabel(names["y"])
        axes[0, 0].legend(loc="lower left", fontsize=7, frameon=False)
    return fig


def _check_regression(
    x_test: np.ndarray,
    y_truth: np.ndarray,
    predictions: np.ndarray,
    x_train: np.ndarray | None,
    y_train: np.ndarray | None,
    titles: Sequence[Sequence[str]] | None,
    row_labels: Sequence[str] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """``x_test`` and ``predictions`` as arrays, once every shape agrees."""
    x_test = finite_array("x_test", x_test, 1)
    predictions = finite_array("predictions", predictions, 3)
    if predictions.shape[2] != x_test.size or np.shape(y_truth) != x_test.shape:
        raise ValueError(
            f"predictions {predictions.shape} and y_truth {np.shape(y_truth)} "
            f"must end in n_test = {x_test.size}"
        )
    if (x_train is None) != (y_train is None):
        raise ValueError("x_train and y_train must both be given or both be None")
    if x_train is not None and y_train is not None:
        if np.shape(x_train) != np.shape(y_train):
            raise ValueError(
                f"x_train {np.shape(x_train)} and y_train {np.shape(y_train)} differ"
            )
    rows, cols = predictions.shape[:2]
    if titles is not None and np.shape(titles) != (rows, cols):
        raise ValueError(
            f"titles must have shape {(rows, cols)}, got {np.shape(titles)}"
        )
    if row_labels is not None and len(row_labels) != rows:
        raise ValueError(
            f"row_labels must have one entry per row ({rows}), got {len(row_labels)}"
        )
    return x_test, predictions


# Room a row label takes at the right of a grid, in inches: a line of text.
_ROW_LABEL_WIDTH = 0.25


def _row_label(ax: Axes, text: str) -> None:
    """A row's label, read downwards just right of the row's last panel.

    Downwards (rotated a quarter turn clockwise) is how Chinese text set
    vertically reads too. The label is part of the axes' layout, so a
    constrained layout makes room for it.
    """
    ax.annotate(
        text,
        xy=(1, 0.5),
        xycoords="axes fraction",
        xytext=(6, 0),
        textcoords="offset points",
        rotation=270,
        ha="left",
        va="center",
    )


def _regression_panel(
    ax: Axes,
    x_test: np.ndarray,
    y_truth: np.ndarray,
    prediction: np.ndarray,
    samples: tuple[np.ndarray, np.ndarray] | None,
    names: dict[str, str],
) -> None:
    """One panel: the samples (if any), the truth and the prediction."""
    if samples is not None:
        ax.plot(*samples, "o", color=BLUE, alpha=0.5, ms=3, label=names["samples"])
    ax.plot(x_test, y_truth, "-", color=ORANGE, label=names["truth"])
    ax.plot(x_test, prediction, "--", color=GREEN, lw=1.8, label=names["prediction"])
