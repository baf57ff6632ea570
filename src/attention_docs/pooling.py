"""Average pooling and Nadaraya-Watson attention pooling (numpy).

Nadaraya-Watson regression predicts, for a query x, the weighted average

    f(x) = Σ_i α(x, x_i) y_i,   α(x, x_i) = K((x - x_i) / h) / Σ_j K((x - x_j) / h),

so the training inputs x_i are the keys, the targets y_i are the values, and the
normalised kernel weights α are the attention weights.
"""

from __future__ import annotations

from typing import Literal, overload

import numpy as np

from .checks import as_vector, check_pairs
from .kernels import get_kernel
from .nearest import nearest_key, nearest_keys

# Largest number of (query, key) pairs handled at once; bounds temporary memory
# to a few hundred MB however many queries and keys there are.
MAX_CHUNK_ELEMENTS = 1 << 22


def average_pooling(y_train: np.ndarray, x_query: np.ndarray) -> np.ndarray:
    """Predict the mean of all training targets for every query.

    Parameters:
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query,); only their number matters.

    Returns:
        Predictions, shape (n_query,), all equal to the mean of ``y_train``.
    """
    y_train = as_vector("y_train", y_train)
    x_query = as_vector("x_query", x_query, allow_empty=True)
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

    Every row's largest weight is exactly 1, on its nearest key (or keys). The
    Gaussian's log-weights are computed relative to the nearest key k*, as
    -((x - k)² - (x - k*)²)/(2h²) = (k - k*)((x - k)/2 + (x - k*)/2)/h², a
    max-shifted softmax whose factors do not round away however far the query
    is. A row of a compact kernel with no key inside the window shares its
    weight among the nearest keys. ``exclude`` (n_query, n_train) marks
    (query, key) pairs that get no weight. Work is done in place on one
    (n_query, n_train) array, ``out`` if given, to keep memory and time low.
    """
    if kernel == "gaussian":  # its nearest key scores 0, the row's maximum
        nearest = nearest_key(x_train, x_query, exclude)[:, None]  # (n_q, 1)
        scores = _gaussian_log_weights(x_train, x_query, nearest, bandwidth, out)
        if exclude is not None:
            scores[exclude] = -np.inf
        weights = exp_scores(scores)
        return weights, weights.sum(axis=1)
    scores = np.subtract(x_query[:, None], x_train[None, :], out=out)
    with np.errstate(over="ignore", invalid="ignore"):
        scores /= bandwidth
        scores = get_kernel(kernel).log_function(scores)
    if exclude is not None:
        scores[exclude] = -np.inf
    top = scores.max(axis=1, keepdims=True)  # (n_query, 1)
    empty = ~np.isfinite(top[:, 0])  # no key has a positive kernel value
    top[empty] = 0.0
    scores -= top
    weights = exp_scores(scores)
    if np.any(empty):
        hidden = None if exclude is None else exclude[empty]
        weights[empty] = nearest_keys(x_train, x_query[empty], hidden)[1]
    return weights, weights.sum(axis=1)


# Below this, exp gives exactly 0.0 (the smallest subnormal is exp(-744.44)),
# but the C library takes its slow path: about seven times slower per element.
UNDERFLOW = -746.0


def exp_scores(scores: np.ndarray) -> np.ndarray:
    """The exponentials of log-weights, in place: ``np.exp``'s bits, faster.

    Scores below :data:`UNDERFLOW` are set to -inf first, whose exp is the
    same 0.0 without the slow path; narrow bandwidths leave most scores there.
    """
    np.putmask(scores, scores < UNDERFLOW, -np.inf)
    return np.exp(scores, out=scores)


def _gaussian_log_weights(
    x_train: np.ndarray,
    x_query: np.ndarray,
    nearest: np.ndarray,
    bandwidth: float,
    out: np.ndarray | None,
) -> np.ndarray:
    """Gaussian log-weights relative to each row's nearest key: all at most 0."""
    scores = np.subtract(x_train[None, :], nearest, out=out)  # k - k*
    with np.errstate(over="ignore", invalid="ignore"):
        scores /= bandwidth
        reach = np.subtract(x_query[:, None], x_train[None, :])  # (n_q, n_k)
        reach /= bandwidth
        reach /= 2
        reach += (x_query[:, None] - nearest) / bandwidth / 2
        scores *= reach  # -inf where the product overflows
    # At most 0: rounding cannot lift a key above the nearest, and fmin turns
    # the nearest key's 0 * inf (a query too far for (x - k)/h) into 0.
    return np.fmin(scores, 0.0, out=scores)


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
    x_train, y_train, bandwidth = check_pairs(x_train, y_train, kernel, bandwidth)
    x_query = as_vector("x_query", x_query, allow_empty=True)
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
    x_train, y_train, bandwidth = check_pairs(x_train, y_train, kernel, bandwidth)
    if x_train.size < 2:
        raise ValueError("leave-one-out needs at least 2 training pairs")
    self_pairs = np.eye(x_train.size, dtype=bool)  # (n_train, n_train)
    weights, totals = _weights_block(
        x_train, x_train, kernel, bandwidth, exclude=self_pairs
    )
    return _pool(weights, totals, y_train), weights / totals[:, None]
