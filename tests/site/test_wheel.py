"""The library's distributions: what a student installs, and what the site publishes.

Built as the release workflow builds them (``python -m build``), checked as
PyPI checks them (``twine check --strict``), and read back.
"""

import email
import subprocess
import sys
import tarfile
import zipfile

import pytest
from helpers import ROOT
from packaging.requirements import Requirement

import attention_docs
from attention_docs_site.wheel import library_wheel, write_wheel


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The wheel and the sdist, built from the repository once."""
    out = tmp_path_factory.mktemp("dist")
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out)]
    run = subprocess.run([*command, str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return wheel, sdist


def metadata(wheel):
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_twine_accepts_both_distributions(dist):
    command = [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_torch_is_required_only_by_the_model_extra(dist):
    requirements = [Requirement(r) for r in metadata(dist[0]).get_all("Requires-Dist")]
    always = {r.name for r in requirements if r.marker is None}
    assert always == {"numpy", "matplotlib"}
    (torch,) = [r for r in requirements if r.name == "torch"]
    assert torch.marker.evaluate({"extra": "model"})
    assert not torch.marker.evaluate({"extra": ""})
    assert torch.specifier.contains("2.13.0")
    assert metadata(dist[0]).get_all("Provides-Extra") == ["model"]


def test_the_wheel_holds_the_library_and_its_licences_only(dist):
    wheel, _ = dist
    meta = metadata(wheel)
    assert meta["Name"] == "attention_docs"
    assert meta["Version"] == attention_docs.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"attention_docs-{attention_docs.__version__}.dist-info"
        licence = archive.read(f"{info}/licenses/LICENSE").decode()
    assert licence == (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n\nCopyright (c) ")
    tops = {name.split("/")[0] for name in names}
    assert tops == {"attention_docs", info}
    assert "attention_docs/font_files/NotoSansCJKsc-figures.otf" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_sdist_holds_the_library_not_the_site(dist):
    _, sdist = dist
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert "src/attention_docs/model.py" in names and "LICENSE" in names
    assert not [n for n in names if n.startswith(("src/attention_docs_site", "docs"))]


def test_the_sites_wheel_is_the_same_bytes_for_the_same_source(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1763769600")
    first = write_wheel(ROOT, tmp_path / "a").read_bytes()
    second = write_wheel(ROOT, tmp_path / "b")
    assert second.read_bytes() == first
    assert second.name == library_wheel(ROOT).file
    with zipfile.ZipFile(second) as archive:
        dates = {info.date_time for info in archive.infolist()}
    assert dates == {(2025, 11, 22, 0, 0, 0)}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert write_wheel(ROOT, tmp_path / "c").read_bytes() != first


def test_library_wheel_refuses_a_folder_without_the_library(tmp_path):
    with pytest.raises(ValueError, match="pyproject.toml is missing"):
        library_wheel(tmp_path)
