"""Figure text in every language of the site, kept apart from the drawing code.

Each language's text is a package of this one named after its locale, with
``-`` written ``_`` (``en/``, ``zh/``, ``pt_BR/``), whose ``LABELS`` is a
dict of key -> text, the same keys as English: one file per kind of text
(the first chapters' figures, the notebooks' lines, the explorables', one
file per later chapter), merged in its ``__init__.py``. A single module
(``pt_BR.py``) with one ``LABELS`` works too. Its ``__init__`` may also set
``SPACE_HAN_AND_LATIN = True`` to put a space between Chinese characters and
Latin letters or digits. A language without a module, or a key its module
lacks, is drawn in English: a new edition's figures work before they are
translated, and the site's translation status lists what is missing.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Mapping
from types import ModuleType

ENGLISH = "en"
# A locale as mkdocs-static-i18n accepts it: "en", "zh", "pt-BR", "zh_TW".
_LOCALE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")


def check_lang(lang: str) -> str:
    """Check that a language code has the shape of a locale.

    Any locale is accepted: one without a label table is drawn in English.

    Parameters:
        lang: A language code, e.g. ``"en"`` or ``"zh"``.

    Returns:
        The same code.

    Raises:
        ValueError: It is not a string shaped like a locale.
    """
    if not isinstance(lang, str) or not _LOCALE.fullmatch(lang):
        raise ValueError(
            f"lang must be a locale such as 'en' or 'zh' (see "
            f"attention_docs.labels.languages()), got {lang!r}"
        )
    return lang


@functools.cache
def _module(lang: str) -> ModuleType | None:
    name = f"{__name__}.{check_lang(lang).replace('-', '_')}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def languages() -> tuple[str, ...]:
    """The languages that have a label table, English first."""
    found = sorted(
        info.name.replace("_", "-")
        for info in pkgutil.iter_modules(__path__)
        if _LOCALE.fullmatch(info.name)
    )
    return (ENGLISH, *(lang for lang in found if lang != ENGLISH))


def has_table(lang: str) -> bool:
    """Whether a language has a label table of its own."""
    return _module(lang) is not None


def table(lang: str) -> Mapping[str, str]:
    """A language's label table as written; English for one without a table."""
    module = _module(lang) or _module(ENGLISH)
    assert module is not None
    return module.LABELS


def missing_labels(lang: str) -> list[str]:
    """The English keys a language's table lacks (all of them without a table)."""
    own = table(lang) if has_table(lang) else {}
    return [key for key in table(ENGLISH) if key not in own]


def spaces_han_and_latin(lang: str) -> bool:
    """Whether a language's text puts a space between Chinese and Latin text."""
    return bool(getattr(_module(lang), "SPACE_HAN_AND_LATIN", False))


def label(key: str, lang: str, **fields: object) -> str:
    """Figure text for a key in a language, with ``{fields}`` filled in.

    Parameters:
        key: The name of the text, e.g. ``"queries"``.
        lang: A locale, e.g. ``"en"`` or ``"zh"``; a language without a
            table, or without this key, gets the English text.
        **fields: Values for the placeholders in the text.

    Returns:
        The text in that language.

    Raises:
        KeyError: No language has a label for the key.
    """
    text = table(lang).get(key) or table(ENGLISH).get(key)
    if text is None:
        raise KeyError(f"no label for {key!r}")
    if fields:
        text = text.format(**fields)
    return space_han_and_latin(text) if spaces_han_and_latin(lang) else text


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
