"""The online softmax: a Nadaraya-Watson estimate built one block of keys at a time.

For one query with scores s_j over the keys, attention pooling is the ratio

    Σ_j exp(s_j) v_j / Σ_j exp(s_j),

and both sums can be accumulated block by block. To keep exp from
overflowing, the running sums are kept relative to the largest score m seen
so far; when a block brings a larger one, m', the sums so far are rescaled
by exp(m − m'). After the last block the ratio is exactly the softmax
average of the values (numpy; :mod:`attention_docs.tiled_attention` does the
same for whole tiles of queries in PyTorch).
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np

from .checks import as_vector


class Partial(TypedDict):
    """The running state after one block of keys."""

    keys: int  # keys seen so far
    maximum: float  # m, the largest score so far
    total: float  # Σ exp(s_j − m) over the keys so far
    estimate: float  # the ratio of the two sums so far


def online_pooling(scores: object, values: object, block: int) -> list[Partial]:
    """Softmax attention pooling of one query, a block of keys at a time.

    Parameters:
        scores: The query's score for each key, shape (n_keys,).
        values: One number per key, shape (n_keys,).
        block: Keys per block.

    Returns:
        The state after each block. The last estimate is
        Σ_j softmax(s)_j v_j, up to rounding.
    """
    scores, values = as_vector("scores", scores), as_vector("values", values)
    if scores.shape != values.shape:
        raise ValueError(
            f"scores and values need one entry per key, got {scores.shape[0]} "
            f"scores and {values.shape[0]} values"
        )
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be a positive integer, got {block!r}")
    maximum, total, pooled = -np.inf, 0.0, 0.0
    steps: list[Partial] = []
    for start in range(0, scores.size, block):
        s, v = scores[start : start + block], values[start : start + block]
        new_maximum = max(maximum, float(s.max()))
        rescale = float(np.exp(maximum - new_maximum))  # 0 before the first block
        weights = np.exp(s - new_maximum)
        total = total * rescale + float(weights.sum())
        pooled = pooled * rescale + float(weights @ v)
        maximum = new_maximum
        steps.append(
            Partial(
                keys=start + s.size,
                maximum=maximum,
                total=total,
                estimate=pooled / total,
            )
        )
    return steps
