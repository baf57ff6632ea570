"""The sinusoidal positional encodings of Vaswani et al. (2017), in numpy.

:func:`attention_docs.layers.sinusoidal_positions` hands the same array to
PyTorch; the chapter's figure of the encodings needs no PyTorch.
"""

from __future__ import annotations

import numpy as np

from .checks import whole_number


def sinusoidal(n: int, d: int) -> np.ndarray:
    """Position p, column 2i holds sin(p / 10000^(2i/d)); column 2i + 1 the cosine.

    Parameters:
        n: Number of positions.
        d: The model's width, even.

    Returns:
        A float64 array of shape (n, d).
    """
    n, d = whole_number("n", n), whole_number("d", d, minimum=2)
    if d % 2:
        raise ValueError(f"d must be even (sine and cosine pairs), got {d}")
    positions = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    rates = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,)
    angles = positions * rates  # (n, d/2)
    encoding = np.empty((n, d))
    encoding[:, 0::2], encoding[:, 1::2] = np.sin(angles), np.cos(angles)
    return encoding
