"""The MathML the build writes: ordinary symbols as mi, operators' forms written.

The browser is the reference for how the forms draw
(``tests/e2e/test_formula_forms.py``); here, every formula of the site's
pages is checked against MathML Core's rule, walked on the element tree
(``xml.etree``) rather than on the tags as the build does.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET

import pytest
from helpers import ROOT
from latex2mathml.converter import convert

from attention_docs_site.execute.fingerprints import own_extensions
from attention_docs_site.upstream import latex2mathml as reach
from attention_docs_site.upstream.guard import UpstreamChanged

NS = "{http://www.w3.org/1998/Math/MathML}"
ROWS = {"math", "mrow", "msqrt", "mstyle", "merror", "mpadded", "mphantom", "mtd"}
SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mfrac"}
# Inline ($...$) and display ($$...$$) formulas of the Markdown pages.
FORMULA = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)


def site_formulas():
    """Every formula of the docs' Markdown pages, once each, outside code."""
    found = set()
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = re.sub(
            r"```.*?```|`[^`\n]*`", "", page.read_text(encoding="utf-8"), flags=re.S
        )
        found |= {(a or b).strip() for a, b in FORMULA.findall(text)}
    return sorted(f for f in found if f)


def expected_forms(element, forms=None):
    """MathML Core's inferred form of each operator, keyed by the element."""
    forms = {} if forms is None else forms
    children = list(element)
    for index, child in enumerate(children):
        expected_forms(child, forms)
        if element.tag.removeprefix(NS) not in ROWS:
            continue
        core = child
        while core.tag.removeprefix(NS) != "mo":
            tag = core.tag.removeprefix(NS)
            if not len(core) or not (
                tag in SCRIPTED or (tag in ROWS and len(core) == 1)
            ):
                break
            core = core[0]
        else:
            last = len(children) - 1
            forms[core] = (
                "prefix"
                if last and index == 0
                else "postfix"
                if last and index == last
                else "infix"
            )
    return forms


def bare(mathml):
    """The MathML without any operator's form."""
    return re.sub(r' form="\w+"', "", mathml)


FORMULAS = site_formulas()


def test_the_site_has_formulas_to_check():
    assert len(FORMULAS) > 150


@pytest.mark.parametrize("latex", FORMULAS)
def test_every_operator_of_a_row_has_the_form_mathml_core_infers(latex):
    original = convert(latex)
    root = ET.fromstring(reach.written_out(original))
    forms = expected_forms(root)
    # latex2mathml's own forms (\left, \right) are the inferred ones too.
    for mo in root.iter(f"{NS}mo"):
        assert mo.get("form") == forms.get(mo), (latex, mo.text, mo.get("form"))
    # Nothing else changed but the ordinary symbols.
    ordinary = re.sub(r"<mo>(&#x0221E;|&#x022A4;)</mo>", r"<mi>\1</mi>", original)
    assert bare(reach.written_out(original)) == bare(ordinary)


def test_infinity_and_transpose_are_ordinary_symbols():
    assert reach.written_out(convert(r"h \to \infty")).endswith(
        '<mi>h</mi><mo form="infix">&#x02192;</mo><mi>&#x0221E;</mi></mrow></math>'
    )
    assert "<mi>&#x022A4;</mi>" in reach.written_out(convert(r"x^\top"))


def test_an_operator_alone_in_nested_rows_takes_the_outer_row_s_place():
    # \partial_w L: the ∂ is the core of the row's first child.
    mathml = reach.written_out(convert(r"{\partial_w} L"))
    assert '<mo form="prefix">&#x02202;</mo>' in mathml


def test_a_converter_that_writes_otherwise_fails_the_build_naming_the_reach(
    monkeypatch,
):
    monkeypatch.setattr(reach, "convert", lambda latex: "<math><mi>∞</mi></math>")
    reach._checked.cache_clear()
    try:
        with pytest.raises(UpstreamChanged, match="latex2mathml: ordinary symbols"):
            reach.written_out(convert("x"))
    finally:
        reach._checked.cache_clear()


def test_a_markdown_extension_s_key_follows_the_modules_of_ours_it_imports(
    tmp_path, monkeypatch
):
    package = tmp_path / "ownpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ext.py").write_text("from ownpkg.helper import EDIT\n")
    (package / "helper.py").write_text("EDIT = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = own_extensions(["ownpkg.ext", "markdown.extensions.toc"], "ownpkg")
    (package / "helper.py").write_text("EDIT = 2\n")
    after = own_extensions(["ownpkg.ext"], "ownpkg")
    assert list(before) == ["ownpkg.ext"] and before != after
    for name in ["ownpkg", "ownpkg.ext", "ownpkg.helper"]:
        sys.modules.pop(name, None)
