"""The execution cache in real strict builds of a copy of the site."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import (
    NOTEBOOKS,
    ROOT,
    SOURCE_DATE_EPOCH,
    copy_mini_site,
    copy_site,
    different_files,
    mkdocs_build,
)
from test_serve import Serve

from attention_docs.style import themed_colour
from attention_docs_site.blocks import blocks


def cache_line(result):
    log = result.stdout + result.stderr
    found = re.findall(
        r"attention_docs cache \((\w+)\): (\d+) hits, (\d+) misses, "
        r"(\d+) corrupt",
        log,
    )
    assert found, log
    state, hits, misses, corrupt = zip(*found, strict=True)
    return (
        set(state),
        sum(map(int, hits)),
        sum(map(int, misses)),
        sum(map(int, corrupt)),
    )


def blocks_from_first_call(docs, call):
    """Executed blocks of each session from the first one that contains ``call``."""
    count = 0
    for page in docs.rglob("*.md"):
        sessions = {}
        for block in blocks(page.read_text()):
            if block.executed:
                sessions.setdefault(block.session, []).append(block.code)
        for codes in sessions.values():
            first = next((i for i, c in enumerate(codes) if call in c), len(codes))
            count += len(codes) - first
    return count


def is_execution_entry(path):
    """An entry of a code block or notebook (the render cache's are not)."""
    value = json.loads(path.read_text())["value"]
    return isinstance(value, dict) and "units" in value


def test_cache_in_real_builds(tmp_path, warm_cache):
    project = copy_site(tmp_path / "project")
    library = project / "src"
    store = warm_cache  # filled by the real site's build, in another folder
    site = tmp_path / "site"

    def build(**kwargs):
        # Without the Run buttons' runtime: the cache is what is tested.
        off = {"ATTENTION_DOCS_RUN_BUTTONS": "off"}
        result = mkdocs_build(
            project, site, notebooks=False, library=library, env=off, **kwargs
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    # Entries do not depend on where the project lies: a copy re-runs no block.
    # Only the notebooks are new, rendered here unexecuted (the real build ran
    # them). The real build's own log shows it started empty (test_build.py).
    # A prose edit re-runs nothing either, and the edit is published.
    page = project / "docs" / "attention-pooling.md"
    text = page.read_text()
    assert "fifty years older" in text  # the edit below must change something
    page.write_text(text.replace("fifty years older", "50 years older"))
    _, hits, misses, _ = cache_line(build(cache=store))
    notebooks = len(list((project / "docs" / "exercises").glob("*.md")))
    assert misses == notebooks == 2 * len(NOTEBOOKS) and hits > 20
    assert "50 years older" in (site / "attention-pooling" / "index.html").read_text()
    cold = hits + misses

    # A corrupted entry is detected, recomputed, and the page is still right.
    # (The newest execution entry is one this copy's builds read: an unexecuted
    # notebook. The render cache's entries, such as the math font's, come later.)
    entry = max(
        (path for path in store.rglob("*.json") if is_execution_entry(path)),
        key=lambda path: path.stat().st_mtime_ns,
    )
    entry.write_text(entry.read_text()[:100])
    _, hits, misses, corrupt = cache_line(build(cache=store))
    assert (misses, corrupt) == (1, 1)
    assert '<svg role="img"' in (site / "index.html").read_text()

    # A function edit re-runs the blocks that reached it, and only those: the
    # cue figures' blocks and the later blocks of their sessions.
    scene = library / "attention_docs" / "diagrams.py"
    assert scene.read_text().count('"#aaaaaa"') == 1  # the notebook's ruled lines
    scene.write_text(scene.read_text().replace('"#aaaaaa"', '"#ababab"'))
    _, hits, misses, _ = cache_line(build(cache=store))
    reached = blocks_from_first_call(project / "docs", "_cue(")
    assert reached == 4  # attention-cues.md and its translation, two blocks each
    assert (hits, misses) == (cold - reached, reached)
    for page in ("attention-cues", "zh/attention-cues"):
        assert themed_colour("#ababab") in (site / page / "index.html").read_text()


@pytest.mark.release  # every block runs again: a cold build's time
def test_a_label_table_edit_runs_every_block_again(tmp_path, warm_cache):
    """A table edit changes the figure on the next build.

    The label tables are data every figure reads, so an edit to one misses
    every entry (tests/site/test_cache.py checks the keys that say so).
    """
    project = copy_site(tmp_path / "project")
    site = tmp_path / "site"
    _, hits, misses, _ = cache_line(build(project, site, warm_cache))
    cold = hits + misses
    labels = project / "src" / "attention_docs" / "labels" / "en" / "figures.py"
    labels.write_text(labels.read_text().replace('"keys": "Keys"', '"keys": "Key set"'))
    _, hits, misses, _ = cache_line(build(project, site, warm_cache))
    assert (hits, misses) == (0, cold)
    html = (site / "queries-keys-values" / "index.html").read_text()
    assert ">Key set</text>" in html  # the heatmaps' axis label


# The module the small site's API page documents.
CUES = ROOT / "src" / "attention_docs" / "figures" / "cues.py"


def render_cache_line(result):
    """The render cache's (hits, misses), summed over the editions."""
    log = result.stdout + result.stderr
    found = re.findall(r"attention_docs render cache: (\d+) hits, (\d+) misses", log)
    assert found, log
    return tuple(sum(int(counts[i]) for counts in found) for i in range(2))


@pytest.mark.release  # three builds; tests/site/test_render_cache.py keys them
def test_a_changed_mkdocstrings_option_renders_the_api_page_anew(tmp_path):
    """The API entries are keyed on the handler's options in mkdocs.yml (#43).

    On the small site (tests/fixtures/mini): the first build fills the cache
    with the API page as the site shows it (no function's code); with
    ``show_source: true`` the next build must show the code. The fast tier
    checks the key itself (``test_an_api_entry_is_rendered_anew_when_the_
    handler_s_configuration_changes``); this is the end-to-end proof.
    """
    project = copy_mini_site(tmp_path / "project")
    site, cache = tmp_path / "site", tmp_path / "cache"

    def sources(page):
        html = (site / page / "index.html").read_text()
        return html.count('class="mkdocstrings-source"')

    assert render_cache_line(build(project, site, cache))[0] == 0  # a cold cache
    assert render_cache_line(build(project, site, cache))[0] > 0  # then read
    assert sources("api") == sources("zh/api") == 0
    config = project / "mkdocs.yml"
    text = config.read_text()
    assert text.count("show_source: false") == 1
    config.write_text(text.replace("show_source: false", "show_source: true"))
    build(project, site, cache)
    public = re.findall(r"^def [a-z]", CUES.read_text("utf-8"), flags=re.M)
    assert sources("api") == sources("zh/api") == len(public) > 2  # their code


EDIT = "# edited: this block runs again after the blocks before it\n"


def edit_middle_blocks(docs: Path) -> int:
    """In every session of every page, a comment put into its middle block.

    The block after the middle of each session of two blocks or more: the
    blocks before it are served from the cache, and it runs again.
    """
    edited = 0
    for page in sorted(docs.rglob("*.md")):
        text = page.read_text("utf-8")
        sessions: dict[str, list] = {}
        for block in blocks(text):
            if block.executed and block.session:
                sessions.setdefault(block.session, []).append(block)
        middle = [found[len(found) // 2] for found in sessions.values()]
        for block in sorted(middle, key=lambda b: -b.start):
            if len(sessions[block.session]) < 2:
                continue
            after_fence = text.index("\n", block.start) + 1
            text = text[:after_fence] + block.indent + EDIT + text[after_fence:]
            edited += 1
        page.write_text(text, "utf-8")
    return edited


def build(project: Path, site: Path, cache: Path | None) -> subprocess.CompletedProcess:
    result = mkdocs_build(
        project,
        site,
        notebooks=False,
        library=project / "src",
        cache=cache,
        env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.release  # a cold build of a copy
def test_a_warm_build_after_block_edits_writes_what_a_cold_build_writes(
    tmp_path, warm_cache
):
    """Every session's middle block edited: its re-run, after the earlier blocks
    came from the cache (an import-only replay where they only import), gives
    what a cold build gives, byte for byte, every file."""
    project = copy_site(tmp_path / "project")
    edited = edit_middle_blocks(project / "docs")
    assert edited >= 10
    _, hits, misses, _ = cache_line(build(project, tmp_path / "warm", warm_cache))
    # Each edited block missed (and the notebooks, rendered unexecuted here).
    assert misses >= edited + 2 * len(NOTEBOOKS) and hits > 20, (hits, misses)
    build(project, tmp_path / "cold", None)
    assert different_files(tmp_path / "warm", tmp_path / "cold") == []


# A session whose earlier blocks set state outside its names, by calls alone,
# the way a contributor's page would: the imports, then the seeds and options
# (a module's attribute set with `=` and with setattr among them), then the
# block that reads them, through the same modules or another name for one.
GLOBAL_STATE = """
```python exec="on" session="state-{lang}"
import random
import warnings

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import torch
```

```python exec="on" session="state-{lang}"
np.random.seed(0)
random.seed(0)
torch.manual_seed(0)
np.set_printoptions(precision=2)
plt.style.use("ggplot")
mpl.rcParams["lines.linewidth"] = 3.5
warnings.filterwarnings("ignore", message="state test")
np.state_note = "set with ="
setattr(random, "state_note", "set with setattr")
```

```python exec="on" session="state-{lang}"
from matplotlib import rcParams

print(np.random.rand(), random.random(), torch.rand(1).item(), np.array([1 / 3]))
print(rcParams["lines.linewidth"], rcParams["axes.facecolor"])
print([f[0] for f in warnings.filters if f[1] and f[1].pattern == "state test"])
print(np.state_note, random.state_note, "STATE END")
```
"""
LAST = "from matplotlib import rcParams"  # the last block's first line
EDIT_LAST = (LAST, EDIT + LAST)


def state_printed(html: str) -> str:
    """What the last block of the state session printed, as the page shows it."""
    found = re.search(r"<p>[^<]*?0\.5488[^<]*?STATE END</p>", html, re.S)
    assert found, "the page shows no state printed from a seed of 0"
    return found[0]


@pytest.mark.release  # three builds of the small site and a serve
def test_a_re_run_block_sees_the_state_earlier_blocks_set_outside_its_names(
    tmp_path,
):
    """On the small site: its blocks cached, the last one edited, then built
    warm and saved under `mkdocs serve`: both as a cache-off build."""
    project, cache = copy_mini_site(tmp_path / "project"), tmp_path / "cache"
    pages = [project / "docs" / name for name in ("index.md", "index.zh.md")]
    for page, lang in zip(pages, ("en", "zh"), strict=True):
        text = page.read_text("utf-8") + GLOBAL_STATE.format(lang=lang)
        page.write_text(text, "utf-8")
    build(project, tmp_path / "first", cache)  # the cache holds the blocks
    shutil.copytree(cache, tmp_path / "cache-for-serve")

    def edit():
        for page in pages:
            text = page.read_text("utf-8")
            assert text.count(EDIT_LAST[0]) == 1
            page.write_text(text.replace(*EDIT_LAST), "utf-8")

    server = Serve(project, tmp_path / "cache-for-serve", tmp_path / "served")
    try:
        server.wait_for_log(r"Serving on http://127\.0\.0\.1")
        mark = len(server.lines)
        edit()
        server.wait_for_log(r"Reloading browsers", after=mark)
        log = "".join(server.lines[mark:])
        assert re.search(r"index\.md \(its source changed\)", log), log
        served = [
            (server.site / folder / "index.html").read_text("utf-8")
            for folder in ("", "zh")
        ]
    finally:
        server.stop()
    _, hits, misses, _ = cache_line(build(project, tmp_path / "warm", cache))
    assert misses >= 2 and hits >= 4, (hits, misses)  # the edited blocks re-ran
    build(project, tmp_path / "cold", None)
    assert different_files(tmp_path / "warm", tmp_path / "cold") == []
    for folder, page in zip(("", "zh"), served, strict=True):
        cold = (tmp_path / "cold" / folder / "index.html").read_text("utf-8")
        assert state_printed(page) == state_printed(cold), folder
