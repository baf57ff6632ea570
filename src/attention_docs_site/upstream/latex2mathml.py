r"""Reach into latex2mathml: the operators of its MathML, written out.

Two edits of the converter's output, both for what the browser draws:

- **Ordinary symbols.** latex2mathml writes ``\infty`` and ``\top`` as
  operators (``<mo>``); TeX sets them as ordinary symbols, and a browser
  spaces an ``<mo>`` it has no dictionary entry for as a relation, with a
  thick space each side. They become identifiers (``<mi>``).
- **Each operator's form.** MathML Core infers whether an ``<mo>`` is a
  prefix, infix or postfix operator from its place among its siblings (first,
  middle or last of a row of two or more), and the form sets its spacing: a
  leading minus is drawn closer to what follows than a binary one. Chromium
  infers the form once, while the page is parsed: when the parser pauses
  right after a row's first ``<mo>``, that operator is alone in its row and
  stays infix. Measured on this site: the English PDF's "−∞" differed by
  3.3 px between two prints of the same page. Every operator that is the
  core of a row's child gets the form MathML Core infers, written as its
  ``form`` attribute, so that nothing is left to the moment of parsing.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from latex2mathml.converter import convert

from attention_docs_site.upstream.guard import declare

OPERATORS = declare(
    "latex2mathml: ordinary symbols, and every operator's form",
    "latex2mathml",
    "3.81.1",
    "rewrites \\infty and \\top, which the converter writes as <mo>, as <mi>; "
    "gives every <mo> in a row the form (prefix, infix, postfix) MathML Core "
    "infers for it",
    "an <mo> with no dictionary entry gets a thick space each side (h → ∞ "
    "read 'h →  ∞ '), and Chromium infers a form while parsing, so the same "
    "page drew '−∞' 3.3 px wider in one print than in another",
    "correctness",
)

# TeX's ordinary symbols that the converter writes as operators.
_ORDINARY = re.compile(r"<mo>(&#x0221E;|&#x022A4;)</mo>")
# Elements whose children form a row (MathML Core's "mrow-like").
_ROWS = {"math", "mrow", "msqrt", "mstyle", "merror", "mpadded", "mphantom", "mtd"}
# Elements that are an embellished operator when their first child is one.
_EMBELLISHING = {
    "msub", "msup", "msubsup", "munder", "mover", "munderover",
    "mmultiscripts", "mfrac", "semantics",
}  # fmt: skip
_TAG = re.compile(r"<(/?)([a-z]+)([^>]*?)(/?)>")


@dataclass
class _Element:
    name: str
    attributes: str
    end: int  # where a new attribute goes: before the open tag's ">" or "/>"
    children: list[_Element] = field(default_factory=list)


@functools.cache
def _checked() -> bool:
    """The converter still writes what the edits expect (checked once)."""
    probe = convert(r"-\infty")
    return OPERATORS.require(
        "<mrow><mo>&#x02212;</mo><mo>&#x0221E;</mo></mrow>" in probe,
        f"-\\infty no longer converts to <mo>−</mo><mo>∞</mo>: {probe}",
    )


def _tree(mathml: str) -> _Element:
    """The elements of one ``<math>``, with where each open tag ends."""
    root = _Element("", "", 0)
    stack = [root]
    for tag in _TAG.finditer(mathml):
        closing, name, attributes, empty = tag.groups()
        if closing:
            stack.pop()
            continue
        element = _Element(name, attributes, tag.end() - 1 - len(empty))
        stack[-1].children.append(element)
        if not empty:
            stack.append(element)
    return root


def _core(element: _Element) -> _Element | None:
    """The ``<mo>`` an element is an embellished operator of, if it is one."""
    if element.name == "mo":
        return element
    if element.name in _EMBELLISHING and element.children:
        return _core(element.children[0])
    if element.name in _ROWS and len(element.children) == 1:
        return _core(element.children[0])
    return None


def _forms(element: _Element) -> list[tuple[int, str]]:
    """Where to write each operator's form, and which form, under ``element``."""
    found = []
    count = len(element.children)
    for index, child in enumerate(element.children):
        found += _forms(child)
        core = _core(child) if element.name in _ROWS else None
        if core is None or " form=" in core.attributes:
            continue
        if count > 1 and index == 0:
            form = "prefix"
        elif count > 1 and index == count - 1:
            form = "postfix"
        else:
            form = "infix"
        found.append((core.end, form))
    return found


def written_out(mathml: str) -> str:
    """latex2mathml's ``<math>``, its symbols and operators' forms written out.

    Parameters:
        mathml: One ``<math>`` element as latex2mathml writes it.

    Returns:
        The same formula, as the browser should draw it whenever it parses it.
    """
    if not (OPERATORS.active and _checked()):
        return mathml
    mathml = _ORDINARY.sub(r"<mi>\1</mi>", mathml)
    # An operator inside rows of one child takes the outermost row's place:
    # the later (outer) entry wins.
    forms = dict(_forms(_tree(mathml)))
    for end, form in sorted(forms.items(), reverse=True):
        mathml = f'{mathml[:end]} form="{form}"{mathml[end:]}'
    return mathml
