"""The render caches (render_cache): compiled templates, and values by key."""

import json
import re
from types import SimpleNamespace

import jinja2
import pytest

from attention_docs_site.execute import render_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.render_cache import (
    TemplateBytecode,
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
    from attention_docs_site.execute.render_keys import interface_fingerprint

    module = tmp_path / "lib" / "mod.py"
    module.parent.mkdir()
    module.write_text(INTERFACE, encoding="utf-8")
    before = interface_fingerprint(module.parent)
    assert old in INTERFACE
    module.write_text(INTERFACE.replace(old, new, 1), encoding="utf-8")
    assert (interface_fingerprint(module.parent) != before) is shown


# The caches are keyed on everything that shapes what they hold (#43): each
# test below changes one such thing between two uses of a filled cache and
# expects what an empty cache would give.

TEMPLATE = "<p>\n  {% for x in items %}\n  <b>{{ x }}</b>\n  {% endfor %}\n</p>\n"


def rendered(bytecode, **settings):
    loader = jinja2.DictLoader({"page.html": TEMPLATE})
    env = jinja2.Environment(loader=loader, bytecode_cache=bytecode, **settings)
    return env.get_template("page.html").render(items=["&"])


@pytest.mark.parametrize(
    "settings",
    [
        {"trim_blocks": True},
        {"lstrip_blocks": True},
        {"keep_trailing_newline": True},
        {"autoescape": True},
        {"autoescape": jinja2.select_autoescape(default=True)},  # by name
        {"variable_start_string": "{=", "variable_end_string": "=}"},
    ],
    ids=["trim", "lstrip", "newline", "autoescape", "autoescape-by-name", "syntax"],
)
def test_a_template_compiled_under_other_settings_is_compiled_anew(tmp_path, settings):
    bytecode = TemplateBytecode()
    bytecode.use_folder(tmp_path / "jinja")
    assert rendered(bytecode) == rendered(None)
    assert rendered(bytecode, **settings) == rendered(None, **settings)
    assert rendered(None, **settings) != rendered(None)
    fresh = TemplateBytecode()  # a new process, the folder filled by both
    fresh.use_folder(tmp_path / "jinja")
    assert rendered(fresh, **settings) == rendered(None, **settings)


def test_a_template_compiled_by_another_jinja_is_compiled_anew(tmp_path, monkeypatch):
    bytecode = TemplateBytecode()
    bytecode.use_folder(tmp_path / "jinja")
    templates = {"page.html": "Hello {{ name }}!"}
    assert render(bytecode, templates) == ("Hello world!", 1)
    assert render(bytecode, templates) == ("Hello world!", 0)
    monkeypatch.setattr(jinja2, "__version__", jinja2.__version__ + ".post1")
    assert render(bytecode, templates) == ("Hello world!", 1)


def test_the_render_key_holds_every_package_that_shapes_what_it_keeps():
    """By distribution: griffe's is ``griffelib`` since griffe 2."""
    import importlib.metadata

    providers = importlib.metadata.packages_distributions()
    modules = ("griffe", "jinja2", "jieba", "backrefs", "material", "mkdocs")
    modules += ("mkdocs_autorefs", "mkdocstrings", "mkdocstrings_handlers", "ruff")
    for module in modules:  # ruff (or black) formats the API's signatures
        assert set(providers[module]) & set(render_cache.RENDER_PACKAGES), module
    assert "black" in render_cache.RENDER_PACKAGES


LIBRARY = '''"""A tiny library."""


def double(x: int) -> int:
    """Double ``x``, as [the home page](index.md) says."""
    return 2 * x
'''


@pytest.fixture
def api_page(tmp_path):
    """Render ``::: tinylib`` as the site's API page is rendered, behind the cache.

    Returns a function of the configuration: the handler's global options,
    the theme, the custom templates' folder, the page's address
    (``use_directory_urls``), and whether the cache is on.
    """
    import markdown
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import _RelativePathTreeprocessor
    from mkdocstrings import Handlers, MkdocstringsExtension

    library = tmp_path / "lib" / "tinylib"
    library.mkdir(parents=True)
    (library / "__init__.py").write_text(LIBRARY, encoding="utf-8")
    render_cache.install()

    def convert(
        options=None, *, theme="material", templates=None, urls=True, cache=True
    ):
        render_cache.use(ExecCache(tmp_path / "cache", enabled=cache, library=library))
        config = MkDocsConfig()
        config.load_dict({"site_name": "t", "use_directory_urls": urls})
        config.validate()
        files = Files([File(n, "docs", "site", urls) for n in ("index.md", "api.md")])
        page = SimpleNamespace(file=files.get_file_from_path("api.md"))
        page.url = page.file.url
        handlers = Handlers(
            theme=theme,
            default="python",
            inventory_project="tinylib",
            handlers_config={
                "python": {
                    "paths": [str(library.parent)],
                    "options": {"show_source": False, **(options or {})},  # the site's
                }
            },
            custom_templates=str(templates) if templates else None,
            mdx=["toc"],
            mdx_config={},
            locale="en",
            tool_config=SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml")),
        )
        autorefs = SimpleNamespace(current_page=page, register_anchor=lambda *a, **k: 0)
        md = markdown.Markdown(
            extensions=["toc", MkdocstringsExtension(handlers, autorefs)]
        )
        relpath = _RelativePathTreeprocessor(page.file, files, config)
        md.treeprocessors.register(relpath, "relpath", 0)
        return md.convert("::: tinylib")

    convert.library = library
    yield convert
    render_cache._BUILD.cache = None


@pytest.mark.parametrize(
    "changed",
    [
        {"options": {"show_source": True}},
        {"options": {"show_root_heading": True}},
        {"options": {"heading_level": 4, "show_root_heading": True}},
        {"urls": False},  # the docstring's link, relative to the page's address
    ],
    ids=["show_source", "show_root_heading", "heading_level", "urls"],
)
def test_an_api_entry_is_rendered_anew_when_the_handler_s_configuration_changes(
    api_page, changed
):
    first = api_page()
    assert api_page() == first
    assert render_cache.stats() == render_cache.RenderStats(hits=1, misses=0)
    assert api_page(**changed) == api_page(**changed, cache=False) != first
    assert api_page() == first  # the first entry is still there


def test_with_show_source_an_api_entry_is_rendered_anew_when_the_code_changes(
    api_page,
):
    def code(html):
        return re.sub(r"<[^>]+>", "", html)

    options = {"show_source": True}
    hidden = api_page()
    assert "return 2 * x" in code(api_page(options))
    module = api_page.library / "__init__.py"
    module.write_text(LIBRARY.replace("2 * x", "x + x"), encoding="utf-8")
    assert api_page() == hidden  # the code is not shown: a hit
    assert render_cache.stats() == render_cache.RenderStats(hits=1, misses=0)
    shown = api_page(options)
    assert shown == api_page(options, cache=False)
    assert "return x + x" in code(shown)


def test_an_api_entry_is_rendered_anew_when_a_custom_template_changes(
    api_page, tmp_path
):
    folder = tmp_path / "templates"
    template = folder / "python" / "readthedocs" / "function.html.jinja"
    template.parent.mkdir(parents=True)
    template.write_text("<p>first {{ function.name }}</p>", encoding="utf-8")
    assert "<p>first double</p>" in api_page(templates=folder, theme="readthedocs")
    template.write_text("<p>second {{ function.name }}</p>", encoding="utf-8")
    assert "<p>second double</p>" in api_page(templates=folder, theme="readthedocs")
    # The template is for that theme only: the handler's own for this one.
    assert api_page(templates=folder) == api_page(cache=False)


SEARCH = {  # Material's search options, as its plugin hands them to SearchIndex
    "enabled": True,
    "lang": ["en"],
    "separator": r"[\s\-]+",
    "pipeline": ["stemmer"],
    "fields": {},
    "jieba_dict": None,
    "jieba_dict_user": None,
}


def test_search_entries_are_keyed_on_the_jieba_dictionaries(
    build_cache, tmp_path, monkeypatch
):
    from material.plugins.search.plugin import SearchIndex

    render_cache.install()
    monkeypatch.chdir(tmp_path)  # Material reads them from the working folder
    words = tmp_path / "words.txt"
    words.write_text("注意力 10 n\n", encoding="utf-8")
    page = SimpleNamespace(
        content='<h1 id="a">Attention</h1><p>Pooling</p>',
        url="p/",
        title="Attention",
        meta={},
        toc=[],
    )

    def misses(**options):
        index = SearchIndex(**{**SEARCH, **options})
        index.add_entry_from_context(page)
        assert [entry["title"] for entry in index.entries] == ["Attention"]
        return render_cache.stats().misses

    assert misses() == 1
    assert misses() == 1  # a hit
    assert misses(jieba_dict_user="words.txt") == 2
    assert misses(jieba_dict_user="words.txt") == 2
    assert misses(jieba_dict="words.txt") == 3
    words.write_text("注意力 20 n\n", encoding="utf-8")  # and the next build
    render_cache.use(build_cache)
    assert misses(jieba_dict_user="words.txt") == 1
    assert misses() == 1


NOTEBOOK_TEXT = "# Exercises\n\nSome text.\n"


def test_a_notebook_s_headings_are_keyed_on_its_format_and_jupyter_s_settings(
    build_cache, tmp_path, monkeypatch
):
    import mkdocs_jupyter.plugin as jupyter

    from attention_docs_site.execute.notebooks import quicken_mkdocs_jupyter

    quicken_mkdocs_jupyter()
    settings = tmp_path / "jupyter"
    settings.mkdir()
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(settings))

    def title(path):
        return jupyter._get_nb_toc_tokens(str(path), 6)[1]

    markdown, script = tmp_path / "nb.md", tmp_path / "nb.py"
    markdown.write_text(NOTEBOOK_TEXT, encoding="utf-8")
    assert title(markdown) == "Exercises"
    assert title(markdown) == "Exercises"
    assert render_cache.stats() == render_cache.RenderStats(hits=1, misses=1)
    # The same text as a script: a comment, not a heading.
    script.write_text(NOTEBOOK_TEXT, encoding="utf-8")
    assert title(script) is None
    # The user's nbconvert settings, which mkdocs-jupyter loads.
    drop = {"MarkdownExporter": {"exclude_markdown": True}}
    (settings / "jupyter_nbconvert_config.json").write_text(json.dumps(drop))
    render_cache.use(build_cache)  # the next build
    assert title(markdown) is None


def test_the_math_font_is_keyed_on_the_brotli_that_compresses_it(
    build_cache, tmp_path, monkeypatch
):
    from attention_docs_site.site import math_font

    site = tmp_path / "site"
    (site / math_font.FONT).parent.mkdir(parents=True)
    (site / "index.html").write_text("<math><mi>x</mi></math>", encoding="utf-8")
    cuts = []

    def cut(font, characters):
        cuts.append(characters)
        return b"cut"

    monkeypatch.setattr(math_font, "subset", cut)
    versions = {"Brotli": "1.0"}
    installed = math_font.package_version
    monkeypatch.setattr(
        math_font, "package_version", lambda name: versions.get(name, installed(name))
    )
    for version, made in (("1.0", 1), ("1.0", 1), ("1.1", 2)):
        versions["Brotli"] = version
        (site / math_font.FONT).write_bytes(b"full")
        math_font.subset_site_font(site, {})
        assert (site / math_font.FONT).read_bytes() == b"cut"
        assert len(cuts) == made
