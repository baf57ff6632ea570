"""Render caches: the theme's and plugins' work that an unchanged input repeats.

A build that executes no code still spent most of its time in three places
(a profile of a rebuild with nothing changed, see ``benchmarks/build.py``):

- **Jinja compiling templates**, once per template per edition, for the
  theme and for mkdocstrings, and once per notebook for nbconvert's;
- **mkdocstrings rendering the API pages** from the library's docstrings;
- **Material's search plugin** parsing every page's HTML into entries.

Each is put behind a cache keyed on what shapes its output:

- compiled templates go to Jinja's own bytecode cache (in memory, and on disk
  in the cache folder), which checks each template's source before using it;
  the key adds how the environment compiles (:func:`compile_settings`);
- an API entry's HTML and headings are keyed on the ``:::`` block, the page
  and its address, the locale, the handler's configuration (the options it
  renders with, from ``mkdocs.yml`` and the block, its theme and every
  template it can load: :func:`api_configuration`), what the entry shows of
  the library, the site's Markdown configuration and the versions of the
  packages that render it;
- a page's search entries are keyed on its HTML, address, title, table of
  contents, front matter, the search plugin's options and the jieba
  dictionaries they name.

Entries live in the execution cache's folder (:class:`.exec_cache.ExecCache`),
are checked the same way, and are not read or written when the cache is off
(``ATTENTION_DOCS_CACHE=off``). The wrappers are installed once per process
(:func:`install`) and look up the build's cache, so with no build under way
(:func:`use` not called) mkdocstrings and the search plugin run as written.

Each wrapper checks that the code it wraps still has the shape it expects,
and raises :class:`RenderCacheUnsupported` naming it otherwise; the versions
are pinned by the lock (``requirements/constraints.txt``).
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import fromstring, tostring

import jinja2

from attention_docs_site.execute.cache import (
    ExecCache,
    library_folder,
    package_version,
    stable_config,
)

if TYPE_CHECKING:
    from mkdocs.structure.toc import AnchorLink

log = logging.getLogger("mkdocs.plugins.attention_docs.cache")

# The distributions whose version can change what these caches hold.
RENDER_PACKAGES = (
    "Jinja2",
    "backrefs",  # finds the Chinese text that jieba splits (search)
    "black",  # formats the API's signatures (separate_signature) if installed,
    "ruff",  # else ruff does; with neither, they are left as they are
    "griffe",  # griffe before 2.0
    "griffelib",  # griffe 2: the distribution of the griffe package
    "jieba",
    "mkdocs",
    "mkdocs-autorefs",
    "mkdocs-material",
    "mkdocstrings",
    "mkdocstrings-python",
)


class RenderCacheUnsupported(RuntimeError):
    """A wrapped package's code no longer has the shape the cache expects."""


@dataclass
class RenderStats:
    """What the render caches served during one build."""

    hits: int = 0
    misses: int = 0


class _Build:
    """The cache and counts of the build under way (one per process)."""

    cache: ExecCache | None = None
    versions: dict[str, str] = {}  # noqa: RUF012 (replaced, never mutated)
    stats = RenderStats()
    # API heading id -> the names it is also known by (from a cached entry)
    aliases: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 (replaced in use())
    # Digests of files read once per build: template folders, dictionaries.
    digests: dict[object, object] = {}  # noqa: RUF012 (replaced in use())


_BUILD = _Build()


# The settings of a Jinja environment that its lexer and parser read.
_SYNTAX = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
)


def compile_settings(environment: jinja2.Environment, name: str | None) -> str:
    """What of ``environment`` shapes the code Jinja compiles template ``name`` to.

    Its syntax and whitespace settings, extensions, autoescaping (as decided
    for ``name``), finalize, async mode, code generator and gettext style,
    and Jinja's version (its bytecode format's number changes less often than
    its code generator). Filters, tests and globals are left out: a compiled
    template looks them up when it runs.
    """
    autoescape = environment.autoescape
    if callable(autoescape):
        autoescape = autoescape(name)
    settings = {
        "jinja": jinja2.__version__,
        "syntax": [getattr(environment, setting) for setting in _SYNTAX],
        "extensions": sorted(environment.extensions),
        "autoescape": bool(autoescape),
        "optimized": environment.optimized,
        "async": environment.is_async,
        "finalize": environment.finalize,
        "generator": environment.code_generator_class,
        "gettext": getattr(environment, "newstyle_gettext", None),
    }
    return json.dumps(stable_config(settings), sort_keys=True)


class TemplateBytecode(jinja2.BytecodeCache):
    """Jinja's compiled templates, in memory and, if given a folder, on disk.

    Jinja keys an entry on the template's name and file and checks the
    source's checksum and the Python version before using it, so an edited
    template or another Python compiles anew. One cache serves environments
    that compile differently (the theme's, mkdocstrings'), so the key also
    holds how the environment compiles (:func:`compile_settings`).
    """

    def __init__(self) -> None:
        self.memory: dict[str, bytes] = {}
        self.disk: jinja2.FileSystemBytecodeCache | None = None

    def use_folder(self, folder: Path | None) -> None:
        """Also keep compiled templates in ``folder`` (None: memory only)."""
        if folder is None:
            self.disk = None
            return
        folder.mkdir(parents=True, exist_ok=True)
        self.disk = jinja2.FileSystemBytecodeCache(str(folder))

    def get_bucket(
        self,
        environment: jinja2.Environment,
        name: str,
        filename: str | None,
        source: str,
    ) -> jinja2.bccache.Bucket:
        """Jinja's bucket for a template, keyed also on how ``environment`` compiles."""
        key = self.get_cache_key(name, filename) + compile_settings(environment, name)
        digest = hashlib.sha256(key.encode()).hexdigest()
        bucket = jinja2.bccache.Bucket(
            environment, digest, self.get_source_checksum(source)
        )
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from memory, else from the folder (if any)."""
        data = self.memory.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)
        elif self.disk is not None:
            self.disk.load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep the bucket's code in memory and in the folder (if any)."""
        self.memory[bucket.key] = bucket.bytecode_to_string()
        if self.disk is not None:
            self.disk.dump_bytecode(bucket)


BYTECODE = TemplateBytecode()


def use(cache: ExecCache) -> None:
    """Serve this build's renderings from ``cache``, and count them anew."""
    _BUILD.cache = cache
    _BUILD.versions = {name: package_version(name) for name in RENDER_PACKAGES}
    _BUILD.stats = RenderStats()
    _BUILD.aliases = {}
    _BUILD.digests = {}
    BYTECODE.use_folder(cache.folder / "jinja" if cache.enabled else None)


def stats() -> RenderStats:
    """The counts of the build under way."""
    return _BUILD.stats


def lookup(
    kind: str, compute: Callable[[], Any], valid: Callable[[Any], bool], **parts: object
) -> Any:  # noqa: ANN401
    """The cached value of ``kind`` for ``parts``, computed and stored on a miss.

    A stored value that ``valid`` refuses (written by an older version of this
    module) counts as a miss and is replaced.
    """
    cache = _BUILD.cache
    if cache is None:
        return compute()
    key = cache.key(kind, versions=_BUILD.versions, **parts)
    found = cache.load(key)
    if found is not None and valid(found):
        _BUILD.stats.hits += 1
        return found
    _BUILD.stats.misses += 1
    value = compute()
    cache.store(key, value)
    return value


def checked(owner: object, name: str, expected: Iterable[str]) -> Callable[..., Any]:
    """``owner.name`` (a class's or a module's), checked to take ``expected``.

    Raises:
        RenderCacheUnsupported: It is missing or takes other parameters.
    """
    import inspect

    original = getattr(owner, name, None)
    wanted = list(expected)
    if original is None or list(inspect.signature(original).parameters) != wanted:
        where = getattr(owner, "__qualname__", getattr(owner, "__name__", owner))
        module = getattr(owner, "__module__", None)
        raise RenderCacheUnsupported(
            f"{module + '.' if module else ''}{where}.{name} changed (expected "
            f"parameters {wanted}); update attention_docs_site/execute/render_cache.py"
        )
    return original


def interface_fingerprint(root: Path) -> str:
    """A digest of what the API pages show of the library: not its functions' code.

    mkdocstrings reads the library statically (griffe), and with
    ``show_source: false`` it shows modules, classes, signatures, docstrings
    and module and class attributes, never a function's code. So the digest
    covers every module's syntax tree with each function's body cut to its
    docstring, except ``__init__`` and ``__post_init__``, whose assignments
    to ``self`` griffe documents. Line numbers do not count.
    """
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(_interface(path.read_bytes()).encode() + b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=8)
def _interface_of(root: Path, fingerprint: str) -> str:
    """:func:`interface_fingerprint`, once per state of the library's files.

    ``fingerprint`` (the execution cache's, of every file's bytes) changes
    with any edit, so each ``:::`` block of a build shares one reading.
    """
    return interface_fingerprint(root)


@functools.lru_cache(maxsize=256)
def _interface(source: bytes) -> str:
    """One module's syntax tree without its functions' code (see above)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            node.name not in {"__init__", "__post_init__"}
        ):
            docstring = ast.get_docstring(node, clean=False)
            node.body = [ast.Expr(ast.Constant(docstring))] if docstring else []
    return ast.dump(tree, include_attributes=False)


def shows_only_interface(options: object) -> bool:
    """Whether an API entry rendered with ``options`` shows only the interface.

    That is, only what :func:`interface_fingerprint` covers: with the python
    handler's options, no function's code (``show_source``), the library
    read from its source rather than imported (``force_inspection``), and no
    griffe extension, which may read anything. Other handlers' options (a
    mapping) never qualify.
    """
    return (
        getattr(options, "show_source", True) is False
        and getattr(options, "force_inspection", True) is False
        and not getattr(options, "extensions", True)
    )


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part + b"\0")
    return digest.hexdigest()


def _once_per_build(key: object, compute: Callable[[], object]) -> object:
    """``compute()``, once per build for ``key`` (files a build reads again)."""
    if key not in _BUILD.digests:
        _BUILD.digests[key] = compute()
    return _BUILD.digests[key]


def _folders_digest(folders: tuple[str, ...]) -> str:
    """A digest of every file in ``folders``, in order, by relative path and bytes.

    Where the folders lie does not count, so a copy of the project hits.
    """
    parts = []
    for folder in map(Path, folders):
        parts.append(b"folder")
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.is_file():
                parts += [
                    path.relative_to(folder).as_posix().encode(),
                    path.read_bytes(),
                ]
    return _digest(*parts)


def api_configuration(
    handler: Any,  # noqa: ANN401 (a mkdocstrings handler)
    local_config: Mapping[str, Any],
    heading_level: int,
    cache: ExecCache,
) -> dict[str, object]:
    """What of the handler shapes a ``:::`` block's HTML, for the entry's key.

    - The options it renders the block with: the handler's global options in
      ``mkdocs.yml`` merged with the block's own and the heading level, as
      ``get_options`` merges them for mkdocstrings.
    - The rest of its configuration (the python handler's ``paths``,
      ``load_external_modules`` and ``inventories``; inventories only feed
      the links autorefs resolves after the cache, but cost nothing to hold).
    - Its theme, and every file its Jinja loader can find templates in: its
      own, those of packages that extend it, and mkdocstrings'
      ``custom_templates``, read once per build.
    - What it shows of the library: its interface while the options show no
      code (:func:`shows_only_interface`), else every file's bytes, code
      and line numbers included.

    The site's Markdown configuration, the handler's ``mdx``, is in every
    key (:meth:`.ExecCache.key`). Left out: the settings files of ruff, which
    formats signatures with the project's ``[tool.ruff]`` besides the line
    length mkdocstrings gives it (its version is in the key); and the other
    packages griffe may read for a base class, whose versions are not.

    Parameters:
        handler: The handler the block is rendered with.
        local_config: The block's YAML (``handler``, ``options``).
        heading_level: The level of the block's Markdown heading (0: none).
        cache: The build's cache (its library folder and fingerprint).
    """
    local_options = dict(local_config.get("options") or {})
    if heading_level:
        local_options["heading_level"] = heading_level
    options = handler.get_options(local_options)
    root = cache.library or library_folder()
    if shows_only_interface(options):
        library = {"interface": _interface_of(root, cache.fingerprint)}
    else:
        library = {"source": cache.fingerprint}
    folders = tuple(getattr(handler.env.loader, "searchpath", ()))
    templates = _once_per_build(
        ("templates", folders), lambda: _folders_digest(folders)
    )
    return {
        "options": options,
        "config": getattr(handler, "config", None),
        "theme": handler.theme,
        "templates": templates,
        "library": library,
    }


def _cache_api_entries() -> None:
    """The API pages' ``:::`` blocks: HTML, headings and aliases, from the cache."""
    from mkdocstrings import AutoDocProcessor

    original = checked(
        AutoDocProcessor,
        "_process_block",
        ["self", "identifier", "yaml_block", "heading_level"],
    )

    @functools.wraps(original)
    def process_block(
        self: AutoDocProcessor, identifier: str, yaml_block: str, heading_level: int = 0
    ) -> tuple[str, Any, Any]:
        cache = _BUILD.cache
        page = self._autorefs.current_page
        if cache is None or page is None:
            return original(self, identifier, yaml_block, heading_level)
        import yaml

        handlers = self._handlers
        local_config = yaml.safe_load(yaml_block) or {}
        name = handlers.get_handler_name(local_config)
        handler = handlers.get_handler(name)

        rendered = []

        def render() -> dict[str, object]:
            handler.env.bytecode_cache = BYTECODE
            html, used, _ = original(self, identifier, yaml_block, heading_level)
            rendered.append(used)
            # The headings stay on the handler for the extension to take; their
            # aliases (re-exports) come from what the handler collected.
            headings = [tostring(h, encoding="unicode") for h in used._headings]
            aliases = {
                h.attrib["id"]: list(used.get_aliases(h.attrib["id"]))
                for h in used._headings
                if "id" in h.attrib
            }
            return {"html": html, "headings": headings, "aliases": aliases}

        entry = lookup(
            "api",
            render,
            lambda entry: (
                isinstance(entry, dict)
                and {"html", "headings", "aliases"} <= entry.keys()
            ),
            identifier=identifier,
            block=yaml_block,
            handler=name,
            locale=handlers._locale,
            page=page.file.src_uri,
            # Docstrings' links to pages are made relative to its address.
            url=page.url,
            **api_configuration(handler, local_config, heading_level, cache),
        )
        if not rendered:  # a hit: give the extension the headings to take
            handler._headings.extend(fromstring(h) for h in entry["headings"])
        _BUILD.aliases.update(
            (heading, tuple(names)) for heading, names in entry["aliases"].items()
        )
        return entry["html"], handler, None

    AutoDocProcessor._process_block = process_block  # type: ignore[method-assign]

    from mkdocstrings_handlers.python import PythonHandler

    collected = checked(PythonHandler, "get_aliases", ["self", "identifier"])

    @functools.wraps(collected)
    def get_aliases(self: PythonHandler, identifier: str) -> tuple[str, ...]:
        """A cached entry's aliases, else those of what the handler collected."""
        if identifier in _BUILD.aliases:
            return _BUILD.aliases[identifier]
        return collected(self, identifier)

    PythonHandler.get_aliases = get_aliases  # type: ignore[method-assign]


def _toc(items: Iterable[AnchorLink]) -> list[object]:
    return [[item.id, item.url, item.title, _toc(item.children)] for item in items]


def _file_digest(name: object) -> str | None:
    """A digest of the file at ``name`` (from the working folder), or None."""
    if not isinstance(name, str) or not Path(name).is_file():
        return None
    return _digest(Path(name).read_bytes())


def jieba_dictionaries(config: Mapping[str, object]) -> dict[str, object]:
    """Digests of the jieba dictionaries Material's search options name.

    Their words decide where jieba splits Chinese text into the entries'
    words; Material loads them from the working folder. Left out: a
    dictionary that an earlier build of the same ``mkdocs serve`` loaded and
    ``mkdocs.yml`` no longer names, which jieba keeps using until restarted.
    """
    found = {}
    for option in ("jieba_dict", "jieba_dict_user"):
        name = config.get(option)
        found[option] = _once_per_build(
            ("file", name), functools.partial(_file_digest, name)
        )
    return found


def _cache_search_entries() -> None:
    """Material's search entries for a page, from the cache."""
    from material.plugins.search.plugin import SearchIndex

    original = checked(SearchIndex, "add_entry_from_context", ["self", "page"])

    @functools.wraps(original)
    def add_entry_from_context(self: SearchIndex, page: Any) -> None:  # noqa: ANN401
        def entries() -> list[dict[str, object]]:
            start = len(self.entries)
            original(self, page)
            added = self.entries[start:]
            del self.entries[start:]
            return added

        found = lookup(
            "search",
            entries,
            lambda entry: isinstance(entry, list),
            content=page.content,
            url=page.url,
            title=page.title,
            meta=page.meta,
            toc=_toc(page.toc),
            config=self.config,  # every option of the search plugin
            dictionaries=jieba_dictionaries(self.config),
        )
        self.entries.extend(copy.deepcopy(found))

    SearchIndex.add_entry_from_context = add_entry_from_context


@functools.cache
def install() -> None:
    """Put the caches in front of mkdocstrings and the search plugin (once).

    Raises:
        RenderCacheUnsupported: Either has changed shape.
    """
    _cache_api_entries()
    _cache_search_entries()
