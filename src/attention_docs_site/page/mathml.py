"""Math in notebook pages as MathML, typeset at build time.

A notebook's Markdown cells are rendered by mkdocs-jupyter (nbconvert), not by
Python-Markdown: they keep ``$...$`` and ``$$...$$``, which :func:`dollar_math`
typesets. Markdown pages' formulas become MathML inside Markdown
(:mod:`attention_docs_site.markdown.mathml`).
"""

from __future__ import annotations

import re

from attention_docs_site.markdown.mathml import display_math, latex_to_mathml

_LITERAL = re.compile(r"(<code\b.*?</code>|<pre\b.*?</pre>)", re.DOTALL)


_DISPLAY_PARAGRAPH = re.compile(r"<p>\s*\$\$(.+?)\$\$\s*</p>", re.DOTALL)


_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)


_DOLLAR_INLINE = re.compile(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=\S)\$(?!\$)")


def dollar_math(text: str) -> str:
    """Typeset ``$$...$$`` and ``$...$`` in HTML text outside code."""
    parts = _LITERAL.split(text)
    for index in range(0, len(parts), 2):  # even parts are outside code
        part = _DISPLAY_PARAGRAPH.sub(lambda m: display_math(m[1]), parts[index])
        part = _DISPLAY.sub(lambda m: latex_to_mathml(m[1], display=True), part)
        parts[index] = _DOLLAR_INLINE.sub(
            lambda m: latex_to_mathml(m[1], display=False), part
        )
    return "".join(parts)
