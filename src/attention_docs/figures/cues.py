"""Figures of the attention-cues and queries-keys-values chapters."""

from __future__ import annotations

import numpy as np

from .. import diagrams
from ..labels import label
from ..plotting import heatmaps
from ..svg import Drawing


def saliency_cue(lang: str = "en") -> Drawing:
    """The desk scene with gaze drawn to the red cup (a nonvolitional cue)."""
    return _scene("cup", "saliency", lang)


def volitional_cue(lang: str = "en") -> Drawing:
    """The desk scene with gaze directed to the book by the task (a volitional cue)."""
    return _scene("book", "volitional", lang)


def task_cue(focus: str, lang: str = "en") -> Drawing:
    """The desk scene with gaze directed by a task to any one of the objects.

    Parameters:
        focus: One of :data:`attention_docs.diagrams.SCENE_OBJECTS`.
        lang: Language of the figure text.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    return _scene(focus, "task", lang)


def _scene(focus: str, cue: str, lang: str) -> Drawing:
    names = {name: label(name, lang) for name in diagrams.SCENE_OBJECTS}
    fig = diagrams.attention_cue_scene(
        focus, names=names, caption=label(f"{cue}_caption", lang), lang=lang
    )
    alt = label(f"{cue}_alt", lang, object=names.get(focus, focus))
    return Drawing(fig, alt)


# The label of each text of the query-key-value diagram (diagrams.QKV_TEXT).
QKV_LABELS = {
    "key": "key",
    "value": "value",
    "keys": "keys_caption",
    "values": "values_caption",
    "query": "query_box",
    "pooling": "pooling_box",
    "output": "output_box",
    "weights": "weights_caption",
}


def qkv_text(lang: str) -> dict[str, str]:
    """The query-key-value diagram's text in a language."""
    return {name: label(key, lang) for name, key in QKV_LABELS.items()}


def qkv_diagram(lang: str = "en") -> Drawing:
    """The attention framework: queries, keys, values and attention pooling."""
    text = qkv_text(lang)
    return Drawing(diagrams.qkv_framework(text=text, lang=lang), label("qkv_alt", lang))


def identity_heatmap(lang: str = "en", size: int = 10) -> Drawing:
    """Heatmap of identity attention weights: each query attends only to its own key.

    Parameters:
        lang: Language of the figure text.
        size: Number of queries and keys.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    weights = np.eye(size).reshape(1, 1, size, size)  # (1, 1, n_queries, n_keys)
    fig = heatmaps(
        weights, xlabel=label("keys", lang), ylabel=label("queries", lang), lang=lang
    )
    return Drawing(fig, label("identity_alt", lang))


def weights_heatmap(weights: np.ndarray, lang: str = "en") -> Drawing:
    """Heatmap of any attention-weight matrix, queries down and keys across.

    Parameters:
        weights: Shape (n_queries, n_keys).
        lang: Language of the figure text.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 2:
        raise ValueError(
            f"weights must be 2-D (n_queries, n_keys), got {weights.shape}"
        )
    fig = heatmaps(
        weights[None, None],
        xlabel=label("keys", lang),
        ylabel=label("queries", lang),
        lang=lang,
    )
    n_queries, n_keys = weights.shape
    alt = label("matrix_alt", lang, n_queries=n_queries, n_keys=n_keys)
    return Drawing(fig, alt)


def softmax_heatmap(lang: str = "en", size: int = 10, seed: int = 0) -> Drawing:
    """Heatmap of a row-wise softmax of a random matrix (an exercise).

    Parameters:
        lang: Language of the figure text.
        size: Number of queries and keys.
        seed: Seed of the random matrix.

    Returns:
        The figure and its text alternative (the page gets an inline ``<svg>``).
    """
    scores = np.random.default_rng(seed).normal(size=(size, size))  # (n_q, n_k)
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    fig = heatmaps(
        weights[None, None],
        xlabel=label("keys", lang),
        ylabel=label("queries", lang),
        lang=lang,
    )
    return Drawing(fig, label("softmax_alt", lang, n=size))
