"""Counts of work and memory traffic for one attention head.

A processor's arithmetic is fast and its main memory slow: a GPU can do
tens of multiply-adds in the time it takes to fetch one byte. So what limits
a step is whichever it runs out of first, and the ratio of multiply-adds to
bytes moved (its arithmetic intensity) says which. These functions count
both, exactly, for the ways of computing attention in the memory-wall
chapter: materialised (the n × n scores and weights written to memory and
read back), tiled (:mod:`attention_docs.tiled_attention`), and one step of
decoding from a key-value cache (:mod:`attention_docs.kv_cache`), whose
size :func:`kv_cache_bytes` counts. A number
counts as moved once each time a step reads it from or writes it to main
memory; what stays in fast memory within a step is free.
"""

from __future__ import annotations

from typing import TypedDict


class Step(TypedDict):
    """The work and traffic of one step."""

    name: str
    multiply_adds: int
    bytes_moved: int


def _positive(**sizes: int) -> None:
    for name, value in sizes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")


def materialised_steps(n: int, d: int, *, element_bytes: int = 4) -> list[Step]:
    """The three steps of attention that writes its n × n matrices to memory.

    Parameters:
        n: Positions (queries and keys).
        d: Width of queries, keys and values.
        element_bytes: Bytes per number.

    Returns:
        ``scores``, S = QKᵀ/√d: reads Q and K, writes S; ``softmax``, P =
        softmax(S): reads S, writes P, and does no multiply-add (n²
        exponentials); ``pooling``, O = PV: reads P and V, writes O.
    """
    _positive(n=n, d=d, element_bytes=element_bytes)
    square, rows = n * n, n * d
    return [
        Step(
            name="scores",
            multiply_adds=square * d,
            bytes_moved=(2 * rows + square) * element_bytes,
        ),
        Step(name="softmax", multiply_adds=0, bytes_moved=2 * square * element_bytes),
        Step(
            name="pooling",
            multiply_adds=square * d,
            bytes_moved=(square + 2 * rows) * element_bytes,
        ),
    ]


def tiled_step(n: int, d: int, block: int, *, element_bytes: int = 4) -> Step:
    """Tiled attention as one step: the scores and weights never leave a tile.

    Each tile of ``block`` queries is read once, meets every key and value
    (read once per tile of queries) and writes its outputs once.

    Parameters:
        n: Positions (queries and keys).
        d: Width of queries, keys and values.
        block: Queries per tile, as many as fast memory holds with their keys.
        element_bytes: Bytes per number.

    Returns:
        The step ``tiled``: 2n²d multiply-adds, as materialised; bytes for Q
        and O once, and K and V once per tile of queries.
    """
    _positive(n=n, d=d, block=block, element_bytes=element_bytes)
    tiles = -(-n // block)  # tiles of queries, the last one perhaps short
    moved = (2 * n * d + tiles * 2 * n * d) * element_bytes
    return Step(name="tiled", multiply_adds=2 * n * n * d, bytes_moved=moved)


def decode_step(
    n: int, *, heads: int, kv_heads: int, head_dim: int, element_bytes: int = 2
) -> Step:
    """One new token's attention, in one layer, over a cache of n positions.

    Parameters:
        n: Positions in the cache, the new one included.
        heads: Query heads.
        kv_heads: Key-value heads (``heads`` without grouped-query
            attention, 1 with multi-query attention).
        head_dim: Each head's width d_k.
        element_bytes: Bytes per number of the cache.

    Returns:
        The step ``decode``: each query head scores n keys and pools n values
        (2 n d_k multiply-adds per head); every cached key and value is read
        once, whichever query heads share it.
    """
    _positive(n=n, heads=heads, kv_heads=kv_heads, head_dim=head_dim)
    _positive(element_bytes=element_bytes)
    if heads % kv_heads:
        raise ValueError(f"heads ({heads}) must be a multiple of kv_heads ({kv_heads})")
    return Step(
        name="decode",
        multiply_adds=2 * n * head_dim * heads,
        bytes_moved=2 * n * head_dim * kv_heads * element_bytes,
    )


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
    _positive(n=n, layers=layers, kv_heads=kv_heads, head_dim=head_dim)
    _positive(element_bytes=element_bytes, batch=batch)
    return 2 * layers * batch * n * kv_heads * head_dim * element_bytes


def intensity(step: Step) -> float:
    """Multiply-adds per byte moved."""
    return step["multiply_adds"] / step["bytes_moved"]
