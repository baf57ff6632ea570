import ast
import contextlib
from collections.abc import Iterator
from pathlib import Path

import mkdocs_jupyter.convert
import pytest
from helpers import ROOT
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from attention_docs_site.execute.notebooks import CachedConverter
from attention_docs_site.plugin import AttentionDocsPlugin

SRC = ROOT / "src"
WINGS = ("attention_docs", "attention_docs_site")
OVERRIDES = (
    "ATTENTION_DOCS_CACHE",
    "ATTENTION_DOCS_CACHE_DIR",
    "ATTENTION_DOCS_EXECUTE",
    "ATTENTION_DOCS_EXECUTE_NOTEBOOKS",
    "ATTENTION_DOCS_PDF",
    "ATTENTION_DOCS_SPEED_EDITS",
)


def imports_of(path: Path, package: str) -> set[str]:
    """The modules of ``src/`` that one module imports (at any depth of its code)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            module = ".".join(filter(None, [base, node.module]))
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def import_graph() -> dict[str, set[str]]:
    modules = {
        ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(
            ".__init__"
        ): path
        for wing in WINGS
        for path in (SRC / wing).rglob("*.py")
    }

    def package(name: str, path: Path) -> str:
        return name if path.name == "__init__.py" else name.rpartition(".")[0]

    return {
        name: {
            target
            for target in imports_of(path, package(name, path))
            if target in modules and target != name
        }
        for name, path in modules.items()
    }


def test_the_library_never_imports_the_plugin_and_the_plugin_uses_the_library():
    graph = import_graph()
    library = {name for name in graph if name.split(".")[0] == "attention_docs"}
    assert "attention_docs.pooling" in library and "attention_docs_site" not in library
    for name in library:
        assert not {t for t in graph[name] if t.startswith("attention_docs_site")}, name
    plugin_uses = set().union(*(graph[n] for n in graph if n not in library))
    assert plugin_uses & library  # the plugin draws with the library


def test_the_import_graph_has_no_cycles():
    graph = import_graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for target in graph[name]:
            if target in graph:
                visit(target, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_the_graph_sees_imports_in_functions_and_relative_ones(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from . import links\nfrom .fence import CachedFence\n"
        "def f():\n    from attention_docs import diagrams\n"
    )
    found = imports_of(module, "attention_docs_site")
    assert {
        "attention_docs_site.links",
        "attention_docs_site.fence",
    } <= found
    assert "attention_docs.diagrams" in found
    deeper = tmp_path / "n.py"
    deeper.write_text("from ..svg import Drawing\nfrom .panels import fit_drawing\n")
    found = imports_of(deeper, "attention_docs.figures")
    assert {"attention_docs.svg", "attention_docs.figures.panels"} <= found


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, True), ("off", False), ("False", False), ("0", False), (" yes ", True)],
)
def test_an_environment_variable_overrides_an_option(monkeypatch, value, expected):
    """mkdocs.yml reads the option with !ENV; YAML types the variable's text."""
    for name in OVERRIDES:
        monkeypatch.delenv(name, raising=False)
    if value is not None:
        monkeypatch.setenv("ATTENTION_DOCS_CACHE", value)
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert config.plugins["attention_docs"].config.cache is expected


def test_an_unclear_override_names_the_option_and_the_value(monkeypatch):
    monkeypatch.setenv("ATTENTION_DOCS_EXECUTE", "maybe")
    with pytest.raises(Abort):
        load_config(str(ROOT / "mkdocs.yml"))
    plugin = AttentionDocsPlugin()
    errors, _ = plugin.load_config({"execute_code": "maybe"})
    assert errors[0][0] == "execute_code" and "'maybe': use on or off" in str(
        errors[0][1]
    )


def test_options_are_typed():
    plugin = AttentionDocsPlugin()
    errors, _ = plugin.load_config({"cache": "sometimes"})
    assert errors and errors[0][0] == "cache"
    errors, _ = plugin.load_config({"execute_notebooks": False})
    assert not errors
    assert plugin.config.execute_notebooks is False
    assert plugin.config.cache is True
    assert plugin.config.cache_dir == ".cache/attention_docs"


@pytest.fixture
def site_config(monkeypatch):
    for name in OVERRIDES:
        monkeypatch.delenv(name, raising=False)
    # on_config replaces mkdocs-jupyter's converter; put the original back after.
    monkeypatch.setattr(
        mkdocs_jupyter.convert, "nb2html", mkdocs_jupyter.convert.nb2html
    )
    return load_config(str(ROOT / "mkdocs.yml"))


def test_mkdocs_yml_configures_the_plugin_and_on_config_wires_the_cache(site_config):
    plugin = site_config.plugins["attention_docs"]
    assert isinstance(plugin, AttentionDocsPlugin)
    plugin.on_config(site_config)
    assert plugin.execution.cache.enabled is True
    assert plugin.execution.cache.folder == ROOT / ".cache" / "attention_docs"
    fences = site_config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert [f["format"] for f in fences if f["name"] == "python"] == [
        plugin.execution.fence
    ]
    converter = mkdocs_jupyter.convert.nb2html
    assert isinstance(converter, CachedConverter) and converter.execute is True
    # A second build (mkdocs serve) replaces the fence and the wrapper, no stacking.
    plugin.on_config(site_config)
    fences = site_config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert [f["format"] for f in fences if f["name"] == "python"] == [
        plugin.execution.fence
    ]
    assert mkdocs_jupyter.convert.nb2html.nb2html is converter.nb2html
    assert not isinstance(converter.nb2html, CachedConverter)


def test_environment_overrides_reach_the_cache_fence_and_notebooks(
    site_config, monkeypatch, tmp_path
):
    monkeypatch.setenv("ATTENTION_DOCS_CACHE", "off")
    monkeypatch.setenv("ATTENTION_DOCS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ATTENTION_DOCS_EXECUTE", "off")
    monkeypatch.setenv("ATTENTION_DOCS_EXECUTE_NOTEBOOKS", "false")
    site_config = load_config(str(ROOT / "mkdocs.yml"))  # !ENV reads them now
    plugin = site_config.plugins["attention_docs"]
    plugin.on_config(site_config)
    assert (plugin.execution.cache.enabled, plugin.execution.cache.folder) == (
        False,
        tmp_path,
    )
    assert plugin.execution.fence.execute is False
    assert plugin.execution.converter.execute is False


def test_the_plugin_outlives_serve_rebuilds():
    # MkDocs keeps an instance across `mkdocs serve` rebuilds only if it has
    # on_startup; the cache needs that to notice a library edit.
    assert hasattr(AttentionDocsPlugin, "on_startup")


@contextlib.contextmanager
def _live_server(folder: Path) -> Iterator[object]:
    """MkDocs' live-reload server watching ``folder/docs``; closed after."""
    from mkdocs.livereload import LiveReloadServer

    server = LiveReloadServer(
        builder=lambda: None, host="127.0.0.1", port=0, root=str(folder)
    )
    try:
        (folder / "docs").mkdir()
        server.watch(str(folder / "docs"))  # as MkDocs watches before on_serve
        yield server
    finally:
        if server.observer.is_alive():
            server.observer.stop()
            server.observer.join()
        server.server_close()  # its socket, made but never bound


def test_under_serve_a_saved_file_is_noticed_within_a_tenth_of_a_second(tmp_path):
    """MkDocs' server polls every 0.5 s; the plugin makes it 0.1 s, every watch."""
    import time

    with _live_server(tmp_path) as server:
        observer = server.observer
        assert [observer.timeout, *(e.timeout for e in observer.emitters)] == [0.5] * 2
        returned = AttentionDocsPlugin().on_serve(server, config=None, builder=None)
        assert returned is server
        (tmp_path / "lib").mkdir()
        server.watch(str(tmp_path / "lib"))  # as mkdocs.yml's watch: after on_serve
        assert [e.timeout for e in observer.emitters] == [0.1, 0.1]
        # The watches still work: a saved page asks the server for a rebuild.
        observer.start()
        time.sleep(0.3)  # the first poll records the folder as it is
        (tmp_path / "docs" / "page.md").write_text("edited", encoding="utf-8")
        with server._rebuild_cond:
            assert server._rebuild_cond.wait_for(lambda: server._want_rebuild, 10)


def test_under_serve_the_server_builds_0_03_s_after_a_change(tmp_path):
    with _live_server(tmp_path) as server:
        AttentionDocsPlugin().on_serve(server, config=None, builder=None)
        assert server.build_delay == 0.03
