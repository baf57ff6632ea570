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
import json
import math
import re
import tarfile
import xml.etree.ElementTree as ET
from html import unescape
from urllib.parse import urlsplit

import pytest
from browser import prefix, record_failed_requests, visit
from helpers import (
    CHAPTERS,
    DEFAULT_FIRST,
    LANGS,
    NOTEBOOK_PAGES,
    RELEASE,
    ROOT,
    TRANSLATED,
    TRANSLATED_FIRST,
)
from test_explorables_browser import instant_page

from attention_docs import figures
from attention_docs_site.layout import (
    COMPILED_FOLDER,
    COMPILED_PACKAGES,
    PYODIDE_FOLDER,
    SITE_LOCK,
)
from attention_docs_site.site import bytecode

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


# The English edition's first chapters in the README's command, the rest of
# it (from the last of those) and the whole Chinese edition in the release
# tier. (lang, pages, at least this many blocks): 13, 39 and 45 on 2026-11-29.
FIRST = PAGES.index("attention-pooling") + 1
SWEEPS = [
    pytest.param("en", PAGES[:FIRST], 10, id="en-first"),
    pytest.param("en", PAGES[FIRST - 1 :], 30, id="en-rest", marks=RELEASE),
    *[pytest.param(lang, PAGES, 30, id=lang, marks=RELEASE) for lang in TRANSLATED],
]


@pytest.mark.parametrize(("lang", "pages", "minimum"), SWEEPS)
def test_every_runnable_block_shows_what_the_build_showed(
    instant, lang, pages, minimum
):
    """Page after page by instant navigation, as a reader goes: Python starts once.

    The Chinese edition's blocks are the English ones with ``lang="zh"``: the
    release tier sweeps them too; the README's command runs Chinese blocks
    in ``test_a_start_and_its_errors_tell_the_reader_what_to_do``.

    One full load, then the footer's link to the next page (PAGES is the
    nav's order): Material swaps each page into the same document, and the
    Run worker, with Pyodide in it, stays.
    """
    page, url = instant
    assert PAGES[0] == "" and all(p in PAGES for p in pages)
    visit(page, url, f"{pages[0]}/" if pages[0] else "", lang)  # the only full load
    page.evaluate("window.sameDocument = true")
    ran = 0
    for step, chapter in enumerate(pages):
        path = prefix(lang) + (f"{chapter}/" if chapter else "")
        if step:  # the nav's next page
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
    assert ran >= minimum


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
RESET_DONE = {
    "en": "The build's code and output are back.",
    "zh": "已还原为原始代码和输出。",
}
OPEN = {"en": "Edit and run", "zh": "编辑并运行"}


@pytest.mark.parametrize("lang", DEFAULT_FIRST)  # the Chinese words: release tier
def test_stop_ends_an_endless_loop_and_the_next_run_works(page, site_url, lang):
    """Stop ends the worker within a second; the next Run starts Python again;
    an edited bandwidth draws the new figure, and Reset the build's."""
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
    reset = panel.get_by_role("button", name=re.compile("^(Reset|还原)$"))
    reset.click()
    _run(page, block)
    assert status.text_content() == DONE[lang]
    assert block.locator(".ad-run-output svg").count() > 0
    # A changed bandwidth draws the library's new figure; Reset brings the
    # build's code and figure back, and says so.
    code = block.get_attribute("data-run-code")
    _run(page, block, code=code.replace("bandwidth=1.0", "bandwidth=0.2"))
    shown = _printed(block)
    expected = figures.nadaraya_watson_fit(lang=lang, kernel="gaussian", bandwidth=0.2)
    assert _figure_text(shown) == _figure_text(expected)
    assert _figure_text(shown) != _figure_text(built)  # the title names h
    reset.click()
    assert _printed(block) == built and panel.locator("textarea").input_value() == code
    assert status.text_content() == RESET_DONE[lang]
    # Code that asks for 4.7 GB, in arrays small enough for a 32-bit address
    # space, more than WebAssembly's memory grows to: Python's MemoryError, not
    # a dead panel. (np.empty: the two arrays that fit are not written, which
    # would take seconds and test nothing more.)
    bomb = "import numpy as np\n[np.empty((14_000, 14_000)) for _ in range(3)]"
    _run(page, block, code=bomb)
    assert status.text_content().count(RAISED[lang]) == 1
    assert "MemoryError" in block.locator(".ad-run-error").text_content()
    toggle = block.locator(".ad-run-open")
    assert toggle.text_content() == CLOSE[lang]  # the panel is open
    toggle.click()
    assert panel.is_hidden() and toggle.text_content() == OPEN[lang]
    assert page.problems == []


INTERRUPTED = {"en": "Stopped: Python raised KeyboardInterrupt", "zh": "已停止：Python"}
LOAD_FAILED = {"en": "Python could not start", "zh": "Python 未能启动"}
RETRY = {"en": "Retry", "zh": "重试"}
# Run first in a fresh worker, where a start imported matplotlib but not its
# figure: what the first figure imports is compiled code from the site
# (site/bytecode.py), and the font list is the one shipped.
FROM_THE_SITE = """import sys, hashlib, json, pathlib
compiled = []
sys.addaudithook(lambda e, a: e == "compile" and compiled.append(str(a[1])))
import matplotlib.figure, matplotlib.backends.backend_svg
from attention_docs import figures
figures.identity_heatmap(lang="en")
print(json.dumps(sorted({f for f in compiled if f.endswith(".py")})))
import matplotlib.font_manager as fm
font_list = pathlib.Path(fm.__file__).with_name("fontlist.json")
print(hashlib.sha256(font_list.read_bytes()).hexdigest())
print(json.__spec__.origin)  # from the site's archive of the standard library
"""
# The font list names the fonts matplotlib finds (reading each: the later ones
# load from the site).
SAME_FONTS = """names = lambda m: sorted(f.fname for f in m.ttflist + m.afmlist)
print(names(fm.json_load(font_list)) == names(fm.FontManager()))
"""


def _shipped_font_list(site) -> str:
    """The sha256 of the font list in the site's packages.tar.gz."""
    image = site / PYODIDE_FOLDER / COMPILED_FOLDER / COMPILED_PACKAGES
    with tarfile.open(image, "r:gz") as archive:
        file = archive.extractfile(f"{bytecode.PACKAGES}matplotlib/fontlist.json")
        return hashlib.sha256(file.read()).hexdigest()


# A font of matplotlib's that a start does not read: loaded when read.
LATER_FONT = """import hashlib
from matplotlib import font_manager, ft2font
path = font_manager.findfont("STIXGeneral", fallback_to_default=False)
data = open(path, "rb").read()
print(ft2font.FT2Font(path).family_name, hashlib.sha256(data).hexdigest())
"""
LOST_FILE = {"en": "did not load while the code ran", "zh": "运行代码时"}
KEPT = """async () => {
  const kept = await caches.open("attention-docs-python");
  return (await kept.keys()).map((request) => request.url);
}"""


@pytest.mark.parametrize("lang", TRANSLATED_FIRST)  # the English words: release
def test_a_start_and_its_errors_tell_the_reader_what_to_do(
    isolated_page, isolated_url, built_site, lang
):
    """On a page served cross-origin isolated: a file that did not load is
    named, and Retry starts Python; the start compiles nothing a figure
    imports and reads the shipped font list; an exception and a syntax error
    select their line; a missing package is named, with the notebooks; Stop
    interrupts a loop, and the same worker goes on with its variable."""
    page, lost, starts = isolated_page, [], []

    def once(route):  # the connection drops while the packages load, once
        if lost:
            return route.continue_()
        lost.append(route.request.url)
        return route.abort("internetdisconnected")

    page.route(f"**/{COMPILED_PACKAGES}", once)
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("request", lambda r: PYODIDE_WASM.search(r.url) and starts.append(r.url))
    visit(page, isolated_url, "attention-pooling/", lang)
    assert page.evaluate("crossOriginIsolated")
    block = page.locator('.ad-run[data-run-code*="nadaraya_watson_fit"]')
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
    # Compiled here: only the library's modules changed since setup.sh compiled them.
    bundle = bytecode.compiled_folder(ROOT) / bytecode.BUNDLE
    assert set(json.loads(printed[0])) <= set(bytecode.stale_library(ROOT, bundle))
    assert printed[1] == _shipped_font_list(built_site)
    assert printed[2] == "/lib/python312.zip/json/__init__.pyc", printed[2]
    assert not [r for r in requests if "/later/" in r]  # its fonts came in the archive
    _run(page, block, code=SAME_FONTS)
    assert block.locator(".ad-run-output").text_content().strip() == "True"

    # The library raises: its traceback, from the reader's line.
    code = block.get_attribute("data-run-code").replace("=1.0", "=-1.0")
    _run(page, block, code=code)
    assert status.text_content().count(RAISED[lang]) == 1
    assert RAISED_AT[lang].format(1) in status.text_content()
    error = block.locator(".ad-run-error").text_content()
    assert "Traceback" in error and "ValueError" in error and "bandwidth" in error
    assert "<block>" in error  # the reader's code, not the runner's frames
    assert "_namespaces" not in error

    _run(page, block, code="x = 1\ny = [x,\n     2\nprint(y)\n")
    error = block.locator(".ad-run-error").text_content()
    assert "SyntaxError" in error and 'File "<block>", line 2' in error
    assert RAISED_AT[lang].format(2) in status.text_content()
    selected = panel.locator("textarea").evaluate(
        "t => t.value.slice(t.selectionStart, t.selectionEnd)"
    )
    assert selected == "y = [x,"

    # matplotlib's dependencies that a start does not load: at their first import.
    def later():
        return [r for r in requests if re.search(r"/(fonttools|pytz)-[^/]*\.whl$", r)]

    assert later() == []
    lock = json.loads((built_site / PYODIDE_FOLDER / "pyodide-lock.json").read_text())
    pytz_wheel = lock["packages"]["pytz"]["file_name"]
    page.route(f"**/{pytz_wheel}", once)  # lost once more, here
    lost.clear()
    _run(page, block, code="import pytz")
    error = block.locator(".ad-run-error").text_content()
    assert f"ImportError: {pytz_wheel} did not load from the site" in error
    code = "import fontTools, pytz\nprint(fontTools.version, pytz.__version__)"
    _run(page, block, code=code)  # the next import tries again
    assert block.locator(".ad-run-output").text_content().split() == [
        lock["packages"]["fonttools"]["version"],
        lock["packages"]["pytz"]["version"],
    ]
    assert len(later()) == 3  # pytz twice

    _run(page, block, code="import numpy\nfrom scipy import stats\n")
    note = panel.locator(".ad-run-note")
    assert note.is_visible() and note.locator("code").first.text_content() == "scipy"
    assert note.locator("a").get_attribute("href").endswith("exercises/notebooks.zip")

    # Stop interrupts Python: KeyboardInterrupt, and the same worker goes on.
    panel.locator("textarea").fill("n = 0\nwhile True:\n    n += 1")
    run.click()
    page.wait_for_function(
        "([s, text]) => s.textContent === text",
        arg=[status.element_handle(), RUNNING[lang]],
    )
    page.wait_for_timeout(300)  # the loop is under way
    panel.get_by_role("button", name=STOP[lang]).click()
    page.wait_for_function("b => !b.disabled", arg=run.element_handle(), timeout=5000)
    # Interrupted, not ended after the second the interrupt is given.
    assert status.text_content().startswith(INTERRUPTED[lang]) and note.is_hidden()
    assert "KeyboardInterrupt" in block.locator(".ad-run-error").text_content()
    _run(page, block, code="print(n > 1000)")  # n is still there
    assert block.locator(".ad-run-output").text_content().strip() == "True"
    panel.get_by_role("button", name=re.compile("^(Reset|还原)$")).click()
    _run(page, block)  # the block's own code
    assert status.text_content() == DONE[lang]
    assert len(starts) == 2  # the start that lost the packages, then one worker
    # Only the lost files': their requests, and the fetch's report.
    lost_file = (COMPILED_PACKAGES, "pytz", "Failed to fetch")
    assert [p for p in page.problems if not any(w in p for w in lost_file)] == []

    # The unpacked packages were kept, under the lock's sha256: the next start
    # (a full page load, a new worker) asks the site for them no more.
    site_lock = json.loads((built_site / PYODIDE_FOLDER / SITE_LOCK).read_text())
    sha256 = site_lock[bytecode.IMAGE_ENTRY]["sha256"]
    assert [url.rsplit("/", 1)[1] for url in page.evaluate(KEPT)] == [
        f"{COMPILED_PACKAGES}?sha256={sha256}"
    ]
    requests.clear()
    visit(page, isolated_url, "queries-keys-values/", lang)
    block = page.locator(".ad-run:not([data-run-needs])").first
    _run(page, block)
    assert block.locator(".ad-run-status").text_content() == DONE[lang]
    assert len(starts) == 3 and block.locator(".ad-run-output svg").count() > 0
    assert not [r for r in requests if r.endswith(COMPILED_PACKAGES)]

    # A font read late, lost once: the file is named, Retry starts afresh.
    later = json.loads((built_site / PYODIDE_FOLDER / SITE_LOCK).read_text())[
        bytecode.IMAGE_ENTRY
    ]["later"]
    stix = f"{bytecode.FONTS}ttf/STIXGeneral.ttf"
    assert stix in later["files"]
    font = (built_site / PYODIDE_FOLDER / later["folder"] / stix).read_bytes()
    lost.clear()
    page.route("**/later/**/STIXGeneral.ttf", once)
    _run(page, block, code=LATER_FONT)
    panel, status = block.locator(".ad-run-panel"), block.locator(".ad-run-status")
    assert LOST_FILE[lang] in status.text_content()
    assert "STIXGeneral.ttf" in status.text_content() and lost
    panel.get_by_role("button", name=RETRY[lang]).click()
    run = panel.get_by_role("button", name=re.compile("^(Run|运行)$"))
    page.wait_for_function(
        "b => !b.disabled", arg=run.element_handle(), timeout=FIRST_RUN_MS
    )
    assert status.text_content() == DONE[lang] and len(starts) == 4
    assert block.locator(".ad-run-output").text_content().split() == [
        "STIXGeneral",
        hashlib.sha256(font).hexdigest(),
    ]
