"""One execution cache for the site's code: markdown-exec blocks and notebooks.

An entry is keyed on everything its output can depend on:

- the code (for a block, with every earlier block of its session, since a block
  may use what they defined; for a notebook, the whole file);
- the page language and the block options;
- a fingerprint of the source of ``attention_docs`` (any library edit changes
  it, so every entry is recomputed: we cannot tell which entries a change
  reaches);
- the versions of Python, numpy, torch and matplotlib.

Both languages share one cache folder, entries are never evicted by another
build, and they survive ``mkdocs serve`` rebuilds and new runs. Each entry is
written atomically with a checksum; an entry that fails to parse or to match
its checksum is deleted and recomputed, never served.

``ATTENTION_DOCS_CACHE=off`` turns the cache off; ``ATTENTION_DOCS_CACHE_DIR``
moves it (default ``.cache/attention_docs``). ``ATTENTION_DOCS_EXECUTE=off``
skips running code blocks altogether (a placeholder is shown), which the build
benchmark uses to measure the build's floor.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown import Markdown

logger = logging.getLogger("mkdocs.plugins.attention_docs.cache")

LIBRARY = Path(__file__).parent
_TRACKED_PACKAGES = ("numpy", "torch", "matplotlib", "markdown-exec", "nbconvert")
_OFF = {"0", "off", "false", "no"}


def enabled() -> bool:
    """Whether the cache is on (``ATTENTION_DOCS_CACHE`` is not off)."""
    return os.environ.get("ATTENTION_DOCS_CACHE", "on").strip().lower() not in _OFF


def execution_enabled() -> bool:
    """Whether code blocks run at all (``ATTENTION_DOCS_EXECUTE`` is not off)."""
    return os.environ.get("ATTENTION_DOCS_EXECUTE", "on").strip().lower() not in _OFF


def cache_dir() -> Path:
    """The cache folder, from ``ATTENTION_DOCS_CACHE_DIR`` or the default."""
    return Path(os.environ.get("ATTENTION_DOCS_CACHE_DIR", ".cache/attention_docs"))


def library_fingerprint(root: Path = LIBRARY) -> str:
    """Hash of every source file of the library, by path and content.

    Parameters:
        root: The package folder.

    Returns:
        A hex digest that changes with any edit to any ``.py`` file.
    """
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@functools.cache
def environment() -> dict[str, str]:
    """Versions of Python and of the packages that shape the output."""
    versions = {"python": platform.python_version()}
    for name in _TRACKED_PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "absent"
    return versions


def make_key(kind: str, **parts: object) -> str:
    """The cache key of one computation.

    Parameters:
        kind: ``"block"`` or ``"notebook"``.
        **parts: What the output depends on besides the library and versions.

    Returns:
        A hex digest.
    """
    material = {
        "kind": kind,
        "parts": parts,
        # Read once per build by refresh_library(); computed here otherwise.
        "library": _last_fingerprint or library_fingerprint(),
        "environment": environment(),
    }
    encoded = json.dumps(material, sort_keys=True, default=str).encode()
    return hashlib.sha256(encoded).hexdigest()


@dataclass
class Stats:
    """What the cache did during one build."""

    hits: int = 0
    misses: int = 0
    corrupt: int = 0
    runs: list[str] = field(default_factory=list)

    def reset(self) -> None:
        """Start counting a new build."""
        self.hits = self.misses = self.corrupt = 0
        self.runs.clear()


STATS = Stats()


def _path(key: str) -> Path:
    return cache_dir() / key[:2] / f"{key}.json"


def load(key: str) -> object | None:
    """The value stored under a key, or None if absent, off or corrupt.

    A corrupt entry (unreadable, not JSON, wrong key or checksum) is deleted
    and reported, so the caller recomputes it.
    """
    if not enabled():
        return None
    path = _path(key)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        entry = json.loads(raw)
        payload = json.dumps(entry["value"], sort_keys=True)
        valid = entry["key"] == key and entry["checksum"] == _checksum(payload)
    except (ValueError, KeyError, TypeError):
        valid = False
    if not valid:
        STATS.corrupt += 1
        logger.info("corrupt cache entry %s; recomputing it", path)
        path.unlink(missing_ok=True)
        return None
    return entry["value"]


def _checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()


def store(key: str, value: object) -> None:
    """Store a JSON-serialisable value under a key, atomically."""
    if not enabled():
        return
    path = _path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(value, sort_keys=True)
    entry = {"key": key, "checksum": _checksum(payload), "value": value}
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False
    ) as handle:
        json.dump(entry, handle)
    os.replace(handle.name, path)


def cached(
    kind: str, label: str, compute: Callable[[], tuple[object, bool]], **parts: object
) -> object:
    """Return the cached value for ``parts``, computing and storing it on a miss.

    Parameters:
        kind: ``"block"`` or ``"notebook"``.
        label: What is computed, for the build log.
        compute: Computes ``(value, keep)``; ``keep`` is False when the value
            must not be cached (for example, when the code raised).
        **parts: What the value depends on besides the library and versions.

    Returns:
        The value.
    """
    key = make_key(kind, **parts)
    value = load(key)
    if value is not None:
        STATS.hits += 1
        return value
    STATS.misses += 1
    STATS.runs.append(label)
    value, keep = compute()
    if keep:
        store(key, value)
    return value


# --- markdown-exec ----------------------------------------------------------------

# Sources of the blocks run so far, per markdown-exec session, in page order.
_session_sources: dict[str, list[str]] = {}
# Sessions whose interpreter state is behind (some earlier block came from the cache).
_stale_sessions: set[str] = set()


def reset_build() -> None:
    """Forget per-build state; called at the start of every build."""
    STATS.reset()
    EXECUTED.clear()
    _session_sources.clear()
    _stale_sessions.clear()


# Modules the build hooks themselves run on; the rest of the package is what
# pages import, and is re-imported when its source changes.
_HOOK_MODULES = {
    "attention_docs.cache",
    "attention_docs.notebooks",
    "attention_docs.site",
    "attention_docs.translations",
}
_last_fingerprint: str | None = None


def refresh_library() -> bool:
    """Make the next import of the library load its current source.

    ``mkdocs serve`` keeps one Python process across rebuilds, so after a
    library edit the pages would still run the modules imported before it,
    and the cache would store stale figures under the new key. When the
    library's fingerprint changed since the last build, its page-facing
    modules are dropped from ``sys.modules`` so that pages import them anew.

    Returns:
        Whether modules were dropped.
    """
    import sys

    global _last_fingerprint
    current = library_fingerprint()
    changed = _last_fingerprint is not None and current != _last_fingerprint
    _last_fingerprint = current
    if changed:
        for name in [n for n in sys.modules if n.split(".")[0] == "attention_docs"]:
            if name not in _HOOK_MODULES:
                del sys.modules[name]
    return changed


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def formatter(
    source: str,
    language: str,
    css_class: str,
    options: dict,
    md: Markdown,
    **kwargs: object,
) -> str:
    """A markdown-exec fence formatter with the execution cache in front of it.

    Configured in ``mkdocs.yml`` as the format of ``python`` custom fences
    (with markdown-exec's validator). A block's key includes the sources of
    the earlier blocks of its session. On a miss in a session whose earlier
    blocks were served from the cache, those blocks are run first (their
    output discarded), so the session holds what the block may use.
    """
    import markdown_exec

    session = options.get("session") or ""
    history = _session_sources.setdefault(session, []) if session else []
    earlier = list(history)
    if session:
        history.append(source)
    if not execution_enabled():
        return '<p class="ad-not-executed"><em>(code not executed)</em></p>'

    def run() -> tuple[str, bool]:
        if session in _stale_sessions:
            for old in earlier:
                markdown_exec.formatter(old, language, css_class, options, md, **kwargs)
            _stale_sessions.discard(session)
        watcher = _Warnings()
        exec_logger = logging.getLogger("mkdocs.plugins.markdown_exec")
        exec_logger.addHandler(watcher)
        try:
            html = markdown_exec.formatter(
                source, language, css_class, options, md, **kwargs
            )
        finally:
            exec_logger.removeHandler(watcher)
        return html, watcher.count == 0  # never cache a failing block

    parts = {
        "language": language,
        "session": session,
        "earlier": earlier,
        "source": source,
        "options": {k: v for k, v in options.items() if k != "md"},
    }
    hits = STATS.hits
    html = cached("block", f"block in session {session!r}", run, **parts)
    if session and STATS.hits > hits:
        _stale_sessions.add(session)
    return html


# --- mkdocs-jupyter -------------------------------------------------------------------


def cached_nb2html(nb2html: Callable[..., str]) -> Callable[..., str]:
    """Wrap mkdocs-jupyter's notebook converter with the execution cache.

    Parameters:
        nb2html: ``mkdocs_jupyter.convert.nb2html``.

    Returns:
        A converter with the same signature whose results are cached on the
        notebook's bytes, the conversion options, the library and versions.
    """
    if getattr(nb2html, "attention_docs_cached", False):
        return nb2html

    @functools.wraps(nb2html)
    def convert(nb_path: str, **options: object) -> str:
        source = Path(nb_path).read_text(encoding="utf-8")
        entry = cached(
            "notebook",
            f"notebook {nb_path}",
            lambda: (_run_notebook(nb2html, nb_path, options), True),  # failures raise
            source=source,
            name=Path(nb_path).name,
            options=options,
            form="html+ipynb",
        )
        EXECUTED[str(Path(nb_path).resolve())] = entry["ipynb"]
        return entry["html"]

    convert.attention_docs_cached = True  # type: ignore[attr-defined]
    return convert


# Notebook source file (resolved) -> the notebook as run for this build, as
# ``.ipynb`` JSON: the page's download carries the outputs shown on the page.
EXECUTED: dict[str, str] = {}


def _run_notebook(
    nb2html: Callable[..., str], nb_path: str, options: dict[str, object]
) -> dict[str, str]:
    """Convert a notebook, executing it in this process rather than in a kernel.

    Starting a Jupyter kernel per notebook and importing torch in each cost
    most of a cold build; in-process, the notebooks share the imports and the
    library's memoised results with the pages. The notebook is handed to
    mkdocs-jupyter as an ``.ipynb`` file with stable cell ids.

    Returns:
        ``{"html": page HTML, "ipynb": the notebook with its outputs}``.
    """
    import nbformat

    from attention_docs import notebooks

    nb = notebooks.read(nb_path)
    if options.get("execute"):
        logger.info("executing %s in-process", nb_path)
        notebooks.execute(nb, nb_path, allow_errors=bool(options.get("allow_errors")))
    with tempfile.TemporaryDirectory() as folder:
        executed = Path(folder) / f"{Path(nb_path).stem}.ipynb"
        nbformat.write(nb, executed)
        html = nb2html(str(executed), **{**options, "execute": False})
    # For .ipynb files mkdocs-jupyter appends the Python repr of a list of CSS
    # rules inside a <style> element; the site's theme styles the code instead.
    return {"html": _APPENDED_STYLE.sub("", html), "ipynb": nbformat.writes(nb)}


_APPENDED_STYLE = re.compile(r"\s*<style>\s*\[.*?\]\s*</style>\s*\Z", re.DOTALL)
