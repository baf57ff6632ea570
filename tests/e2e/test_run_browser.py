"""The Run button in a real browser, with every request outside the site refused.

Every block the build marked as runnable, on every chapter page of both
editions, is run in Pyodide from the site's own files, and what it shows must
be what the build showed: the text outside figures exactly, each figure's
text. A bandwidth edited changes the figure; a block that raises shows its
traceback; a block that needs PyTorch offers the notebooks instead; nothing
of Python loads before a click.
"""

from __future__ import annotations

import hashlib
import math
import re
import xml.etree.ElementTree as ET
import zipfile
from html import unescape
from urllib.parse import urlsplit

import pytest
from browser import prefix, record_failed_requests, visit
from helpers import CHAPTERS, DEFAULT_FIRST, LANGS, NOTEBOOK_PAGES
from test_explorables_browser import instant_page

from attention_docs import figures
from attention_docs_site.layout import (
    COMPILED_BUNDLE,
    COMPILED_FOLDER,
    PYODIDE_FOLDER,
)

# The nav's order: the home page, the chapters, the exercise pages.
PAGES = ("", *CHAPTERS, *NOTEBOOK_PAGES)
DONE = {"en": "Done.", "zh": "运行完毕。"}
RAISED = {"en": "The code raised", "zh": "抛出了异常"}
RAISED_AT = {"en": "at line {}", "zh": "在第 {} 行"}
OPEN_TORCH = {"en": "Needs PyTorch: how to run it", "zh": "需要 PyTorch：如何运行"}
CLOSE = {"en": "Hide the code", "zh": "收起代码"}
# Loading Pyodide and its packages the first time, on a busy 2-core machine.
FIRST_RUN_MS = 180_000


def _figure_text(html: str) -> list[list[str]]:
    """Each figure's text (titles, descriptions, labels), in order."""
    found = []
    for svg in re.findall(r"<svg\b.*?</svg>", html, re.S):
        root = ET.fromstring(svg)
        tags = {"text", "title", "desc"}
        found.append(
            ["".join(e.itertext()) for e in root.iter() if e.tag.split("}")[-1] in tags]
        )
    return found


# Tags that separate words; the others (a highlighted token's spans) do not.
_SEPARATING = re.compile(r"</?(?:p|div|td|th|tr|li|br|pre|table|thead|tbody)\b[^>]*>")


def _outside_figures(html: str) -> list[str]:
    """The words outside figures (a source listing is highlighted only in the build)."""
    text = re.sub(r"<svg\b.*?</svg>", " ", html, flags=re.S)
    text = _POWER.sub(lambda m: f"{m[1]}e{m[2].replace(chr(0x2212), '-')}", text)
    text = _SEPARATING.sub(" ", text)
    words = unescape(re.sub(r"<[^>]+>", "", text)).split()
    return [w for w in words if not _PROMPT.fullmatch(w)]  # a cell's Out[n]:


_PROMPT = re.compile(r"Out\[\d+\]:")
# A table's 5.6 × 10<sup>−17</sup>: one number, whose digits are rounding's.
_POWER = re.compile(r"(\d+(?:\.\d+)?) × 10<sup>([−-]?\d+)</sup>")


def _number(word: str) -> float | None:
    try:
        return float(word.strip(",;:()%").replace("\u2212", "-"))
    except ValueError:
        return None


def assert_same_words(shown: list[str], built: list[str], where: str) -> None:
    """Equal words; numbers equal to rounding (a difference of 1e-17 is noise
    whose digits depend on the platform's floating point)."""
    assert len(shown) == len(built), (where, shown, built)
    for ours, theirs in zip(shown, built, strict=True):
        a, b = _number(ours), _number(theirs)
        if a is not None and b is not None:
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (
                where,
                ours,
                theirs,
            )
        else:
            assert ours == theirs, (where, ours, theirs)


# A block's output as printed: without what explorables.js adds to a figure.
PRINTED = """block => {
  const output = block.querySelector(".ad-run-output, .jp-Cell-outputWrapper");
  if (!output) return "";
  const copy = output.cloneNode(true);
  copy.querySelectorAll(".ad-explorable__live, .ad-explorable__controls, "
    + ".ad-explorable__readout, .ad-explorable__buttons").forEach((e) => e.remove());
  return copy.innerHTML;
}"""


def _printed(block) -> str:
    return block.evaluate(PRINTED)


def _run(
    page, block, *, code: str | None = None, timeout: float = FIRST_RUN_MS
) -> None:
    """Open a block's panel, maybe edit its code, run it and wait for the end."""
    # A block in a collapsed note: open it, as a reader would.
    block.evaluate(
        "b => { for (let d = b.closest('details'); d; d = d.parentElement"
        ".closest('details')) d.open = true; }"
    )
    toggle = block.locator(".ad-run-open")
    toggle.scroll_into_view_if_needed()
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    panel = block.locator(".ad-run-panel")
    if code is not None:
        panel.locator("textarea").fill(code)
    button = panel.get_by_role("button", name=re.compile("^(Run|运行)$"))
    button.click()  # disables the button until the run ends
    page.wait_for_function(
        "b => !b.disabled", arg=button.element_handle(), timeout=timeout
    )


# Pyodide's WebAssembly, fetched once each time the Run worker starts it.
PYODIDE_WASM = re.compile(r"/pyodide\.asm\.wasm$")


@pytest.fixture
def instant(browser, site_url):
    """A page on which Material's instant navigation works (instant_page), and
    what the page fixture records on it.

    ``page.problems`` gains failed requests to the site and error statuses;
    ``page.foreign_requests`` lists requests to any other host;
    ``page.pyodide`` the requests for Pyodide's WebAssembly (one per start).
    """
    page, url = instant_page(browser, site_url)
    host = urlsplit(url).netloc
    page.foreign_requests, page.pyodide = [], []

    def request(request):
        address = urlsplit(request.url)
        if address.scheme in ("http", "https") and address.netloc != host:
            page.foreign_requests.append(request.url)
        if PYODIDE_WASM.search(address.path):
            page.pyodide.append(request.url)

    page.on("request", request)
    record_failed_requests(page, host)
    yield page, url
    # The search worker may still be fetching through the route: let it go.
    page.unroute_all(behavior="ignoreErrors")
    page.context.close()


def _next_page(page, path):
    """Follow the footer's link to the next page, which Material swaps in place."""
    heading = page.locator("article h1").first.element_handle()
    name = path.rstrip("/").rsplit("/", 1)[-1]
    page.locator(f'a.md-footer__link--next[href$="{name}/"]').click()
    page.wait_for_url(f"**/{path}")
    # The address changes first: wait for the new page's content.
    heading.wait_for_element_state("hidden")  # detached with the old page


@pytest.mark.parametrize("lang", DEFAULT_FIRST)  # the Chinese sweep: release
def test_every_runnable_block_shows_what_the_build_showed(instant, lang):
    """Page after page by instant navigation, as a reader goes: Python starts once.

    The Chinese edition's blocks are the English ones with ``lang="zh"``: the
    release tier sweeps them too; the README's command runs a Chinese block
    in ``test_a_block_that_raises_shows_its_traceback``.

    One full load, then the footer's link to the next page (PAGES is the
    nav's order): Material swaps each page into the same document, and the
    Run worker, with Pyodide in it, stays.
    """
    page, url = instant
    assert PAGES[0] == ""
    visit(page, url, "", lang)  # the only full load
    page.evaluate("window.sameDocument = true")
    ran = 0
    for chapter in PAGES:
        path = prefix(lang) + (f"{chapter}/" if chapter else "")
        if chapter:
            _next_page(page, path)
        blocks = page.locator(".ad-run:not([data-run-needs])")
        for i in range(blocks.count()):
            block = blocks.nth(i)
            where = f"{path} block {i}"
            print(where)  # shown if a step times out
            built = _printed(block)
            _run(page, block)
            status = block.locator(".ad-run-status").text_content()
            shown = _printed(block)
            assert status == DONE[lang], f"{where}: {status}\n{shown[:3000]}"
            assert_same_words(_outside_figures(shown), _outside_figures(built), where)
            assert _figure_text(shown) == _figure_text(built), where
            ran += 1
    assert page.evaluate("window.sameDocument === true")  # no page was reloaded
    assert len(page.pyodide) == 1, page.pyodide  # Python started once
    assert page.foreign_requests == []
    assert page.problems == []
    assert ran >= 30  # 37 in each edition on 2026-11-26


def test_a_changed_bandwidth_draws_the_library_s_new_figure(page, site_url):
    visit(page, site_url, "attention-pooling/", "en")
    block = page.locator('.ad-run[data-run-code*="nadaraya_watson_fit"]')
    code = block.get_attribute("data-run-code")
    assert "bandwidth=1.0" in code
    built = _printed(block)
    _run(page, block, code=code.replace("bandwidth=1.0", "bandwidth=0.2"))
    shown = _printed(block)
    expected = figures.nadaraya_watson_fit(lang="en", kernel="gaussian", bandwidth=0.2)
    assert _figure_text(shown) == _figure_text(expected)
    assert _figure_text(shown) != _figure_text(built)  # the title names h
    toggle = block.locator(".ad-run-open")
    assert toggle.text_content() == "Hide the code"  # the panel is open
    # Reset brings the build's code and figure back, and says so.
    block.get_by_role("button", name="Reset").click()
    assert _printed(block) == built
    assert block.locator("textarea").input_value() == code
    status = block.locator(".ad-run-status").text_content()
    assert status == "The build's code and output are back."
    toggle.click()
    assert block.locator(".ad-run-panel").is_hidden()
    assert toggle.text_content() == "Edit and run"
    assert page.foreign_requests == [] and page.problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_block_that_raises_shows_its_traceback(page, site_url, lang):
    visit(page, site_url, "attention-pooling/", lang)
    block = page.locator('.ad-run[data-run-code*="nadaraya_watson_fit"]')
    code = block.get_attribute("data-run-code").replace(
        "bandwidth=1.0", "bandwidth=-1.0"
    )
    _run(page, block, code=code)
    status = block.locator(".ad-run-status").text_content()
    assert status.count(RAISED[lang]) == 1 and RAISED_AT[lang].format(1) in status
    error = block.locator(".ad-run-error").text_content()
    assert "Traceback" in error and "ValueError" in error and "bandwidth" in error
    assert "<block>" in error  # the reader's code, not the runner's frames
    assert "_namespaces" not in error


@pytest.mark.parametrize("lang", LANGS)
def test_blocks_that_need_torch_point_to_the_notebooks(page, site_url, lang):
    visit(page, site_url, "parametric-attention-pooling/", lang)
    blocks = page.locator('.ad-run[data-run-needs="torch"]')
    assert blocks.count() >= 1
    block = blocks.first
    toggle = block.locator(".ad-run-open")
    assert toggle.text_content() == OPEN_TORCH[lang]
    toggle.click()
    assert toggle.text_content() == CLOSE[lang]
    panel = block.locator(".ad-run-panel")
    assert panel.locator("textarea").count() == 0
    assert panel.get_by_role("button").count() == 0
    link = panel.locator("a")
    assert link.get_attribute("href").endswith(prefix(lang) + "exercises/notebooks.zip")
    assert "PyTorch" in panel.text_content()


def test_nothing_of_python_loads_before_a_click(page, site_url):
    """A first visit loads only run.js: the editor on a click, Python on a Run."""
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    visit(page, site_url, "attention-pooling/", "en")
    assert page.locator(".ad-run-open").count() > 5
    assert [url for url in requests if url.endswith("/run.js")]
    assert not [url for url in requests if re.search("pyodide|run-worker|run-ed", url)]
    block = page.locator(".ad-run:not([data-run-needs])").first
    block.locator(".ad-run-open").click()
    block.locator("textarea").wait_for()
    assert [url for url in requests if url.endswith("/run-editor.js")]
    assert not [url for url in requests if re.search("pyodide|run-worker", url)]
    assert page.problems == []


def test_the_page_s_security_policy_stays_strict_and_lets_python_run(browser, site_url):
    """The policy in force (the other tests bypass it to run their own scripts)."""
    context = browser.new_context()
    page = context.new_page()
    refused = []
    page.on(
        "console",
        lambda m: "Content Security Policy" in m.text and refused.append(m.text),
    )
    visit(page, site_url, "attention-pooling/", "en")
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute(
        "content"
    )
    scripts = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
    assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in scripts
    assert "'wasm-unsafe-eval'" not in policy  # WebAssembly runs in the worker only
    block = page.locator('.ad-run[data-run-code*="kernel_shapes"]')
    _run(page, block)
    assert block.locator(".ad-run-status").text_content() == DONE["en"]
    assert refused == []
    context.close()


RUNNING = {"en": "Running…", "zh": "正在运行……"}
STOPPED = {"en": "Stopped.", "zh": "已停止。"}
STOP = {"en": "Stop", "zh": "停止"}


@pytest.mark.parametrize("lang", DEFAULT_FIRST)  # the Chinese words: release tier
def test_stop_ends_an_endless_loop_and_the_next_run_works(page, site_url, lang):
    """Stop ends the worker within a second; the next Run starts Python again."""
    visit(page, site_url, "attention-pooling/", lang)
    block = page.locator('.ad-run[data-run-code*="nadaraya_watson_fit"]')
    built = _printed(block)
    block.locator(".ad-run-open").click()
    panel = block.locator(".ad-run-panel")
    stop = panel.get_by_role("button", name=STOP[lang])
    assert stop.is_hidden()  # only while a run goes
    panel.locator("textarea").fill("while True:\n    pass")
    run = panel.get_by_role("button", name=re.compile("^(Run|运行)$"))
    run.click()
    status = panel.locator(".ad-run-status")
    page.wait_for_function(
        "([s, text]) => s.textContent === text",
        arg=[status.element_handle(), RUNNING[lang]],
        timeout=FIRST_RUN_MS,
    )
    page.wait_for_timeout(500)  # the loop is under way
    assert run.is_disabled()
    stop.focus()
    page.keyboard.press("Enter")  # by keyboard, as a reader may
    page.wait_for_function("b => !b.disabled", arg=run.element_handle(), timeout=1000)
    assert status.text_content().startswith(STOPPED[lang])
    assert stop.is_hidden() and _printed(block) == built  # the output stays
    assert page.evaluate("document.activeElement.textContent") == run.text_content()
    # The block's own code runs in a fresh worker, its earlier blocks first.
    panel.get_by_role("button", name=re.compile("^(Reset|还原)$")).click()
    _run(page, block)
    assert status.text_content() == DONE[lang]
    assert block.locator(".ad-run-output svg").count() > 0
    # Code that asks for 4.7 GB, in arrays small enough for a 32-bit address
    # space, more than WebAssembly's memory: Python's MemoryError, not a dead panel.
    bomb = "import numpy as np\n[np.ones((14_000, 14_000)) for _ in range(3)]"
    _run(page, block, code=bomb)
    assert status.text_content().count(RAISED[lang]) == 1
    assert "MemoryError" in block.locator(".ad-run-error").text_content()
    assert page.problems == []


LOAD_FAILED = {"en": "Python could not start", "zh": "Python 未能启动"}
RETRY = {"en": "Retry", "zh": "重试"}
# Run first in a fresh worker, where a start imported matplotlib but not its
# figure: what the first figure imports is compiled code from the site
# (site/bytecode.py), and the font list is the one shipped.
FROM_THE_SITE = """import sys, hashlib, pathlib
compiled = []
sys.addaudithook(lambda e, a: e == "compile" and compiled.append(str(a[1])))
import matplotlib.figure, matplotlib.backends.backend_svg
from attention_docs import figures
figures.identity_heatmap(lang="en")
print([f for f in compiled if f.endswith(".py") and "/attention_docs/" not in f])
import matplotlib.font_manager as fm
font_list = pathlib.Path(fm.__file__).with_name("fontlist.json")
print(hashlib.sha256(font_list.read_bytes()).hexdigest())
names = lambda m: sorted(f.fname for f in m.ttflist + m.afmlist)
print(names(fm.fontManager) == names(fm.FontManager()))
"""


def _shipped_font_list(site) -> str:
    """The sha256 of the font list in the site's bytecode.zip."""
    bundle = site / PYODIDE_FOLDER / COMPILED_FOLDER / COMPILED_BUNDLE
    with zipfile.ZipFile(bundle) as z:
        (name,) = [n for n in z.namelist() if n.endswith("matplotlib/fontlist.json")]
        return hashlib.sha256(z.read(name)).hexdigest()


@pytest.mark.parametrize("lang", DEFAULT_FIRST)  # the Chinese words: release tier
def test_a_start_and_its_errors_tell_the_reader_what_to_do(
    page, site_url, built_site, lang
):
    """A file that did not load is named, and Retry starts Python; the start
    compiles nothing a figure imports and reads the shipped font list; a
    syntax error selects its line; a missing package is named, with the
    notebooks."""
    lost = []

    def once(route):  # the connection drops while numpy loads, once
        if lost:
            return route.continue_()
        lost.append(route.request.url)
        return route.abort("internetdisconnected")

    page.route("**/numpy-*.whl", once)
    visit(page, site_url, "attention-pooling/", lang)
    block = page.locator(".ad-run").first
    block.locator(".ad-run-open").click()
    panel = block.locator(".ad-run-panel")
    status = panel.locator(".ad-run-status")
    _run(page, block, code=FROM_THE_SITE)
    assert status.text_content().startswith(LOAD_FAILED[lang])
    assert lost[0].rsplit("/", 1)[1] in status.text_content()  # the file's name
    retry = panel.get_by_role("button", name=RETRY[lang])
    retry.click()
    run = panel.get_by_role("button", name=re.compile("^(Run|运行)$"))
    page.wait_for_function(
        "b => !b.disabled", arg=run.element_handle(), timeout=FIRST_RUN_MS
    )
    assert status.text_content() == DONE[lang] and retry.is_hidden()
    printed = block.locator(".ad-run-output").text_content().split()
    assert printed == ["[]", _shipped_font_list(built_site), "True"]

    _run(page, block, code="x = 1\ny = [x,\n     2\nprint(y)\n")
    error = block.locator(".ad-run-error").text_content()
    assert "SyntaxError" in error and 'File "<block>", line 2' in error
    assert RAISED_AT[lang].format(2) in status.text_content()
    selected = panel.locator("textarea").evaluate(
        "t => t.value.slice(t.selectionStart, t.selectionEnd)"
    )
    assert selected == "y = [x,"

    _run(page, block, code="import numpy\nfrom scipy import stats\n")
    note = panel.locator(".ad-run-note")
    assert note.is_visible() and note.locator("code").first.text_content() == "scipy"
    assert note.locator("a").get_attribute("href").endswith("exercises/notebooks.zip")
    panel.get_by_role("button", name=re.compile("^(Reset|还原)$")).click()
    _run(page, block)  # the block's own code: the note goes
    assert status.text_content() == DONE[lang] and note.is_hidden()
    # Only the lost file's: its request, and Pyodide's report of it.
    lost_file = ("numpy", "Failed to fetch")
    assert [p for p in page.problems if not any(w in p for w in lost_file)] == []
