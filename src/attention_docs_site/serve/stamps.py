"""Which files a save changed, and what that means for the rebuild.

Every file a build reads is stamped and hashed (:func:`stamps`); the changed
ones are then classified (:func:`classify`): a page, library code, or
something that may shape every page.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

Stamp = tuple[int, int, str]
"""A file's time stamp (ns), size and sha-256."""

_SKIPPED_FOLDERS = {"__pycache__"}
# A time stamp moves in ticks (milliseconds here, two seconds on some file
# systems): two saves within one tick can leave size and stamp as they were,
# so a file changed this recently is hashed whatever its stamp says.
_RECENT_NS = 2_000_000_000


def stamps(roots: Iterable[Path], known: Mapping[str, Stamp]) -> dict[str, Stamp]:
    """Every file under ``roots`` (folders or files), stamped.

    A file whose time stamp and size are those ``known`` has is not read
    again, unless it changed in the last two seconds; any other is hashed, so
    one saved with the same bytes compares equal. Hidden files and folders
    (an editor's swap and lock files; MkDocs reads none) are left out, and so
    is a file that vanished or is a broken link.
    """
    found: dict[str, Stamp] = {}
    recent = time.time_ns() - _RECENT_NS
    for root in roots:
        files = [root] if root.is_file() else _files(root)
        for path in files:
            try:
                info = path.stat()
                data = None if info.st_mtime_ns < recent else path.read_bytes()
            except OSError:  # gone since the listing, or a link to nothing
                continue
            name = str(path)
            before = known.get(name)
            same = before is not None and before[:2] == (info.st_mtime_ns, info.st_size)
            if before is not None and same and data is None:
                found[name] = before
                continue
            try:
                data = path.read_bytes() if data is None else data
            except OSError:
                continue
            digest = hashlib.sha256(data).hexdigest()
            found[name] = (info.st_mtime_ns, info.st_size, digest)
    return found


def _files(folder: Path) -> list[Path]:
    files = []
    for parent, folders, names in os.walk(folder):
        folders[:] = sorted(
            f for f in folders if f not in _SKIPPED_FOLDERS and not f.startswith(".")
        )
        files += [Path(parent, n) for n in sorted(names) if not n.startswith(".")]
    return files


@dataclass
class Roots:
    """The folders and files a build reads, by what a change there means."""

    config: Path
    docs: Path
    theme: Path | None
    plugin: Path
    library: Path
    watched: tuple[Path, ...]  # mkdocs.yml's watch (serve rebuilds on their edits)

    def all(self) -> list[Path]:
        """Every folder and file to stamp."""
        roots = [self.config, self.docs, self.plugin, self.library]
        roots += [path for path in self.watched if path.exists()]
        project = self.config.parent / "pyproject.toml"  # the wheel's metadata
        roots += [project] if project.is_file() else []
        return roots + ([self.theme] if self.theme else [])


@dataclass(frozen=True)
class Classified:
    """What the changed files mean: a full build's reason, else what changed."""

    reason: str
    library: bool = False  # library code
    notebooks: bool = False  # an exercise notebook


def classify(
    changed: set[str],
    before: Mapping[str, Stamp],
    now: Mapping[str, Stamp],
    roots: Roots,
) -> Classified:
    """Whether the changed files need a full build (its reason), else which kinds."""
    library = notebooks = False
    for name in sorted(changed):
        path = Path(name)
        shown = _shown(path, roots)
        if name not in before or name not in now:
            return Classified(f"{shown} was added or removed")
        if path.parent == roots.config.parent:  # mkdocs.yml, pyproject.toml
            return Classified(f"{shown} changed")
        if roots.theme and path.is_relative_to(roots.theme):
            return Classified(f"the theme's {shown} changed")
        if path.is_relative_to(roots.plugin):
            return Classified(f"the site's plugin changed ({shown})")
        if path.is_relative_to(roots.docs):
            if path.suffix != ".md":
                return Classified(f"{shown} changed, which is not a page")
            notebooks |= "exercises" in path.relative_to(roots.docs).parts
        elif path.is_relative_to(roots.library):
            if path.suffix != ".py":
                return Classified(f"the library's {shown} changed")
            library = True
        else:  # a folder mkdocs.yml has serve watch
            return Classified(f"{shown} changed, which mkdocs.yml has serve watch")
    return Classified("", library, notebooks)


def _shown(path: Path, roots: Roots) -> str:
    """A changed file as the log names it: relative to the project."""
    project = roots.config.parent
    return (
        path.relative_to(project).as_posix()
        if path.is_relative_to(project)
        else str(path)
    )
