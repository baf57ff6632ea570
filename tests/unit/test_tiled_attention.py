"""Tiled attention against the full softmax layer and PyTorch's, to rounding."""

import pytest
import torch
import torch.nn.functional as F

from attention_docs.layers import causal_mask, scaled_dot_product_attention
from attention_docs.memory import peak_bytes, saved_bytes
from attention_docs.tiled_attention import log_sum_exp, tiled_attention


def random(*shape, seed=0, grad=False):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=generator, dtype=torch.float64)
    return x.requires_grad_(grad)


SHAPES = [(37, 37, 8), (5, 37, 8), (64, 64, 64), (1, 9, 4), (9, 9, 100)]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("n_q", "n_k", "block"), SHAPES)
def test_outputs_and_gradients_match_the_full_layer(causal, n_q, n_k, block):
    q = random(2, 3, n_q, 8, grad=True)
    k, v = (
        random(2, 3, n_k, 8, seed=1, grad=True),
        random(2, 3, n_k, 5, seed=2, grad=True),
    )
    mask = causal_mask(n_q, n_k, align="bottom-right") if causal else None
    expected, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    out = tiled_attention(q, k, v, causal=causal, block=block)
    torch.testing.assert_close(out, expected, rtol=1e-12, atol=1e-14)
    upstream = random(*expected.shape, seed=3)
    want = torch.autograd.grad(expected, (q, k, v), upstream)
    got = torch.autograd.grad(out, (q, k, v), upstream)
    for a, b in zip(got, want, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-11, atol=1e-13)


def test_causal_tiles_match_pytorch_s_bottom_right_alignment():
    q, k, v = (
        random(1, 4, 6, 8),
        random(1, 4, 20, 8, seed=1),
        random(1, 4, 20, 8, seed=2),
    )
    allowed = torch.ones(6, 20, dtype=torch.bool).tril(20 - 6)  # causal_lower_right
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    torch.testing.assert_close(tiled_attention(q, k, v, causal=True, block=4), expected)


def test_the_backward_pass_passes_gradcheck():
    q, k, v = (random(1, 2, 7, 3, seed=s, grad=True) for s in range(3))
    assert torch.autograd.gradcheck(
        lambda a, b, c: tiled_attention(a, b, c, causal=True, block=3), (q, k, v)
    )


def test_the_log_sum_exp_is_torch_s():
    q, k = random(3, 10, 4), random(3, 25, 4, seed=1)
    expected = torch.logsumexp(q @ k.transpose(-2, -1) / 2, dim=-1)
    torch.testing.assert_close(log_sum_exp(q, k, block=6), expected)


def test_huge_scores_do_not_overflow():
    q = random(1, 12, 4) * 1000  # scores of order 10⁶: exp overflows without the shift
    k, v = random(1, 12, 4, seed=1), random(1, 12, 4, seed=2)
    out = tiled_attention(q, k, v, block=5)
    assert torch.isfinite(out).all()
    torch.testing.assert_close(out, scaled_dot_product_attention(q, k, v)[0])


def test_memory_grows_linearly_while_the_full_layer_s_grows_quadratically():
    def peaks(layer, n):
        x = torch.zeros(1, n, 32)
        with torch.no_grad():
            return peak_bytes(lambda: layer(x, x, x))

    full = [
        peaks(lambda *a: scaled_dot_product_attention(*a)[0], n) for n in (256, 512)
    ]
    tiled = [peaks(tiled_attention, n) for n in (256, 512)]
    assert full[1] / full[0] > 3.5  # n² dominates
    assert tiled[1] / tiled[0] < 2.1
    assert tiled[1] < 4 * 512 * 32 * 4  # a few (n, d) tensors, no n × n one
    assert full[1] > 512 * 512 * 4  # at least the weights


def test_the_backward_pass_keeps_no_n_by_n_tensor():
    n, d = 256, 16
    q, k, v = (random(1, n, d, seed=s, grad=True) for s in range(3))
    kept_full = saved_bytes(lambda: scaled_dot_product_attention(q, k, v)[0])
    kept_tiled = saved_bytes(lambda: tiled_attention(q, k, v))
    assert kept_full >= n * n * 8  # the float64 weights at least
    assert kept_tiled == (4 * n * d + n) * 8  # q, k, v, the outputs, one log-sum each


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"block": 0}, "block must be a positive integer"),
        ({"block": True}, "block must be a positive integer"),
        ({"scale": -1.0}, "scale must be a positive number"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    x = random(1, 4, 2)
    with pytest.raises(ValueError, match=message):
        tiled_attention(x, x, x, **kwargs)


def test_more_queries_than_keys_cannot_be_causal_at_the_bottom_right():
    with pytest.raises(ValueError, match="needs n_queries <= n_keys"):
        tiled_attention(random(1, 5, 2), random(1, 3, 2), random(1, 3, 2), causal=True)
    with pytest.raises(ValueError, match="contains NaN"):
        tiled_attention(
            random(1, 5, 2) * float("nan"), random(1, 3, 2), random(1, 3, 2)
        )
