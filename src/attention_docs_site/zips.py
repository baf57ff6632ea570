"""Reproducible zips: the notebooks' and the offline copies'.

A zip's members are sorted by name, dated 1980-01-01 (the earliest date a
zip can hold) and have mode 644, so the same members give the same bytes.
Those already compressed (:data:`STORED_SUFFIXES`) are stored as they are,
the others deflated.

An offline copy's first members, Pyodide's runtime (some 27 MB, its 10 MB
WebAssembly file deflated in 0.4 s), are the same build after build: they
are zipped once into a folder of the cache (:func:`cached_zip`), and each
build's copy starts from that zip and appends the rest.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

# Members already compressed (Pyodide's wheels and standard library, fonts,
# images): deflating them again costs time and saves 1 to 3 %.
STORED_SUFFIXES = (".whl", ".zip", ".gz", ".woff2", ".png", ".jpg")


def write_zip(
    target: Path, top: str, members: Mapping[str, bytes], *, start: Path | None = None
) -> None:
    """Write a reproducible zip, every member under one top folder.

    Parameters:
        target: The zip file.
        top: The folder the zip unpacks into.
        members: Path in that folder -> content.
        start: A zip of earlier members under the same top folder (from
            :func:`cached_zip`, or ``target`` itself): the zip is a copy of it
            with ``members`` appended, in name order after its own.
    """
    if start is not None and start != target:
        shutil.copyfile(start, target)
    with zipfile.ZipFile(target, "a" if start else "w", zipfile.ZIP_DEFLATED) as zip_:
        for name in sorted(members):
            entry = zipfile.ZipInfo(f"{top}/{name}", (1980, 1, 1, 0, 0, 0))
            stored = name.endswith(STORED_SUFFIXES)
            entry.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zip_.writestr(entry, members[name])


def cached_zip(folder: Path, top: str, members: Mapping[str, bytes]) -> Path:
    """The zip of ``members`` under ``top``, written into ``folder`` if not there.

    Its name is the top folder and the digest of every member's name and
    bytes, so other members make another zip; it is written atomically, and
    the zips of the same top folder with other members (a runtime upgraded
    since) are deleted.
    """
    digest = hashlib.sha256()
    for name in sorted(members):
        digest.update(hashlib.sha256(name.encode()).digest())
        digest.update(hashlib.sha256(members[name]).digest())
    path = folder / f"{top}-{digest.hexdigest()}.zip"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{top}-*.zip"):
            old.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as f:
            written = Path(f.name)
        write_zip(written, top, members)
        os.replace(written, path)
    return path
