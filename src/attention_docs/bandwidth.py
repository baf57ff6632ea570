"""Choosing the bandwidth by leave-one-out cross-validation.

CV(h) is the mean squared error of predicting each training target from the
other training pairs, with :func:`~attention_docs.pooling.leave_one_out`;
:func:`cv_bandwidth` minimises it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .checks import as_vector, check_bandwidth, check_pairs
from .nearest import nearest_key
from .pooling import exp_scores, leave_one_out

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def loo_cv_error(
    x_train: np.ndarray,
    y_train: np.ndarray,
    bandwidths: ArrayLike,
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
    bandwidths = as_vector("bandwidths", bandwidths)
    sweep = LeaveOneOut(x_train, y_train, kernel)
    return np.array([sweep.error(h) for h in bandwidths])


class LeaveOneOut:
    """Leave-one-out predictions of one training set, at any bandwidth.

    For the Gaussian kernel, the scores without the bandwidth,
    P = (k - k*)((x - k)/2 + (x - k*)/2) with k* the nearest other key, are
    computed once; each bandwidth then costs one division, exp and sum:
    about twice as fast as :func:`~attention_docs.pooling.leave_one_out` at
    n = 1600 when many bandwidths are scored, as CV(h) minimisation does
    (``benchmarks/cv.py``). The two
    agree to rounding (a few units in the last place of each score). Where
    P would overflow or lose precision (keys beyond about 1e154 or closer
    than about 1e-154), or h² is not a normal float, each bandwidth takes
    the direct computation.

    Parameters:
        x_train: Training inputs, shape (n_train,), with n_train ≥ 2.
        y_train: Training targets, shape (n_train,).
        kernel: The kernel name.
    """

    x_train: np.ndarray
    y_train: np.ndarray
    kernel: str
    scores: np.ndarray | None  # P, -inf on the diagonal; None: the direct way

    def __init__(self, x_train: ArrayLike, y_train: ArrayLike, kernel: str) -> None:
        self.x_train, self.y_train, _ = check_pairs(x_train, y_train, kernel, 1.0)
        if self.x_train.size < 2:
            raise ValueError("leave-one-out needs at least 2 training pairs")
        self.kernel = kernel
        self.scores = _gaussian_scores(self.x_train) if kernel == "gaussian" else None

    def predictions(self, bandwidth: float) -> np.ndarray:
        """f_{-i}(x_i) for every i at this bandwidth, shape (n_train,)."""
        h = check_bandwidth(bandwidth)
        h2 = h * h  # inf past about 1.3e154, not an OverflowError
        if self.scores is None or not np.finfo(float).tiny <= h2 < np.inf:
            predictions, _ = leave_one_out(
                self.x_train, self.y_train, kernel=self.kernel, bandwidth=bandwidth
            )
            return predictions
        weights = np.divide(self.scores, h2)
        np.fmin(weights, 0.0, out=weights)  # -0.0 under the diagonal's -inf
        exp_scores(weights)
        return np.einsum("ij,j->i", weights, self.y_train) / weights.sum(axis=1)

    def error(self, bandwidth: float) -> float:
        """CV(h) at this bandwidth."""
        return _mean_square(self.y_train - self.predictions(bandwidth))


def _gaussian_scores(x_train: np.ndarray) -> np.ndarray | None:
    """Gaussian leave-one-out log-weights times h², or None where they round badly.

    Row i scores every key against x_i's nearest other key k*:
    (k - k*)((x_i - k)/2 + (x_i - k*)/2) ≤ 0, -inf on the diagonal. Products
    that are not normal floats (overflow, or a subnormal that lost digits)
    send the caller to the direct computation.
    """
    self_pairs = np.eye(x_train.size, dtype=bool)
    nearest = nearest_key(x_train, x_train, self_pairs)[:, None]  # (n, 1)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        apart = x_train[None, :] - nearest  # k - k*, (n, n)
        reach = (x_train[:, None] - x_train[None, :]) / 2 + (
            x_train[:, None] - nearest
        ) / 2
        scores = apart * reach
    lost = (np.abs(scores) < np.finfo(float).tiny) & (apart != 0) & (reach != 0)
    if not np.all(np.isfinite(scores)) or np.any(lost):
        return None
    scores[self_pairs] = -np.inf
    return scores


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
    sweep = LeaveOneOut(x_train, y_train, kernel)
    grid = np.geomspace(low, high, 241)
    errors = [sweep.error(h) for h in grid]
    best = int(np.argmin(errors))
    a, b = np.log(grid[max(best - 1, 0)]), np.log(grid[min(best + 1, grid.size - 1)])

    def error(log_h: float) -> float:
        return sweep.error(float(np.exp(log_h)))

    return float(np.exp(golden_section(error, a, b, tol)))


def basin_boundary(x_train: np.ndarray, y_train: np.ndarray) -> float:
    """Where the Gaussian training loss over w = 1/h peaks between 0 and 1/h_cv.

    The loss L(w) = n·CV(1/|w|) is even in w. When CV(h) falls again for very
    wide bandwidths, towards its h → ∞ value (the leave-one-out mean), L has a
    local minimum at w = 0, average pooling, and this peak separates its basin
    from that of 1/h_cv: gradient descent with small enough steps from a
    start between 0 and the peak ends at w = 0, from a start beyond it at
    1/h_cv. A grid of 200 steps over (0, 1/h_cv] brackets the peak, and a
    golden-section search on the exact loss refines it.

    Parameters:
        x_train: Training inputs, shape (n_train,).
        y_train: Training targets, shape (n_train,).

    Returns:
        The w of the peak; 0.0 when the loss only falls from w = 0 to 1/h_cv
        (w = 0 is then no minimum, on the grid's resolution).
    """
    w_cv = 1 / cv_bandwidth(x_train, y_train)
    grid = np.linspace(0, w_cv, 201)  # (201,); grid[0] = 0 is average pooling
    sweep = LeaveOneOut(x_train, y_train, "gaussian")

    def loss(w: float) -> float:  # -CV(1/w), to minimise
        return -sweep.error(1 / w)

    top = int(np.argmax([sweep.error(1 / w) for w in grid[1:]])) + 1
    if top == 1:
        return 0.0
    upper = grid[min(top + 1, grid.size - 1)]
    return float(golden_section(loss, grid[top - 1], upper, 1e-12))


def golden_section(
    function: Callable[[float], float], a: float, b: float, tol: float
) -> float:
    """A local minimiser of ``function`` in [a, b], by golden-section search.

    Parameters:
        function: The function to minimise.
        a: Lower end of the bracket.
        b: Upper end of the bracket.
        tol: Width of the final bracket, whose middle is returned.

    Returns:
        The middle of the final bracket.
    """
    ratio = (np.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = function(c), function(d)
    while b - a > tol:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = function(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = function(d)
    return (a + b) / 2
