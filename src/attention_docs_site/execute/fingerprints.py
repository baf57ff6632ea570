"""What an execution cache key is made of, besides the code and its options.

The library's folder and fingerprints (its Python files, and its other
files such as the figures' font), the versions of the packages that shape the
output and of Python, and the site's configuration made stable (sorted, with
no object addresses) for a key.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import platform
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

LIBRARY_NAME = "attention_docs"
# The installed distributions whose version can change a cached output's HTML.
TRACKED_PACKAGES = (
    "Markdown",
    "ipython",  # runs the notebooks and formats their results
    "jupytext",
    "latex2mathml",  # our Markdown extension's MathML (markdown/mathml.py)
    "markdown-exec",
    "matplotlib",
    "mkdocs-jupyter",
    "nbconvert",
    "nbformat",  # writes the executed notebook, the page's download
    "numpy",
    "Pygments",
    "pymdown-extensions",
    "torch",
)
_ADDRESS = re.compile(r" at 0x[0-9A-Fa-f]+")


def library_folder() -> Path:
    """The folder of the teaching library that pages import (found, not imported)."""
    spec = importlib.util.find_spec(LIBRARY_NAME)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the {LIBRARY_NAME} package is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def library_fingerprint(root: Path | None = None) -> str:
    """Hash of every source file of the teaching library, by path and content.

    Parameters:
        root: The package folder; the installed ``attention_docs`` by default.

    Returns:
        A hex digest that changes with any edit to any ``.py`` file.
    """
    root = root or library_folder()
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def library_data_fingerprint(root: Path | None = None) -> str:
    """Hash of the library's files other than its Python source, by path and content.

    Such as the CJK font its figures are laid out with (``font_files/``): the
    library reads them as it runs, and :mod:`.library_reach` records only the
    Python it runs. Left out: bytecode, and Markdown files (the library's
    notes for its readers, which no code reads). Under ``mkdocs serve``,
    matplotlib keeps a font it has loaded until the server restarts.

    Parameters:
        root: The package folder; the installed ``attention_docs`` by default.
    """
    root = root or library_folder()
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        skipped = path.suffix in {".py", ".pyc", ".md"} or "__pycache__" in path.parts
        if path.is_file() and not skipped:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def package_version(name: str) -> str:
    """The installed version of a distribution, or ``"absent"``."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def own_extensions(
    extensions: Iterable[object] | None, package: str = "attention_docs_site"
) -> dict[str, str]:
    """The source digest of each listed Markdown extension that is our own code.

    A third-party extension is in a key through its package's version; ours,
    such as ``attention_docs_site.markdown.mathml``, has no version that
    changes with it, so its module's bytes stand in, with those of every
    module of ours it imports, however indirectly (the MathML extension's
    edits of latex2mathml's output live in ``upstream/``).

    Parameters:
        extensions: MkDocs' ``config.markdown_extensions``.
        package: The top-level package whose modules count as our own.
    """
    own = {}
    for name in extensions or ():
        if isinstance(name, str) and name.split(".")[0] == package:
            digest = hashlib.sha256()
            for module in _own_imports(name, package):
                origin = _source(module)
                digest.update(module.encode() + b"\0")
                digest.update(origin.read_bytes() if origin else b"absent")
            own[name] = digest.hexdigest() if _source(name) else "absent"
    return own


def _source(module: str) -> Path | None:
    """The source file of a module, if it has one."""
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec is not None else None
    return Path(origin) if origin and Path(origin).is_file() else None


def _own_imports(module: str, package: str) -> list[str]:
    """``module`` and the modules of ``package`` it imports, transitively, sorted."""
    seen: set[str] = set()
    waiting = [module]
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        origin = _source(name)
        if origin is None:
            continue
        for node in ast.walk(ast.parse(origin.read_bytes())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            waiting += [n for n in names if n.split(".")[0] == package]
    return sorted(seen)


def markdown_view(
    extensions: Iterable[object] | None, configs: Mapping[str, object] | None
) -> object:
    """The site's Markdown configuration as every cache key holds it.

    The same in every edition of one build: under mkdocs-static-i18n the
    plugins configure one ``config`` once per edition, and mkdocs-autorefs and
    mkdocstrings append their extension each time, so the second edition's
    list holds theirs twice and the third's three times; and our ``python``
    fence (:func:`~attention_docs_site.execute.setup.register_fence`) is in
    the configuration only from the second edition on. Each extension counts
    once, in the order of its first mention, and any ``python`` custom fence
    is left out, since ours replaces it in every build (and its code is ours).

    Parameters:
        extensions: MkDocs' ``config.markdown_extensions``.
        configs: MkDocs' ``config.mdx_configs``, the extensions' options.

    Returns:
        Data for :func:`stable_config`-made keys.
    """
    named: list[object] = []
    for extension in extensions or ():
        stable = stable_config(extension)
        if stable not in named:
            named.append(stable)
    options = dict(configs or {})
    superfences = options.get("pymdownx.superfences")
    if isinstance(superfences, Mapping):
        fences = [
            fence
            for fence in superfences.get("custom_fences") or ()
            if not (isinstance(fence, Mapping) and fence.get("name") == "python")
        ]
        options["pymdownx.superfences"] = {**superfences, "custom_fences": fences}
    return {
        "extensions": named,
        "configs": stable_config(options),
        "own": own_extensions(extensions),
    }


def environment() -> dict[str, str]:
    """Versions of Python and of the packages that shape the output."""
    versions = {"python": platform.python_version()}
    versions.update((name, package_version(name)) for name in TRACKED_PACKAGES)
    return versions


def stable_config(value: object) -> object:
    """A configuration as JSON data that is the same in every process.

    Mappings, sequences and sets become dicts and lists (sets sorted); a
    dataclass instance its class and every field (such as mkdocstrings'
    options); functions and classes their qualified names; a
    ``functools.partial`` its function and arguments; any other object its
    ``repr`` without memory addresses.

    Parameters:
        value: A configuration, such as MkDocs' ``mdx_configs``.

    Returns:
        Data that ``json.dumps(..., sort_keys=True)`` writes the same way for
        the same configuration, whatever the process.
    """
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(key): stable_config(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [stable_config(item) for item in value]
    if isinstance(value, set | frozenset):
        items = [stable_config(item) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "dataclass": stable_config(type(value)),
            "fields": {
                field.name: stable_config(getattr(value, field.name))
                for field in dataclasses.fields(value)
            },
        }
    if isinstance(value, functools.partial):
        return {
            "partial": stable_config(value.func),
            "args": stable_config(value.args),
            "keywords": stable_config(value.keywords),
        }
    name = getattr(value, "__qualname__", None)
    if isinstance(name, str):  # a function, method or class; not an instance
        return f"{getattr(value, '__module__', None)}.{name}"
    return _ADDRESS.sub("", repr(value))
