"""The attention-layer chapter's tables and its scoring figure.

Each table is computed from the library during the build, from seeded random
queries and keys, and printed as HTML: the √d measurements, the layer's
indifference to order and what positions change, and the layer's shapes. The
cost of the weights and linear attention are in :mod:`.attention_layer_cost`.
"""

from __future__ import annotations

import functools
import html
import math
from typing import TYPE_CHECKING

import numpy as np

from ..labels import label
from ..svg import Drawing
from .attention_layer import SATURATION_DIMENSIONS, saturation_table, weight_panels
from .panels import decimal_or_power, html_table

if TYPE_CHECKING:  # torch is the [model] extra
    import torch

SCORING_SHAPE = (5, 8, 64)  # queries, keys, dimension d
SCORING_HIDDEN = 16  # the additive score's hidden units
SCORING_SEED = 0
ORDER_SHAPE = (6, 16, 4)  # positions, d_model, heads
ORDER_PERMUTATION = (4, 0, 5, 2, 1, 3)


def _generator(seed: int) -> torch.Generator:
    from .._torch import torch

    return torch.Generator().manual_seed(seed)


@functools.cache
def scoring_weights() -> dict[str, np.ndarray]:
    """The weights four scoring functions give the same queries and keys.

    Returns:
        Arrays of shape (queries, keys) from :data:`SCORING_SHAPE`, by name:
        ``dot``, ``scaled``, ``bilinear`` (W with entries of variance 1/d)
        and ``additive`` (:data:`SCORING_HIDDEN` units, variance 1/d and
        1/hidden), all seeded.
    """
    from .._torch import torch
    from ..scoring import additive_scores, bilinear_scores, dot_product_scores

    n_q, n_k, d = SCORING_SHAPE
    generator = _generator(SCORING_SEED)

    def draw(*shape: int, std: float = 1.0) -> torch.Tensor:
        return std * torch.randn(*shape, generator=generator, dtype=torch.float64)

    queries, keys = draw(n_q, d), draw(n_k, d)
    weight = draw(d, d, std=1 / math.sqrt(d))
    w_q, w_k = draw(SCORING_HIDDEN, d, std=1 / math.sqrt(d)), draw(SCORING_HIDDEN, d)
    w_k /= math.sqrt(d)
    v = draw(SCORING_HIDDEN, std=1 / math.sqrt(SCORING_HIDDEN))
    dot = dot_product_scores(queries, keys)
    scores = {
        "dot": dot,
        "scaled": dot / math.sqrt(d),
        "bilinear": bilinear_scores(queries, keys, weight),
        "additive": additive_scores(queries, keys, w_q, w_k, v),
    }
    return {name: torch.softmax(s, dim=-1).numpy() for name, s in scores.items()}


def scoring_heatmaps(lang: str = "en") -> Drawing:
    """The weights of the dot, scaled dot, bilinear and additive scores."""
    weights = scoring_weights()
    names = ["dot", "scaled", "bilinear", "additive"]
    fig = weight_panels(weights, names, "score_{name}", lang)
    n_q, n_k, d = SCORING_SHAPE
    top = {name: weights[name].max(axis=1).mean() for name in names}
    alt = label("scoring_alt", lang, n_q=n_q, n_k=n_k, d=d, **top)
    return Drawing(fig, alt)


def saturation_summary(lang: str = "en") -> str:
    """The √d measurements at a few dimensions, as an HTML table."""
    table = saturation_table()
    rows = []
    for i, d in enumerate(SATURATION_DIMENSIONS):
        if d not in (1, 16, 256, 1024):
            continue
        rows.append(
            [
                str(d),
                f"{table['std_raw'][i]:.1f}",
                f"{table['top_raw'][i]:.2f}",
                f"{table['top_scaled'][i]:.2f}",
                f"{table['jacobian_raw'][i]:.3f}",
                f"{table['jacobian_scaled'][i]:.3f}",
                f"{table['flat_raw'][i]:.0%}",
            ]
        )
    keys = (
        "d",
        "std",
        "top_raw",
        "top_scaled",
        "jacobian_raw",
        "jacobian_scaled",
        "flat_raw",
    )
    return html_table([label(f"saturation_table_{k}", lang) for k in keys], rows)


@functools.cache
def order_differences() -> dict[str, float]:
    """How much shuffling the positions changes a self-attention layer's outputs.

    Returns:
        The largest difference between the layer's outputs for the shuffled
        inputs and its outputs shuffled the same way, relative to the largest
        output: ``plain`` for the inputs alone, ``causal`` for the inputs
        alone under a causal mask, ``positions`` with sinusoidal encodings
        added after shuffling.
    """
    from .._torch import torch
    from ..layers import MultiHeadAttention, causal_mask, sinusoidal_positions

    n, d_model, heads = ORDER_SHAPE
    layer = MultiHeadAttention(d_model, heads, seed=SCORING_SEED)
    x = torch.randn(1, n, d_model, generator=_generator(1), dtype=torch.float64)
    order = torch.tensor(ORDER_PERMUTATION)
    positions = sinusoidal_positions(n, d_model)
    cases = {
        "plain": (lambda t: t, None),
        "causal": (lambda t: t, causal_mask(n)),
        "positions": (lambda t: t + positions, None),
    }
    found = {}
    for name, (encode, mask) in cases.items():
        with torch.no_grad():
            out = layer(encode(x), encode(x), encode(x), mask=mask)[0]
            moved = encode(x[:, order])
            shuffled = layer(moved, moved, moved, mask=mask)[0]
        difference = (shuffled - out[:, order]).abs().max() / out.abs().max()
        found[name] = float(difference)
    return found


def order_table(lang: str = "en") -> str:
    """:func:`order_differences` as an HTML table."""
    found = order_differences()
    rows = [
        [html.escape(label(f"order_{name}", lang)), decimal_or_power(value)]
        for name, value in found.items()
    ]
    return html_table([label("order_inputs", lang), label("order_diff", lang)], rows)


LAYER_SHAPE = (2, 5, 16, 4)  # batch, positions, d_model, heads


def layer_shapes() -> dict[str, tuple[int, ...]]:
    """The shapes inside a masked multi-head self-attention layer, in order.

    Returns:
        By name: ``inputs``, ``heads_q`` (one head's queries, keys and
        values), ``weights``, ``joined`` (the heads' outputs side by side,
        before W_o) and ``outputs``; for :data:`LAYER_SHAPE`, causal mask.
    """
    from .._torch import torch
    from ..layers import MultiHeadAttention, causal_mask

    batch, n, d_model, heads = LAYER_SHAPE
    x = torch.randn(batch, n, d_model, generator=_generator(0), dtype=torch.float64)
    layer = MultiHeadAttention(d_model, heads, seed=0)
    with torch.no_grad():
        outputs, weights = layer(x, x, x, mask=causal_mask(n))
        per_head = layer._heads(layer.w_q(x), heads)
    return {
        "inputs": tuple(x.shape),
        "heads_q": tuple(per_head.shape),
        "weights": tuple(weights.shape),
        "joined": (batch, n, heads * per_head.shape[-1]),
        "outputs": tuple(outputs.shape),
    }


def layer_table(lang: str = "en") -> str:
    """:func:`layer_shapes` as an HTML table."""
    rows = [
        [html.escape(label(f"layer_{name}", lang)), f"({', '.join(map(str, shape))})"]
        for name, shape in layer_shapes().items()
    ]
    return html_table([label("layer_tensor", lang), label("layer_shape", lang)], rows)
