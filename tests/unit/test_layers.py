"""The attention layer against PyTorch's own layers and slow loops, to rounding."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_docs.layers import (
    MultiHeadAttention,
    causal_mask,
    masked_softmax,
    padding_mask,
    scaled_dot_product_attention,
    sinusoidal_positions,
)
from attention_docs.scoring import additive_scores, bilinear_scores, dot_product_scores

RTOL = 1e-12  # float64 throughout: the same numbers up to rounding


def random(*shape, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=generator, dtype=torch.float64)


def loop_attention(queries, keys, values, hidden):
    """One query at a time, one key at a time: softmax(q·k/√d) over the visible keys."""
    n_q, d = queries.shape
    out = np.zeros((n_q, values.shape[1]))
    for i in range(n_q):
        scores = [
            float(queries[i] @ keys[j]) / math.sqrt(d)
            for j in range(keys.shape[0])
            if not hidden[i][j]
        ]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        seen = [j for j in range(keys.shape[0]) if not hidden[i][j]]
        for w, j in zip(weights, seen, strict=True):
            out[i] += w / sum(weights) * values[j].numpy()
    return out


@pytest.mark.parametrize("masked", ["none", "causal", "padding"])
def test_matches_a_loop_and_pytorch_s_scaled_dot_product_attention(masked):
    batch, n, d, d_v = 3, 6, 4, 5
    q, k, v = random(batch, n, d), random(batch, n, d, seed=1), random(batch, n, d_v)
    mask = {
        "none": None,
        "causal": causal_mask(n),
        "padding": padding_mask([6, 3, 1], n),
    }[masked]
    out, weights = scaled_dot_product_attention(q, k, v, mask=mask)
    allowed = None if mask is None else ~mask  # PyTorch's: True takes part
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    torch.testing.assert_close(out, expected, rtol=RTOL, atol=1e-14)
    torch.testing.assert_close(weights.sum(-1), torch.ones(batch, n, dtype=q.dtype))
    hidden = torch.zeros(batch, n, n, dtype=torch.bool) if mask is None else mask
    hidden = hidden.expand(batch, n, n)
    for b in range(batch):
        np.testing.assert_allclose(
            out[b].numpy(), loop_attention(q[b], k[b], v[b], hidden[b]), rtol=1e-11
        )
        assert (weights[b][hidden[b]] == 0).all()


def test_the_causal_mask_is_pytorch_s_is_causal():
    q, k, v = random(2, 5, 3), random(2, 5, 3, seed=1), random(2, 5, 3, seed=2)
    out, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(5))
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(out, expected, rtol=RTOL, atol=1e-14)


def test_the_masks_hide_what_they_say():
    assert causal_mask(3).tolist() == [
        [False, True, True],
        [False, False, True],
        [False, False, False],
    ]
    assert causal_mask(2, 3).shape == (2, 3)
    assert padding_mask([2, 3], 3).tolist() == [[[False, False, True]], [[False] * 3]]


def with_torch_weights(ours, d_model, num_heads, bias):
    """A torch.nn.MultiheadAttention holding our layer's weights."""
    theirs = torch.nn.MultiheadAttention(
        d_model, num_heads, bias=bias, batch_first=True, dtype=torch.float64
    )
    with torch.no_grad():
        theirs.in_proj_weight.copy_(
            torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight])
        )
        theirs.out_proj.weight.copy_(ours.w_o.weight)
        if bias:
            for name in ("w_q", "w_k", "w_v"):
                getattr(ours, name).bias.uniform_(-1, 1)
            theirs.in_proj_bias.copy_(
                torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias])
            )
            ours.w_o.bias.uniform_(-1, 1)
            theirs.out_proj.bias.copy_(ours.w_o.bias)
    return theirs


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("masked", ["none", "causal", "padding"])
def test_multi_head_attention_matches_pytorch_s_given_the_same_weights(bias, masked):
    d_model, num_heads, batch, n_q, n_k = 8, 2, 3, 4, 5
    ours = MultiHeadAttention(d_model, num_heads, bias=bias, seed=3)
    theirs = with_torch_weights(ours, d_model, num_heads, bias)
    queries = random(batch, n_q, d_model)
    keys, values = random(batch, n_k, d_model, seed=1), random(batch, n_k, d_model)
    if masked == "causal":
        keys, values, n_k = queries, random(batch, n_q, d_model, seed=2), n_q
    ours_mask = {
        "none": lambda: None,
        "causal": lambda: causal_mask(n_q),
        "padding": lambda: padding_mask([5, 2, 1], n_k),
    }[masked]()
    options = {}
    if masked == "causal":
        options["attn_mask"] = ours_mask  # True: not allowed, as ours
    elif masked == "padding":
        options["key_padding_mask"] = ours_mask[:, 0]  # (batch, n_keys)
    out, weights = ours(queries, keys, values, mask=ours_mask)
    expected, expected_weights = theirs(
        queries, keys, values, average_attn_weights=False, **options
    )
    torch.testing.assert_close(out, expected, rtol=RTOL, atol=1e-13)
    torch.testing.assert_close(weights, expected_weights, rtol=RTOL, atol=1e-14)
    assert weights.shape == (batch, num_heads, n_q, n_k)


def test_the_same_seed_gives_the_same_layer_and_the_global_generator_is_untouched():
    state = torch.random.get_rng_state()
    a, b = MultiHeadAttention(6, 3, seed=7), MultiHeadAttention(6, 3, seed=7)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert all(
        torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters(), strict=True)
    )
    assert not torch.equal(MultiHeadAttention(6, 3, seed=8).w_q.weight, a.w_q.weight)


def test_self_attention_is_permutation_equivariant():
    layer = MultiHeadAttention(4, 2, seed=0)
    x = random(1, 6, 4)
    order = torch.tensor([3, 0, 5, 1, 4, 2])
    out, _ = layer(x, x, x)
    shuffled, _ = layer(x[:, order], x[:, order], x[:, order])
    torch.testing.assert_close(shuffled, out[:, order], rtol=RTOL, atol=1e-14)


def test_scoring_functions_match_their_formulas_key_by_key():
    q, k = random(3, 4), random(5, 4, seed=1)
    w = random(4, 4, seed=2)
    w_q, w_k, v = random(6, 4, seed=3), random(6, 4, seed=4), random(6, seed=5)
    dot, bilinear = dot_product_scores(q, k), bilinear_scores(q, k, w)
    additive = additive_scores(q, k, w_q, w_k, v)
    for i in range(3):
        for j in range(5):
            assert dot[i, j] == pytest.approx(float(q[i] @ k[j]), rel=RTOL)
            assert bilinear[i, j] == pytest.approx(float(q[i] @ w @ k[j]), rel=1e-11)
            hidden = torch.tanh(w_q @ q[i] + w_k @ k[j])
            assert additive[i, j] == pytest.approx(float(v @ hidden), rel=1e-11)


def test_sinusoidal_positions_follow_the_formula():
    encoding = sinusoidal_positions(7, 6)
    for p in range(7):
        for i in range(3):
            angle = p / 10000 ** (2 * i / 6)
            assert encoding[p, 2 * i] == pytest.approx(math.sin(angle), abs=1e-15)
            assert encoding[p, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-15)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: MultiHeadAttention(6, 4), "multiple of num_heads"),
        (lambda: causal_mask(0), "n_queries must be an integer >= 1"),
        (lambda: padding_mask([0, 2], 3), "between 1 and n_keys = 3"),
        (lambda: padding_mask([4], 3), "between 1 and n_keys = 3"),
        (lambda: sinusoidal_positions(4, 5), "d must be even"),
        (
            lambda: scaled_dot_product_attention(
                random(2, 3), random(4, 2), random(4, 2)
            ),
            "same leading shape",
        ),
        (
            lambda: scaled_dot_product_attention(
                random(2, 3) * math.nan, random(4, 3), random(4, 2)
            ),
            "queries contains NaN",
        ),
        (
            lambda: masked_softmax(random(2, 3), torch.ones(2, 3, dtype=torch.bool)),
            "hides every key",
        ),
        (
            lambda: masked_softmax(random(2, 3), torch.zeros(4, 3, dtype=torch.bool)),
            "does not broadcast",
        ),
        (
            lambda: scaled_dot_product_attention(
                random(2, 3), random(4, 3), random(4, 2), scale=0.0
            ),
            "scale must be a positive number",
        ),
        (
            lambda: MultiHeadAttention(4, 2)(random(1, 2, 3), random(1, 2, 3), None),
            "queries must have shape",
        ),
    ],
)
def test_bad_input_is_refused_naming_the_problem(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_integer_tensors_are_refused():
    with pytest.raises(TypeError, match="queries must be a floating-point tensor"):
        scaled_dot_product_attention(
            torch.ones(2, 3, dtype=torch.int64), random(2, 3), random(2, 3)
        )


def test_each_api_s_mask_convention_as_the_chapter_states_it():
    """The attention-layer chapter's paragraph on masks, against PyTorch."""
    n, d = 5, 4
    q, k, v = random(1, n, d), random(1, n, d, seed=1), random(1, n, d, seed=2)
    mask = causal_mask(n)  # True: hidden
    ours, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    # scaled_dot_product_attention: a boolean mask is True where a key takes part
    torch.testing.assert_close(
        F.scaled_dot_product_attention(q, k, v, attn_mask=~mask), ours
    )
    flipped = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert (flipped - ours).abs().max() > 0.1  # runs, without an error, and is wrong
    # a float mask is added to the scores: 0 takes part, -inf hidden
    additive = torch.zeros(n, n, dtype=q.dtype).masked_fill(mask, -math.inf)
    torch.testing.assert_close(
        F.scaled_dot_product_attention(q, k, v, attn_mask=additive), ours
    )
    # a query with every key hidden: zeros from SDPA, NaN from MultiheadAttention,
    # an error from the library
    none = torch.zeros(n, n, dtype=torch.bool)
    none[2] = True  # query 2 sees nothing
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=~none)
    assert (out[0, 2] == 0).all() and torch.isfinite(out).all()
    layer = torch.nn.MultiheadAttention(d, 1, batch_first=True, dtype=q.dtype)
    with torch.no_grad():
        out, _ = layer(q, k, v, attn_mask=none)
    assert out[0, 2].isnan().all() and not out[0, 1].isnan().any()
    with torch.no_grad():
        out, _ = layer(q, k, v, attn_mask=none, need_weights=False)
    assert (out[0, 2] == layer.out_proj.bias).all()  # zeros, then W_o's bias
    with pytest.raises(ValueError, match="hides every key"):
        masked_softmax(random(1, n, n), none)
    # MultiheadAttention averages the heads' weights unless told not to
    layer = torch.nn.MultiheadAttention(d, 2, batch_first=True, dtype=q.dtype)
    with torch.no_grad():
        _, averaged = layer(q, k, v)
        _, each = layer(q, k, v, average_attn_weights=False)
    assert averaged.shape == (1, n, n) and each.shape == (1, 2, n, n)
    torch.testing.assert_close(each.mean(dim=1), averaged)
