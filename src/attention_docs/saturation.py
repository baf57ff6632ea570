"""Why dot products are divided by √d: scores, weights and gradients against d.

For a query and a key whose d entries are independent, with mean 0 and
variance 1, the dot product q·k has mean 0 and variance d. Unscaled, the
scores of one query over its keys spread more as d grows, so the softmax puts
nearly all the weight on one key, and its Jacobian, ∂α/∂s = diag(α) − αα^T,
goes to zero for most queries. The gradient that reaches a query, c J K by
the chain rule, carries the scores' factor c too: unscaled, it is tiny for
most queries and very large for the few near ties (:func:`query_gradient_norms`).
Divided by √d, the scores keep variance 1 at every d. A learned projection
can still sharpen the weights: multiplying W_q by c multiplies every score by
c, the temperature 1/c, so the layer learns its own temperature.

Everything here is measured on random queries and keys from a seeded
generator, so a page prints the same numbers at every build.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .checks import finite_array, whole_number

# A Jacobian norm below this passes almost no gradient to a query's scores.
FLAT = 1e-3


def _finite(name: str, values: object) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    return finite_array(name, array, array.ndim)


def softmax_rows(scores: object) -> np.ndarray:
    """The softmax of each row of ``scores`` (shape ``(..., n)``), computed stably."""
    s = _finite("scores", scores)
    if s.ndim == 0 or s.shape[-1] == 0:
        raise ValueError(f"scores must have at least one column, got shape {s.shape}")
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_jacobian(weights: object) -> np.ndarray:
    """The Jacobian of the softmax at weights α: ``diag(α) − α αᵀ``.

    Parameters:
        weights: Softmax weights, shape ``(..., n)`` (each row sums to 1).

    Returns:
        Shape ``(..., n, n)``: entry ``[i, j]`` is ∂α_i/∂s_j.
    """
    a = _finite("weights", weights)
    if a.ndim == 0 or not np.allclose(a.sum(axis=-1), 1.0):
        raise ValueError("weights must be rows that sum to 1 (softmax outputs)")
    eye = np.eye(a.shape[-1])
    return a[..., :, None] * eye - a[..., :, None] * a[..., None, :]


@dataclass(frozen=True)
class Saturation:
    """How concentrated the weights of random queries over random keys are, at one d.

    Attributes:
        d: The dimension of queries and keys.
        scale: The factor the scores were multiplied by (1 or 1/√d).
        score_std: The standard deviation of the scores, over every pair.
        top_weight: The mean, over queries, of the largest weight.
        jacobian: The mean, over queries, of the Jacobian's Frobenius norm.
        flat_share: The share of queries whose Jacobian's norm is below
            :data:`FLAT`: their scores get almost no gradient.
    """

    d: int
    scale: float
    score_std: float
    top_weight: float
    jacobian: float
    flat_share: float


def random_queries_keys(
    d: int, n_queries: int, n_keys: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Queries and keys with independent standard normal entries (seeded)."""
    whole_number("d", d)
    whole_number("n_queries", n_queries)
    whole_number("n_keys", n_keys)
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n_queries, d)), rng.standard_normal((n_keys, d))


def saturation(
    d: int,
    *,
    scaled: bool = True,
    n_queries: int = 2000,
    n_keys: int = 10,
    temperature: float = 1.0,
    seed: int = 0,
) -> Saturation:
    """Measure the weights' concentration at dimension ``d``.

    Parameters:
        d: The dimension of queries and keys.
        scaled: Divide the dot products by √d.
        n_queries: How many random queries to average over.
        n_keys: How many keys each query weighs.
        temperature: Divide the scores by it too (a query projection
            multiplied by c is the temperature 1/c).
        seed: The generator's seed.
    """
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a positive number, got {temperature!r}")
    queries, keys = random_queries_keys(d, n_queries, n_keys, seed)
    scale = (1 / np.sqrt(d) if scaled else 1.0) / temperature
    scores = scale * queries @ keys.T
    weights = softmax_rows(scores)
    norms = np.linalg.norm(softmax_jacobian(weights), axis=(-2, -1))
    return Saturation(
        d=d,
        scale=float(scale),
        score_std=float(scores.std()),
        top_weight=float(weights.max(axis=-1).mean()),
        jacobian=float(norms.mean()),
        flat_share=float((norms < FLAT).mean()),
    )


def query_gradient_norms(
    d: int,
    *,
    scaled: bool = True,
    n_queries: int = 2000,
    n_keys: int = 10,
    seed: int = 0,
) -> np.ndarray:
    """How much each query's weights move when the query moves.

    The weights α = softmax(c · K q) of a query q over keys K depend on q
    through the scores, so by the chain rule ∂α/∂q = c · J · K, with J the
    softmax's Jacobian and c the scores' factor (1, or 1/√d when scaled).
    This is what reaches the query, and through it W_q, in training; the
    keys get the like.

    Parameters:
        d: The dimension of queries and keys.
        scaled: Divide the dot products by √d.
        n_queries: How many random queries (as in :func:`saturation`).
        n_keys: How many keys each query weighs.
        seed: The generator's seed.

    Returns:
        The Frobenius norm of ∂α/∂q for each query, shape (n_queries,).
    """
    queries, keys = random_queries_keys(d, n_queries, n_keys, seed)
    scale = 1 / np.sqrt(d) if scaled else 1.0
    weights = softmax_rows(scale * queries @ keys.T)  # (n_queries, n_keys)
    jacobian = softmax_jacobian(weights)  # (n_queries, n_keys, n_keys)
    return np.linalg.norm(scale * jacobian @ keys, axis=(-2, -1))
