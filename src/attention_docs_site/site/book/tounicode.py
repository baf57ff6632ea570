"""Chinese in Chromium's PDFs read as written: radicals mapped to ideographs.

A CJK font draws 力 (U+529B) and the Kangxi radical ⼒ (U+2F12) with one
glyph, and Chromium's PDF maps the glyph back to the radical, in the font's
ToUnicode map: the text could then not be found or copied as written. The
repair reads every such map as the ideograph, both where the map names codes
one by one (``bfchar``) and where it names them by ranges (``bfrange``).

Which ideograph a radical's glyph draws comes from Unicode for the Kangxi
radicals, and from the CJK font Chromium sets Chinese in (fontconfig's
"Noto Sans CJK SC", Debian's fonts-noto-cjk) for the other radicals: without
that font, those stay radicals and a warning says so.
"""

from __future__ import annotations

import functools
import logging
import re
import subprocess
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pypdf import PdfWriter

logger = logging.getLogger("mkdocs.plugins.attention_docs.pdf")

CJK_FONT = "Noto Sans CJK SC"
_HEX = "[0-9A-Fa-f]"
_BFCHAR = re.compile(r"(beginbfchar\s*)(.*?)(\s*endbfchar)", re.DOTALL)
# One entry: a source code, then its text. Matched pair by pair from the
# start of the block, so that a text is never read as the next code.
_BFCHAR_ENTRY = re.compile(rf"(<{_HEX}+>\s*)<({_HEX}+)>")
_BFRANGE = re.compile(r"(beginbfrange\s*)(.*?)(\s*endbfrange)", re.DOTALL)
# <lo> <hi> <first text>, or <lo> <hi> [<text> <text> ...]
_BFRANGE_ENTRY = re.compile(
    rf"(<({_HEX}+)>\s*<({_HEX}+)>\s*)(?:<({_HEX}+)>|(\[[^\]]*\]))"
)
_UNIT = re.compile(rf"<({_HEX}{{4}})>")  # a text of one UTF-16 code unit


def _kangxi_radicals() -> dict[int, int]:
    """Kangxi radical -> the ideograph it decomposes to (NFKC)."""
    mapping = {}
    for code in range(0x2F00, 0x2FE0):
        normal = unicodedata.normalize("NFKC", chr(code))
        if normal != chr(code) and len(normal) == 1:
            mapping[code] = ord(normal)
    return mapping


def _cjk_font() -> tuple[str, int] | None:
    """The file and the index in it of the CJK font, or None with a warning."""
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{index}|%{family}|%{file}", CJK_FONT],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    except FileNotFoundError:  # no fontconfig
        found = ""
    index, _, rest = found.partition("|")
    families, _, path = rest.partition("|")
    if CJK_FONT not in families.split(","):  # fontconfig fell back to another
        logger.warning(
            "attention_docs pdf: the font %s is missing (Debian's package "
            "fonts-noto-cjk: `apt-get install -y fonts-noto-cjk`), so only the "
            "Kangxi radicals in the PDFs' text are read as their ideographs",
            CJK_FONT,
        )
        return None
    return path, int(index or 0)


@functools.cache
def radicals() -> dict[int, int]:
    """Radical code point -> the ideograph a CJK font draws with the same glyph.

    Returns:
        The Kangxi radicals, and the other radicals the CJK font draws with an
        ideograph's glyph (none if the font is missing, with a warning).
    """
    mapping = _kangxi_radicals()
    font = _cjk_font()
    if font is None:
        return mapping
    from fontTools.ttLib import TTFont

    with TTFont(font[0], fontNumber=font[1], lazy=True) as opened:
        cmap = opened.getBestCmap()
    glyphs: dict[str, list[int]] = {}
    for code, glyph in sorted(cmap.items()):
        glyphs.setdefault(glyph, []).append(code)
    for code, glyph in cmap.items():
        if 0x2E80 <= code < 0x2F00 and code not in mapping:
            ideographs = [c for c in glyphs[glyph] if 0x3400 <= c <= 0x9FFF]
            if ideographs:
                mapping[code] = ideographs[0]
    return mapping


def _bfchar_entry(match: re.Match[str]) -> str:
    code = int(match[2], 16)
    if len(match[2]) != 4 or code not in radicals():
        return match[0]
    return f"{match[1]}<{radicals()[code]:04X}>"


def _unit(match: re.Match[str]) -> str:
    code = int(match[1], 16)
    return f"<{radicals()[code]:04X}>" if code in radicals() else match[0]


def _bfrange_entry(match: re.Match[str]) -> str:
    """A range whose texts include a radical, as an array of ideographs.

    ``<lo> <hi> <text>`` gives ``lo`` the text and each next code the next
    one; it is rewritten as ``<lo> <hi> [<text> <text> ...]`` only when one
    of those is a radical.
    """
    if match[5] is not None:  # already an array
        return match[1] + _UNIT.sub(_unit, match[5])
    if len(match[4]) != 4:  # not one code unit: never a radical
        return match[0]
    count = int(match[3], 16) - int(match[2], 16) + 1
    texts = [int(match[4], 16) + step for step in range(count)]
    if not set(texts) & radicals().keys():
        return match[0]
    units = " ".join(f"<{radicals().get(text, text):04X}>" for text in texts)
    return f"{match[1]}[{units}]"


def ideographs(cmap: str) -> str:
    """A ToUnicode map with radicals read as the ideographs they draw.

    Parameters:
        cmap: A font's ToUnicode CMap, as text (its bytes read as Latin-1).

    Returns:
        The same map, but that every code whose text is a single radical
        has the ideograph the font draws with the radical's glyph.
    """
    cmap = _BFCHAR.sub(
        lambda m: m[1] + _BFCHAR_ENTRY.sub(_bfchar_entry, m[2]) + m[3], cmap
    )
    return _BFRANGE.sub(
        lambda m: m[1] + _BFRANGE_ENTRY.sub(_bfrange_entry, m[2]) + m[3], cmap
    )


def repair(writer: PdfWriter) -> None:
    """Read radicals as ideographs in the ToUnicode map of every font of a PDF.

    A map that changes is written back with pypdf's ``set_data``, which
    compresses it again when the stream is Flate-encoded (as Chromium's
    are) and stores it as it is when it has no filter, so the stream's
    ``/Filter`` stays true.

    Parameters:
        writer: The PDF, changed in place.
    """
    seen: set[int] = set()
    for page in writer.pages:
        for font in page.get("/Resources", {}).get("/Font", {}).values():
            reference = font.get_object().get("/ToUnicode")
            if reference is None or id(reference.get_object()) in seen:
                continue
            stream = reference.get_object()
            seen.add(id(stream))
            cmap = stream.get_data().decode("latin-1")
            fixed = ideographs(cmap)
            if fixed != cmap:
                stream.set_data(fixed.encode("latin-1"))
