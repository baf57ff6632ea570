import json
import shutil
from pathlib import Path

import nbformat
import pytest

import attention_docs
import attention_docs_site
from attention_docs_site.exec_cache import (
    ExecCache,
    environment,
    library_fingerprint,
    library_folder,
)
from attention_docs_site.notebook_files import CachedConverter


@pytest.fixture
def cache_in_tmp(tmp_path):
    return tmp_path / "cache"


@pytest.fixture
def cache(cache_in_tmp, tmp_path):
    # A library of its own: recording a run re-imports the library it watches.
    package = tmp_path / "cache_test_library"
    package.mkdir()
    (package / "__init__.py").write_text("")
    return ExecCache(cache_in_tmp, library=package)


def test_the_fingerprint_covers_the_library_and_not_the_build_package(tmp_path):
    assert library_folder() == Path(attention_docs.__file__).parent
    package = tmp_path / "attention_docs"
    shutil.copytree(
        library_folder(), package, ignore=shutil.ignore_patterns("__pycache__")
    )
    before = library_fingerprint(package)
    assert library_fingerprint(package) == before
    labels = package / "labels" / "en.py"
    labels.write_text(labels.read_text() + "\n# edited\n")
    assert library_fingerprint(package) != before
    # The plugin's own modules are another package: editing them keeps entries.
    site_package = Path(attention_docs_site.__file__).parent
    assert not site_package.is_relative_to(library_folder())


def test_keys_depend_on_every_part(cache):
    base = cache.key("block", source="x = 1", session="s-en")
    assert cache.key("block", source="x = 1", session="s-en") == base
    assert cache.key("block", source="x = 2", session="s-en") != base
    assert cache.key("block", source="x = 1", session="s-zh") != base
    assert cache.key("notebook", source="x = 1", session="s-en") != base
    # The library is not in the key: each entry records the code it reached.
    cache.fingerprint = "another library"
    assert cache.key("block", source="x = 1", session="s-en") == base
    assert set(environment()) >= {"python", "numpy", "torch", "matplotlib"}


def test_store_and_load_roundtrip(cache):
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
def test_corrupt_entry_is_deleted_and_not_served(cache, cache_in_tmp, damage):
    key = "ef" * 32
    cache.store(key, "<svg/>")
    (path,) = cache_in_tmp.rglob("*.json")
    path.write_text(damage(path.read_text()))
    assert cache.load(key) is None
    assert not path.exists()
    assert cache.stats.corrupt == 1


def test_cached_counts_and_keeps_only_good_values(cache):
    calls = []

    def compute(value, keep=True):
        def run():
            calls.append(value)
            return value, keep

        return run

    def value(label, run, source):
        return cache.cached("block", label, run, source=source).value

    assert value("a", compute("one"), "a") == "one"
    assert value("a", compute("two"), "a") == "one"
    assert value("b", compute("bad", keep=False), "b") == "bad"
    assert value("b", compute("again", keep=False), "b") == "again"
    assert calls == ["one", "bad", "again"]
    assert (cache.stats.hits, cache.stats.misses) == (1, 3)


def test_turned_off_it_computes_everything(cache_in_tmp, cache):
    cache.enabled = False
    for _ in range(2):
        cache.cached("block", "a", lambda: ("v", True), source="a")
    assert (cache.stats.hits, cache.stats.misses) == (0, 2)
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


def test_notebook_converter_is_cached_on_the_notebook_bytes(tmp_path, cache):
    calls = []

    def nb2html(path, **options):
        calls.append(options)
        nb = nbformat.read(path, as_version=4)
        outputs = [o.get("text", "") for c in nb.cells for o in c.get("outputs", [])]
        return f"<div>{''.join(outputs).strip()}</div>"

    convert = CachedConverter(nb2html, cache)
    notebook = tmp_path / "nb.md"
    notebook.write_text(NOTEBOOK.format(word="one"))
    # mkdocs-jupyter's own `execute` is ignored: the converter decides.
    assert convert(str(notebook), execute=False) == "<div>one</div>"
    assert convert(str(notebook), execute=True) == "<div>one</div>"
    assert str(notebook.resolve()) in convert.executed
    unexecuted = CachedConverter(nb2html, cache, execute=False)
    assert unexecuted(str(notebook), execute=True) == "<div></div>"  # not run
    notebook.write_text(NOTEBOOK.format(word="two"))
    assert convert(str(notebook), execute=True) == "<div>two</div>"
    assert len(calls) == 3
    # Executed here, in this process; mkdocs-jupyter only renders.
    assert all(options["execute"] is False for options in calls)


def test_library_edit_drops_the_library_modules_for_reimport(tmp_path):
    import sys

    import attention_docs.figures  # noqa: F401
    import attention_docs_site.plugin  # noqa: F401

    package = tmp_path / "attention_docs"
    shutil.copytree(
        library_folder(), package, ignore=shutil.ignore_patterns("__pycache__")
    )
    cache = ExecCache(tmp_path / "cache", library=package)
    saved = dict(sys.modules)
    try:
        assert cache.start_build() is False  # unchanged: nothing dropped
        assert "attention_docs.figures" in sys.modules
        (package / "labels" / "en.py").write_text("# edited\n", encoding="utf-8")
        assert cache.start_build() is True
        assert "attention_docs.figures" not in sys.modules
        assert "attention_docs" not in sys.modules
        assert "attention_docs_site.plugin" in sys.modules  # the plugin keeps its own
        assert cache.start_build() is False  # and only once per edit
    finally:
        sys.modules.update(saved)
