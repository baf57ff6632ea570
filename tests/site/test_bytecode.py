"""The warm start's compiled Python (site/bytecode.py), as setup.sh made it.

Each ``.pyc`` is checked against its source independently: the hash in its
header is recomputed here from the source that the site publishes (the
official standard library's archive, the package wheels checked against the
lock), with the key that Pyodide's Python derives from the ``.pyc``'s magic
number. The browser test that a start uses them and reads the shipped font
list is ``tests/e2e/test_run_browser.py``.
"""

from __future__ import annotations

import _imp
import hashlib
import io
import json
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT

from attention_docs_site.site import bytecode, pyodide

COMPILED = bytecode.compiled_folder(ROOT)
STDLIB_PREFIX, PACKAGES_PREFIX = "/lib/python312.zip/", "lib/python3.12/site-packages/"
CHECKED_HASH = 0b11  # PEP 552's flags: hash-based, check the source


def _source_hash(pyc: bytes, source: bytes) -> bytes:
    """The hash a checked .pyc must hold for ``source`` (importlib's own key)."""
    key = int.from_bytes(pyc[:4], "little")  # _RAW_MAGIC_NUMBER of the .pyc's Python
    return _imp.source_hash(key, source)


def _check(pyc: bytes, source: bytes) -> None:
    assert int.from_bytes(pyc[4:8], "little") == CHECKED_HASH
    assert pyc[8:16] == _source_hash(pyc, source)


@pytest.fixture(scope="module")
def sources() -> dict[str, bytes]:
    """Every .py file of the published wheels, by its path in site-packages."""
    lock = pyodide.read_lock(ROOT)
    found = {}
    for package in pyodide.verified_packages(lock, pyodide.package_source(ROOT)):
        with zipfile.ZipFile(io.BytesIO(package.data)) as wheel:
            for name in wheel.namelist():
                if name.endswith(".py"):
                    found[name] = wheel.read(name)
    return found


def test_the_compiled_files_were_made_from_this_runtime() -> None:
    bytecode.check_present(ROOT)


def test_every_standard_library_pyc_belongs_to_its_official_source() -> None:
    official = pyodide.runtime_folder(ROOT) / bytecode.STDLIB
    bytecode.check_stdlib(official, COMPILED / bytecode.STDLIB)
    with zipfile.ZipFile(COMPILED / bytecode.STDLIB) as archive:
        compiled = [n for n in archive.namelist() if n.endswith(".pyc")]
        assert len(compiled) > 100  # what a start imports: encodings, asyncio, ...
        for name in compiled:
            _check(archive.read(name), archive.read(name[:-1]))


def test_every_package_pyc_belongs_to_its_source_in_the_wheel(
    sources: dict[str, bytes],
) -> None:
    with zipfile.ZipFile(COMPILED / bytecode.BUNDLE) as bundle:
        names = bundle.namelist()
        compiled = [n for n in names if n.endswith(".pyc")]
        for name in compiled:
            folder, _, file = name.removeprefix(PACKAGES_PREFIX).rpartition("/")
            assert folder.endswith("__pycache__") and file.endswith(".cpython-312.pyc")
            module = file.removesuffix(".cpython-312.pyc") + ".py"
            source = f"{folder.removesuffix('__pycache__')}{module}"
            if source.startswith("attention_docs/"):  # the library, from src/
                pyc = bundle.read(name)
                assert int.from_bytes(pyc[4:8], "little") == CHECKED_HASH
                continue
            _check(bundle.read(name), sources[source])
        tops = {n.removeprefix(PACKAGES_PREFIX).split("/")[0] for n in compiled}
        assert {"numpy", "matplotlib", "PIL", "attention_docs"} <= tops
        assert set(names) - set(compiled) == {
            f"{PACKAGES_PREFIX}matplotlib/fontlist.json"
        }


def _files_of(wheel: bytes, prefix: str = PACKAGES_PREFIX) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        return {
            prefix + i.filename: archive.read(i)
            for i in archive.infolist()
            if not i.is_dir()
        }


def test_the_packages_archive_is_the_start_s_wheels_unchanged_and_the_bundle() -> None:
    """Read with tarfile: each file of a wheel a start installs, byte for byte,
    but the fonts it does not read, and the bundle's, whose font list stands in
    for the wheel's; nothing else."""
    lock = pyodide.read_lock(ROOT)
    start = pyodide.start_packages(lock)
    expected: dict[str, bytes] = {}
    for package in pyodide.verified_packages(lock, pyodide.package_source(ROOT)):
        if package.name in start:
            expected |= _files_of(package.data)
    # matplotlib's fonts that a start does not read: beside it, unchanged.
    later = {
        p.relative_to(COMPILED / bytecode.LATER).as_posix(): p.read_bytes()
        for p in (COMPILED / bytecode.LATER).rglob("*")
        if p.is_file()
    }
    fonts = {n for n in expected if n.startswith(PACKAGES_PREFIX + bytecode.FONTS)}
    assert len(later) > 30
    assert {PACKAGES_PREFIX + n for n in later} < fonts
    for name, data in later.items():
        assert expected.pop(PACKAGES_PREFIX + name) == data
    assert f"{PACKAGES_PREFIX}{bytecode.FONTS}ttf/DejaVuSans.ttf" in expected
    with zipfile.ZipFile(COMPILED / bytecode.BUNDLE) as bundle:
        replaced = {n: bundle.read(n) for n in bundle.namelist()}
    assert (
        expected[f"{PACKAGES_PREFIX}matplotlib/fontlist.json"]
        != (replaced[f"{PACKAGES_PREFIX}matplotlib/fontlist.json"])
    )
    expected |= replaced
    found = {}
    with tarfile.open(COMPILED / bytecode.IMAGE, "r:gz") as archive:
        for member in archive.getmembers():
            assert member.isfile() and member.name not in found
            file = archive.extractfile(member)
            assert file is not None
            found[member.name] = file.read()
    assert found.keys() == expected.keys()
    assert [n for n in found if found[n] != expected[n]] == []
    assert not any(n.startswith(f"{PACKAGES_PREFIX}fontTools/") for n in found)


def _wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def test_the_packages_archive_is_reproducible_and_refuses_a_file_twice(
    tmp_path: Path,
) -> None:
    one = _wheel(tmp_path / "one.whl", {"a/__init__.py": b"x = 1\n", "a/f.json": b"{}"})
    fonts = {f"{bytecode.FONTS}read.ttf": b"read", f"{bytecode.FONTS}later.ttf": b"L"}
    two = _wheel(tmp_path / "two.whl", {"b.py": b"y = 2\n", **fonts})
    bundle = _wheel(tmp_path / "bundle.zip", {f"/{PACKAGES_PREFIX}a/f.json": b"[1]"})
    first, second = tmp_path / "first.tar.gz", tmp_path / "second.tar.gz"
    read = [f"{bytecode.FONTS}read.ttf"]
    later = bytecode.write_image([one, two], bundle, first, fonts_read=read)
    assert later == {f"{bytecode.FONTS}later.ttf": b"L"}
    bytecode.write_image([one, two], bundle, second, fonts_read=read)
    assert first.read_bytes() == second.read_bytes()
    with tarfile.open(first, "r:gz") as archive:
        names = archive.getnames()
        in_order = ("a/__init__.py", "b.py", *read, "a/f.json")
        assert names == [f"{PACKAGES_PREFIX}{n}" for n in in_order]
        data = archive.extractfile(f"{PACKAGES_PREFIX}a/f.json")
        assert data is not None and data.read() == b"[1]"
    again = _wheel(tmp_path / "again.whl", {"b.py": b"y = 3\n"})
    with pytest.raises(pyodide.PyodideFileError, match="again.whl repeats .*b.py"):
        bytecode.write_image([one, two, again], bundle, first, fonts_read=read)


def test_the_site_s_lock_names_the_packages_archive_and_its_sha256(
    tmp_path: Path,
) -> None:
    pyodide.write_runtime(ROOT, tmp_path, compiled=True)
    written = bytecode.publish(ROOT, tmp_path)
    image = tmp_path / bytecode.FOLDER / bytecode.IMAGE
    assert (
        image in written
        and image.read_bytes() == (COMPILED / bytecode.IMAGE).read_bytes()
    )
    site = json.loads((tmp_path / pyodide.SITE_LOCK).read_text("utf-8"))
    entry = site[bytecode.IMAGE_ENTRY]
    assert tmp_path / entry["file_name"] == image
    assert entry["sha256"] == hashlib.sha256(image.read_bytes()).hexdigest()
    later = entry["later"]
    assert later["folder"] == f"{bytecode.FOLDER}/{bytecode.LATER}/"
    kept = COMPILED / bytecode.LATER
    assert later["files"] == sorted(
        p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file()
    )
    for name in later["files"]:
        published = tmp_path / later["folder"] / name
        assert published in written
        assert published.read_bytes() == (kept / name).read_bytes()
    assert not (tmp_path / bytecode.FOLDER / bytecode.BUNDLE).exists()


def test_the_font_list_names_matplotlib_s_own_fonts() -> None:
    """Paths relative to matplotlib's data folder, each a font the wheel has."""
    lock = pyodide.read_lock(ROOT)
    (wheel,) = [
        p
        for p in pyodide.verified_packages(
            lock, pyodide.package_source(ROOT), ["matplotlib"]
        )
        if p.name == "matplotlib"
    ]
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        files = set(archive.namelist())
    with zipfile.ZipFile(COMPILED / bytecode.BUNDLE) as bundle:
        fonts = json.loads(bundle.read(f"{PACKAGES_PREFIX}matplotlib/fontlist.json"))
    entries = fonts["ttflist"] + fonts["afmlist"]
    assert len(entries) > 30
    assert {f"matplotlib/mpl-data/{e['fname']}" for e in entries} <= files


def _zip(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize(
    ("ours", "message"),
    [
        ({"a.py": b"x = 2\n", "a.pyc": b"."}, "changes a.py"),
        ({"a.py": b"x = 1\n", "b.pyc": b"."}, "adds b.pyc"),
        ({"a.py": b"x = 1\n", "a.txt": b"."}, "adds a.txt"),
        ({"a.pyc": b"."}, "lacks a.py"),
    ],
)
def test_an_archive_that_is_not_the_official_one_plus_pyc_is_refused(
    tmp_path: Path, ours: dict[str, bytes], message: str
) -> None:
    official = _zip(tmp_path / "official.zip", {"a.py": b"x = 1\n"})
    compiled = _zip(tmp_path / "compiled.zip", ours)
    with pytest.raises(pyodide.PyodideFileError, match=message):
        bytecode.check_stdlib(official, compiled)
    bytecode.check_stdlib(official, _zip(tmp_path / "ok.zip", {"a.py": b"x = 1\n"}))


def test_missing_or_stale_compiled_files_say_how_to_make_them(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(
        pyodide.runtime_folder(ROOT), pyodide.runtime_folder(project), symlinks=True
    )
    with pytest.raises(pyodide.PyodideFileError, match="scripts/setup.sh"):
        bytecode.check_present(project)
    shutil.copytree(COMPILED, bytecode.compiled_folder(project))
    bytecode.check_present(project)
    stamp = bytecode.compiled_folder(project) / bytecode.STAMP
    made = json.loads(stamp.read_text())
    stamp.write_text(json.dumps({**made, "pyodide": "0.26.0"}))
    with pytest.raises(pyodide.PyodideFileError, match="another runtime"):
        bytecode.check_present(project)
    # Made from this runtime: compile_bytecode does nothing (no Node.js needed).
    stamp.write_text(json.dumps(made))
    assert bytecode.compile_bytecode(project, node="/nonexistent/node") == []


def test_a_library_module_changed_since_its_pyc_is_named_stale(tmp_path: Path) -> None:
    """Then the browser compiles it, as before: its hash no longer matches."""
    bundle = COMPILED / bytecode.BUNDLE
    project = tmp_path / "project"
    shutil.copytree(ROOT / "src" / "attention_docs", project / "src" / "attention_docs")
    before = bytecode.stale_library(project, bundle)
    assert before == bytecode.stale_library(ROOT, bundle)  # the same sources
    with zipfile.ZipFile(bundle) as archive:
        assert f"{PACKAGES_PREFIX}attention_docs/__pycache__/masks.cpython-312.pyc" in (
            archive.namelist()
        )
    masks = project / "src" / "attention_docs" / "masks.py"
    masks.write_text(masks.read_text() + "# changed\n")
    changed = "/lib/python3.12/site-packages/attention_docs/masks.py"
    assert bytecode.stale_library(project, bundle) == sorted({*before, changed})
