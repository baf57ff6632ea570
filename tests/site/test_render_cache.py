"""The render caches (render_cache): compiled templates, and values by key."""

import jinja2
import pytest

from attention_docs_site.execute import render_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.render_cache import (
    RenderCacheUnsupported,
    TemplateBytecode,
    checked,
    lookup,
)


class CountingEnvironment(jinja2.Environment):
    compiled = 0

    def compile(self, *args, **kwargs):
        CountingEnvironment.compiled += 1
        return super().compile(*args, **kwargs)


def render(bytecode, templates):
    CountingEnvironment.compiled = 0
    env = CountingEnvironment(
        loader=jinja2.DictLoader(templates), bytecode_cache=bytecode
    )
    return env.get_template("page.html").render(name="world"), env.compiled


def test_a_template_is_compiled_once_then_loaded_until_its_source_changes(tmp_path):
    bytecode = TemplateBytecode()
    bytecode.use_folder(tmp_path / "jinja")
    templates = {"page.html": "Hello {{ name }}!"}
    assert render(bytecode, templates) == ("Hello world!", 1)
    assert render(bytecode, templates) == ("Hello world!", 0)  # another env
    # A new process: only the folder is left.
    fresh = TemplateBytecode()
    fresh.use_folder(tmp_path / "jinja")
    assert render(fresh, templates) == ("Hello world!", 0)
    assert render(fresh, {"page.html": "Bye {{ name }}."}) == ("Bye world.", 1)
    # Memory only: nothing more on disk.
    files = sorted((tmp_path / "jinja").iterdir())
    memory = TemplateBytecode()
    memory.use_folder(None)
    assert render(memory, {"page.html": "Hi {{ name }}"}) == ("Hi world", 1)
    assert sorted((tmp_path / "jinja").iterdir()) == files


@pytest.fixture
def build_cache(tmp_path):
    cache = ExecCache(tmp_path / "cache")
    render_cache.use(cache)
    yield cache
    render_cache._BUILD.cache = None


def test_a_value_is_computed_once_per_key_and_refused_values_are_recomputed(
    build_cache,
):
    calls = []

    def compute():
        calls.append(1)
        return {"html": "<p>x</p>"}

    def valid(found):
        return "html" in found

    assert lookup("api", compute, valid, identifier="a") == {"html": "<p>x</p>"}
    assert lookup("api", compute, valid, identifier="a") == {"html": "<p>x</p>"}
    assert len(calls) == 1
    lookup("api", compute, valid, identifier="b")
    assert len(calls) == 2
    assert render_cache.stats() == render_cache.RenderStats(hits=1, misses=2)
    # An entry of another shape (an older version of the module) is replaced.
    key = build_cache.key("api", versions=render_cache._BUILD.versions, identifier="c")
    build_cache.store(key, ["old"])
    assert lookup("api", compute, valid, identifier="c") == {"html": "<p>x</p>"}
    assert build_cache.load(key) == {"html": "<p>x</p>"}


def test_with_the_cache_off_every_value_is_computed(build_cache, tmp_path):
    build_cache = ExecCache(tmp_path / "off", enabled=False)
    render_cache.use(build_cache)
    calls = []
    for _ in range(2):
        lookup("search", lambda: calls.append(1) or [], lambda found: True, page="p")
    assert len(calls) == 2
    assert not (build_cache.folder / "jinja").exists()


def test_a_wrapped_function_that_changed_shape_is_named():
    class Theirs:
        def render(self, page, extra): ...

    assert checked(Theirs, "render", ["self", "page", "extra"]) is Theirs.render
    with pytest.raises(RenderCacheUnsupported, match=r"Theirs\.render changed"):
        checked(Theirs, "render", ["self", "page"])
    with pytest.raises(RenderCacheUnsupported, match=r"Theirs\.gone changed"):
        checked(Theirs, "gone", ["self"])


def test_the_wrapped_packages_have_the_shape_the_caches_expect():
    """The installed mkdocstrings, Material and mkdocs-jupyter (pinned by the lock)."""
    from attention_docs_site.execute.notebooks import quicken_mkdocs_jupyter

    render_cache.install()
    quicken_mkdocs_jupyter()
    import mkdocs_jupyter.plugin as jupyter
    from material.plugins.search.plugin import SearchIndex
    from mkdocstrings import AutoDocProcessor
    from mkdocstrings_handlers.python import PythonHandler

    for wrapped in (
        AutoDocProcessor._process_block,
        PythonHandler.get_aliases,
        SearchIndex.add_entry_from_context,
        jupyter.Plugin.should_include,
        jupyter._get_nb_toc_tokens,
    ):
        assert hasattr(wrapped, "__wrapped__"), wrapped


INTERFACE = '''
"""A module."""

SCALE = 3


def shaped(x: int, y: float = 1.0) -> float:
    """Scale ``x``."""
    total = x * SCALE
    return total + y


class Model:
    """A model."""

    rate: float = 0.1

    def __init__(self, width: int) -> None:
        self.width = width
        """Its width."""

    def fit(self) -> None:
        """Fit it."""
        self.width += 1
'''


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        # What the API page shows: the digest changes.
        ('"""Scale ``x``."""', '"""Scale ``x`` up."""', True),
        ("y: float = 1.0", "y: float = 2.0", True),
        ("-> float:", "-> int:", True),
        ("SCALE = 3", "SCALE = 4", True),
        ("rate: float = 0.1", "rate: float = 0.2", True),
        ("self.width = width", "self.size = width", True),  # griffe documents it
        ("def fit(self)", "def refit(self)", True),
        # A function's code, which it does not show: the same digest.
        ("return total + y", "return y + total", False),
        ("self.width += 1", "self.width += 2", False),
        ('"""A model."""\n', '"""A model."""\n\n', False),  # lines only
    ],
)
def test_the_api_entries_key_on_what_the_api_page_shows(tmp_path, old, new, shown):
    from attention_docs_site.execute.render_cache import interface_fingerprint

    module = tmp_path / "lib" / "mod.py"
    module.parent.mkdir()
    module.write_text(INTERFACE, encoding="utf-8")
    before = interface_fingerprint(module.parent)
    assert old in INTERFACE
    module.write_text(INTERFACE.replace(old, new, 1), encoding="utf-8")
    assert (interface_fingerprint(module.parent) != before) is shown
