"""Helpers two or more figure modules share: a fit, a weights heatmap, a table."""

from __future__ import annotations

import html

import numpy as np

from ..labels import label
from ..plotting import heatmaps, regression_panels
from ..svg import Drawing
from .experiments import (
    chapter_data,
)


def series_names(lang: str) -> dict[str, str]:
    """The names of a fit's series and axes in a language."""
    keys = ("truth", "prediction", "samples", "x", "y")
    return {key: label(key, lang) for key in keys}


def rate_line(sizes: np.ndarray, errors: np.ndarray, rate: float) -> np.ndarray:
    """The power law n^(-rate) through the errors' geometric mean, at ``sizes``.

    A reference line for a log-log plot of errors against n: its slope is the
    theory's, its height the measurement's.
    """
    anchor = np.exp(np.mean(np.log(errors) + rate * np.log(sizes)))
    return anchor * sizes**-rate


def decimal_or_power(value: float) -> str:
    """A non-negative ``value`` to two significant digits, as a table prints it.

    From 0.01 up a decimal (0.89); below it, a power of ten in HTML with a
    true minus sign, 2.9 × 10<sup>−16</sup>, as in the cost table, rather than
    the program's 2.9e-16.
    """
    if value == 0:
        return "0"
    mantissa, exponent = f"{value:.1e}".split("e")  # rounded first: 9.96e-3 is 1.0e-02
    power = int(exponent)
    if power >= -2:
        return f"{float(mantissa) * 10.0**power:.{max(0, 1 - power)}f}"
    return f"{mantissa} × 10<sup>−{-power}</sup>"


def html_table(header: list[str], rows: list[list[str]]) -> str:
    """An HTML table for a page; header cells are escaped, cells given as HTML."""
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def fit_drawing(prediction: np.ndarray, title: str, alt: str, lang: str) -> Drawing:
    """A prediction on the chapter's test inputs, with the truth and the samples."""
    data = chapter_data()
    fig = regression_panels(
        data.x_test,
        data.y_truth,
        prediction.reshape(1, 1, -1),
        data.x_train,
        data.y_train,
        names=series_names(lang),
        titles=[[title]],
        lang=lang,
    )
    return Drawing(fig, alt)


def weights_drawing(
    weights: np.ndarray, method: str, narrow: bool, lang: str
) -> Drawing:
    """Attention weights of the test inputs over the sorted training inputs."""
    fig = heatmaps(
        weights[None, None],
        xlabel=label("sorted_training_inputs", lang),
        ylabel=label("test_inputs", lang),
        lang=lang,
        panel_size=3.4,
    )
    detail = label("weights_detail_narrow" if narrow else "weights_detail_wide", lang)
    alt = label("weights_alt", lang, method=method, detail=detail)
    return Drawing(fig, alt)
