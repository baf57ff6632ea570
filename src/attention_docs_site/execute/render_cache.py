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

The wrappers are reaches into mkdocstrings and Material, declared and guarded
in ``upstream/``: each checks that the code it replaces still takes what it
expects, and fails the build naming itself otherwise. What the keys hold is
in :mod:`.render_keys`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.fingerprints import package_version, stable_config
from attention_docs_site.execute.render_keys import (
    DIGESTS,
    api_configuration,
    jieba_dictionaries,
    toc_parts,
)
from attention_docs_site.upstream.material_search import serve_search_entries
from attention_docs_site.upstream.mkdocstrings import (
    ApiBlock,
    forget_aliases,
    serve_api_entries,
)

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
    forget_aliases()
    DIGESTS.known = {}
    BYTECODE.use_folder(cache.folder / "jinja" if cache.enabled else None)


def folder() -> Path | None:
    """The build's cache folder; None when the cache is off."""
    cache = _BUILD.cache
    return cache.folder if cache is not None and cache.enabled else None


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


def install() -> None:
    """Put the caches in front of mkdocstrings and the search plugin (once).

    The replacements themselves are reaches, declared and guarded in
    ``upstream/mkdocstrings.py`` and ``upstream/material_search.py``.
    """
    serve_api_entries(_api_entry)
    serve_search_entries(_search_entries)


def _api_entry(
    block: ApiBlock, render: Callable[[], dict[str, Any]]
) -> dict[str, Any] | None:
    """A ``:::`` block's entry (HTML, headings, aliases), from the cache."""
    cache = _BUILD.cache
    if cache is None:
        return None  # no build under way: mkdocstrings renders as written

    def rendered() -> dict[str, Any]:
        block.handler.env.bytecode_cache = BYTECODE
        return render()

    found: dict[str, Any] = lookup(
        "api",
        rendered,
        lambda entry: (
            isinstance(entry, dict) and {"html", "headings", "aliases"} <= entry.keys()
        ),
        identifier=block.identifier,
        block=block.yaml_block,
        handler=block.handler_name,
        locale=block.locale,
        page=block.page.file.src_uri,
        # Docstrings' links to pages are made relative to its address.
        url=block.page.url,
        **api_configuration(
            block.handler, block.local_config, block.heading_level, cache
        ),
    )
    return found


def _search_entries(
    index: Any,  # noqa: ANN401 (Material's SearchIndex)
    page: Any,  # noqa: ANN401 (MkDocs' Page)
    entries: Callable[[], list[dict[str, object]]],
) -> list[Any]:
    """A page's search entries, from the cache."""
    found: list[Any] = lookup(
        "search",
        entries,
        lambda entry: isinstance(entry, list),
        content=page.content,
        url=page.url,
        title=page.title,
        meta=page.meta,
        toc=toc_parts(page.toc),
        config=index.config,  # every option of the search plugin
        dictionaries=jieba_dictionaries(index.config),
    )
    return found
