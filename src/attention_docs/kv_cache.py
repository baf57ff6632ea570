"""A decoder's cache of keys and values, and what it costs to keep.

A decoder generates one token at a time, and every new position attends to
all earlier ones. Their keys and values do not change once computed (a
causal mask keeps earlier positions from seeing later ones), so a decoder
keeps them in a cache and computes, for each new token, only its own query,
key and value. :class:`KVCache` is that cache for
:class:`attention_docs.layers.MultiHeadAttention`;
:func:`attention_docs.traffic.kv_cache_bytes` counts its size for a whole
model.
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
        if keys.ndim != 4 or values.shape[:-1] != keys.shape[:-1]:
            raise ValueError(
                "keys must have shape (batch, kv_heads, m, d_k) and values the same "
                f"leading shape, got {tuple(keys.shape)} and {tuple(values.shape)}"
            )
        if self.keys is None or self.values is None:
            self.keys, self.values = keys, values
            return keys, values
        for name, new, old in (
            ("keys", keys, self.keys),
            ("values", values, self.values),
        ):
            if new.shape[:-2] != old.shape[:-2] or new.shape[-1] != old.shape[-1]:
                raise ValueError(
                    f"new {name} of shape {tuple(new.shape)} do not continue a cache "
                    f"of shape {tuple(old.shape)}"
                )
        # Each step copies the cache; serving systems preallocate or page it.
        self.keys = torch.cat([self.keys, keys], dim=-2)
        self.values = torch.cat([self.values, values], dim=-2)
        return self.keys, self.values
