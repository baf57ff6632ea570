"""The attention-layer chapter's figures draw what the library computes."""

import math
import re

import numpy as np
import pytest
import torch

from attention_docs import figures
from attention_docs.figures import attention_layer_cost, attention_layer_tables, panels
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


def test_the_scaled_weights_are_the_dot_product_s_at_temperature_sqrt_d():
    """softmax(s / √d) from softmax(s) alone: log-weights are the scores up
    to a constant per row, which the softmax ignores."""
    weights = figures.scoring_weights()
    d = attention_layer_tables.SCORING_SHAPE[2]
    logits = np.log(weights["dot"]) / math.sqrt(d)
    expected = np.exp(logits - logits.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(weights["scaled"], expected, rtol=1e-9)
    top = {name: w.max(axis=1).mean() for name, w in weights.items()}
    assert top["dot"] > top["bilinear"] > top["scaled"] > top["additive"]
    for w in weights.values():
        np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-12)


def test_only_positions_let_the_layer_tell_order():
    found = figures.order_differences()
    assert found["plain"] < 1e-12 and found["positions"] > 1e-2
    assert found["causal"] > 1e-2  # the mask hides keys by their position
    table = figures.order_table("en")
    cells = re.findall(r"<tr><td>[^<]*</td><td>(.*?)</td></tr>", table)
    assert cells == [panels.decimal_or_power(v) for v in found.values()]
    assert cells[1:] == [f"{found['causal']:.2f}", f"{found['positions']:.2f}"]
    assert re.fullmatch(r"\d\.\d × 10<sup>−1[56]</sup>", cells[0]), cells[0]
    assert "e-" not in table


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2.94e-16, "2.9 × 10<sup>−16</sup>"),
        (9.96e-17, "1.0 × 10<sup>−16</sup>"),  # rounded before the exponent
        (0.0099, "9.9 × 10<sup>−3</sup>"),
        (0.00996, "0.010"),
        (0.0123, "0.012"),
        (0.889, "0.89"),
        (0.0, "0"),
    ],
)
def test_small_numbers_are_powers_of_ten_and_the_others_decimals(value, shown):
    assert panels.decimal_or_power(value) == shown


def test_the_cost_rows_are_the_weights_size_and_the_counts_written_out():
    d = attention_layer_cost.COST_WIDTH
    for row in figures.cost_rows():
        n = row["n"]
        assert row["mib"] * 2**20 == n * n * 4
        assert row["softmax"] / row["linear"] == n / d


def test_linear_attention_is_compared_with_softmax_attention_by_hand():
    """The same numbers from numpy: elu + 1 as exp(x) below 0 and x + 1 above."""
    n, d = attention_layer_cost.LINEAR_SHAPE
    generator = torch.Generator().manual_seed(2)
    q = torch.randn(n, d, generator=generator, dtype=torch.float64).numpy()
    k = torch.randn(n, d, generator=generator, dtype=torch.float64).numpy()
    scores = q @ k.T / math.sqrt(d)
    alpha = np.exp(scores - scores.max(1, keepdims=True))
    alpha /= alpha.sum(1, keepdims=True)
    phi = lambda x: np.where(x > 0, x + 1, np.exp(x))  # noqa: E731
    beta = phi(q) @ phi(k).T
    beta /= beta.sum(1, keepdims=True)
    found = figures.linear_comparison()
    assert found["tv_linear"] == pytest.approx(0.5 * np.abs(alpha - beta).sum(1).mean())
    assert found["tv_uniform"] == pytest.approx(
        0.5 * np.abs(alpha - 1 / n).sum(1).mean()
    )
    assert found["top_linear"] == pytest.approx(beta.max(1).mean())
    assert found["top_linear"] < found["top_softmax"]


def test_the_layer_table_gives_each_tensor_its_shape():
    batch, n, d_model, heads = attention_layer_tables.LAYER_SHAPE
    assert figures.layer_shapes() == {
        "inputs": (batch, n, d_model),
        "heads_q": (batch, heads, n, d_model // heads),
        "weights": (batch, heads, n, n),
        "joined": (batch, n, d_model),
        "outputs": (batch, n, d_model),
    }
    assert "(2, 4, 5, 5)" in figures.layer_table("zh")


def test_timing_the_layers_gives_torch_its_threads_back():
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        grown = attention_layer_cost._fit_growth()
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)
    assert set(grown) == {"softmax", "linear"}
    assert grown["softmax"] > grown["linear"] + 0.5


def test_a_growth_unlike_the_counts_is_measured_again_then_refused(monkeypatch):
    fits = iter(
        [
            {"softmax": 2.6, "linear": 1.0},  # a loaded machine
            {"softmax": 2.1, "linear": 0.9},
            {"softmax": 2.0, "linear": 0.4},
            {"softmax": 1.4, "linear": 1.0},
            {"softmax": 2.5, "linear": 1.0},  # half a power off is refused
        ]
    )
    monkeypatch.setattr(attention_layer_cost, "_fit_growth", lambda: next(fits))
    assert attention_layer_cost.time_growth.__wrapped__() == {
        "softmax": 2.1,
        "linear": 0.9,
    }
    with pytest.raises(RuntimeError, match="3 measurements.*softmax 2.50.*counted"):
        attention_layer_cost.time_growth.__wrapped__()
