"""Browser tests: the built site, served on 127.0.0.1, in Debian's Chromium.

Every page of both languages is loaded in a real browser, once, and checked
in that one visit by :func:`test_page_passes_every_check_in_one_visit`.
Requests to any host but the test server fail (no name resolves in the
tests' Chromium) and are recorded, and fail the test. Full-page screenshots
of every page are saved under ``test-artifacts/screenshots/`` (the release
tier).
"""

import os
import re
import shutil
import zipfile
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from browser import AXE, COLOUR_RULES, SERIOUS, launch, prefix, search_results, visit
from helpers import (
    CHAPTERS,
    LANGS,
    NOTEBOOK_PAGES,
    NOTEBOOKS,
    REFERENCE_PAGES,
    ROOT,
    SITE_PATH,
    SITE_URL,
)
from test_figure_text import VIEWPORTS, check_figure_text

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
PAGES = ["", *CHAPTERS, *NOTEBOOK_PAGES, *REFERENCE_PAGES]
# The site is served under its published path (SITE_PATH, e.g. /attention_docs/),
# so links that ignore that path break here as they would on GitHub Pages.
CJK = re.compile(r"[\u4e00-\u9fff]")


def source_of(path: str, lang: str) -> Path:
    """The Markdown source of a page path."""
    stem = ROOT / "docs" / (path or "index")
    return stem.with_suffix(".zh.md" if lang == "zh" else ".md")


every_page = pytest.mark.parametrize("path", PAGES)
both_languages = pytest.mark.parametrize("lang", LANGS)


@both_languages
@every_page
def test_page_passes_every_check_in_one_visit(
    page, site_url, built_site, path, lang, tmp_path
):
    """Every check of a page, in one visit (:func:`check_in_one_visit`)."""
    check_in_one_visit(page, site_url, built_site, path, lang, tmp_path)


@pytest.mark.release  # a second build of the site, and every page again
@both_languages
@every_page
def test_with_the_speed_reaches_off_a_page_passes_every_check(
    speed_off_page, speed_off_site, path, lang, tmp_path
):
    """The escape hatch for an upgrade (``ATTENTION_DOCS_SPEED_EDITS=off``,
    src/attention_docs_site/upstream/README.md) gives readers the same site."""
    site, url = speed_off_site
    check_in_one_visit(speed_off_page, url, site, path, lang, tmp_path)


def check_in_one_visit(page, site_url, built_site, path, lang, tmp_path):
    """Every check of a page, in the order a reader's session could make them.

    The page is loaded once, at a desktop's size, in the light scheme. The
    checks that change it come late: the palette, the dark scheme (the
    browser's preference, which the automatic palette follows), a copy
    button's message, an exercise page's notebook downloaded, the static
    drawings of explorable figures shown again, a phone's width; the language
    switch, which leaves the page, is the last. A failure names the page, its
    language and the check.
    """
    name = f"page /{prefix(lang)}{path} ({lang} edition)"
    page.set_viewport_size(VIEWPORTS["desktop"])
    visit(page, site_url, path, lang)
    with checking("rendering", name):
        check_page_loads_cleanly(page, lang)
    with checking("math", name):
        check_math_is_rendered(page, path, lang)
    with checking("figures and alt text", name):
        check_figures_are_visible_with_a_text_alternative(page, path, lang)
    if lang == "zh":
        with checking("CJK glyphs", name):
            check_chinese_is_drawn_with_a_cjk_font(page)
    with checking("palette toggle", name):
        check_palette_toggle_cycles_automatic_light_dark(page)
    check_both_schemes(page, path, lang, name)
    # After axe: the "Copied" message stays on screen for
    # two seconds, and axe measures its text's contrast while it fades.
    with checking("copy buttons", name):
        check_every_code_block_has_a_working_copy_button(page)
    if path in NOTEBOOK_PAGES:
        with checking("notebook download", name):
            check_notebook_downloads_as_a_valid_ipynb(page, built_site, lang, tmp_path)
    for viewport in ["desktop", "phone"]:
        with checking(f"figure text, {viewport}", name):
            check_figure_text(page, path, lang, viewport)
        if path in NOTEBOOK_PAGES:
            with checking(f"run-it-yourself box, {viewport}", name):
                found = page.evaluate(RUN_YOURSELF)
                assert found["below"] and found["share"] > 0.9, found
    with checking("no late problem", name):
        check_page_loads_cleanly(page, lang)
    with checking("language switch", name):
        page.set_viewport_size(VIEWPORTS["desktop"])
        check_language_switch_lands_on_the_counterpart(page, path, lang)


# Pages whose axe runs take a minute of CPU time between them (the API page:
# twelve thousand elements, each of its texts' contrast computed): axe reads
# them in the release tier (test_the_api_pages_pass_axe_in_both_schemes).
AXE_IN_RELEASE = ("api",)
assert set(AXE_IN_RELEASE) <= set(PAGES)


def check_both_schemes(page, path, lang, name):
    """axe in the light and the dark scheme; figure colours in each.

    The page is light, as loaded: it goes dark and comes back, as the browser's
    preference changes.
    """
    axe = path not in AXE_IN_RELEASE
    if axe:
        with checking("axe, light", name):
            check_no_serious_accessibility_violation(page)
    with checking("dark scheme", name):
        prefer_scheme(page, "dark")
    if axe:
        with checking("axe, dark", name):  # the scheme changes colours alone
            check_no_serious_accessibility_violation(page, only=COLOUR_RULES)
    if path in FIGURE_PAGES:
        with checking("figure colours, dark", name):
            check_figures_take_the_colours_of_the_scheme(page)
    with checking("light scheme", name):
        prefer_scheme(page, "light")
    if path in FIGURE_PAGES:
        with checking("figure colours, light", name):
            check_figures_take_the_colours_of_the_scheme(page)


@pytest.mark.release  # a minute of CPU time (AXE_IN_RELEASE)
@both_languages
@pytest.mark.parametrize("path", AXE_IN_RELEASE)
def test_the_api_pages_pass_axe_in_both_schemes(page, site_url, path, lang):
    """axe's checks of the pages the one visit leaves to the release tier."""
    page.set_viewport_size(VIEWPORTS["desktop"])
    visit(page, site_url, path, lang)
    check_no_serious_accessibility_violation(page)
    prefer_scheme(page, "dark")
    check_no_serious_accessibility_violation(page, only=COLOUR_RULES)
    check_page_loads_cleanly(page, lang)


@pytest.mark.release  # pictures for people to look at, not a check of the site
@both_languages
@every_page
def test_every_page_is_saved_as_a_screenshot(page, site_url, path, lang):
    """A full-page PNG of each page, light and, where it has figures, dark.

    Saved under ``test-artifacts/screenshots/`` for review without serving
    the site. The release tier takes them: a full-page screenshot of each
    page costs the README's command a minute of CPU time.
    """
    page.set_viewport_size(VIEWPORTS["desktop"])
    visit(page, site_url, path, lang)
    save_screenshot(page, SCREENSHOTS / lang, path)
    if path in FIGURE_PAGES:
        prefer_scheme(page, "dark")
        save_screenshot(page, SCREENSHOTS / "dark" / lang, path)
    check_page_loads_cleanly(page, lang)


@contextmanager
def checking(check, name):
    """Name the check and the page in a failure of the check."""
    try:
        yield
    except Exception as error:
        error.add_note(f"{check} check failed on {name}")
        raise


def check_page_loads_cleanly(page, lang):
    """No error, no foreign request, and the page in its edition's language."""
    assert page.problems == []
    assert page.foreign_requests == []
    assert page.locator("html").get_attribute("lang") == lang


def save_screenshot(page, folder, path):
    """Save a full-page screenshot of the page as it is, named after its path."""
    shot = folder / f"{path.replace('/', '-') or 'index'}.png"
    full_page_screenshot(page, shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# Where the sticky header, tabs and sidebars are, and whether Material shows
# the page title in the header (it does once the reader has scrolled).
AT_TOP = """() => ({
  scrollY: window.scrollY,
  header: document.querySelector(".md-header").getBoundingClientRect().top,
  tabsHidden: document.querySelector(".md-tabs")?.hidden ?? false,
  titleActive: document.querySelector(".md-header__title--active") !== null,
})"""


def full_page_screenshot(page, shot):
    """Save a full-page screenshot with the header once, at the top.

    The header and sidebars are sticky: a screenshot taken after the checks
    scrolled the page painted them where the reader had scrolled to, over the
    text, and left an empty band and a hidden tab bar at the top. So the page
    goes back to the top first, and Material is given time to react.
    """
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(f"({AT_TOP})().titleActive === false")
    state = page.evaluate(AT_TOP)
    assert state == {
        "scrollY": 0,
        "header": 0,
        "tabsHidden": False,
        "titleActive": False,
    }, state
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shot, full_page=True, animations="disabled")


# For the first paragraph of prose and the first text of each figure that has
# Chinese in it: up to three of its Chinese characters, each drawn on a canvas
# in the element's own computed font, compared with the drawing of a code point
# no font has (U+10FFFD). Without a CJK font every Chinese character is drawn
# as that same empty box ("tofu").
GLYPHS = """() => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const context = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (font, text) => {
    context.clearRect(0, 0, 48, 48);
    context.font = font;
    context.textBaseline = "top";
    context.fillText(text, 2, 2);
    return context.getImageData(0, 0, 48, 48).data.join();
  };
  const han = /[\\u4e00-\\u9fff]/g;
  const prose = [...document.querySelectorAll("article p")]
    .filter(p => p.textContent.match(han)).slice(0, 1);
  const figures = [...document.querySelectorAll("article svg.ad-figure")]
    .map(svg => [...svg.querySelectorAll("text")]
      .find(t => t.textContent.match(han)))
    .filter(Boolean);
  return [...prose, ...figures].map(element => {
    const style = getComputedStyle(element);
    const font = `${style.fontStyle} ${style.fontWeight} 40px ${style.fontFamily}`;
    const chars = [...new Set(element.textContent.match(han))].slice(0, 3);
    const tofu = draw(font, "\\u{10FFFD}");
    const drawings = chars.map(c => draw(font, c));
    return {
      where: element.tagName.toLowerCase(),
      text: chars.join(""),
      font: style.fontFamily,
      tofu: drawings.filter(d => d === tofu).length,
      distinct: new Set(drawings).size,
    };
  });
}"""


def check_chinese_is_drawn_with_a_cjk_font(page):
    """Chinese prose and figure text are drawn as real glyphs, not tofu boxes.

    Run on every Chinese page by test_page_passes_every_check_in_one_visit.
    """
    found = page.evaluate(GLYPHS)
    assert found, "no Chinese text found on the page"
    for item in found:
        assert item["tofu"] == 0, f"tofu (no CJK font) for {item}"
        assert item["distinct"] == len(item["text"]), item
    figures = page.locator("article svg.ad-figure").count()
    checked = [item for item in found if item["where"] == "text"]
    assert len(checked) == figures  # every figure has Chinese text, checked


@pytest.mark.release  # a test of the check, in a Chromium of its own
def test_cjk_font_check_fails_without_a_cjk_font(playwright, site_url, tmp_path):
    """The check above sees tofu in a Chromium whose only font lacks CJK.

    Fontconfig is pointed at a folder holding one Latin font (matplotlib's
    DejaVu Sans), so the browser has no CJK font to fall back on, as on a
    machine without fonts-noto-cjk.
    """
    import matplotlib

    fonts = tmp_path / "fonts"
    fonts.mkdir()
    latin = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    shutil.copy(latin, fonts)
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{fonts}</dir>"
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>\n"
    )
    chromium = launch(playwright, env={**os.environ, "FONTCONFIG_FILE": str(config)})
    try:
        page = chromium.new_page()
        visit(page, site_url, "", "zh")
        with pytest.raises(AssertionError, match="tofu"):
            check_chinese_is_drawn_with_a_cjk_font(page)
    finally:
        chromium.close()


# Text of the article without code, where LaTeX could not legitimately appear.
PROSE = """() => {
  const article = document.querySelector("article").cloneNode(true);
  article.querySelectorAll("pre, code, script, style").forEach(e => e.remove());
  return article.innerText;
}"""
RAW_TEX = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[|\\(frac|sum|exp|mathbf)\b")
BOXES = """elements => elements.map(element => {
  const box = element.getBoundingClientRect();
  return [box.width, box.height];
})"""


def check_math_is_rendered(page, path, lang):
    assert RAW_TEX.findall(page.evaluate(PROSE)) == []
    # Open collapsed blocks (a worked answer), as a reader would, so that
    # their formulas are laid out and measured too.
    page.evaluate(
        "document.querySelectorAll('article details').forEach(d => d.open = true)"
    )
    boxes = page.locator("article math").evaluate_all(BOXES)  # in one call
    source = re.sub(r"```.*?```", "", source_of(path, lang).read_text(), flags=re.S)
    if "$" in source:
        assert len(boxes) > 0
    for i, (width, height) in enumerate(boxes):
        assert width > 0 and height > 0, i


# A call of the figures module that draws a figure (not data, code or tables).
FIGURE_CALL = re.compile(
    r"\bfigures\.(?!chapter_data|trained|source_listing|bandwidth_summary)\w+\("
)


# An explorable figure's static drawing, hidden once its script has drawn the
# live one (test_explorables_browser.py checks both).
HIDDEN_STATIC = ".ad-explorable[data-live] > .ad-explorable__static svg"


def check_figures_are_visible_with_a_text_alternative(page, path, lang):
    figures = page.locator(f"article svg.ad-figure:not({HIDDEN_STATIC})")
    if FIGURE_CALL.search(source_of(path, lang).read_text()):
        assert figures.count() > 0
    for i in range(figures.count()):
        figure = figures.nth(i)
        figure.scroll_into_view_if_needed()
        assert figure.is_visible(), i
        box = figure.bounding_box()
        assert box and box["width"] > 50 and box["height"] > 50, i
        assert figure.get_attribute("role") == "img"
        alt = figure.locator("title").first.text_content().strip()
        assert alt, i
        assert bool(CJK.search(alt)) == (lang == "zh"), alt
    images = page.locator("article img")
    for i in range(images.count()):
        assert images.nth(i).evaluate("img => img.naturalWidth") > 0, i


PALETTE = """() => [
  document.body.dataset.mdColorMedia,
  document.body.dataset.mdColorScheme,
  getComputedStyle(document.body).backgroundColor,
]"""


def check_palette_toggle_cycles_automatic_light_dark(page):
    """The toggle goes automatic, light, dark and back; it leaves it automatic."""
    states = [page.evaluate(PALETTE)]
    for _ in range(3):
        page.locator("form[data-md-component=palette] label:visible").click()
        page.wait_for_timeout(100)
        states.append(page.evaluate(PALETTE))
    media = [state[0] for state in states]
    assert media == [
        "(prefers-color-scheme)",
        "(prefers-color-scheme: light)",
        "(prefers-color-scheme: dark)",
        "(prefers-color-scheme)",
    ]
    schemes = [state[1] for state in states]
    assert schemes == ["default", "default", "slate", "default"]  # system is light
    assert states[1][2] != states[2][2]  # the background really changes
    assert page.problems == []


def check_every_code_block_has_a_working_copy_button(page):
    blocks = page.locator("article pre:has(code), article .highlight-ipynb pre")
    buttons = page.locator(
        "article button.md-code__button[data-md-type=copy], article clipboard-copy"
    )
    assert buttons.count() == blocks.count()
    if blocks.count() == 0:
        return
    block = blocks.first
    block.scroll_into_view_if_needed()
    block.hover()
    buttons.first.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == block.inner_text().strip()
    assert page.problems == []


RUN_YOURSELF = """() => {
  const box = document.querySelector(".ad-run-yourself").getBoundingClientRect();
  const article = document.querySelector("article").getBoundingClientRect();
  const buttons = [...document.querySelectorAll(".ad-download, .ad-download-all")]
    .map(button => button.getBoundingClientRect().bottom);
  return {share: box.width / article.width, below: box.top >= Math.max(...buttons)};
}"""


def check_notebook_downloads_as_a_valid_ipynb(page, built_site, lang, tmp_path):
    """The page's download is its notebook, with the page's outputs and links."""
    link = page.locator("a.ad-download")
    assert link.get_attribute("download") is not None
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".ipynb"
    notebook = nbformat.read(saved, as_version=4)
    nbformat.validate(notebook)
    setup, *code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    # First the cell that installs the library (not run by the site's build).
    assert setup.metadata.tags == ["attention-docs-setup"] and not setup.outputs
    imports = re.compile(r"^from attention_docs\S* import", re.M)
    assert any(imports.search(cell.source) for cell in code)
    prose = " ".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert bool(CJK.search(prose)) == (lang == "zh")
    check_downloaded_outputs(code, page)
    check_downloaded_links(prose, lang, built_site)


@both_languages
def test_all_notebooks_download_as_one_zip_per_language(
    page, site_url, built_site, lang, tmp_path
):
    """Every exercise page links its language's zip: the same four notebooks."""
    zips = set()
    for path in NOTEBOOK_PAGES:
        visit(page, site_url, path, lang)
        link = page.locator("a.ad-download-all")
        zips.add(page.evaluate("a => a.href", link.element_handle()))
    assert len(zips) == 1  # the same zip from every exercise page
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    folder = built_site / prefix(lang) / "exercises"
    with zipfile.ZipFile(saved) as archive:
        names = sorted(archive.namelist())
        top = f"attention_docs-exercises-{lang}"
        (wheel,) = (built_site / "dist").glob("*.whl")  # the setup cells install it
        assert names == sorted(
            [f"{top}/{wheel.name}", *(f"{top}/{c}.ipynb" for c in NOTEBOOKS)]
        )
        assert archive.read(f"{top}/{wheel.name}") == wheel.read_bytes()
        names.remove(f"{top}/{wheel.name}")
        for name in names:  # byte for byte the page's own .ipynb download
            stem = Path(name).stem
            assert archive.read(name) == (folder / stem / f"{stem}.ipynb").read_bytes()
            notebook = nbformat.reads(archive.read(name).decode(), as_version=4)
            nbformat.validate(notebook)
            prose = " ".join(
                c.source for c in notebook.cells if c.cell_type == "markdown"
            )
            assert bool(CJK.search(prose)) == (lang == "zh"), name
    assert page.problems == []


def check_downloaded_outputs(code, page):
    """The download carries the outputs the page shows, and no error."""
    assert all(cell.execution_count for cell in code)
    outputs = [output for cell in code for output in cell.outputs]
    assert outputs and not [o for o in outputs if o.output_type == "error"]
    printed = "".join(o.text for o in outputs if o.output_type == "stream")
    shown = "\n".join(page.locator("article .jp-OutputArea-output").all_inner_texts())
    lines = [line.strip() for line in printed.splitlines() if line.strip()]
    assert [line for line in lines if line not in shown] == []


MARKDOWN_LINK = re.compile(r"\]\((\S+?)\)")


def check_downloaded_links(prose, lang, built_site):
    """Links lead to published pages of the notebook's own language edition."""
    targets = MARKDOWN_LINK.findall(prose)
    assert targets
    for target in targets:
        if not target.startswith(SITE_URL):
            assert urlsplit(target).scheme in {"http", "https"}, target
            continue  # another site: references, checked for form only
        path = target.removeprefix(SITE_URL).split("#")[0]
        assert path.startswith("zh/") == (lang == "zh"), target
        assert (built_site / path / "index.html").is_file(), target


SCHEMES = {"light": "default", "dark": "slate"}  # Material's names
SWITCHED = """scheme => document.body.dataset.mdColorScheme === scheme
  && !document.body.hasAttribute("data-md-color-switching")"""
COLOR_SCHEME = "document.querySelector('meta[name=color-scheme]').content"


def prefer_scheme(page, scheme):
    """Have the browser prefer a colour scheme; the page must restyle in it.

    The palette is automatic, as the toggle's cycle left it, so Material
    follows the preference, as it does for a reader who never touched the
    toggle, and turns transitions off while it switches
    (``data-md-color-switching``).
    """
    before = page.evaluate(PALETTE)
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function(SWITCHED, arg=SCHEMES[scheme])
    media, _, background = page.evaluate(PALETTE)
    assert media == "(prefers-color-scheme)"  # still automatic
    assert background != before[2], (scheme, background)  # it really restyled
    # The browser's own parts (scroll bars, form controls) follow it too.
    assert page.evaluate(COLOR_SCHEME) == scheme


def check_no_serious_accessibility_violation(page, only=None):
    """axe-core finds no serious or critical violation on the page as it is.

    ``only``: the rules to run (all that axe runs by default if None).
    """
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    assert page.evaluate(SERIOUS, only) == []


# Every figure text drawn on screen, with the colour it is drawn in and the
# colour behind it: the topmost filled shape of its figure under the text's
# centre that is larger than the text (a box, the axes, the figure's own
# background; not a data marker), blended over the page at its opacity.
FIGURE_COLOURS = """() => {
  const page = getComputedStyle(document.body).backgroundColor;
  const hidden = ".ad-explorable[data-live] > .ad-explorable__static svg";
  const figures = [...document.querySelectorAll("article svg.ad-figure")]
    .filter(svg => !svg.matches(hidden));
  const texts = [], backgrounds = [];
  for (const svg of figures) {
    svg.scrollIntoView({block: "center"});
    const box = svg.getBoundingClientRect();
    const shapes = [...svg.querySelectorAll("path, rect, ellipse, circle, polygon")]
      .filter(s => !s.closest("defs, clipPath") && getComputedStyle(s).fill !== "none");
    const largest = shapes.map(s => [s, s.getBoundingClientRect()])
      .sort((a, b) => b[1].width * b[1].height - a[1].width * a[1].height)[0];
    backgrounds.push(getComputedStyle(largest[0]).fill);
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      if (!r.width || !text.textContent.trim()) continue;
      const under = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2)
        .filter(e => svg.contains(e) && e !== svg && !e.closest("text"))
        .filter(e => getComputedStyle(e).fill !== "none")
        .filter(e => {
          const b = e.getBoundingClientRect();
          return b.width * b.height > 4 * r.width * r.height;
        });
      const style = under.length ? getComputedStyle(under[0]) : null;
      texts.push({
        text: text.textContent.trim(),
        fill: getComputedStyle(text).fill,
        behind: style ? style.fill : page,
        opacity: style ? Number(style.opacity) * Number(style.fillOpacity) : 1,
      });
    }
  }
  const root = getComputedStyle(document.body);
  const data = [0, 1, 2, 3].map(i => root.getPropertyValue(`--ad-c${i}`).trim());
  return {page, texts, backgrounds, data, count: figures.length};
}"""


def css_colour(value):
    """(r, g, b, alpha) in 0..1 from a computed CSS colour or a #rrggbb value."""
    value = value.strip()
    if value.startswith("#"):
        return (*(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5)), 1.0)
    numbers = [float(n) for n in re.findall(r"[\d.]+(?:e-?\d+)?", value)]
    if value.startswith("rgb"):
        *rgb, alpha = [*numbers, 1.0][:4]
        return (*(c / 255 for c in rgb), alpha)
    assert value.startswith("color(srgb"), value
    return tuple([*numbers, 1.0][:4])


def over(top, bottom, opacity=1.0):
    """``top`` painted at its alpha times ``opacity`` over an opaque ``bottom``."""
    alpha = top[3] * opacity
    return tuple(
        alpha * t + (1 - alpha) * b for t, b in zip(top[:3], bottom[:3], strict=True)
    )


def contrast(a, b):
    """WCAG 2 contrast ratio of two opaque colours (r, g, b in 0..1)."""

    def luminance(rgb):
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


FIGURE_PAGES = [
    "",
    *CHAPTERS,
    *(n for n in NOTEBOOK_PAGES if "HTML(figures." in source_of(n, "en").read_text()),
]


def check_figures_take_the_colours_of_the_scheme(page):
    """Figure text at 4.5:1 or more, data colours at 3:1, no white rectangle.

    In the scheme the page is in (the browser's preference, which the site
    follows until the reader picks one).
    """
    found = page.evaluate(FIGURE_COLOURS)
    assert found["count"] > 0 and found["texts"]
    background = css_colour(found["page"])
    for fill in found["backgrounds"]:  # each figure's own background
        drawn = over(css_colour(fill), background)
        assert drawn == pytest.approx(background[:3], abs=1 / 255), fill
    for colour in found["data"]:
        assert contrast(css_colour(colour)[:3], background) >= 3, colour
    for text in found["texts"]:
        behind = over(css_colour(text["behind"]), background, text["opacity"])
        ratio = contrast(over(css_colour(text["fill"]), behind), behind)
        assert ratio >= 4.5, (text, round(ratio, 2))


def search(page, site_url, start, query):
    """Type a query into the search box and return the result paths."""
    page.goto(site_url + start)
    results = search_results(page, query)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    return [urlsplit(href).path for href in hrefs]


@pytest.mark.parametrize(
    ("start", "query", "expected"),
    [
        ("zh/", "注意力汇聚", "/zh/attention-pooling/"),
        ("zh/", "核回归", "/zh/attention-pooling/"),
        ("zh/", "自主性提示", "/zh/attention-cues/"),
        ("zh/", "批量矩阵乘法", "/zh/parametric-attention-pooling/"),
        # terms that both editions use: each edition finds its own page
        ("zh/", "Nadaraya", "/zh/attention-pooling/"),
        ("zh/", "softmax", "/zh/queries-keys-values/"),
        ("", "Nadaraya", "/attention-pooling/"),
        ("", "softmax", "/queries-keys-values/"),
        ("", "salience", "/attention-cues/"),
    ],
)
def test_search_finds_the_page_in_its_own_edition(
    page, site_url, start, query, expected
):
    """Each edition has its own search index: every result is in its language."""
    paths = search(page, site_url, start, query)
    assert SITE_PATH.rstrip("/") + expected in paths, paths
    chinese = [path.startswith(SITE_PATH + "zh/") for path in paths]
    assert all(chinese) if start == "zh/" else not any(chinese), paths
    assert page.foreign_requests == []


# Concepts a student types, in each edition's words: the first hit teaches
# the concept (a chapter or an exercise), and the API reference comes after.
CONCEPTS = {
    "en": ["bandwidth", "Epanechnikov", "softmax", "volitional", "heatmap"],
    "zh": ["带宽", "Epanechnikov", "softmax", "自主性", "热图"],
}


@pytest.mark.parametrize(
    ("lang", "query"),
    [(lang, query) for lang, queries in CONCEPTS.items() for query in queries],
)
def test_search_ranks_the_chapters_before_the_reference(page, site_url, lang, query):
    paths = search(page, site_url, LANGS[lang], query)
    teaching = [
        SITE_PATH + LANGS[lang] + name + "/" for name in [*CHAPTERS, *NOTEBOOK_PAGES]
    ]
    assert paths, query
    assert paths[0] in teaching, paths[:5]
    assert page.foreign_requests == []


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_a_function_s_reference_entry_in_every_edition(
    page, site_url, lang
):
    """The docstrings are English in every edition, and each edition finds them."""
    paths = search(page, site_url, LANGS[lang], "get_kernel")
    assert SITE_PATH + LANGS[lang] + "api/" in paths, paths


def check_language_switch_lands_on_the_counterpart(page, path, lang):
    """The header's language menu leads to the same page in the other edition."""
    other = prefix("en" if lang == "zh" else "zh")
    page.locator(".md-header__option .md-select").hover()
    target = "zh" if lang == "en" else "en"
    page.locator(f'.md-select__link[hreflang="{target}"]').click()
    expected = SITE_PATH + other + path + ("/" if path else "")
    # The page that was open is loaded already, so wait for the address itself:
    # a load-state wait can return before the click has navigated (seen in CI).
    page.wait_for_url(lambda url: urlsplit(url).path == expected)
    page.wait_for_load_state("load")
    assert page.locator("html").get_attribute("lang") == target
    assert page.foreign_requests == []


def test_the_404_page_speaks_both_languages(page, site_url):
    visit(page, site_url, "404.html", "en")
    assert page.problems == [] and page.foreign_requests == []
    text = page.locator("article").inner_text()
    assert "There is no page at this address" in text and "这个地址上没有页面" in text
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    assert page.evaluate(SERIOUS) == []
    # The request is listed as it starts, and fails: no name resolves.
    with page.expect_event("requestfailed", lambda r: r.url == SITE_URL + "zh/"):
        page.get_by_role("link", name="返回中文首页").click()
    # site_url is the published address; here it leads off the test server.
    assert page.foreign_requests == [SITE_URL + "zh/"]
