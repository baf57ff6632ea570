"""Attention scores between vectors, and the softmax that turns them into weights.

Gaussian scores and dot-product scores, for queries and keys of any dimension,
so the chapters can show that the two give the same weights.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .checks import check_bandwidth

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _as_points(name: str, values: object) -> np.ndarray:
    """Vectors as rows of a 2-D array; a 1-D input is n points of dimension 1."""
    array = np.asarray(values, dtype=float)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty array of shape (n, d) or (n,), "
            f"got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def _check_points(queries: object, keys: object) -> tuple[np.ndarray, np.ndarray]:
    queries, keys = _as_points("queries", queries), _as_points("keys", keys)
    if queries.shape[1] != keys.shape[1]:
        raise ValueError(
            "queries and keys must have the same dimension, got "
            f"{queries.shape[1]} and {keys.shape[1]}"
        )
    return queries, keys


def gaussian_scores(queries: object, keys: object, bandwidth: float) -> np.ndarray:
    """Gaussian attention scores -‖q - k‖² / (2h²) of every query and key.

    Parameters:
        queries: Shape (n_queries, d), or (n_queries,) for d = 1.
        keys: Shape (n_keys, d), or (n_keys,) for d = 1.
        bandwidth: The Gaussian's standard deviation h > 0.

    Returns:
        Scores, shape (n_queries, n_keys).
    """
    queries, keys = _check_points(queries, keys)
    h = check_bandwidth(bandwidth)
    offsets = queries[:, None, :] - keys[None, :, :]  # (n_queries, n_keys, d)
    return -np.sum(offsets**2, axis=-1) / (2 * h**2)


def dot_product_scores(queries: object, keys: object, bandwidth: float) -> np.ndarray:
    """Scores q·k / h² - ‖k‖² / (2h²): the Gaussian scores without the query term.

    Expanding -‖q - k‖² / (2h²) gives these scores minus ‖q‖² / (2h²), which is
    the same for every key of a query, so softmax turns both into the same
    weights. With keys of equal norm the key term is constant too, and what
    is left is dot-product attention with temperature h².

    Parameters:
        queries: Shape (n_queries, d), or (n_queries,) for d = 1.
        keys: Shape (n_keys, d), or (n_keys,) for d = 1.
        bandwidth: The Gaussian's standard deviation h > 0.

    Returns:
        Scores, shape (n_queries, n_keys).
    """
    queries, keys = _check_points(queries, keys)
    h = check_bandwidth(bandwidth)
    key_bias = -np.sum(keys**2, axis=1) / (2 * h**2)  # (n_keys,)
    return queries @ keys.T / h**2 + key_bias[None, :]  # (n_queries, n_keys)


def softmax(scores: object) -> np.ndarray:
    """Row-wise softmax, with each row's largest score subtracted first.

    Parameters:
        scores: Shape (n_queries, n_keys); a score of -inf gets weight 0.

    Returns:
        Weights of the same shape; each row is non-negative and sums to 1.
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or 0 in scores.shape:
        raise ValueError(f"scores must be non-empty and 2-D, got shape {scores.shape}")
    if np.isnan(scores).any() or np.isposinf(scores).any():
        raise ValueError("scores contain NaN or +inf")
    top = scores.max(axis=1, keepdims=True)  # (n_queries, 1)
    if not np.all(np.isfinite(top)):
        raise ValueError("every score of a row is -inf: that row has no key to attend")
    weights = np.exp(scores - top)
    return weights / weights.sum(axis=1, keepdims=True)


# The scoring functions a(q, k) of the soft-lookup figure, by name.
LOOKUP_SCORES = ("dot_product", "scaled_dot_product", "negative_squared_distance")


def lookup_scores(queries: object, keys: object, score: str) -> np.ndarray:
    """Scores a(q, k) of every query against every key, for a named function.

    ``"dot_product"`` is q·k, ``"scaled_dot_product"`` is q·k / √d, and
    ``"negative_squared_distance"`` is -‖q - k‖² / 2.

    Parameters:
        queries: Shape (n_queries, d), or (n_queries,) for d = 1.
        keys: Shape (n_keys, d), or (n_keys,) for d = 1.
        score: One of :data:`LOOKUP_SCORES`.

    Returns:
        Scores, shape (n_queries, n_keys).
    """
    if score not in LOOKUP_SCORES:
        raise ValueError(f"unknown score {score!r}; expected one of {LOOKUP_SCORES}")
    queries, keys = _check_points(queries, keys)
    if score == "negative_squared_distance":
        return gaussian_scores(queries, keys, 1.0)
    dots = queries @ keys.T  # (n_queries, n_keys)
    return dots / np.sqrt(keys.shape[1]) if score == "scaled_dot_product" else dots


def tempered_softmax(scores: object, temperature: float) -> np.ndarray:
    """Row-wise softmax of scores / T, with its limits at T = 0 and T = ∞.

    At ``temperature=0`` each row puts all its weight on its highest score
    (shared equally by exact ties): a lookup. At ``temperature=inf`` every key
    gets the same weight: average pooling.

    Parameters:
        scores: Shape (n_queries, n_keys), finite.
        temperature: T ≥ 0, or ``inf``.

    Returns:
        Weights of the same shape; each row is non-negative and sums to 1.
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or 0 in scores.shape or not np.all(np.isfinite(scores)):
        raise ValueError(
            f"scores must be finite, non-empty and 2-D, got shape {scores.shape}"
        )
    t = float(temperature)
    if not t >= 0:  # also catches NaN
        raise ValueError(f"temperature must be >= 0 or inf, got {temperature!r}")
    if t == 0:
        top = scores == scores.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)
    if np.isinf(t):
        return np.full(scores.shape, 1 / scores.shape[1])
    return softmax(scores / t)


def soft_lookup(
    queries: object, keys: object, values: object, *, score: str, temperature: float
) -> tuple[np.ndarray, np.ndarray]:
    """Attention as a soft database lookup: weights from scores, then an average.

    Parameters:
        queries: Shape (n_queries, d), or (n_queries,) for d = 1.
        keys: Shape (n_keys, d), or (n_keys,) for d = 1.
        values: One number per key, shape (n_keys,).
        score: One of :data:`LOOKUP_SCORES`.
        temperature: T ≥ 0 or ``inf``; see :func:`tempered_softmax`.

    Returns:
        ``(outputs, weights)`` of shapes (n_queries,) and (n_queries, n_keys).
    """
    weights = tempered_softmax(lookup_scores(queries, keys, score), temperature)
    values = np.asarray(values, dtype=float)
    if values.shape != (weights.shape[1],) or not np.all(np.isfinite(values)):
        raise ValueError(
            f"values must be {weights.shape[1]} finite numbers, one per key, "
            f"got shape {values.shape}"
        )
    return weights @ values, weights


def pooling_gradient(
    query: ArrayLike,
    keys: object,
    *,
    score: str = "dot_product",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """The Jacobian, with respect to the query, of pooling that uses the keys as values.

    With values v_i = k_i, attention pooling returns f(q) = Σ_i α_i(q) k_i.
    For dot-product scores q·k_i, ∂f/∂q is the covariance of the keys under
    the weights α(q): Σ_i α_i k_i k_iᵀ - f fᵀ. For Gaussian scores
    -‖q - k_i‖²/(2h²) it is that covariance divided by h².

    Parameters:
        query: One query, shape (d,).
        keys: The keys, which are also the values, shape (n_keys, d).
        score: ``"dot_product"`` or ``"gaussian"``.
        bandwidth: h > 0, used by the Gaussian score.

    Returns:
        The Jacobian ∂f/∂q, shape (d, d); row j is the gradient of f_j.
    """
    queries, keys = _check_points(np.atleast_2d(query), keys)
    if queries.shape[0] != 1:
        raise ValueError(f"query must be one vector, got shape {np.shape(query)}")
    if score == "dot_product":
        weights, scale = softmax(queries @ keys.T)[0], 1.0  # (n_keys,)
    elif score == "gaussian":
        weights = softmax(gaussian_scores(queries, keys, bandwidth))[0]
        scale = 1.0 / bandwidth**2
    else:
        raise ValueError(f"score must be 'dot_product' or 'gaussian', got {score!r}")
    mean = weights @ keys  # (d,)
    centred = keys - mean  # (n_keys, d)
    return scale * (centred.T * weights) @ centred  # (d, d)
