import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.figure import Figure

from attention_docs import heatmaps
from attention_docs.plotting import curves, regression_panels


def test_each_panel_shows_its_matrix():
    rng = np.random.default_rng(0)
    matrices = rng.uniform(size=(2, 3, 4, 5))
    fig = heatmaps(matrices, xlabel="Keys", ylabel="Queries", titles=["a", "b", "c"])
    assert isinstance(fig, Figure)
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 6
    for index, ax in enumerate(panels):
        i, j = divmod(index, 3)
        np.testing.assert_array_equal(ax.images[0].get_array(), matrices[i, j])
        assert ax.images[0].get_clim() == (matrices.min(), matrices.max())
    assert [ax.get_title() for ax in panels[:3]] == ["a", "b", "c"]
    assert panels[3].get_xlabel() == "Keys" and panels[3].get_ylabel() == "Queries"
    assert panels[1].get_ylabel() == ""


def test_one_shared_colour_bar():
    fig = heatmaps(np.ones((1, 2, 3, 3)), xlabel="k", ylabel="q")
    assert len(fig.axes) == 3  # two panels and the colour bar


def test_does_not_touch_global_rcparams():
    before = dict(mpl.rcParams)
    heatmaps(np.eye(3).reshape(1, 1, 3, 3), xlabel="键", ylabel="查询", lang="zh")
    assert dict(mpl.rcParams) == before


@pytest.mark.parametrize(
    ("matrices", "message"),
    [
        (np.ones((3, 3)), "shape"),
        (np.ones((1, 1, 0, 3)), "empty"),
        (np.full((1, 1, 2, 2), np.nan), "NaN"),
    ],
)
def test_bad_matrices(matrices, message):
    with pytest.raises(ValueError, match=message):
        heatmaps(matrices, xlabel="k", ylabel="q")


def test_titles_must_match_columns():
    with pytest.raises(ValueError, match="titles"):
        heatmaps(np.ones((1, 2, 2, 2)), xlabel="k", ylabel="q", titles=["only one"])


def test_unknown_language():
    with pytest.raises(ValueError, match="lang must be a locale"):
        heatmaps(np.ones((1, 1, 2, 2)), xlabel="k", ylabel="q", lang="fr-FRANCE")


NAMES = {"truth": "T", "prediction": "P", "samples": "S", "x": "x", "y": "y"}


def test_regression_panels_draw_the_given_data():
    x_test = np.linspace(0, 5, 20)
    predictions = np.random.default_rng(1).normal(size=(2, 2, 20))
    x_train, y_train = np.arange(5.0), np.arange(5.0) ** 2
    fig = regression_panels(
        x_test,
        np.sin(x_test),
        predictions,
        x_train,
        y_train,
        names=NAMES,
        titles=[["a", "b"], ["c", "d"]],
    )
    for index, ax in enumerate(fig.axes):
        lines = {line.get_label(): line for line in ax.get_lines()}
        np.testing.assert_array_equal(lines["S"].get_ydata(), y_train)
        np.testing.assert_array_equal(lines["T"].get_ydata(), np.sin(x_test))
        np.testing.assert_array_equal(
            lines["P"].get_ydata(), predictions.reshape(4, 20)[index]
        )
        assert ax.get_title() == "abcd"[index]
    assert fig.axes[0].get_legend() is not None


def test_regression_panels_label_each_row_at_its_right():
    x_test = np.linspace(0, 1, 5)
    fig = regression_panels(
        x_test, x_test, np.ones((2, 3, 5)), None, None, names=NAMES, row_labels="ab"
    )
    labelled = {index: ax.texts for index, ax in enumerate(fig.axes) if ax.texts}
    assert {i: [t.get_text() for t in texts] for i, texts in labelled.items()} == {
        2: ["a"],
        5: ["b"],
    }
    for (label,) in labelled.values():
        assert label.get_rotation() == 270 and label.get_in_layout()
    with pytest.raises(ValueError, match=r"row_labels must have one entry per row"):
        regression_panels(
            x_test, x_test, np.ones((2, 1, 5)), None, None, names=NAMES, row_labels="a"
        )


def test_regression_panels_without_samples():
    x_test = np.linspace(0, 1, 5)
    fig = regression_panels(x_test, x_test, np.ones((1, 1, 5)), None, None, names=NAMES)
    assert [line.get_label() for line in fig.axes[0].get_lines()] == ["T", "P"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((np.ones(5), np.ones(5), np.ones((1, 1, 4)), None, None), "n_test"),
        ((np.ones(5), np.ones(5), np.ones((1, 5)), None, None), "3-dimensional"),
        ((np.ones(5), np.ones(5), np.ones((1, 1, 5)), np.ones(3), None), "both"),
        ((np.ones(5), np.ones(5), np.full((1, 1, 5), np.nan), None, None), "NaN"),
    ],
)
def test_regression_panels_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        regression_panels(*args, names=NAMES)


def test_curves_draw_series_and_marks():
    x = np.geomspace(0.1, 10, 30)
    fig = curves(
        x,
        [("a", x**2), ("b", np.log(x))],
        xlabel="h",
        ylabel="e",
        marks=[(1.0, "m1"), (2.0, "m2")],
        log_x=True,
    )
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    np.testing.assert_array_equal(lines["a"].get_ydata(), x**2)
    np.testing.assert_array_equal(lines["b"].get_ydata(), np.log(x))
    assert list(lines["m1"].get_xdata()) == [1.0, 1.0]
    assert list(lines["m2"].get_xdata()) == [2.0, 2.0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "linear"
    assert ax.get_xlabel() == "h" and ax.get_ylabel() == "e"


def test_curves_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        curves(np.ones(3), [], xlabel="x", ylabel="y")
    with pytest.raises(ValueError, match="shape"):
        curves(np.ones(3), [("a", np.ones(4))], xlabel="x", ylabel="y")


def test_curves_draw_paths_styles_and_ticks():
    x = np.array([1.0, 2.0, 4.0])
    fig = curves(
        x,
        [("a", x), ("ref", x**2)],
        paths=[("steps", np.array([3.0, 1.5]), np.array([9.0, 2.0]))],
        styles=("o-", ":"),
        xticks=(1, 2, 4),
        xlabel="x",
        ylabel="y",
        log_x=True,
    )
    ax = fig.axes[0]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert lines["ref"].get_linestyle() == ":" and lines["a"].get_marker() == "o"
    np.testing.assert_array_equal(lines["steps"].get_xdata(), [3.0, 1.5])
    assert [t.get_text() for t in ax.texts] == ["0", "1"]  # the two steps numbered
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "4"]


def test_curves_number_a_start_that_paths_share_once():
    x = np.array([1.0, 2.0, 4.0])
    fig = curves(
        x,
        [("a", x)],
        paths=[
            ("fast", np.array([3.0, 1.5, 1.2]), np.array([9.0, 2.0, 1.5])),
            ("slow", np.array([3.0, 2.5, 1.2]), np.array([9.0, 6.0, 1.5])),
        ],
        xlabel="x",
        ylabel="y",
    )
    texts = [(t.get_text(), t.xy, t.get_color()) for t in fig.axes[0].texts]
    fast, slow = (line.get_color() for line in fig.axes[0].get_lines()[1:])
    # The common start (0) and the common end (2) are each numbered once, in ink.
    assert texts == [
        ("0", (3.0, 9.0), "0.15"),
        ("1", (1.5, 2.0), fast),
        ("2", (1.2, 1.5), "0.15"),
        ("1", (2.5, 6.0), slow),
    ]


def test_curves_reject_a_path_whose_x_and_y_differ():
    with pytest.raises(ValueError, match="path 'p'"):
        curves(
            np.arange(3.0),
            [("a", np.arange(3.0))],
            paths=[("p", np.arange(2.0), np.arange(3.0))],
            xlabel="x",
            ylabel="y",
        )


def test_curves_zoom_shows_a_range_again_enlarged():
    x = np.linspace(0, 8, 161)
    y = np.where(x < 1, 65 + x * (0.3 - x), 20 + 0.1 * x)  # a small bump, then low
    fig = curves(
        x,
        [("loss", y)],
        xlabel="w",
        ylabel="L",
        marks=[(0.15, "peak")],
        zoom=(0.0, 0.4),
    )
    full, zoom = fig.axes
    assert zoom.get_xlim() == (0.0, 0.4)
    low, high = zoom.get_ylim()
    inside = y[x <= 0.4]
    assert low < inside.min() < inside.max() < high  # the bump fills the panel
    assert high - low < 0.2 * (y.max() - y.min())
    assert [ln.get_label() for ln in zoom.get_lines()] == ["loss", "peak"]
    assert full.get_legend() is not None and zoom.get_legend() is None
    with pytest.raises(ValueError, match="holds none of the x values"):
        curves(x, [("loss", y)], xlabel="w", ylabel="L", zoom=(9.0, 10.0))
