"""The attention-layer chapter's figures draw what the library computes."""

import math

import numpy as np
import pytest

from attention_docs import figures
from attention_docs.saturation import saturation


def test_each_mask_gives_the_unmasked_weights_renormalised_over_what_it_shows():
    """Masking is conditioning: the weights a mask leaves are the unmasked
    ones, divided by their sum over the keys the query may see."""
    weights = figures.mask_weights()
    n, valid = figures.MASK_SIZE, figures.MASK_VALID
    rows, cols = np.indices((n, n))
    shown = {
        "leave_one_out": rows != cols,
        "causal": cols <= rows,
        "padding": cols < valid,
    }
    for name, allowed in shown.items():
        expected = weights["none"] * allowed
        expected /= expected.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(weights[name], expected, rtol=1e-12, err_msg=name)
        assert (weights[name][~allowed] == 0).all(), name
    # The causal mask keeps the diagonal the leave-one-out mask hides.
    assert (np.diag(weights["causal"]) > 0).all()
    assert weights["causal"][0, 0] == 1.0  # the first position sees only itself


def test_the_heatmap_shows_the_three_masks_weights():
    drawing = figures.masks_heatmap("en")
    images = [ax.images[0].get_array() for ax in drawing.figure.axes if ax.images]
    weights = figures.mask_weights()
    for image, name in zip(images, ["leave_one_out", "causal", "padding"], strict=True):
        np.testing.assert_array_equal(np.asarray(image), weights[name])
    assert "Causal" in drawing and "因果" in figures.masks_heatmap("zh")


def test_the_saturation_curves_draw_the_measured_numbers():
    table = figures.saturation_table()
    for drawing, keys in [
        (figures.weight_saturation("en"), ("top_raw", "top_scaled")),
        (figures.softmax_gradient("en"), ("jacobian_raw", "jacobian_scaled")),
    ]:
        lines = drawing.figure.axes[0].lines
        drawn = [tuple(line.get_ydata()) for line in lines[:2]]
        assert drawn == [table[key] for key in keys]
        assert list(lines[0].get_xdata()) == list(figures.SATURATION_DIMENSIONS)
    last = saturation(figures.SATURATION_DIMENSIONS[-1], scaled=False)
    assert f"{last.top_weight:.2f}" in figures.weight_saturation("en").alt
    assert f"{last.jacobian:.3f}" in figures.softmax_gradient("zh").alt


def test_the_positions_heatmap_is_the_sinusoid_written_out():
    drawing = figures.positions_heatmap("en")
    image = np.asarray(drawing.figure.axes[0].images[0].get_array())
    n, d = image.shape
    for p in range(n):
        for i in range(d // 2):
            angle = p / 10000 ** (2 * i / d)
            assert image[p, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert image[p, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)
