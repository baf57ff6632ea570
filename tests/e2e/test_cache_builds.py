"""The execution cache in real strict builds of a copy of the site."""

import json
import re

from helpers import NOTEBOOKS, copy_site, mkdocs_build

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
        result = mkdocs_build(project, site, notebooks=False, library=library, **kwargs)
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

    # A table edit changes the figure on the next build.
    labels = library / "attention_docs" / "labels" / "en" / "figures.py"
    labels.write_text(labels.read_text().replace('"keys": "Keys"', '"keys": "Key set"'))
    _, hits, misses, _ = cache_line(build(cache=store))
    assert (hits, misses) == (0, cold)
    html = (site / "queries-keys-values" / "index.html").read_text()
    assert ">Key set</text>" in html  # the heatmaps' axis label


def render_cache_line(result):
    """The render cache's (hits, misses), summed over the editions."""
    log = result.stdout + result.stderr
    found = re.findall(r"attention_docs render cache: (\d+) hits, (\d+) misses", log)
    assert found, log
    return tuple(sum(int(counts[i]) for counts in found) for i in range(2))


def test_a_changed_mkdocstrings_option_renders_the_api_page_anew(tmp_path, warm_cache):
    """The API entries are keyed on the handler's options in mkdocs.yml (#43).

    The warm cache holds the API page as the real site shows it (no function's
    code); with ``show_source: true`` the page must show the code.
    """
    project = copy_site(tmp_path / "project")
    site = tmp_path / "site"

    def build():
        result = mkdocs_build(
            project, site, notebooks=False, library=project / "src", cache=warm_cache
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    def sources(page):
        html = (site / page / "index.html").read_text()
        return html.count('class="mkdocstrings-source"')

    hits, _ = render_cache_line(build())
    assert hits > 0
    assert sources("api") == sources("zh/api") == 0
    config = project / "mkdocs.yml"
    text = config.read_text()
    assert text.count("show_source: false") == 1
    config.write_text(text.replace("show_source: false", "show_source: true"))
    build()
    assert sources("api") == sources("zh/api") > 50  # every function's code
