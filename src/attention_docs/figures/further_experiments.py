"""The computations behind the figures of "Kernel regression, further".

The density estimates' bandwidths, Nadaraya-Watson against local linear
regression at the boundary, the classification data's bandwidth, one width
per coordinate for two inputs, and the rate against dimension; memoised where
several figures share them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..bandwidth import golden_section, loo_cv_error
from ..data import (
    ClassificationData,
    Dataset,
    make_classification,
    make_dataset,
    make_dataset_2d,
)
from ..pooling import nadaraya_watson
from ..smoothers import (
    cv_error_nd,
    expected_squared_error_nd,
    local_linear,
    nadaraya_watson_nd,
)
from .dataset import N_TRAIN

# The density estimates' bandwidths.
DENSITY_BANDWIDTHS = (0.1, 0.3, 1.0)


# Nadaraya-Watson against local linear: one bandwidth, many data sets, and
# the test inputs compared (the two ends of the grid).
BOUNDARY_BANDWIDTH = 0.5


BOUNDARY_SEEDS = tuple(range(200))


BOUNDARY_POINTS = (0.0, 4.9)


# The log grid on which each estimator's best bandwidth is also sought.
BOUNDARY_GRID = (0.1, 1.0, 19)


# Widths per coordinate: the log grid searched for each, lowest, highest, number.
WIDTH_GRID = (0.1, 3.0, 16)


# The rate against dimension: the dimensions, sizes, seeds, the log grid of
# bandwidths searched (lowest, highest, number) and the number of test points,
# drawn from the interior [1.5, 3.5]^d so that no boundary is in reach.
RATE_DIMENSIONS = (1, 2, 3)


RATE_SIZES = (100, 200, 400, 800, 1600, 3200)


RATE_SEEDS = (0, 1, 2)


RATE_BANDWIDTHS = (0.1, 1.0, 21)


RATE_QUERIES = 100


@dataclass(frozen=True)
class BoundaryComparison:
    """Nadaraya-Watson and local linear fits over many data sets, at the ends.

    Attributes:
        points: The test inputs compared, :data:`BOUNDARY_POINTS`.
        bias: Mean prediction minus truth at each point, shape (2, n_points):
            row 0 Nadaraya-Watson, row 1 local linear.
        spread: Standard deviation of the prediction over the data sets, same
            shape.
        mse: Mean squared error against the truth over the whole test grid
            and all data sets, shape (2,).
        best_bandwidths: Each estimator's bandwidth on :data:`BOUNDARY_GRID`
            with the least such error, shape (2,).
        best_mse: That least error, shape (2,).
    """

    points: tuple[float, ...]
    bias: np.ndarray
    spread: np.ndarray
    mse: np.ndarray
    best_bandwidths: np.ndarray
    best_mse: np.ndarray


def _both_fits(data: Dataset, h: float) -> np.ndarray:
    """Nadaraya-Watson and local linear predictions at the test inputs: (2, n_test)."""
    args = (data.x_train, data.y_train, data.x_test)
    return np.array(
        [
            nadaraya_watson(*args, bandwidth=h, return_weights=False)[0],
            local_linear(*args, bandwidth=h),
        ]
    )


@functools.cache
def boundary_comparison() -> BoundaryComparison:
    """Both estimators at :data:`BOUNDARY_BANDWIDTH` on the chapter's data sets."""
    data_sets = [make_dataset(N_TRAIN, seed=seed) for seed in BOUNDARY_SEEDS]
    truth = data_sets[0].y_truth  # (n_test,): the same grid for every seed
    predictions = np.stack(
        [_both_fits(data, BOUNDARY_BANDWIDTH) for data in data_sets], axis=1
    )  # (2, n_seeds, n_test)
    index = [int(round(x * 10)) for x in BOUNDARY_POINTS]  # x_test = 0, 0.1, ...
    bias = predictions.mean(axis=1)[:, index] - truth[index]  # (2, n_points)
    spread = predictions.std(axis=1)[:, index]
    mse = ((predictions - truth) ** 2).mean(axis=(1, 2))  # (2,)
    grid = np.geomspace(*BOUNDARY_GRID[:2], BOUNDARY_GRID[2])
    curves = np.array(
        [
            np.mean(
                [((_both_fits(d, h) - truth) ** 2).mean(axis=1) for d in data_sets], 0
            )
            for h in grid
        ]
    )  # (n_grid, 2)
    best = curves.argmin(axis=0)  # (2,)
    return BoundaryComparison(
        BOUNDARY_POINTS, bias, spread, mse, grid[best], curves[best, [0, 1]]
    )


@functools.cache
def classification_fit() -> tuple[ClassificationData, float]:
    """The classification data and the bandwidth leave-one-out CV selects for it.

    CV scores the squared error of the one-hot values (the Brier score), which
    is the sum over the classes of each class column's CV error.
    """
    data = make_classification()
    one_hot = np.eye(data.p_truth.shape[1])[data.labels]  # (n_train, n_classes)
    grid = np.geomspace(0.05, 3.0, 120)
    errors = sum(loo_cv_error(data.x_train, column, grid) for column in one_hot.T)
    return data, float(grid[int(np.argmin(errors))])


@dataclass(frozen=True)
class WidthSelection:
    """Leave-one-out CV of one shared width against one width per coordinate.

    Attributes:
        grid: The widths searched along each coordinate, shape (n_grid,).
        cv: CV error for each pair (h₁, h₂), shape (n_grid, n_grid).
        shared: The best width when both coordinates share it.
        per_coordinate: The best pair (h₁, h₂).
        errors: Mean squared error against the truth on the test grid, with
            the shared width and with the pair, shape (2,).
        predictions: The two fits on the test grid, shape (2, n_test).
    """

    grid: np.ndarray
    cv: np.ndarray
    shared: float
    per_coordinate: tuple[float, float]
    errors: np.ndarray
    predictions: np.ndarray


@functools.cache
def width_selection() -> WidthSelection:
    """Choose the widths of the two-input data set by leave-one-out CV."""
    data = make_dataset_2d()
    grid = np.geomspace(*WIDTH_GRID[:2], WIDTH_GRID[2])
    cv = np.array(
        [[cv_error_nd(data.x_train, data.y_train, [a, b]) for b in grid] for a in grid]
    )  # (n_grid, n_grid): rows h₁, columns h₂
    shared = float(grid[int(np.argmin(np.diag(cv)))])
    i, j = np.unravel_index(int(np.argmin(cv)), cv.shape)
    pair = (float(grid[i]), float(grid[j]))
    predictions = np.array(
        [
            nadaraya_watson_nd(data.x_train, data.y_train, data.x_test, bandwidths=w)
            for w in (shared, pair)
        ]
    )  # (2, n_test)
    errors = ((predictions - data.y_truth) ** 2).mean(axis=1)
    return WidthSelection(grid, cv, shared, pair, errors, predictions)


@dataclass(frozen=True)
class RateByDimension:
    """The error at the best bandwidth against n, for inputs of several dimensions.

    Attributes:
        dimensions: :data:`RATE_DIMENSIONS`.
        sizes: :data:`RATE_SIZES`, shape (n_sizes,).
        errors: Expected squared error (over the noise, averaged over the
            seeds' inputs) at the best bandwidth, shape (n_dims, n_sizes).
        best: That bandwidth, shape (n_dims, n_sizes).
        slopes: Least-squares slope of log error against log n, per dimension.
    """

    dimensions: tuple[int, ...]
    sizes: np.ndarray
    errors: np.ndarray
    best: np.ndarray
    slopes: np.ndarray


def _sum_of_sines(x: np.ndarray) -> np.ndarray:
    return np.sin(x).sum(axis=1)  # (n,)


def _least_error(d: int, n: int, queries: np.ndarray) -> tuple[float, float]:
    """The bandwidth with the least error averaged over the seeds, and that error.

    The grid :data:`RATE_BANDWIDTHS` brackets it (log steps of about 12%),
    and a golden-section search on log h refines it to 0.1%.
    """
    draws = []
    for seed in RATE_SEEDS:
        x = np.random.default_rng([d, n, seed]).uniform(0.0, 5.0, (n, d))
        draws.append((x, _sum_of_sines(x), _sum_of_sines(queries)))

    def error(log_h: float) -> float:
        return float(
            np.mean(
                [
                    expected_squared_error_nd(
                        x, y, queries, truth, noise_std=0.5, bandwidths=np.exp(log_h)
                    )
                    for x, y, truth in draws
                ]
            )
        )

    grid = np.log(np.geomspace(*RATE_BANDWIDTHS[:2], RATE_BANDWIDTHS[2]))
    k = int(np.argmin([error(log_h) for log_h in grid]))
    low, high = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
    log_h = golden_section(error, low, high, 1e-3)
    return float(np.exp(log_h)), error(log_h)


@functools.cache
def rate_by_dimension() -> RateByDimension:
    """How fast the error can fall with n when the inputs have d coordinates.

    The target is Σ_j sin(x_j) on [0, 5)^d with noise of standard deviation
    0.5. For each n the bandwidth is the one with the least
    expected error, an oracle no data set offers: the question is what the
    estimator can reach, not how well a bandwidth is chosen.
    """
    errors = np.empty((len(RATE_DIMENSIONS), len(RATE_SIZES)))
    best = np.empty_like(errors)
    for i, d in enumerate(RATE_DIMENSIONS):
        queries = np.random.default_rng([d]).uniform(1.5, 3.5, (RATE_QUERIES, d))
        for j, n in enumerate(RATE_SIZES):
            best[i, j], errors[i, j] = _least_error(d, n, queries)
    log_n = np.log(RATE_SIZES)
    slopes = np.array([np.polyfit(log_n, np.log(e), 1)[0] for e in errors])
    return RateByDimension(RATE_DIMENSIONS, np.array(RATE_SIZES), errors, best, slopes)
