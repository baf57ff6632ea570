"""The math font, cut to the characters of the site's formulas.

Browsers lay out MathML with a font that has an OpenType MATH table; the site
serves Noto Sans Math (``docs/assets/fonts/``), 270 KB, of which the formulas
use a hundred-odd characters. Once every edition is built, the built font is
replaced by a subset holding the glyphs of every character inside a
``<math>`` element of any page, with the MATH table and the layout features,
so that stretched delimiters, sub- and superscript forms and the like keep
their variants. The offline copies and the PDFs are made afterwards and carry
the subset.

The characters a formula draws are not all the ones it writes: the browser
draws a one-letter ``<mi>`` (no ``mathvariant="normal"``) in its italic form,
``x`` as U+1D465, ``h`` as U+210E, ``α`` as U+1D6FC (MathML Core's
``text-transform: math-auto``), and draws a square root's radical sign,
which no text holds; the subset keeps those too.

A formula character the full font lacks fails the build, naming the page and
the character: the browser would draw it from whatever font it finds.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import re
from collections.abc import Mapping
from importlib.metadata import version as package_version
from pathlib import Path

from attention_docs_site.execute import render_cache

FONT = Path("assets") / "fonts" / "NotoSansMath-Regular.woff2"
_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TAG = re.compile(r"<[^>]+>")
_MI = re.compile(r"<mi(\s[^>]*)?>([^<]*)</mi>")
_RADICAL = re.compile(r"<m(?:sqrt|root)\b")
_UPRIGHT = re.compile(r"""mathvariant\s*=\s*["']normal["']""")


def _italic_ranges() -> dict[str, str]:
    """MathML Core's italic mappings (``text-transform: math-auto``)."""
    greek_capitals = [chr(c) for c in range(0x391, 0x3AA) if c != 0x3A2]
    pairs = [
        *zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", range(0x1D434, 0x1D44E), strict=True),
        *zip("abcdefghijklmnopqrstuvwxyz", range(0x1D44E, 0x1D468), strict=True),
        ("\u0131", 0x1D6A4),  # dotless i, j
        ("\u0237", 0x1D6A5),
        *zip(
            [*greek_capitals[:17], "\u03f4", *greek_capitals[17:], "\u2207"],
            range(0x1D6E2, 0x1D6FC),
            strict=True,
        ),
        *zip(
            [chr(c) for c in range(0x3B1, 0x3CA)], range(0x1D6FC, 0x1D715), strict=True
        ),
        *zip(
            "\u2202\u03f5\u03d1\u03f0\u03d5\u03f1\u03d6",
            range(0x1D715, 0x1D71C),
            strict=True,
        ),
    ]
    italic = {char: chr(code) for char, code in pairs}
    italic["h"] = "\u210e"  # U+1D455 is a hole: the Planck constant stands in
    return italic


ITALIC = _italic_ranges()


def drawn_characters(formula: str) -> set[str]:
    """The characters the browser draws for a ``<math>`` element's markup.

    Its text; for each one-character ``<mi>`` without
    ``mathvariant="normal"``, the italic form the browser draws instead; and
    the radical sign of a ``<msqrt>`` or ``<mroot>``.
    """
    drawn = set(html.unescape(_TAG.sub("", formula)))
    if _RADICAL.search(formula):
        drawn.add("\u221a")
    for attributes, text in _MI.findall(formula):
        letter = html.unescape(text).strip()
        if len(letter) == 1 and not _UPRIGHT.search(attributes or ""):
            drawn.add(ITALIC.get(letter, letter))
    return {char for char in drawn if not char.isspace()}


class MissingMathGlyph(ValueError):
    """A formula uses a character the math font does not have."""


def formula_characters(site: Path) -> dict[str, list[str]]:
    """Every character drawn inside a ``<math>`` element of the built site.

    Returns:
        Each character (whitespace left out) with the built pages, relative to
        the site, that use it.
    """
    found: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).as_posix()
        for char in _page_characters(page.read_text(encoding="utf-8")):
            found.setdefault(char, []).append(name)
    return found


@functools.lru_cache(maxsize=512)
def _page_characters(html: str) -> tuple[str, ...]:
    """The characters a page's formulas draw, in order of first use.

    Remembered: under ``mkdocs serve`` a rebuild leaves most pages as they were.
    """
    drawn: dict[str, None] = {}
    for formula in _MATH.findall(html):
        drawn.update(dict.fromkeys(sorted(drawn_characters(formula))))
    return tuple(drawn)


def subset(font: bytes, characters: set[str]) -> bytes:
    """A WOFF2 font with the glyphs of ``characters``, its MATH table kept.

    Raises:
        MissingMathGlyph: A character has no glyph in the font (the message
            names the first few).
    """
    from fontTools import subset as subsetting
    from fontTools.ttLib import TTFont

    full = TTFont(io.BytesIO(font), recalcTimestamp=False)
    cmap = full.getBestCmap()
    missing = sorted(c for c in characters if ord(c) not in cmap)
    if missing:
        raise MissingMathGlyph(", ".join(_describe(c) for c in missing))
    # A glyph keeps every character that names it in the full font (the
    # italic h is also the sans-serif italic h): FreeType's auto-hinter, which
    # Chromium uses, sorts glyphs into scripts by the characters that reach
    # them, and a glyph reached only from outside its script is hinted
    # differently (42 of the parametric chapter's 115 formulas were drawn a
    # pixel apart from the full font's before).
    glyphs = {cmap[ord(c)] for c in characters}
    names = {code for code, glyph in cmap.items() if glyph in glyphs}
    options = subsetting.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # math's ssty, flac, dtls, ... and the rest
    options.name_IDs = ["*"]  # keep the licence and names
    # No TrueType instructions (a third of the bytes): Chromium on Linux
    # draws every formula pixel for pixel as with them (measured on the
    # parametric chapter), its auto-hinter ignoring them; macOS ignores them.
    options.hinting = False
    cutter = subsetting.Subsetter(options)
    cutter.populate(unicodes=sorted(names))
    cutter.subset(full)
    out = io.BytesIO()
    full.flavor = "woff2"
    full.save(out)
    return out.getvalue()


def _describe(char: str) -> str:
    return f"{char!r} (U+{ord(char):04X})"


def subset_site_font(
    site: Path, sources: Mapping[str, str], full: Path | None = None
) -> tuple[int, int, int]:
    """Replace the built site's math font by its subset for the site's formulas.

    Parameters:
        site: The built site, every edition written.
        sources: Built page (relative to the site) -> its source under ``docs/``.
        full: The whole font (``docs/`` holds it); by default the site's copy,
            which a partial build under serve has already cut, and leaves.

    Returns:
        The font's bytes before and after, and how many characters it keeps.

    Raises:
        MissingMathGlyph: Naming each page and character the font lacks.
    """
    path = site / FONT
    font = (full or path).read_bytes()
    found = formula_characters(site)
    try:
        data = render_cache.lookup(
            "math font",
            lambda: base64.b64encode(subset(font, set(found))).decode("ascii"),
            lambda value: isinstance(value, str),
            font=hashlib.sha256(font).hexdigest(),
            characters="".join(sorted(found)),
            # How it is cut: this module's code and fontTools' version, and
            # Brotli's, which compresses the WOFF2.
            code=hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
            fonttools=package_version("fonttools"),
            brotli=package_version("Brotli"),
        )
    except MissingMathGlyph:
        from fontTools.ttLib import TTFont

        cmap = TTFont(io.BytesIO(font)).getBestCmap()
        lines = [
            f"{_page(page, sources)}: the math font has no glyph for {_describe(c)}"
            for c, pages in sorted(found.items())
            if ord(c) not in cmap
            for page in pages
        ]
        raise MissingMathGlyph("\n".join(lines)) from None
    cut = base64.b64decode(data)
    path.write_bytes(cut)
    return len(font), len(cut), len(found)


def _page(built: str, sources: Mapping[str, str]) -> str:
    source = sources.get(built)
    return f"docs/{source} (built as {built})" if source else built
