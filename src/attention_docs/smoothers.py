"""Kernel smoothing beyond one input and one output: the rest of the subject.

The Nadaraya-Watson estimate of :mod:`attention_docs.pooling` is one member of
a family that shares its weights. This module holds the others the chapter
"Kernel regression, further" draws:

- :func:`kernel_density`, the Parzen estimate of the inputs' density, whose
  ratio with a second such estimate is the Nadaraya-Watson estimate;
- :func:`class_probabilities`, attention pooling of one-hot values;
- :func:`local_linear`, a weighted straight-line fit at each query, which
  removes the estimate's first-order bias at a boundary;
- :func:`nadaraya_watson_nd` and :func:`cv_error_nd`, keys with several
  coordinates and a Gaussian width for each, and
  :func:`expected_squared_error_nd`, its error averaged over the noise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from .checks import as_vector, check_bandwidth, real_array
from .kernels import get_kernel
from .nearest import FAR_SCORE, in_widths, relative_scores
from .pooling import MAX_CHUNK_ELEMENTS, attention_weights

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def kernel_density(
    x_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """The kernel (Parzen window) estimate of the density of the inputs.

    p(x) = (1 / (n·h)) Σ_i K((x - x_i) / h) / ∫K, so the estimate integrates
    to 1 over the real line whatever the kernel's constant factor.

    Parameters:
        x_train: The sample, shape (n_train,).
        x_query: Where to evaluate the estimate, shape (n_query,).
        kernel: ``"gaussian"``, ``"boxcar"`` or ``"epanechnikov"``; the
            constant kernel has an infinite integral and gives no density.
        bandwidth: The kernel width h > 0.

    Returns:
        The estimated density at each query, shape (n_query,).
    """
    x_train = as_vector("x_train", x_train)
    x_query = as_vector("x_query", x_query, allow_empty=True)
    bandwidth = check_bandwidth(bandwidth)
    chosen = get_kernel(kernel)
    if not np.isfinite(chosen.area):
        raise ValueError(
            f"the {kernel} kernel has an infinite integral, so it gives no density"
        )
    density = np.empty(x_query.size)
    step = max(1, MAX_CHUNK_ELEMENTS // x_train.size)
    for start in range(0, x_query.size, step):
        u = (x_query[start : start + step, None] - x_train[None, :]) / bandwidth
        density[start : start + step] = chosen.function(u).sum(axis=1)  # (chunk,)
    return density / (x_train.size * bandwidth * chosen.area)


def class_probabilities(
    x_train: np.ndarray,
    labels: np.ndarray,
    x_query: np.ndarray,
    *,
    n_classes: int | None = None,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """Attention pooling of one-hot values: the estimated class probabilities.

    Each training example's value is the one-hot vector of its class, so the
    pooled output of a query is the attention weight its keys of each class
    carry: non-negative, and summing to 1 over the classes.

    Parameters:
        x_train: Training inputs (the keys), shape (n_train,).
        labels: Class of each training input, integers in [0, n_classes),
            shape (n_train,).
        x_query: Query inputs, shape (n_query,).
        n_classes: Number of classes; by default one more than the largest
            label.
        kernel: ``"gaussian"``, ``"boxcar"``, ``"constant"`` or ``"epanechnikov"``.
        bandwidth: The kernel width h > 0.

    Returns:
        Probabilities, shape (n_query, n_classes); each row sums to 1.
    """
    labels = np.asarray(labels)
    if labels.ndim != 1 or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(
            f"labels must be a 1-D array of integers, got {labels.dtype} "
            f"of shape {labels.shape}"
        )
    if labels.size and labels.min() < 0:
        raise ValueError(f"labels must be non-negative, got {labels.min()}")
    if n_classes is None:
        n_classes = int(labels.max()) + 1 if labels.size else 0
    if labels.size and labels.max() >= n_classes:
        raise ValueError(f"labels must be below n_classes={n_classes}")
    if np.size(x_train) != labels.size:
        raise ValueError(
            "x_train and labels must have the same length, "
            f"got {np.size(x_train)} and {labels.size}"
        )
    weights = attention_weights(x_train, x_query, kernel=kernel, bandwidth=bandwidth)
    one_hot = np.eye(n_classes)[labels]  # (n_train, n_classes)
    return weights @ one_hot  # (n_query, n_classes)


def local_linear(
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
    *,
    kernel: str = "gaussian",
    bandwidth: float = 1.0,
) -> np.ndarray:
    """Local linear regression: at each query, a kernel-weighted line's height.

    Minimises Σ_i K((x - x_i)/h) (y_i - a - b (x_i - x))² over a and b and
    predicts a. With the same weights as Nadaraya-Watson, which fits a
    constant instead of a line, it has no first-order bias where the keys
    lie on one side of the query, as at the ends of the data.

    A query whose weights fall on a single input (or on equal inputs) has no
    line to fit; it gets the Nadaraya-Watson estimate, the weighted mean.

    Parameters:
        x_train: Training inputs (the keys), shape (n_train,).
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query,).
        kernel: ``"gaussian"``, ``"boxcar"``, ``"constant"`` or ``"epanechnikov"``.
        bandwidth: The kernel width h > 0.

    Returns:
        Predictions, shape (n_query,).
    """
    y_train = as_vector("y_train", y_train)
    weights = attention_weights(
        x_train, x_query, kernel=kernel, bandwidth=bandwidth
    )  # (n_query, n_train), validates x_train, x_query and the pairing below
    if y_train.size != weights.shape[1]:
        raise ValueError(
            "x_train and y_train must have the same length, "
            f"got {weights.shape[1]} and {y_train.size}"
        )
    offsets = (
        np.asarray(x_train, dtype=float)[None, :]
        - np.asarray(x_query, dtype=float)[:, None]
    )  # (n_query, n_train): x_i - x
    mean_offset = np.sum(weights * offsets, axis=1, keepdims=True)  # (n_query, 1)
    mean_y = weights @ y_train  # (n_query,)
    centred = offsets - mean_offset
    spread = np.sum(weights * centred**2, axis=1)  # weighted variance of x_i
    covariance = np.sum(weights * centred * (y_train - mean_y[:, None]), axis=1)
    scale = np.maximum(np.max(np.abs(offsets), axis=1, initial=0.0) ** 2, 1e-300)
    has_line = spread > 1e-12 * scale
    slope = np.divide(covariance, spread, out=np.zeros_like(spread), where=has_line)
    return mean_y - slope * mean_offset[:, 0]


def _as_points(name: str, values: object) -> np.ndarray:
    """``values`` as a finite (n, d) float array, one row per point."""
    array = real_array(name, values)
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(
            f"{name} must have shape (n, d) with n, d ≥ 1, got {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def _widths(bandwidths: object, d: int) -> np.ndarray:
    """One positive bandwidth per coordinate, from a number or a sequence."""
    widths = real_array("bandwidths", bandwidths)
    if widths.ndim == 0:
        return np.full(d, check_bandwidth(float(widths)))
    if widths.shape != (d,):
        raise ValueError(
            f"bandwidths must be one number or one per coordinate ({d}), "
            f"got shape {widths.shape}"
        )
    for width in widths:
        check_bandwidth(float(width))
    return widths


def _weight_blocks(
    keys: np.ndarray, queries: np.ndarray, exclude_self: bool
) -> Iterator[tuple[slice, np.ndarray]]:
    """Gaussian attention weights of scaled points, one block of queries at a time.

    Yields ``(rows, weights)``: the queries' rows and their (chunk, n_train)
    weights, each row summing to 1. With ``exclude_self`` the queries are the
    keys, and query i gives key i no weight.
    """
    step = max(1, MAX_CHUNK_ELEMENTS // keys.shape[0])
    for start in range(0, queries.shape[0], step):
        block = queries[start : start + step]  # (chunk, d)
        with np.errstate(over="ignore", invalid="ignore"):
            offsets = block[:, None, :] - keys[None]  # (chunk, n_train, d)
            scores = -0.5 * np.sum(offsets**2, axis=2)  # (chunk, n_train)
        far = ~(scores.max(axis=1) > FAR_SCORE)  # (chunk,); also NaN, -inf
        if far.any():
            scores[far] = relative_scores(block[far], keys)
        if exclude_self:
            rows = np.arange(block.shape[0])
            scores[rows, start + rows] = -np.inf
        scores -= scores.max(axis=1, keepdims=True)  # (chunk, n_train)
        weights = np.exp(scores)
        weights /= weights.sum(axis=1, keepdims=True)
        yield slice(start, start + step), weights


def _pool_nd(
    keys: np.ndarray, values: np.ndarray, queries: np.ndarray, exclude_self: bool
) -> np.ndarray:
    """Gaussian attention pooling of scaled points."""
    predictions = np.empty(queries.shape[0])
    for rows, weights in _weight_blocks(keys, queries, exclude_self):
        predictions[rows] = weights @ values  # (chunk,)
    return predictions


def _check_nd(
    x_train: object, y_train: object, x_query: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keys (n, d), values (n,) and queries (m, d) that agree in n and d."""
    keys = _as_points("x_train", x_train)
    queries = _as_points("x_query", x_query)
    values = as_vector("y_train", y_train)
    if values.size != keys.shape[0] or queries.shape[1] != keys.shape[1]:
        raise ValueError(
            f"x_train {keys.shape}, y_train {values.shape} and x_query "
            f"{queries.shape} must agree: (n, d), (n,) and (m, d)"
        )
    return keys, values, queries


def nadaraya_watson_nd(
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
    *,
    bandwidths: ArrayLike = 1.0,
) -> np.ndarray:
    """Nadaraya-Watson regression with d-dimensional keys and a Gaussian kernel.

    The kernel is the product of one Gaussian per coordinate, with width h_j
    along coordinate j: the score is -Σ_j (x_j - x_ij)² / (2 h_j²). Dividing
    each coordinate by its width turns it into the one-width kernel.

    Parameters:
        x_train: Training inputs (the keys), shape (n_train, d).
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query, d).
        bandwidths: One width for every coordinate, or one per coordinate,
            shape (d,); each positive.

    Returns:
        Predictions, shape (n_query,).
    """
    keys, values, queries = _check_nd(x_train, y_train, x_query)
    widths = _widths(bandwidths, keys.shape[1])
    keys, queries = in_widths(widths, x_train=keys, x_query=queries)
    return _pool_nd(keys, values, queries, exclude_self=False)


def cv_error_nd(
    x_train: np.ndarray, y_train: np.ndarray, bandwidths: ArrayLike
) -> float:
    """Leave-one-out cross-validation error of :func:`nadaraya_watson_nd`.

    Parameters:
        x_train: Training inputs, shape (n_train, d), with n_train ≥ 2.
        y_train: Training targets, shape (n_train,).
        bandwidths: One width for every coordinate, or one per coordinate.

    Returns:
        The mean squared error of predicting each target from the others.
    """
    keys = _as_points("x_train", x_train)
    values = as_vector("y_train", y_train)
    if values.size != keys.shape[0] or values.size < 2:
        raise ValueError(
            f"need n_train ≥ 2 and one target per input, got x_train {keys.shape} "
            f"and y_train {values.shape}"
        )
    (scaled,) = in_widths(_widths(bandwidths, keys.shape[1]), x_train=keys)
    predictions = _pool_nd(scaled, values, scaled, exclude_self=True)
    return float(np.mean((values - predictions) ** 2))


def expected_squared_error_nd(
    x_train: np.ndarray,
    truth_train: np.ndarray,
    x_query: np.ndarray,
    truth_query: np.ndarray,
    *,
    noise_std: float,
    bandwidths: float | np.ndarray,
) -> float:
    """Mean squared error of :func:`nadaraya_watson_nd`, averaged over the noise.

    For targets y_i = f(x_i) + ε_i with independent noise of standard
    deviation σ, the estimate at a query q, Σ_i α_i y_i, has expected squared
    error (Σ_i α_i f(x_i) - f(q))² + σ² Σ_i α_i²: squared bias plus variance.
    Computing it exactly removes the noise's own randomness from an
    experiment; only the inputs stay random.

    Parameters:
        x_train: Training inputs, shape (n_train, d).
        truth_train: The noise-free target f at ``x_train``, shape (n_train,).
        x_query: Query inputs, shape (n_query, d).
        truth_query: f at ``x_query``, shape (n_query,).
        noise_std: The noise's standard deviation σ ≥ 0.
        bandwidths: One width for every coordinate, or one per coordinate.

    Returns:
        The expected squared error, averaged over the queries.
    """
    keys, values, queries = _check_nd(x_train, truth_train, x_query)
    truth_query = as_vector("truth_query", truth_query)
    if truth_query.size != queries.shape[0]:
        raise ValueError(
            f"truth_query must have one value per query ({queries.shape[0]}), "
            f"got {truth_query.size}"
        )
    if not (np.isfinite(noise_std) and noise_std >= 0):
        raise ValueError(f"noise_std must be finite and ≥ 0, got {noise_std!r}")
    widths = _widths(bandwidths, keys.shape[1])
    total = 0.0
    keys, queries = in_widths(widths, x_train=keys, x_query=queries)
    for rows, weights in _weight_blocks(keys, queries, False):
        bias = weights @ values - truth_query[rows]  # (chunk,)
        total += np.sum(bias**2) + noise_std**2 * np.sum(weights**2)
    return total / queries.shape[0]
