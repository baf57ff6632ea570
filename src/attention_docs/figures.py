"""One function per figure published on the site, each returning inline SVG.

Each figure function draws a :class:`~attention_docs.svg.Drawing` (the
matplotlib Figure and its text alternative); the :func:`~attention_docs.svg.svg_figure`
decorator turns it into the inline SVG the page prints, and keeps the drawing
function as ``figure_function.drawing`` for code that wants the Figure.

Pages call these, one call per figure, with the language of the page. The
English and the Chinese page run the same code; only ``lang`` differs. Every
figure is computed from the library: the data set, the pooling functions and
the trained model.
"""

from __future__ import annotations

import ast
import functools
import html
import importlib
import inspect
import textwrap
from dataclasses import dataclass

import numpy as np

from . import diagrams
from .data import Dataset, make_dataset
from .kernels import KERNELS
from .labels import check_lang, label
from .model import TrainingResult, predict, train
from .plotting import curves, heatmaps, regression_panels
from .pooling import (
    average_pooling,
    cv_bandwidth,
    dot_product_scores,
    gaussian_scores,
    loo_cv_error,
    nadaraya_watson,
    softmax,
)
from .svg import Drawing, svg_figure

# The chapter's data set and training recipes.
DATA_SEED = 0
N_TRAIN = 50
SHORT_RECIPE = {"epochs": 5, "lr": 0.5}  # a few large steps: w overshoots
LONG_RECIPE = {"epochs": 300, "lr": 0.5}  # the same steps, run to convergence
SLOW_RECIPE = {"epochs": 300, "lr": 0.05}  # small steps down the CV(h) curve
# Gaussian scores against dot products: the chapter's data at this bandwidth,
# and random vectors of these dimensions.
DOT_PRODUCT_BANDWIDTH = 0.5
DOT_PRODUCT_DIMENSIONS = (1, 2, 8, 64)
# Error against the number of training examples, averaged over seeds.
SAMPLE_SIZES = (25, 50, 100, 200, 400)
SAMPLE_SEEDS = tuple(range(8))
FIXED_BANDWIDTH = 1.0
COMPARED_KERNELS = ("boxcar", "constant", "epanechnikov", "gaussian")
# The kernel comparison sets each kernel's bandwidth so that all have these
# standard deviations: equal h would give the Gaussian the widest window.
COMPARED_KERNELS_WITH_WIDTH = ("boxcar", "epanechnikov", "gaussian")
COMPARED_STDS = (0.1, 0.25, 0.6)


def chapter_data() -> Dataset:
    """The data set used by every figure of the attention-pooling chapter."""
    return make_dataset(N_TRAIN, seed=DATA_SEED)


@functools.cache
def trained(epochs: int, lr: float) -> TrainingResult:
    """The parametric model trained on :func:`chapter_data` (memoised; pure)."""
    data = chapter_data()
    return train(data.x_train, data.y_train, epochs=epochs, lr=lr, seed=DATA_SEED)


def _names(lang: str) -> dict[str, str]:
    keys = ("truth", "prediction", "samples", "x", "y")
    return {key: label(key, lang) for key in keys}


def _fit(prediction: np.ndarray, title: str, alt: str, lang: str) -> Drawing:
    data = chapter_data()
    fig = regression_panels(
        data.x_test,
        data.y_truth,
        prediction.reshape(1, 1, -1),
        data.x_train,
        data.y_train,
        names=_names(lang),
        titles=[[title]],
        lang=lang,
    )
    return Drawing(fig, alt)


def _weights_heatmap(
    weights: np.ndarray, method: str, narrow: bool, lang: str
) -> Drawing:
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


@svg_figure
def saliency_cue(lang: str = "en") -> Drawing:
    """The desk scene with gaze drawn to the red cup (a nonvolitional cue)."""
    return _scene("cup", "saliency", lang)


@svg_figure
def volitional_cue(lang: str = "en") -> Drawing:
    """The desk scene with gaze directed to the book by the task (a volitional cue)."""
    return _scene("book", "volitional", lang)


@svg_figure
def task_cue(focus: str, lang: str = "en") -> Drawing:
    """The desk scene with gaze directed by a task to any one of the objects.

    Parameters:
        focus: One of :data:`attention_docs.diagrams.SCENE_OBJECTS`.
        lang: Language of the figure text.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    return _scene(focus, "task", lang)


def _scene(focus: str, cue: str, lang: str) -> Drawing:
    names = {name: label(name, lang) for name in diagrams.SCENE_OBJECTS}
    fig = diagrams.attention_cue_scene(
        focus, names=names, caption=label(f"{cue}_caption", lang), lang=lang
    )
    alt = label(f"{cue}_alt", lang, object=names.get(focus, focus))
    return Drawing(fig, alt)


# The label of each text of the query-key-value diagram (diagrams.QKV_TEXT).
QKV_LABELS = {
    "key": "key",
    "value": "value",
    "keys": "keys_caption",
    "values": "values_caption",
    "query": "query_box",
    "pooling": "pooling_box",
    "output": "output_box",
    "weights": "weights_caption",
}


def qkv_text(lang: str) -> dict[str, str]:
    """The query-key-value diagram's text in a language."""
    return {name: label(key, lang) for name, key in QKV_LABELS.items()}


@svg_figure
def qkv_diagram(lang: str = "en") -> Drawing:
    """The attention framework: queries, keys, values and attention pooling."""
    text = qkv_text(lang)
    return Drawing(diagrams.qkv_framework(text=text, lang=lang), label("qkv_alt", lang))


@svg_figure
def identity_heatmap(lang: str = "en", size: int = 10) -> Drawing:
    """Heatmap of identity attention weights: each query attends only to its own key.

    Parameters:
        lang: Language of the figure text.
        size: Number of queries and keys.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    weights = np.eye(size).reshape(1, 1, size, size)  # (1, 1, n_queries, n_keys)
    fig = heatmaps(
        weights, xlabel=label("keys", lang), ylabel=label("queries", lang), lang=lang
    )
    return Drawing(fig, label("identity_alt", lang))


@svg_figure
def weights_heatmap(weights: np.ndarray, lang: str = "en") -> Drawing:
    """Heatmap of any attention-weight matrix, queries down and keys across.

    Parameters:
        weights: Shape (n_queries, n_keys).
        lang: Language of the figure text.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 2:
        raise ValueError(
            f"weights must be 2-D (n_queries, n_keys), got {weights.shape}"
        )
    fig = heatmaps(
        weights[None, None],
        xlabel=label("keys", lang),
        ylabel=label("queries", lang),
        lang=lang,
    )
    n_queries, n_keys = weights.shape
    alt = label("matrix_alt", lang, n_queries=n_queries, n_keys=n_keys)
    return Drawing(fig, alt)


@svg_figure
def softmax_heatmap(lang: str = "en", size: int = 10, seed: int = 0) -> Drawing:
    """Heatmap of a row-wise softmax of a random matrix (an exercise).

    Parameters:
        lang: Language of the figure text.
        size: Number of queries and keys.
        seed: Seed of the random matrix.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    scores = np.random.default_rng(seed).normal(size=(size, size))  # (n_q, n_k)
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    fig = heatmaps(
        weights[None, None],
        xlabel=label("keys", lang),
        ylabel=label("queries", lang),
        lang=lang,
    )
    return Drawing(fig, label("softmax_alt", lang, n=size))


@svg_figure
def average_pooling_fit(lang: str = "en") -> Drawing:
    """Average pooling: the same prediction, the mean of all targets, everywhere."""
    check_lang(lang)
    data = chapter_data()
    name = label("average_pooling", lang)
    prediction = average_pooling(data.y_train, data.x_test)
    method = label("average_pooling_phrase", lang)
    return _fit(prediction, name, label("fit_alt", lang, method=method), lang)


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


@svg_figure
def nadaraya_watson_fit(
    lang: str = "en", kernel: str = "gaussian", bandwidth: float = 1.0
) -> Drawing:
    """Nonparametric attention pooling: the Nadaraya-Watson prediction."""
    prediction, _, title, method = _nonparametric(lang, kernel, bandwidth)
    return _fit(prediction, title, label("fit_alt", lang, method=method), lang)


@svg_figure
def nadaraya_watson_weights(
    lang: str = "en", kernel: str = "gaussian", bandwidth: float = 1.0
) -> Drawing:
    """Attention weights of every test input over the sorted training inputs."""
    _, weights, _, method = _nonparametric(lang, kernel, bandwidth)
    return _weights_heatmap(weights, method, narrow=bandwidth < 0.5, lang=lang)


@svg_figure
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


def compared_bandwidth(kernel: str, std: float) -> float:
    """The bandwidth that gives a kernel a standard deviation (as a density)."""
    return std / KERNELS[kernel].std


def kernel_comparison_predictions() -> np.ndarray:
    """Predictions for every compared kernel (rows) and standard deviation (columns).

    Returns:
        Shape (n_kernels, n_stds, n_test).
    """
    data = chapter_data()
    return np.array(
        [
            [
                nadaraya_watson(
                    data.x_train,
                    data.y_train,
                    data.x_test,
                    kernel=kernel,
                    bandwidth=compared_bandwidth(kernel, std),
                    return_weights=False,
                )[0]
                for std in COMPARED_STDS
            ]
            for kernel in COMPARED_KERNELS_WITH_WIDTH
        ]
    )  # (n_kernels, n_stds, n_test)


@svg_figure
def kernel_comparison(lang: str = "en") -> Drawing:
    """Predictions for each kernel (rows) at equal standard deviations (columns)."""
    data = chapter_data()
    titles = [
        [
            label(
                "kernel_std_title",
                lang,
                kernel=label(kernel, lang),
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
        names=_names(lang),
        titles=titles,
        lang=lang,
        panel_size=(2.4, 1.8),
    )
    return Drawing(fig, label("comparison_alt", lang))


@svg_figure
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


@svg_figure
def parametric_fit(lang: str = "en") -> Drawing:
    """Prediction of the parametric model after the short recipe."""
    data = chapter_data()
    result = trained(**SHORT_RECIPE)
    prediction, _ = predict(result.model, data.x_train, data.y_train, data.x_test)
    title = _trained_label("trained_title", result, lang)
    method = _trained_label("learned_phrase", result, lang)
    return _fit(prediction, title, label("fit_alt", lang, method=method), lang)


@svg_figure
def parametric_weights(lang: str = "en") -> Drawing:
    """Attention weights of the parametric model after the short recipe."""
    data = chapter_data()
    result = trained(**SHORT_RECIPE)
    _, weights = predict(result.model, data.x_train, data.y_train, data.x_test)
    method = _trained_label("learned_phrase", result, lang)
    return _weights_heatmap(
        weights, method, narrow=result.model.bandwidth < 0.5, lang=lang
    )


@svg_figure
def cv_bandwidth_curve(lang: str = "en") -> Drawing:
    """Leave-one-out error against bandwidth, with h_cv and the learned h marked."""
    data = chapter_data()
    bandwidths = np.geomspace(0.02, 3.0, 200)
    errors = loo_cv_error(data.x_train, data.y_train, bandwidths)
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


@svg_figure
def gradient_descent_path(lang: str = "en") -> Drawing:
    """The bandwidth after each gradient step, drawn on the CV(h) curve.

    The training loss is n·CV(1/|w|), so every iterate lies on the curve.
    """
    data = chapter_data()
    bandwidths = np.geomspace(0.02, 3.0, 200)
    errors = loo_cv_error(data.x_train, data.y_train, bandwidths)
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


def gaussian_and_dot_product_weights() -> tuple[np.ndarray, np.ndarray]:
    """The chapter's attention weights computed from both forms of the scores.

    Returns:
        Gaussian-score weights and dot-product weights, each of shape
        (n_test, n_train), at :data:`DOT_PRODUCT_BANDWIDTH`.
    """
    data = chapter_data()
    h = DOT_PRODUCT_BANDWIDTH
    return (
        softmax(gaussian_scores(data.x_test, data.x_train, h)),
        softmax(dot_product_scores(data.x_test, data.x_train, h)),
    )


@svg_figure
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
            f"<tr><td>{d}</td><td>{np.abs(gaussian).max():.1f}</td>"
            f"<td>{difference:.1e}</td></tr>"
        )
    header = "".join(
        f"<th>{html.escape(label(f'dot_product_table_{key}', lang))}</th>"
        for key in ("d", "scores", "diff")
    )
    return (
        f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


@dataclass(frozen=True)
class SampleSizeErrors:
    """Mean squared error against the truth, by number of training examples.

    Attributes:
        sizes: Numbers of training examples, shape (n_sizes,).
        fixed: Mean error with the bandwidth fixed at :data:`FIXED_BANDWIDTH`,
            averaged over the seeds, shape (n_sizes,).
        cv: The same with each data set's cross-validated bandwidth.
        slopes: Least-squares slopes of log error against log n, for ``fixed``
            and ``cv``.
    """

    sizes: np.ndarray
    fixed: np.ndarray
    cv: np.ndarray
    slopes: tuple[float, float]


@functools.cache
def sample_size_errors(
    sizes: tuple[int, ...] = SAMPLE_SIZES, seeds: tuple[int, ...] = SAMPLE_SEEDS
) -> SampleSizeErrors:
    """How the error of a fixed h and of h_cv change with n (memoised; pure)."""
    errors = np.empty((2, len(sizes), len(seeds)))
    for i, n in enumerate(sizes):
        for j, seed in enumerate(seeds):
            data = make_dataset(n, seed=seed)
            h_cv = cv_bandwidth(data.x_train, data.y_train, low=0.01, high=5.0)
            for k, h in enumerate((FIXED_BANDWIDTH, h_cv)):
                prediction, _ = nadaraya_watson(
                    data.x_train,
                    data.y_train,
                    data.x_test,
                    bandwidth=h,
                    return_weights=False,
                )
                errors[k, i, j] = np.mean((prediction - data.y_truth) ** 2)
    fixed, cv = errors.mean(axis=2)  # (n_sizes,) each
    log_n = np.log(sizes)
    slopes = tuple(float(np.polyfit(log_n, np.log(e), 1)[0]) for e in (fixed, cv))
    return SampleSizeErrors(np.array(sizes), fixed, cv, slopes)


@svg_figure
def error_against_sample_size(lang: str = "en") -> Drawing:
    """Log-log plot of the error of a fixed h and of h_cv against n, with n^(-4/5)."""
    result = sample_size_errors()
    sizes = result.sizes.astype(float)
    # The reference line n^(-4/5) passes through the h_cv error's geometric mean.
    anchor = np.exp(np.mean(np.log(result.cv) + 0.8 * np.log(sizes)))
    fig = curves(
        sizes,
        [
            (label("fixed_h", lang, h=FIXED_BANDWIDTH), result.fixed),
            (label("cv_h", lang), result.cv),
            (label("rate", lang), anchor * sizes**-0.8),
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
    header = "".join(
        f"<th>{html.escape(label(key, lang))}</th>"
        for key in ("summary_bandwidth", "summary_h", "summary_w", "summary_cv")
    )
    body = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{h:.4f}</td><td>{1 / h:.3f}</td>"
        f"<td>{error:.4f}</td></tr>"
        for (name, h), error in zip(rows, errors, strict=True)
    )
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


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
    module_name, _, attribute = name.partition(".")
    target: object = importlib.import_module(f"attention_docs.{module_name}")
    for part in attribute.split("."):
        target = getattr(target, part)
    lines, _ = inspect.getsourcelines(target)  # type: ignore[arg-type]
    source = textwrap.dedent("".join(lines))
    function = ast.parse(source).body[0]
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        kept = source.splitlines()
        source = "\n".join(kept[: first.lineno - 1] + kept[first.end_lineno :])
    return f"```python\n{source.rstrip()}\n```\n"
