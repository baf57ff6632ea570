"""Figures of the parametric-attention-pooling chapter.

Training, the learned bandwidth, cross-validation, and Gaussian scores as dot
products.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import numpy as np

from ..bandwidth import cv_bandwidth, loo_cv_error
from ..labels import label
from ..plotting import curves, heatmaps
from ..scores import dot_product_scores, gaussian_scores, softmax
from ..svg import Drawing
from .experiments import (
    DOT_PRODUCT_BANDWIDTH,
    DOT_PRODUCT_DIMENSIONS,
    LONG_RECIPE,
    LOSS_W_GRID,
    SHORT_RECIPE,
    SLOW_RECIPE,
    chapter_data,
    cv_curve,
    gaussian_and_dot_product_weights,
    loss_basin_boundary,
    loss_over_w,
    trained,
)
from .panels import decimal_or_power, fit_drawing, html_table, weights_drawing

if TYPE_CHECKING:  # attention_docs.model needs torch, the [model] extra
    from ..model import TrainingResult


def parametric_loss_curve(lang: str = "en") -> Drawing:
    """Training loss of the parametric model over the short recipe's epochs."""
    result = trained(**SHORT_RECIPE)
    epochs = np.arange(result.losses.size)
    fig = curves(
        epochs,
        [(label("loss", lang), result.losses)],
        xlabel=label("epoch", lang),
        ylabel=label("loss", lang),
        lang=lang,
        size=(4.2, 2.6),
    )
    first, second = result.losses[:2]
    alt = label(
        "loss_alt", lang, epochs=SHORT_RECIPE["epochs"], first=first, second=second
    )
    return Drawing(fig, alt)


def _trained_label(key: str, result: TrainingResult, lang: str) -> str:
    """The learned model's panel title or sentence phrase, with its w and h."""
    w = result.model.w.item()
    return label(key, lang, w=w, h=result.model.bandwidth)


def _short_recipe_outputs() -> tuple[TrainingResult, np.ndarray, np.ndarray]:
    """The short recipe's model, with its predictions and attention weights."""
    from ..model import predict  # needs torch, the [model] extra

    data = chapter_data()
    result = trained(**SHORT_RECIPE)
    prediction, weights = predict(result.model, data.x_train, data.y_train, data.x_test)
    return result, prediction, weights


def parametric_fit(lang: str = "en") -> Drawing:
    """Prediction of the parametric model after the short recipe."""
    result, prediction, _ = _short_recipe_outputs()
    title = _trained_label("trained_title", result, lang)
    method = _trained_label("learned_phrase", result, lang)
    return fit_drawing(prediction, title, label("fit_alt", lang, method=method), lang)


def parametric_weights(lang: str = "en") -> Drawing:
    """Attention weights of the parametric model after the short recipe."""
    result, _, weights = _short_recipe_outputs()
    method = _trained_label("learned_phrase", result, lang)
    return weights_drawing(
        weights, method, narrow=result.model.bandwidth < 0.5, lang=lang
    )


def cv_bandwidth_curve(lang: str = "en") -> Drawing:
    """Leave-one-out error against bandwidth, with h_cv and the learned h marked."""
    data = chapter_data()
    bandwidths, errors = cv_curve()
    marks = [(cv_bandwidth(data.x_train, data.y_train), label("h_cv", lang))]
    for recipe in (SHORT_RECIPE, LONG_RECIPE):
        result = trained(**recipe)
        marks.append(
            (result.model.bandwidth, label("h_learned", lang, epochs=recipe["epochs"]))
        )
    fig = curves(
        bandwidths,
        [(label("loo_error", lang), errors)],
        marks=marks,
        xlabel=label("bandwidth", lang),
        ylabel=label("loo_error", lang),
        log_x=True,
        lang=lang,
        size=(5.2, 3.0),
    )
    return Drawing(fig, label("cv_alt", lang))


def loss_basins(lang: str = "en") -> Drawing:
    """The training loss over w from w = 0: two basins and the peak between them.

    Marked: 1/h_cv, the basin boundary
    (:func:`~attention_docs.bandwidth.basin_boundary`) and the default start;
    the right panel enlarges the range near w = 0 where the boundary lies.
    """
    data = chapter_data()
    ws, losses = loss_over_w()
    w_cv = 1 / cv_bandwidth(data.x_train, data.y_train)
    boundary = loss_basin_boundary()
    start = trained(**SHORT_RECIPE).ws[0]
    fig = curves(
        ws,
        [(label("loss", lang), losses)],
        marks=[
            (w_cv, label("w_cv", lang)),
            (boundary, label("w_boundary", lang, w=boundary)),
            (start, label("w_start", lang, w=start)),
        ],
        xlabel=label("w_axis", lang),
        ylabel=label("loss", lang),
        lang=lang,
        size=(6.4, 3.0),
        zoom=(0.0, LOSS_W_GRID[0]),
    )
    alt = label("basins_alt", lang, w_cv=w_cv, boundary=boundary, at_zero=losses[0])
    return Drawing(fig, alt)


def gradient_descent_path(lang: str = "en") -> Drawing:
    """The bandwidth after each gradient step, drawn on the CV(h) curve.

    The training loss is n·CV(1/|w|), so every iterate lies on the curve.
    """
    data = chapter_data()
    bandwidths, errors = cv_curve()
    paths = []
    for recipe in (SHORT_RECIPE, SLOW_RECIPE):
        result = trained(**recipe)
        paths.append(
            (
                label("gd_path", lang, **recipe),
                1 / np.abs(result.ws),
                result.losses / data.x_train.size,
            )
        )
    h_cv = cv_bandwidth(data.x_train, data.y_train)
    fig = curves(
        bandwidths,
        [(label("loo_error", lang), errors)],
        marks=[(h_cv, label("h_cv", lang))],
        paths=paths,
        xlabel=label("bandwidth", lang),
        ylabel=label("loo_error", lang),
        log_x=True,
        lang=lang,
        size=(5.2, 3.2),
    )
    return Drawing(fig, label("gd_alt", lang))


def gaussian_as_dot_product(lang: str = "en") -> Drawing:
    """Two heatmaps of the same weights: Gaussian scores, and dot products."""
    weights = np.stack(gaussian_and_dot_product_weights())[None]  # (1, 2, n, m)
    fig = heatmaps(
        weights,
        xlabel=label("sorted_training_inputs", lang),
        ylabel=label("test_inputs", lang),
        titles=[
            label(f"{name}_title", lang)
            for name in ("gaussian_scores", "dot_product_scores")
        ],
        lang=lang,
        panel_size=2.6,
    )
    alt = label("dot_product_alt", lang, h=DOT_PRODUCT_BANDWIDTH)
    return Drawing(fig, alt)


def dot_product_check(lang: str = "en", n: int = 20, seed: int = 0) -> str:
    """Table: for random vectors of several dimensions, how far the two forms differ.

    For each dimension d in :data:`DOT_PRODUCT_DIMENSIONS`, n queries and n
    keys are drawn from a standard normal distribution and compared at
    bandwidth 1, so the scores grow with d (about -d on average).
    """
    rng = np.random.default_rng(seed)
    rows = []
    for d in DOT_PRODUCT_DIMENSIONS:
        queries, keys = rng.normal(size=(2, n, d))
        gaussian = gaussian_scores(queries, keys, 1.0)
        dot = dot_product_scores(queries, keys, 1.0)
        difference = np.abs(softmax(gaussian) - softmax(dot)).max()
        rows.append(
            [str(d), f"{np.abs(gaussian).max():.1f}", decimal_or_power(difference)]
        )
    keys = ("d", "scores", "diff")
    return html_table([label(f"dot_product_table_{k}", lang) for k in keys], rows)


def bandwidth_summary(lang: str = "en") -> str:
    """Table of h_cv and the learned bandwidths, with w and CV(h), as HTML."""
    data = chapter_data()
    rows = [(label("summary_h_cv", lang), cv_bandwidth(data.x_train, data.y_train))]
    for recipe in (SHORT_RECIPE, LONG_RECIPE, SLOW_RECIPE):
        rows.append(
            (
                label("summary_learned", lang, **recipe),
                trained(**recipe).model.bandwidth,
            )
        )
    errors = loo_cv_error(data.x_train, data.y_train, [h for _, h in rows])
    keys = ("summary_bandwidth", "summary_h", "summary_w", "summary_cv")
    cells = [
        [html.escape(name), f"{h:.4f}", f"{1 / h:.3f}", f"{error:.4f}"]
        for (name, h), error in zip(rows, errors, strict=True)
    ]
    return html_table([label(key, lang) for key in keys], cells)
