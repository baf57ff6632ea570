"""One function per figure published on the site, each returning inline SVG.

Pages call these, one call per figure, with the language of the page. The
English and the Chinese page run the same code; only ``lang`` differs.
"""

from __future__ import annotations

import numpy as np

from .labels import label
from .plotting import heatmaps
from .svg import figure_to_svg


def identity_heatmap(lang: str = "en", size: int = 10) -> str:
    """Heatmap of identity attention weights: each query attends only to its own key.

    Parameters:
        lang: Language of the figure text.
        size: Number of queries and keys.

    Returns:
        The figure as an inline ``<svg>`` element.
    """
    weights = np.eye(size).reshape(1, 1, size, size)  # (1, 1, n_queries, n_keys)
    fig = heatmaps(
        weights, xlabel=label("keys", lang), ylabel=label("queries", lang), lang=lang
    )
    return figure_to_svg(fig, alt=label("identity_alt", lang))
