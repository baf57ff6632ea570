"""Exact softmax attention, block by block, never holding the n × n weights.

The output of query i is a Nadaraya-Watson estimate, the ratio of two sums
over the keys,

    o_i = Σ_j exp(s_ij) v_j / Σ_j exp(s_ij),   s_ij = q_i·k_j / √d,

and both sums can be built a block of keys at a time. To keep exp from
overflowing, each sum is kept relative to the largest score m seen so far:
when a new block raises the maximum to m', the sums so far are multiplied by
exp(m − m') before the block's terms are added. That is the online softmax
(Milakov and Gimelshein 2018); FlashAttention (Dao et al. 2022) runs it over
tiles of queries and keys that fit in fast on-chip memory. Here the tiles are
slices of tensors in ordinary memory: the arithmetic is the same, and what
it saves is the n × n matrix, for the forward pass and for the backward
pass, which recomputes each tile's weights from the queries, the keys and
one number per query, the log of its denominator.
"""

from __future__ import annotations

import math
from typing import Any

from ._torch import torch
from .scoring import check_qkv, score_scale

BLOCK = 64  # queries and keys per tile, unless the caller says otherwise


def _block_mask(
    queries: range, keys: range, offset: int, like: torch.Tensor
) -> torch.Tensor | None:
    """True where key j lies after query i + offset (bottom-right causal)."""
    if keys.stop - 1 <= queries.start + offset:
        return None  # the whole tile is visible
    rows = torch.arange(queries.start, queries.stop, device=like.device)[:, None]
    columns = torch.arange(keys.start, keys.stop, device=like.device)[None, :]
    return columns > rows + offset  # (block_q, block_k)


def _tiles(n: int, block: int) -> list[range]:
    return [range(start, min(start + block, n)) for start in range(0, n, block)]


def _visible(queries: range, keys: range, offset: int | None) -> bool:
    """Whether any key of the tile is visible to some query of it."""
    return offset is None or keys.start <= queries.stop - 1 + offset


def _scores(
    q: torch.Tensor, k: torch.Tensor, scale: float, mask: torch.Tensor | None
) -> torch.Tensor:
    scores = q @ k.transpose(-2, -1) * scale  # (..., block_q, block_k)
    return scores if mask is None else scores.masked_fill(mask, -math.inf)


def _forward(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    scale: float,
    block: int,
    offset: int | None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Outputs (..., n_q, d_v) and the log of each query's denominator (..., n_q)."""
    outputs = q.new_empty(*q.shape[:-1], v.shape[-1])
    log_sums = q.new_empty(q.shape[:-1])
    for rows in _tiles(q.shape[-2], block):
        qi = q[..., rows.start : rows.stop, :]
        top = qi.new_full(qi.shape[:-1], -math.inf)  # running maximum m
        total = qi.new_zeros(qi.shape[:-1])  # running Σ exp(s - m)
        pooled = qi.new_zeros(*qi.shape[:-1], v.shape[-1])  # Σ exp(s - m) v
        for columns in _tiles(k.shape[-2], block):
            if not _visible(rows, columns, offset):
                break
            mask = None if offset is None else _block_mask(rows, columns, offset, q)
            kj, vj = (t[..., columns.start : columns.stop, :] for t in (k, v))
            scores = _scores(qi, kj, scale, mask)
            new_top = torch.maximum(top, scores.amax(dim=-1))
            shift = torch.where(new_top == -math.inf, 0.0, new_top)  # a row with none
            weights = torch.exp(scores - shift[..., None])
            rescale = torch.exp(top - shift)  # the old sums, at the new maximum
            total = total * rescale + weights.sum(dim=-1)
            pooled = pooled * rescale[..., None] + weights @ vj
            top = new_top
        outputs[..., rows.start : rows.stop, :] = pooled / total[..., None]
        log_sums[..., rows.start : rows.stop] = top + torch.log(total)
    return outputs, log_sums


def _backward(
    saved: tuple[torch.Tensor, ...],
    grad: torch.Tensor,
    scale: float,
    block: int,
    offset: int | None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Gradients of q, k and v, each tile's weights recomputed from log_sums."""
    q, k, v, outputs, log_sums = saved
    grad_q, grad_k, grad_v = (torch.zeros_like(t) for t in (q, k, v))
    agreement = (grad * outputs).sum(dim=-1)  # (..., n_q): Σ_c dO_ic O_ic
    for rows in _tiles(q.shape[-2], block):
        r = slice(rows.start, rows.stop)
        qi, gi = q[..., r, :], grad[..., r, :]
        for columns in _tiles(k.shape[-2], block):
            if not _visible(rows, columns, offset):
                break
            c = slice(columns.start, columns.stop)
            mask = None if offset is None else _block_mask(rows, columns, offset, q)
            weights = torch.exp(
                _scores(qi, k[..., c, :], scale, mask) - log_sums[..., r, None]
            )
            grad_v[..., c, :] += weights.transpose(-2, -1) @ gi
            grad_weights = gi @ v[..., c, :].transpose(-2, -1)
            grad_scores = weights * (grad_weights - agreement[..., r, None]) * scale
            grad_q[..., r, :] += grad_scores @ k[..., c, :]
            grad_k[..., c, :] += grad_scores.transpose(-2, -1) @ qi
    return grad_q, grad_k, grad_v


class _TiledAttention(torch.autograd.Function):
    @staticmethod
    def forward(
        ctx: Any,  # noqa: ANN401  (PyTorch's context, where forward saves)
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        scale: float,
        block: int,
        offset: int | None,
    ) -> torch.Tensor:
        outputs, log_sums = _forward(q, k, v, scale, block, offset)
        ctx.save_for_backward(q, k, v, outputs, log_sums)
        ctx.settings = (scale, block, offset)
        return outputs

    @staticmethod
    @torch.autograd.function.once_differentiable  # not differentiable again
    def backward(
        ctx: Any,  # noqa: ANN401  (PyTorch's context, with what forward saved)
        grad: torch.Tensor,
    ) -> tuple[torch.Tensor | None, ...]:
        gradients = _backward(ctx.saved_tensors, grad, *ctx.settings)
        return (*gradients, None, None, None)


def tiled_attention(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    *,
    causal: bool = False,
    block: int = BLOCK,
    scale: float | None = None,
) -> torch.Tensor:
    """Softmax attention's outputs, computed a tile of queries and keys at a time.

    The same outputs as :func:`attention_docs.layers.scaled_dot_product_attention`
    to rounding error, with memory linear in the number of positions: no
    tensor larger than ``block`` × ``block`` per leading index besides the
    inputs and the outputs. Its backward pass keeps only the inputs, the
    outputs and one number per query.

    Parameters:
        queries: Shape (..., n_queries, d).
        keys: Shape (..., n_keys, d).
        values: Shape (..., n_keys, d_v).
        causal: Query i sees keys 0 to i + n_keys − n_queries (aligned at the
            bottom right, as when the last queries of a sequence attend to
            all of it); needs n_queries ≤ n_keys.
        block: Queries and keys per tile.
        scale: The factor of the scores; 1/√d if None.

    It computes in the inputs' dtype, running sums included (GPU kernels
    keep those in 32-bit floats when the inputs are 16-bit).

    Returns:
        The outputs, shape (..., n_queries, d_v).
    """
    queries, keys, values = check_qkv(queries, keys, values)
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be a positive integer, got {block!r}")
    scale = score_scale(queries, scale)
    offset = None
    if causal:
        n_queries, n_keys = queries.shape[-2], keys.shape[-2]
        if n_queries > n_keys:
            raise ValueError(
                f"a causal layer aligned at the bottom right needs n_queries <= "
                f"n_keys, got {n_queries} queries and {n_keys} keys: the first "
                "queries would see no key"
            )
        offset = n_keys - n_queries
    return _TiledAttention.apply(queries, keys, values, scale, block, offset)


def log_sum_exp(
    queries: torch.Tensor, keys: torch.Tensor, *, block: int = BLOCK
) -> torch.Tensor:
    """The log of Σ_j exp(q_i·k_j / √d) for each query, block by block (unmasked).

    The one number per query that the backward pass of :func:`tiled_attention`
    keeps instead of the query's weights.
    """
    queries, keys, _ = check_qkv(queries, keys, keys)
    scale = score_scale(queries, None)
    return _forward(queries, keys, keys, scale, block, None)[1]
