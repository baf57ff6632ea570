import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from pymdownx.slugs import slugify

import attention_docs
import attention_docs_site
from attention_docs_site.execute import fingerprints as exec_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.fingerprints import (
    TRACKED_PACKAGES,
    environment,
    library_fingerprint,
    library_folder,
    own_extensions,
    package_version,
    stable_config,
)
from attention_docs_site.execute.notebooks import CachedConverter


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
    labels = package / "labels" / "en" / "figures.py"
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
    assert set(environment()) == {"python", *TRACKED_PACKAGES}


def test_the_key_holds_every_package_that_shapes_the_html():
    shaping = {"mkdocs-jupyter", "jupytext", "Pygments", "pymdown-extensions"}
    shaping |= {"Markdown", "markdown-exec", "nbconvert", "matplotlib", "numpy"}
    assert shaping <= set(TRACKED_PACKAGES)
    assert environment()["numpy"] == package_version("numpy") != "absent"
    assert package_version("no-such-distribution-anywhere") == "absent"


def run(cache, value):
    """Start a build and ask for one block: (the value served, whether a hit)."""
    result = cache.cached("block", "a", lambda: (value, True), source="x = 1")
    return result.value, result.hit


@pytest.mark.parametrize("package", TRACKED_PACKAGES)
def test_an_upgraded_package_misses_the_same_versions_hit(cache, monkeypatch, package):
    cache.start_build()
    assert run(cache, "old") == ("old", False)
    cache.start_build()
    assert run(cache, "new") == ("old", True)
    installed = exec_cache.package_version
    upgraded = {package: installed(package) + ".post1"}
    monkeypatch.setattr(
        exec_cache, "package_version", lambda name: upgraded.get(name, installed(name))
    )
    cache.start_build()
    assert run(cache, "new") == ("new", False)
    monkeypatch.undo()  # the old version back: its entry is still there
    cache.start_build()
    assert run(cache, "newer") == ("old", True)


class Formatter:
    """A configuration value whose default repr holds its memory address."""

    def __call__(self, source):
        return source


def markdown_config(**toc):
    """A site's markdown_extensions and mdx_configs, made anew at each call."""
    extensions = ["toc", "pymdownx.superfences", "attr_list"]
    configs = {
        "toc": {"permalink": True, "slugify": slugify(case="lower"), **toc},
        "pymdownx.superfences": {
            "custom_fences": [{"name": "python", "format": Formatter()}]
        },
        "attr_list": {"kinds": {"note", "tip", "warning"}},
    }
    return extensions, configs


@pytest.mark.parametrize(
    "changed",
    [
        (["toc", "pymdownx.superfences"], markdown_config()[1]),  # one fewer
        markdown_config(permalink=False),
        markdown_config(slugify=slugify(case="none")),
        markdown_config(toc_depth=2),
    ],
    ids=["extension-removed", "option", "slugify-argument", "option-added"],
)
def test_another_markdown_configuration_misses_the_same_one_hits(cache, changed):
    cache.start_build(*markdown_config())
    assert run(cache, "old") == ("old", False)
    cache.start_build(*markdown_config())  # equal, but new objects
    assert run(cache, "new") == ("old", True)
    cache.start_build(*changed)
    assert run(cache, "new") == ("new", False)


class PluginExtension:
    """An extension object that a plugin appends in its on_config."""


def test_every_edition_of_one_build_has_the_same_key(cache):
    """What mkdocs-static-i18n does to one config, edition after edition.

    The plugins' on_config runs once per edition on the same config object:
    mkdocs-autorefs and mkdocstrings append their extension objects again, and
    our ``python`` fence, registered after the first edition's key was taken,
    is in the later ones'. None of that changes what a block's output is.
    """
    extensions, configs = markdown_config()
    configs["pymdownx.superfences"]["custom_fences"] = [{"name": "other"}]
    first = [*extensions, PluginExtension()]
    cache.start_build(first, configs)
    assert run(cache, "first edition") == ("first edition", False)
    for edition in range(2, 4):
        fences = configs["pymdownx.superfences"]["custom_fences"]
        fences.append({"name": "python", "format": Formatter()})
        again = first + [PluginExtension()] * (edition - 1)
        cache.start_build(again, configs)
        assert run(cache, f"edition {edition}") == ("first edition", True)
    configs["pymdownx.superfences"]["custom_fences"][0]["name"] = "renamed"
    cache.start_build(first, configs)  # another fence than ours still counts
    assert run(cache, "renamed") == ("renamed", False)
    cache.start_build([*extensions, PluginExtension(), "footnotes"], configs)
    assert run(cache, "footnotes") == ("footnotes", False)


def test_an_edit_to_our_own_markdown_extension_misses(cache, tmp_path, monkeypatch):
    """Our extensions have no version that changes with them: their source counts."""
    package = tmp_path / "attention_docs_site_copy"
    (package / "markdown").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "markdown" / "__init__.py").write_text("")
    extension = package / "markdown" / "mathml.py"
    extension.write_text("VERSION = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    name = "attention_docs_site_copy.markdown.mathml"
    own = own_extensions(["toc", name], package="attention_docs_site_copy")
    assert list(own) == [name]  # toc is in the key through Markdown's version
    monkeypatch.setattr(
        "attention_docs_site.execute.fingerprints.own_extensions",
        lambda names: own_extensions(names, package="attention_docs_site_copy"),
    )
    extensions = ["toc", name]
    cache.start_build(extensions, {})
    assert run(cache, "old") == ("old", False)
    cache.start_build(extensions, {})
    assert run(cache, "new") == ("old", True)
    extension.write_text("VERSION = 2\n")
    cache.start_build(extensions, {})
    assert run(cache, "new") == ("new", False)
    listed = own_extensions(["attention_docs_site.markdown.mathml"])
    assert len(listed["attention_docs_site.markdown.mathml"]) == 64  # found, hashed


def test_the_configuration_is_described_without_addresses_or_set_order():
    described = json.dumps(stable_config(markdown_config()), sort_keys=True)
    assert "0x" not in described
    assert "pymdownx.slugs._uslugify" in described and '"lower"' in described
    assert "test_cache.Formatter object" in described
    assert '["note", "tip", "warning"]' in described


KEY_IN_A_NEW_PROCESS = """
import sys
from pathlib import Path
from pymdownx.slugs import slugify
from attention_docs_site.execute.cache import ExecCache

cache = ExecCache(Path(sys.argv[1]), library=Path(sys.argv[2]))
configs = {
    "toc": {"slugify": slugify(case="lower")},
    "attr_list": {"kinds": {"note", "tip", "warning", "danger", "example"}},
    "pymdownx.superfences": {"custom_fences": [{"format": object()}]},
}
cache.start_build(["toc", "attr_list", "pymdownx.superfences"], configs)
print(cache.key("block", source="x = 1", session="s-en"))
"""


def test_the_key_is_the_same_in_every_process(cache):
    def key(seed):
        command = [sys.executable, "-c", KEY_IN_A_NEW_PROCESS]
        command += [str(cache.folder), str(cache.library)]
        environ = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(command, env=environ, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert len(key("1")) == 65  # a digest and a newline
    assert key("1") == key("2") == key("3")


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
        (package / "labels" / "en" / "figures.py").write_text(
            "# edited\n", encoding="utf-8"
        )
        assert cache.start_build() is True
        assert "attention_docs.figures" not in sys.modules
        assert "attention_docs" not in sys.modules
        assert "attention_docs_site.plugin" in sys.modules  # the plugin keeps its own
        assert cache.start_build() is False  # and only once per edit
    finally:
        sys.modules.update(saved)


def test_the_key_holds_every_package_that_shapes_a_notebook():
    """By distribution: IPython formats results, nbformat writes the download."""
    import importlib.metadata

    providers = importlib.metadata.packages_distributions()
    for module in ("IPython", "nbformat", "nbconvert", "jupytext", "mkdocs_jupyter"):
        assert set(providers[module]) & set(TRACKED_PACKAGES), module


def test_notebook_converter_is_keyed_on_jupyter_s_settings(
    tmp_path, cache, monkeypatch
):
    """mkdocs-jupyter renders with the nbconvert settings in Jupyter's folders."""
    settings = tmp_path / "jupyter"
    settings.mkdir()
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(settings))
    calls = []

    def nb2html(path, **options):
        calls.append(path)
        return "<div></div>"

    convert = CachedConverter(nb2html, cache, execute=False)
    notebook = tmp_path / "nb.md"
    notebook.write_text(NOTEBOOK.format(word="one"))
    convert(str(notebook))
    convert(str(notebook))
    assert len(calls) == 1
    hide = {"HTMLExporter": {"exclude_input": True}}
    (settings / "jupyter_nbconvert_config.json").write_text(json.dumps(hide))
    convert(str(notebook))
    assert len(calls) == 2
    (settings / "jupyter_config.py").write_text("c.HTMLExporter.theme = 'dark'\n")
    convert(str(notebook))
    assert len(calls) == 3


LIBRARY_MODULE = '''"""A module."""


def gaussian_scores(x):
    """Scores."""
    return x
'''


def test_the_library_names_check_reads_an_edit_that_keeps_size_and_time(
    tmp_path, monkeypatch
):
    """A quick edit can keep a file's size and its time stamp's tick."""
    from attention_docs_site.markdown import code_names

    package = tmp_path / "attention_docs"
    package.mkdir()
    (package / "__init__.py").write_text('"""The library."""\n')
    module = package / "scores.py"
    module.write_text(LIBRARY_MODULE)
    monkeypatch.setattr(code_names, "library_folder", lambda: package)
    page = "`scores.gaussian_scores` and `scores.gaussian_scorez`"
    with pytest.raises(code_names.UnknownLibraryName, match="gaussian_scorez"):
        code_names.check_code_names(page, "docs/page.md")
    stamp = module.stat()
    module.write_text(LIBRARY_MODULE.replace("scores(", "scorez("))
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert module.stat().st_size == stamp.st_size
    with pytest.raises(code_names.UnknownLibraryName, match="gaussian_scores`"):
        code_names.check_code_names(page, "docs/page.md")


def test_an_edited_data_file_of_the_library_misses(cache):
    """Such as the CJK font the figures are laid out with (font_files/)."""
    font = cache.library / "font_files" / "figures.otf"
    font.parent.mkdir()
    font.write_bytes(b"glyphs")
    (cache.library / "README.md").write_text("Notes for readers.\n")
    cache.start_build()
    assert run(cache, "old") == ("old", False)
    (cache.library / "README.md").write_text("Notes, edited.\n")  # read by no code
    cache.start_build()
    assert run(cache, "new") == ("old", True)
    font.write_bytes(b"other glyphs")
    cache.start_build()
    assert run(cache, "new") == ("new", False)
