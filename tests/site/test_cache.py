import json
import shutil

import nbformat
import pytest
from helpers import ROOT

from attention_docs import cache


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_DOCS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ATTENTION_DOCS_CACHE", "on")
    cache.reset_build()
    yield tmp_path / "cache"
    cache.reset_build()


def test_library_fingerprint_follows_every_source_file(tmp_path):
    package = tmp_path / "attention_docs"
    shutil.copytree(
        cache.LIBRARY, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    before = cache.library_fingerprint(package)
    assert cache.library_fingerprint(package) == before
    labels = package / "labels.py"
    labels.write_text(labels.read_text() + "\n# edited\n")
    assert cache.library_fingerprint(package) != before


def test_keys_depend_on_every_part():
    base = cache.make_key("block", source="x = 1", session="s-en")
    assert cache.make_key("block", source="x = 1", session="s-en") == base
    assert cache.make_key("block", source="x = 2", session="s-en") != base
    assert cache.make_key("block", source="x = 1", session="s-zh") != base
    assert cache.make_key("notebook", source="x = 1", session="s-en") != base
    assert set(cache.environment()) >= {"python", "numpy", "torch", "matplotlib"}


def test_store_and_load_roundtrip(cache_in_tmp):
    cache.store("ab" * 32, {"html": "<svg/>"})
    assert cache.load("ab" * 32) == {"html": "<svg/>"}
    assert cache.load("cd" * 32) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # half-written
        lambda text: "not json at all",
        lambda text: text.replace("<svg/>", "<svg>tampered</svg>"),  # checksum
        lambda text: json.dumps({**json.loads(text), "key": "other"}),
        lambda text: "",
    ],
)
def test_corrupt_entry_is_deleted_and_not_served(cache_in_tmp, damage):
    key = "ef" * 32
    cache.store(key, "<svg/>")
    (path,) = cache_in_tmp.rglob("*.json")
    path.write_text(damage(path.read_text()))
    assert cache.load(key) is None
    assert not path.exists()
    assert cache.STATS.corrupt == 1


def test_cached_counts_and_keeps_only_good_values():
    calls = []

    def compute(value, keep=True):
        def run():
            calls.append(value)
            return value, keep

        return run

    assert cache.cached("block", "a", compute("one"), source="a") == "one"
    assert cache.cached("block", "a", compute("two"), source="a") == "one"
    assert cache.cached("block", "b", compute("bad", keep=False), source="b") == "bad"
    assert (
        cache.cached("block", "b", compute("again", keep=False), source="b") == "again"
    )
    assert calls == ["one", "bad", "again"]
    assert (cache.STATS.hits, cache.STATS.misses) == (1, 3)


def test_turned_off_it_computes_everything(monkeypatch, cache_in_tmp):
    monkeypatch.setenv("ATTENTION_DOCS_CACHE", "off")
    for _ in range(2):
        cache.cached("block", "a", lambda: ("v", True), source="a")
    assert (cache.STATS.hits, cache.STATS.misses) == (0, 2)
    assert not cache_in_tmp.exists()


NOTEBOOK = """---
jupyter:
  kernelspec:
    display_name: Python 3
    language: python
    name: python3
---

```python
print("{word}")
```
"""


def test_notebook_converter_is_cached_on_the_notebook_bytes(tmp_path):
    calls = []

    def nb2html(path, **options):
        calls.append(options)
        nb = nbformat.read(path, as_version=4)
        outputs = [o.get("text", "") for c in nb.cells for o in c.get("outputs", [])]
        return f"<div>{''.join(outputs).strip()}</div>"

    convert = cache.cached_nb2html(nb2html)
    assert cache.cached_nb2html(convert) is convert  # wrapping twice is harmless
    notebook = tmp_path / "nb.md"
    notebook.write_text(NOTEBOOK.format(word="one"))
    assert convert(str(notebook), execute=True) == "<div>one</div>"
    assert convert(str(notebook), execute=True) == "<div>one</div>"
    assert convert(str(notebook), execute=False) == "<div></div>"  # not run
    notebook.write_text(NOTEBOOK.format(word="two"))
    assert convert(str(notebook), execute=True) == "<div>two</div>"
    assert len(calls) == 3
    # Executed here, in this process; mkdocs-jupyter only renders.
    assert all(options["execute"] is False for options in calls)


def test_ci_site_builds_run_with_the_cache_off():
    text = (ROOT / "tests" / "helpers.py").read_text()
    assert '"ATTENTION_DOCS_CACHE": "on" if cache else "off"' in text


def test_library_edit_drops_page_modules_for_reimport(monkeypatch):
    import sys

    import attention_docs.figures  # noqa: F401

    saved = dict(sys.modules)
    try:
        monkeypatch.setattr(cache, "_last_fingerprint", cache.library_fingerprint())
        assert cache.refresh_library() is False  # unchanged: nothing dropped
        assert "attention_docs.figures" in sys.modules
        monkeypatch.setattr(cache, "_last_fingerprint", "an older library")
        assert cache.refresh_library() is True
        assert "attention_docs.figures" not in sys.modules
        assert "attention_docs" not in sys.modules
        assert "attention_docs.cache" in sys.modules  # the hooks keep theirs
    finally:
        sys.modules.update(saved)
