"""Figures of the attention-layer chapter: the √d scale, masks, positions.

The masks and positions come from :mod:`attention_docs.layers`, which needs
torch (the ``[model]`` extra), so it is imported where a figure needs it.
"""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.ticker import MultipleLocator

from .. import masks, positions
from ..labels import label
from ..plotting import curves, heatmaps
from ..saturation import saturation
from ..scores import softmax
from ..svg import Drawing

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The dimensions the √d figures measure, and the example the masks hide keys of.
SATURATION_DIMENSIONS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
MASK_SIZE = 6
MASK_VALID = 4  # the padded sequence's real length
MASK_SEED = 0
POSITIONS = (48, 32)  # positions and encoding dimensions


@functools.cache
def saturation_table() -> dict[str, tuple[float, ...]]:
    """The √d figures' numbers: mean top weight and Jacobian norm, by d.

    Returns:
        Tuples over :data:`SATURATION_DIMENSIONS`, by key: ``top_raw``,
        ``top_scaled``, ``jacobian_raw``, ``jacobian_scaled``, ``std_raw``,
        ``flat_raw`` and ``flat_scaled`` (the share of queries whose scores
        get almost no gradient, :data:`attention_docs.saturation.FLAT`).
    """
    raw = [saturation(d, scaled=False) for d in SATURATION_DIMENSIONS]
    scaled = [saturation(d) for d in SATURATION_DIMENSIONS]
    return {
        "top_raw": tuple(m.top_weight for m in raw),
        "top_scaled": tuple(m.top_weight for m in scaled),
        "jacobian_raw": tuple(m.jacobian for m in raw),
        "jacobian_scaled": tuple(m.jacobian for m in scaled),
        "std_raw": tuple(m.score_std for m in raw),
        "flat_raw": tuple(m.flat_share for m in raw),
        "flat_scaled": tuple(m.flat_share for m in scaled),
    }


def _against_d(measure: str, axis: str, lang: str) -> Drawing:
    """A measure of :func:`saturation_table` against d, raw and scaled."""
    table = saturation_table()
    raw, scaled = table[f"{measure}_raw"], table[f"{measure}_scaled"]
    fig = curves(
        np.array(SATURATION_DIMENSIONS, dtype=float),
        [
            (label("scores_raw", lang), np.array(raw)),
            (label("scores_scaled", lang), np.array(scaled)),
        ],
        xlabel=label("dimension_d", lang),
        ylabel=label(axis, lang),
        log_x=True,
        xticks=[1, 4, 16, 64, 256, 1024],
        lang=lang,
    )
    if measure == "top":  # weights: every 0.2, whatever the font's metrics
        fig.axes[0].yaxis.set_major_locator(MultipleLocator(0.2))
    alt = label(
        f"{measure}_alt",
        lang,
        raw=raw[-1],
        scaled=scaled[-1],
        d=SATURATION_DIMENSIONS[-1],
    )
    return Drawing(fig, alt)


def weight_saturation(lang: str = "en") -> Drawing:
    """The mean largest weight of a query over 10 random keys against d, ± √d."""
    return _against_d("top", "top_weight", lang)


def softmax_gradient(lang: str = "en") -> Drawing:
    """The size of the softmax's Jacobian against d, with and without √d."""
    return _against_d("jacobian", "jacobian_norm", lang)


def mask_weights() -> dict[str, np.ndarray]:
    """The weights one set of scores gets under each mask, by mask name.

    Returns:
        Arrays of shape (:data:`MASK_SIZE`, :data:`MASK_SIZE`): ``none``,
        ``leave_one_out``, ``causal`` and ``padding`` (the last
        ``MASK_SIZE - MASK_VALID`` keys are padding).
    """
    rng = np.random.default_rng(MASK_SEED)
    scores = rng.standard_normal((MASK_SIZE, MASK_SIZE))
    hidden = {
        "none": np.zeros((MASK_SIZE, MASK_SIZE), dtype=bool),
        "leave_one_out": masks.leave_one_out(MASK_SIZE),
        "causal": masks.causal(MASK_SIZE),
        "padding": masks.padding([MASK_VALID], MASK_SIZE)[0],
    }
    # A hidden key scores -inf: weight 0 (layers.masked_softmax, in numpy).
    return {
        name: softmax(np.where(mask, -np.inf, scores)) for name, mask in hidden.items()
    }


def weight_panels(
    weights: dict[str, np.ndarray], names: list[str], titles: str, lang: str
) -> Figure:
    """Weight matrices side by side, queries down and keys across.

    Parameters:
        weights: Matrices by name.
        names: Those to draw, in order.
        titles: The label key of each panel's title, with ``{name}``.
        lang: Language of the figure text.
    """
    return heatmaps(
        np.stack([weights[name] for name in names])[None],
        xlabel=label("keys", lang),
        ylabel=label("queries", lang),
        titles=[label(titles.format(name=name), lang) for name in names],
        lang=lang,
        panel_size=2.0 if len(names) > 3 else 2.2,
    )


def masks_heatmap(lang: str = "en") -> Drawing:
    """The same scores' weights under the leave-one-out, causal and padding masks."""
    names = ["leave_one_out", "causal", "padding"]
    fig = weight_panels(mask_weights(), names, "mask_{name}", lang)
    alt = label("masks_alt", lang, n=MASK_SIZE, valid=MASK_VALID)
    return Drawing(fig, alt)


def positions_heatmap(lang: str = "en") -> Drawing:
    """The sinusoidal positional encodings: one row per position."""
    n, d = POSITIONS
    encodings = positions.sinusoidal(n, d)
    fig = heatmaps(
        encodings[None, None],
        xlabel=label("encoding_dimension", lang),
        ylabel=label("position", lang),
        lang=lang,
        cmap="RdBu_r",
        panel_size=3.2,
    )
    return Drawing(fig, label("positions_alt", lang, n=n, d=d))


GRADIENT_DIMENSIONS = (16, 256, 1024)


@functools.cache
def query_gradients() -> dict[str, tuple[float, ...]]:
    """Mean, median and 99th percentile of ‖∂α/∂q‖, raw and scaled, by d.

    Returns:
        Tuples over :data:`GRADIENT_DIMENSIONS`, by key ``{stat}_{kind}``
        with stat ``mean``, ``median`` or ``p99`` and kind ``raw`` or
        ``scaled`` (:func:`attention_docs.saturation.query_gradient_norms`).
    """
    from ..saturation import query_gradient_norms

    found: dict[str, list[float]] = {}
    for d in GRADIENT_DIMENSIONS:
        for kind in ("raw", "scaled"):
            norms = query_gradient_norms(d, scaled=kind == "scaled")
            stats = {
                "mean": norms.mean(),
                "median": np.median(norms),
                "p99": np.percentile(norms, 99),
            }
            for stat, value in stats.items():
                found.setdefault(f"{stat}_{kind}", []).append(float(value))
    return {key: tuple(values) for key, values in found.items()}


def _short(value: float) -> str:
    """Three digits, or 5.5 × 10<sup>−5</sup> below 0.01."""
    from .panels import decimal_or_power

    return f"{value:.3g}" if value >= 0.01 else decimal_or_power(value)


def query_gradient_table(lang: str = "en") -> str:
    """:func:`query_gradients` as an HTML table: a row per statistic, a column per d.

    Narrow enough for a phone: the statistics go down, the three d across.
    """
    from .panels import html_table

    table = query_gradients()
    keys = [
        f"{stat}_{kind}"
        for stat in ("mean", "median", "p99")
        for kind in ("raw", "scaled")
    ]
    rows = [
        [html.escape(label(f"query_gradient_{key}", lang))]
        + [_short(value) for value in table[key]]
        for key in keys
    ]
    header = [label("query_gradient_statistic", lang)] + [
        label("query_gradient_d", lang, d=d) for d in GRADIENT_DIMENSIONS
    ]
    return html_table(header, rows)
