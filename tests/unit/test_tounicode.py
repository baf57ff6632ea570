"""The PDFs' text maps read radicals as ideographs (site/book/tounicode.py).

Each map is small and made up, in the forms a ToUnicode CMap names its
codes: one by one (bfchar), by a range with its first text, by a range with
an array of texts. The expected texts are written out, and a plain reading of
the whole map (``expand``) checks that nothing else moved.
"""

import io
import logging
import re

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from attention_docs_site.site.book import tounicode
from attention_docs_site.site.book.tounicode import ideographs

# Radicals and the ideographs their glyphs draw. All but the last are Kangxi
# radicals (Unicode decomposes them); ⻰ has no decomposition, so the CJK
# font tells (Debian's fonts-noto-cjk, which the tests need anyway).
RADICALS = {
    0x2F11: 0x5200,  # ⼑ -> 刀
    0x2F12: 0x529B,  # ⼒ -> 力
    0x2F13: 0x52F9,  # ⼓ -> 勹
    0x2F08: 0x4EBA,  # ⼈ -> 人
    0x2F00: 0x4E00,  # ⼀ -> 一
    0x2EF0: 0x9F99,  # ⻰ CJK RADICAL SIMPLIFIED DRAGON -> 龙
}


def cmap(body: str) -> str:
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        f"{body}endcmap\nend\nend\n"
    )


def expand(text: str) -> dict[int, list[int]]:
    """Every code of a map and its text (as UTF-16 code units), read plainly."""
    codes = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.DOTALL):
        pairs = re.findall(r"<(\w+)>\s*<(\w+)>", block)
        for code, units in pairs:
            codes[int(code, 16)] = [
                int(units[i : i + 4], 16) for i in range(0, len(units), 4)
            ]
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.DOTALL):
        ranges = re.findall(r"<(\w+)>\s*<(\w+)>\s*(?:<(\w+)>|\[(.*?)\])", block)
        for low, high, first, array in ranges:
            listed = re.findall(r"<(\w+)>", array)
            for step in range(int(high, 16) - int(low, 16) + 1):
                unit = int(listed[step], 16) if array else int(first, 16) + step
                codes[int(low, 16) + step] = [unit]
    return codes


def read_as_ideographs(codes: dict[int, list[int]]) -> dict[int, list[int]]:
    return {
        code: [RADICALS.get(unit, unit) for unit in units]
        for code, units in codes.items()
    }


@pytest.mark.parametrize(
    ("body", "entries"),
    [
        pytest.param(
            "4 beginbfchar\n<0003> <2F12>\n<0004> <6CE8>\n<0005> <2EF0>\n"
            "<2F12> <0041>\nendbfchar\n",
            [
                "<0003> <529B>",  # ⼒ -> 力
                "<0004> <6CE8>",  # an ideograph stays
                "<0005> <9F99>",  # ⻰ -> 龙, from the font
                "<2F12> <0041>",  # a code that looks like a radical is a code
            ],
            id="one-by-one",
        ),
        pytest.param(
            "3 beginbfrange\n<0010> <0012> <2F11>\n<0020> <0022> <0041>\n"
            "<0030> <0031> <2EFF>\nendbfrange\n",
            [
                "<0010> <0012> [<5200> <529B> <52F9>]",  # ⼑⼒⼓ -> 刀力勹
                "<0020> <0022> <0041>",  # no radical: as it was
                "<0030> <0031> [<2EFF> <4E00>]",  # U+2EFF is no radical
            ],
            id="range-from-its-first-text",
        ),
        pytest.param(
            "2 beginbfrange\n<0040> <0042> [<2F08> <0041> <2F12>]\n"
            "<0050> <0051> [<00660069> <2F08>]\nendbfrange\n",
            [
                "<0040> <0042> [<4EBA> <0041> <529B>]",  # ⼈, ⼒ -> 人, 力
                "<0050> <0051> [<00660069> <4EBA>]",
            ],
            id="range-of-texts",
        ),
    ],
)
def test_radicals_read_as_their_ideographs(body, entries):
    text = cmap(body)
    fixed = ideographs(text)
    for entry in entries:
        assert entry in fixed
    # As many entries as before, and no other code's text changed.
    assert re.findall(r"\d+ begin\w+", fixed) == re.findall(r"\d+ begin\w+", text)
    assert expand(fixed) == read_as_ideographs(expand(text))


@pytest.mark.parametrize(
    "body",
    [
        "2 beginbfchar\n<0003> <0020>\n<001D> <003A>\nendbfchar\n"
        "1 beginbfrange\n<0024> <0026> <0041>\nendbfrange\n",
        # A ligature's text (f, i) is two code units; the entry after it has
        # a code that looks like a radical, and keeps its text.
        "2 beginbfchar\n<07AE> <00660069>\n<2F12> <0041>\nendbfchar\n",
        "1 beginbfrange\n<07AE> <07AF> <FB00>\nendbfrange\n",
        "1 beginbfrange\n<0001> <0002> <D840DC00>\nendbfrange\n",  # U+20000
    ],
    ids=["no-radical", "ligature-then-code", "ligatures", "beyond-the-bmp"],
)
def test_a_map_whose_texts_are_no_radicals_is_unchanged(body):
    assert ideographs(cmap(body)) == cmap(body)


def pdf_with_map(text: str, *, compressed: bool) -> PdfWriter:
    """A one-page PDF whose one font has ``text`` as its ToUnicode map."""
    writer = PdfWriter()
    page = writer.add_blank_page(100, 100)
    stream = DecodedStreamObject()
    stream.set_data(text.encode("latin-1"))
    if compressed:
        stream = stream.flate_encode()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/ToUnicode"): writer._add_object(stream),
        }
    )
    fonts = DictionaryObject({NameObject("/F1"): font})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
    return writer


def written_map(writer: PdfWriter):
    out = io.BytesIO()
    writer.write(out)
    font = PdfReader(out).pages[0]["/Resources"]["/Font"]["/F1"]
    return font["/ToUnicode"].get_object()


@pytest.mark.parametrize("compressed", [True, False], ids=["flate", "plain"])
def test_a_pdf_has_its_maps_repaired_and_still_readable(compressed):
    text = cmap(
        "1 beginbfchar\n<0003> <2F12>\nendbfchar\n"
        "1 beginbfrange\n<0010> <0011> <2F11>\nendbfrange\n"
    )
    writer = pdf_with_map(text, compressed=compressed)
    tounicode.repair(writer)
    stream = written_map(writer)
    assert stream.get("/Filter") == ("/FlateDecode" if compressed else None)
    assert stream.get_data().decode("latin-1") == ideographs(text)
    assert "<0003> <529B>" in ideographs(text)


@pytest.fixture
def no_cjk_font(monkeypatch):
    """The CJK font looked for under a name no machine has."""
    monkeypatch.setattr(tounicode, "CJK_FONT", "No Such CJK Font")
    tounicode.radicals.cache_clear()
    yield
    tounicode.radicals.cache_clear()


def test_without_the_cjk_font_a_warning_says_what_stays(no_cjk_font, caplog):
    text = cmap("2 beginbfchar\n<0003> <2F12>\n<0005> <2EF0>\nendbfchar\n")
    with caplog.at_level(logging.WARNING):
        fixed = ideographs(text)
    assert "<0003> <529B>" in fixed  # Unicode still reads the Kangxi radicals
    assert "<0005> <2EF0>" in fixed
    assert "fonts-noto-cjk" in caplog.text
    assert [r.levelname for r in caplog.records] == ["WARNING"]
