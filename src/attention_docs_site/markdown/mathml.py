"""Math as MathML, typeset at build time: no script and no request to another server.

:class:`MathMLExtension` is a Python-Markdown extension, listed in
``mkdocs.yml``'s ``markdown_extensions`` after ``pymdownx.arithmatex``: once
the inline patterns have run, its treeprocessor replaces the formulas
arithmatex marked (``span.arithmatex``, ``div.arithmatex``) by MathML. Being
in that list, it also runs in the Markdown that mkdocstrings (API entries) and
markdown-exec (blocks that print Markdown) build from it. Notebooks' Markdown
cells are rendered by mkdocs-jupyter, not by Python-Markdown: the page stage
typesets their ``$...$`` (:mod:`attention_docs_site.page.mathml`).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
import xml.etree.ElementTree as etree

from latex2mathml.converter import convert
from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

from attention_docs_site.upstream.latex2mathml import written_out


@functools.lru_cache(maxsize=4096)
def latex_to_mathml(latex: str, *, display: bool) -> str:
    """Convert one LaTeX formula to a MathML ``<math>`` element.

    Remembered: most formulas appear in both editions and in every rebuild.

    Parameters:
        latex: The formula, without delimiters, HTML-escaped (as in a page).
        display: True for a displayed (block) formula, False for inline.

    Returns:
        The MathML element, laid out left to right (``dir="ltr"``) whatever
        the direction of the text around it: the site's formulas are written
        in Latin letters, and in a right-to-left edition a ``<math>`` would
        otherwise inherit the page's direction and be drawn mirrored. Written
        for an HTML page, as :func:`compact` says.

    Raises:
        ValueError: The formula is empty or cannot be converted.
    """
    source = html.unescape(latex).strip()
    if not source:
        raise ValueError("empty formula")
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many exception types
        raise ValueError(f"cannot convert formula {source!r}: {error}") from error
    mathml = compact(written_out(mathml))
    if not mathml.startswith(_MATH_OPEN):
        raise ValueError(f"latex2mathml wrote no <math> element for {source!r}")
    return f'{_MATH_OPEN} dir="ltr"{mathml[len(_MATH_OPEN) :]}'


_MATH_OPEN = "<math"


def compact(mathml: str) -> str:
    """MathML as an HTML page needs it: characters written as themselves.

    latex2mathml writes every operator and Greek letter as a character
    reference (``&#x0003D;`` for ``=``, nine bytes for one) and each
    ``<math>`` with its namespace, which an HTML parser gives it anyway.
    On a chapter with 150 formulas the two cost about 7.7 KB. ``<``, ``>``,
    ``&``, ``"`` and characters that draw nothing (invisible operators,
    controls, spaces) stay references, so the markup reads the same.
    """
    mathml = mathml.replace(_NAMESPACE, "", 1)
    return _REFERENCE.sub(_character, mathml)


_NAMESPACE = ' xmlns="http://www.w3.org/1998/Math/MathML"'
_REFERENCE = re.compile(r"&#x([0-9A-Fa-f]+);")


def _character(reference: re.Match[str]) -> str:
    char = chr(int(reference[1], 16))
    if char in '<>&"' or unicodedata.category(char)[0] in "CZ":
        return reference[0]
    return char


def display_math(latex: str) -> str:
    """A displayed formula: MathML in a box that scrolls a wide formula sideways.

    ``tabindex`` lets keyboard users scroll it.
    """
    return f"{DISPLAY_OPEN}{latex_to_mathml(latex, display=True)}</div>"


DISPLAY_OPEN = '<div class="ad-math" tabindex="0">'


class MathMLTreeprocessor(Treeprocessor):
    r"""Arithmatex's formulas (``\(...\)``, ``\[...\]``) as MathML."""

    def run(self, root: etree.Element) -> None:
        """Replace every ``span.arithmatex`` and ``div.arithmatex`` under ``root``."""
        for parent in list(root.iter()):
            for index, child in reversed(list(enumerate(parent))):
                if child.get("class") != "arithmatex" or len(child):
                    continue
                if child.tag == "div":
                    self._display(child)
                elif child.tag == "span":
                    self._inline(parent, index, child)

    def _display(self, element: etree.Element) -> None:
        # Arithmatex escapes a block's formula (``_escape``): the page's text.
        latex = (element.text or "").removeprefix("\\[").removesuffix("\\]")
        mathml = latex_to_mathml(latex, display=True)
        element.attrib.clear()
        element.set("class", "ad-math")
        element.set("tabindex", "0")
        element.text = self.md.htmlStash.store(mathml)

    def _inline(
        self, parent: etree.Element, index: int, element: etree.Element
    ) -> None:
        # Arithmatex leaves an inline formula as written: escape it as the
        # page's text would be, for the converter to read it back.
        latex = (element.text or "").removeprefix("\\(").removesuffix("\\)")
        mathml = latex_to_mathml(html.escape(latex, quote=False), display=False)
        text = self.md.htmlStash.store(mathml) + (element.tail or "")
        if (
            parent.tag == "p"
            and len(parent) == 1
            and not parent.text
            and not element.tail
        ):
            # Python-Markdown unwraps a paragraph that is only stashed block-level
            # HTML (MathML's <math> counts as such); an empty stash keeps it.
            text += self.md.htmlStash.store("")
        if index:
            before = parent[index - 1]
            before.tail = (before.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
        parent.remove(element)


class MathMLExtension(Extension):
    """Python-Markdown extension: the formulas of ``pymdownx.arithmatex`` as MathML."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        """Register the treeprocessor after the inline patterns (20) and the toc (5)."""
        md.treeprocessors.register(MathMLTreeprocessor(md), "ad-mathml", 4)


def makeExtension(**kwargs: object) -> MathMLExtension:  # noqa: N802 (Markdown's name)
    """Python-Markdown's entry point: ``attention_docs_site.markdown.mathml``."""
    return MathMLExtension(**kwargs)
