"""A decoder's cache of keys and values, and what it costs to keep.

A decoder generates one token at a time, and every new position attends to
all earlier ones. Their keys and values do not change once computed (a
causal mask keeps earlier positions from seeing later ones), so a decoder
keeps them in a cache and computes, for each new token, only its own query,
key and value. :class:`KVCache` is that cache for
:class:`attention_docs.layers.MultiHeadAttention`;
:func:`kv_cache_bytes` counts its size for a whole model.
"""

from __future__ import annotations

from ._torch import torch


class KVCache:
    """Keys and values of the positions seen so far, per key-value head.

    Attributes:
        keys: Shape (batch, kv_heads, n, d_k), or None before the first call.
        values: Shape (batch, kv_heads, n, d_k), or None before the first call.
    """

    keys: torch.Tensor | None
    values: torch.Tensor | None

    def __init__(self) -> None:
        self.keys = None
        self.values = None

    def __len__(self) -> int:
        """The number of positions cached."""
        return 0 if self.keys is None else self.keys.shape[-2]

    @property
    def nbytes(self) -> int:
        """The bytes the cached keys and values take."""
        if self.keys is None or self.values is None:
            return 0
        return sum(t.element_size() * t.nelement() for t in (self.keys, self.values))

    def append(
        self, keys: torch.Tensor, values: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Add the new positions' keys and values; return all of them so far.

        Parameters:
            keys: Shape (batch, kv_heads, m, d_k), the m new positions'.
            values: The same shape.

        Returns:
            The cached keys and values, now with n + m positions each.
        """
        if self.keys is None or self.values is None:
            self.keys, self.values = keys, values
        else:
            if (
                keys.shape[:-2] != self.keys.shape[:-2]
                or keys.shape[-1] != (self.keys.shape[-1])
            ):
                raise ValueError(
                    f"new keys of shape {tuple(keys.shape)} do not continue a cache "
                    f"of shape {tuple(self.keys.shape)}"
                )
            self.keys = torch.cat([self.keys, keys], dim=-2)
            self.values = torch.cat([self.values, values], dim=-2)
        return self.keys, self.values


def kv_cache_bytes(
    n: int,
    *,
    layers: int,
    kv_heads: int,
    head_dim: int,
    element_bytes: int = 2,
    batch: int = 1,
) -> int:
    """The bytes a decoder's key-value cache takes after n positions.

    Parameters:
        n: Positions cached.
        layers: Attention layers, each with its own cache.
        kv_heads: Key-value heads per layer (the number of heads, without
            grouped-query attention).
        head_dim: Each head's width d_k.
        element_bytes: Bytes per number: 2 for 16-bit floats.
        batch: Sequences decoded together.

    Returns:
        2 · layers · batch · n · kv_heads · head_dim · element_bytes: a key
        and a value per position, head and layer.
    """
    sizes = {
        "n": n,
        "layers": layers,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "element_bytes": element_bytes,
        "batch": batch,
    }
    for name, value in sizes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return 2 * layers * batch * n * kv_heads * head_dim * element_bytes
