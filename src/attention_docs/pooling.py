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
    x_train: np.ndarray, x_query: np.ndarray, kernel: str, bandwidth: float
) -> np.ndarray:
    """Attention weights for a block of queries, normalised in log space."""
    diff = x_query[:, None] - x_train[None, :]  # (n_query, n_train)
    with np.errstate(over="ignore", invalid="ignore"):
        log_k = get_kernel(kernel).log_function(diff / bandwidth)
    top = log_k.max(axis=1, keepdims=True)  # (n_query, 1)
    empty = ~np.isfinite(top[:, 0])  # no key has a positive kernel value
    weights = np.exp(log_k - np.where(empty[:, None], 0.0, top))
    if np.any(empty):
        distance = np.abs(diff[empty])
        weights[empty] = distance == distance.min(axis=1, keepdims=True)
    return weights / weights.sum(axis=1, keepdims=True)


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
    x_train = _as_vector("x_train", x_train)
    y_train = _as_vector("y_train", y_train)
    x_query = _as_vector("x_query", x_query, allow_empty=True)
    if x_train.shape != y_train.shape:
        raise ValueError(
            "x_train and y_train must have the same length, "
            f"got {x_train.size} and {y_train.size}"
        )
    get_kernel(kernel)
    bandwidth = _check_bandwidth(bandwidth)
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
    for start in range(0, x_query.size, chunk_size):
        rows = slice(start, start + chunk_size)
        block = _weights_block(x_train, x_query[rows], kernel, bandwidth)
        predictions[rows] = (block * y_train).sum(axis=1)  # (chunk,)
        if weights is not None:
            weights[rows] = block
    return predictions, weights
