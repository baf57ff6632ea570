"""Explorable figures: Nadaraya-Watson live, soft lookup, gradient descent on CV(h).

Each function returns an :class:`~attention_docs.explorable.Explorable`: the
static drawing at the figure's default setting, and the data the page's script
needs, computed here by the library. The data carries reference results at
chosen settings; the browser tests check that the script draws exactly those
numbers when its controls are set there.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
from matplotlib.figure import Figure

from ..bandwidth import cv_bandwidth
from ..data import true_function
from ..explorable import Explorable
from ..labels import label, spaces_han_and_latin
from ..pooling import nadaraya_watson
from ..scores import LOOKUP_SCORES, soft_lookup
from ..style import BLUE, GREEN, ORANGE, RED, figure_style
from ..svg import Drawing
from .experiments import CV_GRID, SHORT_RECIPE, SLOW_RECIPE, chapter_data, trained
from .parametric import gradient_descent_path


class NwSetting(TypedDict):
    """A setting of the Nadaraya-Watson explorer's controls."""

    kernel: str
    bandwidth: float
    query: float


class LookupSetting(TypedDict):
    """A setting of the soft lookup explorer's controls."""

    score: str
    step: int
    query: tuple[float, float]


# The data each figure's script reads (the page carries it as JSON). The
# script's text comes from "text", in the page's language; "spaced" says
# whether that language spaces Chinese from Latin text (labels).
class _Data(TypedDict):
    lang: str
    spaced: bool
    text: dict[str, str]


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


class NadarayaWatsonData(_Data):
    """The Nadaraya-Watson explorer's data."""

    keys: np.ndarray
    values: np.ndarray
    grid: list[float]
    truth: np.ndarray
    kernels: dict[str, str]
    queries: tuple[float, float, float]
    bandwidths: tuple[float, float, float]
    default: NwSetting
    references: list[NwResult]


class LookupResult(TypedDict):
    """One setting's result by :func:`~attention_docs.scores.soft_lookup`."""

    score: str
    step: int
    query: tuple[float, float]
    weights: np.ndarray
    output: float


class SoftLookupData(_Data):
    """The soft lookup explorer's data."""

    names: tuple[str, ...]
    keys: tuple[tuple[float, float], ...]
    values: tuple[float, ...]
    scores: dict[str, str]
    queries: tuple[float, float, float]
    steps: int
    default: LookupSetting
    references: list[LookupResult]


class GdRun(TypedDict):
    """One training run: its name in the legend and its iterates w."""

    name: str
    w: np.ndarray


class GdFit(TypedDict):
    """The fit at one step of one run, by the library's Nadaraya-Watson."""

    run: int
    step: int
    bandwidth: float
    fit: np.ndarray


class GradientDescentData(_Data):
    """The gradient-descent explorer's data."""

    keys: np.ndarray
    values: np.ndarray
    grid: np.ndarray
    truth: np.ndarray
    cv_grid: tuple[float, float, int]  # lowest h, highest h, number of points
    h_cv: float
    runs: list[GdRun]
    references: list[GdFit]


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


# Attention as a soft lookup: five keys in the plane, one number each.
LOOKUP_NAMES = ("A", "B", "C", "D", "E")


LOOKUP_KEYS = ((2.0, 0.5), (0.5, 2.0), (-1.5, 1.0), (-1.0, -1.5), (1.0, -1.0))


LOOKUP_VALUES = (3.0, 7.0, 1.0, 9.0, 5.0)


LOOKUP_QUERIES = (-2.5, 2.5, 0.1)  # each coordinate


# The temperature slider's positions k run over -20..20 for T = 10^(k/10);
# one step further at each end are the limits T = 0 and T = ∞.
LOOKUP_STEPS = 20


LOOKUP_DEFAULT: LookupSetting = {"score": "dot_product", "step": 0, "query": (1.0, 0.5)}


LOOKUP_REFERENCES: tuple[LookupSetting, ...] = (
    LOOKUP_DEFAULT,
    {"score": "dot_product", "step": -21, "query": (1.0, 0.5)},
    {"score": "dot_product", "step": 21, "query": (1.0, 0.5)},
    {"score": "scaled_dot_product", "step": -5, "query": (-1.2, 0.4)},
    {"score": "negative_squared_distance", "step": 3, "query": (0.3, -2.0)},
    {"score": "negative_squared_distance", "step": -21, "query": (0.3, -2.0)},
    {"score": "scaled_dot_product", "step": -20, "query": (2.5, 2.5)},
)


# Gradient descent on CV(h): the two recipes of the chapter, and the steps
# whose fits the library computes for the tests, as (run, step).
GD_RECIPES = (SHORT_RECIPE, SLOW_RECIPE)


GD_REFERENCES = ((0, 1), (0, 5), (1, 1), (1, 300))


def slider_positions(low: float, high: float, step: float) -> list[float]:
    """Every value a range input from ``low`` to ``high`` by ``step`` can take.

    Rounded to 10 decimals, so each is the double nearest the decimal the
    browser writes in the input's value (``"1.35"``, not ``1.35000000000002``).
    """
    count = round((high - low) / step)
    return [round(low + i * step, 10) for i in range(count + 1)]


def lookup_temperature(step: int) -> float:
    """The temperature at a position of the soft lookup's slider."""
    if not -LOOKUP_STEPS - 1 <= step <= LOOKUP_STEPS + 1:
        raise ValueError(
            f"step must be in [{-LOOKUP_STEPS - 1}, {LOOKUP_STEPS + 1}], got {step}"
        )
    if abs(step) == LOOKUP_STEPS + 1:
        return 0.0 if step < 0 else np.inf
    return 10 ** (step / 10)


def _texts(lang: str, keys: tuple[str, ...]) -> dict[str, str]:
    """The figure's text in a language, ``{name}`` fields left for the script."""
    return {key: label(key, lang) for key in keys}


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
    grid = slider_positions(*NW_QUERIES)
    query, prediction = result["query"], result["prediction"]
    kernel = label(result["kernel"], lang)
    with figure_style(lang):
        fig = Figure(figsize=(5.2, 3.6), layout="constrained")
        fit, weights = fig.subplots(2, 1, sharex=True, height_ratios=(3, 1.3))
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
        title = label(
            "kernel_title", lang, kernel=kernel, bandwidth=result["bandwidth"]
        )
        fit.set(ylabel="y", title=title)
        fit.legend(fontsize=7, framealpha=0.9, edgecolor="none")
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
        "references": references,
        "text": _texts(
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
    return Explorable("nadaraya-watson", drawing, payload)


def _lookup_result(score: str, step: int, query: tuple[float, float]) -> LookupResult:
    outputs, weights = soft_lookup(
        [query],
        LOOKUP_KEYS,
        LOOKUP_VALUES,
        score=score,
        temperature=lookup_temperature(step),
    )
    return {
        "score": score,
        "step": step,
        "query": query,
        "weights": weights[0],
        "output": float(outputs[0]),
    }


def _lookup_drawing(result: LookupResult, lang: str) -> Drawing:
    keys, weights = np.array(LOOKUP_KEYS), result["weights"]
    with figure_style(lang):
        fig = Figure(figsize=(5.6, 2.8), layout="constrained")
        plane, bars = fig.subplots(1, 2, width_ratios=(1, 1.1))
        plane.scatter(*keys.T, s=30 + 400 * weights, color=BLUE, alpha=0.7)
        for name, (k1, k2), value in zip(
            LOOKUP_NAMES, keys, LOOKUP_VALUES, strict=True
        ):
            plane.annotate(
                f"{name} ({value:g})",
                (k1, k2),
                xytext=(6, 4),
                textcoords="offset points",
                fontsize=8,
            )
        plane.plot(*result["query"], "*", color=RED, ms=11)
        plane.annotate(
            "q",
            result["query"],
            xytext=(6, -10),
            textcoords="offset points",
            fontsize=8,
            color=RED,
        )
        low, high, _ = LOOKUP_QUERIES
        plane.set(
            xlim=(low, high),
            ylim=(low, high),
            aspect="equal",
            title=label("ex_plane_title", lang),
        )
        bars.bar(LOOKUP_NAMES, weights, color=BLUE)
        for index, weight in enumerate(weights):
            bars.annotate(
                f"{weight:.2f}",
                (index, weight),
                xytext=(0, 2),
                textcoords="offset points",
                ha="center",
                fontsize=8,
            )
        bars.set(
            ylim=(0, 1.12),
            title=label("ex_weights_title", lang),
            xlabel=label("ex_output", lang, output=f"{result['output']:.2f}"),
        )
    q1, q2 = result["query"]
    alt = label(
        "ex_lookup_static_alt",
        lang,
        q1=q1,
        q2=q2,
        t=lookup_temperature(result["step"]),
        top=LOOKUP_NAMES[int(np.argmax(weights))],
        output=result["output"],
    )
    return Drawing(fig, alt)


def soft_lookup_explorer(lang: str = "en") -> Explorable:
    """Attention as a soft lookup: move the query, pick a score and a temperature.

    The references are :func:`~attention_docs.scores.soft_lookup`'s results,
    including the lookup (T = 0) and the average (T = ∞) at the slider's ends.
    """
    references = [_lookup_result(**setting) for setting in LOOKUP_REFERENCES]
    payload: SoftLookupData = {
        "lang": lang,
        "spaced": spaces_han_and_latin(lang),
        "names": LOOKUP_NAMES,
        "keys": LOOKUP_KEYS,
        "values": LOOKUP_VALUES,
        "scores": {name: label(f"ex_{name}", lang) for name in LOOKUP_SCORES},
        "queries": LOOKUP_QUERIES,
        "steps": LOOKUP_STEPS,
        "default": LOOKUP_DEFAULT,
        "references": references,
        "text": _texts(
            lang,
            (
                "ex_score",
                "ex_temperature",
                "ex_t_value",
                "ex_t_zero",
                "ex_t_inf",
                "ex_q1",
                "ex_q2",
                "ex_q_value",
                "ex_plane_title",
                "ex_weights_title",
                "ex_lookup_readout",
                "ex_lookup_weight",
                "ex_list_sep",
                "ex_output",
                "ex_lookup_alt",
            ),
        ),
    }
    return Explorable("soft-lookup", _lookup_drawing(references[0], lang), payload)


def _gd_fit(run: int, step: int) -> GdFit:
    data = chapter_data()
    w = trained(**GD_RECIPES[run]).ws[step]
    fit, _ = nadaraya_watson(
        data.x_train,
        data.y_train,
        data.x_test,
        bandwidth=1 / abs(w),
        return_weights=False,
    )
    return {"run": run, "step": step, "bandwidth": 1 / abs(w), "fit": fit}


def gradient_descent_explorer(lang: str = "en") -> Explorable:
    """Step through gradient descent on CV(h), with the fit and the loss beside it.

    The iterates are those of the trained model
    (:func:`~attention_docs.model.train`). The script computes each step's
    Gaussian fit, and CV(h) on the grid of :func:`.experiments.cv_curve` and
    at each iterate, where n·CV(1/|w|) is the training loss; the browser tests
    compare them with :func:`~attention_docs.bandwidth.loo_cv_error` and the
    model's own losses. The references are
    :func:`~attention_docs.pooling.nadaraya_watson`'s fits at chosen steps.
    """
    data = chapter_data()
    runs: list[GdRun] = [
        {"name": label("gd_path", lang, **recipe), "w": trained(**recipe).ws}
        for recipe in GD_RECIPES
    ]
    payload: GradientDescentData = {
        "lang": lang,
        "spaced": spaces_han_and_latin(lang),
        "keys": data.x_train,
        "values": data.y_train,
        "grid": data.x_test,
        "truth": data.y_truth,
        "cv_grid": CV_GRID,
        "h_cv": cv_bandwidth(data.x_train, data.y_train),
        "runs": runs,
        "references": [_gd_fit(run, step) for run, step in GD_REFERENCES],
        "text": _texts(
            lang,
            (
                "ex_run",
                "ex_step",
                "ex_step_value",
                "ex_previous",
                "ex_next",
                "ex_gd_readout",
                "ex_fit_title",
                "ex_loss_title",
                "ex_cv_title",
                "ex_gd_alt",
                "h_cv",
                "bandwidth",
                "loo_error",
                "epoch",
                "loss",
                "truth",
                "prediction",
                "samples",
            ),
        ),
    }
    return Explorable("gradient-descent", gradient_descent_path(lang), payload)
