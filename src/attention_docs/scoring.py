"""Attention scoring functions on batches of queries and keys (PyTorch).

The dot product, the "general" bilinear score of Luong et al. (2015) and the
additive score of Bahdanau et al. (2014), each giving scores shaped
``(..., n_queries, n_keys)``; and the checks the attention layer
(:mod:`attention_docs.layers`) shares.
"""

from __future__ import annotations

import math

from ._torch import torch


def check_tensor(name: str, value: object, ndim: int = 2) -> torch.Tensor:
    """A floating-point tensor of at least ``ndim`` dimensions, finite."""
    if not isinstance(value, torch.Tensor) or not value.is_floating_point():
        kind = value.dtype if isinstance(value, torch.Tensor) else type(value).__name__
        raise TypeError(f"{name} must be a floating-point tensor, got {kind}")
    if value.ndim < ndim or 0 in value.shape:
        raise ValueError(
            f"{name} must have at least {ndim} non-empty dimensions, got shape "
            f"{tuple(value.shape)}"
        )
    # NaN propagates through max and min, and ±inf is one of them: two numbers
    # to check, where isfinite would make a boolean tensor (several, in fact)
    # as large as the input, the n × n scores included.
    seen = value.detach()  # a check, not part of the computation autograd records
    if not (torch.isfinite(seen.amax()) and torch.isfinite(seen.amin())):
        raise ValueError(f"{name} contains NaN or infinite values")
    return value


def check_qkv(
    queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Queries (..., n_q, d), keys (..., n_k, d), values (..., n_k, d_v), checked."""
    queries = check_tensor("queries", queries)
    keys = check_tensor("keys", keys)
    values = check_tensor("values", values)
    q, k, v = (tuple(t.shape) for t in (queries, keys, values))
    if q[-1] != k[-1] or k[:-1] != v[:-1] or q[:-2] != k[:-2]:
        raise ValueError(
            "expected queries (..., n_queries, d), keys (..., n_keys, d) and "
            f"values (..., n_keys, d_v) with the same leading shape; got {q}, {k}, {v}"
        )
    return queries, keys, values


def score_scale(queries: torch.Tensor, scale: float | None) -> float:
    """The factor of the scores: ``scale``, checked, or 1/√d if None."""
    if scale is None:
        return 1 / math.sqrt(queries.shape[-1])
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")
    return scale


def dot_product_scores(queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """Scores q·k, shape (..., n_queries, n_keys), for queries and keys of one size."""
    queries, keys, _ = check_qkv(queries, keys, keys)
    return queries @ keys.transpose(-2, -1)


def bilinear_scores(
    queries: torch.Tensor, keys: torch.Tensor, weight: torch.Tensor
) -> torch.Tensor:
    """Scores qᵀ W k, the "general" score of Luong et al. (2015).

    Parameters:
        queries: Shape (..., n_queries, d_q).
        keys: Shape (..., n_keys, d_k).
        weight: W, shape (d_q, d_k).

    Returns:
        The scores, shape (..., n_queries, n_keys).
    """
    queries = check_tensor("queries", queries)
    keys = check_tensor("keys", keys)
    weight = check_tensor("weight", weight)
    if weight.ndim != 2 or weight.shape != (queries.shape[-1], keys.shape[-1]):
        raise ValueError(
            f"weight must have shape (d_q, d_k) = ({queries.shape[-1]}, "
            f"{keys.shape[-1]}), got {tuple(weight.shape)}"
        )
    return queries @ weight @ keys.transpose(-2, -1)


def additive_scores(
    queries: torch.Tensor,
    keys: torch.Tensor,
    w_q: torch.Tensor,
    w_k: torch.Tensor,
    v: torch.Tensor,
) -> torch.Tensor:
    """Scores vᵀ tanh(W_q q + W_k k), the additive score of Bahdanau et al. (2014).

    Queries and keys may have different sizes: each is mapped to h hidden units.

    Parameters:
        queries: Shape (..., n_queries, d_q).
        keys: Shape (..., n_keys, d_k).
        w_q: Shape (h, d_q).
        w_k: Shape (h, d_k).
        v: Shape (h,).

    Returns:
        The scores, shape (..., n_queries, n_keys).
    """
    queries = check_tensor("queries", queries)
    keys = check_tensor("keys", keys)
    w_q, w_k = check_tensor("w_q", w_q), check_tensor("w_k", w_k)
    v = check_tensor("v", v, ndim=1)
    hidden = v.shape[0]
    if (
        v.ndim != 1
        or w_q.shape != (hidden, queries.shape[-1])
        or w_k.shape != (hidden, keys.shape[-1])
    ):
        raise ValueError(
            f"expected w_q (h, {queries.shape[-1]}), w_k (h, {keys.shape[-1]}) and "
            f"v (h,); got {tuple(w_q.shape)}, {tuple(w_k.shape)}, {tuple(v.shape)}"
        )
    q = (queries @ w_q.T).unsqueeze(-2)  # (..., n_queries, 1, h)
    k = (keys @ w_k.T).unsqueeze(-3)  # (..., 1, n_keys, h)
    return torch.tanh(q + k) @ v  # (..., n_queries, n_keys)
