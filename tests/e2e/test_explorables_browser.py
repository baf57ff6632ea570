"""The explorable figures in a real browser: the numbers drawn are the library's.

Each control is set, by the DOM or by the keyboard, to every reference setting
the library computed; the values the script drew (its data-* attributes, not
pixels) must equal the library's to 1e-9. The expected values come from the
library called here, not from the page. Screenshots of each figure at two
settings are saved under ``test-artifacts/screenshots/explorables/``.
"""

import math
from urllib.parse import urlsplit

import numpy as np
import pytest
from browser import AXE, prefix, visit
from helpers import LANGS, ROOT

from attention_docs import figures, nadaraya_watson
from attention_docs.bandwidth import loo_cv_error
from attention_docs.figures import explorables
from attention_docs.scores import soft_lookup

SHOTS = ROOT / "test-artifacts" / "screenshots" / "explorables"
TOLERANCE = 1e-9
PAGES = {
    "nadaraya-watson": "attention-pooling",
    "soft-lookup": "queries-keys-values",
    "gradient-descent": "parametric-attention-pooling",
    "saturation": "attention-layer",
}

SET = """(input, value) => {
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return input.value;
}"""


def open_figure(page, site_url, kind, lang):
    visit(page, site_url, PAGES[kind] + "/", lang)
    figure = page.locator(f'.ad-explorable[data-explorable="{kind}"]')
    assert figure.count() == 1
    assert figure.get_attribute("data-live") is not None
    assert figure.locator(".ad-explorable__static").is_hidden()
    live = figure.locator(".ad-explorable__live svg")
    live.scroll_into_view_if_needed()
    assert live.is_visible() and live.get_attribute("role") == "img"
    return figure


def set_input(figure, label, value):
    """Set a control found by its label's text, as a reader's input would."""
    control = figure.get_by_label(label, exact=True)
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(str(value))
    else:
        written = f"{value:g}" if isinstance(value, float) else str(value)
        assert control.evaluate(SET, written) == written, (label, value)


def numbers(figure, selector, attribute):
    found = figure.locator(selector).evaluate_all(
        f"(nodes) => nodes.map(n => n.getAttribute('{attribute}'))"
    )
    return np.array([float(v) for text in found for v in text.split()])


def state(figure):
    """What a reader sees change: the readout, the text alternative, the drawing."""
    return (
        figure.locator(".ad-explorable__readout").text_content(),
        figure.locator(".ad-explorable__live svg > title").text_content(),
        figure.locator(".ad-explorable__live svg").inner_html(),
    )


def check_changes(figure, label, value):
    before = state(figure)
    set_input(figure, label, value)
    after = state(figure)
    assert all(a != b for a, b in zip(before, after, strict=True)), label


def press(page, figure, label, key):
    """Move a control with the keyboard only; the live region must announce it."""
    control = figure.get_by_label(label, exact=True)
    control.focus()
    assert page.evaluate("document.activeElement.closest('.ad-explorable') !== null")
    before = figure.locator("[aria-live=polite]").text_content()
    value = control.input_value()
    page.keyboard.press(key)
    assert control.input_value() != value, (label, key)
    assert figure.locator("[aria-live=polite]").text_content() != before, label


def check_clean(page, figure):
    """No problem, no other host, and axe-core finds nothing serious in the figure."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async (root) => (await axe.run(root, {resultTypes: ["violations"]}))
          .violations.filter(v => ["serious", "critical"].includes(v.impact))
          .map(v => v.id)""",
        figure.element_handle(),
    )
    assert found == []
    assert page.problems == [] and page.foreign_requests == []


def check_print(page, figure):
    """In print the static drawing shows and the live figure does not."""
    page.emulate_media(media="print")
    assert figure.locator(".ad-explorable__static svg").is_visible()
    assert figure.locator(".ad-explorable__live").is_hidden()
    page.emulate_media(media="screen")


def shot(figure, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    figure.screenshot(path=SHOTS / f"{name}.png")


def text(data, key):
    return data["text"][key]


@pytest.mark.parametrize("lang", LANGS)
def test_nadaraya_watson_draws_the_librarys_numbers(page, site_url, lang):
    explorable = figures.nadaraya_watson_explorer(lang)
    data = explorable.data
    figure = open_figure(page, site_url, "nadaraya-watson", lang)
    kernel, h, query = (text(data, f"ex_{k}") for k in ("kernel", "bandwidth", "query"))
    for index, reference in enumerate(explorable.references):
        set_input(figure, kernel, reference["kernel"])
        set_input(figure, h, reference["bandwidth"])
        set_input(figure, query, reference["query"])
        weights = numbers(figure, ".ad-weight", "data-weight")
        np.testing.assert_allclose(
            weights, reference["weights"], atol=TOLERANCE, rtol=0
        )
        assert weights.sum() == pytest.approx(1, abs=1e-12)
        curve = numbers(figure, ".ad-curve", "data-values")
        np.testing.assert_allclose(curve, reference["curve"], atol=TOLERANCE, rtol=0)
        prediction = numbers(figure, ".ad-prediction", "data-value")
        assert prediction == pytest.approx([reference["prediction"]], abs=TOLERANCE)
        readout = figure.locator("[aria-live=polite]").text_content()
        assert f"{reference['prediction']:.3f}".replace("-", "\u2212") in readout
        if index in (0, len(explorable.references) - 1):
            shot(figure, f"{lang}-nadaraya-watson-{index}")
    for label, value in ((kernel, "epanechnikov"), (h, 0.3), (query, 2.0)):
        check_changes(figure, label, value)
    check_nadaraya_watson_drag_and_keys(page, figure, data)
    check_print(page, figure)
    check_clean(page, figure)


def check_nadaraya_watson_drag_and_keys(page, figure, data):
    """Dragging moves the query; the keyboard alone works every control."""
    for key in ("kernel", "bandwidth", "query"):
        set_input(figure, text(data, f"ex_{key}"), data["default"][key])
    slider = figure.get_by_label(text(data, "ex_query"), exact=True)
    start = float(slider.input_value())
    box = figure.locator(".ad-query-line").bounding_box()
    page.mouse.move(box["x"], box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 120, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    moved = float(slider.input_value())
    assert moved > start
    expected, weights = nadaraya_watson(
        data["keys"], data["values"], [moved], kernel="gaussian", bandwidth=0.5
    )
    drawn = numbers(figure, ".ad-weight", "data-weight")
    np.testing.assert_allclose(drawn, weights[0], atol=TOLERANCE, rtol=0)
    assert drawn.sum() == pytest.approx(1, abs=1e-12)
    assert numbers(figure, ".ad-prediction", "data-value")[0] == pytest.approx(
        expected[0], abs=TOLERANCE
    )
    press(page, figure, text(data, "ex_query"), "ArrowRight")
    assert float(slider.input_value()) == pytest.approx(moved + 0.05)
    valuetext = slider.get_attribute("aria-valuetext")
    assert valuetext == f"x = {moved + 0.05:.2f}"
    press(page, figure, text(data, "ex_bandwidth"), "ArrowLeft")
    press(page, figure, text(data, "ex_kernel"), "ArrowDown")


@pytest.mark.parametrize("lang", LANGS)
def test_soft_lookup_draws_the_librarys_numbers_and_its_limits(page, site_url, lang):
    explorable = figures.soft_lookup_explorer(lang)
    data = explorable.data
    figure = open_figure(page, site_url, "soft-lookup", lang)
    score, temperature, q1, q2 = (
        text(data, f"ex_{k}") for k in ("score", "temperature", "q1", "q2")
    )
    steps = data["steps"]
    for index, reference in enumerate(explorable.references):
        set_input(figure, score, reference["score"])
        set_input(figure, temperature, reference["step"])
        set_input(figure, q1, reference["query"][0])
        set_input(figure, q2, reference["query"][1])
        weights = numbers(figure, ".ad-bar", "data-weight")
        np.testing.assert_allclose(
            weights, reference["weights"], atol=TOLERANCE, rtol=0
        )
        assert weights.sum() == pytest.approx(1, abs=1e-12)
        output = numbers(figure, ".ad-output", "data-value")
        assert output == pytest.approx([reference["output"]], abs=TOLERANCE)
        t = explorables.lookup_temperature(reference["step"])
        if t == 0:  # the lookup: one key takes all
            assert sorted(weights)[-1] == 1 and sorted(weights)[-2] == 0
        if math.isinf(t):  # the average of the values
            assert list(weights) == [0.2] * 5
            assert output[0] == pytest.approx(np.mean(data["values"]), abs=1e-12)
        readout = figure.locator("[aria-live=polite]").text_content()
        assert all(f"{w:.3f}" in readout for w in reference["weights"])
        # Each listed weight isolated: in a right-to-left edition the list reads
        # in the sentence's direction.
        assert (
            readout.count("\u2068")
            == readout.count("\u2069")
            == len(reference["weights"])
        )
        if index in (0, 1):
            shot(figure, f"{lang}-soft-lookup-{index}")
    set_input(figure, temperature, 0)
    for label, value in ((score, "negative_squared_distance"), (temperature, 2)):
        check_changes(figure, label, value)
    for label, value in ((q1, -1.0), (q2, 1.5)):
        check_changes(figure, label, value)

    ends = {-steps - 1: "ex_t_zero", steps + 1: "ex_t_inf"}
    slider = figure.get_by_label(temperature, exact=True)
    for step, key in ends.items():
        set_input(figure, temperature, step)
        assert slider.get_attribute("aria-valuetext") == text(data, key)
    check_soft_lookup_drag_and_keys(page, figure, data)
    check_print(page, figure)
    check_clean(page, figure)


def check_soft_lookup_drag_and_keys(page, figure, data):
    """A click on the plane moves the query; the keyboard alone works every control."""
    set_input(figure, text(data, "ex_score"), data["default"]["score"])
    set_input(figure, text(data, "ex_temperature"), data["default"]["step"])
    q1 = figure.get_by_label(text(data, "ex_q1"), exact=True)
    q2 = figure.get_by_label(text(data, "ex_q2"), exact=True)
    area = figure.locator(".ad-drag-area").bounding_box()
    page.mouse.click(area["x"] + area["width"] * 0.2, area["y"] + area["height"] * 0.8)
    query = (float(q1.input_value()), float(q2.input_value()))
    assert query[0] < -1 and query[1] < -1  # lower left of the plane
    outputs, weights = soft_lookup(
        [query],
        data["keys"],
        data["values"],
        score="dot_product",
        temperature=1.0,
    )
    drawn = numbers(figure, ".ad-bar", "data-weight")
    np.testing.assert_allclose(drawn, weights[0], atol=TOLERANCE, rtol=0)
    for key in ("ex_q1", "ex_q2", "ex_temperature", "ex_score"):
        press(page, figure, text(data, key), "ArrowDown")


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_descent_steps_through_the_trained_models_iterates(
    page, site_url, lang
):
    explorable = figures.gradient_descent_explorer(lang)
    data = explorable.data
    figure = open_figure(page, site_url, "gradient-descent", lang)
    run, step = text(data, "ex_run"), text(data, "ex_step")
    for index, reference in enumerate(explorable.references):
        set_input(figure, run, reference["run"])
        set_input(figure, step, reference["step"])
        fit = numbers(figure, ".ad-curve", "data-values")
        np.testing.assert_allclose(fit, reference["fit"], atol=TOLERANCE, rtol=0)
        h = numbers(figure, ".ad-iterate", "data-h")
        assert h == pytest.approx([reference["bandwidth"]], rel=1e-15)
        # The training loss the script draws is n·CV(1/|w|); the model's own
        # losses come from torch, an independent computation.
        recipe = explorables.GD_RECIPES[reference["run"]]
        losses = numbers(figure, ".ad-losses", "data-values")
        model = figures.trained(**recipe).losses
        np.testing.assert_allclose(losses, model, atol=TOLERANCE, rtol=0)
        if index in (0, 3):
            shot(figure, f"{lang}-gradient-descent-{index}")
    bandwidths = numbers(figure, ".ad-cv", "data-bandwidths")
    np.testing.assert_allclose(bandwidths, np.geomspace(*figures.CV_GRID), rtol=1e-12)
    expected = loo_cv_error(data["keys"], data["values"], bandwidths)
    drawn = numbers(figure, ".ad-cv", "data-values")
    np.testing.assert_allclose(drawn, expected, atol=TOLERANCE, rtol=0)
    check_changes(figure, run, 0)
    check_changes(figure, step, 3)
    next_button = figure.get_by_role("button", name=text(data, "ex_next"))
    next_button.focus()
    before = figure.locator("[aria-live=polite]").text_content()
    page.keyboard.press("Enter")
    assert figure.get_by_label(step, exact=True).input_value() == "4"
    assert figure.locator("[aria-live=polite]").text_content() != before
    page.keyboard.press("Enter")  # to the last step: the button is disabled,
    assert next_button.is_disabled()  # and the focus goes to the slider
    assert page.evaluate("document.activeElement.type") == "range"
    press(page, figure, step, "ArrowLeft")
    press(page, figure, run, "ArrowDown")  # to the slow run
    check_print(page, figure)
    check_clean(page, figure)


@pytest.mark.parametrize("lang", LANGS)
def test_saturation_draws_the_library_s_weights_as_d_and_c_move(page, site_url, lang):
    explorable = figures.saturation_explorer(lang)
    data = explorable.data
    figure = open_figure(page, site_url, "saturation", lang)
    scale, dim, c = (text(data, f"ex_sat_{k}") for k in ("scale", "d", "c"))
    for index, reference in enumerate(explorable.references):
        set_input(figure, scale, "scaled" if reference["scaled"] else "raw")
        set_input(figure, dim, data["dimensions"].index(reference["d"]))
        set_input(figure, c, reference["step"])
        weights = numbers(figure, ".ad-bar", "data-weight")
        np.testing.assert_allclose(
            weights, reference["weights"], atol=TOLERANCE, rtol=0
        )
        assert numbers(figure, ".ad-this", "data-value") == pytest.approx(
            [reference["top"]], abs=TOLERANCE
        )
        assert numbers(figure, ".ad-this", "data-jacobian") == pytest.approx(
            [reference["jacobian"]], abs=TOLERANCE
        )
        readout = figure.locator("[aria-live=polite]").text_content()
        assert f"d = {reference['d']}" in readout
        assert f"{reference['top']:.3f}" in readout
        if index in (0, 1):
            shot(figure, f"{lang}-saturation-{index}")
    set_input(figure, scale, "raw")
    for label, value in ((scale, "scaled"), (dim, 3), (c, 4)):
        check_changes(figure, label, value)
    for key in ("ex_sat_d", "ex_sat_c"):
        press(page, figure, text(data, key), "ArrowDown")
    press(page, figure, scale, "ArrowUp")  # from q·k / √d, the last option
    check_print(page, figure)
    check_clean(page, figure)


def instant_page(browser, site_url):
    """A page of the site at a default-port address, served by the test server.

    Material's instant navigation takes only links its sitemap lists, and maps
    the sitemap's addresses to the page's protocol and host but not its port.
    At 127.0.0.1:<port> it would reload every page, so the site is shown at
    http://docs.test/ and each request is answered from the test server.
    """
    local = urlsplit(site_url)
    context = browser.new_context()
    page = context.new_page()
    page.problems = []

    def route(route):
        url = urlsplit(route.request.url)
        if url.netloc != "docs.test":
            page.problems.append(f"request to another host: {route.request.url}")
            return route.abort()
        served = url._replace(scheme=local.scheme, netloc=local.netloc).geturl()
        return route.fulfill(response=route.fetch(url=served))

    page.route("**/*", route)
    page.on("pageerror", lambda error: page.problems.append(f"exception: {error}"))
    page.on(
        "console",
        lambda m: m.type == "error" and page.problems.append(f"console: {m.text}"),
    )
    return page, urlsplit(site_url)._replace(netloc="docs.test").geturl()


@pytest.mark.parametrize("lang", LANGS)
def test_figures_work_after_instant_navigation_away_and_back(browser, site_url, lang):
    data = figures.nadaraya_watson_explorer(lang).data
    page, url = instant_page(browser, site_url)
    open_figure(page, url, "nadaraya-watson", lang)
    page.evaluate("window.sameDocument = true")
    page.locator("a.md-footer__link--prev").click()  # the chapter before
    page.wait_for_selector('.ad-explorable[data-explorable="soft-lookup"][data-live]')
    # Material swapped the page in place: the same document, no reload.
    assert page.evaluate("window.sameDocument === true")
    assert page.evaluate("location.pathname").endswith(PAGES["soft-lookup"] + "/")
    # The language menu, which the swap keeps, points at the new page's twin.
    other = prefix("en" if lang == "zh" else "zh") + PAGES["soft-lookup"] + "/"
    assert page.locator(".md-select__link").evaluate_all(
        "links => links.map(a => a.href)"
    ) == sorted([url + prefix(lang) + PAGES["soft-lookup"] + "/", url + other], key=len)
    page.go_back()
    page.wait_for_selector(
        '.ad-explorable[data-explorable="nadaraya-watson"][data-live]'
    )
    figure = page.locator('.ad-explorable[data-explorable="nadaraya-watson"]')
    assert figure.locator(".ad-explorable__live").count() == 1
    check_changes(figure, text(data, "ex_bandwidth"), 1.25)
    assert page.evaluate("window.sameDocument === true")
    # The language menu leaves the edition: a full load, so the page's
    # language, search and interface text are the other edition's.
    other = "en" if lang == "zh" else "zh"
    page.locator(".md-header__option .md-select").hover()
    page.locator(f".md-select__link[hreflang={other}]").click()
    page.wait_for_url(url + prefix(other) + PAGES["nadaraya-watson"] + "/")
    page.wait_for_selector(
        '.ad-explorable[data-explorable="nadaraya-watson"][data-live]'
    )
    assert page.evaluate("window.sameDocument") is None  # a new document
    assert page.evaluate("document.documentElement.lang") == other
    search = page.locator("input[data-md-component=search-query]")
    assert search.get_attribute("placeholder") == {"en": "Search", "zh": "搜索"}[other]
    assert page.problems == []
    # The search worker may still be fetching (lunr's scripts) through the
    # route: let those requests go, or their callbacks fail the next test.
    page.unroute_all(behavior="ignoreErrors")
    page.context.close()


def test_without_javascript_the_static_figure_shows(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    for kind, path in PAGES.items():
        for lang in LANGS:
            page.goto(site_url + prefix(lang) + path + "/")
            figure = page.locator(f'.ad-explorable[data-explorable="{kind}"]')
            assert figure.locator(".ad-explorable__static svg").is_visible()
            assert figure.locator(".ad-explorable__live").count() == 0
    context.close()
