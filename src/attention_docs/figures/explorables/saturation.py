"""The saturation explorer: one query's weights as d grows, with and without √d.

One query and ten keys with standard normal entries, drawn once in 1024
dimensions and followed through their first d coordinates, at each d of the
chapter's figures; the reader moves d, switches the division by √d, and
multiplies W_q by c (every score times c: the temperature 1/c). Beside the
weights, the chapter's mean largest weight over 2000 queries, so that this
query is seen against the average. Its settings, the library's results at
the reference settings, the static drawing and the explorable itself
(:func:`saturation_explorer`).
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...explorable import Explorable
from ...labels import label, spaces_han_and_latin
from ...saturation import random_queries_keys, softmax_jacobian, softmax_rows
from ...style import BLUE, ORANGE, RED, figure_style
from ...svg import Drawing
from ..attention_layer import SATURATION_DIMENSIONS, saturation_table
from .script import ScriptData, texts

# Ten keys, as in the chapter's measurements; the draw's seed.
SAT_KEYS = 10
SAT_SEED = 0
# The c slider's positions k run over -10..10 for c = 2^(k/2): 1/32 to 32,
# so that c = √d reaches every d of the figure.
SAT_C_STEPS = 10


class SaturationSetting(TypedDict):
    """A setting of the saturation explorer's controls."""

    d: int
    scaled: bool
    step: int


class SaturationResult(TypedDict):
    """One setting's weights, largest weight and softmax Jacobian norm."""

    d: int
    scaled: bool
    step: int
    weights: np.ndarray
    top: float
    jacobian: float


class SaturationData(ScriptData):
    """The saturation explorer's data."""

    dimensions: tuple[int, ...]
    scores: list[np.ndarray]
    scales: dict[str, str]
    c_steps: int
    top_raw: tuple[float, ...]
    top_scaled: tuple[float, ...]
    default: SaturationSetting


SAT_DEFAULT: SaturationSetting = {"d": 64, "scaled": True, "step": 0}


SAT_REFERENCES: tuple[SaturationSetting, ...] = (
    SAT_DEFAULT,
    {"d": 1024, "scaled": False, "step": 0},
    {"d": 1024, "scaled": True, "step": 10},  # c = 32 = √1024: the raw weights
    {"d": 1, "scaled": True, "step": -10},
    {"d": 16, "scaled": False, "step": -3},
    {"d": 256, "scaled": False, "step": 0},  # a norm of 3.5e-10
)


def c_factor(step: int) -> float:
    """The factor c of W_q at a position of the explorer's slider."""
    if not -SAT_C_STEPS <= step <= SAT_C_STEPS:
        raise ValueError(f"step must be in [{-SAT_C_STEPS}, {SAT_C_STEPS}], got {step}")
    return 2 ** (step / 2)


def raw_scores(d: int) -> np.ndarray:
    """The query's dot products with the ten keys in their first d coordinates.

    Returns:
        Shape (n_keys,), largest first.
    """
    widest = SATURATION_DIMENSIONS[-1]
    queries, keys = random_queries_keys(widest, 1, SAT_KEYS, SAT_SEED)
    scores = keys[:, :d] @ queries[0, :d]  # (n_keys,)
    return np.sort(scores)[::-1].copy()


def saturation_result(d: int, scaled: bool, step: int) -> SaturationResult:
    """The weights of the explorer's query at one setting, by the library."""
    if d not in SATURATION_DIMENSIONS:
        raise ValueError(f"d must be one of {SATURATION_DIMENSIONS}, got {d!r}")
    scale = (1 / np.sqrt(d) if scaled else 1.0) * c_factor(step)
    weights = softmax_rows(raw_scores(d) * scale)
    jacobian = np.linalg.norm(softmax_jacobian(weights))
    return {
        "d": d,
        "scaled": scaled,
        "step": step,
        "weights": weights,
        "top": float(weights.max()),
        "jacobian": float(jacobian),
    }


def _saturation_drawing(result: SaturationResult, lang: str) -> Drawing:
    """The query's weights, largest first; beside them, the mean largest weight."""
    with figure_style(lang):
        fig = Figure(figsize=(5.6, 2.6), layout="constrained")
        bars, means = fig.subplots(1, 2)
        _weight_bars(bars, result, lang)
        _mean_curves(means, result, lang)
    alt = label(
        "ex_sat_static_alt",
        lang,
        d=result["d"],
        top=result["top"],
        jacobian=result["jacobian"],
    )
    return Drawing(fig, alt)


def _weight_bars(axes: Axes, result: SaturationResult, lang: str) -> None:
    axes.bar(np.arange(1, SAT_KEYS + 1), result["weights"], color=BLUE)
    axes.set(
        ylim=(0, 1.05),
        xticks=[1, 5, 10],
        xlabel=label("ex_sat_keys_axis", lang),
        ylabel=label("ex_weight_axis", lang),
        title=label("ex_sat_weights_title", lang, d=result["d"]),
    )


def _mean_curves(axes: Axes, result: SaturationResult, lang: str) -> None:
    table = saturation_table()
    ds = np.array(SATURATION_DIMENSIONS, dtype=float)
    axes.plot(ds, table["top_raw"], color=ORANGE, label=label("scores_raw", lang))
    axes.plot(
        ds, table["top_scaled"], color=BLUE, ls="--", label=label("scores_scaled", lang)
    )
    axes.plot(
        result["d"], result["top"], "o", color=RED, label=label("ex_sat_this", lang)
    )
    axes.set_xscale("log", base=2)
    axes.set(
        ylim=(0, 1.05),
        xticks=[1, 4, 16, 64, 256, 1024],
        xticklabels=["1", "4", "16", "64", "256", "1024"],
        xlabel=label("dimension_d", lang),
        title=label("ex_sat_means_title", lang),
    )
    axes.legend(loc="upper left", fontsize=7)


def saturation_explorer(lang: str = "en") -> Explorable:
    """One query's weights over ten keys as d grows: move d, the scale and c.

    The references are the library's weights (:mod:`attention_docs.saturation`)
    at chosen settings, among them d = 1024 scaled with c = 32 = √d, which
    gives exactly the unscaled weights.
    """
    table = saturation_table()
    references = [saturation_result(**setting) for setting in SAT_REFERENCES]
    payload: SaturationData = {
        "lang": lang,
        "spaced": spaces_han_and_latin(lang),
        "dimensions": SATURATION_DIMENSIONS,
        "scores": [raw_scores(d) for d in SATURATION_DIMENSIONS],
        "scales": {
            "raw": label("scores_raw", lang),
            "scaled": label("scores_scaled", lang),
        },
        "c_steps": SAT_C_STEPS,
        "top_raw": table["top_raw"],
        "top_scaled": table["top_scaled"],
        "default": SAT_DEFAULT,
        "text": texts(
            lang,
            (
                "ex_sat_scale",
                "ex_sat_d",
                "ex_sat_d_value",
                "ex_sat_c",
                "ex_sat_c_value",
                "ex_sat_c_sqrt",
                "ex_sat_weights_title",
                "ex_sat_means_title",
                "ex_sat_keys_axis",
                "ex_weight_axis",
                "dimension_d",
                "scores_raw",
                "scores_scaled",
                "ex_sat_this",
                "ex_sat_readout",
                "ex_sat_alt",
            ),
        ),
    }
    drawing = _saturation_drawing(references[0], lang)
    return Explorable("saturation", drawing, payload, references)
