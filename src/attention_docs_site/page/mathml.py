"""Math as MathML, typeset at build time: no script and no request to another server.

pymdownx.arithmatex marks the formulas of Markdown pages; notebooks' Markdown
cells keep ``$...$`` and ``$$...$$``. Both become MathML here.
"""

from __future__ import annotations

import functools
import html
import re

from latex2mathml.converter import convert

_INLINE = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)


_BLOCK = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.DOTALL)


@functools.lru_cache(maxsize=4096)
def latex_to_mathml(latex: str, *, display: bool) -> str:
    """Convert one LaTeX formula to a MathML ``<math>`` element.

    Remembered: most formulas appear in both editions and in every rebuild.

    Parameters:
        latex: The formula, without delimiters, as HTML-escaped by Markdown.
        display: True for a displayed (block) formula, False for inline.

    Returns:
        The MathML element.
    """
    source = html.unescape(latex).strip()
    if not source:
        raise ValueError("empty formula")
    try:
        return convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many exception types
        raise ValueError(f"cannot convert formula {source!r}: {error}") from error


_LITERAL = re.compile(r"(<code\b.*?</code>|<pre\b.*?</pre>)", re.DOTALL)


_DISPLAY_PARAGRAPH = re.compile(r"<p>\s*\$\$(.+?)\$\$\s*</p>", re.DOTALL)


_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)


_DOLLAR_INLINE = re.compile(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=\S)\$(?!\$)")


def _block(latex: str) -> str:
    # A wide formula scrolls sideways; tabindex lets keyboard users scroll it.
    mathml = latex_to_mathml(latex, display=True)
    return f'<div class="ad-math" tabindex="0">{mathml}</div>'


def render_math(content: str) -> str:
    """Replace every arithmatex-marked formula in page HTML by MathML.

    Parameters:
        content: HTML of a page body.

    Returns:
        The same HTML with MathML in place of the LaTeX source.
    """
    content = _BLOCK.sub(lambda m: _block(m[1]), content)
    return _INLINE.sub(lambda m: latex_to_mathml(m[1], display=False), content)


def dollar_math(text: str) -> str:
    """Typeset ``$$...$$`` and ``$...$`` in HTML text outside code."""
    parts = _LITERAL.split(text)
    for index in range(0, len(parts), 2):  # even parts are outside code
        part = _DISPLAY_PARAGRAPH.sub(lambda m: _block(m[1]), parts[index])
        part = _DISPLAY.sub(lambda m: latex_to_mathml(m[1], display=True), part)
        parts[index] = _DOLLAR_INLINE.sub(
            lambda m: latex_to_mathml(m[1], display=False), part
        )
    return "".join(parts)
