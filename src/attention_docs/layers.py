"""The Transformer's attention layer (PyTorch): masks, scaled dot products, heads.

Queries, keys and values come in batches, shaped ``(..., n, d)``: any leading
dimensions (batch, heads), then one row per position. A mask is a boolean
tensor that is True where a query may *not* look, as in
:func:`attention_docs.model.leave_one_out_mask`; it broadcasts against the
scores ``(..., n_queries, n_keys)``. The functions compute in the dtype they
are given (the tests use float64, to compare with PyTorch's own layers to
rounding).
"""

from __future__ import annotations

import math

from . import masks, positions
from ._torch import nn, torch
from .checks import whole_number
from .kv_cache import KVCache
from .scoring import check_qkv, check_tensor, score_scale


def causal_mask(
    n_queries: int, n_keys: int | None = None, *, align: str = "top-left"
) -> torch.Tensor:
    """The mask of a decoder: each query may look at its own position and earlier.

    Unlike the leave-one-out mask, it keeps the diagonal: a position sees itself.
    With as many queries as keys, query i may look at keys 0 to i. With
    fewer queries than keys, the alignment says which positions the queries
    stand at: ``"top-left"`` (PyTorch's ``is_causal``) puts them first,
    query i at position i; ``"bottom-right"`` puts them last, as when a
    decoder with a cache of earlier keys runs its newest positions, so query
    i may look at keys 0 to i + n_keys − n_queries. (:func:`.masks.causal`,
    as a tensor.)

    Parameters:
        n_queries: Number of queries (positions).
        n_keys: Number of keys; the same as ``n_queries`` if None.
        align: ``"top-left"`` or ``"bottom-right"``.

    Returns:
        A boolean tensor of shape (n_queries, n_keys), True where a query
        may not look.
    """
    return torch.from_numpy(masks.causal(n_queries, n_keys, align=align))


def padding_mask(valid_lens: object, n_keys: int) -> torch.Tensor:
    """:func:`.masks.padding`'s mask of a padded batch, as a boolean tensor.

    Parameters:
        valid_lens: Each sequence's number of real keys (1 to ``n_keys``).
        n_keys: The padded length.

    Returns:
        Shape (batch, 1, n_keys), True on each sequence's padding.
    """
    return torch.from_numpy(masks.padding(valid_lens, n_keys))


def masked_softmax(
    scores: torch.Tensor, mask: torch.Tensor | None = None
) -> torch.Tensor:
    """Softmax over the keys (the last dimension), with hidden keys at weight 0.

    Parameters:
        scores: Attention scores, shape (..., n_queries, n_keys).
        mask: True where a query may not look; broadcast against ``scores``.

    Returns:
        The attention weights, same shape as ``scores``: each row sums to one
        over the keys it may see.

    Raises:
        ValueError: A row would see no key at all, or the mask does not
            broadcast against the scores.
    """
    scores = check_tensor("scores", scores)
    if mask is None:
        return torch.softmax(scores, dim=-1)
    if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
        raise TypeError(f"mask must be a boolean tensor, got {mask!r}")
    try:
        hidden = torch.broadcast_to(mask, scores.shape)
    except RuntimeError:
        raise ValueError(
            f"mask of shape {tuple(mask.shape)} does not broadcast against scores "
            f"of shape {tuple(scores.shape)}"
        ) from None
    if hidden.all(dim=-1).any():
        raise ValueError("mask hides every key of some query: nothing to attend")
    return torch.softmax(scores.masked_fill(hidden, -math.inf), dim=-1)


def scaled_dot_product_attention(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    *,
    mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention pooling with scores q·k / √d (Vaswani et al. 2017).

    Parameters:
        queries: Shape (..., n_queries, d).
        keys: Shape (..., n_keys, d).
        values: Shape (..., n_keys, d_v).
        mask: True where a query may not look (:func:`causal_mask`,
            :func:`padding_mask`), broadcast against the scores.
        scale: The factor of the scores; 1/√d if None.

    Returns:
        The outputs, shape (..., n_queries, d_v), and the attention weights,
        shape (..., n_queries, n_keys).
    """
    queries, keys, values = check_qkv(queries, keys, values)
    scale = score_scale(queries, scale)
    scores = queries @ keys.transpose(-2, -1) * scale  # (..., n_queries, n_keys)
    weights = masked_softmax(scores, mask)
    return weights @ values, weights  # (..., n_queries, d_v)


def sinusoidal_positions(n: int, d: int) -> torch.Tensor:
    """The sinusoidal positional encodings of Vaswani et al. (2017).

    Position p, column 2i holds sin(p / 10000^(2i/d)) and column 2i + 1 holds
    cos(p / 10000^(2i/d)) (:func:`.positions.sinusoidal`, as a tensor).

    Parameters:
        n: Number of positions.
        d: The model's width, even.

    Returns:
        A float64 tensor of shape (n, d).
    """
    return torch.from_numpy(positions.sinusoidal(n, d))


class MultiHeadAttention(nn.Module):
    """Multi-head attention: h scaled dot-product attentions side by side.

    The queries, keys and values are projected by W_q, W_k and W_v to
    ``num_heads`` heads of width d_k = d_model / num_heads each; each head
    attends on its own; the heads' outputs, concatenated, are projected by
    W_o. With fewer key-value heads than query heads (grouped-query
    attention; one is multi-query attention), W_k and W_v make
    ``num_kv_heads`` heads of keys and values, each shared by
    ``num_heads / num_kv_heads`` query heads in turn. The weights are drawn
    from a seed, so a model is the same in every run without touching
    PyTorch's global generator.

    Attributes:
        num_heads: The number of heads h.
        num_kv_heads: The number of key-value heads.
        w_q: The query projection (``nn.Linear``); ``w_k``, ``w_v`` and
            ``w_o`` likewise.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        *,
        num_kv_heads: int | None = None,
        bias: bool = True,
        seed: int = 0,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        d_model = whole_number("d_model", d_model)
        self.num_heads = whole_number("num_heads", num_heads)
        self.num_kv_heads = (
            num_heads
            if num_kv_heads is None
            else whole_number("num_kv_heads", num_kv_heads)
        )
        if d_model % num_heads:
            raise ValueError(
                f"d_model ({d_model}) must be a multiple of num_heads ({num_heads})"
            )
        if num_heads % self.num_kv_heads:
            raise ValueError(
                f"num_heads ({num_heads}) must be a multiple of num_kv_heads "
                f"({self.num_kv_heads})"
            )
        generator = torch.Generator().manual_seed(seed)
        kv_width = self.num_kv_heads * (d_model // num_heads)
        widths = (d_model, kv_width, kv_width, d_model)
        self.w_q, self.w_k, self.w_v, self.w_o = (
            _linear(d_model, width, bias, dtype, generator) for width in widths
        )

    def _heads(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        batch, n, width = x.shape
        return x.reshape(batch, n, heads, width // heads).transpose(1, 2)

    def _checked(self, name: str, x: object) -> torch.Tensor:
        x = check_tensor(name, x, ndim=3)
        if x.ndim != 3 or x.shape[-1] != self.w_q.in_features:
            raise ValueError(
                f"{name} must have shape (batch, n, {self.w_q.in_features}), "
                f"got {tuple(x.shape)}"
            )
        return x

    def forward(
        self,
        queries: torch.Tensor,
        keys: torch.Tensor,
        values: torch.Tensor,
        *,
        mask: torch.Tensor | None = None,
        cache: KVCache | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Attend from each query to the keys, in every head.

        Parameters:
            queries: Shape (batch, n_queries, d_model).
            keys: Shape (batch, n_keys, d_model).
            values: Shape (batch, n_keys, d_model).
            mask: True where a query may not look, shape (n_queries, n_keys)
                or (batch, n_queries or 1, n_keys); the same for every head.
                With a cache, the keys are the cached ones followed by the
                new ones.
            cache: Keys and values of earlier positions, per key-value head;
                the new ones are appended to it before attending.

        Returns:
            The outputs, shape (batch, n_queries, d_model), and each head's
            weights, shape (batch, heads, n_queries, n_keys).
        """
        queries, keys, values = (
            self._checked(name, x)
            for name, x in (("queries", queries), ("keys", keys), ("values", values))
        )
        if mask is not None and mask.ndim == 3:
            mask = mask[:, None]  # (batch, 1, n_queries or 1, n_keys): every head
        q = self._heads(self.w_q(queries), self.num_heads)  # (batch, h, n_q, d_k)
        k = self._heads(self.w_k(keys), self.num_kv_heads)  # (batch, h_kv, n_k, d_k)
        v = self._heads(self.w_v(values), self.num_kv_heads)  # (batch, h_kv, n_k, d_k)
        if cache is not None:
            if mask is None and queries.shape[1] > 1:
                raise ValueError(
                    "with a cache, more than one new query needs a mask, e.g. "
                    "causal_mask(n_new, n_cached + n_new, align='bottom-right'): "
                    "without one, each new position would see the later ones"
                )
            k, v = cache.append(k, v)
        # Each key-value head, repeated for its group of query heads: the
        # arithmetic of grouped-query attention, not its saving in memory.
        group = self.num_heads // self.num_kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        heads, weights = scaled_dot_product_attention(q, k, v, mask=mask)
        batch, _, n_queries, _ = heads.shape
        joined = heads.transpose(1, 2).reshape(batch, n_queries, -1)
        return self.w_o(joined), weights  # (batch, n_queries, d_model)


def _linear(
    d_in: int,
    d_out: int,
    bias: bool,
    dtype: torch.dtype,
    generator: torch.Generator,
) -> nn.Linear:
    """An ``nn.Linear`` with weights uniform in ±1/√d_in from ``generator``."""
    bound = 1 / math.sqrt(d_in)
    linear = nn.Linear(d_in, d_out, bias=bias, dtype=dtype, device="meta")
    linear.weight = nn.Parameter(
        torch.empty(d_out, d_in, dtype=dtype).uniform_(
            -bound, bound, generator=generator
        )
    )
    if bias:
        linear.bias = nn.Parameter(torch.zeros(d_out, dtype=dtype))
    return linear
