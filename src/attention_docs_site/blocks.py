"""Fenced code blocks of a Markdown page: the one parser of the project.

Translations (parity, scaffold, blanking code out of prose checks), the API
links, the tests and the benchmark all find code blocks here, so they agree
on what a block is: a run of three or more backticks or tildes, its info
string (language, then options such as ``exec="on" session="name"``), and
the code up to a closing fence of the same kind at the same indent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

FENCE = re.compile(
    r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n]*)\n"
    r"(?P<code>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.M | re.S,
)
_OPTION = re.compile(r'(\w+)="([^"]*)"')


@dataclass(frozen=True)
class Block:
    """One fenced block, with where it lies in the text it was found in."""

    indent: str
    language: str
    options: str  # the info string after the language
    code: str
    text: str  # the whole block, fences included
    start: int  # offset of the opening fence's line
    end: int  # offset just after the closing fence

    @property
    def executed(self) -> bool:
        """Whether markdown-exec runs it (``exec="on"``)."""
        return self.option("exec") == "on"

    @property
    def session(self) -> str | None:
        """The markdown-exec session it runs in, if any."""
        return self.option("session")

    def option(self, name: str) -> str | None:
        """The value of a ``name="value"`` option, or None."""
        return dict(_OPTION.findall(self.options)).get(name)


def blocks(markdown: str) -> Iterator[Block]:
    """Every fenced block of a Markdown text, in order."""
    for match in FENCE.finditer(markdown):
        language, _, options = match["info"].strip().partition(" ")
        yield Block(
            match["indent"],
            language,
            options.strip(),
            match["code"],
            match[0],
            match.start(),
            match.end(),
        )


def replace_blocks(
    markdown: str, replace: Callable[[Block, str], tuple[str, int]]
) -> str:
    """The text with each block's text (fences included) passed through ``replace``.

    Parameters:
        markdown: A Markdown text.
        replace: Called with the block and the text after it; returns
            ``(new text for the block, characters of the following text it
            consumed)``.
    """
    parts, position = [], 0
    for block in blocks(markdown):
        if block.start < position:
            continue  # inside text a previous replacement consumed
        parts.append(markdown[position : block.start])
        new, consumed = replace(block, markdown[block.end :])
        parts.append(new)
        position = block.end + consumed
    parts.append(markdown[position:])
    return "".join(parts)
