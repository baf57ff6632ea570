"""Figure text in every language of the site, kept apart from the drawing code."""

from __future__ import annotations

import re

from .en import EN
from .zh import ZH

LANGUAGES = ("en", "zh")

LABELS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}


def check_lang(lang: str) -> str:
    """Check that a language code is one the site is written in.

    Parameters:
        lang: A language code.

    Returns:
        The same code.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    return lang


def label(key: str, lang: str, **fields: object) -> str:
    """Figure text for a key in a language, with ``{fields}`` filled in.

    Parameters:
        key: The name of the text, e.g. ``"queries"``.
        lang: ``"en"`` or ``"zh"``.
        **fields: Values for the placeholders in the text.

    Returns:
        The text in that language.
    """
    table = LABELS[check_lang(lang)]
    if key not in table:
        raise KeyError(f"no {lang!r} label for {key!r}")
    text = table[key].format(**fields) if fields else table[key]
    return space_han_and_latin(text) if lang == "zh" else text


_HAN_THEN_LATIN = re.compile(r"([\u4e00-\u9fff])([A-Za-z0-9(])")
_LATIN_THEN_HAN = re.compile(r"([A-Za-z0-9)])([\u4e00-\u9fff])")


def space_han_and_latin(text: str) -> str:
    """Put one space between Chinese characters and Latin letters or digits.

    The site's Chinese style (CONTRIBUTING.zh.md) separates them, as in
    「带宽 h = 1 的高斯核」; text assembled from parts would otherwise glue them.

    Parameters:
        text: Chinese text.

    Returns:
        The text with those spaces.
    """
    return _LATIN_THEN_HAN.sub(r"\1 \2", _HAN_THEN_LATIN.sub(r"\1 \2", text))
