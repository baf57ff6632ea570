"""Figures built from library results; every function returns a matplotlib Figure.

Figures are made with ``matplotlib.figure.Figure`` directly, never through
pyplot, so nothing is registered globally and nothing needs closing. Style is
set per figure with ``rc_context``, so the caller's rcParams are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypedDict

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import (
    FormatStrFormatter,
    LogLocator,
    MaxNLocator,
    NullLocator,
)

from .style import BLUE, DATA_COLOURS, GREEN, ORANGE, figure_style


class _LineProps(TypedDict, total=False):
    """Keyword arguments of a line, as :meth:`Axes.plot` and ``axvline`` take them."""

    color: str
    lw: float
    alpha: float
    ls: str


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
    grids = _finite("grids", grids, 3)
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


def _finite(name: str, values: object, ndim: int) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


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
    x_test = _finite("x_test", x_test, 1)
    predictions = _finite("predictions", predictions, 3)
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


def curves(
    x: np.ndarray,
    series: Sequence[tuple[str, np.ndarray]],
    *,
    xlabel: str,
    ylabel: str,
    marks: Sequence[tuple[float, str]] = (),
    paths: Sequence[tuple[str, np.ndarray, np.ndarray]] = (),
    styles: Sequence[str] = (),
    colours: Sequence[str] = (),
    log_x: bool = False,
    log_y: bool = False,
    xticks: Sequence[float] = (),
    lang: str = "en",
    size: tuple[float, float] = (4.8, 3.0),
) -> Figure:
    """Plot one or more curves against a shared x, with labelled vertical marks.

    Parameters:
        x: Shared x values, shape (n,).
        series: ``(label, y)`` pairs, each y of shape (n,).
        xlabel: Label of the x axis.
        ylabel: Label of the y axis.
        marks: ``(x, label)`` pairs drawn as dotted vertical lines.
        paths: ``(label, x, y)`` triples drawn as points joined by thin lines,
            each with its own x, e.g. the iterates of an optimiser; points 0, 1
            and the last carry their index, once where paths share a point
            and its index (a common start), in ink.
        styles: Matplotlib line styles of the series, in order (e.g. ``":"``
            for a reference line); series beyond them are solid.
        log_x: Use a logarithmic x axis.
        log_y: Use a logarithmic y axis.
        xticks: Positions of labelled x ticks, instead of the automatic ones.
        lang: Language of the text, which decides the fonts.
        size: Figure width and height, in inches.

    Returns:
        The figure.
    """
    x = _finite("x", x, 1)
    if not series:
        raise ValueError("series must hold at least one (label, y) pair")
    with figure_style(lang):
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.subplots()
        for index, (label, y) in enumerate(series):
            y = _finite(f"series {label!r}", y, 1)
            if y.shape != x.shape:
                raise ValueError(f"series {label!r} has shape {y.shape}, x {x.shape}")
            style = styles[index] if index < len(styles) else "-"
            props: _LineProps = (
                {"color": colours[index]} if index < len(colours) else {}
            )
            ax.plot(x, y, style, label=label, **props)
        numbers: list[_StepNumber] = []
        for index, (label, path_x, path_y) in enumerate(paths):
            colour = DATA_COLOURS[(index + 1) % len(DATA_COLOURS)]
            numbers += _draw_path(ax, label, path_x, path_y, colour)
        _number_steps(ax, numbers)
        _draw_marks(ax, marks)
        ax.set(xlabel=xlabel, ylabel=ylabel)
        _set_scales(ax, log_x=log_x, log_y=log_y, xticks=xticks)
        if len(series) + len(marks) + len(paths) > 1:
            ax.legend(fontsize=7, framealpha=0.9, edgecolor="none")
    return fig


def _draw_marks(ax: Axes, marks: Sequence[tuple[float, str]]) -> None:
    """Vertical marks: the first wide and light, the others thin and dark.

    So marks that coincide stay visible.
    """
    styles: list[_LineProps] = [
        {"color": ORANGE, "lw": 4, "alpha": 0.45, "ls": "solid"}
    ]
    styles += [{"color": "0.15", "lw": 1.2, "ls": ls} for ls in ("--", "-.", ":")]
    for index, (position, label) in enumerate(marks):
        ax.axvline(position, label=label, **styles[min(index, 3)])


def _set_scales(ax: Axes, *, log_x: bool, log_y: bool, xticks: Sequence[float]) -> None:
    """Logarithmic axes and labelled x ticks, as :func:`curves` was asked."""
    if log_x:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_minor_locator(NullLocator())
    if log_y:
        ax.set_yscale("log")
    if xticks:
        ax.set_xticks(xticks, [f"{tick:g}" for tick in xticks])
        ax.xaxis.set_minor_locator(NullLocator())


class _StepNumber(NamedTuple):
    """A path's step to number: its index, its point, and its path's colour."""

    step: int
    x: float
    y: float
    colour: str
    below: bool  # written under the point rather than above it


def _draw_path(
    ax: Axes, label: str, x: np.ndarray, y: np.ndarray, color: str
) -> list[_StepNumber]:
    """Points joined by a thin line; returns the steps to number (0, 1, last)."""
    x = _finite(f"path {label!r} x", x, 1)
    y = _finite(f"path {label!r} y", y, 1)
    if x.shape != y.shape or x.size == 0:
        raise ValueError(f"path {label!r} has x {x.shape} and y {y.shape}")
    ax.plot(x, y, "o-", color=color, lw=0.8, ms=3.5, label=label)
    numbers = []
    for step in sorted({0, min(1, x.size - 1), x.size - 1}):
        below = step == x.size - 1 and step > 1  # the last step sits under the rest
        numbers.append(_StepNumber(step, float(x[step]), float(y[step]), color, below))
    return numbers


def _number_steps(ax: Axes, numbers: list[_StepNumber]) -> None:
    """Write each step's number by its point, in its path's colour.

    A number that several paths have at the same point (a common start) is
    written once, in ink: twice, in two colours, the copies overlapped.
    """
    for index, number in enumerate(numbers):
        same = [
            other
            for other, candidate in enumerate(numbers)
            if candidate.step == number.step
            and np.allclose((candidate.x, candidate.y), (number.x, number.y))
        ]
        if same[0] != index:
            continue  # written with the first
        ax.annotate(
            str(number.step),
            (number.x, number.y),
            xytext=(3, -9 if number.below else 3),
            textcoords="offset points",
            fontsize=7,
            color=number.colour if len(same) == 1 else "0.15",
        )
