"""The execution cache: code blocks' and notebooks' output, kept between builds.

An entry is found by a key made of everything its output can depend on
besides the teaching library:

- the code (for a block, with every earlier block of its session, since a block
  may use what they defined; for a notebook, the whole file);
- the page language and the block options;
- the versions of Python and of every installed package that shapes the output
  (the code's: numpy, matplotlib, torch; the HTML's: Markdown, its extensions,
  markdown-exec, mkdocs-jupyter, jupytext, nbconvert, Pygments; a notebook's
  outputs and download: IPython, nbformat);
- the site's Markdown configuration (``markdown_extensions`` in ``mkdocs.yml``,
  with the source of those that are our own, such as ``markdown/mathml.py``;
  the same for every edition, :func:`.fingerprints.markdown_view`);
- the library's files that are not Python, such as the font its figures are
  laid out with (:func:`.fingerprints.library_data_fingerprint`);
- for a notebook, mkdocs-jupyter's options and the Jupyter settings files its
  converter reads (:func:`.notebooks.jupyter_settings`).

So an upgrade or a configuration change misses every entry, and nothing made
by the old one is served.

The entry also records the library code the run reached (see
:mod:`.library_reach`): the source digest of each function and method it
executed, with every module's data. It is served only while all of those are
unchanged, so an edit to one plotting function re-runs the blocks that called
it, directly or indirectly, and no others. The build machinery lives in
another package and never counts.

Both languages share one cache folder, entries are never evicted by another
build, and they survive ``mkdocs serve`` rebuilds and new runs. Each entry is
written atomically with a checksum; an entry that fails to parse or to match
its checksum is deleted and recomputed, never served.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from attention_docs_site.execute.fingerprints import (
    environment,
    library_data_fingerprint,
    library_fingerprint,
    library_folder,
    markdown_view,
    stable_config,
)
from attention_docs_site.execute.library_reach import Recorder
from attention_docs_site.execute.library_source import LibrarySource

logger = logging.getLogger("mkdocs.plugins.attention_docs.cache")

T = TypeVar("T")


@dataclass
class Stats:
    """What the cache did during one build."""

    hits: int = 0
    misses: int = 0
    corrupt: int = 0
    outdated: int = 0  # misses whose entry ran library code that has changed

    def reset(self) -> None:
        """Start counting a new build."""
        self.hits = self.misses = self.corrupt = self.outdated = 0


@dataclass(frozen=True)
class Cached(Generic[T]):
    """A cached value with the library units its run reached."""

    value: T
    units: frozenset[str]
    hit: bool


def _checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()


class ExecCache:
    """One cache folder, with the counts and the library source of a build.

    Parameters:
        folder: Where entries are stored.
        enabled: When False, nothing is read or written and every value is
            computed.
        library: The teaching library's folder; found on the import path by
            default.
    """

    def __init__(
        self, folder: Path, *, enabled: bool = True, library: Path | None = None
    ) -> None:
        self.folder = Path(folder)
        self.enabled = enabled
        self.library = library
        self.stats = Stats()
        # What every key holds besides its parts; start_build() reads them again.
        self.environment = environment()
        self.markdown: object = None  # the site's Markdown configuration
        self.data = library_data_fingerprint(library)
        self.fingerprint = library_fingerprint(library)
        self.source = LibrarySource(library or library_folder())
        self.recorder = Recorder(self.source)
        # Every library unit the values served since the caller emptied it
        # depend on: a page's, for the serve stage (what a library edit re-renders).
        self.reached: set[str] = set()

    def key(self, kind: str, **parts: object) -> str:
        """The key of one computation.

        Parameters:
            kind: ``"block"`` or ``"notebook"``.
            **parts: What the output depends on besides the library, the
                versions, the Markdown configuration and the library's data.

        Returns:
            A hex digest.
        """
        material = {
            "kind": kind,
            "parts": parts,
            "environment": self.environment,
            "markdown": self.markdown,
            "library_data": self.data,
        }
        encoded = json.dumps(stable_config(material), sort_keys=True).encode()
        return hashlib.sha256(encoded).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def load(self, key: str) -> object | None:
        """The value stored under a key, or None if absent, off or corrupt.

        A corrupt entry (unreadable, not JSON, wrong key or checksum) is deleted
        and reported, so the caller recomputes it.
        """
        if not self.enabled:
            return None
        path = self._path(key)
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
            self.stats.corrupt += 1
            logger.info("corrupt cache entry %s; recomputing it", path)
            path.unlink(missing_ok=True)
            return None
        return entry["value"]

    def store(self, key: str, value: object) -> None:
        """Store a JSON-serialisable value under a key, atomically."""
        if not self.enabled:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps(value, sort_keys=True)
        entry = {"key": key, "checksum": _checksum(payload), "value": value}
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False
        ) as handle:
            json.dump(entry, handle)
        os.replace(handle.name, path)

    def cached(
        self,
        kind: str,
        label: str,
        compute: Callable[[], tuple[T, bool]],
        *,
        carried: frozenset[str] = frozenset(),
        **parts: object,
    ) -> Cached[T]:
        """The cached value for ``parts``, computed and stored when missing or outdated.

        Parameters:
            kind: ``"block"`` or ``"notebook"``.
            label: What is computed, for the build log.
            compute: Computes ``(value, keep)``; ``keep`` is False when the value
                must not be cached (for example, when the code raised).
            carried: Library units the value depends on through state that
                ``compute`` does not rebuild (earlier blocks of a session).
            **parts: What the value depends on besides the library and versions.

        Returns:
            The value, with every library unit it depends on.
        """
        key = self.key(kind, **parts)
        entry = self.load(key)
        found = entry if isinstance(entry, dict) else {}
        units = found.get("units")
        if isinstance(units, dict) and self.source.is_fresh(units):
            self.stats.hits += 1
            self.reached.update(units)
            return Cached(found["value"], frozenset(units), hit=True)
        self.stats.misses += 1
        self.stats.outdated += entry is not None
        logger.debug("computing %s", label)
        # Recorded even with the cache off: a block's own reach tells the Run
        # button whether it uses PyTorch (execute/runnable.py).
        with self.recorder.recording() as reached:
            value, keep = compute()
        units = reached | carried | self.source.data_units()
        self.reached.update(units)
        if keep:
            self.store(key, {"units": self.source.current(units), "value": value})
        return Cached(value, frozenset(units), hit=False)

    def start_build(
        self,
        markdown_extensions: Sequence[str] | None = None,
        mdx_configs: Mapping[str, object] | None = None,
    ) -> bool:
        """Reset the counts, re-read the library, and make pages import it anew.

        ``mkdocs serve`` keeps one Python process across rebuilds, so after a
        library edit the pages would still run the modules imported before it,
        and the cache would store stale figures under the new source. When the
        library's fingerprint changed since the last build, its modules are
        dropped from ``sys.modules`` so that pages import them anew. The build
        machinery is another package and keeps its modules.

        The versions of the packages and the library's data files in the key
        are read again, and the site's Markdown configuration is taken for the
        build's keys.

        Parameters:
            markdown_extensions: MkDocs' ``config.markdown_extensions``.
            mdx_configs: MkDocs' ``config.mdx_configs``, the extensions' options.

        Returns:
            Whether the library changed (and its modules were dropped).
        """
        self.stats.reset()
        self.environment = environment()
        self.data = library_data_fingerprint(self.library)
        self.markdown = markdown_view(markdown_extensions, mdx_configs)
        current = library_fingerprint(self.library)
        changed = current != self.fingerprint
        self.fingerprint = current
        if changed:
            self.source = LibrarySource(self.library or library_folder())
            self.recorder = Recorder(self.source)
            package = self.source.package
            for name in [n for n in sys.modules if n.split(".")[0] == package]:
                del sys.modules[name]
        return changed
