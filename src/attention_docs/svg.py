"""Matplotlib Figure to deterministic, compact SVG, ready to inline in a page."""

from __future__ import annotations

import hashlib
import html
import io
import re
import unicodedata
import warnings
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
from matplotlib.figure import Figure

from .style import themed_colour

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

# No Date/Creator/Format/Type: the RDF metadata block is left out entirely.
_NO_METADATA = {"Creator": None, "Date": None, "Format": None, "Type": None}
_SVG_RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "attention_docs",
    "svg.image_inline": True,
}
_PROLOGUE = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_VIEW_BOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(?:url\(#|href="#)([^)"]+)')
_GEOMETRY = re.compile(r'\s(d|x|y|transform)="([^"]*)"')
_DECIMAL = re.compile(r"-?\d+\.\d{2,}")
_NO_ROTATION = re.compile(r'\stransform="rotate\(-?0 [^)]*\)"')
_FONT_FAMILY = re.compile(r"(font-family: [^;\"]+)")
# Matplotlib's sheet uses a bare `*`, which inline in a page would reach every SVG.
_GLOBAL_RULE = re.compile(r'<style type="text/css">\*\{')
_BETWEEN_TAGS = re.compile(r">\s+<")
_DATA_URI_BREAK = re.compile(r"base64,\s+")
_USE = re.compile(r"<use [^>]*/>")


def _round(match: re.Match[str]) -> str:
    text = f"{float(match.group()):.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _geometry(match: re.Match[str]) -> str:
    tokens = _DECIMAL.sub(_round, match.group(2)).split()
    if match.group(1) == "d":  # "L a b L c d" is "L a b c d": L repeats itself
        tokens = [
            token
            for i, token in enumerate(tokens)
            if not (token == "L" and i >= 3 and tokens[i - 3] == "L")
        ]
    return f' {match.group(1)}="{" ".join(tokens)}"'


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_GROUP = f"{{{_SVG_NS}}}g"
_TEXT = f"{{{_SVG_NS}}}text"
_COLOUR = re.compile(r"\b(fill|stroke): (#[0-9a-fA-F]{6})\b")
# Spaces around a declaration's punctuation, which CSS ignores (no style value
# or class name here holds a string with these characters).
_SPACING = re.compile(r"\s*([:;,])\s*")


def _unwrap_groups(parent: ET.Element) -> None:
    """Replace every attribute-less ``<g>`` by its children; it changes nothing."""
    children: list[ET.Element] = []
    for child in parent:
        _unwrap_groups(child)
        if child.tag == _GROUP and not child.attrib:
            children.extend(child)
        else:
            children.append(child)
    parent[:] = children


def _themed(style: str, strict: bool) -> str:
    """A style with each colour written to follow the page's scheme (style.py)."""
    return _COLOUR.sub(lambda m: f"{m[1]}: {themed_colour(m[2], strict=strict)}", style)


def _styles_to_classes(
    root: ET.Element, prefix: str, themed: bool, strict: bool
) -> None:
    """Move repeated inline styles into one scoped ``<style>`` rule each.

    Colours become their themed values; text that matplotlib leaves to SVG's
    default black is given the ink colour, so it follows the scheme too.
    """
    classes: dict[str, str] = {}
    for element in root.iter():
        style = element.attrib.pop("style", None)
        if themed and element.tag == _TEXT and "fill:" not in (style or ""):
            style = "; ".join(filter(None, [style, "fill: #000000"]))
        if style is not None:
            style = _themed(style, strict) if themed else style
            name = classes.setdefault(style, f"{prefix}s{len(classes)}")
            element.set("class", name)
    rules = "".join(f".{name}{{{style}}}" for style, name in classes.items())
    sheet = ET.Element(f"{{{_SVG_NS}}}style")
    sheet.text = _SPACING.sub(r"\1", rules)
    root.insert(0, sheet)


def _restructure(svg: str, prefix: str, themed: bool, strict: bool) -> str:
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    root = ET.fromstring(svg)
    _unwrap_groups(root)
    _styles_to_classes(root, prefix, themed, strict)
    root.attrib.pop("version", None)
    return ET.tostring(root, encoding="unicode").replace(" />", "/>")


def _compact(svg: str) -> str:
    """Drop what the browser does not need and round coordinates to 0.1 pt.

    0.1 pt is under a sixth of a pixel at the figures' size. Links keep
    ``xlink:href``: Material's instant navigation assigns to the ``href``
    property of every element with an ``href`` attribute, which throws for
    SVG's ``<use>`` and ``<image>``, whose ``href`` property is read-only.
    """
    referenced = set(_REFERENCE.findall(svg))
    svg = _ID.sub(lambda m: m.group() if m.group(1) in referenced else "", svg)
    svg = _NO_ROTATION.sub("", svg)
    svg = _drop_covered_markers(_GEOMETRY.sub(_geometry, svg))
    svg = _FONT_FAMILY.sub(r"\1, sans-serif", svg)
    svg = _GLOBAL_RULE.sub("<style>.ad-figure *{", svg)
    svg = _DATA_URI_BREAK.sub("base64,", svg)
    return _BETWEEN_TAGS.sub("><", svg).strip()


def _drop_covered_markers(svg: str) -> str:
    """Drop a marker that the same opaque marker, drawn later, covers exactly.

    A line's markers are ``<use>`` elements; an optimiser's iterates that
    settle at one point (to 0.1 pt) repeat the same one many times. Only the
    last is visible, so the earlier copies go; a translucent marker keeps them.
    """
    uses = [(m.start(), m.end(), m.group()) for m in _USE.finditer(svg)]
    last = {text: start for start, _, text in uses}
    kept, position = [], 0
    for start, end, text in uses:
        if last[text] != start and "opacity" not in text:
            kept.append(svg[position:start])
            position = end
    return "".join(kept) + svg[position:]


def _prefix_ids(svg: str, prefix: str) -> str:
    """Make ids unique per figure, so several figures can share one page."""
    svg = _ID.sub(lambda m: f' id="{prefix}{m.group(1)}"', svg)
    return _REFERENCE.sub(lambda m: m.group().replace("#", "#" + prefix, 1), svg)


# matplotlib 3.11 says "missing from font(s) X", 3.8 "missing from current font".
_MISSING_GLYPH = r"Glyph .* missing from (?:current )?font"
_GLYPH_NUMBER = re.compile(r"Glyph (\d+)")


def _unsupported(warning: str) -> str:
    """What a missing glyph means for a label's writer, and where to read more."""
    found = _GLYPH_NUMBER.search(warning)
    name = unicodedata.name(chr(int(found[1])), "") if found else ""
    script = f"{name.split()[0].title()} script, " if name else ""
    return (
        f"The character ({script}U+{int(found[1]) if found else 0:04X}) cannot "
        "be laid out: figure labels may use only the characters DejaVu Sans "
        "carries (most of the Latin, Greek, Cyrillic, Hebrew and Arabic scripts, "
        "but not every letter of Urdu, such as U+06C1, U+06D2 and U+06D4) and "
        "the Chinese and Japanese characters of the library's CJK font. See "
        "CONTRIBUTING.md, 'Add a language', step 3."
    )


def figure_to_svg(
    fig: Figure, *, alt: str, themed: bool = True, strict: bool = True
) -> str:
    """Render a figure as an inline ``<svg>`` element whose bytes depend only on it.

    Text stays text (the browser draws it, so it can be searched and selected),
    there is no date or other metadata, and element ids are derived from the
    content, so the same figure gives the same string on every build.

    Parameters:
        fig: The figure to render.
        alt: Text alternative for readers who cannot see the figure, in the
            language of the page.
        themed: Whether colours follow the page's light or dark scheme
            (:func:`.style.themed_colour`). A drawing that is not inlined in a
            page, such as the logo on the header, keeps its colours.
        strict: Whether a colour that cannot follow the scheme is refused
            (for the library's figures) or kept as drawn (for a notebook
            reader's own figures).

    Returns:
        The ``<svg>`` element, without XML prologue or comments.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    if not isinstance(alt, str) or not alt.strip():
        raise ValueError("alt must be a non-empty description of the figure")
    buffer = io.StringIO()
    with mpl.rc_context(_SVG_RC), warnings.catch_warnings():
        # A missing glyph would be drawn as an empty box: refuse the figure.
        warnings.filterwarnings("error", _MISSING_GLYPH, UserWarning)
        try:
            fig.savefig(buffer, format="svg", metadata=_NO_METADATA)
        except UserWarning as warning:
            raise ValueError(
                f"figure {alt.strip()!r} has text that no configured font can "
                f"draw: {warning} {_unsupported(str(warning))}"
            ) from None
    svg = _COMMENT.sub("", _PROLOGUE.sub("", buffer.getvalue()))
    svg = _compact(svg)
    prefix = "f" + hashlib.sha1(svg.encode()).hexdigest()[:5]
    try:
        svg = _restructure(_prefix_ids(svg, prefix), prefix, themed, strict)
    except ValueError as error:
        raise ValueError(f"figure {alt.strip()!r}: {error}") from None
    label = html.escape(alt.strip(), quote=True)
    head, body = svg.split(">", 1)
    # The box's shape, stated: a page may skip drawing a figure until it nears
    # the screen (site.css), and its box keeps this shape meanwhile. And its
    # direction: matplotlib anchors each text at its start or end, which a
    # right-to-left page would swap, drawing tick labels over their axis.
    size = _VIEW_BOX.search(head)
    if size is None:
        raise ValueError(f"figure {alt.strip()!r}: matplotlib wrote no viewBox")
    width, height = size.groups()
    style = (
        "direction: ltr; max-width: 100%; height: auto; "
        f"aspect-ratio: {width} / {height}"
    )
    head = head.replace("<svg", f'<svg role="img" class="ad-figure" style="{style}"', 1)
    return f"{head}><title>{label}</title>{body}\n"


class Drawing(str):
    """A figure as the inline SVG a page prints, keeping the figure and its text.

    ``Drawing(figure, alt)`` renders the figure with ``figure_to_svg``, with
    ``alt`` as its text alternative in the language of the page. Every figure
    function of the site returns one, so SVG is made in one place. A drawing
    *is* the ``<svg>`` string: pages print it and notebooks show it with
    ``IPython.display.HTML``. Code that wants the figure itself, such as the
    tests, reads ``figure``.

    Attributes:
        figure: The matplotlib figure.
        alt: The text alternative.
    """

    figure: Figure
    alt: str

    def __new__(cls, figure: Figure, alt: str) -> Drawing:  # noqa: D102
        drawing = super().__new__(cls, figure_to_svg(figure, alt=alt))
        drawing.figure = figure
        drawing.alt = alt
        return drawing

    def __repr__(self) -> str:
        return f"Drawing(alt={self.alt!r}, {len(self)} characters of SVG)"

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        # A copy or pickle of a drawing is its SVG: notebooks deep-copy their
        # outputs, and a Figure is neither needed there nor cheap to copy.
        return str, (str(self),)
