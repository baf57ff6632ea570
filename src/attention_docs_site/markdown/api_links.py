"""Links from the chapters' code blocks to the API entries of the library they use."""

from __future__ import annotations

import re
import textwrap
import unicodedata

from attention_docs_site.blocks import Block, replace_blocks
from attention_docs_site.markdown.code_names import LIBRARY, definition, is_callable

# The list of a block's code annotations (Material), if one follows it.
_ANNOTATIONS = r"(?:\n\n(?:{indent}\d+\.[ \t][^\n]*(?:\n(?!\n)[^\n]*)*\n?)+)?"


_IMPORT = re.compile(r"^from attention_docs(?:\.\w+)? import ([\w, ]+)$", re.M)


_FIGURE_CALL = re.compile(r"\bfigures\.(\w+)\(")


def library_names(code: str) -> list[str]:
    """Full names of the library functions and classes a code block uses.

    Read from the library's source (:func:`.code_names.definition`), without
    importing it.

    Parameters:
        code: Python source of one block.

    Returns:
        Dotted names such as ``attention_docs.pooling.nadaraya_watson``, in
        order of first use, each once.
    """
    names = []
    for match in _IMPORT.finditer(code):
        short = match[0].split()[1].removeprefix(LIBRARY).lstrip(".") or LIBRARY
        for name in (n.strip() for n in match[1].split(",")):
            found = definition(short, name)
            if found is not None and is_callable(*found):
                where = LIBRARY if found[0] == LIBRARY else f"{LIBRARY}.{found[0]}"
                names.append(f"{where}.{found[1]}")
    names += [f"attention_docs.figures.{name}" for name in _FIGURE_CALL.findall(code)]
    return list(dict.fromkeys(names))


def _short_name(name: str) -> str:
    """How a page writes a library name: ``figures.x`` for figures, else ``x``."""
    module, short = name.rsplit(".", 1)
    return f"figures.{short}" if module.endswith(".figures") else short


def link_library_calls(markdown: str, label: str, attributes: str = "") -> str:
    """Follow each code block that uses the library with links to its API entries.

    The links are mkdocstrings cross-references, resolved to the API page of
    the same language.

    Parameters:
        markdown: A page's Markdown.
        label: The line's first words in the edition's language, e.g.
            ``"Library:"`` (the catalog's ``library_label``).
        attributes: Attributes of the line, such as its ``lang`` and
            ``dir`` where the page around it is in another language.

    Returns:
        The Markdown with a small "Library:" line after such blocks.
    """

    def add_links(block: Block, rest: str) -> tuple[str, int]:
        names = library_names(textwrap.dedent(block.code))
        if block.language != "python" or not names:
            return block.text, 0
        annotations = re.match(
            _ANNOTATIONS.format(indent=re.escape(block.indent)), rest
        )
        assert annotations is not None  # the pattern is optional: it always matches
        links = ", ".join(f"[{_short_name(n)}][{n}]" for n in names)
        # No space after full-width punctuation such as "："
        space = "" if unicodedata.east_asian_width(label[-1]) in "FW" else " "
        line = f'<small class="ad-library"{attributes}>{label}{space}{links}</small>'
        text = (block.text + annotations[0]).rstrip()
        return f"{text}\n\n{block.indent}{line}\n", len(annotations[0])

    return replace_blocks(markdown, add_links)
