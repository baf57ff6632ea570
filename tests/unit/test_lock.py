"""The lock (requirements/constraints.txt) pins everything pyproject.toml asks for."""

import re
import tomllib

import pytest
from helpers import ROOT
from packaging.requirements import Requirement
from packaging.version import Version

CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# Installed by scripts/setup.sh itself, at its own version and build.
UNPINNED = {"torch"}
IN_REPOSITORY = {"attention-docs", "attention-docs-site"}


def normalise(name):
    """A distribution's name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(text):
    """The constraints file's pins: {normalised name: version}."""
    found = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line).groups()
            found[normalise(name)] = Version(version)
    return found


def requirements():
    """Every requirement of the project's dependencies and dependency groups."""
    listed = list(PYPROJECT["project"]["dependencies"])
    for group in PYPROJECT["dependency-groups"].values():
        listed += [item for item in group if isinstance(item, str)]
    return [Requirement(item) for item in listed]


def unpinned(text):
    """The requirements without a pin in ``text``, and the pins out of range."""
    pinned = pins(text)
    missing = []
    for requirement in requirements():
        version = pinned.get(normalise(requirement.name))
        if version is None or not requirement.specifier.contains(version):
            missing.append(str(requirement))
    return missing


LOCK = CONSTRAINTS.read_text(encoding="utf-8")


def test_every_line_is_an_exact_pin_or_a_comment():
    assert pins(LOCK)  # each line parses, or pins() raises
    assert all(
        line.startswith("#") or "==" in line for line in LOCK.splitlines() if line
    )


def test_every_dependency_and_group_member_is_pinned_within_its_range():
    assert unpinned(LOCK) == []


def test_torch_and_the_repositorys_own_packages_are_not_pinned():
    assert not (UNPINNED | IN_REPOSITORY) & set(pins(LOCK))
    assert "torch" in {
        normalise(Requirement(r).name)
        for r in PYPROJECT["project"]["optional-dependencies"]["model"]
    }


def test_the_pins_are_sorted_by_name():
    names = list(pins(LOCK))
    assert names == sorted(names)


@pytest.mark.parametrize("package", ["mypy", "numpy", "mkdocs", "pytest"])
def test_a_missing_pin_is_reported(package):
    line = next(
        line
        for line in LOCK.splitlines()
        if line and normalise(line.split("==")[0]) == package
    )
    without = LOCK.replace(line + "\n", "")
    assert [r for r in unpinned(without) if normalise(Requirement(r).name) == package]


def test_a_pin_out_of_range_is_reported():
    bumped = re.sub(r"(?m)^numpy==\S+$", "numpy==1.0.0", LOCK)
    assert bumped != LOCK
    assert [r for r in unpinned(bumped) if r.startswith("numpy")]
