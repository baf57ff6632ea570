"""Average pooling and Nadaraya-Watson attention pooling (numpy).

Nadaraya-Watson regression predicts, for a query x, the weighted average

    f(x) = Σ_i α(x, x_i) y_i,   α(x, x_i) = K((x - x_i) / h) / Σ_j K((x - x_j) / h),

so the training inputs x_i are the keys, the targets y_i are the values, and the
normalised kernel weights α are the attention weights.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Literal, overload

import numpy as np

from .kernels import get_kernel

# Largest number of (query, key) pairs handled at once; bounds temporary memory
# to a few hundred MB however many queries and keys there are.
MAX_CHUNK_ELEMENTS = 1 << 22


def _as_vector(name: str, values: object, *, allow_empty: bool = False) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def _check_bandwidth(bandwidth: object) -> float:
    if isinstance(bandwidth, bool) or not isinstance(bandwidth, Real):
        raise TypeError(f"bandwidth must be a real number, got {bandwidth!r}")
    if not (math.isfinite(bandwidth) and bandwidth > 0):
        raise ValueError(f"bandwidth must be positive and finite, got {bandwidth!r}")
    return float(bandwidth)


def _check_pairs(
    x_train: object, y_train: object, kernel: str, bandwidth: object
) -> tuple[np.ndarray, np.ndarray, float]:
    """Validate keys, values, kernel name and bandwidth together."""
    x_train = _as_vector("x_train", x_train)
    y_train = _as_vector("y_train", y_train)
    if x_train.shape != y_train.shape:
        raise ValueError(
            "x_train and y_train must have the same length, "
            f"got {x_train.size} and {y_train.size}"
        )
    get_kernel(kernel)
    return x_train, y_train, _check_bandwidth(bandwidth)


def average_pooling(y_train: np.ndarray, x_query: np.ndarray) -> np.ndarray:
    """Predict the mean of all training targets for every query.

    Parameters:
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query,); only their number matters.

    Returns:
        Predictions, shape (n_query,), all equal to the mean of ``y_train``.
    """
    y_train = _as_vector("y_train", y_train)
    x_query = _as_vector("x_query", x_query, allow_empty=True)
    return np.full(x_query.shape, y_train.mean())


def _weights_block(
    x_train: np.ndarray,
    x_query: np.ndarray,
    kernel: str,
    bandwidth: float,
    exclude: np.ndarray | None = None,
    out: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Unnormalised attention weights of a block of queries, and their row sums.

    The log-kernel is shifted by its row maximum before exponentiating (a
    max-shifted softmax for the Gaussian), so every row has a largest weight
    of exactly 1 unless no key has a positive kernel value; such a row shares
    its weight among the nearest keys. ``exclude`` (n_query, n_train) marks
    (query, key) pairs that get no weight. Work is done in place on one
    (n_query, n_train) array, ``out`` if given, to keep memory and time low.
    """
    scores = np.subtract(x_query[:, None], x_train[None, :], out=out)  # (n_q, n_k)
    with np.errstate(over="ignore", invalid="ignore"):
        scores /= bandwidth
        if kernel == "gaussian":  # -u²/2; the 1/sqrt(2π) factor cancels
            np.square(scores, out=scores)
            scores *= -0.5
        else:
            scores = get_kernel(kernel).log_function(scores)
    if exclude is not None:
        scores[exclude] = -np.inf
    top = scores.max(axis=1, keepdims=True)  # (n_query, 1)
    empty = ~np.isfinite(top[:, 0])  # no key has a positive kernel value
    top[empty] = 0.0
    scores -= top
    weights = np.exp(scores, out=scores)
    if np.any(empty):
        distance = np.abs(x_query[empty, None] - x_train[None, :])
        if exclude is not None:
            distance[exclude[empty]] = np.inf
        weights[empty] = distance == distance.min(axis=1, keepdims=True)
    return weights, weights.sum(axis=1)


def _pool(weights: np.ndarray, totals: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Weighted average of the values per row, row by row in a fixed order."""
    return np.einsum("ij,j->i", weights, values) / totals


def attention_weights(
    x_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """Nadaraya-Watson attention weights of every query over every key.

    Parameters:
        x_train: Training inputs (the keys), shape (n_train,).
        x_query: Query inputs, shape (n_query,).
        kernel: ``"gaussian"``, ``"boxcar"``, ``"constant"`` or ``"epanechnikov"``.
        bandwidth: The kernel width h > 0.

    Returns:
        Weights, shape (n_query, n_train); each row is non-negative and sums to 1.
        See [nadaraya_watson][attention_docs.nadaraya_watson] for queries that no
        key reaches.
    """
    return nadaraya_watson(
        x_train,
        np.zeros_like(np.asarray(x_train, dtype=float)),
        x_query,
        kernel=kernel,
        bandwidth=bandwidth,
    )[1]


def gaussian_attention_pooling(
    queries: np.ndarray, keys: np.ndarray, values: np.ndarray, bandwidth: float
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian Nadaraya-Watson regression in a few lines: the version to read.

    The chapter shows this function's source. :func:`nadaraya_watson` computes
    the same numbers (the tests check it) with input checks, other kernels and
    bounded memory for large inputs.

    Parameters:
        queries: Query inputs, shape (n_queries,).
        keys: Training inputs, shape (n_keys,).
        values: Training targets, shape (n_keys,).
        bandwidth: The Gaussian's standard deviation h > 0.

    Returns:
        ``(predictions, weights)`` of shapes (n_queries,) and (n_queries, n_keys).
    """
    scores = -(((queries[:, None] - keys[None, :]) / bandwidth) ** 2) / 2
    scores -= scores.max(axis=1, keepdims=True)  # (n_queries, n_keys)
    weights = np.exp(scores)  # (n_queries, n_keys)
    weights /= weights.sum(axis=1, keepdims=True)  # (n_queries, n_keys)
    return weights @ values, weights  # (n_queries,), (n_queries, n_keys)


@overload
def nadaraya_watson(
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = ...,
    bandwidth: float = ...,
    return_weights: Literal[True] = ...,
    chunk_size: int | None = ...,
) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def nadaraya_watson(
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = ...,
    bandwidth: float = ...,
    return_weights: Literal[False],
    chunk_size: int | None = ...,
) -> tuple[np.ndarray, None]: ...


def nadaraya_watson(
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
    return_weights: bool = True,
    chunk_size: int | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Nadaraya-Watson kernel regression, seen as attention pooling.

    The weights are normalised in log space with the largest term factored out
    (a max-shifted softmax for the Gaussian), so a query far from every key gets
    finite weights instead of 0/0. In the limit, all weight goes to the nearest
    key, shared equally between keys tied for nearest.

    A query that no key reaches, because the kernel is compact (boxcar,
    Epanechnikov) and every key is more than one bandwidth away, gets that same
    limit: the value of its nearest key, or the mean over tied nearest keys. It
    is what the estimate tends to as the bandwidth grows until a key is reached.

    Parameters:
        x_train: Training inputs (the keys), shape (n_train,).
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query,).
        kernel: ``"gaussian"``, ``"boxcar"``, ``"constant"`` or ``"epanechnikov"``.
        bandwidth: The kernel width h > 0.
        return_weights: If False, the (n_query, n_train) weight matrix is not
            kept, so memory stays bounded for any number of queries.
        chunk_size: Queries handled at once; by default as many as keep each
            block under about four million entries. The result does not
            depend on it.

    Returns:
        ``(predictions, weights)``: predictions of shape (n_query,) and the
        attention weights of shape (n_query, n_train) whose rows sum to 1
        (``None`` when ``return_weights`` is False).
    """
    x_train, y_train, bandwidth = _check_pairs(x_train, y_train, kernel, bandwidth)
    x_query = _as_vector("x_query", x_query, allow_empty=True)
    if chunk_size is None:
        chunk_size = max(1, MAX_CHUNK_ELEMENTS // x_train.size)
    elif (
        isinstance(chunk_size, bool)
        or not isinstance(chunk_size, int)
        or chunk_size < 1
    ):
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")

    predictions = np.empty(x_query.size)
    weights = np.empty((x_query.size, x_train.size)) if return_weights else None
    buffer = np.empty((min(chunk_size, x_query.size), x_train.size))  # reused
    for start in range(0, x_query.size, chunk_size):
        rows = slice(start, start + chunk_size)
        out = buffer[: len(x_query[rows])]
        block, totals = _weights_block(
            x_train, x_query[rows], kernel, bandwidth, out=out
        )
        predictions[rows] = _pool(block, totals, y_train)  # (chunk,)
        if weights is not None:
            weights[rows] = block / totals[:, None]
    return predictions, weights


def leave_one_out(
    x_train: np.ndarray,
    y_train: np.ndarray,
    *,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Predict each training target from all the other training pairs.

    Training input i is the query and every pair except pair i is a key and
    value: the estimate that leave-one-out cross-validation scores.

    Parameters:
        x_train: Training inputs, shape (n_train,), with n_train ≥ 2.
        y_train: Training targets, shape (n_train,).
        kernel: ``"gaussian"``, ``"boxcar"``, ``"constant"`` or ``"epanechnikov"``.
        bandwidth: The kernel width h > 0.

    Returns:
        ``(predictions, weights)``: predictions of shape (n_train,) and weights
        of shape (n_train, n_train) with a zero diagonal and rows summing to 1.
    """
    x_train, y_train, bandwidth = _check_pairs(x_train, y_train, kernel, bandwidth)
    if x_train.size < 2:
        raise ValueError("leave-one-out needs at least 2 training pairs")
    self_pairs = np.eye(x_train.size, dtype=bool)  # (n_train, n_train)
    weights, totals = _weights_block(
        x_train, x_train, kernel, bandwidth, exclude=self_pairs
    )
    return _pool(weights, totals, y_train), weights / totals[:, None]


def loo_cv_error(
    x_train: np.ndarray,
    y_train: np.ndarray,
    bandwidths: np.ndarray,
    *,
    kernel: str = "gaussian",
) -> np.ndarray:
    """Leave-one-out least-squares cross-validation error for each bandwidth.

    CV(h) = (1/n) Σ_i (y_i - f_{-i}(x_i))², where f_{-i} is the estimate
    without pair i. The bandwidth that minimises it is the least-squares
    cross-validation choice.

    Parameters:
        x_train: Training inputs, shape (n_train,).
        y_train: Training targets, shape (n_train,).
        bandwidths: Bandwidths to score, shape (n_bandwidths,).
        kernel: The kernel name.

    Returns:
        CV(h) for each bandwidth, shape (n_bandwidths,); ``inf`` where the
        error is larger than a float can hold (residuals beyond about 1e154).
    """
    bandwidths = _as_vector("bandwidths", bandwidths)
    errors = []
    for h in bandwidths:
        predictions, _ = leave_one_out(x_train, y_train, kernel=kernel, bandwidth=h)
        errors.append(_mean_square(np.asarray(y_train, dtype=float) - predictions))
    return np.array(errors)


def _mean_square(residuals: np.ndarray) -> float:
    """Mean of squares, scaled so that only a truly huge result overflows (to inf)."""
    scale = float(np.max(np.abs(residuals)))
    if scale == 0:
        return 0.0
    with np.errstate(over="ignore"):
        return float(np.mean((residuals / scale) ** 2) * scale * scale)


def cv_bandwidth(
    x_train: np.ndarray,
    y_train: np.ndarray,
    *,
    kernel: str = "gaussian",
    low: float = 1e-3,
    high: float = 1e3,
    tol: float = 1e-9,
) -> float:
    """The bandwidth that least-squares cross-validation selects.

    A log-spaced grid over [low, high] finds the best bracket, then a
    golden-section search refines it, so the global minimum on the grid's
    resolution is found even when CV(h) has several local minima.

    Parameters:
        x_train: Training inputs, shape (n_train,).
        y_train: Training targets, shape (n_train,).
        kernel: The kernel name.
        low: Smallest bandwidth considered.
        high: Largest bandwidth considered.
        tol: Relative width of the final bracket.

    Returns:
        The bandwidth h_cv minimising :func:`loo_cv_error`.
    """
    if not 0 < low < high or not np.isfinite(high):
        raise ValueError(f"need 0 < low < high < inf, got low={low}, high={high}")
    grid = np.geomspace(low, high, 241)
    errors = loo_cv_error(x_train, y_train, grid, kernel=kernel)
    best = int(np.argmin(errors))
    a, b = np.log(grid[max(best - 1, 0)]), np.log(grid[min(best + 1, grid.size - 1)])

    def error(log_h: float) -> float:
        return float(loo_cv_error(x_train, y_train, [np.exp(log_h)], kernel=kernel)[0])

    ratio = (np.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = error(c), error(d)
    while b - a > tol:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = error(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = error(d)
    return float(np.exp((a + b) / 2))


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


def _check_points(
    queries: object, keys: object, bandwidth: object
) -> tuple[np.ndarray, np.ndarray, float]:
    queries, keys = _as_points("queries", queries), _as_points("keys", keys)
    if queries.shape[1] != keys.shape[1]:
        raise ValueError(
            "queries and keys must have the same dimension, got "
            f"{queries.shape[1]} and {keys.shape[1]}"
        )
    return queries, keys, _check_bandwidth(bandwidth)


def gaussian_scores(queries: object, keys: object, bandwidth: float) -> np.ndarray:
    """Gaussian attention scores -‖q - k‖² / (2h²) of every query and key.

    Parameters:
        queries: Shape (n_queries, d), or (n_queries,) for d = 1.
        keys: Shape (n_keys, d), or (n_keys,) for d = 1.
        bandwidth: The Gaussian's standard deviation h > 0.

    Returns:
        Scores, shape (n_queries, n_keys).
    """
    queries, keys, h = _check_points(queries, keys, bandwidth)
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
    queries, keys, h = _check_points(queries, keys, bandwidth)
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
