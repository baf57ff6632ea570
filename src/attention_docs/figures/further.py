"""Figures of the chapter "Kernel regression, further".

The density estimate, classification, two inputs with a width each, the rate
against dimension, local linear regression at the boundary, and the exercise's
gradient checked by autograd.
"""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING

import numpy as np

from ..data import make_dataset_2d
from ..labels import check_lang, label
from ..plotting import curves, regression_panels, surfaces
from ..pooling import nadaraya_watson
from ..scores import pooling_gradient
from ..smoothers import class_probabilities, kernel_density, local_linear
from ..style import DATA_COLOURS
from ..svg import Drawing
from .dataset import chapter_data
from .further_experiments import (
    BOUNDARY_BANDWIDTH,
    DENSITY_BANDWIDTHS,
    RATE_SIZES,
    boundary_comparison,
    classification_fit,
    rate_by_dimension,
    width_selection,
)
from .panels import decimal_or_power, html_table, rate_line, series_names

if TYPE_CHECKING:
    import torch


def density_estimates(lang: str = "en") -> Drawing:
    """Parzen estimates of the chapter's 50 inputs at three bandwidths."""
    check_lang(lang)
    x = np.linspace(-1.0, 6.0, 701)
    inputs = chapter_data().x_train
    truth = np.where((x >= 0) & (x < 5), 0.2, 0.0)  # uniform on [0, 5)
    series = [(label("true_density", lang), truth)]
    series += [
        (label("fixed_h", lang, h=h), kernel_density(inputs, x, bandwidth=h))
        for h in DENSITY_BANDWIDTHS
    ]
    fig = curves(
        x,
        series,
        styles=[":"],
        xlabel=label("x", lang),
        ylabel=label("density", lang),
        lang=lang,
        size=(4.8, 2.8),
    )
    return Drawing(fig, label("density_alt", lang, n=inputs.size))


def class_probability_fit(lang: str = "en") -> Drawing:
    """Estimated class probabilities against the true ones, three classes."""
    data, h = classification_fit()
    estimate = class_probabilities(
        data.x_train, data.labels, data.x_test, bandwidth=h
    )  # (n_test, 3)
    series, styles, colours = [], [], []
    for c in range(3):
        name = label("class_name", lang, c=c + 1)
        series += [
            (label("class_estimate", lang, name=name), estimate[:, c]),
            (label("class_truth", lang, name=name), data.p_truth[:, c]),
        ]
        styles += ["-", ":"]
        colours += [DATA_COLOURS[c]] * 2
    fig = curves(
        data.x_test,
        series,
        styles=styles,
        colours=colours,
        xlabel=label("x", lang),
        ylabel=label("probability", lang),
        lang=lang,
        size=(4.8, 3.0),
    )
    alt = label("classes_alt", lang, n=data.x_train.size, h=h)
    return Drawing(fig, alt)


def two_input_fit(lang: str = "en") -> Drawing:
    """The two-input target, and its fits with one shared width and with two."""
    data = make_dataset_2d()
    result = width_selection()
    side = int(round(np.sqrt(data.x_test.shape[0])))
    h1, h2 = result.per_coordinate
    grids = [data.y_truth, *result.predictions]
    titles = [
        label("truth", lang),
        label("shared_width_title", lang, h=result.shared),
        label("two_widths_title", lang, h1=h1, h2=h2),
    ]
    fig = surfaces(
        np.array([grid.reshape(side, side) for grid in grids]),
        extent=(0.0, 5.0),
        titles=titles,
        xlabel=label("x1", lang),
        ylabel=label("x2", lang),
        lang=lang,
    )
    alt = label(
        "two_inputs_alt", lang, n=data.x_train.shape[0], h=result.shared, h1=h1, h2=h2
    )
    return Drawing(fig, alt)


def error_against_dimension(lang: str = "en") -> Drawing:
    """Log-log error at the best bandwidth against n for d = 1, 2, 3, with rates."""
    result = rate_by_dimension()
    sizes = result.sizes.astype(float)
    series, styles, colours = [], [], []
    colours_d = DATA_COLOURS[: len(result.dimensions)]
    for d, errors, colour in zip(
        result.dimensions, result.errors, colours_d, strict=True
    ):
        series += [
            (label("dimension", lang, d=d), errors),
            (
                label("rate_d", lang, denominator=4 + d),
                rate_line(sizes, errors, 4 / (4 + d)),
            ),
        ]
        styles += ["o-", ":"]
        colours += [colour] * 2
    fig = curves(
        sizes,
        series,
        styles=styles,
        colours=colours,
        xticks=RATE_SIZES,
        xlabel=label("n_train", lang),
        ylabel=label("expected_error", lang),
        log_x=True,
        log_y=True,
        lang=lang,
        size=(4.8, 3.4),
    )
    alt = label("dimension_alt", lang, low=RATE_SIZES[0], high=RATE_SIZES[-1])
    return Drawing(fig, alt)


def rate_table(lang: str = "en") -> str:
    """Table: per dimension, the fitted slope, the limit and the best h at each end."""
    result = rate_by_dimension()
    rows = [
        [
            str(d),
            f"{slope:.2f}",
            f"−4/{4 + d} = {-4 / (4 + d):.2f}".replace("-", "−"),
            f"{best[0]:.2f} → {best[-1]:.2f}",
            " → ".join(
                f"{n * h**d:.0f}"
                for n, h in ((result.sizes[0], best[0]), (result.sizes[-1], best[-1]))
            ),
        ]
        for d, slope, best in zip(
            result.dimensions, result.slopes, result.best, strict=True
        )
    ]
    keys = ("d", "slope", "limit", "h", "nh")
    header = [label(f"rate_table_{key}", lang) for key in keys]
    for row in rows:
        row[1] = row[1].replace("-", "−")
    return html_table(header, rows)


def boundary_fits(lang: str = "en") -> Drawing:
    """Nadaraya-Watson and local linear fits of the chapter's data, same h."""
    data = chapter_data()
    h = BOUNDARY_BANDWIDTH
    args = (data.x_train, data.y_train, data.x_test)
    predictions = np.array(
        [
            nadaraya_watson(*args, bandwidth=h, return_weights=False)[0],
            local_linear(*args, bandwidth=h),
        ]
    )  # (2, n_test)
    titles = [
        [label(f"{method}_title", lang, h=h) for method in ("nw", "local_linear")]
    ]
    fig = regression_panels(
        data.x_test,
        data.y_truth,
        predictions[None],
        data.x_train,
        data.y_train,
        names=series_names(lang),
        titles=titles,
        lang=lang,
    )
    return Drawing(fig, label("boundary_alt", lang, h=h))


def boundary_table(lang: str = "en") -> str:
    """Table: mean error and spread at both ends, and the overall error."""
    result = boundary_comparison()
    rows = []
    for m, method in enumerate(("nw_method", "local_linear_method")):
        cells = [html.escape(label(method, lang))]
        for p in range(len(result.points)):
            cells += [f"{result.bias[m, p]:+.2f}", f"{result.spread[m, p]:.2f}"]
        rows.append([*cells, f"{result.mse[m]:.3f}"])
    for row in rows:
        row[1:] = [cell.replace("-", "−") for cell in row[1:]]
    header = [label("boundary_table_method", lang)]
    for x in result.points:
        header += [
            label("boundary_table_bias", lang, x=x),
            label("boundary_table_spread", lang, x=x),
        ]
    header.append(label("boundary_table_mse", lang))
    return html_table(header, rows)


def _torch_pooling(
    keys: torch.Tensor, score: str, h: float, query: torch.Tensor
) -> torch.Tensor:
    """Σ softmax(scores)_i k_i in torch, with the keys as values: (d,)."""
    if score == "dot_product":
        scores = keys @ query  # (n_keys,)
    else:
        scores = -((query - keys) ** 2).sum(dim=1) / (2 * h**2)
    return scores.softmax(dim=0) @ keys


def gradient_check(lang: str = "en", seed: int = 0) -> str:
    """Table: the covariance formula against autograd, for random keys.

    For each score and each (number of keys, dimension), one random query and
    random keys, which are also the values; the table gives the largest
    difference between the Jacobian that torch.autograd computes and the
    covariance of the keys under the weights (divided by h² for the Gaussian).
    """
    import torch  # the [model] extra; only this figure needs it

    rng = np.random.default_rng(seed)
    rows = []
    for score, h in (("dot_product", 1.0), ("gaussian", 0.7)):
        for n, d in ((5, 2), (50, 8)):
            query, keys = rng.normal(size=d), rng.normal(size=(n, d))
            pooled = functools.partial(_torch_pooling, torch.tensor(keys), score, h)
            autograd = torch.autograd.functional.jacobian(pooled, torch.tensor(query))
            formula = pooling_gradient(query, keys, score=score, bandwidth=h)
            difference = np.abs(autograd.numpy() - formula).max()
            name = label(f"{score}_score", lang, h=h)
            rows.append(
                [html.escape(name), str(n), str(d), decimal_or_power(difference)]
            )
    keys_ = ("score", "n", "d", "diff")
    return html_table([label(f"gradient_table_{key}", lang) for key in keys_], rows)
