"""Which files a save changed: every file a build reads, stamped and hashed."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Mapping
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
