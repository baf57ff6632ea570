"""Kernels K(u) for Nadaraya-Watson regression, with u = (query - key) / bandwidth.

Each kernel comes with its logarithm, which attention pooling uses to normalise
the weights stably. Constant factors (such as 1/sqrt(2π) for the Gaussian) are
kept in ``K`` but cancel in the normalised weights.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

_LOG_GAUSS_NORM = -0.5 * np.log(2 * np.pi)


def gaussian(u: np.ndarray) -> np.ndarray:
    """Gaussian kernel exp(-u²/2) / sqrt(2π).

    Parameters:
        u: Scaled distances between queries and keys.

    Returns:
        The kernel value, element-wise.
    """
    return np.exp(log_gaussian(u))


def log_gaussian(u: np.ndarray) -> np.ndarray:
    """Logarithm of the Gaussian kernel, -u²/2 - log sqrt(2π)."""
    u = np.asarray(u, dtype=float)
    with np.errstate(over="ignore"):  # u² beyond float range: log K = -inf
        return -0.5 * u * u + _LOG_GAUSS_NORM


def boxcar(u: np.ndarray) -> np.ndarray:
    """Boxcar kernel: 1 where |u| ≤ 1, else 0.

    Parameters:
        u: Scaled distances between queries and keys.

    Returns:
        The kernel value, element-wise.
    """
    return (np.abs(np.asarray(u, dtype=float)) <= 1).astype(float)


def constant(u: np.ndarray) -> np.ndarray:
    """Constant kernel: 1 everywhere, which turns attention into average pooling.

    Parameters:
        u: Scaled distances between queries and keys.

    Returns:
        Ones, in the shape of ``u``.
    """
    return np.ones_like(np.asarray(u, dtype=float))


def epanechnikov(u: np.ndarray) -> np.ndarray:
    """Epanechnikov kernel: 3/4·(1 - u²) where |u| ≤ 1, else 0.

    Parameters:
        u: Scaled distances between queries and keys.

    Returns:
        The kernel value, element-wise.
    """
    u = np.asarray(u, dtype=float)
    inside = np.abs(u) <= 1
    return np.where(inside, 0.75 * (1 - np.where(inside, u, 0.0) ** 2), 0.0)


def _log_of(kernel: Callable[[np.ndarray], np.ndarray]) -> Callable:
    def log_kernel(u: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(kernel(u))

    return log_kernel


@dataclass(frozen=True)
class Kernel:
    """A named kernel with its log form.

    Attributes:
        name: The name used in ``nadaraya_watson(kernel=...)``.
        function: K(u).
        log_function: log K(u), with -inf outside the support.
        compact: Whether K is zero for |u| > 1.
        std: The standard deviation of K scaled to a density, at bandwidth 1
            (at bandwidth h it is ``h * std``); infinite for the constant
            kernel, which no scaling makes a density. The bandwidth h is the
            Gaussian's standard deviation but the half-width of the boxcar's
            and Epanechnikov's support, so equal h is not equal width.
        area: The integral of K over the real line: 1 for the kernels written
            as densities, 2 for the boxcar (whose 1/2 is dropped), infinite
            for the constant kernel.
    """

    name: str
    function: Callable[[np.ndarray], np.ndarray]
    log_function: Callable[[np.ndarray], np.ndarray]
    compact: bool
    std: float
    area: float


KERNELS: dict[str, Kernel] = {
    "gaussian": Kernel("gaussian", gaussian, log_gaussian, False, std=1.0, area=1.0),
    "boxcar": Kernel(
        "boxcar", boxcar, _log_of(boxcar), True, std=1 / np.sqrt(3), area=2.0
    ),
    "constant": Kernel(
        "constant", constant, _log_of(constant), False, std=np.inf, area=np.inf
    ),
    "epanechnikov": Kernel(
        "epanechnikov",
        epanechnikov,
        _log_of(epanechnikov),
        True,
        std=1 / np.sqrt(5),
        area=1.0,
    ),
}


def get_kernel(name: str) -> Kernel:
    """Look up a kernel by name.

    Parameters:
        name: One of ``"gaussian"``, ``"boxcar"``, ``"constant"``, ``"epanechnikov"``.

    Returns:
        The kernel.
    """
    if not isinstance(name, str) or name not in KERNELS:
        raise ValueError(f"unknown kernel {name!r}; expected one of {sorted(KERNELS)}")
    return KERNELS[name]
