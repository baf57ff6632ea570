"""Attention masks as boolean arrays: True where a query may not look at a key.

The leave-one-out mask of the parametric chapter, a decoder's causal mask and
a padded batch's mask, in numpy. :mod:`attention_docs.layers` and
:mod:`attention_docs.model` hand the same arrays to PyTorch as tensors; a
figure that only draws the masks' weights needs no PyTorch (and runs in the
page's Python, which has none).
"""

from __future__ import annotations

import numpy as np

from .checks import whole_number

ALIGNMENTS = ("top-left", "bottom-right")


def leave_one_out(n: int) -> np.ndarray:
    """The mask that leaves each query's own pair out: True on the diagonal.

    Parameters:
        n: Number of training pairs, n ≥ 2 (each query keeps n − 1 keys).

    Returns:
        A boolean array of shape (n, n).
    """
    return np.eye(whole_number("n", n, minimum=2), dtype=bool)


def causal(
    n_queries: int, n_keys: int | None = None, *, align: str = "top-left"
) -> np.ndarray:
    """The mask of a decoder: each query may look at its own position and earlier.

    With fewer queries than keys, ``align`` says where the queries stand:
    ``"top-left"`` (PyTorch's ``is_causal``) first, query i at position i;
    ``"bottom-right"`` last, as a decoder's newest positions after a cache of
    earlier keys, so query i may look at keys 0 to i + n_keys − n_queries.

    Parameters:
        n_queries: Number of queries (positions).
        n_keys: Number of keys; the same as ``n_queries`` if None.
        align: ``"top-left"`` or ``"bottom-right"``.

    Returns:
        A boolean array of shape (n_queries, n_keys).
    """
    n_queries = whole_number("n_queries", n_queries)
    n_keys = n_queries if n_keys is None else whole_number("n_keys", n_keys)
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be 'top-left' or 'bottom-right', got {align!r}")
    if align == "bottom-right" and n_queries > n_keys:
        raise ValueError(
            f"aligned at the bottom right, {n_queries} queries and {n_keys} keys "
            "leave the first queries no key to see"
        )
    shift = 1 if align == "top-left" else 1 + n_keys - n_queries
    return np.triu(np.ones((n_queries, n_keys), dtype=bool), shift)


def padding(valid_lens: object, n_keys: int) -> np.ndarray:
    """The mask of a padded batch: each sequence's keys beyond its valid length.

    Parameters:
        valid_lens: Each sequence's number of real keys, shape (batch,),
            integers from 1 to ``n_keys``.
        n_keys: The padded length.

    Returns:
        A boolean array of shape (batch, 1, n_keys), True on padding; it
        broadcasts over the queries of scores shaped (batch, n_queries, n_keys).
    """
    n_keys = whole_number("n_keys", n_keys)
    lens = np.asarray(valid_lens)
    if lens.ndim != 1 or lens.size == 0 or lens.dtype.kind not in "iu":
        raise ValueError(
            "valid_lens must be a non-empty 1-D sequence of integers, "
            f"got {valid_lens!r}"
        )
    if (lens < 1).any() or (lens > n_keys).any():
        raise ValueError(
            f"valid_lens must lie between 1 and n_keys = {n_keys}, got {lens.tolist()}"
        )
    hidden = np.arange(n_keys)[None, :] >= lens[:, None]  # (batch, n_keys)
    return hidden[:, None, :]  # (batch, 1, n_keys)
