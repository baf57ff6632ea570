"""The soft lookup explorer: attention as a lookup, with a query to move.

Five keys in the plane, one number each; the reader picks a scoring
function and a temperature. Its settings, the library's results at the
reference settings, the static drawing and the explorable itself
(:func:`soft_lookup_explorer`).
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...explorable import Explorable
from ...labels import label, spaces_han_and_latin
from ...scores import LOOKUP_SCORES, soft_lookup
from ...style import BLUE, RED, figure_style
from ...svg import Drawing
from .script import ScriptData, texts


class LookupSetting(TypedDict):
    """A setting of the soft lookup explorer's controls."""

    score: str
    step: int
    query: tuple[float, float]


class LookupResult(TypedDict):
    """One setting's result by :func:`~attention_docs.scores.soft_lookup`."""

    score: str
    step: int
    query: tuple[float, float]
    weights: np.ndarray
    output: float


class SoftLookupData(ScriptData):
    """The soft lookup explorer's data."""

    names: tuple[str, ...]
    keys: tuple[tuple[float, float], ...]
    values: tuple[float, ...]
    scores: dict[str, str]
    queries: tuple[float, float, float]
    steps: int
    default: LookupSetting


# Attention as a soft lookup: five keys in the plane, one number each.
LOOKUP_NAMES = ("A", "B", "C", "D", "E")


LOOKUP_KEYS = ((2.0, 0.5), (0.5, 2.0), (-1.5, 1.0), (-1.0, -1.5), (1.0, -1.0))


LOOKUP_VALUES = (3.0, 7.0, 1.0, 9.0, 5.0)


LOOKUP_QUERIES = (-2.5, 2.5, 0.1)  # each coordinate


# The temperature slider's positions k run over -20..20 for T = 10^(k/10);
# one step further at each end are the limits T = 0 and T = ∞.
LOOKUP_STEPS = 20


LOOKUP_DEFAULT: LookupSetting = {"score": "dot_product", "step": 0, "query": (1.0, 0.5)}


LOOKUP_REFERENCES: tuple[LookupSetting, ...] = (
    LOOKUP_DEFAULT,
    {"score": "dot_product", "step": -21, "query": (1.0, 0.5)},
    {"score": "dot_product", "step": 21, "query": (1.0, 0.5)},
    {"score": "scaled_dot_product", "step": -5, "query": (-1.2, 0.4)},
    {"score": "negative_squared_distance", "step": 3, "query": (0.3, -2.0)},
    {"score": "negative_squared_distance", "step": -21, "query": (0.3, -2.0)},
    {"score": "scaled_dot_product", "step": -20, "query": (2.5, 2.5)},
)


def lookup_temperature(step: int) -> float:
    """The temperature at a position of the soft lookup's slider."""
    if not -LOOKUP_STEPS - 1 <= step <= LOOKUP_STEPS + 1:
        raise ValueError(
            f"step must be in [{-LOOKUP_STEPS - 1}, {LOOKUP_STEPS + 1}], got {step}"
        )
    if abs(step) == LOOKUP_STEPS + 1:
        return 0.0 if step < 0 else np.inf
    return 10 ** (step / 10)


def _lookup_result(score: str, step: int, query: tuple[float, float]) -> LookupResult:
    outputs, weights = soft_lookup(
        [query],
        LOOKUP_KEYS,
        LOOKUP_VALUES,
        score=score,
        temperature=lookup_temperature(step),
    )
    return {
        "score": score,
        "step": step,
        "query": query,
        "weights": weights[0],
        "output": float(outputs[0]),
    }


def _lookup_drawing(result: LookupResult, lang: str) -> Drawing:
    """The keys in the plane with the query; beside them, their weights."""
    weights = result["weights"]
    with figure_style(lang):
        fig = Figure(figsize=(5.6, 2.8), layout="constrained")
        plane, bars = fig.subplots(1, 2, width_ratios=(1, 1.1))
        _lookup_plane(plane, result, lang)
        _lookup_bars(bars, result, lang)
    q1, q2 = result["query"]
    alt = label(
        "ex_lookup_static_alt",
        lang,
        q1=q1,
        q2=q2,
        t=lookup_temperature(result["step"]),
        top=LOOKUP_NAMES[int(np.argmax(weights))],
        output=result["output"],
    )
    return Drawing(fig, alt)


def _lookup_plane(plane: Axes, result: LookupResult, lang: str) -> None:
    """The keys, each as large as its weight and named with its value; the query."""
    keys, weights = np.array(LOOKUP_KEYS), result["weights"]
    k1s, k2s = keys.T  # (n_keys,) each
    plane.scatter(k1s, k2s, s=30 + 400 * weights, color=BLUE, alpha=0.7)
    for name, (k1, k2), value in zip(LOOKUP_NAMES, keys, LOOKUP_VALUES, strict=True):
        plane.annotate(
            f"{name} ({value:g})",
            (k1, k2),
            xytext=(6, 4),
            textcoords="offset points",
            fontsize=8,
        )
    plane.plot(*result["query"], "*", color=RED, ms=11)
    plane.annotate(
        "q",
        result["query"],
        xytext=(6, -10),
        textcoords="offset points",
        fontsize=8,
        color=RED,
    )
    low, high, _ = LOOKUP_QUERIES
    plane.set(
        xlim=(low, high),
        ylim=(low, high),
        aspect="equal",
        title=label("ex_plane_title", lang),
    )


def _lookup_bars(bars: Axes, result: LookupResult, lang: str) -> None:
    """The weight of each key, and the output they give."""
    weights = result["weights"]
    bars.bar(LOOKUP_NAMES, weights, color=BLUE)
    for index, weight in enumerate(weights):
        bars.annotate(
            f"{weight:.2f}",
            (index, weight),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    bars.set(
        ylim=(0, 1.12),
        title=label("ex_weights_title", lang),
        xlabel=label("ex_output", lang, output=f"{result['output']:.2f}"),
    )


def soft_lookup_explorer(lang: str = "en") -> Explorable:
    """Attention as a soft lookup: move the query, pick a score and a temperature.

    The references are :func:`~attention_docs.scores.soft_lookup`'s results,
    including the lookup (T = 0) and the average (T = ∞) at the slider's ends.
    """
    references = [_lookup_result(**setting) for setting in LOOKUP_REFERENCES]
    payload: SoftLookupData = {
        "lang": lang,
        "spaced": spaces_han_and_latin(lang),
        "names": LOOKUP_NAMES,
        "keys": LOOKUP_KEYS,
        "values": LOOKUP_VALUES,
        "scores": {name: label(f"ex_{name}", lang) for name in LOOKUP_SCORES},
        "queries": LOOKUP_QUERIES,
        "steps": LOOKUP_STEPS,
        "default": LOOKUP_DEFAULT,
        "text": texts(
            lang,
            (
                "ex_score",
                "ex_temperature",
                "ex_t_value",
                "ex_t_zero",
                "ex_t_inf",
                "ex_q1",
                "ex_q2",
                "ex_q_value",
                "ex_plane_title",
                "ex_weights_title",
                "ex_lookup_readout",
                "ex_lookup_weight",
                "ex_list_sep",
                "ex_output",
                "ex_lookup_alt",
            ),
        ),
    }
    drawing = _lookup_drawing(references[0], lang)
    return Explorable("soft-lookup", drawing, payload, references)
