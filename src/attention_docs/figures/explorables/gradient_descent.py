"""The gradient-descent explorer: gradient descent on CV(h), one step at a time.

The chapter's two training recipes, the library's fits at the reference
steps, and the explorable itself (:func:`gradient_descent_explorer`); its
static drawing is :func:`~attention_docs.figures.gradient_descent_path`.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np

from ...bandwidth import cv_bandwidth
from ...explorable import Explorable
from ...labels import label, spaces_han_and_latin
from ...pooling import nadaraya_watson
from ..dataset import chapter_data
from ..experiments import CV_GRID, SHORT_RECIPE, SLOW_RECIPE, trained
from ..parametric import gradient_descent_path
from .script import ScriptData, texts


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


class GradientDescentData(ScriptData):
    """The gradient-descent explorer's data."""

    keys: np.ndarray
    values: np.ndarray
    grid: np.ndarray
    truth: np.ndarray
    cv_grid: tuple[float, float, int]  # lowest h, highest h, number of points
    h_cv: float
    runs: list[GdRun]


# Gradient descent on CV(h): the two recipes of the chapter, and the steps
# whose fits the library computes for the tests, as (run, step).
GD_RECIPES = (SHORT_RECIPE, SLOW_RECIPE)


GD_REFERENCES = ((0, 1), (0, 5), (1, 1), (1, 300))


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
        "text": texts(
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
    references = [_gd_fit(run, step) for run, step in GD_REFERENCES]
    return Explorable(
        "gradient-descent", gradient_descent_path(lang), payload, references
    )
