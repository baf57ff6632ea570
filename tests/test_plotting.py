import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.figure import Figure

from attention_docs import heatmaps


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
    with pytest.raises(ValueError, match="lang"):
        heatmaps(np.ones((1, 1, 2, 2)), xlabel="k", ylabel="q", lang="fr")
