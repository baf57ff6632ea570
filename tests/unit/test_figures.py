import ast
import base64
import importlib
import inspect
import io
import pickle
import random
import re
import subprocess
import sys
import textwrap
import warnings

import matplotlib
import matplotlib.image
import numpy as np
import pytest
import torch

try:  # PyTorch imports it on a first training run, and it adds a warning filter
    import sympy  # noqa: F401
except ImportError:  # then PyTorch does not import it either
    pass

from attention_docs import diagrams, figures, nadaraya_watson
from attention_docs.bandwidth import basin_boundary, cv_bandwidth, loo_cv_error
from attention_docs.labels import label
from attention_docs.model import train


def embedded_images(svg):
    """Decode every PNG embedded in an SVG into an RGBA array."""
    return [
        matplotlib.image.imread(io.BytesIO(base64.b64decode(data)), format="png")
        for data in re.findall(r'href="data:image/png;base64,([^"]+)"', svg)
    ]


@pytest.mark.parametrize("size", [3, 10])
def test_identity_heatmap_draws_the_identity(size):
    svg = figures.identity_heatmap("en", size=size)
    heatmap = embedded_images(svg)[0]
    assert heatmap.shape[:2] == (size, size)  # stored at native resolution
    dark = heatmap[..., :3].sum(axis=2) < 1.5  # the colour of weight 1 is dark red
    np.testing.assert_array_equal(dark, np.eye(size, dtype=bool))


def test_identity_heatmap_labels_per_language():
    en, zh = figures.identity_heatmap("en"), figures.identity_heatmap("zh")
    assert ">Keys</text>" in en and ">Queries</text>" in en
    assert ">键</text>" in zh and ">查询</text>" in zh
    assert "<title>Heatmap" in en and "<title>10×10 注意力权重矩阵" in zh


def test_identity_heatmap_is_deterministic():
    assert figures.identity_heatmap("zh") == figures.identity_heatmap("zh")


def test_a_language_without_labels_is_drawn_in_english_and_a_bad_code_refused():
    assert str(figures.identity_heatmap("fr")) == str(figures.identity_heatmap("en"))
    with pytest.raises(ValueError, match="lang must be a locale"):
        figures.identity_heatmap("French")


# Every figure the library publishes that needs no argument but its language:
# each function in figures.__all__ that returns a Drawing, so a new figure
# cannot miss these checks (task_cue and weights_heatmap take data first).
ALL_FIGURES = [
    name
    for name, function in ((name, getattr(figures, name)) for name in figures.__all__)
    if callable(function)
    and inspect.signature(function).return_annotation == "Drawing"
    and all(
        p.default is not p.empty
        for p in inspect.signature(function).parameters.values()
    )
]
TABLES = [
    "dot_product_check",
    "bandwidth_summary",
    "rate_table",
    "boundary_table",
    "gradient_check",
]
CJK = re.compile(r">[^<]*[\u4e00-\u9fff][^<]*</text>")


def test_all_figures_include_every_chapter():
    assert {"saliency_cue", "kernel_shapes", "parametric_fit", "two_input_fit"} <= set(
        ALL_FIGURES
    )
    assert "nadaraya_watson_explorer" not in ALL_FIGURES  # an Explorable


def outside_state():
    """What a call could change outside what it returns: the generators that
    code seeds globally, matplotlib's options, numpy's print options and the
    warning filters. The build's cache relies on the library changing none
    of it (``attention_docs_site/execute/sessions.py``)."""
    return {
        "numpy's global generator": pickle.dumps(np.random.get_state()),
        "random's generator": pickle.dumps(random.getstate()),
        "torch's generator": torch.get_rng_state().numpy().tobytes(),
        "torch's default dtype": torch.get_default_dtype(),
        "matplotlib's options": dict(matplotlib.rcParams),
        "numpy's print options": np.get_printoptions(),
        "warning filters": list(warnings.filters),
    }


@pytest.fixture
def unchanged_outside():
    """The test's library calls leave the state outside them as it was."""
    before = outside_state()
    yield
    after = outside_state()
    assert [name for name in before if before[name] != after[name]] == []


@pytest.mark.parametrize("name", TABLES)
def test_every_table_in_both_languages(name, unchanged_outside):
    en, zh = getattr(figures, name)("en"), getattr(figures, name)("zh")
    assert en.startswith("<table>") and zh.startswith("<table>")
    assert not re.search(r"[\u4e00-\u9fff]", en)
    assert re.search(r"<th>[^<]*[\u4e00-\u9fff]", zh), "Chinese headers"


@pytest.mark.parametrize("name", ALL_FIGURES)
def test_every_figure_in_both_languages(name, unchanged_outside):
    en, zh = getattr(figures, name)("en"), getattr(figures, name)("zh")
    assert en.startswith("<svg") and zh.startswith("<svg")
    assert not CJK.search(en)
    assert CJK.search(zh), "a Chinese figure must carry Chinese text"
    title = re.search(r"<title>(.*?)</title>", zh).group(1)
    assert re.search(r"[\u4e00-\u9fff]", title), "the text alternative is Chinese too"


class _Drawn:
    """``drawn.name(...)`` is the matplotlib Figure of ``figures.name(...)``."""

    def __getattr__(self, name):
        draw = getattr(figures, name)
        return lambda *args, **kwargs: draw(*args, **kwargs).figure


@pytest.fixture
def drawn():
    return _Drawn()


def line(ax, label):
    (match,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return match.get_ydata()


DATA = figures.chapter_data()


def test_average_pooling_fit_plots_the_mean(drawn):
    ax = drawn.average_pooling_fit("en").axes[0]
    np.testing.assert_allclose(line(ax, "Prediction"), DATA.y_train.mean())
    np.testing.assert_array_equal(line(ax, "Samples"), DATA.y_train)
    np.testing.assert_array_equal(
        line(ax, "Truth"), 2 * np.sin(DATA.x_test) + DATA.x_test**0.8
    )


@pytest.mark.parametrize(("kernel", "bandwidth"), [("gaussian", 1.0), ("boxcar", 0.3)])
def test_nadaraya_watson_figures_plot_its_output(drawn, kernel, bandwidth):
    pred, weights = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, kernel=kernel, bandwidth=bandwidth
    )
    ax = drawn.nadaraya_watson_fit("en", kernel=kernel, bandwidth=bandwidth).axes[0]
    np.testing.assert_array_equal(line(ax, "Prediction"), pred)
    heatmap = drawn.nadaraya_watson_weights("zh", kernel=kernel, bandwidth=bandwidth)
    np.testing.assert_array_equal(heatmap.axes[0].images[0].get_array(), weights)
    assert heatmap.axes[0].get_xlabel() == "排序后的训练输入"


def test_kernel_comparison_grid_is_at_equal_standard_deviation(drawn):
    fig = drawn.kernel_comparison("en")
    panels = fig.axes
    kernels, stds = figures.COMPARED_KERNELS_WITH_WIDTH, figures.COMPARED_STDS
    assert len(panels) == len(kernels) * len(stds)
    for index, ax in enumerate(panels):
        kernel, std = kernels[index // len(stds)], stds[index % len(stds)]
        h = {"gaussian": std, "boxcar": std * 3**0.5, "epanechnikov": std * 5**0.5}
        expected, _ = nadaraya_watson(
            DATA.x_train, DATA.y_train, DATA.x_test, kernel=kernel, bandwidth=h[kernel]
        )
        np.testing.assert_allclose(line(ax, "Prediction"), expected, rtol=1e-12)
        assert ax.get_title() == f"σ = {std:g}, h = {h[kernel]:.2f}"
        # The kernel labels its row once, at the right, not in every title.
        row_label = [kernel.capitalize()] if std == stds[-1] else []
        assert [text.get_text() for text in ax.texts] == row_label
    zh = drawn.kernel_comparison("zh").axes
    assert zh[5].get_title() == "σ = 0.6，h = 1.34"
    assert zh[5].texts[0].get_text() == "Epanechnikov 核"


def test_kernel_shapes_plot_the_kernels(drawn):
    ax = drawn.kernel_shapes("en").axes[0]
    u = ax.get_lines()[0].get_xdata()
    np.testing.assert_allclose(
        line(ax, "Epanechnikov"), np.clip(0.75 * (1 - u**2), 0, None)
    )
    np.testing.assert_allclose(
        line(ax, "Gaussian"), np.exp(-(u**2) / 2) / np.sqrt(2 * np.pi)
    )


def test_parametric_figures_show_the_trained_model(drawn):
    result = figures.trained(**figures.SHORT_RECIPE)
    ax = drawn.parametric_loss_curve("en").axes[0]
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), result.losses)
    # Same w as the model trained here, independently of the cache.
    fresh = train(DATA.x_train, DATA.y_train, **figures.SHORT_RECIPE)
    assert fresh.ws.tobytes() == result.ws.tobytes()
    fit = drawn.parametric_fit("en").axes[0]
    expected, _ = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=1 / abs(result.ws[-1])
    )
    np.testing.assert_allclose(line(fit, "Prediction"), expected, rtol=1e-10)
    assert f"w = {result.ws[-1]:.2f}" in fit.get_title()


def test_cv_curve_marks_h_cv_and_learned_bandwidths(drawn):
    ax = drawn.cv_bandwidth_curve("en").axes[0]
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    marks = {ln.get_label(): ln.get_xdata()[0] for ln in ax.get_lines()[1:]}
    assert marks["h selected by cross-validation"] == pytest.approx(h_cv)
    short = figures.trained(**figures.SHORT_RECIPE).model.bandwidth
    long = figures.trained(**figures.LONG_RECIPE).model.bandwidth
    assert marks["learned h, 5 epochs"] == pytest.approx(short)
    assert marks["learned h, 300 epochs"] == pytest.approx(h_cv, rel=1e-5)
    assert long == pytest.approx(h_cv, rel=1e-5)
    h = ax.get_lines()[0].get_xdata()
    np.testing.assert_allclose(
        ax.get_lines()[0].get_ydata(),
        loo_cv_error(DATA.x_train, DATA.y_train, h),
    )


def test_softmax_heatmap_rows_sum_to_one(drawn):
    weights = drawn.softmax_heatmap("en", size=6, seed=2).axes[0].images[0].get_array()
    assert weights.shape == (6, 6)
    np.testing.assert_allclose(weights.sum(axis=1), 1)
    scores = np.random.default_rng(2).normal(size=(6, 6))
    np.testing.assert_array_equal(np.argmax(weights, axis=1), np.argmax(scores, axis=1))


def test_cue_figures_point_at_cup_then_book(drawn):
    from matplotlib.patches import FancyArrowPatch

    for name, target in (("saliency_cue", "cup"), ("volitional_cue", "book")):
        fig = getattr(drawn, name)("zh")
        (arrow,) = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
        assert arrow._posA_posB[1][0] == diagrams._CENTERS[target]


@pytest.mark.parametrize("focus", diagrams.SCENE_OBJECTS)
def test_task_cue_points_at_any_object(drawn, focus):
    from matplotlib.patches import FancyArrowPatch

    fig = drawn.task_cue(focus, lang="en")
    (arrow,) = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
    assert arrow._posA_posB[1][0] == diagrams._CENTERS[focus]


def test_task_cue_text_alternative_names_the_object():
    svg = figures.task_cue("notebook", lang="zh")
    assert re.search(r"<title>[^<]*笔记本[^<]*</title>", svg)


def test_weights_heatmap_shows_the_given_matrix(drawn):
    weights = np.random.default_rng(0).dirichlet(np.ones(4), size=3)  # (3, 4)
    fig = drawn.weights_heatmap(weights, lang="zh")
    np.testing.assert_array_equal(fig.axes[0].images[0].get_array(), weights)
    assert fig.axes[0].get_ylabel() == "查询"
    with pytest.raises(ValueError, match="2-D"):
        figures.weights_heatmap(np.ones(3))


def test_bandwidth_summary_reports_the_library_values():
    table = figures.bandwidth_summary("en")
    cells = re.findall(r"<td>([^<]*)</td>", table)
    rows = [cells[i : i + 4] for i in range(0, len(cells), 4)]
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    short = train(DATA.x_train, DATA.y_train, **figures.SHORT_RECIPE)
    slow = train(DATA.x_train, DATA.y_train, **figures.SLOW_RECIPE)
    assert [row[1] for row in rows] == [
        f"{h_cv:.4f}",
        f"{short.model.bandwidth:.4f}",
        f"{h_cv:.4f}",
        f"{slow.model.bandwidth:.4f}",
    ]
    assert float(rows[3][1]) == pytest.approx(h_cv, rel=0.01)
    assert float(rows[1][2]) == pytest.approx(short.ws[-1], abs=1e-3)
    cv = loo_cv_error(DATA.x_train, DATA.y_train, [h_cv])[0]
    assert rows[0][3] == f"{cv:.4f}"
    zh = figures.bandwidth_summary("zh")
    assert "<th>带宽</th>" in zh and "留一法交叉验证" in zh
    assert "learning rate 0.05" in rows[3][0] and "学习率 0.05" in zh


def alt_of(svg):
    return re.search(r"<title>([^<]*)</title>", svg)[1]


@pytest.mark.parametrize(
    ("lang", "fit", "weights"),
    [
        (
            "en",
            "Training samples, the true function and the prediction made with the "
            "Gaussian kernel with bandwidth h = 1 over inputs from 0 to 5.",
            "Heatmap of the attention weights of the Gaussian kernel with "
            "bandwidth h = 1: one row per test input",
        ),
        (
            "zh",
            "训练样本、真实函数，以及用带宽 h = 1 的高斯核在 0 到 5 之间所作的预测。",
            "带宽 h = 1 的高斯核的注意力权重热图：每行对应一个测试输入",
        ),
    ],
)
def test_text_alternatives_name_the_method_in_a_sentence(lang, fit, weights):
    # The panel title ("Gaussian, h = 1") used to be pasted into the sentence.
    assert alt_of(figures.nadaraya_watson_fit(lang, "gaussian", 1.0)) == fit
    assert alt_of(figures.nadaraya_watson_weights(lang, "gaussian", 1.0)).startswith(
        weights
    )


def test_chinese_text_alternatives_are_assembled_with_spacing():
    alts = [
        alt_of(figures.nadaraya_watson_fit("zh", "epanechnikov", 0.534)),
        alt_of(figures.average_pooling_fit("zh")),
        alt_of(figures.parametric_fit("zh")),
        alt_of(figures.parametric_weights("zh")),
    ]
    assert alts[0].startswith(
        "训练样本、真实函数，以及用带宽 h = 0.534 的 Epanechnikov 核"
    )
    assert "以及用平均汇聚在 0 到 5 之间" in alts[1]
    for alt in alts:
        assert not re.search(
            r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]", alt
        )
        assert "，h = " not in alt.split("（")[0]  # no panel title inside


def test_source_listing_is_the_library_code_without_its_docstring():
    import ast
    import inspect
    import textwrap

    from attention_docs import pooling

    listing = figures.source_listing("pooling.gaussian_attention_pooling")
    assert listing.startswith("```python\n") and listing.endswith("\n```\n")
    code = listing.removeprefix("```python\n").removesuffix("```\n")
    source = textwrap.dedent(inspect.getsource(pooling.gaussian_attention_pooling))
    function = ast.parse(source).body[0]
    assert ast.get_docstring(function) and '"""' not in code
    # What the page shows runs and is the library's function, docstring aside.
    namespace = {"np": np}
    exec(code, namespace)  # noqa: S102
    shown = ast.parse(code).body[0]
    function.body = function.body[1:]
    assert ast.dump(shown) == ast.dump(function)
    keys, values = np.array([0.0, 1.0]), np.array([2.0, 4.0])
    got, _ = namespace["gaussian_attention_pooling"](np.array([0.5]), keys, values, 1)
    assert got == pytest.approx([3.0])


def test_source_listing_of_a_method():
    listing = figures.source_listing("model.NadarayaWatsonRegressor.forward")
    assert listing.startswith("```python\ndef forward(")
    assert "torch.bmm" in listing and "torch.softmax" in listing
    with pytest.raises(AttributeError, match="no no_such_function"):
        figures.source_listing("model.no_such_function")
    with pytest.raises(ValueError, match="no module attention_docs.nothing"):
        figures.source_listing("nothing.at_all")


@pytest.mark.parametrize(
    "name",
    [
        "model.NadarayaWatsonRegressor.forward",
        "model.NadarayaWatsonRegressor",
        "model.leave_one_out_mask",
        "pooling.gaussian_attention_pooling",
        "layers.MultiHeadAttention.forward",
        "kv_cache.KVCache.append",
    ],
)
def test_source_listing_is_what_inspect_finds_in_the_imported_module(name):
    """Read from the file, the listing is inspect's, docstring aside."""
    module, _, attribute = name.partition(".")
    target = importlib.import_module(f"attention_docs.{module}")
    for part in attribute.split("."):
        target = getattr(target, part)
    expected = ast.parse(textwrap.dedent(inspect.getsource(target))).body[0]
    code = figures.source_listing(name).removeprefix("```python\n")
    shown = ast.parse(code.removesuffix("```\n")).body[0]
    if ast.get_docstring(expected):
        expected.body = expected.body[1:]
    assert ast.dump(shown) == ast.dump(expected)


def test_a_listing_of_the_model_s_code_imports_no_torch():
    """So that the page's block runs in the browser, which has no PyTorch."""
    code = (
        "import sys\n"
        "from attention_docs import figures\n"
        "figures.source_listing('model.NadarayaWatsonRegressor.forward')\n"
        "print('torch' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "False"


def test_loss_basins_draws_the_loss_from_w_0_with_both_basins(drawn):
    full, zoom = drawn.loss_basins("en").axes[:2]
    ws, losses = (full.get_lines()[0].get_xdata(), full.get_lines()[0].get_ydata())
    n, y = DATA.y_train.size, DATA.y_train
    assert ws[0] == 0 and ws[-1] == 8
    # At w = 0 every key weighs the same: predict y_i by the mean of the others.
    others_mean = (y.sum() - y) / (n - 1)
    assert losses[0] == pytest.approx(np.sum((y - others_mean) ** 2), rel=1e-12)
    np.testing.assert_allclose(
        losses[1:], n * loo_cv_error(DATA.x_train, y, 1 / ws[1:]), rtol=1e-12
    )
    marks = {ln.get_label(): ln.get_xdata()[0] for ln in full.get_lines()[1:]}
    peak = ws[np.argmax(np.where(ws < 1, losses, -np.inf))]
    assert marks["w = 1/h_cv"] == pytest.approx(1 / cv_bandwidth(DATA.x_train, y))
    boundary = marks[label("w_boundary", "en", w=basin_boundary(DATA.x_train, y))]
    assert abs(boundary - peak) <= 0.005  # the fine grid's step
    assert losses[0] < losses[np.searchsorted(ws, boundary)]  # w = 0: a minimum
    assert zoom.get_xlim() == (0.0, 0.4)


def test_gradient_descent_path_draws_each_iterate_on_the_cv_curve(drawn):
    ax = drawn.gradient_descent_path("en").axes[0]
    for recipe in (figures.SHORT_RECIPE, figures.SLOW_RECIPE):
        (path,) = [
            ln
            for ln in ax.get_lines()
            if ln.get_label() == label("gd_path", "en", **recipe)
        ]
        h, cv = path.get_xdata(), path.get_ydata()
        assert h.size == recipe["epochs"] + 1
        np.testing.assert_allclose(
            cv, loo_cv_error(DATA.x_train, DATA.y_train, h), rtol=1e-10
        )


def test_gaussian_as_dot_product_shows_one_matrix_twice(drawn):
    fig = drawn.gaussian_as_dot_product("en")
    gaussian, dot = (ax.get_images()[0].get_array() for ax in fig.axes[:2])
    _, weights = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=figures.DOT_PRODUCT_BANDWIDTH
    )
    np.testing.assert_allclose(gaussian, weights, rtol=1e-12)
    np.testing.assert_allclose(dot, weights, rtol=1e-12)


def test_dot_product_check_reports_differences_at_rounding_level():
    table = figures.dot_product_check("zh")
    assert "维数 d" in table
    rows = re.findall(
        r"<tr><td>(\d+)</td><td>([\d.]+)</td>"
        r"<td>\d\.\d × 10<sup>−(\d+)</sup></td></tr>",
        table,
    )
    assert [int(d) for d, _, _ in rows] == list(figures.DOT_PRODUCT_DIMENSIONS)
    assert all(int(power) > 13 for _, _, power in rows)  # below 10^-13
    assert float(rows[-1][1]) > 50  # the scores are far from small


def test_error_against_sample_size_plots_the_errors_and_a_four_fifths_line(drawn):
    ax = drawn.error_against_sample_size("en").axes[0]
    errors = figures.sample_size_errors()
    np.testing.assert_allclose(line(ax, "h = 1"), errors.fixed)
    np.testing.assert_allclose(line(ax, "h = h_cv"), errors.cv)
    rate = line(ax, label("rate", "en"))
    slope = np.polyfit(np.log(errors.sizes), np.log(rate), 1)[0]
    assert slope == pytest.approx(-0.8)
    assert ax.get_xscale() == ax.get_yscale() == "log"
