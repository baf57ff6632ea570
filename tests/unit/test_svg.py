import ast
import copy
import inspect
import pickle
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from packaging.version import Version

import attention_docs
from attention_docs import Drawing, figure_to_svg, heatmaps


def sample_figure(labels=("Keys", "Queries"), lang="en"):
    matrices = np.random.default_rng(0).uniform(size=(1, 2, 10, 10))
    return heatmaps(matrices, xlabel=labels[0], ylabel=labels[1], lang=lang)


def test_same_figure_same_bytes():
    first = figure_to_svg(sample_figure(), alt="weights")
    second = figure_to_svg(sample_figure(), alt="weights")
    assert first.encode() == second.encode()


def test_is_wellformed_svg_with_text_as_text():
    svg = figure_to_svg(sample_figure(), alt="weights")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Keys" in texts and "Queries" in texts
    assert "<path" in svg and "glyph" not in svg  # glyphs are not drawn as paths


@pytest.mark.parametrize("size", [(6.4, 4.8), (3.0, 5.5)])
def test_the_figure_states_the_shape_matplotlib_drew(size):
    # Its box keeps this shape while the page skips drawing it (site.css).
    fig = Figure(figsize=size)
    fig.add_subplot().plot([0, 1], [1, 0], color="0.3")
    root = ET.fromstring(figure_to_svg(fig, alt="a line"))
    style = dict(
        part.split(":", 1) for part in root.get("style").replace(" ", "").split(";")
    )
    width, height = (float(v) for v in style["aspect-ratio"].split("/"))
    points = [72 * inch for inch in size]  # matplotlib's SVG is in points
    assert width / height == pytest.approx(points[0] / points[1], rel=1e-9)
    assert root.get("width") == f"{points[0]:g}pt" and style["height"] == "auto"


def test_no_date_metadata_or_prologue():
    svg = figure_to_svg(sample_figure(), alt="weights")
    assert svg.startswith("<svg")
    for unwanted in (
        "<?xml",
        "<!DOCTYPE",
        "<metadata",
        "dc:date",
        "Matplotlib v",
        "<!--",
    ):
        assert unwanted not in svg


def test_every_reference_resolves_and_ids_are_unique():
    svg = figure_to_svg(sample_figure(), alt="weights")
    ids = re.findall(r'\sid="([^"]+)"', svg)
    assert len(ids) == len(set(ids))
    for target in re.findall(r'(?:url\(#|href="#)([^)"]+)', svg):
        assert target in ids


def test_different_figures_do_not_share_ids_or_classes():
    a = figure_to_svg(sample_figure(), alt="a")
    b = figure_to_svg(sample_figure(("K", "Q")), alt="b")
    names = re.compile(r'(?:id|class)="([^"]+)"')
    shared = (set(names.findall(a)) & set(names.findall(b))) - {"ad-figure"}
    assert not shared


def test_styles_are_scoped_to_the_figure():
    svg = figure_to_svg(sample_figure(), alt="weights")
    for rule in re.findall(r"<style>(.*?)</style>", svg):
        for selector in re.findall(r"([^{}]+)\{", rule):
            assert selector.startswith((".f", ".ad-figure "))


def test_alt_text_is_the_title_and_escaped():
    svg = figure_to_svg(sample_figure(), alt='A <b>"bold"</b> & co')
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.find("{http://www.w3.org/2000/svg}title").text == 'A <b>"bold"</b> & co'


def test_chinese_text_stays_text():
    svg = figure_to_svg(sample_figure(("键", "查询"), lang="zh"), alt="热图")
    assert ">键</text>" in svg and ">查询</text>" in svg
    assert (
        "Noto Sans CJK SC" in svg or "Source Han Sans SC" in svg or "WenQuanYi" in svg
    )


@pytest.mark.parametrize(
    ("fig", "alt", "error"),
    [
        ("not a figure", "x", TypeError),
        (Figure(), "", ValueError),
        (Figure(), "   ", ValueError),
    ],
)
def test_bad_arguments(fig, alt, error):
    with pytest.raises(error):
        figure_to_svg(fig, alt=alt)


@pytest.mark.parametrize("text", ["\ue000", "键\ue001 keys"])
def test_text_no_font_can_draw_is_refused(text):
    fig = Figure()
    fig.text(0.5, 0.5, text)
    with pytest.raises(ValueError, match="'demo' has text that no configured font"):
        figure_to_svg(fig, alt="demo")


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("ܐ", "Syriac script, U+0710"),
        ("ހ", "Thaana script, U+0780"),
        ("ہ", "Arabic script, U+06C1"),  # Urdu's heh goal: not in DejaVu Sans
    ],
)
def test_a_script_the_fonts_lack_is_refused_naming_it_and_where_to_read(text, script):
    fig = Figure()
    fig.text(0.5, 0.5, text)
    with pytest.raises(ValueError, match="no configured font") as refused:
        figure_to_svg(fig, alt="demo")
    assert f"({script})" in str(refused.value)
    assert "CONTRIBUTING.md, 'Add a language', step 3" in str(refused.value)


RIGHT_TO_LEFT = {"arabic": "فنجان قهوة", "persian": "پژوهش", "hebrew": "כוס קפה"}


@pytest.mark.parametrize("text", RIGHT_TO_LEFT.values(), ids=RIGHT_TO_LEFT)
def test_right_to_left_labels_stay_text_in_logical_order(text):
    fig = Figure()
    fig.text(0.5, 0.5, text)
    svg = figure_to_svg(fig, alt="demo")
    assert f">{text}</text>" in svg  # the browser shapes and orders it


def text_width(text):
    fig = Figure()
    drawn = fig.text(0, 0, text, fontsize=40)
    return drawn.get_window_extent(FigureCanvasAgg(fig).get_renderer()).width


# The build's matplotlib shapes Arabic; Pyodide's 3.8.4 (the Run button's, and
# the floor environment's) draws it letter by letter.
SHAPES_ARABIC = Version(matplotlib.__version__) > Version("3.8.4")


def test_arabic_is_measured_as_drawn_joined_not_letter_by_letter():
    """What CONTRIBUTING says: matplotlib shapes Arabic, so the layout fits.

    Joined letters are narrower than the same letters kept apart (a zero-width
    non-joiner between them), and lam-alef is one glyph, narrower than the two.
    On matplotlib 3.8.4 they are not: if that changes, this says so.
    """
    joined, apart = "بببب", "\u200c".join("بببب")
    if not SHAPES_ARABIC:
        assert text_width(joined) == text_width(apart)
        return
    assert text_width(joined) < 0.7 * text_width(apart)
    assert text_width("لا") < 0.8 * text_width("ل\u200cا")


def test_a_drawing_is_its_svg_and_keeps_its_figure_and_text():
    figure = sample_figure(("K", "Q"))
    drawing = Drawing(figure, "alt K")
    assert drawing == figure_to_svg(sample_figure(("K", "Q")), alt="alt K")
    assert isinstance(drawing, str) and str(drawing).startswith("<svg")
    assert drawing.figure is figure and drawing.alt == "alt K"
    assert repr(drawing) == f"Drawing(alt='alt K', {len(drawing)} characters of SVG)"
    with pytest.raises(ValueError, match="alt must be a non-empty"):
        Drawing(figure, " ")
    # Copies and pickles (notebook outputs are deep-copied) are the plain SVG.
    for copied in (copy.deepcopy(drawing), pickle.loads(pickle.dumps(drawing))):
        assert type(copied) is str and copied == drawing


def test_only_the_svg_module_makes_svg():
    """Figure functions return Drawings; Drawing is what calls figure_to_svg."""
    root = Path(attention_docs.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "figure_to_svg"
        ]
        assert path.name == "svg.py" or not calls, path.name
    from attention_docs import figures

    drawings = [
        name
        for name in figures.__all__
        if getattr(getattr(figures, name), "__annotations__", {}).get("return")
        == "Drawing"
    ]
    assert len(drawings) >= 19
    for name in drawings:
        parameters = inspect.signature(getattr(figures, name)).parameters
        args = {"focus": "cup"} if "focus" in parameters else {}
        if "weights" in parameters:
            args["weights"] = np.full((3, 4), 0.25)
        assert isinstance(getattr(figures, name)(**args), Drawing), name


def test_colours_follow_the_scheme_and_text_is_drawn_in_ink():
    fig = Figure(figsize=(2, 1))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], color="#c62828")
    ax.text(0.5, 0.5, "plain")
    svg = figure_to_svg(fig, alt="a line")
    sheet = re.search(r"<style>(.*?)</style>", svg)[1]
    assert "stroke:var(--ad-c3,#c62828)" in sheet
    assert "fill:var(--ad-bg,#fff)" in sheet  # the figure's background
    assert not re.search(r"#[0-9a-f]{6}(?!\))", sheet)  # no bare colour is left
    root = ET.fromstring(svg)
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    text = next(t for t in texts if t.text == "plain")
    rule = re.search(rf"\.{text.get('class')}\{{([^}}]*)\}}", sheet)[1]
    assert "fill:var(--ad-fg,#000)" in rule


def test_an_unthemed_drawing_keeps_its_colours():
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1], [0, 1], color="#3f51b5")
    svg = figure_to_svg(fig, alt="logo", themed=False)
    assert "#3f51b5" in svg and "var(--ad-" not in svg


def test_a_colour_outside_the_scheme_is_refused_naming_the_figure():
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1], [0, 1], color="#3f51b5")
    with pytest.raises(ValueError, match=r"figure 'a line': figure colour #3f51b5"):
        figure_to_svg(fig, alt="a line")


def test_a_marker_covered_by_the_same_opaque_marker_later_is_dropped():
    from attention_docs.svg import _drop_covered_markers

    a = '<use xlink:href="#m" x="1" y="2" style="fill: #000"/>'
    b = '<use xlink:href="#m" x="3" y="2" style="fill: #000"/>'
    faint = '<use xlink:href="#m" x="5" y="2" style="fill: #000; opacity: 0.5"/>'
    svg = f"<svg>{a}<path/>{b}{a}{faint}{faint}</svg>"
    assert _drop_covered_markers(svg) == f"<svg><path/>{b}{a}{faint}{faint}</svg>"


def test_repeated_lineto_commands_are_implicit():
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1, 2, 3], [0, 1, 0, 1])
    svg = figure_to_svg(fig, alt="zigzag", strict=False)
    lines = [d for d in re.findall(r' d="([^"]+)"', svg) if d.count(" ") > 8]
    assert lines and all(d.count("L") == 1 for d in lines), lines
