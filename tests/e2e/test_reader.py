"""What a reader's browser makes of a visit: fonts, style sheets, the policy.

The mechanisms behind benchmarks/reader.py's figures (Lighthouse is not a
test): the math font cut to the formulas draws them as the full font does;
only the API page loads the API's style sheet, and the page's scripts do
not compete with its style sheets; nothing a reader does breaks
the pages' Content-Security-Policy.
"""

from __future__ import annotations

import contextlib
import io
import math
import re

import pytest
from browser import search_results
from helpers import (
    CHAPTERS,
    DEFAULT_FIRST,
    LANGS,
    NOTEBOOK_PAGES,
    REFERENCE_PAGES,
    ROOT,
    SITE_PATH,
)
from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_explorables_browser import instant_page

FULL_FONT = ROOT / "docs" / "assets" / "fonts" / "NotoSansMath-Regular.woff2"
FORMULA_PAGE = "parametric-attention-pooling/"  # the most formulas


# Where each formula lies on the page, to the sub-pixel.
BOXES = """[...document.querySelectorAll("article math")].map((m) => {
  const r = m.getBoundingClientRect();
  return [r.x, r.y + scrollY, r.width, r.height];
})"""


def formulas_drawn(page, url):
    """Each formula's box and screenshot, and the fonts that drew its letters."""
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready.then(() => true)")
    # An explorable that starts changes its height: the boxes come after.
    page.wait_for_selector(NOT_STARTED, state="detached")
    boxes = page.evaluate(BOXES)
    assert len(boxes) > 50
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    tokens = cdp.send(
        "DOM.querySelectorAll",
        {"nodeId": root, "selector": "article math :is(mi, mn, mo)"},
    )["nodeIds"]
    fonts = {
        (font["familyName"], font["isCustomFont"])
        for node in tokens
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    }
    crops = _formula_crops(page, boxes)
    return boxes, fonts, [crop.tobytes() for crop in crops]


def _formula_crops(page, boxes):
    """Each formula's pixels, cut from captures of bands of the page.

    A band at a time (a few screens high, one capture instead of one per
    formula): once, on a loaded CI machine, a capture of the whole page came
    back with a third of its formulas unpainted. A band in which some
    formula has no ink (a single colour: nothing drawn there) is captured
    again, twice at most, after a quarter of a second and then a second.
    (Scrolling to the band does not do: the theme's fixed header is then
    drawn over its top.) The page's coordinates are the capture's pixels, at
    a device scale of 1. The boxes must be measured once the explorables have
    started (:func:`formulas_drawn`): in a clean-clone run, every formula
    below the gradient-descent explorable came back "blank" three times, its
    box measured before the explorable started and grew by 83 px.
    """
    crops = [None] * len(boxes)
    for band in _bands(boxes):
        top = min(math.floor(boxes[i][1]) for i in band)
        bottom = max(math.ceil(boxes[i][1] + boxes[i][3]) for i in band)
        width = page.evaluate("document.documentElement.scrollWidth")
        for attempt in range(3):
            page.evaluate(PAINTED, [0, 250, 1000][attempt])
            capture = Image.open(
                io.BytesIO(
                    page.screenshot(
                        full_page=True,
                        animations="disabled",
                        clip={"x": 0, "y": top, "width": width, "height": bottom - top},
                    )
                )
            )
            for i in band:
                x, y, w, h = boxes[i]
                crops[i] = capture.crop(
                    (
                        math.floor(x),
                        math.floor(y) - top,
                        math.ceil(x + w),
                        math.ceil(y + h) - top,
                    )
                )
            if not any(_blank(crops[i]) for i in band):
                break
    blank = [i for i, crop in enumerate(crops) if _blank(crop)]
    assert blank == [], (
        f"formulas {blank[:5]} are blank in the capture, "
        f"at {[boxes[i] for i in blank[:3]]}"
    )
    return crops


# Wait (milliseconds), then let two frames be painted.
PAINTED = """async (wait) => {
  await new Promise((done) => setTimeout(done, wait));
  for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
}"""


def _bands(boxes, height=2000):
    """The formulas' indices, grouped in bands of the page at most ``height`` high."""
    bands, top = [], None
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        y, h = boxes[i][1], boxes[i][3]
        if top is None or y + h - top > height:
            bands.append([])
            top = y
        bands[-1].append(i)
    return bands


def _blank(crop):
    """Whether a cut of the capture is one colour: no ink drawn there."""
    return all(lo == hi for lo, hi in crop.getextrema())


@pytest.mark.parametrize("lang", LANGS)
def test_formulas_drawn_with_the_cut_font_match_the_full_font(page, site_url, lang):
    url = site_url + LANGS[lang] + FORMULA_PAGE
    cut_boxes, cut_fonts, cut = formulas_drawn(page, url)
    served = []

    def full_font(route):
        served.append(route.request.url)
        route.fulfill(body=FULL_FONT.read_bytes(), content_type="font/woff2")

    page.route("**/NotoSansMath-Regular.woff2", full_font)
    full_boxes, full_fonts, full = formulas_drawn(page, url + "?full-font")
    assert served, "the page did not ask for the math font"
    # Every glyph of every formula comes from the site's font, none from a
    # fallback, and each formula takes the same room to the sub-pixel.
    assert cut_fonts == full_fonts == {("Noto Sans Math", True)}
    moved = [
        i for i, (a, b) in enumerate(zip(cut_boxes, full_boxes, strict=True)) if a != b
    ]
    assert moved == [], [(i, cut_boxes[i], full_boxes[i]) for i in moved[:3]]
    # And pixel for pixel (before the cut kept the italic forms and the
    # radical sign, 107 of the English page's 115 formulas differed).
    different = [i for i, (a, b) in enumerate(zip(cut, full, strict=True)) if a != b]
    assert different == [], f"{len(different)} formulas differ: {different[:5]}"
    assert page.problems == [] and page.foreign_requests == []


# Each change of the root element's classes: before, after, and whether the
# page's body existed then (an observer's records arrive right after the
# script that made them). The observer watches the document, since the root
# element does not exist yet when this runs.
CLASS_CHANGES = """
window.__classChanges = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target !== document.documentElement) continue;
    window.__classChanges.push(
      [record.oldValue, record.target.className, document.body !== null]);
  }
}).observe(document, {
  subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true,
});
"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_knows_it_has_scripts_before_its_body_is_drawn(
    browser, site_url, lang
):
    """The root's class no-js becomes js in the head, not when Material starts.

    Material's style sheet has ".no-js … :nth-child()" rules, so the change
    restyles every element of the page if the body is there: a long chapter's
    2,000, in one task, on a phone's slow CPU.
    """
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(CLASS_CHANGES)
    page.goto(site_url + LANGS[lang] + "parametric-attention-pooling/")
    page.wait_for_load_state("networkidle")
    changes = page.evaluate("window.__classChanges")
    context.close()

    def scripting(classes):  # the classes Material's style sheet tells apart
        return set(classes.split()) & {"no-js", "js"}

    # Records arrive in batches, and className is read as they arrive: each
    # change's own result is the next one's value before.
    changes = [
        [old, after[0], body]
        for (old, _, body), after in zip(
            changes, [*changes[1:], changes[-1][1:]], strict=True
        )
    ]
    old, new, body = changes[0]
    assert (old, scripting(new), body) == ("no-js", {"js"}, False), changes
    later = [c for c in changes[1:] if scripting(c[0]) != scripting(c[1])]
    assert later == [], changes
    # The bundle's focus-visible polyfill adds a class of its own: it is there
    # before the body too, and the bundle's adding it changes nothing.
    added = [
        c
        for c in changes
        if "js-focus-visible" in c[1].split() and "js-focus-visible" not in c[0].split()
    ]
    assert [c[2] for c in added] == [False], changes


# Every change to an attribute of the root or the body once the body exists:
# the element, the attribute, its value before and after.
ROOT_CHANGES = """
window.__rootChanges = [];
new MutationObserver((records) => {
  for (const record of records) {
    const target = record.target;
    if (target !== document.documentElement && target !== document.body) continue;
    if (document.body === null) continue;
    window.__rootChanges.push([target.localName, record.attributeName,
      record.oldValue, target.getAttribute(record.attributeName)]);
  }
}).observe(document, { subtree: true, attributes: true, attributeOldValue: true });
"""

# Every style rule's selector, in every style sheet of the page.
SELECTORS = """(() => {
  const selectors = [];
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.selectorText) selectors.push(rule.selectorText);
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return selectors;
})()"""

# The last compound of a selector matches any element: "*", "*::before",
# ":after". A rule keyed on an ancestor's attribute with such a subject makes
# a change of that attribute restyle the whole subtree.
ANY_ELEMENT = re.compile(r"(?:^|[\s>])\*?(?:::?[\w-]+(?:\([^)]*\))?)*$")


def keyed_on(selector: str, name: str, kind: str) -> bool:
    """Whether an ancestor compound of the selector mentions the attribute or class."""
    ancestors = re.split(r"[\s>+~]+", selector.strip())[:-1]
    token = re.compile(
        rf"\[{re.escape(name)}(?:[~|^$*]?=[^\]]*)?\]"
        if kind == "attribute"
        else rf"\.{re.escape(name)}(?![\w-])"
    )
    return any(token.search(compound) for compound in ancestors)


def whole_page_restyles(changes, selectors):
    """The changes that a rule turns into a restyle of every element below."""
    found = []
    for element, attribute, old, new in changes:
        if attribute == "class":
            before, after = set((old or "").split()), set((new or "").split())
            names = [(c, "class") for c in before ^ after]
        else:
            names = [(attribute, "attribute")]
        for name, kind in names:
            for selector in selectors:
                for one in selector.split(","):
                    if ANY_ELEMENT.search(one.strip()) and keyed_on(one, name, kind):
                        found.append((element, name, one.strip()))
    return found


def test_the_rule_finder_finds_the_theme_s_switching_rule():
    rule = "[data-md-color-switching] *, [data-md-color-switching] ::after"
    changes = [["body", "data-md-color-switching", None, ""]]
    assert len(whole_page_restyles(changes, [rule])) == 2
    assert whole_page_restyles(changes, ["[data-md-color-switching] .md-header"]) == []
    classes = [["html", "class", "js", "js js-focus-visible"]]
    assert whole_page_restyles(classes, [".no-js *", ".js-focus-visible a"]) == []
    assert whole_page_restyles(classes, [".js-focus-visible > *"]) != []


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_the_page_does_as_it_starts_restyles_every_element(
    browser, site_url, lang
):
    """No start-up change to the root or the body meets a rule on every element.

    But one: Material's palette sets data-md-color-switching on the body on
    every load and takes it away a task later, and its rule
    "[data-md-color-switching] *" restyles the whole page each time. The site
    dropped that rule until the reader benchmark could not tell its gain from
    noise (benchmarks/reaches.py: 10 ms of blocking time against a noise of
    13 ms); the change is left out here.
    """
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(ROOT_CHANGES)
    page.goto(site_url + LANGS[lang] + "parametric-attention-pooling/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the palette takes its attribute away a task later
    changes = page.evaluate("window.__rootChanges")
    selectors = page.evaluate(SELECTORS)
    context.close()
    assert any(change[1] == "data-md-color-switching" for change in changes), changes
    changes = [change for change in changes if change[1] != "data-md-color-switching"]
    assert changes, "no other start-up change to check"
    assert len(selectors) > 1000
    assert whole_page_restyles(changes, selectors) == []


# The page's components Material has mounted when its document$ has started
# the page: its DOMContentLoaded listener, on the document, has run; this one,
# on the window, runs right after it, in the same task.
AT_START = """window.addEventListener("DOMContentLoaded", () => {
  window.__atStart = document.querySelectorAll(".md-code__button").length;
});"""
COPY_BUTTONS = "document.querySelectorAll('.md-code__button').length"
CODE_BLOCKS = "document.querySelectorAll('article pre > code').length"


@pytest.mark.parametrize("lang", LANGS)
def test_the_theme_mounts_the_page_s_components_after_its_start(
    browser, site_url, lang
):
    """Each in a task of its own (upstream.material_bundle), not in its start.

    Unedited, Material mounts every component while document$ starts the
    page: on a long chapter, one task that blocks a phone for a quarter of a
    second (benchmarks/reader.py). The copy buttons stand for the others.
    """
    page, url = instant_page(browser, site_url)
    page.add_init_script(AT_START)
    page.goto(url + LANGS[lang] + "parametric-attention-pooling/")
    page.wait_for_load_state("networkidle")
    at_start, blocks = page.evaluate("window.__atStart"), page.evaluate(CODE_BLOCKS)
    assert blocks > 0 and at_start == 0
    assert page.evaluate(COPY_BUTTONS) == blocks
    # Instant navigation to the chapter before mounts that page's components.
    page.evaluate("window.sameDocument = true")
    heading = page.locator("article h1").element_handle()
    page.locator("a.md-footer__link--prev").click()
    page.wait_for_url("**/attention-pooling/")
    # The address changes first; wait for the new page's content.
    heading.wait_for_element_state("hidden")  # detached with the old page
    blocks = page.evaluate(CODE_BLOCKS)
    # No wait_for_function: the page's policy forbids evaluating strings.
    page.wait_for_selector(f".md-code__button >> nth={blocks - 1}", state="attached")
    assert page.evaluate(COPY_BUTTONS) == blocks > 0
    assert page.evaluate("window.sameDocument === true")
    assert page.problems == []


# Each <meta name="color-scheme"> added or changed, and whether the page's
# body existed when the observer heard of it.
SCHEME_METAS = """window.__schemes = [];
new MutationObserver((records) => {
  for (const record of records) {
    const nodes = record.type === "attributes" ? [record.target] : record.addedNodes;
    for (const node of nodes)
      if (node.nodeName === "META" && node.name === "color-scheme")
        window.__schemes.push([node.content, document.body !== null]);
  }
}).observe(document, { subtree: true, childList: true, attributes: true });"""
HEADER_SCHEME = "getComputedStyle(document.querySelector('.md-header')).colorScheme"


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_colour_scheme_is_set_before_the_body_and_follows_the_palette(
    browser, site_url, lang, system
):
    """Added or changed, it restyles every element: only before the body exists.

    Material's palette adds its own as it starts and sets it once it has read
    the header's style (attention_docs_site.upstream.material_bundle).
    """
    context = browser.new_context(color_scheme=system, bypass_csp=True)
    page = context.new_page()
    page.add_init_script(SCHEME_METAS)
    page.goto(site_url + LANGS[lang] + "parametric-attention-pooling/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the palette's start, a few tasks on
    assert page.evaluate("window.__schemes") == [[system, False]]
    assert page.evaluate(HEADER_SCHEME) == system
    assert page.locator("meta[name=color-scheme]").count() == 1
    # The reader picks the other scheme: the element follows, and the next
    # page, which reads the stored choice, starts with it.
    toggle = page.locator("form[data-md-component=palette] label:visible")
    other = "dark" if system == "light" else "light"
    for _ in range(3):  # automatic, light, dark
        if page.evaluate(HEADER_SCHEME) == other:
            break
        toggle.click()
    page.wait_for_function(
        f"document.querySelector('meta[name=color-scheme]').content === {other!r}"
    )
    page.goto(site_url + LANGS[lang] + "attention-pooling/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    schemes, header = page.evaluate("window.__schemes"), page.evaluate(HEADER_SCHEME)
    context.close()
    assert (schemes, header) == ([[other, False]], other)


TRANSITIONS = """document.getAnimations()
  .filter((a) => a instanceof CSSTransition)
  .map((a) => `${a.effect.target.localName} ${a.transitionProperty}`)"""


# Every transition that starts from now on.
FADES = """() => {
  window.__fades = [];
  document.addEventListener("transitionstart", (event) =>
    window.__fades.push(`${event.target.localName} ${event.propertyName}`));
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_switching_the_palette_changes_colours_at_once(browser, site_url, lang):
    """By the reader's toggle or the system's scheme: no colour fades in."""
    context = browser.new_context(color_scheme="light", bypass_csp=True)
    page = context.new_page()
    page.goto(site_url + LANGS[lang] + "attention-pooling/")
    page.wait_for_load_state("networkidle")
    toggle = page.locator("form[data-md-component=palette] label:visible")
    toggle.click()  # automatic to light: the colours stay
    page.wait_for_function("document.body.dataset.mdColorMedia.endsWith('light)')")
    seen = {}
    switches = [("dark", "slate"), ("automatic", "default"), ("system", "slate")]
    for switch, scheme in switches:
        if switch == "system":  # on automatic, the system turns dark
            page.emulate_media(color_scheme="dark")
        else:
            toggle.click()
        page.wait_for_function(f"document.body.dataset.mdColorScheme === {scheme!r}")
        seen[switch] = page.evaluate(TRANSITIONS)
        # The palette's attribute goes once the new colours are drawn; hovers
        # fade again.
        page.wait_for_function("!document.body.hasAttribute('data-md-color-switching')")
    # The hover's transition, caught as it starts: read at once after the
    # hover, a busy machine had not yet started it (or had ended it).
    page.evaluate(FADES)
    page.locator("article a[href]").first.hover()
    with contextlib.suppress(PlaywrightTimeout):  # none: the assertion says so
        page.wait_for_function("window.__fades.length > 0", timeout=5_000)
    fades = page.evaluate("window.__fades")
    context.close()
    assert seen == {"dark": [], "automatic": [], "system": []}, seen
    assert fades, "a link's colour no longer fades on hover: transitions stay off"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["attention-pooling/", "api/"])
def test_only_the_api_page_loads_the_api_style_sheet(page, site_url, lang, path):
    page.goto(site_url + LANGS[lang] + path)
    sheets = page.evaluate(
        "[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href)"
    )
    api = [sheet for sheet in sheets if "mkdocstrings" in sheet]
    assert bool(api) == (path == "api/"), sheets
    assert all(sheet.startswith(site_url) or SITE_PATH in sheet for sheet in sheets)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "path", ["", "attention-pooling/", "exercises/attention-cues/"]
)
def test_the_page_s_own_scripts_are_fetched_at_low_priority(page, site_url, lang, path):
    """Only the page and its style sheets are fetched as render-blocking.

    Lighthouse's simulated first paint counts a script fetched at high
    priority as blocking it; a module script is fetched so unless told.
    """
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    fetched = {}  # url: (resource type, first priority, what asked for it)
    cdp.on(
        "Network.requestWillBeSent",
        lambda event: fetched.setdefault(
            event["request"]["url"],
            (
                event.get("type"),
                event["request"]["initialPriority"],
                event["initiator"]["type"],
            ),
        ),
    )
    page.goto(site_url + LANGS[lang] + path, wait_until="load")
    scripts = {url: p for url, (kind, p, _) in fetched.items() if kind == "Script"}
    assert any(url.endswith("/assets/explorables.js") for url in scripts), scripts
    assert {url: p for url, p in scripts.items() if p not in ("Low", "VeryLow")} == {}
    # What the HTML itself asks for at the highest priority.
    blocking = {
        url: kind
        for url, (kind, p, initiator) in fetched.items()
        if p == "VeryHigh" and initiator in ("parser", "other")
    }
    assert set(blocking.values()) == {"Document", "Stylesheet"}, blocking


# Every violation of the page's security policy, as the browser reports it.
VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(
    `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ` +
    `${e.sourceFile}:${e.lineNumber}`));
"""
PAGES = [
    "",
    *(f"{page}/" for page in [*CHAPTERS, *NOTEBOOK_PAGES, *REFERENCE_PAGES]),
]


def policy_of(page):
    return page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute(
        "content"
    )


@pytest.mark.parametrize("lang", DEFAULT_FIRST)  # the Chinese walk: release
def test_nothing_a_reader_does_breaks_the_security_policy(browser, site_url, lang):
    """Every page, a slider of every explorable, a search, instant navigation.

    The editions share their scripts and policy (one for the site); the
    release tier walks the Chinese one too.
    """
    page, url = instant_page(browser, site_url)
    page.add_init_script(VIOLATIONS)
    policies = set()
    for path in [*(LANGS[lang] + path for path in PAGES), "404.html"]:
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        policies.add(policy_of(page))
        sliders = page.locator(".ad-explorable[data-live] input[type=range]")
        for i in range(sliders.count()):
            sliders.nth(i).focus()
            page.keyboard.press("ArrowRight")
        assert page.evaluate("window.__violations") == [], path
    (policy,) = policies  # one policy for the whole site
    scripts = next(d for d in policy.split("; ") if d.startswith("script-src"))
    assert "'self'" in scripts and "unsafe" not in scripts, policy
    assert "object-src 'none'" in policy and "base-uri 'self'" in policy
    # A search, then the chapters in turn by instant navigation (one document).
    page.goto(url + LANGS[lang] + CHAPTERS[0] + "/")
    assert search_results(page, "softmax").count() > 0
    page.keyboard.press("Escape")
    page.evaluate("window.sameDocument = true")
    for chapter in CHAPTERS[1:]:
        # The next page's link, once Material has swapped the footer in: the
        # address can change before the content does, and the link of the
        # page before leads back to where the reader is.
        page.locator(f'a.md-footer__link--next[href$="/{chapter}/"]').click()
        page.wait_for_url(f"**/{chapter}/")
        page.wait_for_load_state("networkidle")
    assert page.evaluate("window.sameDocument === true")  # no reload
    assert page.evaluate("window.__violations") == []
    assert sorted(set(page.problems)) == [], page.problems[:3]


# Every layout shift of the page, with what moved.
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const shift of list.getEntries()) {
    if (shift.hadRecentInput) continue;
    const moved = (shift.sources || []).map((source) =>
      source.node ? `${source.node.nodeName} «${(source.node.textContent || "")
        .trim().slice(0, 50)}»` : "?");
    window.__shifts.push([shift.value, moved.join(", ")]);
  }
}).observe({ type: "layout-shift", buffered: true });
"""


# The page's first paint waits for its HTML to be parsed, as it does on an idle
# machine, where the cached page is parsed before the first frame. On a busy
# one the parser yields mid-page and the browser paints what it has: the
# chapter's first display formula, half parsed, centred (x = 103, 183 px
# wide), then whole a frame later (x = 16, 358 px): a shift of 0.0056 to
# 0.0100 by itself. A link rel=expect for an element no page has, blocking
# rendering, holds the paint until the parser ends; it must be in the head
# before the body exists.
PARSED_BEFORE_PAINT = """
new MutationObserver((records, observer) => {
  if (!document.head) return;
  observer.disconnect();
  const expect = document.createElement("link");
  Object.assign(expect, { rel: "expect", href: "#ad-parsed" });
  expect.setAttribute("blocking", "render");
  document.head.append(expect);
}).observe(document, { childList: true, subtree: true });
"""
# Whether the page's first paint came once its HTML was parsed.
PAINTED_PARSED = """performance.getEntriesByName("first-paint")[0].startTime
  >= performance.getEntriesByType("navigation")[0].domInteractive"""
# The explorables waiting to start (when the browser is idle, or near the screen).
NOT_STARTED = ".ad-explorable:not([data-live])"


# Scroll down by most of a screen at a time, three frames apart, to the end.
READ_TO_THE_END = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  for (let step = 0; step < 400; step++) {
    const end = document.documentElement.scrollHeight - innerHeight;
    if (scrollY >= end - 1) return step;
    scrollBy(0, innerHeight * 0.8);
    for (let i = 0; i < 3; i++) await frame();
  }
  throw new Error("the page did not end within 400 screens");
}"""


# Each figure's box on the page, and whether the browser has drawn it yet.
FIGURE_BOXES = """[...document.querySelectorAll("article svg.ad-figure")]
  .filter((svg) => svg.checkVisibility())
  .map((svg) => {
    const r = svg.getBoundingClientRect();
    return [r.x, r.y + scrollY, r.width, r.height];
  })"""
# The figures three screens or more below the first, and those of them skipped
# (the explorables' live drawings aside: scripts draw those).
SKIPPED = """async () => {
  for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
  const figures = "article svg.ad-figure:not(.ad-explorable__live svg)";
  const far = [...document.querySelectorAll(figures)].filter((svg) =>
    svg.checkVisibility() && svg.getBoundingClientRect().top > 3 * innerHeight);
  const skipped = far.filter((svg) =>
    !svg.lastElementChild.checkVisibility({contentVisibilityAuto: true}));
  return [far.length, skipped.length];
}"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["", *(f"{chapter}/" for chapter in CHAPTERS)])
def test_nothing_moves_after_the_first_paint(browser, site_url, lang, path, width):
    """The layout shift of a visit, read to the end, stays at 0.01 or below;
    figures far from the screen are skipped, in a box of their shape.

    What the page itself moves: the annotations, the explorables (started
    when the browser is idle), the figures. The visit is measured as an idle
    machine makes it, so that a loaded test machine's timing does not count:
    with the page's files in the browser's cache (the preloaded math font
    delivered after the first paint would lay the formulas out again), its
    first paint after its HTML is parsed (PARSED_BEFORE_PAINT), and the
    reading once its explorables have started. A first visit over a phone's
    network is Lighthouse's to measure (benchmarks/reader.py: 0.003 at most).

    The figures' boxes are measured once the explorables have started too: the
    script replaces an explorable's static drawing by its live figure, in a
    box of another height (gradient descent: 339 px, then 422 px at 1280 px
    wide), so a start between the two readings, late on a busy machine,
    moved every figure below it. Each box is read before the reader scrolls
    the figure into view (site.css skips drawing it) and after.
    """
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(site_url + LANGS[lang] + path)  # fills the cache
    page.wait_for_load_state("networkidle")
    page.add_init_script(SHIFTS)
    page.add_init_script(PARSED_BEFORE_PAINT)
    page.goto(site_url + LANGS[lang] + path + "?measured")
    page.wait_for_load_state("networkidle")
    assert page.evaluate(PAINTED_PARSED)
    page.wait_for_selector(NOT_STARTED, state="detached")
    far, skipped = page.evaluate(SKIPPED)
    before = page.evaluate(FIGURE_BOXES)
    # Then read to the end: what the page draws as the reader scrolls must
    # not push what is on it.
    page.evaluate(READ_TO_THE_END)
    shifts = page.evaluate("window.__shifts")
    after = page.evaluate(FIGURE_BOXES)
    context.close()
    total = sum(value for value, _ in shifts)
    assert total <= 0.01, [(round(v, 4), moved) for v, moved in shifts]
    assert skipped == far  # the page skips the figures it has not shown yet
    # Every chapter but the first has figures three screens below the top.
    assert bool(far) == (path not in ("", "attention-cues/")), far
    assert before == after
