"""Right-to-left editions: the theme gives the direction; LTR parts keep theirs.

The browser's proof is ``tests/e2e/test_rtl_edition.py``; here, the markup.
"""

import re
from pathlib import Path

import babel
import material
import pytest
from helpers import ROOT
from mkdocs.theme import Theme

from attention_docs.explorable import Explorable
from attention_docs.figures import identity_heatmap
from attention_docs_site.editions import Edition, EditionError, Editions
from attention_docs_site.markdown.mathml import latex_to_mathml
from attention_docs_site.page.content import in_its_language
from attention_docs_site.upstream.material_languages import direction

# Material's own table, read as text: each language's partial names its
# direction, or inherits English's, ltr.
LANGUAGES = Path(material.__file__).parent / "templates" / "partials" / "languages"
MATERIAL = {
    path.stem: (re.findall(r'"direction": "(\w+)"', path.read_text()) or ["ltr"])[0]
    for path in sorted(LANGUAGES.glob("*.html"))
}


@pytest.fixture(scope="module")
def theme():
    return Theme(name="material", custom_dir=str(ROOT / "overrides"))


def cldr(lang):
    """The direction of a locale in the Unicode CLDR, or None if Babel lacks it."""
    try:
        order = babel.Locale.parse(lang.replace("-", "_")).character_order
    except (ValueError, babel.UnknownLocaleError):
        return None
    return "rtl" if order == "right-to-left" else "ltr"


def test_material_knows_right_to_left_languages():
    assert {"ar", "fa", "he", "ur"} <= {k for k, v in MATERIAL.items() if v == "rtl"}
    assert len(MATERIAL) > 50


@pytest.mark.parametrize("lang", MATERIAL)
def test_an_edition_runs_the_way_material_sets_the_body(theme, lang):
    found = direction(theme, lang)
    assert found == MATERIAL[lang]
    assert cldr(lang) in (found, None)  # and as the CLDR has it, where it knows


def test_the_theme_s_direction_option_wins(theme):
    theme["direction"] = "rtl"
    try:
        assert direction(theme, "en") == "rtl"
    finally:
        theme["direction"] = None


def test_a_language_the_theme_lacks_is_refused_by_name(theme):
    with pytest.raises(EditionError, match="the theme has no language 'xx-nope'"):
        direction(theme, "xx-nope")


class _File:
    def __init__(self, src_uri):
        self.src_uri = src_uri
        self.abs_src_path = f"/docs/{src_uri}"


class _Page:
    def __init__(self, src_uri):
        self.file = _File(src_uri)


EDITIONS = Editions(
    [Edition("en", "English", True), Edition("ar", "العربية", direction="rtl")]
)


def test_a_fallback_page_states_the_language_and_direction_it_is_written_in():
    body = "<p>The boxcar kernel: $K(u) = 1$.</p>"
    wrapped = in_its_language(body, _Page("attention-cues.md"), EDITIONS[1], EDITIONS)
    assert wrapped == f'<div lang="en" dir="ltr">{body}</div>'
    translated = _Page("attention-cues.ar.md")
    assert in_its_language(body, translated, EDITIONS[1], EDITIONS) == body


@pytest.mark.parametrize("display", [True, False])
def test_every_formula_is_laid_out_left_to_right(display):
    mathml = latex_to_mathml(r"\sum_{j=1}^{m} \alpha_j = 1", display=display)
    assert re.match(r'<math dir="ltr"[ >]', mathml)
    assert mathml.count("<math") == 1


def test_a_figure_runs_left_to_right_and_so_does_an_explorable_s_drawing():
    drawing = identity_heatmap(lang="en", size=3)
    root = re.match(r"<svg [^>]*>", drawing)[0]
    assert re.search(r'style="direction: ltr;', root)
    explorable = Explorable("demo", drawing, {"x": [1]})
    assert re.search(r'<svg [^>]*style="direction: ltr;', explorable)


@pytest.mark.parametrize(
    ("edition", "source", "untranslated"),
    [
        (EDITIONS[0], "docs/attention-cues.md", False),  # the default: originals
        (EDITIONS[1], "docs/attention-cues.md", True),
        (EDITIONS[1], "/abs/docs/attention-cues.ar.md", False),
        (EDITIONS[1], "docs/attention-cues.zh.md", True),  # another edition's
    ],
)
def test_which_pages_an_edition_serves_untranslated(edition, source, untranslated):
    assert edition.serves_untranslated(source) is untranslated
