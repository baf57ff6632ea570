"""Code annotation lists, classed where Python-Markdown makes them.

A code block whose comments carry Material's markers (``# (1)!``) is
followed by an ordered list, its annotations. :class:`AnnotationsExtension`,
listed in ``mkdocs.yml``'s ``markdown_extensions``, classes that list
``ad-annotations`` in the element tree, beside the code block's placeholder
(pymdownx.superfences stashes the block's HTML): no pass over the page's
HTML. What it relies on in Material and how it fails is declared in
:mod:`attention_docs_site.upstream.material_html` (``CODE_ANNOTATIONS``).
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from attention_docs_site.upstream.material_html import (
    ANNOTATIONS_CLASS,
    is_annotated_code,
    require_annotation_list,
)


class AnnotationsTreeprocessor(Treeprocessor):
    """Class the list after each annotated code block ``ad-annotations``."""

    def run(self, root: etree.Element) -> None:
        """Find each annotated code block under ``root``, and class its list."""
        for parent in list(root.iter()):
            children = list(parent)
            for index, child in enumerate(children):
                block = self._stashed(child)
                if block is None or not is_annotated_code(block):
                    continue
                following = children[index + 1] if index + 1 < len(children) else None
                tag = None if following is None else str(following.tag)
                if require_annotation_list(tag) and following is not None:
                    following.set("class", ANNOTATIONS_CLASS)

    def _stashed(self, element: etree.Element) -> str | None:
        """The HTML a paragraph stands for, if it is only a stash placeholder."""
        if element.tag != "p" or len(element):
            return None
        match = HTML_PLACEHOLDER_RE.fullmatch((element.text or "").strip())
        if match is None:
            return None
        block = self.md.htmlStash.rawHtmlBlocks[int(match[1])]
        return block if isinstance(block, str) else None


class AnnotationsExtension(Extension):
    """Python-Markdown extension: Material's code annotation lists classed."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        """Register the treeprocessor after the inline patterns (20)."""
        md.treeprocessors.register(AnnotationsTreeprocessor(md), "ad-annotations", 3)


def makeExtension(**kwargs: object) -> AnnotationsExtension:  # noqa: N802 (Markdown's name)
    """Python-Markdown's entry point: ``attention_docs_site.markdown.annotations``."""
    return AnnotationsExtension(**kwargs)
