"""Synthetic data sets: regression, classification and two-input regression.

The chapters' regression data, and the classification and two-input data sets
of the chapter on kernel regression, further.
"""

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
        x_train: Sorted training inputs in [0, 5), shape (n_train,), or
            shape (n_train, d) for inputs with d coordinates.
        y_train: Noisy targets at ``x_train``, shape (n_train,).
        x_test: Evenly spaced test inputs in [0, 5), shape (n_test,), or
            (n_test, d).
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


def _check_size(n_train: object) -> None:
    if isinstance(n_train, bool) or not isinstance(n_train, int) or n_train < 2:
        raise ValueError(f"n_train must be an integer ≥ 2, got {n_train!r}")


# Three classes whose log-probabilities are parabolas centred here (width 0.7).
CLASS_CENTRES = (1.0, 2.5, 4.0)


def true_class_probabilities(x: np.ndarray) -> np.ndarray:
    """P(class c | x) of the classification data, for the three classes.

    Parameters:
        x: Inputs, shape (n,).

    Returns:
        Probabilities, shape (n, 3); each row sums to 1.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be a finite 1-D array, got shape {x.shape}")
    logits = -((x[:, None] - np.array(CLASS_CENTRES)) ** 2) / (2 * 0.7**2)  # (n, 3)
    logits -= logits.max(axis=1, keepdims=True)
    probabilities = np.exp(logits)
    return probabilities / probabilities.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class ClassificationData:
    """Labelled inputs, a test grid and the true class probabilities on it.

    Attributes:
        x_train: Sorted training inputs in [0, 5), shape (n_train,).
        labels: The class of each, 0, 1 or 2, shape (n_train,).
        x_test: Test inputs 0, 0.05, ..., 4.95, shape (n_test,).
        p_truth: True class probabilities at ``x_test``, shape (n_test, 3).
    """

    x_train: np.ndarray
    labels: np.ndarray
    x_test: np.ndarray
    p_truth: np.ndarray


def make_classification(n_train: int = 150, *, seed: int = 0) -> ClassificationData:
    """Draw inputs uniformly from [0, 5) and a class for each from its probabilities.

    Parameters:
        n_train: Number of labelled examples, at least 2.
        seed: Seed for the random generator.

    Returns:
        The labelled examples (sorted by input), a test grid and the truth.
    """
    _check_size(n_train)
    rng = np.random.default_rng(seed)
    x_train = np.sort(rng.uniform(0.0, X_MAX, n_train))  # (n_train,)
    cumulative = np.cumsum(true_class_probabilities(x_train), axis=1)  # (n, 3)
    draws = rng.uniform(size=(n_train, 1))
    labels = np.minimum((draws > cumulative).sum(axis=1), 2)  # (n_train,)
    x_test = np.arange(0.0, X_MAX, 0.05)
    return ClassificationData(x_train, labels, x_test, true_class_probabilities(x_test))


def true_function_2d(x: np.ndarray) -> np.ndarray:
    """The target of the two-input data set, 2·sin(2·x₁) + 0.5·x₂.

    It changes quickly along the first coordinate and slowly along the second.

    Parameters:
        x: Inputs, shape (n, 2).

    Returns:
        The target at each input, shape (n,).
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[1] != 2 or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be a finite array of shape (n, 2), got {x.shape}")
    return 2 * np.sin(2 * x[:, 0]) + 0.5 * x[:, 1]


def make_dataset_2d(n_train: int = 400, *, grid: int = 41, seed: int = 0) -> Dataset:
    """Draw y = 2·sin(2·x₁) + 0.5·x₂ + ε, ε ~ N(0, 0.5²), at inputs in [0, 5)².

    Parameters:
        n_train: Number of training samples, at least 2.
        grid: Test points per side of the square [0, 5]² grid.
        seed: Seed for the random generator.

    Returns:
        A :class:`Dataset` whose inputs have shape (n, 2); the test grid runs
        through the first coordinate fastest, so its predictions reshape to
        (grid, grid) with rows along the second coordinate.
    """
    _check_size(n_train)
    if isinstance(grid, bool) or not isinstance(grid, int) or grid < 2:
        raise ValueError(f"grid must be an integer ≥ 2, got {grid!r}")
    rng = np.random.default_rng(seed)
    x_train = rng.uniform(0.0, X_MAX, (n_train, 2))  # (n_train, 2)
    y_train = true_function_2d(x_train) + rng.normal(0.0, NOISE_STD, n_train)
    side = np.linspace(0.0, X_MAX, grid)
    x_test = np.stack(np.meshgrid(side, side), axis=-1).reshape(-1, 2)  # (grid², 2)
    return Dataset(x_train, y_train, x_test, true_function_2d(x_test))
