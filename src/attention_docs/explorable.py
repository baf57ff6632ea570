"""An explorable figure: a static drawing, and the data a page's script moves it with.

The page prints an :class:`Explorable` as HTML: a ``<figure>`` holding the
drawing, with the data as JSON in its ``data-explorable-data`` attribute.
Without a script, and in print, the reader sees the drawing. The site's
script (``docs/assets/explorables.js``) reads the data, which the library
computed, and replaces the drawing on screen with a figure the reader can move.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .svg import Drawing

_KIND = re.compile(r"[a-z][a-z-]*")


def _plain(value: object) -> object:
    """Numpy arrays and numbers as lists and Python numbers, for JSON."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def data_json(data: Mapping[str, Any]) -> str:
    """The data as compact JSON.

    Numbers keep every digit (Python writes the shortest text that reads back
    as the same double), so the script computes with the library's values.
    NaN and infinity are refused: JSON has no such numbers.
    """
    return json.dumps(
        _plain(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )


def _attribute(text: str) -> str:
    """Text for an attribute in single quotes, so JSON's many ``"`` stay as they are."""
    return html.escape(text, quote=False).replace("'", "&#x27;")


class Explorable(str):
    """An explorable figure as the HTML a page prints, keeping its parts.

    Attributes:
        kind: Which of the script's figures this is, e.g. ``"nadaraya-watson"``.
        drawing: The static figure, shown without a script and in print.
        data: What the script needs: the library's inputs and results, and
            the figure's text in the page's language. The page carries it.
        references: The library's results at chosen settings, which the
            browser tests set the controls to and compare the script's
            drawing with. The page does not carry them: a reader's script
            never reads them (on the Nadaraya-Watson figure they were 16 KB).
    """

    kind: str
    drawing: Drawing
    data: Mapping[str, Any]
    references: Sequence[Mapping[str, Any]]

    def __new__(  # noqa: D102
        cls,
        kind: str,
        drawing: Drawing,
        data: Mapping[str, Any],
        references: Sequence[Mapping[str, Any]] = (),
    ) -> Explorable:  # noqa: D102
        if not _KIND.fullmatch(kind):
            raise ValueError(
                f"kind must be lowercase words joined by '-', got {kind!r}"
            )
        if not isinstance(drawing, Drawing):
            raise TypeError(f"drawing must be a Drawing, got {type(drawing).__name__}")
        # The data rides in an attribute, not a <script type="application/json">:
        # Material's instant navigation re-creates the scripts of a new page
        # without their type, and would run the JSON as code.
        page = (
            f'<figure class="ad-explorable" data-explorable="{kind}" '
            f"data-explorable-data='{_attribute(data_json(data))}'>"
            f'<div class="ad-explorable__static">{drawing.strip()}</div></figure>\n'
        )
        explorable = super().__new__(cls, page)
        explorable.kind, explorable.drawing, explorable.data = kind, drawing, data
        explorable.references = references
        return explorable

    def __repr__(self) -> str:
        return f"Explorable({self.kind!r}, {len(self)} characters of HTML)"

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)
