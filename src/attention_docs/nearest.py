"""The nearest key of each query, decided exactly in floating point.

Far from the data, float64 can no longer tell the distances |q - k_i| apart
(from about 2^56 ≈ 7e16 from keys in [0, 5) they all round to the same
number, and fewer and fewer are told apart well before that), so
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
    below, above = _brackets(keys, queries, hidden)
    take_below, take_above = _sides(below, above, queries)
    nearest = np.where(take_below, below, above)
    keys = np.broadcast_to(keys, (queries.size, np.shape(keys)[-1]))
    visible = np.ones(keys.shape, dtype=bool) if hidden is None else ~hidden
    tied = visible & (
        (take_below[:, None] & (keys == below[:, None]))
        | (take_above[:, None] & (keys == above[:, None]))
    )
    return nearest, tied


def nearest_key(
    keys: np.ndarray, queries: np.ndarray, hidden: np.ndarray | None = None
) -> np.ndarray:
    """The nearest key of each query, shape (n_queries,): see :func:`nearest_keys`.

    Shared keys with nothing hidden, or with only each query's own key hidden
    (leave-one-out: the queries are the keys), are bracketed from the sorted
    keys in O(n log n); other cases compare every key with every query.
    """
    below, above = _brackets(keys, queries, hidden)
    return np.where(_sides(below, above, queries)[0], below, above)


def _brackets(
    keys: np.ndarray, queries: np.ndarray, hidden: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each query's largest visible key at or below it and smallest at or above.

    ``-inf`` or ``inf`` where the query has no visible key on that side.
    """
    if keys.ndim == 1 and (hidden is None or _only_self_hidden(keys, queries, hidden)):
        return _sorted_brackets(keys, queries, leave_one_out=hidden is not None)
    keys = np.broadcast_to(keys, (queries.size, np.shape(keys)[-1]))
    q = queries[:, None]  # (n_queries, 1)
    visible = np.ones(keys.shape, dtype=bool) if hidden is None else ~hidden
    below = np.where(visible & (keys <= q), keys, -np.inf).max(axis=1)
    above = np.where(visible & (keys >= q), keys, np.inf).min(axis=1)
    return below, above


def _only_self_hidden(
    keys: np.ndarray, queries: np.ndarray, hidden: np.ndarray
) -> bool:
    """Whether the queries are the keys and each hides exactly its own key."""
    return (
        queries.shape == keys.shape
        and hidden.shape == (keys.size, keys.size)
        and np.array_equal(queries, keys)
        and bool(hidden.diagonal().all())
        and int(np.count_nonzero(hidden)) == keys.size
    )


def _sorted_brackets(
    keys: np.ndarray, queries: np.ndarray, *, leave_one_out: bool
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_brackets` from the sorted keys (see :func:`nearest_key`)."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    padded = np.concatenate(([-np.inf], ordered, [np.inf]))
    if not leave_one_out:
        below = padded[np.searchsorted(ordered, queries, side="right")]
        above = padded[np.searchsorted(ordered, queries, side="left") + 1]
        return below, above
    # Query i is key i, at sorted position p (padded p + 1); its neighbours
    # there bracket it, and a neighbour equal to it is a duplicate it may use.
    position = np.empty(keys.size, dtype=np.intp)
    position[order] = np.arange(1, keys.size + 1)
    before, after = padded[position - 1], padded[position + 1]
    below = np.where(after == queries, after, before)
    above = np.where(before == queries, before, after)
    return below, above


def _sides(
    below: np.ndarray, above: np.ndarray, queries: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Whether each query's nearest key is its ``below`` key, and its ``above``.

    Both are True when the two are exactly as near (or the same key).
    """
    both = np.isfinite(below) & np.isfinite(above)
    with np.errstate(invalid="ignore", over="ignore"):
        half_below, half_above = below / 2, above / 2  # exact (no overflow)
        middle = half_below + half_above  # rounded midpoint
        part = middle - half_below
        error = (half_below - (middle - part)) + (half_above - part)  # exact
        offset = queries - middle  # exact whenever it is comparable to error
    take_below = ~np.isfinite(above) | (both & (offset <= error))
    take_above = ~np.isfinite(below) | (both & (offset >= error))
    return take_below, take_above


# A query more than 100 (scaled) units from every key is scored relative to
# its nearest key: there the rounding of the squared distances starts to blur
# the scores' differences (and far enough out ties every key).
FAR_SCORE = -0.5e4


def relative_scores(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Gaussian log-weights -‖q - k‖²/2 of points, shifted by a nearest key's.

    For queries far from every key (:data:`FAR_SCORE`), with any number of
    coordinates, each already divided by its bandwidth.

    Written relative to a reference key r, as Σ_j (k_j - r_j)((q_j - k_j)/2 +
    (q_j - r_j)/2), which does not round away far from the keys, where the
    squared distances themselves all round to the same number. The first
    reference is the key nearest by rounded distances; the best-scoring key
    relative to it is the final one, picked with the terms scaled by 2^-60
    (exactly, so the order is kept) so that they cannot overflow.

    Parameters:
        queries: Scaled queries, shape (n_queries, d).
        keys: Scaled keys, shape (n_keys, d).

    Returns:
        Log-weights of shape (n_queries, n_keys), largest (0) on the nearest
        key; -inf where a key is too far to hold any weight.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.sum((queries[:, None, :] - keys[None]) ** 2, axis=2)  # (m, n)
        reference = keys[np.argmin(naive, axis=1)]  # (m, d)
        for scale in (2.0**-60, 2.0**-60, 1.0):
            step = keys[None] - reference[:, None]  # (m, n, d)
            reach = (queries[:, None] - keys[None]) / 2
            reach += (queries - reference)[:, None] / 2  # (m, n, d)
            terms = np.where(step == 0, 0.0, step * (reach * scale))
            scores = np.sum(terms, axis=2)  # (m, n)
            scores[np.isnan(scores)] = -np.inf  # +inf and -inf terms: far off
            if scale != 1.0:
                reference = keys[np.argmax(scores, axis=1)]
    return scores


def in_widths(widths: np.ndarray, **points: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each named array of points divided by the kernel's widths, per coordinate.

    Raises:
        ValueError: Naming the array: a point so far out that dividing it by
            a width below 1 overflows float64, where no score can be formed.
    """
    scaled = []
    for name, array in points.items():
        with np.errstate(over="ignore"):
            scaled.append(array / widths)
        if not np.isfinite(scaled[-1]).all():
            raise ValueError(
                f"{name} divided by the bandwidths overflows float64 (a "
                f"coordinate beyond about {np.finfo(float).max:.3g} times its "
                "bandwidth): use larger bandwidths or rescale the inputs"
            )
    return tuple(scaled)
