import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from attention_docs.site import latex_to_mathml, on_page_content, render_math

MATHML = "{http://www.w3.org/1998/Math/MathML}"


def test_inline_and_block_formulas_become_mathml():
    html = (
        '<p>Weights <span class="arithmatex">\\(\\alpha_{ij}\\)</span> sum to one:</p>'
        '<div class="arithmatex">\\[\\sum_{j} \\alpha_{ij} = 1\\]</div>'
    )
    out = render_math(html)
    assert "arithmatex" not in out and "\\alpha" not in out
    assert out.count("<math") == 2
    assert 'display="inline"' in out and 'display="block"' in out


def test_mathml_content_is_the_formula():
    root = ET.fromstring(latex_to_mathml("x^2 < y", display=False))
    assert root.tag == f"{MATHML}math"
    identifiers = [el.text for el in root.iter(f"{MATHML}mi")]
    assert identifiers == ["x", "y"]
    assert [el.text for el in root.iter(f"{MATHML}mo")] == ["<"]


def test_html_escaped_source_is_unescaped_first():
    root = ET.fromstring(latex_to_mathml("a &lt; b", display=False))
    assert [el.text for el in root.iter(f"{MATHML}mo")] == ["<"]
    assert [el.text for el in root.iter(f"{MATHML}mi")] == ["a", "b"]


def test_text_without_math_is_unchanged():
    html = "<p>No math here, only $5 and \\(text\\).</p>"
    assert render_math(html) == html


def test_empty_formula_is_an_error():
    with pytest.raises(ValueError, match="empty formula"):
        latex_to_mathml("  ", display=True)


def test_hook_names_the_page():
    page = SimpleNamespace(file=SimpleNamespace(src_uri="chapter.md"))
    with pytest.raises(ValueError, match="chapter.md"):
        on_page_content('<div class="arithmatex">\\[\\]</div>', page=page)
