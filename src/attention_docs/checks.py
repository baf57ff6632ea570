"""Input checks the library's modules share, each error naming the problem."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

from .kernels import get_kernel


def whole_number(name: str, value: object, minimum: int = 1) -> int:
    """``value``, an int of at least ``minimum`` (not a bool); the error names ``name``.

    Raises:
        ValueError: It is not such an integer.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def real_array(name: str, values: object) -> np.ndarray:
    """``values`` as a float array of any shape; the error names ``name``.

    NumPy would cast complex numbers to real with only a warning, dropping
    their imaginary parts; here they are refused.

    Raises:
        TypeError: The values are not real numbers (strings, complex numbers).
    """
    try:
        raw = np.asarray(values)
        if raw.dtype.kind == "c":
            raise TypeError(f"got complex values ({raw.dtype})")
        return raw.astype(float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of real numbers: {error}") from None


def as_vector(name: str, values: object, *, allow_empty: bool = False) -> np.ndarray:
    """``values`` as a finite 1-D float array; the error names ``name``.

    Raises:
        TypeError: The values are not real numbers.
        ValueError: Not one-dimensional, empty (unless allowed), NaN or infinite.
    """
    array = real_array(name, values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def finite_array(name: str, values: object, ndim: int) -> np.ndarray:
    """``values`` as a finite float array of ``ndim`` dimensions, for a plot.

    Raises:
        ValueError: Another number of dimensions, NaN or infinite values.
    """
    array = np.asarray(values, dtype=float)
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def check_bandwidth(bandwidth: object) -> float:
    """The bandwidth as a float, once it is a positive, finite real number.

    Raises:
        TypeError: Not a real number (booleans included).
        ValueError: Zero, negative, NaN or infinite.
    """
    if isinstance(bandwidth, bool) or not isinstance(bandwidth, Real):
        raise TypeError(f"bandwidth must be a real number, got {bandwidth!r}")
    value = float(bandwidth)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"bandwidth must be positive and finite, got {bandwidth!r}")
    return value


def check_pairs(
    x_train: object, y_train: object, kernel: str, bandwidth: object
) -> tuple[np.ndarray, np.ndarray, float]:
    """Validate keys, values, kernel name and bandwidth together."""
    x_train = as_vector("x_train", x_train)
    y_train = as_vector("y_train", y_train)
    if x_train.shape != y_train.shape:
        raise ValueError(
            "x_train and y_train must have the same length, "
            f"got {x_train.size} and {y_train.size}"
        )
    get_kernel(kernel)
    return x_train, y_train, check_bandwidth(bandwidth)
