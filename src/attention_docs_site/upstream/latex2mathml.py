r"""Reach into latex2mathml: the operators of its MathML, written out.

Two edits of the converter's output, both for what the browser draws:

- **Ordinary symbols.** latex2mathml writes ``\infty`` and ``\top`` as
  operators (``<mo>``); TeX sets them as ordinary symbols, and a browser
  spaces an ``<mo>`` it has no dictionary entry for as a relation, with a
  thick space each side. They become identifiers (``<mi>``).
- **A leading operator's form.** MathML Core infers whether an ``<mo>`` is
  a prefix, infix or postfix operator from its place among its siblings
  (first, middle or last of a row of two or more), and the form sets its
  spacing: a leading minus is drawn closer to what follows than a binary
  one. Chromium infers the form once, while the page is parsed: when the
  parser pauses right after a row's first ``<mo>``, that operator is alone
  in its row and stays infix. Measured on this site: the English PDF's "−∞"
  differed by 3.3 px between two prints of the same page. The first
  operator of a row of two or more gets ``form="prefix"`` written out, when
  the operator dictionary has a prefix entry for it (:data:`_PREFIX`). Only
  then: for an explicit form the dictionary has no entry for, Chromium
  spaces the operator by default instead of trying its other forms, as it
  does for an inferred one (``tests/e2e/test_formula_forms.py`` compares
  every formula of the site, drawn both ways).
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
    "writes form=prefix on a row's first <mo>, the form MathML Core infers for "
    "it, when the operator dictionary has a prefix entry for it",
    "an <mo> with no dictionary entry gets a thick space each side (h → ∞ "
    "read 'h →  ∞ '), and Chromium infers a form while parsing, so the same "
    "page drew '−∞' 3.3 px wider in one print than in another",
    "correctness",
    report="latex2mathml: `\\infty` and `\\top` as operators, and no operator's form",
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
_TAG = re.compile(r"<(/?)([a-z]+)([^>]*?)(/?)>([^<]*)")
# Operators with a prefix entry in MathML Core's operator dictionary, as the
# converter writes them: signs, opening fences, big operators, ∂ and ∇.
_PREFIX = {
    "&#x02212;", "&#x0002B;", "&#x000B1;", "&#x02213;", "&#x000AC;",
    "&#x00028;", "(", "&#x0005B;", "[", "&#x0007B;", "{", "&#x0007C;", "|",
    "&#x02016;", "&#x027E8;", "&#x02308;", "&#x0230A;",
    "&#x02211;", "&#x0220F;", "&#x0222B;", "&#x02202;", "&#x02207;",
}  # fmt: skip


@dataclass
class _Element:
    name: str
    attributes: str
    end: int  # where a new attribute goes: before the open tag's ">" or "/>"
    text: str  # the text right after the open tag
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
    root = _Element("", "", 0, "")
    stack = [root]
    for tag in _TAG.finditer(mathml):
        closing, name, attributes, empty, text = tag.groups()
        if closing:
            stack.pop()
            continue
        end = tag.start(5) - 1 - len(empty)
        element = _Element(name, attributes, end, text)
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


def _prefixes(element: _Element) -> list[int]:
    """Where to write ``form="prefix"`` under ``element``: each leading operator."""
    found = [end for child in element.children for end in _prefixes(child)]
    if element.name in _ROWS and len(element.children) > 1:
        core = _core(element.children[0])
        if core and " form=" not in core.attributes and core.text in _PREFIX:
            found.append(core.end)
    return found


def written_out(mathml: str) -> str:
    """latex2mathml's ``<math>``, its ordinary symbols and leading operators written.

    Parameters:
        mathml: One ``<math>`` element as latex2mathml writes it.

    Returns:
        The same formula, as the browser should draw it whenever it parses it.
    """
    if not (OPERATORS.active and _checked()):
        return mathml
    mathml = _ORDINARY.sub(r"<mi>\1</mi>", mathml)
    for end in sorted(set(_prefixes(_tree(mathml))), reverse=True):
        mathml = f'{mathml[:end]} form="prefix"{mathml[end:]}'
    return mathml
