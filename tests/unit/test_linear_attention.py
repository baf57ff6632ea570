"""Linear attention: its running sums against the weights written out, and a loop."""

import numpy as np
import pytest
import torch

from attention_docs.layers import MultiHeadAttention, sinusoidal_positions
from attention_docs.linear_attention import (
    elu_feature_map,
    linear_attention,
    linear_attention_weights,
)


def _qkv(batch=2, n=7, d=4, d_v=3, seed=0):
    generator = torch.Generator().manual_seed(seed)
    draw = lambda *shape: torch.randn(*shape, generator=generator, dtype=torch.float64)  # noqa: E731
    return draw(batch, n, d), draw(batch, n, d), draw(batch, n, d_v)


def _loop(queries, keys, values, causal):
    """Each output by hand: Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j), in numpy."""
    phi = lambda x: np.where(x > 0, x + 1, np.exp(x))  # noqa: E731  elu + 1
    q, k, v = (t.numpy() for t in (queries, keys, values))
    out = np.zeros(q.shape[:-1] + v.shape[-1:])
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            seen = range(i + 1) if causal else range(k.shape[1])
            w = np.array([phi(q[b, i]) @ phi(k[b, j]) for j in seen])
            out[b, i] = sum(w[j] * v[b, j] for j in seen) / w.sum()
    return out


@pytest.mark.parametrize("causal", [False, True])
def test_the_running_sums_give_the_weights_outputs_and_the_loop_s(causal):
    q, k, v = _qkv()
    outputs = linear_attention(q, k, v, causal=causal)
    weights = linear_attention_weights(q, k, causal=causal)
    torch.testing.assert_close(outputs, weights @ v, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(outputs.numpy(), _loop(q, k, v, causal), rtol=1e-12)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 7, dtype=torch.float64))
    assert (weights >= 0).all()
    if causal:
        assert (weights.triu(diagonal=1) == 0).all() and (
            weights.diagonal(0, -2, -1) > 0
        ).all()


def test_the_feature_map_is_positive_and_one_plus_x_near_zero():
    x = torch.linspace(-30, 30, 601, dtype=torch.float64)
    assert (elu_feature_map(x) > 0).all()
    small = torch.tensor([1e-4, -1e-4], dtype=torch.float64)
    torch.testing.assert_close(elu_feature_map(small), 1 + small, rtol=1e-8, atol=0)


def test_a_causal_layer_needs_one_key_per_query():
    q, k, v = _qkv()
    with pytest.raises(ValueError, match="one key per query"):
        linear_attention(q[:, :3], k, v, causal=True)
    with pytest.raises(ValueError, match="one key per query"):
        linear_attention_weights(q[:, :3], k, causal=True)
    with pytest.raises(ValueError, match="queries \\(..., n_queries, d\\)"):
        linear_attention(q, k[..., :2], v)


def test_self_attention_is_permutation_equivariant_until_positions_are_added():
    """Shuffling the positions shuffles the outputs the same way: the layer
    cannot tell order. Sinusoidal encodings added to the inputs break that."""
    layer = MultiHeadAttention(8, 2, seed=3)
    x = _qkv(batch=1, n=6, d=8)[0]
    order = torch.tensor([4, 0, 5, 2, 1, 3])
    out, _ = layer(x, x, x)
    shuffled, _ = layer(x[:, order], x[:, order], x[:, order])
    torch.testing.assert_close(shuffled, out[:, order], rtol=1e-12, atol=1e-12)
    placed = x + sinusoidal_positions(6, 8)
    moved = x[:, order] + sinusoidal_positions(6, 8)
    out, _ = layer(placed, placed, placed)
    shuffled, _ = layer(moved, moved, moved)
    assert (shuffled - out[:, order]).abs().max() > 1e-3


@pytest.mark.parametrize(("n", "chunk"), [(37, 8), (64, 64), (5, 64), (100, 7), (9, 1)])
def test_the_chunked_causal_form_matches_the_weights_for_any_chunk(n, chunk):
    q, k, v = _qkv(batch=3, n=n, d=6, d_v=2, seed=n)
    expected = linear_attention_weights(q, k, causal=True) @ v
    torch.testing.assert_close(
        linear_attention(q, k, v, causal=True, chunk=chunk),
        expected,
        rtol=1e-12,
        atol=1e-12,
    )


def test_the_causal_form_s_memory_grows_linearly_with_n():
    from attention_docs.memory import peak_bytes

    d = d_v = 32
    peaks = {}
    for n in (512, 1024, 2048):
        x = torch.zeros(1, n, d)
        with torch.no_grad():
            peaks[n] = peak_bytes(lambda x=x: linear_attention(x, x, x, causal=True))
    # a few (n, d) tensors (φ(q), φ(k), the outputs) and a fixed state and chunk:
    # far below the n · d · d_v of every prefix state at once
    for n, peak in peaks.items():
        assert peak < 4 * (4 * n * d + 64 * 64 + d * d_v)
        assert peak < n * d * d_v * 4 / 4
    # affine in n: each doubling adds twice what the one before it added
    assert peaks[2048] - peaks[1024] == 2 * (peaks[1024] - peaks[512])


def test_a_bad_chunk_is_refused():
    q, k, v = _qkv()
    with pytest.raises(ValueError, match="chunk must be a positive integer"):
        linear_attention(q, k, v, causal=True, chunk=0)
