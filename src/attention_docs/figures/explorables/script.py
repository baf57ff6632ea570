"""What every explorable figure's script reads besides its own numbers.

The page's language, the figure's text in it, and the values the figure's
sliders can take.
"""

from __future__ import annotations

from typing import TypedDict

from ...labels import label


class ScriptData(TypedDict):
    """The data every figure's script reads (the page carries it as JSON).

    The script's text comes from ``text``, in the page's language; ``spaced``
    says whether that language spaces Chinese from Latin text (labels).
    """

    lang: str
    spaced: bool
    text: dict[str, str]


def slider_positions(low: float, high: float, step: float) -> list[float]:
    """Every value a range input from ``low`` to ``high`` by ``step`` can take.

    Rounded to 10 decimals, so each is the double nearest the decimal the
    browser writes in the input's value (``"1.35"``, not ``1.35000000000002``).
    """
    count = round((high - low) / step)
    return [round(low + i * step, 10) for i in range(count + 1)]


def texts(lang: str, keys: tuple[str, ...]) -> dict[str, str]:
    """The figure's text in a language, ``{name}`` fields left for the script."""
    return {key: label(key, lang) for key in keys}
