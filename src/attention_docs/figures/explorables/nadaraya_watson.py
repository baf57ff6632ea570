"""The Nadaraya-Watson explorer: a kernel, a bandwidth and a query to move.

Its settings, the library's results at the reference settings, the static
drawing and the explorable itself (:func:`nadaraya_watson_explorer`).
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...data import Dataset, true_function
from ...explorable import Explorable
from ...labels import label, spaces_han_and_latin
from ...pooling import nadaraya_watson
from ...style import BLUE, GREEN, ORANGE, RED, figure_style
from ...svg import Drawing
from ..dataset import chapter_data
from .script import ScriptData, slider_positions, texts


class NwSetting(TypedDict):
    """A setting of the Nadaraya-Watson explorer's controls."""

    kernel: str
    bandwidth: float
    query: float


class NwResult(TypedDict):
    """One setting's results by :func:`~attention_docs.pooling.nadaraya_watson`.

    The curve over the query grid, and the query's weights and prediction.
    """

    kernel: str
    bandwidth: float
    query: float
    curve: np.ndarray
    weights: np.ndarray
    prediction: float


class NadarayaWatsonData(ScriptData):
    """The Nadaraya-Watson explorer's data."""

    keys: np.ndarray
    values: np.ndarray
    grid: list[float]
    truth: np.ndarray
    kernels: dict[str, str]
    queries: tuple[float, float, float]
    bandwidths: tuple[float, float, float]
    default: NwSetting


# Nadaraya-Watson, live: the kernels offered, the sliders' ranges as
# (lowest, highest, step), the setting the page opens at, and the settings
# whose results the library computes for the tests.
NW_KERNELS = ("gaussian", "boxcar", "epanechnikov")


NW_QUERIES = (0.0, 5.0, 0.05)


NW_BANDWIDTHS = (0.05, 2.0, 0.05)


NW_DEFAULT: NwSetting = {"kernel": "gaussian", "bandwidth": 0.5, "query": 1.5}


NW_REFERENCES: tuple[NwSetting, ...] = (
    NW_DEFAULT,
    {"kernel": "gaussian", "bandwidth": 1.0, "query": 0.0},
    {"kernel": "boxcar", "bandwidth": 0.25, "query": 2.5},
    {"kernel": "epanechnikov", "bandwidth": 0.75, "query": 4.95},
    {"kernel": "gaussian", "bandwidth": 2.0, "query": 5.0},
)


# The narrowest boxcar leaves gaps between keys: one reference sits in one.
NW_GAP_KERNEL, NW_GAP_BANDWIDTH = "boxcar", NW_BANDWIDTHS[0]


def _nw_result(kernel: str, bandwidth: float, query: float) -> NwResult:
    """The library's curve over every query position, and one query's weights."""
    data = chapter_data()
    grid = slider_positions(*NW_QUERIES)
    curve, _ = nadaraya_watson(
        data.x_train,
        data.y_train,
        np.array(grid),
        kernel=kernel,
        bandwidth=bandwidth,
        return_weights=False,
    )
    prediction, weights = nadaraya_watson(
        data.x_train,
        data.y_train,
        np.array([query]),
        kernel=kernel,
        bandwidth=bandwidth,
    )
    return {
        "kernel": kernel,
        "bandwidth": bandwidth,
        "query": query,
        "curve": curve,
        "weights": weights[0],
        "prediction": float(prediction[0]),
    }


def gap_query() -> float:
    """The first query position no key reaches with the narrowest boxcar."""
    keys = chapter_data().x_train
    for query in slider_positions(*NW_QUERIES):
        if np.abs(keys - query).min() > NW_GAP_BANDWIDTH:
            return query
    raise ValueError(f"every query position has a key within {NW_GAP_BANDWIDTH}")


def _nw_drawing(result: NwResult, lang: str) -> Drawing:
    """The fit with the query and its prediction; below, the query's weights."""
    data = chapter_data()
    query, prediction = result["query"], result["prediction"]
    kernel = label(result["kernel"], lang)
    with figure_style(lang):
        fig = Figure(figsize=(5.2, 3.6), layout="constrained")
        fit, weights = fig.subplots(2, 1, sharex=True, height_ratios=(3, 1.3))
        _nw_fit_panel(fit, data, result, kernel, lang)
        weights.vlines(data.x_train, 0, result["weights"], color=BLUE, lw=2)
        weights.set(xlabel="x", ylabel=label("ex_weight_axis", lang), ylim=(0, None))
        for ax in (fit, weights):
            ax.axvline(query, color="0.3", lw=1, ls=":")
    alt = label(
        "ex_explorer_alt",
        lang,
        kernel=kernel,
        h=result["bandwidth"],
        x=query,
        prediction=prediction,
    )
    return Drawing(fig, alt)


def _nw_fit_panel(
    fit: Axes, data: Dataset, result: NwResult, kernel: str, lang: str
) -> None:
    """The samples, the truth, the fitted curve and the query's prediction."""
    grid = slider_positions(*NW_QUERIES)
    query, prediction = result["query"], result["prediction"]
    fit.plot(
        data.x_train,
        data.y_train,
        "o",
        color=BLUE,
        alpha=0.5,
        ms=3,
        label=label("samples", lang),
    )
    fit.plot(
        grid,
        true_function(np.array(grid)),
        color=ORANGE,
        label=label("truth", lang),
    )
    fit.plot(
        grid,
        result["curve"],
        "--",
        color=GREEN,
        lw=1.8,
        label=label("prediction", lang),
    )
    fit.plot(
        [query],
        [prediction],
        "o",
        color=RED,
        ms=6,
        label=label("ex_query_mark", lang),
    )
    title = label("kernel_title", lang, kernel=kernel, bandwidth=result["bandwidth"])
    fit.set(ylabel="y", title=title)
    fit.legend(fontsize=7, framealpha=0.9, edgecolor="none")


def nadaraya_watson_explorer(lang: str = "en") -> Explorable:
    """Nadaraya-Watson regression with a kernel, a bandwidth and a query to move.

    The script computes the weights of the query the reader picks and the
    fitted curve, with the same arithmetic as
    :func:`~attention_docs.pooling.nadaraya_watson`; the references are that
    function's results.
    """
    data = chapter_data()
    grid = slider_positions(*NW_QUERIES)
    gap: NwSetting = {
        "kernel": NW_GAP_KERNEL,
        "bandwidth": NW_GAP_BANDWIDTH,
        "query": gap_query(),
    }
    references = [_nw_result(**setting) for setting in (*NW_REFERENCES, gap)]
    payload: NadarayaWatsonData = {
        "lang": lang,
        "spaced": spaces_han_and_latin(lang),
        "keys": data.x_train,
        "values": data.y_train,
        "grid": grid,
        "truth": true_function(np.array(grid)),
        "kernels": {name: label(name, lang) for name in NW_KERNELS},
        "queries": NW_QUERIES,
        "bandwidths": NW_BANDWIDTHS,
        "default": NW_DEFAULT,
        "text": texts(
            lang,
            (
                "ex_kernel",
                "ex_bandwidth",
                "ex_query",
                "ex_query_mark",
                "ex_weight_axis",
                "ex_nw_title",
                "ex_nw_value",
                "ex_x_value",
                "ex_nw_readout",
                "ex_top_weights",
                "ex_key_weight",
                "ex_list_sep",
                "ex_no_key",
                "ex_nw_alt",
                "truth",
                "prediction",
                "samples",
            ),
        ),
    }
    drawing = _nw_drawing(references[0], lang)
    return Explorable("nadaraya-watson", drawing, payload, references)
