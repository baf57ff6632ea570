"""What shapes the render caches' entries: the parts of their keys.

:mod:`.render_cache` keys each entry on these, besides the versions of the
packages that render it and the site's Markdown configuration.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.fingerprints import library_folder

if TYPE_CHECKING:
    from mkdocs.structure.toc import AnchorLink


class Digests:
    """Digests of files read once per build (template folders, dictionaries)."""

    def __init__(self) -> None:
        self.known: dict[object, object] = {}

    def once(self, key: object, compute: Callable[[], object]) -> object:
        """``compute()``, once per build for ``key``."""
        if key not in self.known:
            self.known[key] = compute()
        return self.known[key]


DIGESTS = Digests()


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
    templates = DIGESTS.once(("templates", folders), lambda: _folders_digest(folders))
    return {
        "options": options,
        "config": getattr(handler, "config", None),
        "theme": handler.theme,
        "templates": templates,
        "library": library,
    }


def toc_parts(items: Iterable[AnchorLink]) -> list[object]:
    """A page's table of contents as plain lists (id, url, title, children)."""
    return [[item.id, item.url, item.title, toc_parts(item.children)] for item in items]


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
        found[option] = DIGESTS.once(
            ("file", name), functools.partial(_file_digest, name)
        )
    return found
