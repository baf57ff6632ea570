"""Figure text as the browser draws it: no two labels collide, none is cut off.

Matplotlib lays a figure out with its own font metrics, and only for the width
it was drawn at; a translated label can be longer than the English one the
layout was tried with. So every page of every edition is measured at a
desktop and then a phone width (:func:`check_figure_text`, which
test_browser.py's one visit of each page calls), and each text of each SVG
figure is measured where Chromium drew it: its box must stay inside the
figure's own box and off every other text's box. The figures are the library's
inline SVGs and the live drawings of the explorable figures; the static
drawing an explorable figure shows without JavaScript, or in print, is shown
again here to be measured too.
"""

import itertools
import re

from helpers import CHAPTERS, LANGS

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 900},
}
# How far, in CSS pixels, a text's box may cross another's or the figure's
# edge. A box runs from the font's ascent to its descent, which Chromium rounds
# to whole pixels at the size it draws, each by up to half a pixel: the lines
# of a two-line label, set 1.2 em apart by matplotlib where the box of the
# Latin font is 1.16 em tall, cross by 0.6 px at a phone's width.
TOLERANCE = 1.0

# The static drawing of an explorable figure, which its script hides once it
# has drawn the live one (site.css), shown again at its place in the page.
SHOW_STATIC = ".ad-explorable[data-live] > .ad-explorable__static {display: block}"

# Every SVG figure of the page: its name (aria-label or title, else its
# index) and box, and the box and text of each non-empty text it draws.
MEASURE = """() => [...document.querySelectorAll("svg.ad-figure")].map((svg, i) => {
  const box = svg.getBoundingClientRect();
  const name = svg.getAttribute("aria-label")
    || svg.querySelector(":scope > title")?.textContent || `figure ${i + 1}`;
  const texts = [...svg.querySelectorAll("text")]
    .filter(text => text.textContent.trim() && text.getClientRects().length)
    .map(text => {
      const r = text.getBoundingClientRect();
      return {text: text.textContent.trim(), left: r.left, top: r.top,
              right: r.right, bottom: r.bottom};
    });
  return {index: i + 1, name: name.trim(), left: box.left, top: box.top,
          right: box.right, bottom: box.bottom, texts};
})"""


def overlap(a: dict, b: dict) -> tuple[float, float]:
    """How far two boxes cross, across and down (negative: apart)."""
    across = min(a["right"], b["right"]) - max(a["left"], b["left"])
    down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return across, down


def outside(text: dict, figure: dict) -> float:
    """How far a text's box reaches past the figure's box, on its worst side."""
    return max(
        figure["left"] - text["left"],
        figure["top"] - text["top"],
        text["right"] - figure["right"],
        text["bottom"] - figure["bottom"],
    )


# Chromium boxes a run of Arabic letters one pixel taller than a run of Latin
# letters in the same font and size (DejaVu Sans, in SVG: 10 against 11 px at
# 8.5 px, 15 against 16 at 12.8, 58 against 59 at 50): its rounding, not ink.
ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")


def allowed(*texts: dict) -> float:
    """How far these texts' boxes may cross: the tolerance, and Arabic's pixel."""
    return TOLERANCE + any(ARABIC.search(text["text"]) for text in texts)


def collisions(figure: dict) -> list[str]:
    """What is wrong with one figure's text, one line per problem."""
    problems = []
    for text in figure["texts"]:
        past = outside(text, figure)
        if past > allowed(text):
            problems.append(f"«{text['text']}» runs {past:.1f} px past the edge")
    for a, b in itertools.combinations(figure["texts"], 2):
        across, down = overlap(a, b)
        if across > TOLERANCE and down > allowed(a, b):
            problems.append(
                f"«{a['text']}» and «{b['text']}» overlap by "
                f"{across:.1f} × {down:.1f} px"
            )
    return problems


def short(name: str, length: int = 60) -> str:
    return name if len(name) <= length else name[: length - 1] + "…"


def check_figure_text(page, path, lang, viewport):
    """Each text of each figure stays off the others and inside the figure.

    The page, open at ``path`` of the ``lang`` edition, is set to the
    viewport's size, and the static drawings of explorable figures are shown
    (again: the rule may already be there).
    """
    page.set_viewport_size(VIEWPORTS[viewport])
    page.add_style_tag(content=SHOW_STATIC)
    page.evaluate("document.fonts.ready.then(() => true)")
    figures = page.evaluate(MEASURE)
    if path in CHAPTERS:  # every chapter has figures: they must be found
        assert any(figure["texts"] for figure in figures), "no figure text found"
    problems = [
        f"figure {figure['index']} «{short(figure['name'])}»: {problem}"
        for figure in figures
        for problem in collisions(figure)
    ]
    where = f"{lang} edition, page /{LANGS[lang]}{path}, at {viewport} width"
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


def test_collisions_name_text_past_the_edge_and_text_on_text():
    """The check itself, on boxes made up: what it reports, and what it allows."""
    figure = {"left": 0, "top": 0, "right": 100, "bottom": 50}
    figure["texts"] = [
        {"text": "a", "left": 10, "top": 10, "right": 30, "bottom": 20},
        {"text": "b", "left": 20, "top": 12, "right": 40, "bottom": 22},
        {"text": "c", "left": 90, "top": 30, "right": 105, "bottom": 40},
        {"text": "d", "left": 60, "top": 40.5, "right": 80, "bottom": 50.5},
        {"text": "e", "left": 60, "top": 31, "right": 80, "bottom": 41},
    ]
    assert collisions(figure) == [
        "«c» runs 5.0 px past the edge",
        "«a» and «b» overlap by 10.0 × 8.0 px",
    ]  # d and e: half a pixel, within TOLERANCE
