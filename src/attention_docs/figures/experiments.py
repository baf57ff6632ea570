"""The computations behind the figures, memoised where several figures share them.

The chapter's training recipes, the trained models, the kernel comparison,
Gaussian scores against dot products, and the error against n. The chapter's
data set is in :mod:`.dataset`, the experiments of the chapter on kernel
regression, further, in :mod:`.further_experiments`; both are exported from
here too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..bandwidth import basin_boundary, cv_bandwidth, loo_cv_error
from ..data import make_dataset
from ..kernels import KERNELS
from ..pooling import nadaraya_watson
from ..scores import dot_product_scores, gaussian_scores, softmax
from .dataset import DATA_SEED, chapter_data
from .dataset import N_TRAIN as N_TRAIN
from .further_experiments import BOUNDARY_BANDWIDTH as BOUNDARY_BANDWIDTH
from .further_experiments import BOUNDARY_GRID as BOUNDARY_GRID
from .further_experiments import BOUNDARY_POINTS as BOUNDARY_POINTS
from .further_experiments import BOUNDARY_SEEDS as BOUNDARY_SEEDS
from .further_experiments import DENSITY_BANDWIDTHS as DENSITY_BANDWIDTHS
from .further_experiments import RATE_BANDWIDTHS as RATE_BANDWIDTHS
from .further_experiments import RATE_DIMENSIONS as RATE_DIMENSIONS
from .further_experiments import RATE_QUERIES as RATE_QUERIES
from .further_experiments import RATE_SEEDS as RATE_SEEDS
from .further_experiments import RATE_SIZES as RATE_SIZES
from .further_experiments import WIDTH_GRID as WIDTH_GRID
from .further_experiments import BoundaryComparison as BoundaryComparison
from .further_experiments import RateByDimension as RateByDimension
from .further_experiments import WidthSelection as WidthSelection
from .further_experiments import boundary_comparison as boundary_comparison
from .further_experiments import classification_fit as classification_fit
from .further_experiments import rate_by_dimension as rate_by_dimension
from .further_experiments import width_selection as width_selection

if TYPE_CHECKING:  # attention_docs.model needs torch, the [model] extra
    from ..model import TrainingResult

# The chapter's training recipes.
SHORT_RECIPE = {"epochs": 5, "lr": 0.5}  # a few large steps: w overshoots


LONG_RECIPE = {"epochs": 300, "lr": 0.5}  # the same steps, run to convergence


SLOW_RECIPE = {"epochs": 300, "lr": 0.05}  # small steps down the CV(h) curve


# The CV(h) curve's log grid of bandwidths: lowest, highest, number.
CV_GRID = (0.02, 3.0, 200)


# Gaussian scores against dot products: the chapter's data at this bandwidth,
# and random vectors of these dimensions.
DOT_PRODUCT_BANDWIDTH = 0.5


DOT_PRODUCT_DIMENSIONS = (1, 2, 8, 64)


# Error against the number of training examples, averaged over seeds.
SAMPLE_SIZES = (25, 50, 100, 200, 400)


SAMPLE_SEEDS = tuple(range(8))


FIXED_BANDWIDTH = 1.0


COMPARED_KERNELS = ("boxcar", "constant", "epanechnikov", "gaussian")


# The kernel comparison sets each kernel's bandwidth so that all have these
# standard deviations: equal h would give the Gaussian the widest window.
COMPARED_KERNELS_WITH_WIDTH = ("boxcar", "epanechnikov", "gaussian")


COMPARED_STDS = (0.1, 0.25, 0.6)


@functools.cache
def trained(epochs: int, lr: float) -> TrainingResult:
    """The parametric model trained on :func:`chapter_data` (memoised; pure)."""
    from ..model import train  # needs torch; the other figures do not

    data = chapter_data()
    return train(data.x_train, data.y_train, epochs=epochs, lr=lr, seed=DATA_SEED)


def cv_curve() -> tuple[np.ndarray, np.ndarray]:
    """CV(h) of :func:`chapter_data` on a log grid of 200 bandwidths, 0.02 to 3.

    Returns:
        The bandwidths and their leave-one-out errors, each of shape (200,).
    """
    data = chapter_data()
    bandwidths = np.geomspace(*CV_GRID)
    return bandwidths, loo_cv_error(data.x_train, data.y_train, bandwidths)


# The training loss over w: a fine grid near w = 0, a coarse one beyond, and
# the enlarged range near 0 where the basin boundary lies.
LOSS_W_GRID = (0.4, 8.0)


def loss_over_w() -> tuple[np.ndarray, np.ndarray]:
    """The training loss L(w) = n·CV(1/|w|) of :func:`chapter_data`, from w = 0.

    At w = 0 the bandwidth is infinite: every key gets the same weight, so
    L(0) is the constant kernel's leave-one-out loss (average pooling).

    Returns:
        The values of w, from 0 to 8, and the loss at each.
    """
    data = chapter_data()
    near, far = LOSS_W_GRID
    ws = np.concatenate([np.linspace(0, near, 81), np.linspace(near, far, 153)[1:]])
    n = data.x_train.size
    losses = n * loo_cv_error(data.x_train, data.y_train, 1 / ws[1:])
    at_zero = n * loo_cv_error(data.x_train, data.y_train, [1.0], kernel="constant")
    return ws, np.concatenate([at_zero, losses])


@functools.cache
def loss_basin_boundary() -> float:
    """:func:`~attention_docs.bandwidth.basin_boundary` of the chapter's data."""
    data = chapter_data()
    return basin_boundary(data.x_train, data.y_train)


def compared_bandwidth(kernel: str, std: float) -> float:
    """The bandwidth that gives a kernel a standard deviation (as a density)."""
    return std / KERNELS[kernel].std


def kernel_comparison_predictions() -> np.ndarray:
    """Predictions for every compared kernel (rows) and standard deviation (columns).

    Returns:
        Shape (n_kernels, n_stds, n_test).
    """
    data = chapter_data()
    return np.array(
        [
            [
                nadaraya_watson(
                    data.x_train,
                    data.y_train,
                    data.x_test,
                    kernel=kernel,
                    bandwidth=compared_bandwidth(kernel, std),
                    return_weights=False,
                )[0]
                for std in COMPARED_STDS
            ]
            for kernel in COMPARED_KERNELS_WITH_WIDTH
        ]
    )  # (n_kernels, n_stds, n_test)


def gaussian_and_dot_product_weights() -> tuple[np.ndarray, np.ndarray]:
    """The chapter's attention weights computed from both forms of the scores.

    Returns:
        Gaussian-score weights and dot-product weights, each of shape
        (n_test, n_train), at :data:`DOT_PRODUCT_BANDWIDTH`.
    """
    data = chapter_data()
    h = DOT_PRODUCT_BANDWIDTH
    return (
        softmax(gaussian_scores(data.x_test, data.x_train, h)),
        softmax(dot_product_scores(data.x_test, data.x_train, h)),
    )


@dataclass(frozen=True)
class SampleSizeErrors:
    """Mean squared error against the truth, by number of training examples.

    Attributes:
        sizes: Numbers of training examples, shape (n_sizes,).
        fixed: Mean error with the bandwidth fixed at :data:`FIXED_BANDWIDTH`,
            averaged over the seeds, shape (n_sizes,).
        cv: The same with each data set's cross-validated bandwidth.
        slopes: Least-squares slopes of log error against log n, for ``fixed``
            and ``cv``.
        boundary_share: With h_cv, the share of the summed squared error
            over the seeds that comes from the test point x = 0, the
            boundary where the target has infinite slope, shape (n_sizes,).
    """

    sizes: np.ndarray
    fixed: np.ndarray
    cv: np.ndarray
    slopes: tuple[float, float]
    boundary_share: np.ndarray


@functools.cache
def sample_size_errors(
    sizes: tuple[int, ...] = SAMPLE_SIZES, seeds: tuple[int, ...] = SAMPLE_SEEDS
) -> SampleSizeErrors:
    """How the error of a fixed h and of h_cv change with n (memoised; pure)."""
    errors = np.empty((2, len(sizes), len(seeds)))
    at_zero = np.empty((len(sizes), len(seeds)))  # h_cv's squared error at x = 0
    for i, n in enumerate(sizes):
        for j, seed in enumerate(seeds):
            data = make_dataset(n, seed=seed)
            h_cv = cv_bandwidth(data.x_train, data.y_train, low=0.01, high=5.0)
            for k, h in enumerate((FIXED_BANDWIDTH, h_cv)):
                prediction, _ = nadaraya_watson(
                    data.x_train,
                    data.y_train,
                    data.x_test,
                    bandwidth=h,
                    return_weights=False,
                )
                squared = (prediction - data.y_truth) ** 2  # (n_test,)
                errors[k, i, j] = np.mean(squared)
            at_zero[i, j] = squared[0]  # data.x_test[0] == 0
    fixed, cv = errors.mean(axis=2)  # (n_sizes,) each
    log_n = np.log(sizes)
    fixed_slope, cv_slope = (
        float(np.polyfit(log_n, np.log(e), 1)[0]) for e in (fixed, cv)
    )
    n_test = make_dataset(sizes[0], seed=seeds[0]).x_test.size
    share = at_zero.sum(axis=1) / (errors[1].sum(axis=1) * n_test)  # (n_sizes,)
    slopes = (fixed_slope, cv_slope)
    return SampleSizeErrors(np.array(sizes), fixed, cv, slopes, share)
