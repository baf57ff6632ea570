"""The library's wheel, built with the site and published beside it.

A reader who runs an exercise notebook needs the library at the version that
drew the site's figures. The build makes that version's wheel from the
repository's ``pyproject.toml`` with hatchling, in this process (a tenth of a
second), and publishes it at ``dist/<wheel>`` under the site's root; the
notebooks' setup cell (:mod:`.notebook_setup`) installs it from there, or
from the copy inside each notebook zip and offline copy. hatchling writes
reproducible wheels: every entry is dated ``SOURCE_DATE_EPOCH`` (or its own
fixed date), so the same source gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attention_docs_site.layout import DIST_FOLDER


@dataclass(frozen=True)
class Wheel:
    """The library's distribution, as the site publishes it.

    Parameters:
        name: The distribution's name, e.g. ``attention_docs``.
        version: Its version, e.g. ``0.1.0``.
        file: The wheel's file name.
    """

    name: str
    version: str
    file: str

    @property
    def path(self) -> str:
        """Where the site publishes it, relative to the site's root."""
        return f"{DIST_FOLDER}/{self.file}"


def library_wheel(project: Path) -> Wheel:
    """The wheel the project's ``pyproject.toml`` makes (without building it).

    Parameters:
        project: The folder of ``pyproject.toml`` (the repository's root).

    Raises:
        ValueError: There is no ``pyproject.toml``, or it is not the library's.
    """
    from hatchling.builders.wheel import WheelBuilder

    pyproject = project / "pyproject.toml"
    if not pyproject.is_file():
        raise ValueError(f"{pyproject} is missing: the build publishes its wheel")
    metadata = WheelBuilder(str(project)).metadata
    name = metadata.core.name.replace("-", "_")
    if name != "attention_docs":
        raise ValueError(f"{pyproject} makes {name!r}, not the library")
    version = metadata.version
    return Wheel(name, version, f"{name}-{version}-py3-none-any.whl")


def write_wheel(project: Path, site_dir: Path) -> Path:
    """Build the library's wheel into the site's ``dist/`` folder.

    Parameters:
        project: The folder of ``pyproject.toml``.
        site_dir: The built site.

    Returns:
        The wheel written.
    """
    from hatchling.builders.wheel import WheelBuilder

    wheel = library_wheel(project)
    folder = site_dir / DIST_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / wheel.file
    target.unlink(missing_ok=True)
    (built,) = WheelBuilder(str(project)).build(
        directory=str(folder), versions=["standard"]
    )
    if Path(built) != target:
        raise ValueError(f"hatchling built {built}, not {target}")
    return target
