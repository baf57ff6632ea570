"""Pyodide's files: from npm and the carrier, each checked against the official lock."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from helpers import ROOT
from mkdocs.exceptions import PluginError
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from attention_docs_site.site import finish, pyodide

FLOOR_PYTHON = ROOT / ".venv-floor" / "bin" / "python"


@pytest.fixture(scope="module")
def lock() -> dict:
    return pyodide.read_lock(ROOT)


@pytest.fixture(scope="module")
def packages(lock: dict) -> list[pyodide.Package]:
    return list(pyodide.verified_packages(lock, pyodide.carrier_wheel(ROOT)))


# The marker environment of Pyodide 0.27.7 (Python 3.12 on Emscripten).
EMSCRIPTEN = {
    "python_version": "3.12",
    "python_full_version": "3.12.7",
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}


def _requirement_names(wheel: bytes) -> set[str]:
    """The distributions a wheel's METADATA requires on Pyodide (no extras)."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(name).decode("utf-8"))
    names = set()
    for line in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(EMSCRIPTEN):
            names.add(canonicalize_name(requirement.name))
    return names


def test_every_file_published_is_the_one_the_official_lock_names(
    lock: dict, packages: list[pyodide.Package]
) -> None:
    for package in packages:
        assert (
            hashlib.sha256(package.data).hexdigest()
            == lock["packages"][package.name]["sha256"]
        ), package.file_name
    assert {p.name for p in packages} >= set(pyodide.NEEDED)


def test_every_package_a_published_wheel_requires_is_published(
    packages: list[pyodide.Package],
) -> None:
    """Read from each wheel's own METADATA, not from the lock that chose them."""
    published = {canonicalize_name(p.name) for p in packages}
    for package in packages:
        if not package.file_name.endswith(".whl"):
            continue
        missing = _requirement_names(package.data) - published
        assert not missing, f"{package.file_name} requires {missing}, not published"


def test_the_library_needs_nothing_else_from_pyodide() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    required = {Requirement(line).name for line in project["dependencies"]}
    assert required == set(pyodide.NEEDED)


def test_the_runtime_is_npm_s_release_at_the_locked_version() -> None:
    package_lock = json.loads(
        (ROOT / "tools/pyodide/package-lock.json").read_text("utf-8")
    )
    entry = package_lock["packages"]["node_modules/pyodide"]
    assert entry["version"] == pyodide.VERSION
    assert entry["integrity"].startswith("sha512-")
    installed = json.loads(
        (pyodide.runtime_folder(ROOT) / "package.json").read_text("utf-8")
    )
    assert installed["version"] == pyodide.VERSION
    assert [p.name for p in pyodide.runtime_files(ROOT)] == list(pyodide.RUNTIME)


def _fake_distribution(
    tmp: Path, data: dict[str, bytes], lock_hashes: dict[str, str]
) -> tuple[dict, Path]:
    """A lock and a carrier holding ``data`` (file name -> bytes)."""
    packages = {}
    for (name, file_name), sha in zip(
        [("numpy", "numpy-2.0.2.whl"), ("matplotlib", "matplotlib-3.8.4.whl")],
        lock_hashes.values(),
        strict=True,
    ):
        depends = ["numpy"] if name == "matplotlib" else []
        packages[name] = {
            "file_name": file_name,
            "sha256": sha,
            "depends": depends,
            "version": "0",
        }
    carrier = tmp / "carrier.whl"
    with zipfile.ZipFile(carrier, "w") as archive:
        for file_name, content in data.items():
            archive.writestr(pyodide.CARRIER_FOLDER + file_name, content)
    return {"info": {"version": pyodide.VERSION}, "packages": packages}, carrier


def test_a_file_that_is_not_the_lock_s_fails_naming_it(tmp_path: Path) -> None:
    good, bad = b"numpy's bytes", b"matplotlib's bytes, changed"
    hashes = {
        "numpy": hashlib.sha256(good).hexdigest(),
        "matplotlib": hashlib.sha256(b"matplotlib's bytes").hexdigest(),
    }
    lock, carrier = _fake_distribution(
        tmp_path, {"numpy-2.0.2.whl": good, "matplotlib-3.8.4.whl": bad}, hashes
    )
    with pytest.raises(pyodide.PyodideFileError) as error:
        list(pyodide.verified_packages(lock, carrier))
    message = str(error.value)
    assert "matplotlib-3.8.4.whl" in message
    assert hashes["matplotlib"] in message
    assert hashlib.sha256(bad).hexdigest() in message


def test_a_file_missing_from_the_carrier_fails_naming_it(tmp_path: Path) -> None:
    data = b"numpy's bytes"
    hashes = {"numpy": hashlib.sha256(data).hexdigest(), "matplotlib": "0" * 64}
    lock, carrier = _fake_distribution(tmp_path, {"numpy-2.0.2.whl": data}, hashes)
    with pytest.raises(pyodide.PyodideFileError, match=r"no .*matplotlib-3\.8\.4\.whl"):
        list(pyodide.verified_packages(lock, carrier))


def test_another_release_of_the_runtime_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "tools" / "pyodide" / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    lock = json.loads((pyodide.runtime_folder(ROOT) / pyodide.LOCK).read_text("utf-8"))
    lock["info"]["version"] = "0.28.0"
    (folder / pyodide.LOCK).write_text(json.dumps(lock), "utf-8")
    with pytest.raises(pyodide.PyodideFileError, match=r"0\.28\.0, not 0\.27\.7"):
        pyodide.read_lock(tmp_path)


def test_a_build_without_the_runtime_names_the_file_and_the_way_around(
    tmp_path: Path,
) -> None:
    """A clone without tools/pyodide/ learns what is missing, and how to build:
    at the build's start, and where the runtime is written."""
    for step in (
        finish.check_pyodide,
        lambda project: finish.write_pyodide(project, tmp_path / "site"),
    ):
        with pytest.raises(PluginError) as error:
            step(tmp_path)
        message = str(error.value)
        assert str(pyodide.runtime_folder(tmp_path) / pyodide.LOCK) in message
        assert "scripts/setup.sh" in message
        assert "ATTENTION_DOCS_RUN_BUTTONS=off" in message
    assert not (tmp_path / "site").exists()
    finish.check_pyodide(ROOT)  # this clone has them


def test_a_missing_carrier_is_named_at_the_build_s_start(tmp_path: Path) -> None:
    folder = pyodide.runtime_folder(tmp_path)
    shutil.copytree(pyodide.runtime_folder(ROOT), folder, symlinks=True)
    with pytest.raises(PluginError, match=r"carrier.* holds 0: run scripts/setup\.sh"):
        finish.check_pyodide(tmp_path)


def test_the_floor_environment_has_pyodide_s_versions(lock: dict) -> None:
    """CI runs the library's tests in .venv-floor (.ci/run)."""
    assert FLOOR_PYTHON.exists(), "no .venv-floor: run bash scripts/setup.sh test"
    names = ["numpy", "matplotlib", "contourpy", "kiwisolver", "pillow", "fonttools"]
    script = "import importlib.metadata as m;" + "".join(
        f"print(m.version({name!r}));" for name in names
    )
    found = subprocess.run(
        [FLOOR_PYTHON, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert found == [lock["packages"][name]["version"] for name in names]
    assert shutil.which("node"), (
        "Node.js runs Pyodide in tests/e2e/test_pyodide_library.py"
    )


@pytest.mark.parametrize("form", ["carrier", "archive"])
def test_either_source_gives_the_lock_s_files(tmp_path: Path, form: str) -> None:
    """The carrier wheel and the unpacked release archive are read alike."""
    good = {"numpy-2.0.2.whl": b"numpy's bytes", "matplotlib-3.8.4.whl": b"mpl"}
    hashes = {name: hashlib.sha256(data).hexdigest() for name, data in good.items()}
    lock, source = _fake_distribution(tmp_path, good, hashes)
    if form == "archive":  # the release's files, side by side in one folder
        source = _archive(tmp_path, good)
    found = {p.file_name: p.data for p in pyodide.verified_packages(lock, source)}
    assert found == good


def test_a_file_of_the_archive_that_is_not_the_lock_s_is_named(tmp_path: Path) -> None:
    good = {"numpy-2.0.2.whl": b"numpy's bytes", "matplotlib-3.8.4.whl": b"mpl"}
    hashes = {name: hashlib.sha256(data).hexdigest() for name, data in good.items()}
    lock, _ = _fake_distribution(tmp_path, good, hashes)
    source = _archive(tmp_path, {**good, "matplotlib-3.8.4.whl": b"mpl, changed"})
    changed = r"matplotlib-3\.8\.4\.whl in archive has sha256 [0-9a-f]{64}; the"
    with pytest.raises(pyodide.PyodideFileError, match=changed):
        list(pyodide.verified_packages(lock, source))
    (source / "matplotlib-3.8.4.whl").write_bytes(good["matplotlib-3.8.4.whl"])
    (source / "numpy-2.0.2.whl").unlink()
    missing = r"archive has no numpy-2\.0\.2\.whl"
    with pytest.raises(pyodide.PyodideFileError, match=missing):
        list(pyodide.verified_packages(lock, source))


def _archive(tmp: Path, files: dict[str, bytes]) -> Path:
    folder = tmp / "archive"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def test_the_unpacked_archive_is_taken_before_the_carrier(tmp_path: Path) -> None:
    carrier = pyodide.tools_folder(tmp_path) / "carrier"
    carrier.mkdir(parents=True)
    (carrier / "carrier-0.1-py3-none-any.whl").write_bytes(b"")
    assert pyodide.package_source(tmp_path) == carrier / "carrier-0.1-py3-none-any.whl"
    pyodide.archive_folder(tmp_path).mkdir()
    assert pyodide.package_source(tmp_path) == pyodide.archive_folder(tmp_path)


def test_the_site_s_lock_leaves_the_packages_a_start_never_imports_for_later(
    lock: dict, tmp_path: Path
) -> None:
    """Only matplotlib's dependencies change; every entry and file is the lock's."""
    written = pyodide.write_runtime(ROOT, tmp_path)
    site = json.loads((tmp_path / pyodide.SITE_LOCK).read_text("utf-8"))
    assert tmp_path / pyodide.SITE_LOCK in written
    assert site["attention_docs_on_demand"] == list(pyodide.ON_DEMAND)
    assert site["info"] == lock["info"]
    ours, theirs = site["packages"], lock["packages"]
    changed = {name for name in theirs if ours[name] != theirs[name]}
    assert changed == {"matplotlib"}
    depends = lock["packages"]["matplotlib"]["depends"]
    assert site["packages"]["matplotlib"]["depends"] == [
        d for d in depends if d not in pyodide.ON_DEMAND
    ]
    assert set(pyodide.ON_DEMAND) < set(depends)
    # Still published, each the lock's file: the worker installs it when asked.
    for name in pyodide.ON_DEMAND:
        assert (tmp_path / lock["packages"][name]["file_name"]).is_file()
    # What loads at a start: the closure of the site's lock, without them.
    assert set(pyodide.closure(site)) == set(pyodide.closure(lock)) - set(
        pyodide.ON_DEMAND
    )
    start = pyodide.start_packages(lock)
    assert set(start) == set(pyodide.closure(lock)) - set(pyodide.ON_DEMAND)
    assert start == sorted(start) and {"numpy", "matplotlib", "pillow"} <= set(start)


def test_the_site_publishes_only_the_wheels_installed_later(
    lock: dict, tmp_path: Path
) -> None:
    """The start's packages and the standard library come compiled (bytecode.py)."""
    pyodide.write_runtime(ROOT, tmp_path, compiled=True)
    wheels = {p.name for p in tmp_path.glob("*.whl")}
    assert wheels == {lock["packages"][n]["file_name"] for n in pyodide.ON_DEMAND}
    assert not (tmp_path / "python_stdlib.zip").exists()
    assert (tmp_path / "pyodide.asm.wasm").is_file()
