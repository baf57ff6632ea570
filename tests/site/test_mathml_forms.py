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


# Operators with a prefix entry in MathML Core's operator dictionary.
PREFIX = set("−+±∓¬([{|‖⟨⌈⌊∑∏∫∂∇")


def expected_forms(element, forms=None):
    """The ``form="prefix"`` each leading operator should get, keyed by the element.

    The first child of a row of two or more, or the operator that child is
    built on (a sub- or superscripted one, or one alone in a row), when the
    operator dictionary has a prefix entry for it.
    """
    forms = {} if forms is None else forms
    children = list(element)
    for child in children:
        expected_forms(child, forms)
    if element.tag.removeprefix(NS) in ROWS and len(children) > 1:
        core = children[0]
        while core.tag.removeprefix(NS) != "mo":
            tag = core.tag.removeprefix(NS)
            if not len(core) or not (
                tag in SCRIPTED or (tag in ROWS and len(core) == 1)
            ):
                break
            core = core[0]
        else:
            if core.text in PREFIX and core.get("form") is None:
                forms[core] = "prefix"
    return forms


def bare(mathml):
    """The MathML without any operator's form."""
    return re.sub(r' form="\w+"', "", mathml)


FORMULAS = site_formulas()


def test_the_site_has_formulas_to_check():
    assert len(FORMULAS) > 150


@pytest.mark.parametrize("latex", FORMULAS)
def test_a_leading_operator_is_written_prefix_and_nothing_else_changes(latex):
    original = convert(latex)
    ordinary = re.sub(r"<mo>(&#x0221E;|&#x022A4;)</mo>", r"<mi>\1</mi>", original)
    before = list(ET.fromstring(ordinary).iter(f"{NS}mo"))
    tree = ET.fromstring(ordinary)
    expected = {
        i for i, mo in enumerate(tree.iter(f"{NS}mo")) if mo in expected_forms(tree)
    }
    after = list(ET.fromstring(reach.written_out(original)).iter(f"{NS}mo"))
    added = {
        i
        for i, (old, new) in enumerate(zip(before, after, strict=True))
        if old.get("form") != new.get("form")
    }
    assert added == expected, latex
    assert all(after[i].get("form") == "prefix" for i in added)
    # Nothing else changed but the ordinary symbols.
    assert bare(reach.written_out(original)) == bare(ordinary)


def test_infinity_and_transpose_are_ordinary_symbols():
    assert reach.written_out(convert(r"h \to \infty")).endswith(
        "<mi>h</mi><mo>&#x02192;</mo><mi>&#x0221E;</mi></mrow></math>"
    )
    assert "<mi>&#x022A4;</mi>" in reach.written_out(convert(r"x^\top"))


def test_the_core_of_a_leading_script_or_row_is_written_prefix():
    # \partial_w L: the ∂ is the core of the row's first child.
    mathml = reach.written_out(convert(r"{\partial_w} L"))
    assert '<mo form="prefix">&#x02202;</mo>' in mathml
    # A comma has no prefix entry: an explicit form would be spaced by default.
    assert "form" not in reach.written_out(convert(r", x"))
    # Only the first operator of a row; a binary minus stays as inferred.
    assert reach.written_out(convert("-a-b")).count("form=") == 1


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
