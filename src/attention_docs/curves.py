"""Curves against a shared x, with vertical marks and an optimiser's numbered path.

Exported by :mod:`.plotting`, as :func:`curves`, with the other data plots,
and made the same way: a ``matplotlib.figure.Figure`` built directly, its
style set per figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypedDict

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FormatStrFormatter, LogLocator, NullLocator

from .checks import finite_array
from .style import DATA_COLOURS, ORANGE, figure_style


class _LineProps(TypedDict, total=False):
    """Keyword arguments of a line, as :meth:`Axes.plot` and ``axvline`` take them."""

    color: str
    lw: float
    alpha: float
    ls: str


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
    zoom: tuple[float, float] | None = None,
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
        zoom: An x range to show again, enlarged, in a second panel on the
            right (its y range fitted to the curves there).

    Returns:
        The figure.
    """
    x = finite_array("x", x, 1)
    if not series:
        raise ValueError("series must hold at least one (label, y) pair")
    ys = [finite_array(f"series {label!r}", y, 1) for label, y in series]
    for (label, _), y in zip(series, ys, strict=True):
        if y.shape != x.shape:
            raise ValueError(f"series {label!r} has shape {y.shape}, x {x.shape}")
    with figure_style(lang):
        fig = Figure(figsize=size, layout="constrained")
        axes = [fig.subplots()] if zoom is None else list(fig.subplots(1, 2))
        for ax in axes:
            for index, ((label, _), y) in enumerate(zip(series, ys, strict=True)):
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
        if zoom is not None:
            _zoom(axes[1], x, ys, zoom)
        if len(series) + len(marks) + len(paths) > 1:
            axes[0].legend(fontsize=7, framealpha=0.9, edgecolor="none")
    return fig


def _zoom(
    ax: Axes, x: np.ndarray, ys: list[np.ndarray], zoom: tuple[float, float]
) -> None:
    """Show only x in ``zoom``, with the y range of the curves there."""
    inside = (x >= zoom[0]) & (x <= zoom[1])
    if not inside.any():
        raise ValueError(f"zoom {zoom} holds none of the x values")
    low = min(float(y[inside].min()) for y in ys)
    high = max(float(y[inside].max()) for y in ys)
    margin = 0.08 * (high - low) or 1.0
    ax.set(xlim=zoom, ylim=(low - margin, high + margin), ylabel="")


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
    x = finite_array(f"path {label!r} x", x, 1)
    y = finite_array(f"path {label!r} y", y, 1)
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
