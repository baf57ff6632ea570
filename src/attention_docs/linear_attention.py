"""Linear attention: the kernel view of attention, carried forward (PyTorch).

Softmax attention weighs key j for query i by exp(q_i·k_j / √d), normalised
over the keys: a kernel between query and key, as in Nadaraya-Watson
regression. Katharopoulos et al. (2020) replace that kernel by a dot product
of feature maps, φ(q)·φ(k) with φ(x) = elu(x) + 1 (positive, so the weights
stay positive). Then the output of query i,

    Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j)
        = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ) / φ(q_i)ᵀ (Σ_j φ(k_j)),

needs the sums over the keys computed once, shared by all queries: time and
memory grow linearly with the number of positions n instead of as n². A
causal layer keeps running sums over the keys up to each position: a state
of fixed size, carried from one chunk of positions to the next.
"""

from __future__ import annotations

from ._torch import torch
from .scoring import check_qkv

CHUNK = 64  # positions per chunk of the causal form


def elu_feature_map(x: torch.Tensor) -> torch.Tensor:
    """φ(x) = elu(x) + 1: positive, and close to 1 + x for small x."""
    return torch.nn.functional.elu(x) + 1


def linear_attention_weights(
    queries: torch.Tensor, keys: torch.Tensor, *, causal: bool = False
) -> torch.Tensor:
    """The weights linear attention gives, written out (n_queries × n_keys).

    The layer itself never forms them (:func:`linear_attention`); they are
    here to compare with softmax attention's.

    Parameters:
        queries: Shape (..., n_queries, d).
        keys: Shape (..., n_keys, d).
        causal: Query i sees keys 0 to i only (one key per query).

    Returns:
        Shape (..., n_queries, n_keys); each row sums to one.
    """
    queries, keys, _ = check_qkv(queries, keys, keys)
    if causal:
        _check_causal(queries, keys)
    similarity = elu_feature_map(queries) @ elu_feature_map(keys).transpose(-2, -1)
    if causal:
        similarity = similarity.tril()
    return similarity / similarity.sum(dim=-1, keepdim=True)


def _check_causal(queries: torch.Tensor, keys: torch.Tensor) -> None:
    if queries.shape[-2] != keys.shape[-2]:
        raise ValueError(
            "a causal layer needs one key per query, got "
            f"{queries.shape[-2]} queries and {keys.shape[-2]} keys"
        )


def linear_attention(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    *,
    causal: bool = False,
    chunk: int = CHUNK,
) -> torch.Tensor:
    """Linear attention's outputs, from sums over the keys (no n × n matrix).

    Parameters:
        queries: Shape (..., n_queries, d).
        keys: Shape (..., n_keys, d).
        values: Shape (..., n_keys, d_v).
        causal: Query i sees keys 0 to i only; then the number of queries
            and keys must be equal. The sums over the keys so far, a state
            of d × d_v and d numbers, are carried from one chunk of
            positions to the next, so memory grows as n (2d + d_v), for
            φ(q), φ(k) and the outputs, not as n d d_v.
        chunk: Positions per chunk of the causal form.

    Returns:
        The outputs, shape (..., n_queries, d_v).
    """
    queries, keys, values = check_qkv(queries, keys, values)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    phi_q, phi_k = elu_feature_map(queries), elu_feature_map(keys)
    if not causal:
        memory = phi_k.transpose(-2, -1) @ values  # (..., d, d_v): Σ_j φ(k_j) v_jᵀ
        normaliser = phi_k.sum(dim=-2)  # (..., d): Σ_j φ(k_j)
        numerator = phi_q @ memory  # (..., n_queries, d_v)
        return numerator / (phi_q @ normaliser[..., None])
    _check_causal(queries, keys)
    return _causal_in_chunks(phi_q, phi_k, values, chunk)


def _causal_in_chunks(
    phi_q: torch.Tensor, phi_k: torch.Tensor, values: torch.Tensor, chunk: int
) -> torch.Tensor:
    """Causal outputs a chunk of positions at a time, carrying a fixed-size state.

    The state is the running sums over the keys before the chunk,
    Σ_j φ(k_j) v_jᵀ (d × d_v) and Σ_j φ(k_j) (d); within a chunk, each query
    meets the chunk's earlier keys through a chunk × chunk matrix.
    """
    n = phi_q.shape[-2]
    memory = phi_q.new_zeros(*phi_q.shape[:-2], phi_q.shape[-1], values.shape[-1])
    normaliser = phi_q.new_zeros(*phi_q.shape[:-2], phi_q.shape[-1])
    outputs = values.new_empty(*phi_q.shape[:-1], values.shape[-1])
    for start in range(0, n, chunk):
        rows = slice(start, min(start + chunk, n))
        q, k, v = phi_q[..., rows, :], phi_k[..., rows, :], values[..., rows, :]
        within = (q @ k.transpose(-2, -1)).tril()  # (..., chunk, chunk)
        numerator = within @ v + q @ memory  # (..., chunk, d_v)
        denominator = within.sum(dim=-1) + (q @ normaliser[..., :, None]).squeeze(-1)
        outputs[..., rows, :] = numerator / denominator[..., None]
        memory = memory + k.transpose(-2, -1) @ v  # the state after the chunk
        normaliser = normaliser + k.sum(dim=-2)
    return outputs
