"""The Run button's warm start: Python compiled once, not in every reader's browser.

Pyodide's release ships Python's sources only: its standard library as
``python_stdlib.zip`` and each package's wheel. A reader's browser compiled
every module that a start imports, each time Python started, and rebuilt
matplotlib's font list; measured in ``benchmarks/run_button.py``, that was
most of a warm start. ``scripts/setup.sh`` now runs :func:`compile_bytecode`
once: Pyodide itself, under Node.js, imports what a start imports (the
worker's imports, the library, a figure) and writes, into
``tools/pyodide/compiled/``:

- ``python_stdlib.zip``: the official archive's entries, byte for byte, and
  beside each module the start imports its ``.pyc``; the worker passes it to
  ``loadPyodide`` as ``stdLibURL``;
- ``bytecode.zip``: the ``.pyc`` of each package module imported, in its
  ``__pycache__`` folder, and matplotlib's ``fontlist.json``, as paths from
  ``/``. The library's modules are among them, compiled from ``src/`` as its
  wheel installs them: one changed since is compiled in the browser, as
  before (:func:`stale_library`);
- ``packages.tar.gz``: the files of every package a start installs, each
  wheel's unchanged, and ``bytecode.zip``'s, in one tar archive
  (:func:`write_image`), but for the font files of matplotlib's that the
  start does not read, beside it in ``later/`` (:data:`LATER`). The worker
  writes its files into Python's file system in one pass and keeps the
  unpacked archive in the browser's Cache Storage: Pyodide's
  ``loadPackage`` unzipped every wheel in Python at every start, and
  loaded every extension module of a package, imported or not. Python now
  loads an extension module at its import.

Every ``.pyc`` is checked-hash (PEP 552): Python hashes the source before it
uses one, so a ``.pyc`` that does not belong to its source is compiled again,
never run. The font list is what matplotlib builds from the same font files.
The build publishes the standard library's archive and ``packages.tar.gz``
beside the runtime (:func:`publish`), after checking that the former holds
every official entry unchanged (:func:`check_stdlib`); it names the latter
and its sha256 in the site's lock, which the worker checks it against.
``python -m attention_docs_site.site.bytecode`` makes them again if Pyodide's
runtime changed.
"""

from __future__ import annotations

import _imp
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Collection
from pathlib import Path

from attention_docs_site.layout import COMPILED_BUNDLE as BUNDLE
from attention_docs_site.layout import COMPILED_FOLDER as FOLDER
from attention_docs_site.layout import COMPILED_PACKAGES as IMAGE
from attention_docs_site.layout import COMPILED_STDLIB as STDLIB
from attention_docs_site.layout import SITE_LOCK
from attention_docs_site.site import pyodide

STAMP = "stamp.json"
"""What the files were made from (:func:`_stamp`)."""
SCRIPT = Path(__file__).with_name("bytecode.mjs")
FORMAT = 3
"""The files' form: 2 since ``packages.tar.gz``, 3 since :data:`LATER`. A new
form makes them again."""
PACKAGES = "lib/python3.12/site-packages/"
"""Where Pyodide installs a package, from ``/``."""
LATER = "later"
"""In the compiled folder: matplotlib's font files that a start and a first
figure do not read, by their paths in site-packages. The worker makes each a
file that loads from the site when Python first reads it (Emscripten's
``FS.createLazyFile``), so that 7.5 MB of fonts are fetched only if drawn with."""
FONTS = "matplotlib/mpl-data/fonts/"
IMAGE_ENTRY = "attention_docs_packages"
"""The site's lock's key for ``packages.tar.gz``: its file name and sha256."""


def compiled_folder(project: Path) -> Path:
    """``tools/pyodide/compiled/``, where :func:`compile_bytecode` writes."""
    return pyodide.tools_folder(project) / FOLDER


def _stamp(project: Path) -> dict[str, str]:
    """What the files depend on: the runtime, the archive, the script, the packages."""
    official = pyodide.runtime_folder(project) / STDLIB
    return {
        "pyodide": pyodide.VERSION,
        "python_stdlib.zip sha256": hashlib.sha256(official.read_bytes()).hexdigest(),
        "bytecode.mjs sha256": hashlib.sha256(SCRIPT.read_bytes()).hexdigest(),
        "packages": " ".join(pyodide.NEEDED),
        "format": str(FORMAT),
    }


def compile_bytecode(project: Path, node: str = "node") -> list[Path]:
    """Compile, in Pyodide under Node.js, what a start imports; skip if done.

    Returns:
        The files written (none if they were already made from this runtime).

    Raises:
        PyodideFileError: Node.js failed; the message ends with its traceback.
    """
    folder, stamp = compiled_folder(project), _stamp(project)
    if _read_stamp(folder) == stamp:
        return []
    with tempfile.TemporaryDirectory() as scratch:
        runtime, out = Path(scratch) / "runtime", Path(scratch) / "out"
        pyodide.write_runtime(project, runtime)
        out.mkdir()
        loader = (pyodide.runtime_folder(project) / "pyodide.mjs").as_uri()
        library = project / "src"
        run = subprocess.run(
            [node, str(SCRIPT), loader, f"{runtime}/", str(library), str(out)],
            input=json.dumps(list(pyodide.NEEDED)),
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            raise pyodide.PyodideFileError(
                f"compiling Pyodide's bytecode failed:\n{run.stderr[-3000:]}"
            )
        lock = pyodide.read_lock(project)
        wheels = [
            runtime / lock["packages"][n]["file_name"]
            for n in pyodide.start_packages(lock)
        ]
        read = json.loads((out / "fonts_read.json").read_text("utf-8"))
        later = write_image(wheels, out / BUNDLE, out / IMAGE, fonts_read=read)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        written = [folder / STDLIB, folder / BUNDLE, folder / IMAGE]
        for path in written:
            shutil.copyfile(out / path.name, path)
        for name, data in later.items():
            path = folder / LATER / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    (folder / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", "utf-8")
    return written


def write_image(
    wheels: list[Path], bundle: Path, target: Path, *, fonts_read: Collection[str]
) -> dict[str, bytes]:
    """Write ``packages.tar.gz``: the wheels' files, then ``bundle``'s; reproducible.

    A file of ``bundle`` stands in for a wheel's of the same name: matplotlib's
    wheel has a font list that its version of matplotlib does not read. Of
    matplotlib's font files, only ``fonts_read`` (paths in site-packages) go
    in; the worker makes the others files that load when read (:data:`LATER`).

    Returns:
        The font files left out, by their paths in site-packages.

    Raises:
        PyodideFileError: Two wheels have a file of the same name.
    """
    with zipfile.ZipFile(bundle) as archive:
        replaced = {name.lstrip("/") for name in archive.namelist()}
    seen: set[str] = set()
    later: dict[str, bytes] = {}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path, prefix in [*((w, PACKAGES) for w in wheels), (bundle, "")]:
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    name = prefix + info.filename.lstrip("/")
                    if info.is_dir() or (prefix and name in replaced):
                        continue
                    if name in seen:
                        raise pyodide.PyodideFileError(f"{path.name} repeats {name}")
                    seen.add(name)
                    data = archive.read(info)
                    if (
                        info.filename.startswith(FONTS)
                        and info.filename not in fonts_read
                    ):
                        later[info.filename] = data
                        continue
                    entry = tarfile.TarInfo(name)
                    entry.size, entry.mode = len(data), 0o644
                    tar.addfile(entry, io.BytesIO(data))
    with (
        open(target, "wb") as file,
        gzip.GzipFile(
            filename="", mode="wb", fileobj=file, compresslevel=9, mtime=0
        ) as packed,
    ):
        packed.write(raw.getvalue())
    return later


def _read_stamp(folder: Path) -> dict[str, str] | None:
    try:
        return json.loads((folder / STAMP).read_text("utf-8"))
    except (OSError, ValueError):
        return None


def check_present(project: Path) -> None:
    """Whether the compiled files are there and were made from this runtime.

    Raises:
        PyodideFileError: They are missing or stale; the message says how to
            make them.
    """
    folder = compiled_folder(project)
    if (
        _read_stamp(folder) != _stamp(project)
        or not all((folder / name).is_file() for name in (STDLIB, BUNDLE, IMAGE))
        or not (folder / LATER).is_dir()
    ):
        raise pyodide.PyodideFileError(
            f"{folder} is missing or was made from another runtime: run "
            "scripts/setup.sh (or python -m attention_docs_site.site.bytecode)"
        )


def stale_library(project: Path, bundle: Path) -> list[str]:
    """The library's modules whose ``.pyc`` in ``bundle`` is not of today's source.

    Returns:
        Their paths in Pyodide, e.g.
        ``/lib/python3.12/site-packages/attention_docs/figures/panels.py``.
    """
    stale = []
    with zipfile.ZipFile(bundle) as archive:
        for name in archive.namelist():
            folder, _, file = name.rpartition("/__pycache__/")
            if not (folder.endswith("attention_docs") or "/attention_docs/" in folder):
                continue
            module = f"{folder}/{file.split('.')[0]}.py"
            source = project / "src" / module.split("site-packages/", 1)[1]
            pyc = archive.read(name)
            key = int.from_bytes(pyc[:4], "little")  # its Python's magic number
            if not source.is_file() or pyc[8:16] != _source_hash(key, source):
                stale.append(f"/{module}")
    return stale


def _source_hash(key: int, source: Path) -> bytes:
    """The hash importlib keeps in a checked .pyc, keyed by its magic number."""
    return _imp.source_hash(key, source.read_bytes())


def check_stdlib(official: Path, compiled: Path) -> None:
    """The compiled archive: every official entry, unchanged, and ``.pyc`` files.

    Raises:
        PyodideFileError: An entry is missing, differs, or is not a module's ``.pyc``.
    """
    with zipfile.ZipFile(official) as theirs, zipfile.ZipFile(compiled) as ours:
        wanted = {info.filename: info for info in theirs.infolist()}
        for info in ours.infolist():
            name = info.filename
            if name in wanted:
                if ours.read(name) != theirs.read(name):
                    raise pyodide.PyodideFileError(f"{compiled} changes {name}")
                del wanted[name]
            elif not (name.endswith(".pyc") and name[:-1] in theirs.NameToInfo):
                raise pyodide.PyodideFileError(f"{compiled} adds {name}")
        if wanted:
            raise pyodide.PyodideFileError(f"{compiled} lacks {min(wanted)}")


def publish(project: Path, runtime: Path) -> list[Path]:
    """Publish the compiled files in the runtime's folder, the archive checked.

    ``packages.tar.gz`` and its sha256 are named in the site's lock there.

    Returns:
        The files written.

    Raises:
        PyodideFileError: They are missing, stale or do not hold the official
            archive unchanged.
    """
    check_present(project)
    source = compiled_folder(project)
    check_stdlib(pyodide.runtime_folder(project) / STDLIB, source / STDLIB)
    target = runtime / FOLDER
    target.mkdir(parents=True, exist_ok=True)
    written = [target / STDLIB, target / IMAGE]
    for path in written:
        shutil.copyfile(source / path.name, path)
    later = sorted(
        p.relative_to(source / LATER).as_posix()
        for p in (source / LATER).rglob("*")
        if p.is_file()
    )
    for name in later:
        path = target / LATER / name
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / LATER / name, path)
        written.append(path)
    site_lock = runtime / SITE_LOCK
    lock = json.loads(site_lock.read_text("utf-8"))
    sha256 = hashlib.sha256((target / IMAGE).read_bytes()).hexdigest()
    lock[IMAGE_ENTRY] = {
        "file_name": f"{FOLDER}/{IMAGE}",
        "sha256": sha256,
        "later": {"folder": f"{FOLDER}/{LATER}/", "files": later},
    }
    site_lock.write_text(json.dumps(lock, separators=(",", ":")), "utf-8")
    return written


def main() -> None:
    """Make the compiled files if they were not made from this runtime; list them."""
    project = Path.cwd()
    for path in compile_bytecode(project):
        print(f"{path.relative_to(project)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
