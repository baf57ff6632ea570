"""Figure text in every language of the site, kept apart from the drawing code."""

from __future__ import annotations

LANGUAGES = ("en", "zh")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "keys": "Keys",
        "queries": "Queries",
        "identity_alt": (
            "Heatmap of a 10 by 10 attention-weight matrix that is the identity: "
            "each query puts all its weight on the key with the same index."
        ),
    },
    "zh": {
        "keys": "键",
        "queries": "查询",
        "identity_alt": (
            "10×10 注意力权重矩阵的热图，矩阵为单位矩阵："
            "每个查询把全部权重放在序号相同的键上。"
        ),
    },
}


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


def label(key: str, lang: str) -> str:
    """Figure text for a key in a language.

    Parameters:
        key: The name of the text, e.g. ``"queries"``.
        lang: ``"en"`` or ``"zh"``.

    Returns:
        The text in that language.
    """
    table = LABELS[check_lang(lang)]
    if key not in table:
        raise KeyError(f"no {lang!r} label for {key!r}")
    return table[key]
