"""Grouped-query heads and decoding from a cache, against references."""

import pytest
import torch
import torch.nn.functional as F

from attention_docs.kv_cache import KVCache
from attention_docs.layers import MultiHeadAttention, causal_mask
from attention_docs.traffic import kv_cache_bytes


def random(*shape, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=generator, dtype=torch.float64)


def heads(x, count):
    batch, n, width = x.shape
    return x.reshape(batch, n, count, width // count).transpose(1, 2)


@pytest.mark.parametrize("kv_heads", [1, 2, 4])
def test_grouped_heads_equal_attention_over_repeated_keys_and_values(kv_heads):
    layer = MultiHeadAttention(16, 4, num_kv_heads=kv_heads, seed=1)
    x = random(2, 7, 16)
    out, weights = layer(x, x, x, mask=causal_mask(7))
    q = heads(layer.w_q(x), 4)
    k, v = heads(layer.w_k(x), kv_heads), heads(layer.w_v(x), kv_heads)
    # PyTorch's own grouped-query attention, and the same keys repeated by hand
    theirs = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    group = 4 // kv_heads
    by_hand = F.scaled_dot_product_attention(
        q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1), is_causal=True
    )
    for expected in (theirs, by_hand):
        joined = expected.transpose(1, 2).reshape(2, 7, 16)
        torch.testing.assert_close(out, layer.w_o(joined), rtol=1e-12, atol=1e-13)
    assert weights.shape == (2, 4, 7, 7)


@pytest.mark.parametrize(("kv_heads", "parameters"), [(4, 1088), (2, 816), (1, 680)])
def test_fewer_key_value_heads_shrink_w_k_and_w_v(kv_heads, parameters):
    layer = MultiHeadAttention(16, 4, num_kv_heads=kv_heads)
    d_k = 16 // 4
    assert layer.w_k.weight.shape == (kv_heads * d_k, 16)
    # W_q, W_o: 16 × 16 + 16; W_k, W_v: 16 × (h_kv d_k) + h_kv d_k each
    assert sum(p.numel() for p in layer.parameters()) == parameters
    assert parameters == 2 * (256 + 16) + 2 * (16 + 1) * kv_heads * d_k


@pytest.mark.parametrize("kv_heads", [1, 2, 4])
def test_decoding_one_token_at_a_time_from_the_cache_is_causal_attention(kv_heads):
    layer = MultiHeadAttention(16, 4, num_kv_heads=kv_heads, seed=2)
    x = random(2, 9, 16, seed=3)
    full, _ = layer(x, x, x, mask=causal_mask(9))
    cache = KVCache()
    prompt = x[:, :4]
    outputs = [layer(prompt, prompt, prompt, mask=causal_mask(4), cache=cache)[0]]
    for i in range(4, 9):
        token = x[:, i : i + 1]
        mask = causal_mask(1, i + 1, align="bottom-right")
        outputs.append(layer(token, token, token, mask=mask, cache=cache)[0])
    torch.testing.assert_close(torch.cat(outputs, 1), full, rtol=1e-12, atol=1e-13)
    assert len(cache) == 9
    assert cache.nbytes == kv_cache_bytes(
        9, layers=1, kv_heads=kv_heads, head_dim=4, element_bytes=8, batch=2
    )


def test_two_new_queries_need_the_bottom_right_alignment():
    layer = MultiHeadAttention(8, 2, seed=4)
    x = random(1, 5, 8, seed=5)
    full, _ = layer(x, x, x, mask=causal_mask(5))
    last = x[:, 3:]
    right, _ = layer(last, x, x, mask=causal_mask(2, 5, align="bottom-right"))
    left, _ = layer(last, x, x, mask=causal_mask(2, 5))
    torch.testing.assert_close(right, full[:, 3:], rtol=1e-12, atol=1e-13)
    assert (left - full[:, 3:]).abs().max() > 0.01  # top-left: positions 0 and 1
    allowed = torch.ones(2, 5, dtype=torch.bool).tril(3)  # PyTorch's causal_lower_right
    assert torch.equal(~causal_mask(2, 5, align="bottom-right"), allowed)


def test_the_model_sized_cache():
    # 32 layers, 32 heads of 128, 8192 positions, 16 bits: 4 GiB; 8 kv heads: 1 GiB
    size = kv_cache_bytes(8192, layers=32, kv_heads=32, head_dim=128)
    assert size == 4 * 2**30
    assert kv_cache_bytes(8192, layers=32, kv_heads=8, head_dim=128) == size // 4


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: MultiHeadAttention(16, 4, num_kv_heads=3), "multiple of num_kv_heads"),
        (lambda: MultiHeadAttention(16, 4, num_kv_heads=0), "num_kv_heads must be"),
        (lambda: causal_mask(5, 3, align="bottom-right"), "no key to see"),
        (lambda: causal_mask(2, 3, align="right"), "align must be"),
        (lambda: kv_cache_bytes(0, layers=1, kv_heads=1, head_dim=1), "n must be"),
    ],
)
def test_bad_settings_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_cache_refuses_keys_or_values_of_another_shape_and_stays_as_it_was():
    cache = KVCache()
    with pytest.raises(ValueError, match="values the same leading shape"):
        cache.append(random(1, 2, 3, 4), random(1, 2, 2, 4))
    assert len(cache) == 0
    cache.append(random(1, 2, 3, 4), random(1, 2, 3, 4))
    with pytest.raises(ValueError, match="new keys of shape"):
        cache.append(random(1, 1, 1, 4), random(1, 1, 1, 4))
    with pytest.raises(ValueError, match="new values of shape"):
        cache.append(random(1, 2, 1, 4), random(1, 2, 1, 5))
    assert cache.keys.shape == cache.values.shape == (1, 2, 3, 4)


def test_several_new_queries_with_a_cache_need_a_mask():
    layer = MultiHeadAttention(8, 2, seed=4)
    cache = KVCache()
    x = random(1, 3, 8)
    with pytest.raises(ValueError, match="needs a mask"):
        layer(x, x, x, cache=cache)
    assert len(cache) == 0
