"""The nearest key of each query, decided exactly in floating point.

Far from the data, float64 can no longer tell the distances |q - k_i| apart
(beyond about 1e16 from keys in [0, 5) they all round to the same number), so
comparing rounded distances makes every key tie. The nearest key is instead
found from the two keys that bracket the query, the largest key at or below it
and the smallest at or above it, and the query is compared with their midpoint
exactly: the rounding error of the midpoint is recovered (Knuth's TwoSum) and
compared with the query's offset from the rounded midpoint.
"""

from __future__ import annotations

import numpy as np


def nearest_keys(
    keys: np.ndarray, queries: np.ndarray, hidden: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The nearest key of each query, and every key tied with it.

    Parameters:
        keys: Finite keys, shape (n_keys,) shared by all queries, or
            (n_queries, n_keys), one row per query.
        queries: Finite queries, shape (n_queries,).
        hidden: Optional boolean array of shape (n_queries, n_keys): True marks
            keys a query may not use. Each query needs at least one visible key.

    Returns:
        ``(nearest, tied)``: one nearest key value per query, shape
        (n_queries,), and a boolean array of shape (n_queries, n_keys) that is
        True on every visible key exactly as near as it (duplicates of it, or
        the key on the query's other side at the same distance).
    """
    keys = np.broadcast_to(keys, (queries.size, np.shape(keys)[-1]))
    q = queries[:, None]  # (n_queries, 1)
    visible = np.ones(keys.shape, dtype=bool) if hidden is None else ~hidden
    below = np.where(visible & (keys <= q), keys, -np.inf).max(axis=1)
    above = np.where(visible & (keys >= q), keys, np.inf).min(axis=1)
    both = np.isfinite(below) & np.isfinite(above)
    with np.errstate(invalid="ignore", over="ignore"):
        half_below, half_above = below / 2, above / 2  # exact (no overflow)
        middle = half_below + half_above  # rounded midpoint
        part = middle - half_below
        error = (half_below - (middle - part)) + (half_above - part)  # exact
        offset = queries - middle  # exact whenever it is comparable to error
    take_below = ~np.isfinite(above) | (both & (offset <= error))
    take_above = ~np.isfinite(below) | (both & (offset >= error))
    nearest = np.where(take_below, below, above)
    tied = visible & (
        (take_below[:, None] & (keys == below[:, None]))
        | (take_above[:, None] & (keys == above[:, None]))
    )
    return nearest, tied
