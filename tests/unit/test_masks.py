"""The numpy masks and positional encodings, against loops over the definitions.

The layer's tensors are these arrays (layers.causal_mask, padding_mask,
sinusoidal_positions, model.leave_one_out_mask); the figure of the masks'
weights draws from them without PyTorch, and equals the layer's own softmax.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attention_docs import figures, masks, positions
from attention_docs.figures.attention_layer import MASK_SEED
from attention_docs.layers import (
    causal_mask,
    masked_softmax,
    padding_mask,
    sinusoidal_positions,
)
from attention_docs.model import leave_one_out_mask


@pytest.mark.parametrize(("n_queries", "n_keys"), [(1, 1), (4, 4), (2, 5), (5, 2)])
@pytest.mark.parametrize("align", ["top-left", "bottom-right"])
def test_causal_hides_the_keys_after_each_query_s_position(n_queries, n_keys, align):
    if align == "bottom-right" and n_queries > n_keys:
        with pytest.raises(ValueError, match="no key to see"):
            masks.causal(n_queries, n_keys, align=align)
        return
    offset = 0 if align == "top-left" else n_keys - n_queries
    expected = [[k > q + offset for k in range(n_keys)] for q in range(n_queries)]
    mask = masks.causal(n_queries, n_keys, align=align)
    assert mask.dtype == bool and mask.tolist() == expected
    assert torch.equal(
        causal_mask(n_queries, n_keys, align=align), torch.tensor(expected)
    )


def test_leave_one_out_and_padding_follow_their_definitions():
    n = 5
    assert masks.leave_one_out(n).tolist() == [
        [q == k for k in range(n)] for q in range(n)
    ]
    assert torch.equal(leave_one_out_mask(n), torch.from_numpy(masks.leave_one_out(n)))
    lens = [2, 5, 1]
    padded = masks.padding(lens, n)
    assert padded.shape == (3, 1, n)
    assert padded[:, 0].tolist() == [[k >= m for k in range(n)] for m in lens]
    assert torch.equal(padding_mask(torch.tensor(lens), n), torch.from_numpy(padded))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: masks.leave_one_out(1), "n must be an integer >= 2, got 1"),
        (lambda: masks.causal(0), "n_queries must be an integer >= 1"),
        (lambda: masks.causal(3, True), "n_keys must be an integer >= 1, got True"),
        (lambda: masks.causal(3, align="left"), "align must be"),
        (lambda: masks.padding([2.0], 4), "sequence of integers"),
        (lambda: masks.padding([], 4), "sequence of integers"),
        (lambda: masks.padding([0, 3], 4), r"between 1 and n_keys = 4, got \[0, 3\]"),
        (lambda: masks.padding([5], 4), "between 1 and n_keys"),
        (lambda: positions.sinusoidal(4, 3), "d must be even"),
        (lambda: positions.sinusoidal(0, 4), "n must be an integer >= 1"),
    ],
)
def test_bad_sizes_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_sinusoidal_positions_are_the_formula_at_every_entry():
    n, d = 7, 6
    encoding = positions.sinusoidal(n, d)
    for p in range(n):
        for i in range(d // 2):
            angle = p / 10000 ** (2 * i / d)
            assert encoding[p, 2 * i] == pytest.approx(math.sin(angle), abs=1e-15)
            assert encoding[p, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-15)
    assert torch.equal(sinusoidal_positions(n, d), torch.from_numpy(encoding))


def test_the_masks_figure_s_weights_are_the_layer_s_softmax():
    """numpy's weights, against PyTorch's masked softmax of the same scores."""
    weights = figures.mask_weights()
    scores = np.random.default_rng(MASK_SEED).standard_normal(
        (figures.MASK_SIZE, figures.MASK_SIZE)
    )
    tensors = {
        "none": None,
        "leave_one_out": leave_one_out_mask(figures.MASK_SIZE),
        "causal": causal_mask(figures.MASK_SIZE),
        "padding": padding_mask([figures.MASK_VALID], figures.MASK_SIZE)[0],
    }
    assert weights.keys() == tensors.keys()
    for name, mask in tensors.items():
        expected = masked_softmax(torch.tensor(scores), mask).numpy()
        np.testing.assert_allclose(weights[name], expected, rtol=0, atol=1e-15)
