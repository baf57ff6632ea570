"""Synthetic regression data for the attention-pooling chapter."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NOISE_STD = 0.5
X_MAX = 5.0


def true_function(x: np.ndarray) -> np.ndarray:
    """The noise-free target of the data set, 2·sin(x) + x^0.8.

    Parameters:
        x: Non-negative inputs.

    Returns:
        The target evaluated element-wise, same shape as ``x``.
    """
    x = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueError("x contains NaN or infinite values")
    if np.any(x < 0):
        raise ValueError("x must be non-negative, since x**0.8 is undefined below 0")
    return 2 * np.sin(x) + x**0.8


@dataclass(frozen=True)
class Dataset:
    """Training samples, a test grid and the truth on that grid.

    Attributes:
        x_train: Sorted training inputs in [0, 5), shape (n_train,).
        y_train: Noisy targets at ``x_train``, shape (n_train,).
        x_test: Evenly spaced test inputs in [0, 5), shape (n_test,).
        y_truth: Noise-free targets at ``x_test``, shape (n_test,).
    """

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_truth: np.ndarray


def make_dataset(n_train: int = 50, *, step: float = 0.1, seed: int = 0) -> Dataset:
    """Draw the data set y = 2·sin(x) + x^0.8 + ε with ε ~ N(0, 0.5²).

    Parameters:
        n_train: Number of training samples, drawn uniformly from [0, 5).
        step: Spacing of the test grid 0, step, 2·step, ... below 5.
        seed: Seed for the random generator; the same seed gives the same data.

    Returns:
        The training samples (sorted by input), the test grid and the truth.
    """
    if isinstance(n_train, bool) or not isinstance(n_train, int) or n_train < 1:
        raise ValueError(f"n_train must be a positive integer, got {n_train!r}")
    if not np.isfinite(step) or not 0 < step < X_MAX:
        raise ValueError(f"step must be a finite number in (0, {X_MAX}), got {step!r}")
    rng = np.random.default_rng(seed)
    x_train = np.sort(rng.uniform(0.0, X_MAX, n_train))  # (n_train,)
    y_train = true_function(x_train) + rng.normal(0.0, NOISE_STD, n_train)
    x_test = np.arange(0.0, X_MAX, step)  # (n_test,)
    return Dataset(x_train, y_train, x_test, true_function(x_test))
