"""Figures of the attention-pooling chapter.

Average pooling, Nadaraya-Watson, the kernels, the error against n, and the
source listings the chapters show.
"""

from __future__ import annotations

import ast
import importlib.util
import textwrap
from pathlib import Path

import numpy as np

from ..kernels import KERNELS
from ..labels import check_lang, label
from ..plotting import curves, regression_panels
from ..pooling import average_pooling, nadaraya_watson
from ..svg import Drawing
from .experiments import (
    COMPARED_KERNELS,
    COMPARED_KERNELS_WITH_WIDTH,
    COMPARED_STDS,
    FIXED_BANDWIDTH,
    SAMPLE_SEEDS,
    SAMPLE_SIZES,
    chapter_data,
    compared_bandwidth,
    kernel_comparison_predictions,
    sample_size_errors,
)
from .panels import fit_drawing, rate_line, series_names, weights_drawing


def average_pooling_fit(lang: str = "en") -> Drawing:
    """Average pooling: the same prediction, the mean of all targets, everywhere."""
    check_lang(lang)
    data = chapter_data()
    name = label("average_pooling", lang)
    prediction = average_pooling(data.y_train, data.x_test)
    method = label("average_pooling_phrase", lang)
    return fit_drawing(prediction, name, label("fit_alt", lang, method=method), lang)


def _nonparametric(
    lang: str, kernel: str, bandwidth: float
) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Predictions, weights, panel title and the method's name in a sentence."""
    data = chapter_data()
    prediction, weights = nadaraya_watson(
        data.x_train, data.y_train, data.x_test, kernel=kernel, bandwidth=bandwidth
    )
    title = label("kernel_title", lang, kernel=label(kernel, lang), bandwidth=bandwidth)
    noun = label(f"{kernel}_noun", lang)
    method = label("kernel_phrase", lang, kernel=noun, bandwidth=bandwidth)
    return prediction, weights, title, method


def nadaraya_watson_fit(
    lang: str = "en", kernel: str = "gaussian", bandwidth: float = 1.0
) -> Drawing:
    """Nonparametric attention pooling: the Nadaraya-Watson prediction."""
    prediction, _, title, method = _nonparametric(lang, kernel, bandwidth)
    return fit_drawing(prediction, title, label("fit_alt", lang, method=method), lang)


def nadaraya_watson_weights(
    lang: str = "en", kernel: str = "gaussian", bandwidth: float = 1.0
) -> Drawing:
    """Attention weights of every test input over the sorted training inputs."""
    _, weights, _, method = _nonparametric(lang, kernel, bandwidth)
    return weights_drawing(weights, method, narrow=bandwidth < 0.5, lang=lang)


def kernel_shapes(lang: str = "en") -> Drawing:
    """The four kernels K(u) side by side on one axis."""
    u = np.linspace(-2.5, 2.5, 501)
    series = [
        (label(name, lang), KERNELS[name].function(u)) for name in COMPARED_KERNELS
    ]
    fig = curves(
        u,
        series,
        styles=[":" if name == "constant" else "-" for name in COMPARED_KERNELS],
        xlabel=label("u", lang),
        ylabel=label("kernel_value", lang),
        lang=lang,
        size=(4.8, 2.6),
    )
    return Drawing(fig, label("kernels_alt", lang))


def kernel_comparison(lang: str = "en") -> Drawing:
    """Predictions for each kernel (rows) at equal standard deviations (columns).

    Each row is labelled with its kernel, and each panel titled with its
    standard deviation and the bandwidth that gives the kernel that width.
    """
    data = chapter_data()
    titles = [
        [
            label(
                "kernel_std_title",
                lang,
                std=std,
                bandwidth=compared_bandwidth(kernel, std),
            )
            for std in COMPARED_STDS
        ]
        for kernel in COMPARED_KERNELS_WITH_WIDTH
    ]
    fig = regression_panels(
        data.x_test,
        data.y_truth,
        kernel_comparison_predictions(),
        None,  # no samples: nine panels of them would triple the size
        None,
        names=series_names(lang),
        titles=titles,
        row_labels=[label(kernel, lang) for kernel in COMPARED_KERNELS_WITH_WIDTH],
        lang=lang,
        panel_size=(2.4, 1.8),
    )
    return Drawing(fig, label("comparison_alt", lang))


def error_against_sample_size(lang: str = "en") -> Drawing:
    """Log-log plot of the error of a fixed h and of h_cv against n, with n^(-4/5)."""
    result = sample_size_errors()
    sizes = result.sizes.astype(float)
    fig = curves(
        sizes,
        [
            (label("fixed_h", lang, h=FIXED_BANDWIDTH), result.fixed),
            (label("cv_h", lang), result.cv),
            (label("rate", lang), rate_line(sizes, result.cv, 0.8)),  # through h_cv
        ],
        styles=("o-", "s-", ":"),
        xticks=SAMPLE_SIZES,
        xlabel=label("n_train", lang),
        ylabel=label("mse_truth", lang),
        log_x=True,
        log_y=True,
        lang=lang,
        size=(4.8, 3.2),
    )
    alt = label(
        "error_n_alt",
        lang,
        seeds=len(SAMPLE_SEEDS),
        low=SAMPLE_SIZES[0],
        high=SAMPLE_SIZES[-1],
        h=FIXED_BANDWIDTH,
    )
    return Drawing(fig, alt)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _definitions(
    node: ast.AST | None,
) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """The functions and classes defined in a module's or a class's body."""
    return [n for n in getattr(node, "body", []) if isinstance(n, _DEFINITIONS)]


def source_listing(name: str) -> str:
    """The source of a library function, as a Markdown code block for a page.

    Pages show code this way rather than copying it, so what a reader sees is
    what the tests run. The docstring is left out: the page's prose, in the
    page's language, explains the code.

    Parameters:
        name: A dotted name inside the library, e.g.
            ``"pooling.gaussian_attention_pooling"`` or
            ``"model.NadarayaWatsonRegressor.forward"``.

    Returns:
        A fenced ``python`` code block.
    """
    # Read from the module's file, not imported: a listing of the model's code
    # needs no PyTorch (and runs in the page's Python, which has none).
    module_name, _, attribute = name.partition(".")
    spec = importlib.util.find_spec(f"attention_docs.{module_name}")
    if spec is None or spec.origin is None:
        raise ValueError(f"source_listing: no module attention_docs.{module_name}")
    text = Path(spec.origin).read_text("utf-8")
    node: ast.AST | None = ast.parse(text)
    for part in attribute.split("."):
        node = next((n for n in _definitions(node) if n.name == part), None)
    if not isinstance(node, _DEFINITIONS):
        raise AttributeError(
            f"source_listing: attention_docs.{module_name} has no {attribute}"
        )
    first_line = min([node.lineno] + [d.lineno for d in node.decorator_list])
    lines = text.splitlines(keepends=True)[first_line - 1 : node.end_lineno]
    source = textwrap.dedent("".join(lines))
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        kept = source.splitlines()
        source = "\n".join(kept[: first.lineno - 1] + kept[first.end_lineno :])
    return f"```python\n{source.rstrip()}\n```\n"
