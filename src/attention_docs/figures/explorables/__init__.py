"""Explorable figures: Nadaraya-Watson, soft lookup, gradient descent, saturation.

Each function returns an :class:`~attention_docs.explorable.Explorable`: the
static drawing at the figure's default setting, and the data the page's script
needs, computed here by the library. Beside the data, which the page carries,
it keeps reference results at chosen settings (``references``, not on the
page); the browser tests check that the script draws exactly those numbers
when its controls are set there.

One module per figure (``nadaraya_watson``, ``soft_lookup``,
``gradient_descent``, ``saturation``): its settings, its data's schema, its
references and its drawing; ``script`` holds what every figure's script reads.
"""

from __future__ import annotations

from .gradient_descent import (
    GD_RECIPES,
    GD_REFERENCES,
    GdFit,
    GdRun,
    GradientDescentData,
    gradient_descent_explorer,
)
from .nadaraya_watson import (
    NW_BANDWIDTHS,
    NW_DEFAULT,
    NW_GAP_BANDWIDTH,
    NW_GAP_KERNEL,
    NW_KERNELS,
    NW_QUERIES,
    NW_REFERENCES,
    NadarayaWatsonData,
    NwResult,
    NwSetting,
    gap_query,
    nadaraya_watson_explorer,
)
from .saturation import (
    SAT_C_STEPS,
    SAT_DEFAULT,
    SAT_KEYS,
    SAT_REFERENCES,
    SAT_SEED,
    SaturationData,
    SaturationResult,
    SaturationSetting,
    c_factor,
    raw_scores,
    saturation_explorer,
    saturation_result,
)
from .script import ScriptData, slider_positions
from .soft_lookup import (
    LOOKUP_DEFAULT,
    LOOKUP_KEYS,
    LOOKUP_NAMES,
    LOOKUP_QUERIES,
    LOOKUP_REFERENCES,
    LOOKUP_STEPS,
    LOOKUP_VALUES,
    LookupResult,
    LookupSetting,
    SoftLookupData,
    lookup_temperature,
    soft_lookup_explorer,
)

__all__ = [
    "nadaraya_watson_explorer",
    "soft_lookup_explorer",
    "gradient_descent_explorer",
    "saturation_explorer",
    "ScriptData",
    "slider_positions",
    "NwSetting",
    "NwResult",
    "NadarayaWatsonData",
    "NW_KERNELS",
    "NW_QUERIES",
    "NW_BANDWIDTHS",
    "NW_DEFAULT",
    "NW_REFERENCES",
    "NW_GAP_KERNEL",
    "NW_GAP_BANDWIDTH",
    "gap_query",
    "LookupSetting",
    "LookupResult",
    "SoftLookupData",
    "LOOKUP_NAMES",
    "LOOKUP_KEYS",
    "LOOKUP_VALUES",
    "LOOKUP_QUERIES",
    "LOOKUP_STEPS",
    "LOOKUP_DEFAULT",
    "LOOKUP_REFERENCES",
    "lookup_temperature",
    "GdRun",
    "GdFit",
    "GradientDescentData",
    "GD_RECIPES",
    "GD_REFERENCES",
    "SaturationSetting",
    "SaturationResult",
    "SaturationData",
    "SAT_KEYS",
    "SAT_C_STEPS",
    "SAT_DEFAULT",
    "SAT_REFERENCES",
    "SAT_SEED",
    "c_factor",
    "raw_scores",
    "saturation_result",
]
